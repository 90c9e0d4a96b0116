#!/bin/sh
# no_cunit.sh -- stands in `make check` for the CUnit unit tests when configure found no
# CUnit (or was given --without-cunit): they are not built; this says so and skips (77).
echo "SKIP: the unit tests written with CUnit (tests/*/test_*.c: test_isa_table, test_valu," \
    "test_codeobj, test_manifest, ...) are not built: configure found no CUnit or was given" \
    "--without-cunit; apt-get install libcunit1-dev, then rerun configure"
exit 77
