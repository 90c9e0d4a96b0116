#!/bin/sh
# test_mfma_mmasim.sh -- gfx942 MFMAs against microsoft/MMA-Sim (tests/sim/test_mfma_mmasim.py);
# skipped (77) unless MMA-Sim (MMASIM_DIR) and python3-torch are present.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
exec "${PYTHON3:-python3}" "$srcdir/tests/sim/test_mfma_mmasim.py" "$builddir/tests/sim/test_mfma_num_driver"
