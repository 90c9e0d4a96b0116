#!/bin/sh
# bench_gemm.sh -- a 512x512x512 bf16 GEMM (kernels/mfma_gemm, v_mfma_f32_32x32x8_bf16:
# 256 waves, 16384 MFMAs) simulated by gcnsim, timed against the C reference GEMM
# (kernels/mfma_gemm/ref: the same matrix-core numerics, inputs decoded once, one
# gcn_mfma_num_dot_vals per element) on the same inputs, one run each.
# The kernel is assembled beforehand (not timed); times are CPU seconds (user + sys) of
# each process from wait4, steadier than wall time on a shared machine (wall time is
# printed too).
# Prints both and the ratio gcnsim / reference; the run fails if the results differ.
# Usage: bench/bench_gemm.sh [TARGET]   (gfx942 default; run from the build directory or
#        with top_builddir / top_srcdir set)
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${top_builddir:-$srcdir}
target=${1:-gfx942}
gcnsim=${GCNSIM:-$builddir/gcnsim}
ref=$builddir/kernels/mfma_gemm/ref
clang=${CLANG22:-clang-22}
py=${PYTHON3:-python3}
[ -x "$gcnsim" ] || { echo "SKIP: gcnsim not built"; exit 0; }
[ -x "$ref" ] || { echo "SKIP: $ref not built (make check builds it)"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$clang" -x assembler -target amdgcn-amd-amdhsa -mcpu="$target" \
    "$srcdir/kernels/mfma_gemm/mfma_gemm_bf16.s" -o "$tmp/gemm.hsaco" ||
    { echo "FAIL: $clang cannot assemble the kernel"; exit 1; }
"$py" - "$srcdir/kernels/mfma_gemm/mfma_gemm_bf16.json" "$tmp/gemm.json" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))
m["code"] = "gemm.hsaco"
json.dump(m, open(sys.argv[2], "w"))
PY
mkdir "$tmp/dump"
# cpu OUT CMD...: run CMD (output to OUT), print "CPU WALL" seconds of that process alone
# (bench_native cpu, from wait4), exit with its status
cc=${CC:-cc}
$cc -O2 -o "$tmp/native" "$srcdir/bench/bench_native.c" -lm ||
    { echo "FAIL: cannot build bench_native"; exit 1; }
cpu() {
    out=$1
    shift
    "$tmp/native" cpu -o "$out" "$@"
}
sim=$(cpu "$tmp/sim.log" "$gcnsim" -j 1 --manifest "$tmp/gemm.json" --mcpu "$target" \
      --set M=512 --set N=512 --set K=512 --dump-dir "$tmp/dump" --dump-inputs --no-progress)
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/sim.log"; echo "FAIL: gcnsim exit $rc"; exit 1; }
refc=$(cpu "$tmp/ref.log" "$ref" "$tmp/dump")
rrc=$?
[ $rrc -eq 0 ] || { cat "$tmp/ref.log"; echo "FAIL: simulated C differs from the reference"; exit 1; }
echo "$sim $refc" | awk -v t="$target" '{
    printf "bench_gemm %s 512x512x512 bf16: gcnsim %.3f s CPU (%.3f s wall), C reference %.3f s CPU (%.3f s wall), ratio %.2f (results bit-identical)\n",
           t, $1, $2, $3, $4, ($3 > 0 ? $1 / $3 : 0) }'
