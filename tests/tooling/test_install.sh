#!/usr/bin/env bash
# Tests of `make install` and `make uninstall` (chapter 8, "Installing the
# library"): the final snapshot's library installed into a scratch prefix,
# a program built against it with pkg-config, shared and static, run; the
# same with DESTDIR; uninstalled, leaving nothing. Once load_inline exists
# (tc_load_inline defined in the installed libtc.so), the program also
# compiles, loads and calls an extension against the INSTALLED headers.
# Run from anywhere: bash tests/tooling/test_install.sh
# Prints PASS/FAIL lines and ends with "install: N passed, M failed".

set -u
source "$(dirname "$0")/lib.sh"

FIX=tests/tooling/fixtures/install
CC=${CC:-cc}
# The scratch prefix has a fixed name under build/, not a mktemp one: make
# compiles the library once per PREFIX (build/install/PREFIX/), so that a
# second run of this test reuses those objects instead of compiling anew.
scratch=$PWD/build/test/install
prefix=$scratch/prefix
destdir=$scratch/destdir
trap 'rm -rf "$TMP" "$scratch"' EXIT
rm -rf "$scratch" && mkdir -p "$scratch"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
unset TC_INCLUDE_DIR PKG_CONFIG_SYSROOT_DIR
last=$(awk -F'\t' 'NR > 1 { n = $1 } END { printf "%02d", n }' chapters.tsv)
snap=build/snap/ch$last
strict=(-std=c11 -Wall -Wextra -Wpedantic -Werror)

install_into_prefix() {
    make install PREFIX="$prefix"
}
check "make install PREFIX=... succeeds" install_into_prefix

# The output the program must print: PyTorch 1.13's for the same lines, and,
# with an extension, its result, x * x + 1 of 0, 1, 2, 3, worked out by hand.
cp "$FIX/prog.expected" "$TMP/expected"
inline=0
if nm -D --defined-only "$prefix/lib/libtc.so" 2> /dev/null | grep -qw tc_load_inline; then
    inline=1
    printf '%s\n' 'extension installed: 1 op, compiled now' \
        'tensor([ 1.,  2.,  5., 10.])' >> "$TMP/expected"
else
    echo "note: the installed library has no tc_load_inline yet: the extension part is skipped"
fi

installed_files() {  # DIR: the files and links under DIR, relative, sorted
    (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort)
}
files_are_the_public_ones() {
    {
        printf '%s\n' lib/libtc.a lib/libtc.so lib/pkgconfig/tc.pc
        for h in "$snap"/src/*.h; do
            case $h in *_impl.h|*_kernels.h) ;; *) echo "include/tc/${h##*/}" ;; esac
        done
    } | LC_ALL=C sort > "$TMP/want"
    installed_files "$prefix" > "$TMP/got"
    diff -u "$TMP/want" "$TMP/got" || return 1
    # The ones extensions and programs need are there; the internal ones not.
    for h in tc.h vectorized.h iter.h dispatch.h extension.h; do
        test -f "$prefix/include/tc/$h" || { echo "missing include/tc/$h"; return 1; }
    done
    for h in autograd_impl.h vec_kernels.h gemm_kernels.h gemm_micro_kernels.h; do
        test ! -e "$prefix/include/tc/$h" || { echo "include/tc/$h installed"; return 1; }
    done
    [ "$(stat -c %a "$prefix/lib/libtc.so")" = 755 ] &&
        [ "$(stat -c %a "$prefix/lib/libtc.a")" = 644 ] &&
        [ "$(stat -c %a "$prefix/include/tc/tc.h")" = 644 ]
}
check "installs the libraries, tc.pc and the public headers only" files_are_the_public_ones

headers_stand_alone() {
    local h n=0
    for h in "$prefix"/include/tc/*.h; do
        # tangle.sh's #line directives name .nw files that are not installed
        if grep -q '^#line' "$h"; then echo "$h keeps #line directives"; return 1; fi
        # the snapshot's header, less those lines
        diff <(grep -v '^#line [0-9]' "$snap/src/${h##*/}") "$h" || return 1
        printf '#include <tc/%s>\n' "${h##*/}" |
            "$CC" "${strict[@]}" -fsyntax-only -I"$prefix/include" -x c - || return 1
        n=$((n + 1))
    done
    [ "$n" -ge 10 ]
}
check "each installed header compiles on its own, without #line" headers_stand_alone

