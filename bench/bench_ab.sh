#!/bin/sh
# bench_ab.sh -- two gcnsim binaries compared on the same work, runs interleaved (A, B, A, B,
# ...) so that a shared machine's load falls on both alike: the simulation's CPU time (from
# gcnsim's summary line) of the LDS-DMA vector add (kernels/vector_add, N floats on WG
# workgroups, bench_sim.sh's settings), of clang -O3 saxpy (bench_peer.sh's kernel, N floats)
# and of the bf16 GEMM of kernels/mfma_gemm (GEMM^3), best of REPS runs each, one thread;
# the vector add also as the ratio to the native C loop of bench/bench_native.c (best of its
# runs in this script), as bench_sim.sh prints it.  Fails when the two binaries' outputs
# differ (the dumps are compared).
#   usage: bench/bench_ab.sh GCNSIM_A GCNSIM_B     (env: N=16777216 WG=64 GEMM=512 REPS=5
#          ROUNDS=1: ROUNDS repetitions of the whole comparison, each printed)
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
A=$1 B=$2
N=${N:-16777216} WG=${WG:-64} GEMM=${GEMM:-512} REPS=${REPS:-5} ROUNDS=${ROUNDS:-1}
cc=${CC:-cc}
clang=${CLANG22:-clang-22}
T=$(mktemp -d /tmp/gcnsim-ab-XXXXXX)
trap 'rm -rf "$T"' EXIT
$cc -O2 -march=native -o "$T/native" "$srcdir/bench/bench_native.c" -lm 2>/dev/null ||
    $cc -O2 -o "$T/native" "$srcdir/bench/bench_native.c" -lm
cp "$srcdir/bench/saxpy.hip" "$srcdir/bench/saxpy.json" "$T/"   # the kernel and its manifest
$clang -x hip -nogpulib -nogpuinc --cuda-device-only --no-gpu-bundle-output \
    -mcode-object-version=5 -D__global__='__attribute__((global))' -O3 --offload-arch=gfx942 \
    "$T/saxpy.hip" -o "$T/saxpy.hsaco"

# sim BIN TAG ARGS... -> the CPU seconds of one run (its dump kept in $T/TAG)
sim() {
    bin=$1 tag=$2
    shift 2
    rm -rf "$T/$tag"
    out=$("$bin" -j 1 --no-progress --mcpu gfx942 --dump-dir "$T/$tag" "$@" 2>&1) ||
        { echo "$out" >&2; exit 1; }
    echo "$out" | sed -n 's/.* s (\([0-9.]*\) s CPU).*/\1/p'
}
min() { awk 'BEGIN { m = "" } { if (m == "" || $1 < m) m = $1 } END { print m }'; }

for round in $(seq "$ROUNDS"); do
    nat=$(for r in $(seq "$REPS"); do "$T/native" vadd "$N"; done | min)
    for k in vadd saxpy gemm; do
        case $k in
        vadd) set -- --manifest "$srcdir/kernels/vector_add/vector_add.json" --set N=$N --set WG=$WG ;;
        saxpy) set -- --manifest "$T/saxpy.json" --set N=$N ;;
        gemm) set -- --manifest "$srcdir/kernels/mfma_gemm/mfma_gemm_bf16.json" --set M=$GEMM \
                  --set N=$GEMM --set K=$GEMM ;;
        esac
        : > "$T/a.t"
        : > "$T/b.t"
        for r in $(seq "$REPS"); do
            sim "$A" a "$@" >> "$T/a.t"
            sim "$B" b "$@" >> "$T/b.t"
        done
        diff -r "$T/a" "$T/b" >/dev/null || { echo "FAIL: $k: the outputs differ"; exit 1; }
        ta=$(min < "$T/a.t")
        tb=$(min < "$T/b.t")
        if [ $k = vadd ]; then
            awk -v k="vector add N=$N" -v a="$ta" -v b="$tb" -v n="$nat" 'BEGIN {
                printf "%-28s A %.4f s (%.1fx native)  B %.4f s (%.1fx native)  B/A %.3f  native %.5f s\n",
                       k, a, a / n, b, b / n, b / a, n }'
        else
            [ $k = gemm ] && k="bf16 GEMM $GEMM^3" || k="saxpy N=$N"
            awk -v k="$k" -v a="$ta" -v b="$tb" 'BEGIN {
                printf "%-28s A %.4f s  B %.4f s  B/A %.3f\n", k, a, b, b / a }'
        fi
    done
done
