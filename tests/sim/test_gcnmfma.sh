#!/bin/sh
# test_gcnmfma.sh -- gcnmfma's layouts against the AMD Matrix Instruction Calculator data
# (gfx942) and for consistency on gfx942 and gfx950 (tests/sim/test_gcnmfma.py).
srcdir=${top_srcdir:-.}
bld=${top_builddir:-.}
py=${PYTHON3:-python3}
[ -x "$bld/gcnmfma" ] || { echo "SKIP: $bld/gcnmfma not built"; exit 77; }
command -v "$py" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
exec "$py" "$srcdir/tests/sim/test_gcnmfma.py" "$bld/gcnmfma" "$srcdir/tests/sim/mfma_layouts/gfx942.txt"
