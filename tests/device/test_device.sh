#!/bin/sh
# test_device.sh -- the on-device cross-check (docs/gcnrun.md): every bundled kernel manifest
# whose targets include the GPU present, every test size, run by gcnrun on the GPU and by
# gcnsim, dumps compared bit for bit (tests/device/crosscheck.py, tests/device/devcmp).
# Report: $top_builddir/tests/device/report.txt and report.json.
# Exits 77 (SKIP, with the reason) when gcnrun is not built (no HIP runtime) or there is no
# gfx942/gfx950 GPU: without a device it never passes.  `make check` runs it; `make
# check-device` runs it verbosely.  GCNRUN_DEVICE=N picks a HIP device ordinal.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnrun=${GCNRUN:-$builddir/gcnrun}
backend=${GCNRUN_BACKEND:-hip}
workdir=${GCNRUN_WORK:-$builddir/tests/device/work}
reportdir=${GCNRUN_REPORT_DIR:-$builddir/tests/device}
if [ ! -x "$gcnrun" ]; then
    echo "SKIP: gcnrun is not built: configure found no HIP runtime (install hipcc" \
         "libamdhip64-dev, or ROCm under /opt/rocm, and rerun configure; docs/gcnrun.md)"
    exit 77
fi
for p in gcnsim tests/device/devcmp; do
    [ -x "$builddir/$p" ] || { echo "FAIL: $builddir/$p is not built (make check builds it)"; exit 1; }
done
set -- --gcnrun "$gcnrun" --gcnsim "$builddir/gcnsim" --devcmp "$builddir/tests/device/devcmp" \
    --work "$workdir" --report-dir "$reportdir" --backend "$backend" \
    --kernels "$srcdir/kernels" --refs "$builddir/kernels" \
    --tolerance "$srcdir/tests/device/tolerance.json"
[ -n "${GCNRUN_DEVICE:-}" ] && set -- "$@" --device "$GCNRUN_DEVICE"
[ -n "${GCNRUN_ONLY:-}" ] && set -- "$@" --only "$GCNRUN_ONLY"
[ -n "${GCNRUN_ALLOW_SIM_FAULTS:-}" ] && set -- "$@" --allow-sim-faults
exec "${PYTHON3:-python3}" "$srcdir/tests/device/crosscheck.py" "$@"
