#!/usr/bin/env bash
# test_fuzz_codeobj.sh -- make check's short fuzzing run (20 s) of the
# code-object reader, decoder and printers; see run.sh.
exec "$(dirname "$0")/run.sh" "${FUZZ_SECONDS:-20}"
