#!/bin/sh
# test_advice.sh -- gcnsim's proposed waits checked by re-running them (tests/sim/test_advice.py):
# every single s_waitcnt deletion / weakening of the clean hand-written kernels and of the HIP
# kernels compiled by clang-22; each proposal must remove its finding, and a wait one step
# weaker must not.  Targets: $ADVICE_TARGETS (default gfx942).  Skipped (77) without gcnsim,
# clang-22 or llvm-mc-22.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
for t in "${CLANG22:-clang-22}" "${LLVM_MC:-llvm-mc-22}"; do
  command -v "$t" >/dev/null 2>&1 || { echo "$t not found: skipped"; exit 77; }
done
exec "${PYTHON3:-python3}" "$srcdir/tests/sim/test_advice.py" --gcnsim "$gcnsim" \
  --kernels "$srcdir/kernels" --targets "${ADVICE_TARGETS:-gfx942}"
