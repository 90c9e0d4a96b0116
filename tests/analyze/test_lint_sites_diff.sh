#!/bin/sh
# test_lint_sites_diff.sh -- bench/lint_sites_diff.sh (two gcnlint builds compared on a list
# of code objects, sites as sets) on objects of our own: tail_chain.s (clean only with path
# facts) and tail_chain_broken.s, assembled in a temporary directory.  The "new build" is
# gcnlint --all-paths (through a wrapper), so the correct kernel gains exactly one
# lds-cross-wave-race site and the broken one keeps its site; the same build on both sides
# gives no difference.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
CLANG22=${CLANG22:-clang-22}
command -v "$CLANG22" >/dev/null 2>&1 || { echo "SKIP: $CLANG22 not found"; exit 77; }
tmp=$(mktemp -d /tmp/test_lint_sites_diff.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp "$srcdir/tests/analyze/cases/kernel_tail_args.inc" "$tmp/"
for c in tail_chain tail_chain_broken; do
  "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 -I "$tmp" \
    "$srcdir/tests/analyze/cases/$c.s" -o "$tmp/$c.co" || { echo "FAIL: assembling $c.s"; exit 1; }
  echo "$tmp/$c.co" >> "$tmp/list.txt"
done
lint=$(cd "$builddir" && pwd)/gcnlint
printf '#!/bin/sh\nexec "%s" --all-paths "$@"\n' "$lint" > "$tmp/allpaths"
chmod +x "$tmp/allpaths"
fail=0
LINT_DIFF_DIR=$tmp/d1 BENCH_JOBS=2 "$srcdir/bench/lint_sites_diff.sh" "$lint" "$tmp/allpaths" \
  "$tmp/list.txt" > "$tmp/out.txt" 2>&1 || { echo "FAIL: lint_sites_diff.sh exited $?"; fail=1; }
grep -qE '^lds-cross-wave-race +1 +2 +0 +1 +0$' "$tmp/out.txt" &&
  grep -qE '^NEW  tail_chain\.co k lds-cross-wave-race 0x[0-9a-f]+ \(producer 0x[0-9a-f]+\)$' "$tmp/out.txt" &&
  ! grep -q '^GONE' "$tmp/out.txt" ||
  { echo "FAIL: lint_sites_diff.sh, --all-paths as the new build:"; cat "$tmp/out.txt"; fail=1; }
LINT_DIFF_DIR=$tmp/d2 BENCH_JOBS=2 "$srcdir/bench/lint_sites_diff.sh" "$lint" "$lint" \
  "$tmp/list.txt" > "$tmp/out.txt" 2>&1 || { echo "FAIL: lint_sites_diff.sh exited $?"; fail=1; }
grep -qE '^all +1 +1 +0 +0$' "$tmp/out.txt" && ! grep -qE '^(NEW|GONE)' "$tmp/out.txt" ||
  { echo "FAIL: lint_sites_diff.sh, one build on both sides:"; cat "$tmp/out.txt"; fail=1; }
[ $fail = 0 ] && echo "ok   bench/lint_sites_diff.sh: a new site found, none where the builds agree"
exit $fail
