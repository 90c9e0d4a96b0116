#!/bin/sh
# test_isa_fresh.sh -- the committed ISA tables are what their generators produce (issue 14).
#   * src/decode/isa/facts.def against tools/isagen/facts.py (always: it needs only python3);
#   * salu.def, valu.def, vop3p.def and mem.def against tools/isagen/{salu,valu,vop3p,mem}.py,
#     which ask LLVM 22 (tests/decode/llvm_oracle, llvm-mc-22, llvm-mca-22): skipped (77)
#     when those are missing.
# A stale table fails with the diff; `make isa` regenerates them all.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
py=${PYTHON3:-python3}
mc=${LLVM_MC:-llvm-mc-22}
oracle=$builddir/tests/decode/llvm_oracle
tmp=$(mktemp -d /tmp/test_isa_fresh.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$py" "$srcdir/tools/isagen/facts.py" --isa "$srcdir/src/decode/isa" --check || fail=1
if [ ! -x "$oracle" ] || ! command -v "$mc" >/dev/null 2>&1 || ! command -v llvm-mca-22 >/dev/null 2>&1; then
  [ $fail = 0 ] && { echo "facts.def fresh; LLVM 22 oracle/llvm-mc-22/llvm-mca-22 missing: family tables skipped"; exit 77; }
  exit 1
fi
cd "$srcdir" || exit 2
# two at a time (the generators are single-threaded)
"$py" tools/isagen/salu.py --oracle "$oracle" --llvm-mc "$mc" -o "$tmp/salu.def" > "$tmp/salu.log" 2>&1 &
p1=$!
"$py" tools/isagen/valu.py --oracle "$oracle" -o "$tmp/valu.def" > "$tmp/valu.log" 2>&1 &&
"$py" tools/isagen/vop3p.py --oracle "$oracle" -o "$tmp/vop3p.def" > "$tmp/vop3p.log" 2>&1 &&
"$py" tools/isagen/mem.py --oracle "$oracle" --out "$tmp/mem.def" > "$tmp/mem.log" 2>&1 || fail=1
wait $p1 || fail=1
for f in salu valu vop3p mem; do
  if [ ! -s "$tmp/$f.def" ]; then
    echo "FAIL: tools/isagen/$f.py did not run:"; cat "$tmp/$f.log"; fail=1
  elif ! cmp -s "$tmp/$f.def" "src/decode/isa/$f.def"; then
    echo "FAIL: src/decode/isa/$f.def is stale (run make isa):"
    diff "src/decode/isa/$f.def" "$tmp/$f.def" | head -20; fail=1
  else
    echo "ok   src/decode/isa/$f.def"
  fi
done
[ $fail = 0 ] && echo "ok   src/decode/isa/facts.def"
exit $fail
