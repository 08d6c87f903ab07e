/* book.js: small helps for the HTML book, which reads fine without them.
   Loaded by every HTML page (book/head.html); the EPUB has no scripts.

   1. The language switch keeps the reader's place.  Headings and chunks
      have the same ids in both languages (book/lang.lua, book/weave.py),
      so on a click the link gets the page's #fragment if that is still on
      screen, else the id of the heading or chunk at the window's top.
   2. On the search page (an element #search-results), searches the index
      that search-index.js (book/searchindex.py) defines as BOOK_SEARCH:
      [[page, id, title, text], ...], one entry per section. */
(function () {
  'use strict';
  document.documentElement.classList.add('js');

  function placeId() {
    // The #fragment, if its element is still on screen...
    var h = location.hash &&
      document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (h) {
      var t = h.getBoundingClientRect().top;
      if (t >= -10 && t < window.innerHeight) return h.id;
    }
    // ...else the last heading or chunk that starts above the window's top.
    var marks = document.querySelectorAll('h1[id], h2[id], h3[id], h4[id], div.chunk[id]');
    var best = null;
    for (var i = 0; i < marks.length; i++) {
      if (marks[i].getBoundingClientRect().top <= 80) best = marks[i];
      else break;
    }
    return best && best.tagName !== 'H1' ? best.id : '';
  }

  document.addEventListener('click', function (e) {
    var a = e.target.closest ? e.target.closest('a.langswitch') : null;
    if (!a) return;
    var id = placeId();
    a.href = a.href.split('#')[0] + (id ? '#' + encodeURIComponent(id) : '');
  });

  function escapeHtml(s) {
    return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
            .replace(/"/g, '&quot;');
  }

  // A piece of text around the first match, the matches marked.
  function snippet(text, terms) {
    var lower = text.toLowerCase(), at = -1;
    for (var i = 0; i < terms.length && at < 0; i++) at = lower.indexOf(terms[i]);
    var start = Math.max(0, at - 60), piece = text.slice(start, start + 200);
    var html = escapeHtml(piece);
    terms.forEach(function (t) {
      var re = new RegExp(escapeHtml(t).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
      html = html.replace(re, function (m) { return '<mark>' + m + '</mark>'; });
    });
    return (start > 0 ? '… ' : '') + html + (start + 200 < text.length ? ' …' : '');
  }

  function count(hay, needle) {
    var n = 0, at = hay.indexOf(needle);
    while (at >= 0 && n < 20) { n++; at = hay.indexOf(needle, at + needle.length); }
    return n;
  }

  function search(query) {
    var out = document.getElementById('search-results');
    var terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    var zh = document.documentElement.lang.indexOf('zh') === 0;
    if (!terms.length) { out.innerHTML = ''; return; }
    var hits = [];
    (window.BOOK_SEARCH || []).forEach(function (e) {
      var title = e[2].toLowerCase(), text = e[3].toLowerCase(), score = 0;
      for (var i = 0; i < terms.length; i++) {
        var n = count(title, terms[i]) * 10 + count(text, terms[i]);
        if (!n) return;
        score += n;
      }
      hits.push([score, e]);
    });
    hits.sort(function (a, b) { return b[0] - a[0]; });
    var shown = hits.slice(0, 50).map(function (h) {
      var e = h[1];
      return '<li><a href="' + escapeHtml(e[0] + (e[1] ? '#' + e[1] : '')) + '">' +
        escapeHtml(e[2]) + '</a> <span class="where">' + escapeHtml(e[0]) + '</span>' +
        '<div class="snippet">' + snippet(e[3], terms) + '</div></li>';
    });
    out.innerHTML = '<p>' + (zh ? '找到 ' + hits.length + ' 处' :
      hits.length + (hits.length === 1 ? ' section' : ' sections')) + '</p>' +
      (shown.length ? '<ol>' + shown.join('') + '</ol>' : '');
  }

  document.addEventListener('DOMContentLoaded', function () {
    var out = document.getElementById('search-results');
    var input = document.getElementById('search-input');
    if (!out || !input) return;
    var q = new URLSearchParams(location.search).get('q') || '';
    input.value = q;
    var timer = null;
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { search(input.value); }, 150);
    });
    document.getElementById('search-form').addEventListener('submit', function (e) {
      e.preventDefault();
      search(input.value);
    });
    search(q);
  });
})();
