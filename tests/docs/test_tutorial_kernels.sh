#!/bin/sh
# test_tutorial_kernels.sh -- tests/docs/tutorial_check.py kernels (see its header): the tutorial's
# kernels assemble, run clean and match their references; broken ones run without a fault.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
for p in gcnsim gcnlint kernels/vector_add/ref; do
    [ -x "$builddir/$p" ] || { echo "$p not built: skipped"; exit 77; }
done
exec "${PYTHON3:-python3}" "$srcdir/tests/docs/tutorial_check.py" kernels --srcdir "$srcdir" --builddir "$builddir"
