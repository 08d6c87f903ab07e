#!/usr/bin/env python3
"""Weave noweb chapters into bilingual pandoc Markdown pages.

This is a noweb *backend*: it reads the pipeline that noweb's `markup`
prints and writes one Markdown page per chapter, plus the title page and
the chunk index:

    /usr/lib/noweb/markup chapters/01-a.nw chapters/02-b.nw \\
        | python3 book/weave.py --toc chapters.tsv --outdir build/book/md

writes build/book/md/01-a.md, 02-b.md, index.md (the front page: title,
preface, every planned chapter), front.md (the same for the EPUB),
chunks.md (chunk index), identifiers.md (where each C identifier is
defined and used), search.md (the search page of the HTML book) and, when
--glossary names an existing file, glossary.md.

Every page holds both languages: text that differs is wrapped in
`::: {lang=en}` / `::: {lang=zh}` divs or `[..]{lang=..}` spans, and the
pandoc filter book/lang.lua keeps one language.  Documentation chunks are
already written that way and are copied as they are (noweb's `[[code]]`
becomes `code`).

Each code chunk definition becomes a Div of class `chunk`, with the id
`nw-NN-SLUG-K`: NN the chapter number, SLUG the chunk name in lowercase
with runs of other characters than a-z0-9 turned into '-', K counting the
definitions of that name within the chapter.  Its code is a fenced block
of class `nwcode` in which each `<<use>>` is replaced by a placeholder
`NWUSE<i>Q`; the attribute `uses="href|name;..."` tells lang.lua where the
i-th placeholder links to.
"""

import argparse
import csv
import json
import os
import re
import sys
from urllib.parse import quote

import answers     # program output and numbered figures (book/answers.py)

BOOK_TITLE = {'en': 'PyTorch internals, rebuilt in literate C',
              'zh': 'PyTorch 内部机制：用文学化 C 重建'}
# Short words used on every page, in both languages.
WORDS = {
    'contents': ('Contents', '目录'),
    'chunks': ('Chunk index', '代码块索引'),
    'defined': ('defined in', '定义于'),
    'continued': ('continued in', '续于'),
    'used': ('used in', '用于'),
    'script': ('study script', '学习脚本'),
    'unwritten': ('not yet written', '尚未写成'),
    'coming': ('coming', '即将推出'),
    'identifiers': ('Identifier index', '标识符索引'),
    'glossary': ('Glossary', '术语表'),
    'search': ('Search', '搜索'),
    'preface': ('Preface', '前言'),
    'defines': ('defines', '定义'),
    'defined-at': ('defined in', '定义于'),
    'first-use': ('first used in', '首次出现'),
    'term-en': ('English', '英文'),
    'term-zh': ('Chinese', '中文'),
    'note': ('note', '说明'),
    'chapter-n': ('chapter %d', '第 %d 章'),
}


# ---------------------------------------------------------------- helpers

def md_escape(text):
    """Backslash-escape Markdown punctuation so text shows up verbatim."""
    return re.sub(r'([\\`*_{}\[\]()<>#$~^|@"\'!&])', r'\\\1', text)


def name_md(name):
    """A chunk name as Markdown: text escaped, noweb's [[code]] as `code`."""
    parts = re.split(r'\[\[(.*?)\]\]', name)
    return ''.join(md_escape(p) if i % 2 == 0 else '`%s`' % p
                   for i, p in enumerate(parts))


def plain_name(name):
    """A chunk name as plain text: noweb's [[code]] quotes dropped."""
    return re.sub(r'\[\[(.*?)\]\]', r'\1', name)


def slug(name):
    """'src/tensor.c' -> 'src-tensor-c' (lowercase, runs of others -> '-')."""
    return re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-') or 'chunk'


def both(key):
    """Inline Markdown showing WORDS[key] in the reader's language."""
    en, zh = WORDS[key]
    return '[%s]{lang=en}[%s]{lang=zh}' % (md_escape(en), md_escape(zh))


