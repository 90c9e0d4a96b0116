#!/bin/sh
# test_sim.sh -- runs every bundled kernel (both targets, every test size) through gcnsim and
# compares the dumped outputs with its C reference (docs/manifest.md).  Skipped (77) until
# gcnsim is built.  Builds the kernels first with build_kernels.sh.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
build=$builddir/tests/kernels/build-sim
"$srcdir/tests/kernels/build_kernels.sh" "$build" >/dev/null
exec "${PYTHON3:-python3}" "$srcdir/tests/kernels/kernels.py" sim --gcnsim "$gcnsim" --build "$build"
