#!/bin/sh
# bench_gemm.sh -- a 512x512x512 bf16 GEMM (kernels/mfma_gemm, v_mfma_f32_32x32x8_bf16:
# 256 waves, 16384 MFMAs) simulated by gcnsim, timed against the C reference GEMM
# (kernels/mfma_gemm/ref, the same matrix-core numerics) on the same inputs, one run each.
# Prints both times and their ratio; prints SKIP (exit 0) while gcnsim cannot run MFMAs.
# Usage: bench/bench_gemm.sh [TARGET]   (gfx942 default; run from the build directory or
#        with top_builddir / top_srcdir set)
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${top_builddir:-$srcdir}
target=${1:-gfx942}
gcnsim=${GCNSIM:-$builddir/gcnsim}
ref=$builddir/kernels/mfma_gemm/ref
[ -x "$gcnsim" ] || { echo "SKIP: gcnsim not built"; exit 0; }
[ -x "$ref" ] || { echo "SKIP: $ref not built (make check builds it)"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
t0=$(now)
"$gcnsim" --manifest "$srcdir/kernels/mfma_gemm/mfma_gemm_bf16.json" --mcpu "$target" \
    --set M=512 --set N=512 --set K=512 --dump-dir "$tmp" > "$tmp/sim.log" 2>&1
rc=$?
t1=$(now)
if [ $rc -ne 0 ] && grep -q "is not simulated" "$tmp/sim.log"; then
    echo "SKIP: gcnsim does not simulate MFMA yet ($(grep -m1 'is not simulated' "$tmp/sim.log"))"
    exit 0
fi
[ $rc -eq 0 ] || { cat "$tmp/sim.log"; echo "FAIL: gcnsim exit $rc"; exit 1; }
t2=$(now)
"$ref" "$tmp" > "$tmp/ref.log" 2>&1
rrc=$?
t3=$(now)
[ $rrc -eq 0 ] || { cat "$tmp/ref.log"; echo "FAIL: simulated C differs from the reference"; exit 1; }
awk -v s="$t0" -v e="$t1" -v rs="$t2" -v re="$t3" -v t="$target" 'BEGIN {
    sim = e - s; ref = re - rs;
    printf "bench_gemm %s 512x512x512 bf16: gcnsim %.3f s, C reference %.3f s, ratio %.1f (results bit-identical)\n",
           t, sim, ref, (ref > 0 ? sim / ref : 0) }'
