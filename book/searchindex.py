#!/usr/bin/env python3
"""Write the search index of one language of the HTML book.

Usage: searchindex.py DIR     (DIR: build/book/en or build/book/zh)

Reads every DIR/*.html page except search.html and writes
DIR/search-index.js, a script that sets

    window.BOOK_SEARCH = [[page, id, title, text], ...]

with one entry per section: the text from a heading (h1, h2 or h3 with an
id) to the next one, code included, navigation bars and the page's table
of contents left out, and of math only what it shows (not its TeX), written
as plain text: $i_k \cdot \mathit{stride}_k$ becomes "i_k ⋅ stride_k",
$2^{63}$ "2^63" (not "i k ⋅ stride k" and "2 63").
search.html loads it with <script src>, which works from disk with no
server (a fetch() of a file:// URL would not); book.js does the searching.
"""

import json
import os
import re
import sys
from html.parser import HTMLParser

SKIP_CLASSES = {'nav', 'pagetoc'}
NO_SPACE_BEFORE = {',', ')', ']', '}', ';', '!', "'", '′'}
NO_SPACE_AFTER = {'(', '[', '{'}


def math_text(node):
    """Plain text of a MathML node [tag, children] (children: nodes or str)."""
    tag, kids = node
    kids = [k for k in kids if not (isinstance(k, str) and not k.strip())]
    parts = [k.strip() if isinstance(k, str) else math_text(k) for k in kids]
    parts = [p for p in parts if p]
    if tag in ('msub', 'msup', 'munder', 'mover') and len(parts) == 2:
        mark = '_' if tag in ('msub', 'munder') else '^'
        return parts[0] + mark + wrap(parts[1])
    if tag in ('msubsup', 'munderover') and len(parts) == 3:
        return parts[0] + '_' + wrap(parts[1]) + '^' + wrap(parts[2])
    if tag == 'mfrac' and len(parts) == 2:
        return wrap(parts[0]) + '/' + wrap(parts[1])
    if tag in ('msqrt',):
        return '√' + wrap(' '.join(parts))
    out = ''
    for p in parts:
        if out and not (p in NO_SPACE_BEFORE or out[-1] in NO_SPACE_AFTER):
            out += ' '
        out += p
    return out


def wrap(text):
    """A sub- or superscript of several words goes in parentheses."""
    return '(' + text + ')' if ' ' in text else text


class Sections(HTMLParser):
    def __init__(self, page):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.entries = []           # [page, id, title, [text pieces]]
        self.skip = None            # (tag, depth) of a region left out
        self.heading = None         # pieces of a heading being read
        self.in_body = False
        self.math = None            # stack of MathML nodes being read

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'body':
            self.in_body = True
        if self.skip:
            if tag == self.skip[0]:
                self.skip[1] += 1
            return
        classes = set((a.get('class') or '').split())
        if tag in ('script', 'style', 'head', 'annotation') or \
                (classes & SKIP_CLASSES):
            self.skip = [tag, 1]
            return
        if tag == 'math' or self.math:
            node = [tag, []]
            if self.math:
                self.math[-1][1].append(node)
                self.math.append(node)
            else:
                self.math = [node]
            return
        if re.fullmatch(r'h[123]', tag) and a.get('id'):
            self.entries.append([self.page, a['id'], '', []])
            self.heading = []

    def handle_endtag(self, tag):
        if self.skip:
            if tag == self.skip[0]:
                self.skip[1] -= 1
                if self.skip[1] == 0:
                    self.skip = None
            return
        if self.math:
            node = self.math.pop()
            if not self.math:
                self.math = None
                self.handle_data(' ' + math_text(node) + ' ')
            return
        if self.heading is not None and re.fullmatch(r'h[123]', tag):
            self.entries[-1][2] = ' '.join(''.join(self.heading).split())
            self.heading = None

    def handle_data(self, data):
        if self.skip or not self.in_body:
            return
        if self.math:
            self.math[-1][1].append(data)
            return
        if self.heading is not None:
            self.heading.append(data)
        elif self.entries:
            self.entries[-1][3].append(data)


def index_dir(d):
    entries = []
    for name in sorted(os.listdir(d)):
        if not name.endswith('.html') or name == 'search.html':
            continue
        with open(os.path.join(d, name), encoding='utf-8') as f:
            parser = Sections(name)
            parser.feed(f.read())
        for page, ident, title, text in parser.entries:
            # The h1 of a page is its first entry; link it without #id.
            if ident.startswith('page-'):
                ident = ''
            entries.append([page, ident, title,
                            ' '.join(' '.join(text).split())])
    return entries


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        sys.exit(__doc__)
    entries = index_dir(argv[0])
    with open(os.path.join(argv[0], 'search-index.js'), 'w',
              encoding='utf-8') as f:
        f.write('window.BOOK_SEARCH = ')
        json.dump(entries, f, ensure_ascii=False, separators=(',', ':'))
        f.write(';\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
