#!/bin/sh
# test_lint.sh -- every bundled kernel (both targets) through gcnlint: correct kernels must
# get no error or warning, broken variants must get the reports of their
# kernels/**/expect.json (at the pcs named there).  Skipped (77) until gcnlint is built.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnlint=${GCNLINT:-$builddir/gcnlint}
[ -x "$gcnlint" ] || { echo "gcnlint not built: skipped"; exit 77; }
build=$builddir/tests/kernels/build-lint
"$srcdir/tests/kernels/build_kernels.sh" "$build" >/dev/null
exec "${PYTHON3:-python3}" "$srcdir/tests/kernels/kernels.py" lint --gcnlint "$gcnlint" \
    --kernels "$srcdir/kernels" --build "$build"
