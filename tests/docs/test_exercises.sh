#!/bin/sh
# test_exercises.sh -- tests/docs/tutorial_check.py exercises (see its header): the tutorial's
# exercises are flagged by gcnlint and gcnsim, their solutions are clean.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
for p in gcnsim gcnlint kernels/vector_add/ref; do
    [ -x "$builddir/$p" ] || { echo "$p not built: skipped"; exit 77; }
done
exec "${PYTHON3:-python3}" "$srcdir/tests/docs/tutorial_check.py" exercises --srcdir "$srcdir" --builddir "$builddir"
