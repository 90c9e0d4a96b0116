#!/usr/bin/env bash
# real_corpus.sh -- gcnlint over a directory of real code objects (for example
# the prebuilt kernels of ROCm's AITER: `git archive HEAD hsa | tar -x`), with
# the figures issue 13 asks for:
#   * objects clean (no error or warning), objects with findings, input errors;
#   * findings by kind (check) and target, as findings (what a user reads: a
#     rule broken at many sites of one kernel is one grouped finding) and as
#     sites (each place, --no-group's count);
#   * the time of gcnlint on all files against llvm-objdump-22 -d on the same
#     files, both in this script, each the best of BENCH_RUNS (default 1) runs.
#   GCN_CORPUS=DIR bench/real_corpus.sh [gcnlint options...]
# Every *.co / *.hsaco under DIR whose target is gfx942 or gfx950 (others are
# counted as skipped).  Extra arguments go to gcnlint (e.g. -Wlds-unproven,
# -Wllvm-conservative).  GCN_CORPUS_JSON=DIR keeps the per-batch JSON there.
# Exits 77 with a message when GCN_CORPUS is not set.
set -eu
if [ -z "${GCN_CORPUS:-}" ]; then
  echo "SKIP: set GCN_CORPUS to a directory of code objects (e.g. AITER's hsa/)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
top_builddir=${top_builddir:-$top}
GCNLINT=${GCNLINT:-$top_builddir/gcnlint}
OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump-22}
PYTHON3=${PYTHON3:-python3}
RUNS=${BENCH_RUNS:-1}
JOBS=${BENCH_JOBS:-$(nproc)}
[ -x "$GCNLINT" ] || { echo "real_corpus: build gcnlint first (make gcnlint)"; exit 1; }
work=${GCN_CORPUS_JSON:-$(mktemp -d /tmp/real_corpus.XXXXXX)}
mkdir -p "$work"
list=$work/files.txt
# gfx942 / gfx950 objects only (EF_AMDGPU_MACH 0x4c / 0x4f in e_flags[7:0], offset 48)
find "$GCN_CORPUS" -type f \( -name '*.co' -o -name '*.hsaco' \) | sort | while read -r f; do
  m=$(od -An -tx1 -j48 -N1 "$f" 2>/dev/null | tr -d ' ')
  case $m in 4c|4f) echo "$f" ;; esac
done > "$list"
total=$(find "$GCN_CORPUS" -type f \( -name '*.co' -o -name '*.hsaco' \) | wc -l)
n=$(wc -l < "$list")
echo "real_corpus: $n gfx942/gfx950 code objects under $GCN_CORPUS ($((total - n)) of other targets skipped)"

now() { date +%s.%N; }
best_lint=; best_dump=
for r in $(seq "$RUNS"); do
  rm -f "$work"/batch.*.json
  t0=$(now)
  # batches of 40 files, JOBS at a time; each batch one JSON document
  split -l 40 -d -a 4 "$list" "$work/batch."
  # the list files only (batch.NNNN, not their .json/.err)
  ls "$work" | grep -E '^batch\.[0-9]+$' | sed "s|^|$work/|" | xargs -P "$JOBS" -I{} sh -c \
    'b=$1; shift; "$0" --format=json "$@" $(cat "$b") > "$b.json" 2> "$b.err" || [ $? = 4 ]' \
    "$GCNLINT" {} "$@" || true
  t1=$(now)
  xargs -P "$JOBS" -n 40 "$OBJDUMP" -d < "$list" > /dev/null 2>&1 || true
  t2=$(now)
  l=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  d=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", b - a }')
  best_lint=$(awk -v a="$l" -v b="${best_lint:-$l}" 'BEGIN { print (a < b ? a : b) }')
  best_dump=$(awk -v a="$d" -v b="${best_dump:-$d}" 'BEGIN { print (a < b ? a : b) }')
done
"$PYTHON3" - "$work" "$n" <<'PY'
import collections, glob, json, sys
work, n = sys.argv[1], int(sys.argv[2])
objs = {}                       # input -> worst severity
finds = collections.Counter()   # (check, severity, target) -> grouped findings
sites = collections.Counter()   # ... -> sites
errors = 0
for p in sorted(glob.glob(work + "/batch.*.json")):
    try:
        doc = json.load(open(p))
    except ValueError:
        errors += 1
        continue
    for i in doc.get("inputs", []):
        path = i if isinstance(i, str) else i.get("path", i.get("file", ""))
        objs.setdefault(path, "clean")
    for f in doc["findings"]:
        objs.setdefault(f["input"], "clean")
    for f in doc["findings"]:
        t = "gfx950" if "gfx950" in f["input"] else "gfx942"
        k = (f["check"], f["severity"], t)
        finds[k] += 1
        sites[k] += f.get("count", 1)
        if f["severity"] in ("error", "warning"):
            objs[f["input"]] = "findings"
clean = sum(1 for v in objs.values() if v == "clean")
print("objects: %d checked, %d clean, %d with errors or warnings%s" %
      (len(objs), clean, len(objs) - clean,
       ", %d batches unreadable" % errors if errors else ""))
checks = sorted({k[:2] for k in finds}, key=lambda k: -sum(sites[c + (t,)] for c in [k] for t in ("gfx942", "gfx950")))
print("%-34s %-8s %10s %10s %10s %10s" % ("check", "severity", "gfx942", "gfx950", "findings", "sites"))
tf = ts = 0
for c in checks:
    a, b = c + ("gfx942",), c + ("gfx950",)
    f, s = finds[a] + finds[b], sites[a] + sites[b]
    if c[1] != "note":
        tf += f; ts += s
    print("%-34s %-8s %10d %10d %10d %10d" % (c[0], c[1], sites[a], sites[b], f, s))
print("errors and warnings: %d findings, %d sites (gfx942/gfx950 columns count sites)" % (tf, ts))
PY
echo "time: gcnlint $best_lint s, llvm-objdump-22 -d $best_dump s on the same $n files ($JOBS jobs each): ratio $(awk -v a="$best_lint" -v b="$best_dump" 'BEGIN { printf "%.2f", a / b }')x"
