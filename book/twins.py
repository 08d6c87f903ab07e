#!/usr/bin/env python3
"""Check and stamp the English/Chinese "twin" passages of .nw chapters.

Every documentation passage of a chapter is written twice, English first,
then its Chinese translation, as a pair of pandoc fenced divs:

    ::: {lang=en}
    English prose (pandoc Markdown).
    :::

    ::: {lang=zh src=1a2b3c4d}
    中文译文。
    :::

The zh div's `src` records which version of the English text it
translates: the first 8 hex digits of the SHA-256 of the English passage,
*normalised* as follows (see `passage_hash`):

  1. take the lines strictly between `::: {lang=en}` and its closing `:::`;
  2. strip each line and collapse every run of whitespace to one space;
  3. drop leading and trailing blank lines (inner blank lines stay, as "");
  4. join the lines with "\\n" and hash the UTF-8 bytes.

So re-wrapping or re-indenting the English does not make a translation
stale, but any change of words or of paragraph breaks does.

Usage:
    twins.py check FILE...          report problems as FILE:LINE: message
    twins.py stamp FILE [--line N]  set src= of zh twins to the current hash

`check` exits 1 if any problem is found.  `stamp` is how a writer marks a
translation as current after updating it; with --line N it touches only
the pair whose English (or Chinese) passage starts at or contains line N.

Code chunks (from a line `<<name>>=` to a line that is `@` or starts with
`@ `) are skipped.  In documentation only blank lines may stand outside a
passage, and passages may not contain nested divs.  A div of class
`output` (`::: {.output program=chNN part=NAME}`, see book/answers.py) has
no language and needs no twin.

`check` also rejects prose whose square brackets do not pair up (inline
code, noweb's [[code]], $math$ and backslash-escaped brackets aside): for
an unmatched `[` pandoc's reader looks for a `]` to the end of the page,
again at every later bracket, and a half-open interval written as [0, 1)
once made chapter 10's page take a minute and 8 GB to render.  Write it
as $[0, 1)$.  And it rejects a passage that still holds a writer's
placeholder (a word TODO, FIXME or TBD, or one ending in -PLACEHOLDER).
"""

import hashlib
import re
import sys

# `::: {attrs}` opens a div, a line of only colons closes one.
OPEN_RE = re.compile(r'^(:{3,})\s*\{([^}]*)\}\s*:*\s*$')
CLOSE_RE = re.compile(r'^:{3,}\s*$')
# noweb: a code chunk starts with `<<name>>=` and ends at `@` / `@ ...`.
CODE_START_RE = re.compile(r'^<<.*>>=\s*$')
CODE_END_RE = re.compile(r'^@(\s|$)')
# key=value or key="value" inside the braces of a div opener.
ATTR_RE = re.compile(r'([\w-]+)=(?:"([^"]*)"|(\S+))')
SRC_RE = re.compile(r'(\bsrc=)("?)([^"\s}]*)("?)')


def passage_hash(lines):
    """Hash of an English passage body (list of lines, without newlines)."""
    norm = [re.sub(r'\s+', ' ', line.strip()) for line in lines]
    while norm and norm[0] == '':
        norm.pop(0)
    while norm and norm[-1] == '':
        norm.pop()
    text = '\n'.join(norm)
    return hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]


class Passage:
    """One `::: {lang=..}` div: where it is, its attributes and its body."""

    def __init__(self, start, attrs):
        self.start = start          # 1-based line number of the opener
        self.end = None             # line number of the closing `:::`
        self.attrs = attrs          # dict, e.g. {'lang': 'zh', 'src': '..'}
        self.body = []              # lines between opener and closer
        self.twin = None            # en -> its zh twin, zh -> its en
        self.neutral = False        # a div of no language (class output)

    @property
    def lang(self):
        return self.attrs.get('lang')

    def contains(self, n):
        return self.start <= n <= (self.end or self.start)


def parse(lines):
    """Split a .nw file into passages; return (passages, problems).

    problems is a list of (line, message).  Twins are paired here: a zh
    passage is the twin of the en passage right before it, with nothing
    but blank lines in between.
    """
    passages, problems = [], []
    current = None      # the passage being read, if any
    in_code = False
    prev = None         # last closed passage, if only blank lines followed
    outside = False     # inside a run of text lines outside any passage

    for n, line in enumerate(lines, 1):
        if in_code:
            if CODE_END_RE.match(line):
                in_code = False
            continue    # (a new `<<name>>=` just starts another chunk)

        if current is not None:                 # inside a passage
            if CLOSE_RE.match(line):
                current.end = n
                passages.append(current)
                prev, current = current, None
                continue
            if not (OPEN_RE.match(line) or CODE_START_RE.match(line)):
                current.body.append(line)
                continue
            # A div or a code chunk starts: passages do not nest, so the
            # passage must have lost its closing `:::`.  Close it here and
            # read this line again as a new start.
            problems.append((current.start, 'unclosed div (line %d opens '
                             'a div or code chunk; passages do not nest)'
                             % n))
            current.end = n - 1
            passages.append(current)
            prev, current = current, None

        if line.strip() == '' or CODE_END_RE.match(line):
            outside = False     # blank line (or a stray noweb `@`)
            continue
        if CODE_START_RE.match(line):
            in_code, prev = True, None
            continue
        m = OPEN_RE.match(line)
        if not m:
            if not outside:     # report each run of stray text once
                problems.append((n, 'text outside a passage'))
            outside, prev = True, None
            continue
        outside = False
        attrs = {k: (v1 if v1 else v2)
                 for k, v1, v2 in ATTR_RE.findall(m.group(2))}
        current = Passage(n, attrs)
        # An output div (book/answers.py) is language-neutral.
        current.neutral = re.search(r'(^|\s)\.output(\s|$)', m.group(2)) is not None
        if current.lang == 'zh' and prev is not None and prev.lang == 'en' \
                and prev.twin is None:
            current.twin, prev.twin = prev, current

    if current is not None:
        problems.append((current.start, 'unclosed div'))
    return passages, problems


