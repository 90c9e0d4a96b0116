#!/bin/sh
# bench_mfma.sh -- matrix-core speed (issue 15, "MFMA at memory speed"), from one run:
#  1. time per instruction of v_mfma_f32_16x16x16_f16 and v_mfma_f32_32x32x8_bf16 as the
#     simulator executes them (gcn_mfma_run: gather, numerics, scatter), and of the general
#     per-element numerics alone (gcn_mfma_num_dot over the tile) for comparison
#     (bench/bench_mfma.c, linked with the build's libgcnsim.a and the layers below it);
#  2. the bundled bf16 GEMM (kernels/mfma_gemm, v_mfma_f32_32x32x8_bf16) at 512^3 simulated
#     by gcnsim (CPU seconds of the whole process, start-up and dumps included, best of 3)
#     against a native -O3 f32 GEMM of the same shape on the same inputs
#     (bench/bench_native.c gemm, best of 3, computed in this script), whose output bits
#     are compared with gcnsim's (the inputs
#     are multiples of 2^-7 in [-1, 1), so every f32 partial sum is exact and both must
#     agree bit for bit; the script fails if they do not).
# Times are CPU times (steadier than wall time on a shared machine).
# Usage: bench/bench_mfma.sh [SIZE]   (512 default; run from the build directory or with
#        top_builddir / top_srcdir set; GCNSIM / LIBGCN select other builds to compare)
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${top_builddir:-$(pwd)}
size=${1:-512}
gcnsim=${GCNSIM:-$builddir/gcnsim}
libgcn=${LIBGCN:-"$builddir/libgcnsim.a $builddir/libgcnanalyze.a $builddir/libgcndecode.a"}
cc=${CC:-cc}
clang=${CLANG22:-clang-22}
py=${PYTHON3:-python3}
[ -x "$gcnsim" ] || { echo "SKIP: gcnsim not built"; exit 0; }
for l in $libgcn; do [ -f "$l" ] || { echo "SKIP: $l not built"; exit 0; }; done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

$cc -O2 -I"$srcdir/src" -I"$srcdir/src/decode" -I"$builddir" -o "$tmp/bench_mfma" \
    "$srcdir/bench/bench_mfma.c" $libgcn -lm -lpthread ||
    { echo "FAIL: cannot build bench_mfma"; exit 1; }
$cc -O3 -march=native -o "$tmp/native" "$srcdir/bench/bench_native.c" -lm 2>/dev/null ||
    $cc -O3 -o "$tmp/native" "$srcdir/bench/bench_native.c" -lm ||
    { echo "FAIL: cannot build bench_native"; exit 1; }
"$tmp/bench_mfma" 4000 | awk '{
    printf "bench_mfma %-26s %8.3f us per instruction (general per-element numerics alone: %8.3f us, %.1fx)\n",
           $1, $2, $3, ($2 > 0 ? $3 / $2 : 0) }' || exit 1

"$clang" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 \
    "$srcdir/kernels/mfma_gemm/mfma_gemm_bf16.s" -o "$tmp/gemm.hsaco" ||
    { echo "FAIL: $clang cannot assemble the kernel"; exit 1; }
"$py" - "$srcdir/kernels/mfma_gemm/mfma_gemm_bf16.json" "$tmp/gemm.json" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))
m["code"] = "gemm.hsaco"
json.dump(m, open(sys.argv[2], "w"))
PY
mkdir "$tmp/dump"
# gcnsim's whole process (start-up and dumps included), best of 3, its CPU time from wait4
sim=1e9
for r in 1 2 3; do
    set -- $("$tmp/native" cpu "$gcnsim" -j 1 --manifest "$tmp/gemm.json" --mcpu gfx942 \
             --set M=$size --set N=$size --set K=$size --dump-dir "$tmp/dump" --dump-inputs \
             --no-progress) || { echo "FAIL: gcnsim exit status"; exit 1; }
    sim=$(echo "$sim $1" | awk '{print ($2 + 0 < $1 + 0) ? $2 : $1}')
done
set -- $("$tmp/native" gemm "$tmp/dump" $size $size $size) ||
    { echo "FAIL: native GEMM"; exit 1; }
[ "$2" = 0 ] || { echo "FAIL: native f32 GEMM differs from gcnsim in $2 elements"; exit 1; }
echo "$sim $1" | awk -v n=$size '{
    printf "bench_mfma gemm %dx%dx%d bf16: gcnsim %.3f s CPU, native -O3 f32 GEMM %.4f s, ratio %.1f (output bits identical)\n",
           n, n, n, $1, $2, ($2 > 0 ? $1 / $2 : 0) }'
