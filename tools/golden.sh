#!/bin/sh
# golden.sh -- capture the outputs a refactor must leave byte-identical (issue 14's guard):
#   gcndis --llvm-text on every built and committed code object;
#   gcnlint text, JSON, SARIF, --suggest and --explain on every bundled kernel (kernels/**/*.s)
#   and every tests/analyze/cases and tests/analyze/idioms file, both targets;
#   gcnsim's stdout/stderr and dumps on every bundled manifest at its default size, both targets.
# usage: tools/golden.sh OUTDIR         (run from a configured build tree; needs clang-22)
#        tools/golden.sh OUTDIR REFDIR  (capture, then diff -r REFDIR OUTDIR; exit 1 on change)
# Outputs are not committed (they are large); capture on main, compare on the branch.
set -u
out=$1
ref=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
bld=$(pwd)
dis=$bld/gcndis lint=$bld/gcnlint sim=$bld/gcnsim
for p in "$dis" "$lint" "$sim"; do [ -x "$p" ] || { echo "golden: $p not built" >&2; exit 2; }; done
rm -rf "$out"; mkdir -p "$out/dis" "$out/lint" "$out/sim"
out=$(cd "$out" && pwd)
kb=$out/.build
"$top/tests/kernels/build_kernels.sh" "$kb" >/dev/null || { echo "golden: kernel build failed" >&2; exit 2; }
# gcndis on the built kernels and the committed code objects
for co in $(find "$kb" -name '*.hsaco' | sort) $(find "$top/tests" -name '*.hsaco' -o -name '*.co' | sort); do
  n=$(echo "$co" | sed "s|^$kb/||; s|^$top/||; s|/|_|g")
  "$dis" --llvm-text "$co" > "$out/dis/$n.txt" 2>&1; echo "rc=$?" >> "$out/dis/$n.txt"
done
# gcnlint on the sources (run in the file's directory: includes are relative)
for s in $(cd "$top" && find kernels tests/analyze/cases tests/analyze/idioms -name '*.s' | sort); do
  n=$(echo "$s" | sed 's|/|_|g')
  for mcpu in gfx942 gfx950; do
    for mode in text json sarif suggest explain; do
      case $mode in
        text) a=;; json) a=--format=json;; sarif) a=--format=sarif;;
        suggest) a=--suggest;; explain) a=--explain;;
      esac
      (cd "$top/$(dirname "$s")" && "$lint" --mcpu=$mcpu $a "$(basename "$s")") \
        > "$out/lint/$n.$mcpu.$mode" 2>&1
      echo "rc=$?" >> "$out/lint/$n.$mcpu.$mode"
    done
  done
done
# gcnsim on the built manifests, default sizes
for m in $(find "$kb" -name '*.json' | sort); do
  t=$(echo "$m" | sed "s|^$kb/||" | cut -d/ -f1)
  n=$(echo "$m" | sed "s|^$kb/||; s|/|_|g")
  d=$out/sim/$n.dump
  "$sim" --manifest "$m" --mcpu "$t" --dump-dir "$d" --dump-inputs > "$out/sim/$n.txt" 2>&1
  echo "rc=$?" >> "$out/sim/$n.txt"
done
# paths of the build tree are in some outputs; normalise them
grep -rl "$kb" "$out/dis" "$out/lint" "$out/sim" 2>/dev/null | xargs -r sed -i "s|$kb|BUILD|g"
# ... and the timings of gcnsim's summary line
sed -i -E 's/[0-9]+\.[0-9]+ s([ )])/T s\1/g' "$out"/sim/*.txt
rm -rf "$kb"
echo "golden: $(find "$out" -type f | wc -l) files in $out"
[ -z "$ref" ] && exit 0
diff -r "$ref" "$out" > "$out.diff" && { echo "golden: identical to $ref"; exit 0; }
echo "golden: DIFFERENT from $ref (see $out.diff)"; head -50 "$out.diff"; exit 1
