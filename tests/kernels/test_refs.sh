#!/bin/sh
# test_refs.sh -- self-test of the C references of kernels/ without a simulator: for every
# manifest and test size, inputs are generated, expected outputs computed by an independent
# Python model (tests/kernels/kernels.py), and each reference must accept them (exit 0),
# report a one-bit change at the right element (exit 1) and reject a missing input (exit 2).
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
exec "${PYTHON3:-python3}" "$srcdir/tests/kernels/kernels.py" selftest --kernels "$srcdir/kernels" \
    --refs "$builddir/kernels"