def inline_code(text):
    """Markdown inline code for text, with a fence longer than any run of
    backticks inside it."""
    longest = max((len(r) for r in re.findall('`+', text)), default=0)
    fence = '`' * (longest + 1)
    pad = ' ' if text.startswith('`') or text.endswith('`') else ''
    return fence + pad + text + pad + fence


def yaml_header(title_en, title_zh, pagetoc=False):
    """YAML metadata; lang.lua turns title-en/zh into the page title, and
    puts a table of contents of the page after its h1 if pagetoc."""
    fields = [('title-en', title_en), ('title-zh', title_zh),
              ('book-title-en', BOOK_TITLE['en']),
              ('book-title-zh', BOOK_TITLE['zh'])]
    # A JSON string is also a valid YAML double-quoted string.
    return '---\n%s\n%s---\n' % ('\n'.join(
        '%s: %s' % (k, json.dumps(md_escape(v), ensure_ascii=False))
        for k, v in fields), 'pagetoc: true\n' if pagetoc else '')


# ------------------------------------------------------------------ model

class Chapter:
    def __init__(self, row):
        self.num = int(row['num'])
        self.file = row['file']
        self.page = '%02d-%s' % (self.num, row['slug'])   # without .html
        self.title = {'en': row['title_en'], 'zh': row['title_zh']}
        script = row.get('script', '').strip()
        self.script = '' if script == '-' else script    # '-': no study script
        self.parts = []     # list of str (Markdown docs) or Chunk
        self.woven = False  # did markup give us this file?

    def heading(self, lang):
        if lang == 'en':
            return '%d. %s' % (self.num, self.title['en'])
        return '第 %d 章　%s' % (self.num, self.title['zh'])


class Chunk:
    """One definition of a code chunk."""

    def __init__(self, name, chapter, seq):
        self.name = name
        self.chapter = chapter
        self.seq = seq          # code chunk number within the chapter
        self.k = None           # k-th definition of this name in chapter
        self.code = []          # str pieces and ('use', name) tuples
        self.after_defn = False  # still on the `<<name>>=` line?

    @property
    def id(self):
        return 'nw-%02d-%s-%d' % (self.chapter.num, slug(self.name), self.k)

    @property
    def label(self):
        return '%d.%d' % (self.chapter.num, self.seq)

    def href(self, here):
        """Relative link to this chunk from a page (a Chapter or None)."""
        if here is self.chapter:
            return '#' + self.id
        return '%s.html#%s' % (self.chapter.page, self.id)

    def uses(self):
        return [p[1] for p in self.code if isinstance(p, tuple)]


def read_toc(path):
    with open(path, encoding='utf-8', newline='') as f:
        rows = list(csv.DictReader(f, delimiter='\t'))
    return sorted((Chapter(r) for r in rows), key=lambda c: c.num)


def find_chapter(chapters, filename):
    """The chapter of a file named by markup's @file line."""
    for c in chapters:
        if os.path.normpath(c.file) == os.path.normpath(filename):
            return c
    for c in chapters:      # fall back to the base name
        if os.path.basename(c.file) == os.path.basename(filename):
            return c
    sys.exit('weave.py: %s is not listed in the table of contents' % filename)


def quoted_code(before, text):
    """Markdown for noweb's [[text]] in prose.  Inside a Markdown code span
    (`tensor([[0, 1], [2, 3]])`: an odd number of backticks since the last
    blank line) the brackets were meant literally: give them back."""
    paragraph = re.split(r'\n[ \t]*\n', before)[-1]
    if paragraph.count('`') % 2 == 1:
        return '[[%s]]' % text
    return inline_code(text)


