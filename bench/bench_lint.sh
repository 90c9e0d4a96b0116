#!/usr/bin/env bash
# bench_lint.sh -- speed of the full gcnlint analysis (CFG, pending-operation dataflow, LDS
# ranges, cross-wave races, hazards) against llvm-objdump-22 -d disassembling the same file.
#   bench/bench_lint.sh [N] [MCPU] [M]   gfx942|gfx950
# Two inputs:
#   random: bench_decode.sh's code object, one kernel of N varied instructions with branches
#     (bench_decode_gen.py, default N = 120000; random registers, so it is full of races: a
#     worst case for the analysis, tens of thousands of findings and many states per block);
#   real:   bench_lint_real.hip with M template instantiations of its four kernels (default
#     M = 220, about 108,000 instructions in 880 kernels on gfx942) compiled by clang-22 -O3:
#     real compiler output, clean (no findings).
# Inputs are built once into bench/work.  Each tool runs 3 times per input (output to a
# file); the best CPU time (user + system) and the wall time of that run are printed, with
# the ratio (target: the analysis faster than objdump's disassembly).
set -eu
N=${1:-120000}
MCPU=${2:-gfx942}
M=${3:-220}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
top_builddir=${top_builddir:-$top}
GCNLINT=${GCNLINT:-$top_builddir/gcnlint}
CLANG22=${CLANG22:-clang-22}
OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump-22}
PYTHON3=${PYTHON3:-python3}
W=$top_builddir/bench/work
mkdir -p "$W"
[ -x "$GCNLINT" ] || { echo "bench_lint: build gcnlint first (make gcnlint)"; exit 1; }
src=$W/big_$N.s
[ -s "$src" ] || "$PYTHON3" "$here/bench_decode_gen.py" "$N" > "$src"
obj=$W/big_${N}_$MCPU.hsaco
[ -s "$obj" ] || "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu="$MCPU" "$src" -o "$obj"
real=$W/real_${M}_$MCPU.hsaco
if [ ! -s "$real" ]; then
  hip=$W/real_$M.hip
  { cat "$here/bench_lint_real.hip"
    v=0
    while [ $v -lt "$M" ]; do
      echo "template __global__ void sgemm_t<$v>(const float *, const float *, float *, unsigned);"
      echo "template __global__ void reduce_t<$v>(const float *, float *, unsigned, unsigned);"
      echo "template __global__ void stencil_t<$v>(const float *, float *, unsigned);"
      echo "template __global__ void transpose_t<$v>(const float *, float *, unsigned, unsigned);"
      v=$((v + 1))
    done; } > "$hip"
  "$CLANG22" -x hip --offload-arch="$MCPU" -nogpulib -nogpuinc --cuda-device-only \
    --no-gpu-bundle-output -O3 -mcode-object-version=5 -I "$top/kernels/hip" "$hip" -o "$real.tmp"
  mv "$real.tmp" "$real"
fi

"$PYTHON3" - "$GCNLINT" "$OBJDUMP" "$W" "$obj" "$real" <<'PY'
import json, resource, subprocess, sys, time
lint, objdump, w = sys.argv[1:4]

def run1(out, cmd, ok=(0,)):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(out, "wb") as f:
        rc = subprocess.run(cmd, stdout=f).returncode
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rc not in ok:
        sys.exit("bench_lint: %s exit %d" % (" ".join(cmd), rc))
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), t1 - t0

def run(out, cmd, ok=(0,)):
    return min(run1(out, cmd, ok) for _ in range(3))     # (CPU, wall) of the best run

for name, obj in (("random", sys.argv[4]), ("real", sys.argv[5])):
    cl, wl = run(w + "/lint.json", [lint, "--format=json", obj], ok=(0, 4))
    cd, wd = run(w + "/objdump.txt", [objdump, "-d", obj])
    n = sum(1 for l in open(w + "/objdump.txt") if l.startswith("\t"))
    nk = sum(1 for l in open(w + "/objdump.txt") if l.endswith(">:\n"))
    with open(w + "/lint.json") as f:
        found = json.load(f)["findings"]
    sev = {}
    for x in found:
        sev[x["severity"]] = sev.get(x["severity"], 0) + 1
    print("[%s] %s: %d instructions, %d kernels (llvm-objdump)" % (name, obj, n, nk))
    print("  gcnlint:         %8.2f s CPU %8.2f s wall  (%s)"
          % (cl, wl, ", ".join("%d %ss" % (v, k) for k, v in sorted(sev.items())) or "no findings"))
    print("  llvm-objdump-22: %8.2f s CPU %8.2f s wall" % (cd, wd))
    print("  ratio:           gcnlint / objdump = %.2f by CPU time, %.2f by wall time (target < 1)"
          % (cl / max(cd, 1e-3), wl / max(wd, 1e-3)))
PY
