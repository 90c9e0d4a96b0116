#!/bin/sh
# test_nsvalu.sh -- the conversion bodies of ops_cvt_mx.c / ops_gfx950.c / ops_cvt.c and
# v_trig_preop_f64 against the independent reference of tests/sim/test_nsvalu.py.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
exec "${PYTHON3:-python3}" "$srcdir/tests/sim/test_nsvalu.py" "$builddir/tests/sim/nsvalu_driver"
