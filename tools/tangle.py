#!/usr/bin/env python3
"""Tangle root chunks from noweb's pipeline, keeping indentation and #line.

Usage: tangle.py PIPELINE OUTDIR ROOT...

PIPELINE is what `/usr/lib/noweb/markup FILE...` printed for the chapters
in book order.  For each ROOT (a chunk name that is a relative file path)
this writes OUTDIR/ROOT: the root chunk with every `<<use>>` expanded,
definitions of one name concatenated in book order.

Unlike `notangle -L`, which drops the indentation of the lines of an
expanded chunk, a chunk used as `    <<name>>` is indented by the text in
front of the use (tabs kept, other characters turned into spaces), as
plain `notangle` does.  And like `notangle -L`, compiler errors point at
the .nw files: a line `#line N "FILE"` comes before every line whose
source position is not the one the compiler would assume (the line right
after the previous one), so a run of lines from one place has a single
directive in front.  A blank line never carries a directive.

Exit status 1, with a message, if a chunk is used but never defined or
uses itself (directly or not).  (tangle.sh checks the chunk graph before
calling this; the checks here only keep this tool safe on its own.)
"""

import os
import sys


def read_pipeline(stream):
    """{name: [definition]}, a definition being a list of source lines,
    each (file, line number, [('text', s) | ('use', name)])."""
    defs = {}
    filename, lineno = None, 1
    current = None          # the definition being read
    line_parts = None       # parts of the current code line
    skip_defn_line = False  # still on the `<<name>>=` line
    for raw in stream:
        key, _, arg = raw.rstrip('\n').partition(' ')
        if key == '@file':
            filename, lineno = arg, 1
        elif key == '@begin' and arg.startswith('code'):
            current, line_parts = None, []
        elif key == '@defn':
            current = defs.setdefault(arg, [])
            current.append([])
            current = current[-1]
            skip_defn_line = True
        elif key == '@end' and arg.startswith('code'):
            if current is not None and line_parts:
                current.append((filename, lineno, line_parts))
            current = line_parts = None
        elif key == '@nl':
            if current is not None and not skip_defn_line:
                current.append((filename, lineno, line_parts))
                line_parts = []
            skip_defn_line = False
            lineno += 1
        elif current is not None and not skip_defn_line:
            if key == '@text':
                line_parts.append(('text', arg))
            elif key == '@use':
                line_parts.append(('use', arg))
    return defs


class Writer:
    """Collects output lines and puts #line directives where needed."""

    def __init__(self):
        self.lines = []
        self.cur = ''           # the output line being built
        self.loc = None         # source (file, line) of its first non-blank text
        self.expect = None      # (file, line) the compiler assumes next

    def text(self, s, loc):
        if self.loc is None and s.strip():
            self.loc = loc
        self.cur += s

    def newline(self):
        if self.cur.strip() == '':
            self.lines.append('')
        else:
            if self.loc != self.expect:
                self.lines.append('#line %d "%s"' % (self.loc[1], self.loc[0]))
            self.lines.append(self.cur.rstrip())
            self.expect = self.loc
        if self.expect is not None:
            self.expect = (self.expect[0], self.expect[1] + 1)
        self.cur, self.loc = '', None

    def result(self):
        if self.cur:
            self.newline()
        return ''.join(line + '\n' for line in self.lines)


def indentation(prefix):
    """The whitespace that lines up under prefix (tabs stay tabs)."""
    return ''.join(c if c == '\t' else ' ' for c in prefix)


def expand(defs, name, out, indent, active):
    """Write chunk `name` to out; lines after the first get `indent`."""
    if name not in defs:
        sys.exit('tangle.py: chunk <<%s>> is used but never defined' % name)
    if name in active:
        sys.exit('tangle.py: chunk <<%s>> uses itself' % name)
    active.append(name)
    first = True
    for definition in defs[name]:
        for filename, lineno, parts in definition:
            if not first:
                out.newline()
                out.text(indent, None)
            first = False
            for kind, value in parts:
                if kind == 'text':
                    out.text(value, (filename, lineno))
                else:
                    expand(defs, value, out, indentation(out.cur), active)
    active.pop()


def main(argv):
    if len(argv) < 3 or argv[0] in ('-h', '--help'):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[0], encoding='utf-8') as f:
        defs = read_pipeline(f)
    for root in argv[2:]:
        out = Writer()
        expand(defs, root, out, '', [])
        path = os.path.join(argv[1], root)
        os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(out.result())
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
