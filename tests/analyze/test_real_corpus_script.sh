#!/bin/sh
# test_real_corpus_script.sh -- bench/real_corpus.sh (issue 13's corpus figures) on a corpus
# of our own: two case files assembled into code objects in a temporary directory (a path
# with dots in it, as mktemp makes).  Every object must be checked and its findings counted
# (a filter on the batch file names once dropped them all: "0 checked"), and a directory
# without code objects is refused with exit 77 only when GCN_CORPUS is unset.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
CLANG22=${CLANG22:-clang-22}
command -v "$CLANG22" >/dev/null 2>&1 || { echo "SKIP: $CLANG22 not found"; exit 77; }
tmp=$(mktemp -d /tmp/test_real_corpus.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/co"
cp "$srcdir/tests/analyze/cases/kernel_tail.inc" "$tmp/"
for c in lds_dma xwave; do
  "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 -I "$tmp" \
    "$srcdir/tests/analyze/cases/$c.s" -o "$tmp/co/$c.co" || { echo "FAIL: assembling $c.s"; exit 1; }
done
fail=0
GCN_CORPUS=$tmp/co GCNLINT=$builddir/gcnlint "$srcdir/bench/real_corpus.sh" > "$tmp/out.txt" 2>&1 ||
  { echo "FAIL: real_corpus.sh exited $?"; fail=1; }
grep -q '^objects: 2 checked, 0 clean, 2 with errors or warnings$' "$tmp/out.txt" &&
  grep -qE '^lds-dma-pending +error +2 +0 +2 +2$' "$tmp/out.txt" &&
  grep -qE '^lds-cross-wave-race +error +2 +0 +2 +2$' "$tmp/out.txt" &&
  grep -qE '^time: gcnlint [0-9.]+ s, llvm-objdump-22 -d [0-9.]+ s on the same 2 files' "$tmp/out.txt" ||
  { echo "FAIL: real_corpus.sh output:"; cat "$tmp/out.txt"; fail=1; }
env -u GCN_CORPUS "$srcdir/bench/real_corpus.sh" > "$tmp/skip.txt" 2>&1
[ $? = 77 ] && grep -q "SKIP: set GCN_CORPUS" "$tmp/skip.txt" || { echo "FAIL: no GCN_CORPUS"; fail=1; }
[ $fail = 0 ] && echo "ok   bench/real_corpus.sh: 2 objects checked, findings by kind, the time line"
exit $fail
