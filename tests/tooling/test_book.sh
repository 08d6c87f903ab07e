#!/usr/bin/env bash
# Tests of the book tooling (book/twins.py, weave.py, lang.lua, book.css,
# book.js, searchindex.py, checklinks.py, browsercheck.py) on the tiny
# chapters in tests/tooling/fixtures/book/ (front/: preface, plan, glossary).
# Run from the repository root:  bash tests/tooling/test_book.sh
# Prints PASS/FAIL lines and ends with "book tooling: N passed, M failed".

set -u
source "$(dirname "$0")/lib.sh"

FIX=tests/tooling/fixtures/book

# expect_twins FILE EXPECTED_TEXT: `twins.py check FILE` fails and says it.
expect_twins() {
    local out
    out=$(python3 book/twins.py check "$1")
    local rc=$?
    echo "$out"
    [ $rc -eq 1 ] && grep -qF -- "$2" <<<"$out"
}

# The same pandoc command lines as in book/README.md.
render_html() {     # MDDIR OUTDIR
    local lang f
    for lang in en zh; do
        mkdir -p "$2/$lang"
        for f in "$1"/*.md; do
            pandoc "$f" -f markdown+east_asian_line_breaks -t html5 \
                --standalone --wrap=none --mathml --data-dir=book \
                --css ../book.css -H book/head.html --lua-filter book/lang.lua -M lang=$lang \
                -o "$2/$lang/$(basename "$f" .md).html" || return 1
        done
        python3 book/searchindex.py "$2/$lang" || return 1
    done
    cp book/book.css book/book.js "$2/"
    touch "$2/book-en.epub"     # the preface fixture links it
}

render_epub() {     # MDDIR OUTFILE LANG
    pandoc "$1/front.md" $(ls "$1"/[0-9]*.md) $(ls "$1"/glossary.md 2>/dev/null) \
        "$1/identifiers.md" "$1/chunks.md" \
        -f markdown+east_asian_line_breaks -t epub3 --mathml --data-dir=book \
        --css book/book.css --lua-filter book/lang.lua -M lang="$3" \
        --epub-chapter-level=1 --toc --toc-depth=2 -o "$2"
}

# ------------------------------------------------------------ twins.py

t_good() {
    local out
    out=$(python3 book/twins.py check "$FIX/01-alpha.nw" "$FIX/02-beta.nw") \
        && [ -z "$out" ]
}
t_missing() {
    expect_twins "$FIX/bad-missing-twin.nw" \
        "$FIX/bad-missing-twin.nw:9: English passage has no Chinese twin"
}
t_orphan() {
    expect_twins "$FIX/bad-orphan-zh.nw" \
        "$FIX/bad-orphan-zh.nw:5: Chinese passage has no English passage"
}
t_stale() {
    expect_twins "$FIX/bad-stale.nw" \
        "$FIX/bad-stale.nw:5: stale translation: English passage at line 1 changed (src=deadbeef, now 4ec0b9fc)"
}
t_outside() {
    expect_twins "$FIX/bad-outside.nw" \
        "$FIX/bad-outside.nw:9: text outside a passage" &&
    [ "$(python3 book/twins.py check "$FIX/bad-outside.nw" | wc -l)" -eq 1 ]
}
t_unclosed() {
    expect_twins "$FIX/bad-unclosed.nw" "$FIX/bad-unclosed.nw:1: unclosed div" &&
    expect_twins "$FIX/bad-unclosed.nw" "$FIX/bad-unclosed.nw:4: Chinese passage has no src"
}
# An unpaired [ makes pandoc's reader quadratic (chapter 10: 8 GB); the line
# of the bad bracket is reported, the ones in code, math and escapes are not.
t_bracket() {
    expect_twins "$FIX/bad-bracket.nw" "$FIX/bad-bracket.nw:3: unpaired square bracket" &&
    [ "$(python3 book/twins.py check "$FIX/bad-bracket.nw" | wc -l)" -eq 1 ]
}
# A writer's placeholder left in a passage fails the check, at its line.
t_placeholder() {
    expect_twins "$FIX/bad-placeholder.nw" "$FIX/bad-placeholder.nw:3: placeholder TODO" &&
    [ "$(python3 book/twins.py check "$FIX/bad-placeholder.nw" | wc -l)" -eq 1 ]
}
# The hash is that of the documented normalisation (sha256 of the lines,
# stripped, joined by \n), so re-wrapping English text keeps it current.
t_hash() {
    local want
    want=$(printf 'The English text was edited after translation.' | sha256sum | cut -c1-8)
    [ "$want" = 4ec0b9fc ] || return 1
    sed 's/^A tensor is a view/   A  tensor   is a view/' "$FIX/01-alpha.nw" >"$TMP/wrap.nw"
    grep -q '   A  tensor' "$TMP/wrap.nw" && python3 book/twins.py check "$TMP/wrap.nw"
}
t_stamp() {
    cp "$FIX/bad-stale.nw" "$TMP/stale.nw"
    python3 book/twins.py stamp "$TMP/stale.nw" &&
    python3 book/twins.py check "$TMP/stale.nw" &&
    grep -q 'src=4ec0b9fc' "$TMP/stale.nw"
}
t_stamp_line() {   # edit both English passages, stamp only the second one
    sed -e 's/flat block/flat piece/' -e 's/helpers are tiny/helpers are small/' \
        "$FIX/01-alpha.nw" >"$TMP/two.nw"
    python3 book/twins.py stamp "$TMP/two.nw" --line 24 || return 1
    local out
    out=$(python3 book/twins.py check "$TMP/two.nw")
    echo "$out"
    [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "two.nw:8: stale translation" <<<"$out"
}

# ------------------------------------------------------------ weave.py

FRONT=$FIX/front
weave() {   # OUTDIR [more weave.py options]
    local out=$1; shift
    /usr/lib/noweb/markup "$FIX/01-alpha.nw" "$FIX/02-beta.nw" |
        python3 book/weave.py --toc "$FIX/toc.tsv" --outdir "$out" "$@"
}
t_weave() {
    weave "$TMP/md" --plan "$FRONT/plan.tsv" --preface "$FRONT/preface.md" \
        --glossary "$FRONT/glossary.tsv" 2>"$TMP/weave.err" || return 1
    local f
    for f in 01-alpha 02-beta index front chunks identifiers search glossary; do
        [ -s "$TMP/md/$f.md" ] || { echo "missing $f.md"; return 1; }
    done
}
t_ids() {
    grep -q '{#nw-01-src-alpha-c-1 .chunk}' "$TMP/md/01-alpha.md" &&
    grep -q '{#nw-01-alpha-helpers-1 .chunk}' "$TMP/md/01-alpha.md" &&
    grep -q '{#nw-01-shared-table-1 .chunk}' "$TMP/md/01-alpha.md" &&
    grep -q '{#nw-02-shared-table-1 .chunk}' "$TMP/md/02-beta.md" &&
    grep -q '⟨shared table⟩≡' "$TMP/md/01-alpha.md" &&
    grep -q '⟨shared table⟩+≡' "$TMP/md/02-beta.md"
}
t_continued() {   # cross-chapter links between the two <<shared table>>s
    grep -q '\[continued in\]{lang=en}\[续于\]{lang=zh} \[2.1\](02-beta.html#nw-02-shared-table-1)' "$TMP/md/01-alpha.md" &&
    grep -q '\[defined in\]{lang=en}\[定义于\]{lang=zh} \[1.3\](01-alpha.html#nw-01-shared-table-1)' "$TMP/md/02-beta.md" &&
    grep -q '\[used in\]{lang=en}\[用于\]{lang=zh} \[1.1\](#nw-01-src-alpha-c-1), \[2.2\](02-beta.html#nw-02-src-beta-c-1)' "$TMP/md/01-alpha.md"
}
t_literal_brackets() {   # [[ inside a `code span` is not noweb's quote
    grep -q 'but `tensor(\[\[7, 8\], \[9\]\])` and `beta`\.' "$TMP/md/02-beta.md" &&
    grep -q '<code>tensor(\[\[7, 8\], \[9\]\])</code> and <code>beta</code>' "$TMP/html/en/02-beta.html"
}
t_uses() {
    grep -q 'uses="01-alpha.html#nw-01-alpha-helpers-1|alpha helpers"' "$TMP/md/02-beta.md" &&
    grep -q '^NWUSE0Q$' "$TMP/md/02-beta.md" &&
    grep -q '^    NWUSE1Q$' "$TMP/md/01-alpha.md" &&
    grep -q 'function `alpha_size` returns' "$TMP/md/01-alpha.md"
}
t_defined_first() {   # a third piece says where the chunk was defined first
    grep -A2 '{#nw-02-shared-table-2 .chunk}' "$TMP/md/02-beta.md" |
        grep -q '\[defined in\]{lang=en}\[定义于\]{lang=zh} \[1.3\](01-alpha.html#nw-01-shared-table-1)'
}
t_mentions() {   # ⟨name⟩ in prose links the chunk, also across a line break
    grep -q '\[⟨alpha helpers⟩\](01-alpha.html#nw-01-alpha-helpers-1){.chunkref}' "$TMP/md/02-beta.md" &&
    grep -q '\[⟨shared table⟩\](01-alpha.html#nw-01-shared-table-1){.chunkref} follows' "$TMP/md/02-beta.md" &&
    [ ! -s "$TMP/weave.err" ] || return 1
    sed 's/⟨alpha helpers⟩ compute/⟨no such chunk⟩ computes/' "$FIX/02-beta.nw" >"$TMP/02-beta.nw"
    /usr/lib/noweb/markup "$FIX/01-alpha.nw" "$TMP/02-beta.nw" |
        python3 book/weave.py --toc "$FIX/toc.tsv" --outdir "$TMP/md-bad" 2>"$TMP/err"
    cat "$TMP/err"
    grep -q 'weave.py: .*02-beta.nw: prose mentions ⟨no such chunk⟩, which is not a chunk' "$TMP/err" &&
    grep -q '⟨no such chunk⟩ computes' "$TMP/md-bad/02-beta.md"
}
t_identifiers() {   # where each C identifier is defined and used
    local line
    line=$(grep '{#id-alpha_size .ident}' "$TMP/md/identifiers.md")
    echo "$line"
    grep -q '\[1.2\](01-alpha.html#nw-01-alpha-helpers-1) · .*\[2.2\](02-beta.html#nw-02-src-beta-c-1)' <<<"$line" &&
    grep -q '{#id-beta .ident} .*\[2.2\](02-beta.html#nw-02-src-beta-c-1)' "$TMP/md/identifiers.md" &&
    grep -q '\[defines\]{lang=en}\[定义\]{lang=zh} \[`alpha_size`\](identifiers.html#id-alpha_size)' "$TMP/md/01-alpha.md" &&
    ! grep -q '{#id-table \|{#id-size_t \|{#id-return ' "$TMP/md/identifiers.md"
}
t_c_definitions() {   # the heuristic on the kinds of definitions C has
    python3 - <<'PY'
import sys
sys.path.insert(0, 'book')
from weave import c_definitions
code = """#ifndef X_H
#define X_H
#define TWICE(a) (2 * (a))
typedef struct point { int x, y; } point;
typedef int (*cmp_fn)(const void *, const void *);
typedef enum { RED, GREEN = 2 } colour;
enum { LIMIT = 16 };
static int helper(int a);   /* a declaration: not indexed */
static int
twice(int a)
{
    return helper(a) /* "not(a, definition)" */ * 2;
}
int main(void) { return twice(1); }
GEMM_TARGET static void TILE_NAME(int k)   /* a macro's name: not a function */
{
}
"""
got = c_definitions(code)
want = ['TWICE', 'twice', 'main', 'point', 'RED', 'GREEN', 'LIMIT', 'cmp_fn',
        'colour']
print(got)
sys.exit(sorted(got) != sorted(want))
PY
}
t_index() {
    grep -q '](01-alpha.html)' "$TMP/md/index.md" &&
    grep -q 'alpha_study.py' "$TMP/md/index.md" &&
    grep -q '⟨alpha helpers⟩.*⟨shared table⟩' <(tr '\n' ' ' <"$TMP/md/chunks.md")
}

t_front() {   # preface, every planned chapter, colon per language
    grep -q '## Who reads this' "$TMP/md/index.md" &&
    grep -q '\[3. Gamma planned\]{lang=en}\[第 3 章　伽马计划\]{lang=zh} \[\[coming\]{lang=en}\[即将推出\]{lang=zh}\]{.coming}' "$TMP/md/index.md" &&
    grep -q '\[study script: `alpha_study.py`\]{lang=en}\[学习脚本：`alpha_study.py`\]{lang=zh}' "$TMP/md/index.md" &&
    grep -q '# \[Preface\]{lang=en}\[前言\]{lang=zh} {#page-index}' "$TMP/md/front.md" &&
    grep -q '(glossary.html)' "$TMP/md/index.md"
}
t_front_no_script() {   # a chapter without a study script says so ("—")
    sed 's/gamma_study.py/-/' "$FRONT/plan.tsv" > "$TMP/plan-ns.tsv" &&
    weave "$TMP/md-ns" --plan "$TMP/plan-ns.tsv" --preface "$FRONT/preface.md" || return 1
    grep 'Gamma planned' "$TMP/md-ns/index.md" &&
    grep 'Gamma planned' "$TMP/md-ns/index.md" |
        grep -qF '[[study script: —]{lang=en}[学习脚本：—]{lang=zh}]{.script}'
}
t_no_glossary() {   # no glossary file: no page, no link to it
    weave "$TMP/md-ng" --glossary "$TMP/no-such.tsv" || return 1
    [ ! -e "$TMP/md-ng/glossary.md" ] && ! grep -q 'glossary.html' "$TMP"/md-ng/*.md &&
    grep -q 'glossary.html' "$TMP/md/02-beta.md"
}

# ---------------------------------------------- pandoc + lang.lua + links

t_render() {
    render_html "$TMP/md" "$TMP/html" &&
    grep -q '<a href="01-alpha.html#nw-01-alpha-helpers-1" class="nwuse">⟨alpha helpers⟩</a>' "$TMP/html/en/02-beta.html" &&
    grep -q '<span class="dt">size_t</span>' "$TMP/html/en/01-alpha.html" &&
    grep -q '<html[^>]* lang="zh-CN"' "$TMP/html/zh/01-alpha.html" &&
    grep -q '<title>Chapter 1 · Alpha storage</title>' "$TMP/html/en/01-alpha.html" &&
    grep -q 'href="../zh/01-alpha.html"' "$TMP/html/en/01-alpha.html" &&
    ! grep -q 'NWUSE' "$TMP"/html/*/*.html
}
t_heading_ids() {   # a Chinese heading has its English twin's id
    grep -q '<h2 id="the-sum-of-a-table">The sum of a table</h2>' "$TMP/html/en/02-beta.html" &&
    grep -q '<h2 id="the-sum-of-a-table">表格之和</h2>' "$TMP/html/zh/02-beta.html" &&
    grep -q '<h2 id="what-is-left">还剩什么</h2>' "$TMP/html/zh/02-beta.html" &&
    grep -q '<h2 id="why-a-storage">为什么需要存储？</h2>' "$TMP/html/zh/01-alpha.html"
}
t_pagetoc() {   # a chapter's own contents, after its h1, not in the index
    tr -d '\n' <"$TMP/html/zh/02-beta.html" | grep -q '</h1><div id="pagetoc" class="pagetoc"><p><strong>本页内容</strong></p><ul><li><a href="#the-sum-of-a-table">表格之和</a></li><li><a href="#what-is-left">还剩什么</a></li></ul></div>' &&
    ! grep -q 'pagetoc' "$TMP/html/en/index.html"
}
t_math() {   # a multi-letter word is one upright word, single letters stay
    grep -q '<mtext mathvariant="normal">numel</mtext><mo>⋅</mo><mi>s</mi>' "$TMP/html/en/02-beta.html" &&
    ! grep -q '<mi>n</mi><mi>u</mi>' "$TMP/html/en/02-beta.html" &&
    grep -q '<mi>n</mi><mo>⋅</mo><mi>s</mi>' "$TMP/html/en/01-alpha.html"
}
t_glossary_html() {   # English sorted by English, Chinese in file order
    local en zh
    en=$(grep -o '<td>[a-z]*</td><td>[^<]*</td>' <(tr -d '\n' <"$TMP/html/en/glossary.html") | tr '\n' ' ')
    zh=$(grep -o '<tr[^>]*><td>[^<]*</td>' <(tr -d '\n' <"$TMP/html/zh/glossary.html") | sed 's/<[^>]*>//g' | tr '\n' ' ')
    echo "en: $en"; echo "zh: $zh"
    [ "$en" = '<td>coalesce</td><td>合并</td> <td>stride</td><td>步长</td> <td>tensor</td><td>张量</td> ' ] &&
    [ "$zh" = '张量 步长 合并 ' ] &&
    grep -q '<a href="02-beta.html">第 2 章</a>' "$TMP/html/zh/glossary.html" &&
    grep -q '<td>chapter 9</td>' "$TMP/html/en/glossary.html" &&
    grep -q '<td>第 2 章起用于视图</td>' "$TMP/html/zh/glossary.html" &&
    ! grep -q '第 2 章起用于视图' "$TMP/html/en/glossary.html"
}
t_htmlonly() {   # the preface's EPUB links are in the HTML, not in the EPUB
    grep -q 'href="../book-en.epub"' "$TMP/html/en/index.html" &&
    ! grep -rq 'book-en.epub' "$TMP/epub-en" && ! grep -rq 'book-en.epub' "$TMP/epub-zh" &&
    grep -rq 'Who reads this' "$TMP/epub-en" && grep -rq '谁来读' "$TMP/epub-zh"
}
t_search_index() {   # one entry per section, in each language
    grep -q '\["02-beta.html","the-sum-of-a-table","The sum of a table","The ⟨alpha helpers⟩ compute' "$TMP/html/en/search-index.js" &&
    grep -q '\["02-beta.html","the-sum-of-a-table","表格之和",' "$TMP/html/zh/search-index.js" &&
    ! grep -q '"search.html"' "$TMP/html/en/search-index.js" &&
    ! grep -q 'cdot' "$TMP/html/en/search-index.js"   # math: what it shows, not its TeX
}
t_search_math() {   # math in the index reads as plain text, not one token per MathML leaf
    mkdir -p "$TMP/smath" &&
    printf '# Views {#views}\n\nThe position $\\mathit{offset} + \\sum_k i_k \\cdot \\mathit{stride}_k$ and $2^{63} - 1$.\n' |
        pandoc -f markdown -t html5 --standalone --mathml --data-dir=book -M title=t \
            --lua-filter book/lang.lua -M lang=en -o "$TMP/smath/p.html" &&
    python3 book/searchindex.py "$TMP/smath" &&
    cat "$TMP/smath/search-index.js" &&
    grep -qF 'offset + ∑_k i_k ⋅ stride_k and 2^63 − 1' "$TMP/smath/search-index.js"
}

t_cjk_breaks() {   # zh: no space after full-width punctuation at a line break; en untouched
    mkdir -p "$TMP/cjk" &&
    printf '::: {lang=zh}\n用法如下，\n`tc_call` 按名字调用。\n:::\n\n::: {lang=en}\nSee,\n`tc_call` here.\n:::\n' \
        > "$TMP/cjk/p.md" &&
    for l in en zh; do
        pandoc "$TMP/cjk/p.md" -f markdown+east_asian_line_breaks -t html5 --data-dir=book \
            --lua-filter book/lang.lua -M lang=$l -o "$TMP/cjk/$l.html" || return 1
    done &&
    grep -qF '用法如下，<code>tc_call</code> 按名字调用。' "$TMP/cjk/zh.html" &&
    grep -qF 'See, <code>tc_call</code> here.' "$TMP/cjk/en.html"
}

t_in_browser() {   # computed styles, search, the language switch, for real
    local out
    out=$(python3 tests/tooling/probe.py "$TMP/html" \
        zh/02-beta.html 'getComputedStyle(document.querySelector("em")).fontStyle + " " + getComputedStyle(document.querySelector("em")).fontWeight' \
        zh/02-beta.html 'getComputedStyle(document.querySelector("p")).textAlign' \
        'en/search.html?q=sum%20table' 'new Promise(r => setTimeout(() => r(document.querySelector("#search-results a").getAttribute("href")), 300))' \
        'zh/search.html?q=表格之和' 'new Promise(r => setTimeout(() => r(document.querySelector("#search-results a").getAttribute("href")), 300))' \
        'en/02-beta.html#what-is-left' 'document.querySelector("a.langswitch").click(), "clicked"' \
        - 'location.href.replace(/.*\/html\//, "")')
    echo "$out"
    [ "$out" = '"normal 700"
"start"
"02-beta.html#the-sum-of-a-table"
"02-beta.html#the-sum-of-a-table"
"clicked"
"zh/02-beta.html#what-is-left"' ] || return 1
    out=$(python3 tests/tooling/probe.py "$TMP/html" --dark en/02-beta.html 'getComputedStyle(document.documentElement).backgroundColor')
    echo "$out"
    [ "$out" = '"rgb(20, 24, 29)"' ]
}
t_browsercheck() {   # the fixture book passes at 1280 and 390 px
    python3 book/browsercheck.py "$TMP/html"
}
t_browsercheck_catches() {   # and each kind of problem is caught
    local out
    out=$(python3 book/browsercheck.py tests/tooling/fixtures/browser)
    local rc=$?
    echo "$out"
    [ $rc -eq 1 ] &&
    grep -q '^en/a.html @1280px: broken image nope.png$' <<<"$out" &&
    grep -q '^en/a.html @390px: page is [0-9]*px wide in a 390px window' <<<"$out" &&
    ! grep -q '^en/a.html @1280px: page is' <<<"$out" &&
    grep -q '^en/a.html @1280px: missing anchor file://.*/en/b.html#nothere$' <<<"$out" &&
    grep -q '^en/a.html @1280px: link to a missing file file://.*/en/c.html$' <<<"$out" &&
    grep -q '^en/a.html @1280px: console.error: boom$' <<<"$out" &&
    grep -q '^en/a.html @1280px: uncaught exception: ReferenceError' <<<"$out" &&
    ! grep -q '^en/b.html' <<<"$out"
}
t_links() {
    python3 book/checklinks.py "$TMP/html" | tee /dev/stderr | grep -q '^checklinks: [0-9]* links, 0 broken$'
}
t_broken() {
    cp -r "$TMP/html" "$TMP/bad"
    sed -i 's/#nw-01-alpha-helpers-1"/#nw-01-no-such-chunk-1"/' "$TMP/bad/en/02-beta.html"
    echo '<a href="nowhere.html">x</a>' >>"$TMP/bad/zh/index.html"
    local out
    out=$(python3 book/checklinks.py "$TMP/bad")
    local rc=$?
    echo "$out"
    [ $rc -eq 1 ] &&
    grep -q "en/02-beta.html: broken link 01-alpha.html#nw-01-no-such-chunk-1" <<<"$out" &&
    grep -q "zh/index.html: broken link nowhere.html" <<<"$out"
}
t_languages() {   # no passage of the other language leaks into a page
    ! grep -q '为什么需要存储\|辅助函数很小\|表格在本章继续\|定义于\|用于' "$TMP"/html/en/*.html &&
    ! grep -q 'Why a storage\|The helpers are tiny\|The table goes on\|defined in\|used in' "$TMP"/html/zh/*.html &&
    grep -q '为什么需要存储' "$TMP/html/zh/01-alpha.html" &&
    grep -q 'Why a storage' "$TMP/html/en/01-alpha.html"
}
t_epub() {
    local lang
    for lang in en zh; do
        render_epub "$TMP/md" "$TMP/book-$lang.epub" "$lang" || return 1
        python3 -m zipfile -e "$TMP/book-$lang.epub" "$TMP/epub-$lang" || return 1
        python3 book/checklinks.py "$TMP/epub-$lang" || return 1
        grep -rq 'class="nwuse"' "$TMP/epub-$lang" || return 1
    done
    grep -q '<dc:language>zh-CN</dc:language>' "$TMP/epub-zh/EPUB/content.opf"
}

check "twins check passes on good chapters" t_good
check "twins check: en passage without twin" t_missing
check "twins check: orphan zh passage" t_orphan
check "twins check: stale twin" t_stale
check "twins check: text outside a passage" t_outside
check "twins check: unclosed div, missing src" t_unclosed
check "twins check: unpaired square bracket" t_bracket
check "twins check: a placeholder left in the prose" t_placeholder
check "twins hash normalisation" t_hash
check "twins stamp fixes staleness" t_stamp
check "twins stamp --line stamps one pair" t_stamp_line
check "weave writes the pages" t_weave
check "weave chunk ids and headers" t_ids
check "weave cross-chapter continued/defined/used in" t_continued
check "weave use placeholders and quoted code" t_uses
check "weave index and chunk index" t_index
check "weave: defined in links the first definition" t_defined_first
check "weave: prose mentions of chunks become links" t_mentions
check "weave: identifier index and defines" t_identifiers
check "weave: C definitions found by kind" t_c_definitions
check "weave: front page, planned chapters, colons" t_front
check "weave: front page, chapter without study script" t_front_no_script
check "weave: no glossary file, no glossary page" t_no_glossary
check "render html in both languages" t_render
check "checklinks: 0 broken links" t_links
check "checklinks catches broken links" t_broken
check "each language page holds only its language" t_languages
check "epub in both languages, links resolve" t_epub
check "heading ids shared by both languages" t_heading_ids
check "[[ inside a code span stays literal" t_literal_brackets
check "chapter pages get their own contents" t_pagetoc
check "multi-letter math is one upright word" t_math
check "glossary page in both languages" t_glossary_html
check "htmlonly passages stay out of the EPUB" t_htmlonly
check "search index per language" t_search_index
check "search index: math as plain text" t_search_math
check "zh: no space after full-width punctuation at a line break" t_cjk_breaks
check "in Chromium: zh emphasis, no justify, search, switch, dark" t_in_browser
check "browsercheck passes the fixture book" t_browsercheck
check "browsercheck catches each kind of problem" t_browsercheck_catches

finish "book tooling"
