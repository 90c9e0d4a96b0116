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

now() { date +%s%N; }
best() {   # best OUT CMD...: minimum wall time in ns of 3 runs, stdout to OUT
    local out=$1 b=0 t0 t1 i
    shift
    for i in 1 2 3; do
        t0=$(now)
        "$@" > "$out"
        t1=$(now)
        if [ $b = 0 ] || [ $((t1 - t0)) -lt $b ]; then b=$((t1 - t0)); fi
    done
    echo $b
}
t_ours=$(best "$W/ours.txt" "$GCNDIS" --llvm-text "$obj")
t_llvm=$(best "$W/llvm_raw.txt" "$OBJDUMP" -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr "$obj")
grep "$(printf '^\t')" "$W/llvm_raw.txt" |
    sed -E 's#[[:space:]]*// [0-9A-Fa-f]+:.*$##; s/^[[:space:]]+//; s/[[:space:]]+$//' > "$W/llvm.txt"
n=$(wc -l < "$W/llvm.txt")
n_ours=$(wc -l < "$W/ours.txt")
ndiff=$(diff "$W/llvm.txt" "$W/ours.txt" | grep -c '^[<>]' || true)
"$PYTHON3" - "$n" "$n_ours" "$t_ours" "$t_llvm" "$ndiff" "$MCPU" "$obj" <<'PY'
import sys
n, n_ours, t_ours, t_llvm, ndiff = (int(x) for x in sys.argv[1:6])
mcpu, obj = sys.argv[6], sys.argv[7]
r_ours = n / (t_ours / 1e9)
r_llvm = n / (t_llvm / 1e9)
print("object:          %s (%s, %d instructions per llvm-objdump, %d lines from gcndis)" % (obj, mcpu, n, n_ours))
print("gcndis:          %8.1f ms  %12.0f instructions/s" % (t_ours / 1e6, r_ours))
print("llvm-objdump-22: %8.1f ms  %12.0f instructions/s" % (t_llvm / 1e6, r_llvm))
print("speed ratio:     %.1fx (target >= 50x)" % (t_llvm / t_ours))
print("differing lines: %d (diff of the two instruction texts)" % ndiff)
PY