def read_markup(stream, chapters):
    """Fill chapter.parts from noweb's markup pipeline."""
    chapter = chunk = None
    docs = []           # Markdown text of the current docs chunk
    quote_buf = None    # text of a [[quoted code]] being read
    seq = 0
    for raw in stream:
        line = raw.rstrip('\n')
        key, _, arg = line.partition(' ')
        if key == '@file':
            chapter = find_chapter(chapters, arg)
            chapter.woven, seq = True, 0
        elif key == '@begin' and arg.startswith('docs'):
            docs = []
        elif key == '@end' and arg.startswith('docs'):
            chapter.parts.append(''.join(docs))
        elif key == '@begin' and arg.startswith('code'):
            seq += 1
            chunk = Chunk(None, chapter, seq)
        elif key == '@defn':
            chunk.name, chunk.after_defn = arg, True
        elif key == '@end' and arg.startswith('code'):
            chapter.parts.append(chunk)
            chunk = None
        elif key in ('@text', '@nl', '@use'):
            text = {'@text': arg, '@nl': '\n'}.get(key, '<<%s>>' % arg)
            if chunk is not None:
                if key == '@use':
                    chunk.code.append(('use', arg))
                elif chunk.after_defn and key == '@nl':
                    chunk.after_defn = False    # ends the `<<name>>=` line
                else:
                    chunk.code.append(text)
            elif quote_buf is not None:
                quote_buf.append(text)
            else:
                docs.append(text)
        elif key == '@quote':
            quote_buf = []
        elif key == '@endquote':
            docs.append(quoted_code(''.join(docs), ''.join(quote_buf)))
            quote_buf = None
        elif key == '@fatal':
            sys.exit('weave.py: noweb failed: %s' % arg)
        # Other keywords (@index, @xref, @language, ...) are not needed.


def cross_reference(chapters):
    """Number definitions; return {name: [defs]} and {name: [users]}."""
    defs, users = {}, {}
    for c in chapters:
        counts = {}
        for chunk in c.parts:
            if isinstance(chunk, Chunk):
                counts[chunk.name] = counts.get(chunk.name, 0) + 1
                chunk.k = counts[chunk.name]
                defs.setdefault(chunk.name, []).append(chunk)
    for c in chapters:
        for chunk in c.parts:
            if isinstance(chunk, Chunk):
                for used in chunk.uses():
                    if used not in defs:
                        sys.stderr.write('weave.py: %s: chunk <<%s>> is used '
                                         'but never defined\n'
                                         % (c.file, used))
                    lst = users.setdefault(used, [])
                    if chunk not in lst:
                        lst.append(chunk)
    slugs = {}
    for name in defs:
        other = slugs.setdefault(slug(name), name)
        if other != name:
            sys.stderr.write('weave.py: chunks <<%s>> and <<%s>> get the '
                             'same id slug\n' % (other, name))
    return defs, users


# ------------------------------------------------------------------ pages

def nav(chapters, page, here=None, extras=()):
    """The navigation bar of a page (a Div of class nav).  extras: the
    names of the optional pages that exist (e.g. 'glossary')."""
    items = ['[%s](index.html)' % both('contents')]
    woven = [c for c in chapters if c.woven]
    if here is not None:
        i = woven.index(here)
        if i > 0:
            p = woven[i - 1]
            items.append('[[← %s]{lang=en}[← %s]{lang=zh}](%s.html)' % (
                md_escape(p.heading('en')), md_escape(p.heading('zh')),
                p.page))
        if i + 1 < len(woven):
            n = woven[i + 1]
            items.append('[[%s →]{lang=en}[%s →]{lang=zh}](%s.html)' % (
                md_escape(n.heading('en')), md_escape(n.heading('zh')),
                n.page))
    items.append('[%s](chunks.html)' % both('chunks'))
    items.append('[%s](identifiers.html)' % both('identifiers'))
    if 'glossary' in extras:
        items.append('[%s](glossary.html)' % both('glossary'))
    items.append('[%s](search.html){.searchlink}' % both('search'))
    # book.js adds the reader's #fragment to this link when clicked.
    items.append('[[中文](../zh/%s.html){.langswitch}]{lang=en}'
                 '[[English](../en/%s.html){.langswitch}]{lang=zh}'
                 % (page, page))
    return '::: nav\n%s\n:::\n' % ' · '.join(items)


