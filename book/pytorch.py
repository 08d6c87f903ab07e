#!/usr/bin/env python3
"""Record what PyTorch prints for the Python lines of the chapters.

Each output div of a chapter (see book/answers.py) may hold a few lines of
Python, the PyTorch lines that the chapter's program answers.  This tool
runs them with a Python that has torch, the lines of one program's divs in
book order and in one namespace (so a later div may use what an earlier
one defined), and stores what each div prints:

    python3 book/pytorch.py record   writes book/pytorch/chNN.out
    python3 book/pytorch.py check    runs them again and fails, with a diff,
                                     if a recording is stale (skipped, with
                                     a message, when no Python has torch)

The recordings are committed, so that the book builds without torch.  A
recording is a line of provenance, then for each div a line `@part NAME`
and what it printed; book/answers.py reads it.
"""

import csv
import difflib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import answers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTDIR = os.path.join(ROOT, 'book', 'pytorch')

# Runs in the torch interpreter: parts as JSON on stdin, their output as
# JSON on stdout.  An exception in a part is the writer's mistake.
DRIVER = r'''
import contextlib, io, json, sys, traceback
import torch
parts, ns, out = json.load(sys.stdin), {}, []
for name, code in parts:
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(code, "<part %s>" % name, "exec"), ns)
    except Exception:
        sys.stderr.write("part %s raised:\n%s" % (name, traceback.format_exc()))
        sys.exit(1)
    out.append((name, buf.getvalue()))
json.dump({"version": torch.__version__, "parts": out}, sys.stdout)
'''


def torch_python():
    for exe in (sys.executable, '/usr/bin/python3'):
        if exe and os.path.exists(exe) and subprocess.run(
                [exe, '-c', 'import torch'], capture_output=True).returncode == 0:
            return exe
    return None


def chapter_files():
    with open(os.path.join(ROOT, 'chapters.tsv'), encoding='utf-8') as f:
        return [os.path.join(ROOT, r['file'])
                for r in csv.DictReader(f, delimiter='\t')]


def python_parts():
    """{program: [(part, code)]} over all chapters, in book order."""
    programs = {}
    for path in chapter_files():
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
        for _, _, attrs, body in answers.output_divs(lines):
            code = answers.python_lines(body)
            if code:
                programs.setdefault(attrs['program'], []).append(
                    (attrs['part'], code))
    return programs


def recording(python, parts):
    run = subprocess.run([python, '-c', DRIVER], input=json.dumps(parts),
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit('pytorch.py: %s' % run.stderr)
    result = json.loads(run.stdout)
    text = ['# What PyTorch %s prints for the Python lines of the output '
            'divs; written by book/pytorch.py record, do not edit.'
            % result['version']]
    for name, printed in result['parts']:
        text.append(answers.MARK + name)
        text.append(printed.rstrip('\n'))
    return '\n'.join(text) + '\n'


def main(argv):
    if argv not in (['record'], ['check']):
        sys.stderr.write(__doc__)
        return 2
    python = torch_python()
    if python is None:
        print('pytorch.py: skipped, no Python here can import torch')
        return 0
    stale = 0
    for program, parts in sorted(python_parts().items()):
        path = os.path.join(OUTDIR, program + '.out')
        new = recording(python, parts)
        if argv[0] == 'record':
            os.makedirs(OUTDIR, exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(new)
            print('wrote %s' % os.path.relpath(path, ROOT))
            continue
        old = open(path, encoding='utf-8').read() if os.path.exists(path) else ''
        if old != new:
            stale += 1
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True),
                os.path.relpath(path, ROOT), 'what PyTorch prints now'))
    if stale:
        print('pytorch.py: %d stale recording(s): run make pytorch-outputs' % stale)
    return 1 if stale else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
