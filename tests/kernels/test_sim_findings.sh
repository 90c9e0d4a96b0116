#!/bin/sh
# test_sim_findings.sh -- the broken kernel variants through gcnsim: every report their
# kernels/**/expect.json expects at a test size (races, hazards) must appear in gcnsim's
# findings.  Skipped (77) until gcnsim is built.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
build=$builddir/tests/kernels/build-simf
"$srcdir/tests/kernels/build_kernels.sh" "$build" >/dev/null
exec "${PYTHON3:-python3}" "$srcdir/tests/kernels/kernels.py" sim --what findings --gcnsim "$gcnsim" \
    --kernels "$srcdir/kernels" --build "$build"
