#!/usr/bin/env bash
# bench_lint.sh -- speed of the full gcnlint analysis (CFG, pending-operation dataflow, LDS
# ranges, cross-wave races, hazards) against llvm-objdump-22 -d disassembling the same file.
#   bench/bench_lint.sh [N] [MCPU]      N instructions (default 120000), gfx942|gfx950
# The code object is bench_decode.sh's: one kernel of N varied instructions with branches
# (bench_decode_gen.py, random registers, so it is full of races: a worst case for the
# analysis, many findings and states).  One run each, output to a file; prints wall and CPU
# times and the ratio (target: the analysis faster than objdump's disassembly).
set -eu
N=${1:-120000}
MCPU=${2:-gfx942}
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

"$PYTHON3" - "$GCNLINT" "$OBJDUMP" "$obj" "$W" <<'PY'
import json, resource, subprocess, sys, time
lint, objdump, obj, w = sys.argv[1:5]

def run(out, cmd, ok=(0,)):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(out, "wb") as f:
        rc = subprocess.run(cmd, stdout=f).returncode
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rc not in ok:
        sys.exit("bench_lint: %s exit %d" % (" ".join(cmd), rc))
    return t1 - t0, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)

wl, cl = run(w + "/lint.json", [lint, "--format=json", obj], ok=(0, 4))
wd, cd = run(w + "/objdump.txt", [objdump, "-d", obj])
n = sum(1 for l in open(w + "/objdump.txt") if l.startswith("\t"))
with open(w + "/lint.json") as f:
    found = json.load(f)["findings"]
sev = {}
for x in found:
    sev[x["severity"]] = sev.get(x["severity"], 0) + 1
print("object:          %s, %d instructions (llvm-objdump lines)" % (obj, n))
print("gcnlint:         %8.2f s wall %8.2f s CPU  (%s)" % (wl, cl, ", ".join("%d %ss" % (v, k) for k, v in sorted(sev.items()))))
print("llvm-objdump-22: %8.2f s wall %8.2f s CPU" % (wd, cd))
print("ratio:           gcnlint / objdump = %.2f by CPU time, %.2f by wall time (target < 1)"
      % (cl / max(cd, 1e-3), wl / max(wd, 1e-3)))
PY
