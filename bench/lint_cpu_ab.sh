#!/bin/sh
# lint_cpu_ab.sh -- two gcnlint builds timed on the same code objects: the
# CPU time (user + system, of the gcnlint processes) of one pass over every
# file of LIST (one code object per line), passes interleaved A, B, A, B, ...
# so that a shared machine's load falls on both alike; best of REPS passes
# each, and the ratio B / A.  One file at a time (run it under nice).
#   usage: bench/lint_cpu_ab.sh GCNLINT_A GCNLINT_B LIST [gcnlint options...]
#   env: REPS=3
set -eu
[ $# -ge 3 ] || { echo "usage: $0 GCNLINT_A GCNLINT_B LIST [options...]"; exit 1; }
PYTHON3=${PYTHON3:-python3}
exec "$PYTHON3" - "$@" <<'PY'
import os, resource, subprocess, sys
a, b, lst = sys.argv[1:4]
opts = sys.argv[4:]
files = [l.strip() for l in open(lst) if l.strip()]
reps = int(os.environ.get("REPS", "3"))
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
def one_pass(binary):
    t0 = cpu()
    for f in files:
        subprocess.run([binary, "--no-group", "--format=json"] + opts + [f],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cpu() - t0
best = {a: None, b: None}
for r in range(reps):
    for x in (a, b):
        t = one_pass(x)
        best[x] = t if best[x] is None else min(best[x], t)
        print("pass %d %s: %.2f s CPU" % (r + 1, x, t), flush=True)
print("files %d, best of %d: A %.2f s, B %.2f s CPU, B/A %.3f"
      % (len(files), reps, best[a], best[b], best[b] / best[a]))
PY
