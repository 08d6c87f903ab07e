#!/usr/bin/env python3
"""Weave noweb chapters into bilingual pandoc Markdown pages.

This is a noweb *backend*: it reads the pipeline that noweb's `markup`
prints and writes one Markdown page per chapter, plus the title page and
the chunk index:

    /usr/lib/noweb/markup chapters/01-a.nw chapters/02-b.nw \\
        | python3 book/weave.py --toc chapters.tsv --outdir build/book/md

writes build/book/md/01-a.md, 02-b.md, index.md and chunks.md.

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
INTRO = {'en': 'How PyTorch stores, computes and differentiates tensors, '
               'explained by rebuilding it in C, one chunk of code at a time.',
         'zh': '通过用 C 语言逐段重建 PyTorch，讲解它如何存储张量、'
               '如何计算、如何求导。'}
# Short words used on every page, in both languages.
WORDS = {
    'contents': ('Contents', '目录'),
    'chunks': ('Chunk index', '代码块索引'),
    'defined': ('defined in', '定义于'),
    'continued': ('continued in', '续于'),
    'used': ('used in', '用于'),
    'script': ('study script', '学习脚本'),
    'unwritten': ('not yet written', '尚未写成'),
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


def yaml_header(title_en, title_zh):
    """YAML metadata; lang.lua turns title-en/zh into the page title."""
    fields = [('title-en', title_en), ('title-zh', title_zh),
              ('book-title-en', BOOK_TITLE['en']),
              ('book-title-zh', BOOK_TITLE['zh'])]
    # A JSON string is also a valid YAML double-quoted string.
    return '---\n%s\n---\n' % '\n'.join(
        '%s: %s' % (k, json.dumps(md_escape(v), ensure_ascii=False))
        for k, v in fields)


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
            docs.append(inline_code(''.join(quote_buf)))
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

def nav(chapters, page, here=None):
    """The navigation bar of a page (a Div of class nav)."""
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
    items.append('[[中文](../zh/%s.html)]{lang=en}'
                 '[[English](../en/%s.html)]{lang=zh}' % (page, page))
    return '::: nav\n%s\n:::\n' % ' · '.join(items)


def chunk_markdown(chunk, defs, users):
    """Markdown of one code chunk definition."""
    here = chunk.chapter
    same = defs[chunk.name]
    i = same.index(chunk)
    sign = '≡' if i == 0 else '+≡'
    refs = []
    if i > 0:
        p = same[i - 1]
        refs.append('%s [%s](%s)' % (both('defined'), p.label, p.href(here)))
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
                       '第 %d 章 · %s' % (chapter.num, chapter.title['zh'])),
           nav(chapters, chapter.page, chapter),
           '\n# [%s]{lang=en}[%s]{lang=zh} {#page-%s}\n\n' % (
               md_escape(chapter.heading('en')),
               md_escape(chapter.heading('zh')), chapter.page)]
    for part in chapter.parts:
        if isinstance(part, Chunk):
            out.append(chunk_markdown(part, defs, users))
        else:
            out.append(part)
    out.append('\n\n' + nav(chapters, chapter.page, chapter))
    return ''.join(out)


def index_page(chapters):
    out = [yaml_header(BOOK_TITLE['en'], BOOK_TITLE['zh']),
           nav(chapters, 'index'),
           '\n# [%s]{lang=en}[%s]{lang=zh} {#page-index}\n\n' % (
               md_escape(BOOK_TITLE['en']), md_escape(BOOK_TITLE['zh'])),
           '::: {lang=en}\n%s\n:::\n\n::: {lang=zh}\n%s\n:::\n\n' % (
               md_escape(INTRO['en']), md_escape(INTRO['zh'])),
           '## %s {#contents}\n\n::: toc\n' % both('contents')]
    for c in chapters:
        title = '[%s]{lang=en}[%s]{lang=zh}' % (
            md_escape(c.heading('en')), md_escape(c.heading('zh')))
        if c.woven:
            item = '[%s](%s.html)' % (title, c.page)
        else:
            item = '%s ([%s]{.unwritten})' % (title, both('unwritten'))
        if c.script:
            item += ' — [%s: %s]{.script}' % (both('script'),
                                              inline_code(c.script))
        out.append('- %s\n' % item)
    out.append(':::\n')
    return ''.join(out)


def chunks_page(chapters, defs, users):
    out = [yaml_header(WORDS['chunks'][0], WORDS['chunks'][1]),
           nav(chapters, 'chunks'),
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
    ap.add_argument('--outputs', help='captured `chNN --parts` output (chNN.txt)')
    ap.add_argument('--pytorch', help="PyTorch's recorded output (chNN.out)")
    args = ap.parse_args()

    chapters = read_toc(args.toc)
    read_markup(sys.stdin, chapters)
    defs, users = cross_reference(chapters)
    for c in chapters:
        if c.woven:
            answers.apply(c, args.outputs, args.pytorch)

    os.makedirs(args.outdir, exist_ok=True)
    pages = {'index': index_page(chapters),
             'chunks': chunks_page(chapters, defs, users)}
    for c in chapters:
        if c.woven:
            pages[c.page] = chapter_page(c, chapters, defs, users)
    for name, text in pages.items():
        with open(os.path.join(args.outdir, name + '.md'), 'w',
                  encoding='utf-8') as f:
            f.write(text)


if __name__ == '__main__':
    main()
