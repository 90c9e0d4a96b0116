#!/bin/sh
# gate.sh -- the LOG_COMPILER of every test of `make check` (Makefile.am): runs the test,
# or skips it (exit 77, the reason printed) when it needs what configure did not find:
#   LLVM 22 (GCN_HAVE_LLVM=no): every test except those in GCN_TESTS_WITHOUT_LLVM;
#   CUnit (GCN_HAVE_CUNIT=no): the scripts in GCN_TESTS_CUNIT (the CUnit programs
#   themselves are then not built at all: tests/no_cunit.sh reports them).
# Usage: gate.sh TEST [ARGS...]  (TEST as the test driver names it: ./x, x or SRCDIR/x)
t=$1
listed() {   # listed LIST: whether TEST is one of the paths in LIST
    for e in $1; do
        case "$t" in "$e" | */"$e") return 0 ;; esac
    done
    return 1
}
if [ "${GCN_HAVE_LLVM:-yes}" = no ] && ! listed "$GCN_TESTS_WITHOUT_LLVM"; then
    echo "SKIP: $t needs LLVM 22 (clang-22, llvm-mc-22, llvm-objdump-22, llvm-readelf-22, ld.lld-22," \
        "llc-22, llvm-22-dev), which configure did not find or was told not to use (--without-llvm):" \
        "apt-get install clang-22 llvm-22 llvm-22-dev lld-22, then rerun configure"
    exit 77
fi
if [ "${GCN_HAVE_CUNIT:-yes}" = no ] && listed "$GCN_TESTS_CUNIT"; then
    echo "SKIP: $t runs unit tests written with CUnit, which configure did not find or was told" \
        "not to use (--without-cunit): apt-get install libcunit1-dev, then rerun configure"
    exit 77
fi
exec "$@"