# Functions chunk -> Markdown ('' for nothing) whose results join the links
# of a chunk's head (main adds `defines ...`).
CHUNK_EXTRA = []


def chunk_markdown(chunk, defs, users):
    """Markdown of one code chunk definition."""
    here = chunk.chapter
    same = defs[chunk.name]
    i = same.index(chunk)
    sign = '≡' if i == 0 else '+≡'
    refs = []
    if i > 0:
        first = same[0]
        refs.append('%s [%s](%s)' % (both('defined'), first.label,
                                     first.href(here)))
    if i + 1 < len(same):
        n = same[i + 1]
        refs.append('%s [%s](%s)' % (both('continued'), n.label,
                                     n.href(here)))
    if users.get(chunk.name):
        refs.append('%s %s' % (both('used'), ', '.join(
            '[%s](%s)' % (u.label, u.href(here))
            for u in users[chunk.name])))
    head = '[⟨%s⟩%s]{.chunkname} [%s](#%s){.chunknum}' % (
        name_md(chunk.name), sign, chunk.label, chunk.id)
    refs += [r for r in (extra(chunk) for extra in CHUNK_EXTRA) if r]
    if refs:
        head += ' [%s]{.chunkrefs}' % ' · '.join(refs)

    # The code, each use replaced by a placeholder NWUSE<i>Q.
    text, uses = [], []
    for piece in chunk.code:
        if isinstance(piece, tuple):
            target = defs.get(piece[1])
            href = target[0].href(here) if target else ''
            uses.append('%s|%s' % (quote(href, safe='/#.-_'),
                                   quote(plain_name(piece[1]), safe=' /.-_')))
            text.append('NWUSE%dQ' % (len(uses) - 1))
        else:
            text.append(piece)
    code = ''.join(text).rstrip()
    longest = max((len(r) for r in re.findall('`+', code)), default=0)
    fence = '`' * max(3, longest + 1)
    attrs = '.c .nwcode #%s-code' % chunk.id
    if uses:
        attrs += ' uses="%s"' % ';'.join(uses)
    return ('\n:::: {#%s .chunk}\n::: chunkhead\n%s\n:::\n\n'
            '%s{%s}\n%s\n%s\n::::\n\n' % (chunk.id, head, fence, attrs,
                                          code, fence))


def chapter_page(chapter, chapters, defs, users):
    out = [yaml_header('Chapter %d · %s' % (chapter.num, chapter.title['en']),
                       '第 %d 章 · %s' % (chapter.num, chapter.title['zh']),
                       pagetoc=True),
           nav(chapters, chapter.page, chapter, EXTRAS),
           '\n# [%s]{lang=en}[%s]{lang=zh} {#page-%s}\n\n' % (
               md_escape(chapter.heading('en')),
               md_escape(chapter.heading('zh')), chapter.page)]
    for part in chapter.parts:
        if isinstance(part, Chunk):
            out.append(chunk_markdown(part, defs, users))
        else:
            out.append(link_mentions(part, defs, chapter))
    out.append('\n\n' + nav(chapters, chapter.page, chapter, EXTRAS))
    return ''.join(out)


# Optional pages that exist in this build ('glossary'), for the nav bars.
EXTRAS = set()


# ------------------------------------------------- prose mentions of chunks

MENTION_RE = re.compile(r'⟨([^⟨⟩\n]+(?:\n[^⟨⟩\n]+)?)⟩')
CODE_SPAN_RE = re.compile(r'(`+)(?:.|\n)*?(?<!`)\1(?!`)')


def link_mentions(text, defs, here):
    """Turn each ⟨chunk name⟩ of prose (outside `code`) into a link to the
    chunk's first definition.  A name may be broken across two lines; an
    unknown name is left as it is, with a warning."""
    def repl(m):
        name = re.sub(r'\s+', ' ', m.group(1)).strip()
        if name not in defs:
            sys.stderr.write('weave.py: %s: prose mentions ⟨%s⟩, which is '
                             'not a chunk\n' % (here.file, name))
            return m.group(0)
        return '[⟨%s⟩](%s){.chunkref}' % (name_md(name),
                                          defs[name][0].href(here))
    out, pos = [], 0
    for code in CODE_SPAN_RE.finditer(text):
        out.append(MENTION_RE.sub(repl, text[pos:code.start()]))
        out.append(code.group(0))
        pos = code.end()
    out.append(MENTION_RE.sub(repl, text[pos:]))
    return ''.join(out)