# What `unpaired_bracket` ignores: noweb's [[code]], `code`, $math$, \[.
QUOTED_RE = re.compile(r'\[\[.*?\]\]+', re.S)
CODE_SPAN_RE = re.compile(r'(`+).*?\1', re.S)
MATH_RE = re.compile(r'\$[^$]+\$')
ESCAPED_RE = re.compile(r'\\[][]')
# A writer's note that must not reach the reader.
PLACEHOLDER_RE = re.compile(r'(?<![\w-])(TODO|FIXME|TBD|[A-Z]+-PLACEHOLDER(-ZH)?)(?![\w-])')


def unpaired_bracket(body):
    """The offset, in lines from the body's start, of the first `[` or `]`
    of the prose that has no partner; None if they all pair up."""
    def blank(m):       # keep newlines, so that offsets stay right
        return re.sub(r'[^\n]', ' ', m.group(0))
    text = '\n'.join(body)
    for r in (QUOTED_RE, CODE_SPAN_RE, MATH_RE, ESCAPED_RE):
        text = r.sub(blank, text)
    open_at = []
    for i, ch in enumerate(text):
        if ch == '[':
            open_at.append(i)
        elif ch == ']':
            if not open_at:
                return text.count('\n', 0, i)
            open_at.pop()
    return text.count('\n', 0, open_at[0]) if open_at else None


def check_file(path):
    """Return a list of 'FILE:LINE: message' strings for one file."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    passages, problems = parse(lines)
    for p in passages:
        if p.lang == 'en' and p.twin is None:
            problems.append((p.start, 'English passage has no Chinese twin '
                                      'right after it'))
        elif p.lang == 'zh' and p.twin is None:
            problems.append((p.start, 'Chinese passage has no English '
                                      'passage right before it'))
        elif p.lang == 'zh' and not p.attrs.get('src'):
            problems.append((p.start, 'Chinese passage has no src= '
                                      '(run twins.py stamp)'))
        elif p.lang == 'zh':
            now = passage_hash(p.twin.body)
            if p.attrs['src'] != now:
                problems.append((p.start, 'stale translation: English '
                                 'passage at line %d changed (src=%s, now %s)'
                                 % (p.twin.start, p.attrs['src'], now)))
        elif p.lang not in ('en', 'zh') and not p.neutral:
            problems.append((p.start, 'div without lang=en or lang=zh'))
        for i, line in enumerate(p.body):
            m = PLACEHOLDER_RE.search(line)
            if m:
                problems.append((p.start + 1 + i, 'placeholder %s: the '
                                 'passage is not written yet' % m.group(1)))
        off = unpaired_bracket(p.body)
        if off is not None:
            problems.append((p.start + 1 + off, 'unpaired square bracket '
                             '(pandoc then scans to the end of the page at '
                             'every later bracket); write an interval as '
                             '$[0, 1)$, a lone bracket as \\['))
    return ['%s:%d: %s' % (path, n, msg) for n, msg in sorted(problems)]


def stamp_file(path, only_line=None):
    """Rewrite src= of zh twins in place; return the number changed."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    passages, _ = parse(lines)
    pairs = [(p.twin, p) for p in passages if p.lang == 'zh' and p.twin]
    if only_line is not None:
        pairs = [(en, zh) for en, zh in pairs
                 if en.contains(only_line) or zh.contains(only_line)]
        if not pairs:
            sys.exit('%s:%d: no English/Chinese pair here' % (path, only_line))
    changed = 0
    for en, zh in pairs:
        new = passage_hash(en.body)
        opener = lines[zh.start - 1]
        if SRC_RE.search(opener):
            fixed = SRC_RE.sub(lambda m: m.group(1) + m.group(2) + new
                               + m.group(4), opener, count=1)
        else:       # no src yet: add it before the closing brace
            fixed = re.sub(r'\s*\}', ' src=%s}' % new, opener, count=1)
        if fixed != opener:
            lines[zh.start - 1] = fixed
            changed += 1
            print('%s:%d: src=%s' % (path, zh.start, new))
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines))
    return changed


def main(argv):
    if len(argv) >= 2 and argv[0] == 'check':
        report = [msg for path in argv[1:] for msg in check_file(path)]
        for msg in report:
            print(msg)
        return 1 if report else 0
    if len(argv) in (2, 4) and argv[0] == 'stamp':
        line = None
        if len(argv) == 4:
            if argv[2] != '--line' or not argv[3].isdigit():
                sys.exit(__doc__)
            line = int(argv[3])
        stamp_file(argv[1], line)
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
