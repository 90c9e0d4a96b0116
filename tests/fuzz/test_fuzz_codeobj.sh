#!/usr/bin/env bash
# test_fuzz_codeobj.sh -- make check's short fuzzing run (21 s in all) of the code-object
# reader (fuzz_codeobj), the decoder and printers on raw streams (fuzz_rawdis) and the
# threaded printer (fuzz_textpar), 7 s each; see run.sh.
exec "$(dirname "$0")/run.sh" "${FUZZ_SECONDS:-21}"