# ------------------------------------------------------ the front page

def read_plan(path, chapters):
    """Every planned chapter: the rows of the plan (num, title_en,
    title_zh, script), replaced by the table of contents' own row for a
    chapter that is there.  Returns [(num, Chapter or None, row)]."""
    rows = {}
    if path:
        with open(path, encoding='utf-8', newline='') as f:
            for r in csv.DictReader(f, delimiter='\t'):
                rows[int(r['num'])] = r
    listed = {c.num: c for c in chapters}
    nums = sorted(set(rows) | set(listed))
    return [(n, listed.get(n), rows.get(n)) for n in nums]


def read_preface(path):
    """The preface's bilingual Markdown (passages checked by twins.py)."""
    if not path:
        return ''
    with open(path, encoding='utf-8') as f:
        return f.read().strip() + '\n\n'


def contents_list(chapters, plan):
    """The list of every planned chapter, with links to those written."""
    out = ['::: toc\n']
    for num, c, row in plan:
        if c is None:       # planned, not yet in the table of contents
            title = '[%d. %s]{lang=en}[第 %d 章　%s]{lang=zh}' % (
                num, md_escape(row['title_en']), num,
                md_escape(row['title_zh']))
            item = '%s [%s]{.coming}' % (title, both('coming'))
            script = (row.get('script') or '').strip()
        else:
            title = '[%s]{lang=en}[%s]{lang=zh}' % (
                md_escape(c.heading('en')), md_escape(c.heading('zh')))
            if c.woven:
                item = '[%s](%s.html)' % (title, c.page)
            else:
                item = '%s [%s]{.unwritten}' % (title, both('unwritten'))
            script = c.script
        if script and script != '-':
            # A full-width colon in Chinese, an ASCII one in English.
            item += (' — [[%s: %s]{lang=en}[%s：%s]{lang=zh}]{.script}' % (
                md_escape(WORDS['script'][0]), inline_code(script),
                md_escape(WORDS['script'][1]), inline_code(script)))
        elif script == '-' or c is not None:
            # No study script: say so, so that the row does not look unfinished.
            item += (' — [[%s: —]{lang=en}[%s：—]{lang=zh}]{.script}' % (
                md_escape(WORDS['script'][0]), md_escape(WORDS['script'][1])))
        out.append('- %s\n' % item)
    out.append(':::\n\n::: backmatter\n')
    back = [('identifiers', 'identifiers'), ('chunks', 'chunks')]
    if 'glossary' in EXTRAS:
        back.insert(0, ('glossary', 'glossary'))
    for key, page in back:
        out.append('- [%s](%s.html)\n' % (both(key), page))
    out.append(':::\n')
    return ''.join(out)


def index_page(chapters, plan=None, preface=''):
    """The front page of the HTML book: title, preface, contents."""
    plan = plan if plan is not None else read_plan(None, chapters)
    return ''.join([
        yaml_header(BOOK_TITLE['en'], BOOK_TITLE['zh']),
        nav(chapters, 'index', extras=EXTRAS),
        '\n# [%s]{lang=en}[%s]{lang=zh} {#page-index}\n\n' % (
            md_escape(BOOK_TITLE['en']), md_escape(BOOK_TITLE['zh'])),
        preface,
        '## %s {#contents}\n\n' % both('contents'),
        contents_list(chapters, plan)])


def front_page(chapters, plan, preface):
    """The preface as the EPUB's first section (the EPUB has its own title
    page and table of contents, so no book title here)."""
    return ''.join([
        yaml_header(WORDS['preface'][0], WORDS['preface'][1]),
        '\n# %s {#page-index}\n\n' % both('preface'),
        preface,
        '## %s {#contents}\n\n' % both('contents'),
        contents_list(chapters, plan)])


