#!/bin/sh
# test_sim.sh -- runs every bundled kernel (both targets, every test size) through gcnsim:
# correct kernels must run without findings and match their C reference bit for bit
# (docs/manifest.md); broken variants must run without a fault.  Skipped (77) until gcnsim
# is built.  What gcnsim must *report* for the broken ones: test_sim_findings.sh.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
build=$builddir/tests/kernels/build-sim
"$srcdir/tests/kernels/build_kernels.sh" "$build" >/dev/null
exec "${PYTHON3:-python3}" "$srcdir/tests/kernels/kernels.py" sim --what outputs --gcnsim "$gcnsim" \
    --kernels "$srcdir/kernels" --build "$build"
