#!/usr/bin/env python3
"""Open every page of the HTML books in headless Chromium and check them.

Usage: browsercheck.py [--widths 1280,390] [--screenshots DIR] BOOKDIR

BOOKDIR is build/book; every BOOKDIR/*/*.html page is loaded from disk
(file://) at each width (a phone at widths under 600 px: touch, mobile
viewport) and fails the check on

  * a broken image (an <img> that did not load),
  * a page wider than the window (the page scrolls sideways; code blocks
    and tables must scroll inside themselves instead),
  * at a desktop width, a table wider than the text (it scrolls inside
    itself, and its last columns are out of sight),
  * a missing anchor: a link into the book whose file does not exist, or
    whose #fragment names no element of the target page,
  * a console error: console.error(), an uncaught exception, or an error
    Chromium logs (a resource that failed to load, a CSP violation...).

With --screenshots DIR it also saves the first screen of every page, at
each width, in light and dark mode (DIR/LANG-PAGE-WIDTH-light.png).

It talks to Chromium over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ended by a NUL byte on fds 3 and
4), so it needs nothing but the `chromium` package.  Prints one line per
problem and `browsercheck: N pages x W widths, M problems`; exits 1 on any
problem.
"""

import argparse
import base64
import fcntl
import glob
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from urllib.parse import unquote, urlsplit

TIMEOUT = 30.0     # seconds for one page to load or one call to answer

PAGE_REPORT = r'''
(async () => {
  await Promise.all([...document.images].map(i => i.complete ? 0 :
    new Promise(r => { i.onload = i.onerror = r; })));
  const de = document.documentElement;
  const badImages = [...document.images]
    .filter(i => !i.complete || i.naturalWidth === 0)
    .map(i => i.getAttribute('src'));
  const wide = Math.max(de.scrollWidth, document.body.scrollWidth);
  const culprits = [];
  if (wide > de.clientWidth + 1) {
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.right > de.clientWidth + 1 && r.width > 0) {
        culprits.push(el.tagName.toLowerCase() +
          (el.id ? '#' + el.id : '') +
          (el.className && typeof el.className === 'string'
            ? '.' + el.className.split(' ').join('.') : ''));
        if (culprits.length >= 3) break;
      }
    }
  }
  // Tables scroll inside themselves when they are wider than the text;
  // on a phone that is expected, on a desktop it hides columns.
  const scrolled = [...document.querySelectorAll('table')]
    .filter(t => t.scrollWidth > t.clientWidth + 1)
    .map(t => (t.querySelector('th, td') || t).textContent.trim().slice(0, 40));
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id)
    .concat([...document.querySelectorAll('a[name]')].map(a => a.name));
  const links = [...document.querySelectorAll('a[href]')]
    .map(a => a.href);
  return { badImages, width: wide, viewport: de.clientWidth, culprits,
           scrolled, ids, links };
})()
'''


