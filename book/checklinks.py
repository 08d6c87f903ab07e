#!/usr/bin/env python3
"""Check the relative links of a rendered book.

Usage: checklinks.py DIR

Walks every .html and .xhtml file under DIR and checks that each relative
`href` or `src` points to an existing file and, if it has a #fragment, to
an element with that id (or an <a name=..>) in the target file.  Links
with a scheme (http:, https:, mailto:, data:, ...) are not checked.

Prints `FILE: broken link HREF` for each problem and exits 1 if there is
any; otherwise prints `checklinks: N links, 0 broken`.
"""

import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    """Collects the ids and the links of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name == 'id' or (tag == 'a' and name == 'name'):
                self.ids.add(value)
            elif name in ('href', 'src'):
                self.links.append(value)

    handle_startendtag = handle_starttag


def parse(path, cache={}):
    """Parse a page once and remember it."""
    if path not in cache:
        page = Page()
        with open(path, encoding='utf-8', errors='replace') as f:
            page.feed(f.read())
        cache[path] = page
    return cache[path]


def broken(page_path, href):
    """True if href, found in page_path, does not resolve."""
    url = urlsplit(href)
    if url.scheme or url.netloc:          # external: not ours to check
        return False
    if url.path:
        target = os.path.normpath(os.path.join(os.path.dirname(page_path),
                                               unquote(url.path)))
    else:
        target = page_path                # "#frag": same page
    if not os.path.isfile(target):
        return True
    if url.fragment and re.search(r'\.x?html?$', target):
        return unquote(url.fragment) not in parse(target).ids
    return False


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        sys.exit(__doc__)
    count = bad = 0
    for root, _, files in sorted(os.walk(argv[0])):
        for name in sorted(files):
            if not re.search(r'\.x?html?$', name):
                continue
            path = os.path.join(root, name)
            for href in parse(path).links:
                count += 1
                if broken(path, href):
                    bad += 1
                    print('%s: broken link %s' % (path, href))
    if bad == 0:
        print('checklinks: %d links, 0 broken' % count)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
