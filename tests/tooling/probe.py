#!/usr/bin/env python3
"""probe.py DIR [--dark] [--width W] PAGE EXPR [PAGE EXPR]...

Load DIR/PAGE (PAGE may carry ?query and #fragment) in headless Chromium
(the driver of book/browsercheck.py), evaluate the JavaScript EXPR there
(awaited if it returns a promise) and print the result as one JSON line.
An EXPR may navigate (a click on a link); the next line then waits for
the new page to load.  For the tooling tests: computed styles, search
results, where the language switch leads."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'book'))
from browsercheck import Chromium  # noqa: E402


def main(argv):
    d = os.path.abspath(argv.pop(0))
    dark = '--dark' in argv and not argv.remove('--dark')
    width = 1280
    if '--width' in argv:
        i = argv.index('--width')
        width = int(argv[i + 1])
        del argv[i:i + 2]
    b = Chromium('chromium')
    try:
        t = b.send('Target.createTarget', {'url': 'about:blank'})
        s = b.send('Target.attachToTarget', {'targetId': t['targetId'],
                                             'flatten': True})['sessionId']
        b.send('Page.enable', session=s)
        b.send('Runtime.enable', session=s)
        b.send('Emulation.setDeviceMetricsOverride', {
            'width': width, 'height': 700, 'deviceScaleFactor': 1,
            'mobile': width < 600}, session=s)
        if dark:
            b.send('Emulation.setEmulatedMedia', {'features': [
                {'name': 'prefers-color-scheme', 'value': 'dark'}]}, session=s)
        for page, expr in zip(argv[::2], argv[1::2]):
            if page != '-':     # '-': stay on the page the last EXPR opened
                b.events = []
                b.send('Page.navigate', {'url': 'file://%s/%s' % (d, page)},
                       session=s)
            b.wait_event('Page.loadEventFired', s)
            r = b.send('Runtime.evaluate', {
                'expression': expr, 'awaitPromise': True,
                'returnByValue': True}, session=s)
            print(json.dumps(r.get('result', {}).get('value'),
                             ensure_ascii=False))
    finally:
        b.close()


if __name__ == '__main__':
    main(sys.argv[1:])
