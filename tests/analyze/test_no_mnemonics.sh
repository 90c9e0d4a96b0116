#!/bin/sh
# test_no_mnemonics.sh -- src/analyze and src/sim read instruction facts only from the
# generated ISA tables (src/decode/isa/*.def: facts.def, mfma.def): no mnemonic literal, no
# string test of a mnemonic (test_no_mnemonics.py says exactly what fails).  Issue 14.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
py=${PYTHON3:-python3}
"$py" "$srcdir/tests/analyze/test_no_mnemonics.py" "$srcdir" --selftest
exec "$py" "$srcdir/tests/analyze/test_no_mnemonics.py" "$srcdir" src/analyze src/sim
