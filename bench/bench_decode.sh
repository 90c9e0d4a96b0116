#!/usr/bin/env bash
# bench_decode.sh -- decode+print speed of gcndis --llvm-text against
# llvm-objdump-22 on one large code object.
#   bench/bench_decode.sh [N] [MCPU]      N instructions (default 120000), gfx942|gfx950
# Generates a varied kernel of N instructions (bench_decode_gen.py), assembles
# it with clang-22, times
#   gcndis --llvm-text FILE
#   llvm-objdump-22 -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr FILE
# (best of 3 runs each, output to a file), and prints instructions/s for both,
# the speed ratio, and how many lines of the two texts differ (the reference
# reduced to instruction lines as in tests/decode/test_objdump_diff.sh).
set -eu
N=${1:-120000}
MCPU=${2:-gfx942}
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

# best OUT CMD...: run 3 times, stdout to OUT; prints "WALL_NS CPU_NS", each
# the minimum over the runs (CPU = user+sys of the child: steadier than wall
# time on a shared machine).
best() {
    "$PYTHON3" - "$@" <<'PY'
import resource, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
bw = bc = None
for _ in range(3):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter_ns()
    with open(out, "wb") as f:
        subprocess.run(cmd, stdout=f, check=True)
    t1 = time.perf_counter_ns()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = int(((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1e9)
    bw = t1 - t0 if bw is None else min(bw, t1 - t0)
    bc = cpu if bc is None else min(bc, cpu)
print(bw, bc)
PY
}
read -r w_ours c_ours <<< "$(best "$W/ours.txt" "$GCNDIS" --llvm-text "$obj")"
read -r w_llvm c_llvm <<< "$(best "$W/llvm_raw.txt" "$OBJDUMP" -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr "$obj")"
grep "$(printf '^\t')" "$W/llvm_raw.txt" |
    sed -E 's#[[:space:]]*// [0-9A-Fa-f]+:.*$##; s/^[[:space:]]+//; s/[[:space:]]+$//' > "$W/llvm.txt"
n=$(wc -l < "$W/llvm.txt")
n_ours=$(wc -l < "$W/ours.txt")
ndiff=$(diff "$W/llvm.txt" "$W/ours.txt" | grep -c '^[<>]' || true)
"$PYTHON3" - "$n" "$n_ours" "$w_ours" "$c_ours" "$w_llvm" "$c_llvm" "$ndiff" "$MCPU" "$obj" <<'PY'
import sys
n, n_ours, w_ours, c_ours, w_llvm, c_llvm, ndiff = (int(x) for x in sys.argv[1:8])
mcpu, obj = sys.argv[8], sys.argv[9]
c_ours = max(c_ours, 1)
c_llvm = max(c_llvm, 1)
print("object:          %s" % obj)
print("                 %s, %d instructions (llvm-objdump lines), %d lines from gcndis" % (mcpu, n, n_ours))
print("                 best of 3         wall            CPU    instructions/s (CPU)")
print("gcndis:          %13.1f ms %11.1f ms %14.0f" % (w_ours / 1e6, c_ours / 1e6, n / (c_ours / 1e9)))
print("llvm-objdump-22: %13.1f ms %11.1f ms %14.0f" % (w_llvm / 1e6, c_llvm / 1e6, n / (c_llvm / 1e9)))
print("speed ratio:     %.1fx by CPU time, %.1fx by wall time (target >= 50x)" % (c_llvm / c_ours, w_llvm / w_ours))
print("differing lines: %d (diff of the two instruction texts)" % ndiff)
PY
