#!/usr/bin/env bash
# Tests of the book tooling (book/twins.py, weave.py, lang.lua,
# checklinks.py) on the tiny chapters in tests/tooling/fixtures/book/.
# Run from the repository root:  bash tests/tooling/test_book.sh
# Prints PASS/FAIL lines and ends with "book tooling: N passed, M failed".

set -u
cd "$(dirname "$0")/../.." || exit 2

FIX=tests/tooling/fixtures/book
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0

# check NAME COMMAND...: run a test function, report PASS/FAIL with output.
check() {
    local name=$1; shift
    if "$@" >"$TMP/log" 2>&1; then
        echo "PASS $name"; passed=$((passed + 1))
    else
        echo "FAIL $name"; failed=$((failed + 1))
        sed 's/^/    /' "$TMP/log"
    fi
}

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
                --css ../book.css --lua-filter book/lang.lua -M lang=$lang \
                -o "$2/$lang/$(basename "$f" .md).html" || return 1
        done
    done
    cp book/book.css "$2/book.css"
}

render_epub() {     # MDDIR OUTFILE LANG
    pandoc $(ls "$1"/[0-9]*.md) "$1/chunks.md" \
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

t_weave() {
    /usr/lib/noweb/markup "$FIX/01-alpha.nw" "$FIX/02-beta.nw" |
        python3 book/weave.py --toc "$FIX/toc.tsv" --outdir "$TMP/md" || return 1
    local f
    for f in 01-alpha 02-beta index chunks; do
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
t_uses() {
    grep -q 'uses="01-alpha.html#nw-01-alpha-helpers-1|alpha helpers"' "$TMP/md/02-beta.md" &&
    grep -q '^NWUSE0Q$' "$TMP/md/02-beta.md" &&
    grep -q '^    NWUSE1Q$' "$TMP/md/01-alpha.md" &&
    grep -q 'function `alpha_size` returns' "$TMP/md/01-alpha.md"
}
t_index() {
    grep -q '](01-alpha.html)' "$TMP/md/index.md" &&
    grep -q 'alpha_study.py' "$TMP/md/index.md" &&
    grep -q '⟨alpha helpers⟩.*⟨shared table⟩' <(tr '\n' ' ' <"$TMP/md/chunks.md")
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
check "twins hash normalisation" t_hash
check "twins stamp fixes staleness" t_stamp
check "twins stamp --line stamps one pair" t_stamp_line
check "weave writes the pages" t_weave
check "weave chunk ids and headers" t_ids
check "weave cross-chapter continued/defined/used in" t_continued
check "weave use placeholders and quoted code" t_uses
check "weave index and chunk index" t_index
check "render html in both languages" t_render
check "checklinks: 0 broken links" t_links
check "checklinks catches broken links" t_broken
check "each language page holds only its language" t_languages
check "epub in both languages, links resolve" t_epub

echo "book tooling: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
