#!/bin/sh
# test_idioms.sh -- the LDS addressing idioms of hand-written kernels
# (tests/analyze/idioms/*.s), each in a correct and a broken version:
#   correct: gcnlint proves it clean (exit 0), and gcnsim runs it with no
#            finding and an output equal to the reference (`// ref:` line:
#            reverse = each wave reads the slice of wave 3 - w; table = every
#            wave reads wave 0's 64 words; reverse2: twice the reverse one);
#   broken:  the lines marked //@drop removed (a barrier, or the wait before
#            it): gcnlint reports the check on the `// broken:` line, and
#            gcnsim reports a finding too (exit 4): the two tools agree.
# Both targets.  Needs clang-22 (through the tools) and python3.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
PYTHON3=${PYTHON3:-python3}
lint=$(cd "$top_builddir" && pwd)/gcnlint
sim=$(cd "$top_builddir" && pwd)/gcnsim
dir=$top_srcdir/tests/analyze/idioms
tmp=$(mktemp -d /tmp/test_idioms.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
command -v clang-22 >/dev/null 2>&1 || { echo "SKIP: clang-22 not found"; exit 77; }
fail=0
n=0
for s in "$dir"/*.s; do
  name=$(basename "$s" .s)
  ref=$(sed -n 's|^// ref: *||p' "$s")
  want=$(sed -n 's|^// broken: *||p' "$s")
  # the includes inlined (gcnsim assembles from its own directory)
  awk -v d="$dir" '/^\.include "/ { f = $2; gsub(/"/, "", f); while ((getline l < (d "/" f)) > 0) print l; close(d "/" f); next } { print }' \
    "$s" > "$tmp/$name.s"
  grep -v '//@drop' "$tmp/$name.s" > "$tmp/${name}_broken.s"
  for mcpu in gfx942 gfx950; do
    for v in "$name" "${name}_broken"; do
      n=$((n + 1))
      sed "s|IDIOM.s|$v.s|" "$dir/manifest.json" > "$tmp/$v.json"
      rm -rf "$tmp/out"
      (cd "$tmp" && "$lint" --mcpu=$mcpu --format=json "$v.s") > "$tmp/lint.json" 2>"$tmp/lint.err"
      lrc=$?
      "$sim" -q --mcpu $mcpu --manifest "$tmp/$v.json" --dump-dir "$tmp/out" --dump-inputs > "$tmp/sim.txt" 2>&1
      src=$?
      case $v in
        *_broken)
          if [ $lrc != 4 ] || ! grep -q "\"check\": *\"$want\"" "$tmp/lint.json"; then
            echo "FAIL: $v [$mcpu]: gcnlint exit $lrc, no $want"; cat "$tmp/lint.err"; fail=1
          elif [ $src != 4 ]; then
            echo "FAIL: $v [$mcpu]: gcnsim exit $src (expected a finding, as gcnlint reports)"
            head -5 "$tmp/sim.txt"; fail=1
          else
            echo "ok   $v [$mcpu]: both report it ($want; gcnsim: $(grep -m1 -oE ': (error|warning): ([^ ]+: )?[a-z-]+ at pc' "$tmp/sim.txt" | sed -E 's/.*: ([a-z-]+) at pc/\1/'))"
          fi ;;
        *)
          if [ $lrc != 0 ]; then
            echo "FAIL: $v [$mcpu]: gcnlint exit $lrc on correct code"; head -c 2000 "$tmp/lint.json"; fail=1
          elif [ $src != 0 ]; then
            echo "FAIL: $v [$mcpu]: gcnsim exit $src on correct code"; head -5 "$tmp/sim.txt"; fail=1
          elif ! "$PYTHON3" - "$tmp/out" "$ref" <<'PY'
import struct, sys
d, ref = sys.argv[1], sys.argv[2]
a = open(d + "/in.in.bin", "rb").read()
b = open(d + "/out.bin", "rb").read()
inp = struct.unpack("<%dI" % (len(a) // 4), a)
out = struct.unpack("<%dI" % (len(b) // 4), b)
for i, v in enumerate(out):
    g, t = divmod(i, 256)
    w, l = divmod(t, 64)
    src = (3 - w) * 64 + l if ref.startswith("reverse") else l
    want = inp[g * 256 + src] * (2 if ref == "reverse2" else 1) & 0xFFFFFFFF
    if v != want:
        sys.exit("out[%d] = %#x, reference %#x" % (i, v, want))
PY
          then
            echo "FAIL: $v [$mcpu]: output differs from the reference"; fail=1
          else
            echo "ok   $v [$mcpu]: lint clean, gcnsim clean, output = reference ($ref)"
          fi ;;
      esac
    done
  done
done
# the value analysis under valgrind (memcheck): an uninitialised entry state
# once made garbage guards that smashed a stack frame, now and then
if command -v valgrind >/dev/null 2>&1; then
  for v in exec_guard mask_c0; do
    (cd "$tmp" && valgrind -q --error-exitcode=9 "$lint" --mcpu=gfx942 "$v.s" >/dev/null 2>"$tmp/vg.txt")
    if [ $? = 9 ]; then echo "FAIL: valgrind reports errors in gcnlint on $v.s:"; head -20 "$tmp/vg.txt"; fail=1
    else n=$((n + 1)); echo "ok   $v: valgrind clean"; fi
  done
else
  echo "note: valgrind not found; the memcheck run is skipped"
fi
[ $fail = 0 ] && echo "$n checks passed"
exit $fail
