#!/bin/sh
# bench_fixed.sh -- the fixed part of a gcnsim run (issue 15; docs/gcnsim.md "Session 11:
# fixed costs"): two gcnsim binaries A and B on the MFMA 32x32x8 kernel
# (kernels/hip/mfma/mfma_32x32x8.hip, bf16), runs interleaved (A, B, A, B, ...) so that a
# shared machine's load falls on both alike, one thread:
#   - one workgroup with K=8 (225 wave-instructions, every instruction of the kernel reached
#     once: the set-up, pre-decoding and tables are most of it) and bench_peer.sh's 256^3:
#     gcnsim's own CPU time of the simulation (its summary line), best and median of REPS;
#   - the one-workgroup run and `gcnsim --version` as whole processes: task-clock, best and
#     median of REPS (perf stat, when perf can count here);
#   - with valgrind installed (CALLGRIND=0: not), the host instructions of gcn_sim_run and of
#     the whole process of the one-workgroup run (callgrind, deterministic).
# The outputs (dumps) of A and B are compared first; a difference fails the script.
#   usage: bench/bench_fixed.sh GCNSIM_A GCNSIM_B     (env: REPS=40 CALLGRIND=1 MCPU=gfx942)
set -u
[ $# = 2 ] || { echo "usage: $0 GCNSIM_A GCNSIM_B" >&2; exit 2; }
A=$1 B=$2
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
reps=${REPS:-40}
mcpu=${MCPU:-gfx942}
clang=${CLANG22:-clang-22}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
$clang -x hip -nogpulib -nogpuinc --cuda-device-only --no-gpu-bundle-output \
    -mcode-object-version=5 -O3 --offload-arch=$mcpu \
    "$srcdir/kernels/hip/mfma/mfma_32x32x8.hip" -o "$T/mfma_32x32x8.hsaco" ||
    { echo "SKIP: cannot compile the kernel with $clang"; exit 0; }
cp "$srcdir/kernels/hip/mfma/mfma_32x32x8.json" "$T/"
small="--set M=32 --set N=32 --set K=8"
big="--set M=256 --set N=256 --set K=256"
run() {   # run BIN DUMPDIR SETS...: the simulation's CPU seconds (summary line)
    bin=$1 dd=$2; shift 2
    mkdir -p "$dd"
    "$bin" -j 1 --no-progress --mcpu $mcpu --manifest "$T/mfma_32x32x8.json" "$@" \
        --dump-dir "$dd" 2>&1 | sed -n 's/.* s (\([0-9.]*\) s CPU).*/\1/p'
}
for sz in small big; do
    eval sets=\$$sz
    run "$A" "$T/a-$sz" $sets >/dev/null
    run "$B" "$T/b-$sz" $sets >/dev/null
    cmp -s "$T/a-$sz/C.bin" "$T/b-$sz/C.bin" ||
        { echo "FAIL: the outputs of A and B differ ($sz)"; exit 1; }
done
stats() {   # stats FILE: best and median (microseconds) of the seconds in FILE
    sort -g "$1" | awk '{v[NR] = $1 * 1e6} END {printf "best %.0f us, median %.0f us (%d runs)",
        v[1], v[int((NR + 1) / 2)], NR}'
}
: >"$T/a.small"; : >"$T/b.small"; : >"$T/a.big"; : >"$T/b.big"
i=0
while [ $i -lt "$reps" ]; do
    run "$A" "$T/a-small" $small >>"$T/a.small"
    run "$B" "$T/b-small" $small >>"$T/b.small"
    run "$A" "$T/a-big" $big >>"$T/a.big"
    run "$B" "$T/b-big" $big >>"$T/b.big"
    i=$((i + 1))
done
echo "simulation CPU time (gcnsim's summary line), one workgroup K=8:"
echo "  A: $(stats "$T/a.small")"
echo "  B: $(stats "$T/b.small")"
echo "simulation CPU time, 256^3:"
echo "  A: $(stats "$T/a.big")"
echo "  B: $(stats "$T/b.big")"
if perf stat -x, -e task-clock true >/dev/null 2>&1; then
    # task-clock of whole processes, one perf stat per run, interleaved
    tc() {   # tc BIN ARGS...: milliseconds of task-clock of one run
        perf stat -x, -e task-clock -o "$T/perf.out" "$@" >/dev/null 2>&1
        awk -F, '/task-clock/ {print $1 / 1000}' "$T/perf.out"
    }
    : >"$T/a.p"; : >"$T/b.p"; : >"$T/a.v"; : >"$T/b.v"
    i=0
    while [ $i -lt "$reps" ]; do
        tc "$A" -j 1 --no-progress --mcpu $mcpu --manifest "$T/mfma_32x32x8.json" $small >>"$T/a.p"
        tc "$B" -j 1 --no-progress --mcpu $mcpu --manifest "$T/mfma_32x32x8.json" $small >>"$T/b.p"
        tc "$A" --version >>"$T/a.v"
        tc "$B" --version >>"$T/b.v"
        i=$((i + 1))
    done
    echo "process task-clock, one workgroup K=8 (perf stat):"
    echo "  A: $(stats "$T/a.p")"
    echo "  B: $(stats "$T/b.p")"
    echo "process task-clock, gcnsim --version:"
    echo "  A: $(stats "$T/a.v")"
    echo "  B: $(stats "$T/b.v")"
else
    echo "(perf cannot count here: no task-clock figures)"
fi
if [ "${CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null 2>&1 &&
   command -v callgrind_annotate >/dev/null 2>&1; then
    echo "host instructions, one workgroup K=8 (callgrind): gcn_sim_run, whole process"
    for x in A B; do
        eval bin=\$$x
        valgrind --tool=callgrind --callgrind-out-file="$T/cg.$x" "$bin" -j 1 --no-progress \
            --mcpu $mcpu --manifest "$T/mfma_32x32x8.json" $small >/dev/null 2>&1
        run_ir=$(callgrind_annotate --inclusive=yes "$T/cg.$x" 2>/dev/null |
                 awk '/sim\.c:gcn_sim_run / {gsub(",", "", $1); print $1; exit}')
        all_ir=$(callgrind_annotate "$T/cg.$x" 2>/dev/null |
                 awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
        echo "  $x: ${run_ir:-?} ${all_ir:-?}"
    done
fi
