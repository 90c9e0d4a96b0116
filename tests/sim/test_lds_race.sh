#!/bin/sh
# test_lds_race.sh -- gcnsim's cross-wave LDS race check through every pair of writer and
# reader paths, both orders, and the scenarios of the per-block tag summaries (overflowing
# deferred reader tags, later epochs, the 16-bit epoch wrap, many LDS-DMAs):
# tests/sim/test_lds_race.py; and the reads against pending LDS writers through the per-block
# counts of the pending ranges, and stale clean-block summaries: tests/sim/test_lds_pend.py.  Skipped (77) without gcnsim or
# clang-22.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
command -v "${CLANG22:-clang-22}" >/dev/null 2>&1 || { echo "clang-22 not found: skipped"; exit 77; }
T=$(mktemp -d /tmp/gcnsim-ldsrace-XXXXXX)
trap 'rm -rf "$T"' EXIT
"${PYTHON3:-python3}" "$srcdir/tests/sim/test_lds_race.py" "$gcnsim" "$T" || exit 1
"${PYTHON3:-python3}" "$srcdir/tests/sim/test_lds_pend.py" "$gcnsim" "$T"
