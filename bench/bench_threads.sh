#!/bin/sh
# bench_threads.sh -- how gcnsim's time falls with -j (workgroups on threads, docs/gcnsim.md
# "Threads"), on two bundled kernels with many workgroups:
#   gemm  kernels/mfma_gemm (bf16, v_mfma_f32_32x32x8_bf16), M = N = K = $GEMM_SIZE (default
#         1024: 32 x 32 workgroups of one wave, K/8 = 128 MFMAs each);
#   vadd  kernels/vector_add, N = $VADD_N floats (default 16 M) on $VADD_WG workgroups of 256
#         (default 4096).
# Each is run at each -j of $JOBS (default "1 2 NPROC"), $REPS rounds (default 3) with the -j
# interleaved; the least of the rounds is kept.  Printed per -j: the simulation's wall time
# (gcnsim's summary line: from dispatch to the end of the last workgroup), the whole process's
# wall time (also reading the manifest, filling the buffers, writing the dump: one thread), the
# CPU time, and the speedup of each against -j 1.  Checks: every -j gives the same output bytes,
# and the C reference (kernels/*/ref) accepts the output of the last -j (inputs dumped by one
# more run); any difference fails (exit 1).  The load average before and after is printed: the
# figures mean little on a machine busy with other work.
# GEMM_REF=0 skips the C reference of the GEMM (single-threaded, about 0.5 s per 512^3 here:
# 4 minutes at 4096^3).  GEMM_ONLY=1 / VADD_ONLY=1 run one workload.
# Usage: bench/bench_threads.sh [TARGET]   (gfx942 default; run from the build directory or
#        with top_builddir / top_srcdir set)
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${top_builddir:-$srcdir}
target=${1:-gfx942}
gcnsim=${GCNSIM:-$builddir/gcnsim}
clang=${CLANG22:-clang-22}
py=${PYTHON3:-python3}
[ -x "$gcnsim" ] || { echo "SKIP: gcnsim not built"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
nproc=$(nproc 2>/dev/null || echo 2)
JOBS=${JOBS:-$(echo 1 2 "$nproc" | tr ' ' '\n' | awk '!seen[$0]++' | tr '\n' ' ')}
"$clang" -x assembler -target amdgcn-amd-amdhsa -mcpu="$target" \
    "$srcdir/kernels/mfma_gemm/mfma_gemm_bf16.s" -o "$tmp/gemm.hsaco" ||
    { echo "FAIL: $clang cannot assemble the GEMM"; exit 1; }
"$clang" -x assembler -target amdgcn-amd-amdhsa -mcpu="$target" \
    "$srcdir/kernels/vector_add/vector_add.s" -o "$tmp/vadd.hsaco" ||
    { echo "FAIL: $clang cannot assemble the vector add"; exit 1; }
exec "$py" "$srcdir/bench/bench_threads.py" --gcnsim "$gcnsim" --target "$target" --tmp "$tmp" \
    --srcdir "$srcdir" --builddir "$builddir" --jobs "$JOBS" --reps "${REPS:-3}" \
    --gemm-size "${GEMM_SIZE:-1024}" --vadd-n "${VADD_N:-16777216}" --vadd-wg "${VADD_WG:-4096}" \
    --gemm-ref "${GEMM_REF:-1}" --only "$( [ "${GEMM_ONLY:-0}" = 1 ] && echo gemm; [ "${VADD_ONLY:-0}" = 1 ] && echo vadd)"
