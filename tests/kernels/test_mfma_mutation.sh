#!/bin/sh
# test_mfma_mutation.sh -- gcnsim's hazard checks against LLVM's own hazard recognizer: the
# HIP MFMA kernels (kernels/hip/mfma) compiled by clang-22/llc-22 normally must run clean,
# and compiled with the post-RA-hazard-rec pass skipped, every removed s_nop whose consumer
# runs must be reported as a hazard at that consumer (tests/kernels/test_mfma_mutation.py
# has the details).  Skipped (77) while gcnsim has no hazard checks, after checking that the
# mutants do lose s_nops.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
exec "${PYTHON3:-python3}" "$srcdir/tests/kernels/test_mfma_mutation.py" \
    --gcnsim "${GCNSIM:-$builddir/gcnsim}" --refs "$builddir/kernels" --kernels "$srcdir/kernels"
