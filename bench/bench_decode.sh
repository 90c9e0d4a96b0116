#!/usr/bin/env bash
# bench_decode.sh -- decode+print speed of gcndis --llvm-text against
# llvm-objdump-22 on one large code object.
#   bench/bench_decode.sh [N] [MCPU]      N instructions (default 120000), gfx942|gfx950
# Generates a varied kernel of N instructions (bench_decode_gen.py), assembles
# it with clang-22, and times
#   gcndis --llvm-text FILE
#   llvm-objdump-22 -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr FILE
# each writing to a file.  The figure is the CPU time (user + sys) of the
# child, the best of several runs: on a shared machine the minimum is the
# steadiest estimate of what a run costs.  Both get the same number of runs
# (BENCH_RUNS, default 7; BENCH_RUNS_GCNDIS / BENCH_RUNS_LLVM set them apart),
# taken alternately, so that a change in the machine's load affects both
# alike (a minimum over more runs is lower: unequal counts would favour
# the side with more).  Prints instructions/s of both,
# the ratio, and whether the two instruction texts are identical (the
# reference reduced to instruction lines as in
# tests/decode/test_objdump_diff.sh).  Exit status 1 when they differ.
set -eu
N=${1:-120000}
MCPU=${2:-gfx942}
RUNS_OURS=${BENCH_RUNS_GCNDIS:-${BENCH_RUNS:-7}}
RUNS_LLVM=${BENCH_RUNS_LLVM:-${BENCH_RUNS:-7}}
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

# best RUNS_A OUT_A RUNS_B OUT_B -- CMD_A... -- CMD_B...: run the two commands
# alternately (A, B, A, B, ...; RUNS_A and RUNS_B times), stdout to OUT_A and
# OUT_B; prints "WALL_A CPU_A WALL_B CPU_B" in ns, each the minimum over its
# runs.
best() {
    "$PYTHON3" - "$@" <<'PY'
import resource, subprocess, sys, time
runs = [int(sys.argv[1]), int(sys.argv[3])]
outs = [sys.argv[2], sys.argv[4]]
rest = sys.argv[5:]
cut = [i for i, a in enumerate(rest) if a == "--"]
cmds = [rest[cut[0] + 1:cut[1]], rest[cut[1] + 1:]]
bw, bc = [None, None], [None, None]
for i in range(max(runs)):
    for k in (0, 1):
        if i >= runs[k]:
            continue
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter_ns()
        with open(outs[k], "wb") as f:
            subprocess.run(cmds[k], stdout=f, check=True)
        t1 = time.perf_counter_ns()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = int(((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1e9)
        bw[k] = t1 - t0 if bw[k] is None else min(bw[k], t1 - t0)
        bc[k] = cpu if bc[k] is None else min(bc[k], cpu)
print(bw[0], bc[0], bw[1], bc[1])
PY
}
read -r w_ours c_ours w_llvm c_llvm <<< "$(best "$RUNS_OURS" "$W/ours.txt" "$RUNS_LLVM" "$W/llvm_raw.txt" \
    -- "$GCNDIS" --llvm-text "$obj" \
    -- "$OBJDUMP" -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr "$obj")"
grep "$(printf '^\t')" "$W/llvm_raw.txt" |
    sed -E 's#[[:space:]]*// [0-9A-Fa-f]+:.*$##; s/^[[:space:]]+//; s/[[:space:]]+$//' > "$W/llvm.txt"
n=$(wc -l < "$W/llvm.txt")
ndiff=$(diff "$W/llvm.txt" "$W/ours.txt" | grep -c '^[<>]' || true)
"$PYTHON3" - "$n" "$w_ours" "$c_ours" "$w_llvm" "$c_llvm" "$ndiff" "$MCPU" "$obj" \
             "$RUNS_OURS" "$RUNS_LLVM" <<'PY'
import sys
n, w_ours, c_ours, w_llvm, c_llvm, ndiff = (int(x) for x in sys.argv[1:7])
mcpu, obj, runs_ours, runs_llvm = sys.argv[7], sys.argv[8], sys.argv[9], sys.argv[10]
c_ours, c_llvm = max(c_ours, 1), max(c_llvm, 1)
print("bench_decode: %s, %d instructions" % (mcpu, n))
print("  object           %s" % obj)
print("  %-16s %9s %9s  %s" % ("", "CPU", "wall", "instructions/s (CPU)"))
for name, c, w, runs in (("gcndis", c_ours, w_ours, runs_ours),
                         ("llvm-objdump-22", c_llvm, w_llvm, runs_llvm)):
    print("  %-16s %6.1f ms %6.1f ms  %6.2f M/s   (best of %s)" %
          (name, c / 1e6, w / 1e6, n / (c / 1e9) / 1e6, runs))
print("  ratio            %.1fx by CPU time (target >= 50x); %.1fx by wall time" %
      (c_llvm / c_ours, w_llvm / max(w_ours, 1)))
if ndiff == 0:
    print("  texts            identical (%d instruction lines)" % n)
else:
    print("  texts            DIFFER: %d lines (diff %s/llvm.txt %s/ours.txt)" %
          (ndiff, obj.rsplit("/", 1)[0], obj.rsplit("/", 1)[0]))
PY
[ "$ndiff" = 0 ]
