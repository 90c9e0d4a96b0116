#!/bin/sh
# test_mfma_num.sh -- matrix-core numerics (src/sim/mfma_num.c) against the independent
# Python model tests/sim/mfma_model.py (see tests/sim/test_mfma_num.py).
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
exec "${PYTHON3:-python3}" "$srcdir/tests/sim/test_mfma_num.py" "$builddir/tests/sim/test_mfma_num_driver"
