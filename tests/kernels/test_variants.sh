#!/bin/sh
# test_variants.sh -- checks the static facts behind the kernels' expected reports: the
# generated variants (kernels/*/variants.py) are up to date with their base kernels, the
# vmcnt FIFO model agrees with kernels/vector_add/README.md, and every kernel named in a
# kernels/**/expect.json assembles (compiles) for gfx942 and gfx950 with every pc/text there
# equal to what llvm-objdump-22 shows.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
py=${PYTHON3:-python3}
"$py" "$srcdir/kernels/common/make_variants.py" --check $(dirname $(ls "$srcdir"/kernels/*/variants.py))
"$py" "$srcdir/tests/kernels/vmcnt_model.py" --check
"$py" "$srcdir/tests/kernels/check_expect.py" --clang "${CLANG22:-clang-22}" \
    --objdump "${LLVM_OBJDUMP:-llvm-objdump-22}" $(find "$srcdir/kernels" -name expect.json | sort)
