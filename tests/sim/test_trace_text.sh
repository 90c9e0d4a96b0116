#!/bin/sh
# test_trace_text.sh -- gcnsim --trace=fifo prints no trailing blanks: an instruction line
# is padded for its "; file:line" only when the code has a line table.  Runs the bundled
# vector add assembled with -g (lines) and without (no lines).
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
clang=${CLANG22:-clang-22}
command -v "$clang" >/dev/null 2>&1 || { echo "SKIP: clang-22 not found"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
"$clang" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 -o "$T/nolines.hsaco" \
    "$srcdir/kernels/vector_add/vector_add.s" || { echo "FAIL: assembling"; exit 1; }
sed 's/"vector_add.s"/"nolines.hsaco"/' "$srcdir/kernels/vector_add/vector_add.json" > "$T/nolines.json"
grep -q nolines.hsaco "$T/nolines.json" || { echo "FAIL: the manifest names no vector_add.s code"; exit 1; }
for m in "$srcdir/kernels/vector_add/vector_add.json" "$T/nolines.json"; do
    "$builddir/gcnsim" -q --manifest "$m" --mcpu gfx942 --trace=fifo > "$T/trace" 2>&1 ||
        { head "$T/trace"; echo "FAIL: gcnsim --trace=fifo on $m"; fail=1; continue; }
    n=$(grep -c '^#' "$T/trace")
    with=$(grep '^#' "$T/trace" | grep -c '  ; ')
    trailing=$(grep -c '[[:blank:]]$' "$T/trace")
    echo "$(basename "$m"): $n instruction lines, $with with a source line, $trailing with trailing blanks"
    [ "$n" -gt 10 ] || { echo "FAIL: too few trace lines"; fail=1; }
    [ "$trailing" = 0 ] || { grep -n '[[:blank:]]$' "$T/trace" | head -3 | cat -A; echo "FAIL: trailing blanks"; fail=1; }
    case $m in
    */nolines.json) [ "$with" = 0 ] || { echo "FAIL: source lines without a line table?"; fail=1; } ;;
    *) [ "$with" = "$n" ] || { echo "FAIL: lines without their source line"; fail=1; } ;;
    esac
done
exit $fail
