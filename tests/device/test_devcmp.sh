#!/bin/sh
# test_devcmp.sh -- the cross-check's compare tool on dumps made by test_devcmp.py (no GPU,
# no simulator run needed).
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
command -v "${CLANG22:-clang-22}" >/dev/null 2>&1 || { echo "clang-22 not found: skipped"; exit 77; }
exec "${PYTHON3:-python3}" "$srcdir/tests/device/test_devcmp.py" "$builddir/tests/device/devcmp" \
    "$builddir/tests/device/devcmp.work"