# -------------------------------------------------------- identifier index

C_NOISE_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"'
                        r"|'(?:\\.|[^'\\\n])*'", re.S)
C_KEYWORDS = set("""auto break case char const continue default do double
    else enum extern float for goto if inline int long register restrict
    return short signed sizeof static struct switch typedef union unsigned
    void volatile while bool _Bool _Static_assert defined""".split())
IDENT_RE = re.compile(r'\b[A-Za-z_]\w*\b')


def strip_c(code):
    """C code with comments and string/char literals blanked out."""
    return C_NOISE_RE.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), code)


def c_definitions(code):
    """The identifiers a piece of C code defines at file level: functions
    (with a body), macros, typedef names, struct/union/enum tags and
    enumeration constants.  A heuristic for this book's style: a function
    definition starts in column 0."""
    code = strip_c(code)
    found = []
    found += re.findall(r'^[ \t]*#[ \t]*define[ \t]+(\w+)', code, re.M)
    # Functions: `type name(args) {` with the type (or the name, when the
    # type is on the line before) in column 0.
    for m in re.finditer(r'^(?!return\b|if\b|else\b|typedef\b|#)'
                         r'(?:[A-Za-z_][\w \t\*]*?[\s\*])?(\w+)[ \t]*\(',
                         code, re.M):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {'(': 1, ')': -1}.get(code[i], 0)
            i += 1
        # A name in capitals is a macro's (chapter 7's TILE_NAME, which
        # the chunk that #defines it indexes), not a function's.
        if code[i:].lstrip().startswith('{') and m.group(1) not in C_KEYWORDS \
                and not re.fullmatch(r'[A-Z][A-Z0-9_]*', m.group(1)):
            found.append(m.group(1))
    # Tags: `struct name {` and the like.
    found += re.findall(r'\b(?:struct|union|enum)[ \t]+(\w+)\s*\{', code)
    # Enumeration constants.
    for body in re.findall(r'\benum\b[^{;()]*\{([^}]*)\}', code):
        for item in body.split(','):
            m = re.match(r'\s*([A-Za-z_]\w*)', item)
            if m:
                found.append(m.group(1))
    # typedef names: the last identifier of the typedef, or (*name).
    for m in re.finditer(r'^typedef\b', code, re.M):
        depth, i = 0, m.end()
        while i < len(code):
            ch = code[i]
            if ch in '{(':
                depth += 1
            elif ch in '})':
                depth -= 1
            elif ch == ';' and depth == 0:
                break
            i += 1
        decl = code[m.end():i]
        fp = re.search(r'\(\s*\*\s*(\w+)\s*\)', decl)
        last = re.findall(r'(\w+)\s*(?:\[[^\]]*\]\s*)*$', decl)
        name = fp.group(1) if fp and '}' not in decl[fp.end():] else \
            (last[0] if last else None)
        if name:
            found.append(name)
    # Not worth indexing: include guards, reserved names (_POSIX_C_SOURCE).
    guards = set(re.findall(r'^[ \t]*#[ \t]*ifndef[ \t]+(\w+)', code, re.M))
    seen, out = set(), []
    for name in found:
        if name not in seen and name not in C_KEYWORDS \
                and name not in guards and not name.startswith('_'):
            seen.add(name)
            out.append(name)
    return out


def chunk_code(chunk):
    """The code of a chunk as text, uses blanked out."""
    return ''.join(p if isinstance(p, str) else ' ' for p in chunk.code)


def identifier_index(chapters):
    """{identifier: ([defining chunks], [using chunks])}, book order."""
    chunks = [p for c in chapters for p in c.parts if isinstance(p, Chunk)]
    index = {}
    for chunk in chunks:
        for name in c_definitions(chunk_code(chunk)):
            index.setdefault(name, ([], []))[0].append(chunk)
    for chunk in chunks:
        for name in set(IDENT_RE.findall(strip_c(chunk_code(chunk)))):
            if name in index and chunk not in index[name][0]:
                index[name][1].append(chunk)
    for _, uses in index.values():
        uses.sort(key=lambda ch: (ch.chapter.num, ch.seq))
    return index


