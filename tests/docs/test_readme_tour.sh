#!/bin/sh
# test_readme_tour.sh -- the README's five-minute tour works as printed after the quick
# start: its commands, taken from README.md, run one by one at the top of the build tree
# and print what the README shows; every program they run is built by `make` (not only by
# `make check`).  tests/docs/readme_tour.py says how.  The tour assembles .s kernels:
# without clang-22 it is skipped.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
command -v "${CLANG22:-clang-22}" >/dev/null 2>&1 || { echo "SKIP: clang-22 not found (the tour assembles .s kernels)"; exit 77; }
exec "${PYTHON3:-python3}" "$srcdir/tests/docs/readme_tour.py" --srcdir "$srcdir" --builddir "$builddir" \
    --make "${MAKE:-make}"
