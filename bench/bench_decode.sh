#!/usr/bin/env bash
# bench_decode.sh -- decode+print speed of gcndis --llvm-text against
# llvm-objdump-22 on one large code object.
#   bench/bench_decode.sh [N] [MCPU]      N instructions (default 120000), gfx942|gfx950
# Generates a varied kernel of N instructions (bench_decode_gen.py), assembles
# it with clang-22, and times
#   gcndis --llvm-text FILE
#   llvm-objdump-22 -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr FILE
# each writing to a file; gcndis twice: on one thread (-j1) and on its
# default of one thread per CPU.  The figures are the CPU time (user + sys)
# and the wall time of the child, each the best of several runs: on a
# shared machine the minimum is the steadiest estimate of what a run costs.
# All get the same number of runs (BENCH_RUNS, default 11; BENCH_RUNS_GCNDIS /
# BENCH_RUNS_LLVM set them apart), taken in turn, so that a change in the
# machine's load affects all alike (a minimum over more runs is lower:
# unequal counts would favour the side with more).  Prints the times, the
# ratios (one thread by CPU and by wall time; all threads by wall time: that
# is what a user waits for, and llvm-objdump has one thread), and whether
# the instruction texts are identical (the reference reduced to instruction
# lines as in tests/decode/test_objdump_diff.sh; -j1 and the default alike).
# Exit status 1 when they differ.
set -eu
N=${1:-120000}
MCPU=${2:-gfx942}
RUNS_OURS=${BENCH_RUNS_GCNDIS:-${BENCH_RUNS:-11}}
RUNS_LLVM=${BENCH_RUNS_LLVM:-${BENCH_RUNS:-11}}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
top_builddir=${top_builddir:-$top}
GCNDIS=${GCNDIS:-$top_builddir/gcndis}
CLANG22=${CLANG22:-clang-22}
OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump-22}
PYTHON3=${PYTHON3:-python3}
W=$top_builddir/bench/work
mkdir -p "$W"
[ -x "$GCNDIS" ] || { echo "bench_decode: build gcndis first (make gcndis)"; exit 1; }

src=$W/big_$N.s
[ -s "$src" ] || "$PYTHON3" "$here/bench_decode_gen.py" "$N" > "$src"
obj=$W/big_${N}_$MCPU.hsaco
if ! "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu="$MCPU" "$src" -o "$obj" 2> "$W/as.err"; then
    echo "bench_decode: $CLANG22 cannot assemble $src:"
    head -20 "$W/as.err"
    exit 1
fi

# best OUT_1 ... -- CMD_1... -- CMD_2... : run the commands in turn
# (1, 2, 3, 1, 2, 3, ...), each RUNS times (RUNS_K for command K: the first
# two are gcndis, the last llvm-objdump), stdout to OUT_K, a fresh file each
# time (unlinked first: overwriting a file waits for the write-back of its
# old pages, milliseconds of wall time that belong to no tool); prints
# "WALL CPU" in ns for each command, the minimum over its runs.
best() {
    "$PYTHON3" - "$RUNS_OURS" "$RUNS_LLVM" "$@" <<'PY'
import os, resource, subprocess, sys, time
runs_ours, runs_llvm = int(sys.argv[1]), int(sys.argv[2])
rest = sys.argv[3:]
cut = [i for i, a in enumerate(rest) if a == "--"]
outs = rest[:cut[0]]
cmds = [rest[c + 1:(cut[i + 1] if i + 1 < len(cut) else len(rest))] for i, c in enumerate(cut)]
runs = [runs_ours] * (len(cmds) - 1) + [runs_llvm]
bw, bc = [None] * len(cmds), [None] * len(cmds)
for i in range(max(runs)):
    for k in range(len(cmds)):
        if i >= runs[k]:
            continue
        if os.path.exists(outs[k]):
            os.unlink(outs[k])
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter_ns()
        with open(outs[k], "wb") as f:
            subprocess.run(cmds[k], stdout=f, check=True)
        t1 = time.perf_counter_ns()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = int(((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1e9)
        bw[k] = t1 - t0 if bw[k] is None else min(bw[k], t1 - t0)
        bc[k] = cpu if bc[k] is None else min(bc[k], cpu)
print(" ".join("%d %d" % (w, c) for w, c in zip(bw, bc)))
PY
}
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
read -r w_one c_one w_par c_par w_llvm c_llvm <<< "$(best "$W/ours1.txt" "$W/ours.txt" "$W/llvm_raw.txt" \
    -- "$GCNDIS" --llvm-text -j1 "$obj" \
    -- "$GCNDIS" --llvm-text "$obj" \
    -- "$OBJDUMP" -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr "$obj")"
grep "$(printf '^\t')" "$W/llvm_raw.txt" |
    sed -E 's#[[:space:]]*// [0-9A-Fa-f]+:.*$##; s/^[[:space:]]+//; s/[[:space:]]+$//' > "$W/llvm.txt"
n=$(wc -l < "$W/llvm.txt")
ndiff=$(diff "$W/llvm.txt" "$W/ours.txt" | grep -c '^[<>]' || true)
cmp -s "$W/ours.txt" "$W/ours1.txt" || ndiff=$((ndiff + 1000000))
"$PYTHON3" - "$n" "$w_one" "$c_one" "$w_par" "$c_par" "$w_llvm" "$c_llvm" "$ndiff" "$MCPU" "$obj" \
             "$RUNS_OURS" "$RUNS_LLVM" "$ncpu" <<'PY'
import sys
n, w_one, c_one, w_par, c_par, w_llvm, c_llvm, ndiff = (int(x) for x in sys.argv[1:9])
mcpu, obj, runs_ours, runs_llvm, ncpu = sys.argv[9:14]
print("bench_decode: %s, %d instructions, %s CPUs" % (mcpu, n, ncpu))
print("  object           %s" % obj)
print("  %-20s %9s %9s  %s" % ("", "CPU", "wall", "instructions/s (wall)"))
for name, c, w, runs in (("gcndis -j1", c_one, w_one, runs_ours),
                         ("gcndis (-j%s)" % ncpu, c_par, w_par, runs_ours),
                         ("llvm-objdump-22", c_llvm, w_llvm, runs_llvm)):
    print("  %-20s %6.1f ms %6.1f ms  %6.2f M/s   (best of %s)" %
          (name, c / 1e6, w / 1e6, n / (max(w, 1) / 1e9) / 1e6, runs))
r = lambda a, b: a / max(b, 1)
print("  ratio, one thread    %.1fx by CPU time, %.1fx by wall time" %
      (r(c_llvm, c_one), r(w_llvm, w_one)))
print("  ratio, %s threads    %.1fx by wall time (target >= 50x)" % (ncpu, r(w_llvm, w_par)))
if ndiff == 0:
    print("  texts            identical (%d instruction lines; -j1 = -j%s)" % (n, ncpu))
elif ndiff >= 1000000:
    print("  texts            DIFFER: gcndis -j1 and -j%s print different texts" % ncpu)
else:
    print("  texts            DIFFER: %d lines (diff %s/llvm.txt %s/ours.txt)" %
          (ndiff, obj.rsplit("/", 1)[0], obj.rsplit("/", 1)[0]))
PY
[ "$ndiff" = 0 ]