def ident_anchor(name):
    return 'id-' + name


def identifiers_page(chapters, index):
    out = [yaml_header(WORDS['identifiers'][0], WORDS['identifiers'][1]),
           nav(chapters, 'identifiers', extras=EXTRAS),
           '\n# %s {#page-identifiers}\n\n' % both('identifiers'),
           '::: {lang=en}\nEvery C function, macro, type and enumeration '
           'constant that the book defines: where it is defined, and the '
           'chunks that use it.\n:::\n\n'
           '::: {lang=zh}\n本书定义的每个 C 函数、宏、类型和枚举常量：'
           '定义在哪里，又有哪些代码块用到它。\n:::\n\n'
           '::: identindex\n']
    for name in sorted(index, key=lambda n: (n.lower().lstrip('_'), n)):
        defs, uses = index[name]
        item = '- [%s]{#%s .ident} %s %s' % (
            inline_code(name), ident_anchor(name), both('defined-at'),
            ', '.join('[%s](%s)' % (d.label, d.href(None)) for d in defs))
        if uses:
            item += ' · %s %s' % (both('used'), ', '.join(
                '[%s](%s)' % (u.label, u.href(None)) for u in uses))
        out.append(item + '\n')
    out.append(':::\n')
    return ''.join(out)


def chunk_defines(chunk, index):
    """Markdown `defines a, b` for a chunk head, linking the identifier
    index, or '' if the chunk defines nothing."""
    names = [n for n in c_definitions(chunk_code(chunk))
             if n in index and chunk in index[n][0]]
    if not names:
        return ''
    return '%s %s' % (both('defines'), ', '.join(
        '[%s](identifiers.html#%s)' % (inline_code(n), ident_anchor(n))
        for n in names))


# ---------------------------------------------------------------- glossary

def glossary_page(chapters, path):
    """The glossary from a TSV (zh, en, first_use, note), or None when
    the file does not exist.  The English book lists the terms sorted by
    their English, the Chinese book in the file's order, with the notes."""
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding='utf-8', newline='') as f:
        rows = [r for r in csv.DictReader(f, delimiter='\t')
                if (r.get('zh') or '').strip()]
    pages = {c.num: c for c in chapters if c.woven}

    def first_use(r):
        raw = (r.get('first_use') or '').strip()
        if not raw.isdigit():
            return md_escape(raw)
        n = int(raw)
        text = '[%s]{lang=en}[%s]{lang=zh}' % (WORDS['chapter-n'][0] % n,
                                               WORDS['chapter-n'][1] % n)
        return '[%s](%s.html)' % (text, pages[n].page) if n in pages else text

    def cell(t):
        return md_escape(re.sub(r'\s+', ' ', (t or '').strip()))

    def table(lang, ordered):
        # The notes are about Chinese usage: only the Chinese page has them.
        i = 0 if lang == 'en' else 1
        first, second = (('term-en', 'term-zh') if lang == 'en'
                         else ('term-zh', 'term-en'))
        cols = [WORDS[first][i], WORDS[second][i], WORDS['first-use'][i]]
        if lang == 'zh':
            cols.append(WORDS['note'][i])
        lines = ['| %s |' % ' | '.join(cols), '|%s' % ('---|' * len(cols))]
        for r in ordered:
            a, b = (r['en'], r['zh']) if lang == 'en' else (r['zh'], r['en'])
            row = [cell(a), cell(b), first_use(r)]
            if lang == 'zh':
                row.append(cell(r.get('note')))
            lines.append('| %s |' % ' | '.join(row))
        return '::: {lang=%s}\n%s\n:::\n\n' % (lang, '\n'.join(lines))

    return ''.join([
        yaml_header(WORDS['glossary'][0], WORDS['glossary'][1]),
        nav(chapters, 'glossary', extras=EXTRAS),
        '\n# %s {#page-glossary}\n\n' % both('glossary'),
        '::: glossary\n',
        table('en', sorted(rows, key=lambda r: (r['en'] or '').lower())),
        table('zh', rows),
        ':::\n'])


