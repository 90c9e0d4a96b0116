#!/bin/sh
# test_threads.sh -- gcnsim -j N gives the results of -j 1 byte for byte: every bundled kernel
# at its test sizes and at a size with many workgroups, kernels whose workgroups take
# different paths, fault and stop, and a kernel with a global atomic counter that must run in
# dispatch order (tests/sim/test_threads.py says what is compared).  Skipped (77) without
# gcnsim or clang-22.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
command -v "${CLANG22:-clang-22}" >/dev/null 2>&1 || { echo "clang-22 not found: skipped"; exit 77; }
build=$builddir/tests/sim/build-threads
work=$builddir/tests/sim/work-threads
"$srcdir/tests/kernels/build_kernels.sh" "$build" >/dev/null || { echo "FAIL: building the kernels"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
"${PYTHON3:-python3}" "$srcdir/tests/sim/test_threads.py" --gcnsim "$gcnsim" --build "$build" \
    --work "$work" --threads-dir "$srcdir/tests/sim/threads"
rc=$?
[ $rc = 0 ] && rm -rf "$work"
exit $rc
