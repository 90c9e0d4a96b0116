#!/bin/sh
# test_lint_mutation.sh -- gcnlint vs gcnsim on mutants (tests/analyze/test_lint_mutation.py):
# (a) every single s_waitcnt deletion / weakening of the clean hand-written kernels, (b) the
# HIP kernels compiled with LLVM's SIInsertWaitcnts skipped.  Every mutant gcnsim flags must be
# flagged by gcnlint.  Targets: $LINT_MUTATION_TARGETS (default gfx942; gfx942,gfx950 for both).
# Skipped (77) without gcnlint, gcnsim, clang-22 or llc-22.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnlint=${GCNLINT:-$builddir/gcnlint}
gcnsim=${GCNSIM:-$builddir/gcnsim}
[ -x "$gcnlint" ] && [ -x "$gcnsim" ] || { echo "gcnlint/gcnsim not built: skipped"; exit 77; }
for t in "${CLANG22:-clang-22}" "${LLC22:-llc-22}" "${LLD22:-ld.lld-22}"; do
  command -v "$t" >/dev/null 2>&1 || { echo "$t not found: skipped"; exit 77; }
done
exec "${PYTHON3:-python3}" "$srcdir/tests/analyze/test_lint_mutation.py" --gcnlint "$gcnlint" \
  --gcnsim "$gcnsim" --kernels "$srcdir/kernels" --targets "${LINT_MUTATION_TARGETS:-gfx942}"
