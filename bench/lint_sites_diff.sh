#!/usr/bin/env bash
# lint_sites_diff.sh -- compare two gcnlint builds on a list of code objects,
# sites as sets: each finding of `gcnlint --no-group` is a site (input,
# kernel, check, offset, and the producer's offset when it names one); the
# script prints, per check, the sites of the old build, of the new one, and
# those gone and new, then every new site and up to 40 gone ones.  Findings
# whose message changed at a kept site are counted apart ("reworded").
#   bench/lint_sites_diff.sh OLD_GCNLINT NEW_GCNLINT LIST [gcnlint options...]
# LIST: a file with one code object per line.  BENCH_JOBS (default: nproc)
# files at a time; run it under nice on a shared machine.  The JSON of each
# run is kept in $LINT_DIFF_DIR (default: a new directory under /tmp).
set -eu
[ $# -ge 3 ] || { echo "usage: $0 OLD_GCNLINT NEW_GCNLINT LIST [options...]"; exit 1; }
old=$1 new=$2 list=$3
shift 3
JOBS=${BENCH_JOBS:-$(nproc)}
PYTHON3=${PYTHON3:-python3}
work=${LINT_DIFF_DIR:-$(mktemp -d /tmp/lint_sites_diff.XXXXXX)}
mkdir -p "$work/old" "$work/new"
i=0
while read -r f; do
  [ -n "$f" ] || continue
  printf '%s\t%s\n' "$i" "$f"
  i=$((i + 1))
done < "$list" > "$work/files.tsv"
# one JSON per file, named by its index in the list (options split at spaces)
export LINT_DIFF_OPTS="$*"
for side in old new; do
  build=$old
  [ $side = new ] && build=$new
  while IFS="$(printf '\t')" read -r k f; do
    printf '%s\0%s\0' "$work/$side/$k.json" "$f"
  done < "$work/files.tsv" |
    xargs -0 -n 2 -P "$JOBS" sh -c '"$0" --no-group --format=json $LINT_DIFF_OPTS "$2" > "$1" 2>/dev/null; true' \
      "$build" || true
done
"$PYTHON3" - "$work" <<'PY'
import collections, glob, json, os, sys
work = sys.argv[1]
def load(side):
    sites = {}
    for p in glob.glob(os.path.join(work, side, "*.json")):
        try:
            doc = json.load(open(p))
        except ValueError:
            print("unreadable: %s" % p)
            continue
        for f in doc.get("findings", []):
            key = (f.get("input"), f.get("kernel"), f.get("check"), f.get("offset"),
                   (f.get("producer") or {}).get("offset"))
            sites[key] = f.get("message", "")
    return sites
o, n = load("old"), load("new")
checks = sorted({k[2] for k in o} | {k[2] for k in n})
print("%-28s %9s %9s %7s %7s %9s" % ("check", "old", "new", "gone", "new", "reworded"))
for c in checks:
    so = {k for k in o if k[2] == c}
    sn = {k for k in n if k[2] == c}
    rw = sum(1 for k in so & sn if o[k] != n[k])
    print("%-28s %9d %9d %7d %7d %9d" % (c, len(so), len(sn), len(so - sn), len(sn - so), rw))
print("%-28s %9d %9d %7d %7d" % ("all", len(o), len(n), len(set(o) - set(n)), len(set(n) - set(o))))
new_sites = sorted(set(n) - set(o), key=str)
gone = sorted(set(o) - set(n), key=str)
for k in new_sites:
    print("NEW  %s %s %s %s (producer %s)" % (os.path.basename(k[0] or ""), k[1], k[2], k[3], k[4]))
for k in gone[:40]:
    print("GONE %s %s %s %s (producer %s)" % (os.path.basename(k[0] or ""), k[1], k[2], k[3], k[4]))
if len(gone) > 40:
    print("... %d more gone" % (len(gone) - 40))
PY
echo "lint_sites_diff: JSON in $work"