# ------------------------------------------------------------ search page

def search_page(chapters):
    """The search page of the HTML book.  It loads search-index.js (written
    next to it by book/searchindex.py); ../book.js does the searching."""
    return ''.join([
        yaml_header(WORDS['search'][0], WORDS['search'][1]),
        nav(chapters, 'search', extras=EXTRAS),
        '\n# %s {#page-search}\n\n' % both('search'),
        '```{=html}\n'
        '<form id="search-form" class="search" action="search.html">\n'
        '<input id="search-input" type="search" name="q" autofocus '
        'aria-label="search">\n'
        '</form>\n<div id="search-results"></div>\n'
        '<script src="search-index.js"></script>\n```\n\n'
        '::: {.noscript lang=en}\nSearch needs JavaScript.\n:::\n\n'
        '::: {.noscript lang=zh}\n搜索需要 JavaScript。\n:::\n'])


def chunks_page(chapters, defs, users):
    out = [yaml_header(WORDS['chunks'][0], WORDS['chunks'][1]),
           nav(chapters, 'chunks', extras=EXTRAS),
           '\n# %s {#page-chunks}\n\n::: chunkindex\n' % both('chunks')]
    for name in sorted(defs, key=lambda n: (n.lower(), n)):
        links = ', '.join(
            '[%s](%s){title="%s"}' % (d.label, d.href(None),
                                      md_escape(d.chapter.title['en']))
            for d in defs[name])
        item = '- [⟨%s⟩]{.chunkname} %s' % (name_md(name), links)
        if users.get(name):
            item += ' · %s %s' % (both('used'), ', '.join(
                '[%s](%s)' % (u.label, u.href(None)) for u in users[name]))
        out.append(item + '\n')
    out.append(':::\n')
    return ''.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--toc', required=True, help='chapters.tsv')
    ap.add_argument('--outdir', required=True, help='where .md files go')
    ap.add_argument('--plan', help='every planned chapter (book/plan.tsv)')
    ap.add_argument('--preface', help='the preface (book/preface.md)')
    ap.add_argument('--glossary', help='the glossary (book/glossary.tsv); '
                    'no page if the file does not exist')
    ap.add_argument('--outputs', help='captured `chNN --parts` output (chNN.txt)')
    ap.add_argument('--pytorch', help="PyTorch's recorded output (chNN.out)")
    args = ap.parse_args()

    chapters = read_toc(args.toc)
    read_markup(sys.stdin, chapters)
    defs, users = cross_reference(chapters)
    for c in chapters:
        if c.woven:
            answers.apply(c, args.outputs, args.pytorch)
    index = identifier_index(chapters)
    CHUNK_EXTRA.append(lambda chunk: chunk_defines(chunk, index))
    if args.glossary and os.path.exists(args.glossary):
        EXTRAS.add('glossary')

    os.makedirs(args.outdir, exist_ok=True)
    plan = read_plan(args.plan, chapters)
    preface = read_preface(args.preface)
    pages = {'index': index_page(chapters, plan, preface),
             'front': front_page(chapters, plan, preface),
             'chunks': chunks_page(chapters, defs, users),
             'identifiers': identifiers_page(chapters, index),
             'search': search_page(chapters),
             'glossary': glossary_page(chapters, args.glossary)}
    for c in chapters:
        if c.woven:
            pages[c.page] = chapter_page(c, chapters, defs, users)
    for name, text in pages.items():
        path = os.path.join(args.outdir, name + '.md')
        if text is None:            # e.g. a glossary removed since last time
            if os.path.exists(path):
                os.remove(path)
            continue
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)


if __name__ == '__main__':
    main()
