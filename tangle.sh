#!/usr/bin/env bash
# tangle.sh: write snapshot N of the book's C sources. Run `./tangle.sh --help`.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: ./tangle.sh N [DIR]
       ./tangle.sh --help

Write snapshot N: the C sources of chapters 1..N tangled together, into DIR
(default build/snap/chNN). The chapters and their order come from chapters.tsv.

  * Root chunks are named by file path (<<src/tensor.c>>, <<demo/ch01.c>>); each
    becomes DIR/<path>. Chunks of one name concatenate across chapters, so a
    later chapter grows a chunk that an earlier one opened.
  * tools/tangle.py expands the chunks from noweb's markup pipeline: code keeps
    its indentation (a use indented by 4 spaces indents every line of the
    chunk it expands), and #line directives make compiler errors point at .nw
    lines.
  * A file is rewritten only when its content changed, so make rebuilds only
    what a change touched. Files of an earlier run that no root names any more
    are removed.

It fails, with a message naming the chapter and a non-zero status, when
  * a chunk is used but never defined in chapters 1..N,
  * a chunk is used in chapter k but first defined in a later chapter,
  * a root chunk (defined, never used) is not a file path
    (a path is letters, digits, '_', '-', '.', '/', and ends in .EXT or is Makefile).
EOF
}

die() { printf 'tangle.sh: %s\n' "$*" >&2; exit 1; }

[ $# -ge 1 ] || { usage >&2; exit 2; }
case $1 in -h|--help) usage; exit 0 ;; esac
n=$1
[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || die "N must be a chapter number, got '$n'"

here=$(cd "$(dirname "$0")" && pwd)
toc=${TANGLE_TOC:-$here/chapters.tsv}
[ -r "$toc" ] || die "cannot read the table of contents $toc"
out=${2:-build/snap/$(printf 'ch%02d' "$n")}

# The chapters 1..N, in book order, as listed in the table of contents. Paths in
# the table are relative to the table's own folder.
tocdir=$(dirname "$toc")
mapfile -t files < <(awk -F'\t' -v n="$n" 'NR > 1 && $1 + 0 >= 1 && $1 + 0 <= n { print $2 }' "$toc")
[ "${#files[@]}" -eq "$n" ] || die "chapters.tsv lists ${#files[@]} chapters up to $n, expected $n"
for i in "${!files[@]}"; do
    f=${files[$i]}
    [ "${f#/}" != "$f" ] || f=$tocdir/$f
    [ -r "$f" ] || die "chapter $((i + 1)): cannot read $f"
    files[$i]=$(realpath --relative-to=. "$f")   # short #line paths
done

markup=/usr/lib/noweb/markup
[ -x "$markup" ] || die "noweb is not installed (run make, or: apt-get install noweb)"
command -v python3 >/dev/null || die "python3 not found (apt-get install python3)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Check the chunk graph before tangling. noweb's markup prints, per file,
# '@file F', then '@defn NAME' and '@use NAME' lines, in book order. Within a
# chapter a chunk may be used before its definition (that is literate
# programming); across chapters, a use must not precede the defining chapter.
# markup's own warnings (an unescaped << in prose, an unclosed [[) fail too.
"$markup" "${files[@]}" > "$tmp/pipeline" 2> "$tmp/err" || true
[ ! -s "$tmp/err" ] || { cat "$tmp/err" >&2; die "noweb's markup complained; snapshot $n not written"; }
roots=$(awk '
    /^@file / { file = substr($0, 7); k++; name_of[k] = file; next }
    /^@defn / { name = substr($0, 7)
                if (!(name in defined)) { defined[name] = k; order[++ndefs] = name }
                next }
    /^@use /  { name = substr($0, 6)
                if (!(name in used)) used[name] = k
                next }
    END {
        bad = 0
        for (name in used) {
            if (!(name in defined)) {
                printf "tangle.sh: %s: chunk <<%s>> is used but never defined\n", \
                       name_of[used[name]], name > "/dev/stderr"
                bad = 1
            } else if (defined[name] > used[name]) {
                printf "tangle.sh: %s: chunk <<%s>> is used before the chapter that defines it (%s)\n", \
                       name_of[used[name]], name, name_of[defined[name]] > "/dev/stderr"
                bad = 1
            }
        }
        for (i = 1; i <= ndefs; i++) {
            name = order[i]
            if (name in used) continue
            if (name !~ /^[A-Za-z0-9_][A-Za-z0-9_.\/-]*\.[A-Za-z0-9]+$/ && name !~ /(^|\/)Makefile$/) {
                printf "tangle.sh: %s: root chunk <<%s>> is not a file path (is a use of it missing?)\n", \
                       name_of[defined[name]], name > "/dev/stderr"
                bad = 1
            } else print name
        }
        exit bad
    }' "$tmp/pipeline") || die "snapshot $n not written"

mkdir -p "$out"
: > "$tmp/roots"
while IFS= read -r root; do
    [ -n "$root" ] || continue
    case $root in /*|*..*) die "root chunk <<$root>> must be a relative path inside the snapshot" ;; esac
    python3 "$here/tools/tangle.py" "$tmp/pipeline" "$tmp/new" "$root" 2> "$tmp/err" || {
        cat "$tmp/err" >&2; die "tangling <<$root>> failed"; }
    [ ! -s "$tmp/err" ] || { cat "$tmp/err" >&2; die "tangling <<$root>> complained"; }
    mkdir -p "$out/$(dirname "$root")"
    if ! cmp -s "$tmp/new/$root" "$out/$root"; then
        mv "$tmp/new/$root" "$out/$root"
    fi
    printf '%s\n' "$root" >> "$tmp/roots"
done <<< "$roots"

# Remove files that an earlier run wrote but no root chunk names any more.
if [ -f "$out/.roots" ]; then
    while IFS= read -r old; do
        grep -qxF -- "$old" "$tmp/roots" || rm -f "$out/$old"
    done < "$out/.roots"
fi
cmp -s "$tmp/roots" "$out/.roots" 2>/dev/null || cp "$tmp/roots" "$out/.roots"
