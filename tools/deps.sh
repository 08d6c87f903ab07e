#!/usr/bin/env bash
# deps.sh: install the Debian packages the build needs, if any is missing.
# Silent when everything is there. As root it runs apt-get; otherwise sudo
# (if it can run without a password prompt it cannot answer); otherwise it
# prints the one command that would install what is missing, and fails.
set -euo pipefail

packages=(
    gcc clang make pkg-config   # compilers (gcc is cc; clang for CC=clang)
    noweb                       # notangle, markup: the literate tools
    check                       # the unit-test framework (libcheck + check.pc)
    valgrind                    # leak and memory-error runs of every test
    pandoc python3              # the book: weave backend and renderer
    graphviz                    # dot, for the figures of later chapters
    chromium                    # the book opened in a real browser (book/browsercheck.py)
    epubcheck default-jre-headless  # validates the EPUBs (a Java program)
    libopenblas0-pthread        # make bench: chapter 7's matmul against OpenBLAS
    openmpi-bin libopenmpi-dev  # chapter 9: the MPI backend (mpicc), mpirun
)

# clang's sanitizer runtimes and libFuzzer (make fuzz, and the fuzz steps of
# make check) come in a package named after its version
# (libclang-rt-14-dev on Debian 12); ask the installed clang which one.
if command -v clang >/dev/null; then
    major=$(clang --version | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -n 1)
    [ -z "$major" ] || packages+=("libclang-rt-$major-dev")
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
        missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo=(sudo)
else
    echo "deps.sh: missing Debian packages: ${missing[*]}" >&2
    echo "deps.sh: install them with:  sudo apt-get update && sudo $command" >&2
    exit 1
fi
echo "deps.sh: installing missing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" $command
# A clang installed just now brings its runtime package into view: run again.
if [ -z "${DEPS_AGAIN:-}" ] && printf '%s\n' "${missing[@]}" | grep -qx clang; then
    DEPS_AGAIN=1 exec "$0"
fi