pkg_config_says() {
    local got
    got=$(echo $(pkg-config --cflags --libs tc))
    [ "$got" = "-I$prefix/include -L$prefix/lib -ltc" ] || { echo "got: $got"; return 1; }
    got=$(echo $(pkg-config --static --libs tc))
    [ "$got" = "-L$prefix/lib -ltc -lm -pthread -ldl" ] || { echo "got: $got"; return 1; }
    [ "$(pkg-config --variable=prefix tc)" = "$prefix" ] &&
        [ "$(pkg-config --modversion tc)" = "$((10#$last))" ]
}
check "pkg-config --cflags --libs tc (and --static)" pkg_config_says

library_knows_its_headers() {
    # TC_INCLUDE_DIR, compiled in (once load_inline uses it): the installed
    # headers, not the build tree's
    if grep -q TC_INCLUDE_DIR "$snap"/src/*.c; then
        grep -aqF "$prefix/include" "$prefix/lib/libtc.so" || return 1
    fi
    ! grep -aqF "$PWD/$snap/include" "$prefix/lib/libtc.so" &&
        ! grep -aqF "$PWD/$snap/include" "$prefix/lib/libtc.a" &&
        readelf -d "$prefix/lib/libtc.so" | grep -q 'SONAME.*\[libtc\.so\]'
}
check "the library's TC_INCLUDE_DIR is PREFIX/include; soname libtc.so" library_knows_its_headers

defines=()
[ $inline = 0 ] || defines=(-DTC_TEST_INLINE)
export TC_EXTENSIONS_DIR=$TMP/extensions

# cc $(pkg-config --cflags --libs tc): linked against libtc.so, found at run
# time through LD_LIBRARY_PATH (the scratch prefix is not in ld.so.conf).
shared_program() {
    "$CC" "${strict[@]}" "${defines[@]}" -o "$TMP/prog" "$FIX/prog.c" \
        $(pkg-config --cflags --libs tc) || return 1
    readelf -d "$TMP/prog" | grep -q 'NEEDED.*\[libtc\.so\]' || { echo "libtc.so not needed"; return 1; }
    LD_LIBRARY_PATH=$prefix/lib ldd "$TMP/prog" | grep -qF "libtc.so => $prefix/lib/libtc.so" ||
        { echo "libtc.so not resolved in the prefix"; return 1; }
    LD_LIBRARY_PATH=$prefix/lib "$TMP/prog" > "$TMP/out" || return 1
    diff -u "$TMP/expected" "$TMP/out"
}
check "a program linked with libtc.so runs$([ $inline = 1 ] && echo ', loads an extension')" shared_program

# libtc.a copied into the program: --whole-archive so that every function an
# extension may call is in it, -rdynamic so that the extension finds them,
# --as-needed so that pkg-config's -ltc adds no dependency on libtc.so.
static_link() {  # OUTPUT EXTRA-FLAGS...
    local out=$1; shift
    "$CC" "${strict[@]}" "${defines[@]}" -o "$out" "$FIX/prog.c" $(pkg-config --cflags tc) "$@" \
        -Wl,--whole-archive "$(pkg-config --variable=libdir tc)/libtc.a" -Wl,--no-whole-archive \
        -Wl,--as-needed $(pkg-config --static --libs tc)
}
static_program() {
    static_link "$TMP/prog-static" -rdynamic || return 1
    if readelf -d "$TMP/prog-static" | grep -q 'NEEDED.*libtc'; then
        echo "the static program needs libtc.so"; return 1
    fi
    "$TMP/prog-static" > "$TMP/out" || return 1
    # the second program finds the extension the first one compiled
    sed 's/compiled now/compiled before/' "$TMP/expected" | diff -u - "$TMP/out"
}
check "a program linked with libtc.a (--static) runs$([ $inline = 1 ] && echo ', loads the cached extension')" static_program

# The same rules by hand, whether or not load_inline exists yet: an
# extension compiled against the installed headers, dlopen'ed by a program
# that calls one library function. Static, it loads only with both flags.
extension_by_hand() {
    "$CC" "${strict[@]}" -shared -fPIC -I"$prefix/include" -o "$TMP/ext.so" "$FIX/ext.c" || return 1
    local cflags libdir
    cflags=$(pkg-config --cflags tc); libdir=$(pkg-config --variable=libdir tc)
    "$CC" "${strict[@]}" -o "$TMP/loader" "$FIX/loader.c" $cflags $(pkg-config --libs tc) -ldl || return 1
    "$CC" "${strict[@]}" -o "$TMP/loader-both" "$FIX/loader.c" $cflags -rdynamic \
        -Wl,--whole-archive "$libdir/libtc.a" -Wl,--no-whole-archive -lm -pthread -ldl || return 1
    "$CC" "${strict[@]}" -o "$TMP/loader-rdynamic" "$FIX/loader.c" $cflags -rdynamic \
        "$libdir/libtc.a" -lm -pthread -ldl || return 1
    "$CC" "${strict[@]}" -o "$TMP/loader-whole" "$FIX/loader.c" $cflags \
        -Wl,--whole-archive "$libdir/libtc.a" -Wl,--no-whole-archive -lm -pthread -ldl || return 1
    printf '%s\n' "loaded" "loaded" "$TMP/ext.so: undefined symbol: tc_mul" \
        "$TMP/ext.so: undefined symbol: tc_mul" > "$TMP/want-loads"
    {
        LD_LIBRARY_PATH=$prefix/lib "$TMP/loader" "$TMP/ext.so"
        "$TMP/loader-both" "$TMP/ext.so"
        "$TMP/loader-rdynamic" "$TMP/ext.so"
        "$TMP/loader-whole" "$TMP/ext.so"
    } > "$TMP/loads"
    diff -u "$TMP/want-loads" "$TMP/loads"
}
check "an extension built by hand loads: shared; static with -rdynamic and --whole-archive only" extension_by_hand

if [ $inline = 1 ]; then
    # Without -rdynamic the program's tc_ functions are not in its dynamic
    # symbol table: the extension's references to them cannot be resolved.
    static_without_rdynamic() {
        static_link "$TMP/prog-hidden" || return 1
        if "$TMP/prog-hidden" > "$TMP/out" 2>&1; then echo "it loaded"; cat "$TMP/out"; return 1; fi
        cat "$TMP/out"
        grep -q 'undefined symbol: tc_' "$TMP/out"
    }
    check "... and without -rdynamic the extension cannot load (undefined symbol)" static_without_rdynamic
fi

if [ $inline = 1 ]; then
    # $TC_INCLUDE_DIR overrides the compiled-in directory: pointed at the
    # build tree's headers, the extension (which refuses them) fails to build.
    include_dir_overrides() {
        if TC_INCLUDE_DIR=$PWD/$snap/include LD_LIBRARY_PATH=$prefix/lib "$TMP/prog" > "$TMP/out" 2>&1; then
            echo "it loaded"; cat "$TMP/out"; return 1
        fi
        cat "$TMP/out"
        grep -q "Error building extension 'installed'" "$TMP/out" &&
            grep -q "compiled against the book's build tree" "$TMP/out"
    }
    check "\$TC_INCLUDE_DIR overrides the installed headers" include_dir_overrides
fi

uninstall_leaves_nothing() {
    mkdir -p "$prefix/lib" && echo other > "$prefix/lib/other.txt"
    make uninstall PREFIX="$prefix" || return 1
    installed_files "$prefix" > "$TMP/got"
    echo lib/other.txt | diff -u - "$TMP/got" || return 1
    test ! -e "$prefix/include/tc" || { echo "include/tc is left"; return 1; }
}
check "make uninstall removes every file it installed, and only those" uninstall_leaves_nothing

destdir_install() {
    rm -rf "$prefix"
    make install PREFIX="$prefix" DESTDIR="$destdir" || return 1
    test ! -e "$prefix" || { echo "wrote into PREFIX itself"; return 1; }
    installed_files "$destdir$prefix" | diff -u "$TMP/want" - || return 1
    # what is installed names PREFIX, where it will be, not DESTDIR
    grep -qx "prefix=$prefix" "$destdir$prefix/lib/pkgconfig/tc.pc" &&
        ! grep -aqF "$destdir" "$destdir$prefix/lib/libtc.so" "$destdir$prefix/lib/pkgconfig/tc.pc" || return 1
    # built against the staged tree (pkg-config's sysroot prepends DESTDIR)
    PKG_CONFIG_SYSROOT_DIR=$destdir PKG_CONFIG_PATH=$destdir$prefix/lib/pkgconfig \
        "$CC" "${strict[@]}" -o "$TMP/prog-destdir" "$FIX/prog.c" \
        $(PKG_CONFIG_SYSROOT_DIR=$destdir PKG_CONFIG_PATH=$destdir$prefix/lib/pkgconfig \
          pkg-config --cflags --libs tc) || return 1
    LD_LIBRARY_PATH=$destdir$prefix/lib "$TMP/prog-destdir" | diff -u "$FIX/prog.expected" -
}
check "make install DESTDIR=... stages the tree under DESTDIR" destdir_install

destdir_uninstall() {
    make uninstall PREFIX="$prefix" DESTDIR="$destdir" || return 1
    installed_files "$destdir" | diff -u /dev/null -
}
check "make uninstall DESTDIR=... leaves no file under DESTDIR" destdir_uninstall

prefix_must_be_absolute() {
    ! make -n install PREFIX=relative/dir > "$TMP/msg" 2>&1 &&
        grep -q 'PREFIX must be one absolute path' "$TMP/msg"
}
check "a relative PREFIX is refused" prefix_must_be_absolute

finish install