class Chromium:
    """A headless Chromium driven over --remote-debugging-pipe."""

    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix='browsercheck-')
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        # Move the child's ends above 9, so that dup2 to 3 and 4 is safe.
        hi_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
        hi_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
        os.close(to_child_r)
        os.close(from_child_w)

        def child_fds():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        args = [binary, '--headless', '--remote-debugging-pipe',
                '--no-sandbox', '--disable-gpu', '--no-first-run',
                '--no-default-browser-check', '--disable-extensions',
                '--disable-background-networking', '--disable-sync',
                '--hide-scrollbars', '--mute-audio',
                '--user-data-dir=' + self.profile, 'about:blank']
        self.proc = subprocess.Popen(args, preexec_fn=child_fds,
                                     close_fds=False,
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(hi_r)
        os.close(hi_w)
        self.buf = b''
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            self.send('Browser.close', timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_child, self.from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline):
        while b'\0' not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError('Chromium did not answer in time')
            ready, _, _ = select.select([self.from_child], [], [], left)
            if ready:
                chunk = os.read(self.from_child, 1 << 20)
                if not chunk:
                    raise RuntimeError('Chromium exited')
                self.buf += chunk
        raw, self.buf = self.buf.split(b'\0', 1)
        return json.loads(raw)

    def send(self, method, params=None, session=None, timeout=TIMEOUT):
        """Call a DevTools method; queue the events that arrive meanwhile."""
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.to_child, json.dumps(msg).encode() + b'\0')
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get('id') == self.next_id:
                if 'error' in reply:
                    raise RuntimeError('%s: %s' % (method, reply['error']))
                return reply.get('result', {})
            if 'method' in reply:
                self.events.append(reply)

    def wait_event(self, method, session, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e['method'] == method and e.get('sessionId') == session:
                    del self.events[i]
                    return e
            self.events.append(self._read_message(deadline))


def errors_in(events, session):
    """Console errors among the queued events of one session."""
    out = []
    for e in events:
        if e.get('sessionId') != session:
            continue
        p = e.get('params', {})
        if e['method'] == 'Runtime.consoleAPICalled' and \
                p.get('type') in ('error', 'assert'):
            out.append('console.%s: %s' % (p['type'], ' '.join(
                str(a.get('value', a.get('description', '')))
                for a in p.get('args', []))))
        elif e['method'] == 'Runtime.exceptionThrown':
            d = p.get('exceptionDetails', {})
            out.append('uncaught exception: %s' % (
                d.get('exception', {}).get('description') or d.get('text')))
        elif e['method'] == 'Log.entryAdded' and \
                p.get('entry', {}).get('level') == 'error':
            entry = p['entry']
            out.append('console error: %s %s' % (entry.get('text', ''),
                                                 entry.get('url', '')))
    return out


def file_of(url):
    """The local path of a file:// URL (without query or fragment)."""
    return os.path.normpath(unquote(urlsplit(url).path))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('bookdir')
    ap.add_argument('--widths', default='1280,390')
    ap.add_argument('--screenshots', metavar='DIR')
    ap.add_argument('--chromium', default=shutil.which('chromium') or
                    shutil.which('chromium-browser') or 'chromium')
    args = ap.parse_args(argv)

    root = os.path.abspath(args.bookdir)
    pages = sorted(glob.glob(os.path.join(root, '*', '*.html')))
    if not pages:
        sys.exit('browsercheck: no pages under %s/*/' % root)
    widths = [int(w) for w in args.widths.split(',')]
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)

    problems = []
    browser = Chromium(args.chromium)
    try:
        target = browser.send('Target.createTarget', {'url': 'about:blank'})
        session = browser.send('Target.attachToTarget', {
            'targetId': target['targetId'], 'flatten': True})['sessionId']
        for domain in ('Page', 'Runtime', 'Log'):
            browser.send(domain + '.enable', session=session)
        for width in widths:
            mobile = width < 600
            browser.send('Emulation.setDeviceMetricsOverride', {
                'width': width, 'height': 900, 'deviceScaleFactor': 1,
                'mobile': mobile}, session=session)
            browser.send('Emulation.setTouchEmulationEnabled',
                         {'enabled': mobile}, session=session)
            ids_of, links_of = {}, {}
            for path in pages:
                name = os.path.relpath(path, root)
                where = '%s @%dpx' % (name, width)
                browser.events = []
                browser.send('Page.navigate', {'url': 'file://' + path},
                             session=session)
                browser.wait_event('Page.loadEventFired', session)
                r = browser.send('Runtime.evaluate', {
                    'expression': PAGE_REPORT, 'awaitPromise': True,
                    'returnByValue': True}, session=session)
                if 'exceptionDetails' in r:
                    problems.append('%s: the check script failed: %s' % (
                        where, r['exceptionDetails'].get('text')))
                    continue
                rep = r['result']['value']
                for src in rep['badImages']:
                    problems.append('%s: broken image %s' % (where, src))
                if rep['width'] > rep['viewport'] + 1:
                    problems.append('%s: page is %dpx wide in a %dpx window '
                                    '(first too wide: %s)' % (
                                        where, rep['width'], rep['viewport'],
                                        ', '.join(rep['culprits'])))
                if not mobile:
                    for head in rep['scrolled']:
                        problems.append('%s: a table is wider than the text and '
                                        'scrolls (its first cell: %s)' % (where, head))
                for err in errors_in(browser.events, session):
                    problems.append('%s: %s' % (where, err))
                ids_of[os.path.normpath(path)] = set(rep['ids'])
                links_of[name] = rep['links']
                if args.screenshots:
                    for scheme in ('light', 'dark'):
                        browser.send('Emulation.setEmulatedMedia', {
                            'features': [{'name': 'prefers-color-scheme',
                                          'value': scheme}]},
                                     session=session)
                        shot = browser.send('Page.captureScreenshot', {
                            'format': 'png'}, session=session)
                        out = os.path.join(args.screenshots, '%s-%d-%s.png' % (
                            name.replace(os.sep, '-')[:-5], width, scheme))
                        with open(out, 'wb') as f:
                            f.write(base64.b64decode(shot['data']))
                    browser.send('Emulation.setEmulatedMedia',
                                 {'features': []}, session=session)
            # Links: resolved by the browser to absolute URLs.
            for name, links in links_of.items():
                for url in links:
                    u = urlsplit(url)
                    if u.scheme != 'file':
                        continue
                    target = file_of(url)
                    if not os.path.exists(target):
                        problems.append('%s @%dpx: link to a missing file %s'
                                        % (name, width, url))
                    elif u.fragment and target in ids_of and \
                            unquote(u.fragment) not in ids_of[target]:
                        problems.append('%s @%dpx: missing anchor %s' % (
                            name, width, url))
    finally:
        browser.close()

    for p in problems:
        print(p)
    print('browsercheck: %d pages x %d widths, %d problems' % (
        len(pages), len(widths), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
