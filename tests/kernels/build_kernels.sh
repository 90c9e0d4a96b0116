#!/bin/sh
# build_kernels.sh -- assemble / compile every bundled kernel (kernels/**/<name>.json) for every
# target it supports (gfx942, gfx950) into a build directory that other tests use:
#   BUILD/<target>/<kernel dir>/<name>.hsaco   the code object
#   BUILD/<target>/<kernel dir>/<name>.json    its manifest, "code" = that file, one target
#   BUILD/<target>/<kernel dir>/ref            link to the built C reference (if built)
# Usage: build_kernels.sh [BUILD [TARGETS]]     (defaults: $top_builddir/tests/kernels/build,
#                                                gfx942,gfx950)
# As a test (no arguments, run by make check) it exits 0 when everything builds.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
out=${1:-$builddir/tests/kernels/build}
targets=${2:-gfx942,gfx950}
py=${PYTHON3:-python3}
command -v "${CLANG22:-clang-22}" >/dev/null 2>&1 || { echo "clang-22 not found: skipped"; exit 77; }
rm -rf "$out"
exec "$py" "$srcdir/tests/kernels/kernels.py" build --kernels "$srcdir/kernels" --out "$out" \
    --targets "$targets" --refs "$builddir/kernels"
