#!/usr/bin/env python3
"""Program output and numbered figures, woven into a chapter's pages.

weave.py calls `weave_chapter` on the documentation of each chapter; the
rest of this file is the two conventions it implements (see book/README.md,
"The shape of a chapter").

Output blocks.  A language-neutral div in the prose, outside any passage,

    ::: {.output program=ch02 part=transpose}
    ```python
    print(x.t().stride())
    ```
    :::

becomes a block that shows the PyTorch lines inside it with what PyTorch
1.13 prints for them (recorded in book/pytorch/ch02.out by book/pytorch.py,
since the build need not have torch), and the part `transpose` of what
`build/bin/ch02` prints.  The program marks its parts when run with
`--parts`: a line `@part NAME` starts part NAME.  The Makefile captures that
output at build time (addresses normalised by tests/normalize.sh) into
OUTDIR/ch02.txt, so the block never goes stale.  A part the program does
not print, a missing capture or a missing PyTorch recording stops the
weave with a message that says which.  The div may be empty: then only
the program's part is shown.

Figures.  An image with an id `fig-...`, alone in its paragraph,

    ![The transpose `x.t()`.](../fig/ch02-transpose.en.svg){#fig-ch02-transpose}

is numbered in the order the English passages of its chapter show it: its
caption gets "Figure 2.3. " (in Chinese passages, "图 2.3　"), and every
empty link to it, `[](#fig-ch02-transpose)`, becomes "Figure 2.3" or
"图 2.3".  A reference to no figure stops the weave.
"""

import os
import re
import sys

MARK = '@part '

OUTPUT_OPEN = re.compile(r'^(:{3,})\s*\{([^}]*\.output\b[^}]*)\}\s*$')
DIV_CLOSE = re.compile(r'^:{3,}\s*$')
LANG_OPEN = re.compile(r'^:{3,}\s*\{[^}]*\blang=(en|zh)\b[^}]*\}\s*$')
ATTR = re.compile(r'([\w-]+)=(?:"([^"]*)"|(\S+))')
PYTHON_FENCE = re.compile(r'^(`{3,}|~{3,})\s*\{?\.?python\}?\s*$')
FIGURE = re.compile(r'!\[(?P<caption>.*?)\]\((?P<src>[^)\s]+)\)'
                    r'\{#(?P<id>fig-[\w-]+)\}', re.S)
FIGURE_REF = re.compile(r'\[\]\(#(fig-[\w-]+)\)')

LABELS = {
    'pytorch': ('PyTorch 1.13', 'PyTorch 1.13'),
    'program': ('our C program, `build/bin/%s`', '我们的 C 程序 `build/bin/%s`'),
    'figure': ('Figure', '图'),
}


class WeaveError(Exception):
    pass


def read_parts(path, marker=MARK):
    """{name: text} of a file whose parts start with lines `@part NAME`."""
    parts, name, lines = {}, None, []
    with open(path, encoding='utf-8') as f:
        for line in f.read().split('\n'):
            if line.startswith(marker):
                if name is not None:
                    parts[name] = lines
                name, lines = line[len(marker):].strip(), []
            elif name is not None:
                lines.append(line)
    if name is not None:
        parts[name] = lines
    return {k: '\n'.join(v).strip('\n') for k, v in parts.items()}


class Sources:
    """Where the captured program output and PyTorch recordings live."""

    def __init__(self, outputs_dir, pytorch_dir):
        self.outputs_dir, self.pytorch_dir = outputs_dir, pytorch_dir
        self.cache = {}

    def parts(self, kind, program):
        key = (kind, program)
        if key not in self.cache:
            folder = self.outputs_dir if kind == 'program' else self.pytorch_dir
            if folder is None:
                raise WeaveError('no directory of %s output given (weave.py '
                                 '--outputs/--pytorch)' % kind)
            path = os.path.join(folder, program + ('.txt' if kind == 'program'
                                                   else '.out'))
            if not os.path.exists(path):
                raise WeaveError('%s is missing (%s)' % (path, 'make builds it'
                                 if kind == 'program' else
                                 'run: make pytorch-outputs'))
            self.cache[key] = (path, read_parts(path))
        return self.cache[key]


def fence(text, info=''):
    """A fenced code block holding text verbatim."""
    longest = max((len(r) for r in re.findall('`+', text)), default=0)
    f = '`' * max(3, longest + 1)
    return '%s%s\n%s\n%s\n' % (f, info, text, f)


def both(key, *args):
    en, zh = LABELS[key]
    return '[%s]{lang=en}[%s]{lang=zh}' % (en % args if args else en,
                                           zh % args if args else zh)


def output_block(attrs, body, sources):
    """The Markdown of one output div: PyTorch's lines and output, then
    the program's part."""
    program, part = attrs.get('program'), attrs.get('part')
    if not program or not part:
        raise WeaveError('an output div needs program= and part= (%s)' % attrs)
    path, parts = sources.parts('program', program)
    if part not in parts:
        raise WeaveError('%s has no part "%s": build/bin/%s --parts prints '
                         'the parts %s' % (path, part, program,
                                           ', '.join(sorted(parts)) or 'none'))
    python = python_lines(body)
    out = ['\n::::: {.answer #answer-%s-%s}\n' % (program, part)]
    if python:
        ppath, recorded = sources.parts('pytorch', program)
        if part not in recorded:
            raise WeaveError('%s has no part "%s" (run: make pytorch-outputs)'
                             % (ppath, part))
        out.append(':::: answer-pytorch\n[%s]{.answer-label}\n\n' % both('pytorch'))
        out.append(fence(python, '{.python}'))
        if recorded[part]:
            out.append('\n' + fence(recorded[part], '{.answer-out}'))
        out.append('::::\n')
    out.append(':::: answer-program\n[%s]{.answer-label}\n\n'
               % both('program', program))
    out.append(fence(parts[part], '{.answer-out}'))
    out.append('::::\n:::::\n')
    return ''.join(out)


def python_lines(body):
    """The code of the python fence in an output div's body ('' if none).
    noweb's escape of a literal `[[` in prose, `@[[`, is undone."""
    inside, code = None, []
    for line in body:
        if inside is None:
            m = PYTHON_FENCE.match(line)
            if m:
                inside = m.group(1)
            elif line.strip():
                raise WeaveError('an output div holds only a ```python block, '
                                 'not: %s' % line)
        elif line.startswith(inside[0] * len(inside)) and not line.strip(inside[0]):
            inside = ''
        elif inside:
            code.append(line.replace('@[[', '[['))
    return '\n'.join(code).strip('\n')


def output_divs(lines):
    """Yield (start, end, attrs, body) of each output div in lines."""
    i = 0
    while i < len(lines):
        m = OUTPUT_OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        attrs = {k: (a or b) for k, a, b in ATTR.findall(m.group(2))}
        j, in_fence = i + 1, None
        while j < len(lines):
            f = re.match(r'^(`{3,}|~{3,})', lines[j])
            if in_fence is None and f:
                in_fence = f.group(1)
            elif in_fence is not None and lines[j].strip() == in_fence:
                in_fence = None
            elif in_fence is None and DIV_CLOSE.match(lines[j]):
                break
            j += 1
        if j == len(lines):
            raise WeaveError('unclosed output div: %s' % lines[i])
        yield i, j, attrs, lines[i + 1:j]
        i = j + 1


def weave_outputs(text, sources):
    lines = text.split('\n')
    out, last = [], 0
    for start, end, attrs, body in output_divs(lines):
        out.extend(lines[last:start])
        out.append(output_block(attrs, body, sources))
        last = end + 1
    out.extend(lines[last:])
    return '\n'.join(out)


def passages(text):
    """Split docs text into (lang, text) runs; lang None outside passages."""
    runs, lang, buf = [], None, []
    for line in text.split('\n'):
        m = LANG_OPEN.match(line)
        if lang is None and m:
            runs.append((None, buf))
            lang, buf = m.group(1), [line]
        elif lang is not None and DIV_CLOSE.match(line):
            buf.append(line)
            runs.append((lang, buf))
            lang, buf = None, []
        else:
            buf.append(line)
    runs.append((lang, buf))
    return [(l, '\n'.join(b)) for l, b in runs if b]


def number_figures(chapter_num, docs):
    """{figure id: number}, in the order the English passages show them."""
    numbers = {}
    for text in docs:
        for lang, run in passages(text):
            if lang == 'en':
                for m in FIGURE.finditer(run):
                    if m.group('id') in numbers:
                        raise WeaveError('figure #%s shown twice' % m.group('id'))
                    numbers[m.group('id')] = '%d.%d' % (chapter_num, len(numbers) + 1)
    return numbers


def weave_figures(text, numbers):
    out = []
    for lang, run in passages(text):
        i = 1 if lang == 'zh' else 0
        word = LABELS['figure'][i]

        def caption(m):
            n = numbers.get(m.group('id'))
            if n is None:
                raise WeaveError('figure #%s is not shown in the English text'
                                 % m.group('id'))
            sep = '　' if lang == 'zh' else '. '
            return '![%s %s%s%s](%s){#%s}' % (word, n, sep, m.group('caption'),
                                             m.group('src'), m.group('id'))

        def ref(m):
            if m.group(1) not in numbers:
                raise WeaveError('reference to an unknown figure #%s' % m.group(1))
            return '[%s %s](#%s)' % (word, numbers[m.group(1)], m.group(1))

        run = FIGURE.sub(caption, run)
        out.append(FIGURE_REF.sub(ref, run))
    return '\n'.join(out)


def weave_chapter(chapter_num, chapter_file, docs, outputs_dir, pytorch_dir):
    """The documentation chunks of a chapter (a list of str), with their
    output divs filled and their figures numbered.  Exits on an error."""
    try:
        sources = Sources(outputs_dir, pytorch_dir)
        numbers = number_figures(chapter_num, docs)
        return [weave_figures(weave_outputs(t, sources), numbers) for t in docs]
    except WeaveError as e:
        sys.exit('weave.py: %s: %s' % (chapter_file, e))


def apply(chapter, outputs_dir, pytorch_dir):
    """weave.py's hook: rewrite the docs parts of a woven Chapter."""
    docs = [p for p in chapter.parts if isinstance(p, str)]
    woven = iter(weave_chapter(chapter.num, chapter.file, docs, outputs_dir,
                               pytorch_dir))
    chapter.parts = [next(woven) if isinstance(p, str) else p
                     for p in chapter.parts]
