#!/bin/sh
# test_variants.sh -- checks the static facts behind the kernels' expected reports: the
# vector_add variants are up to date with vector_add.s, the vmcnt FIFO model agrees with
# kernels/vector_add/README.md, and every pc/text in kernels/*/expect.json is what
# llvm-objdump-22 shows in the assembled code (gfx942 and gfx950).
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
py=${PYTHON3:-python3}
"$py" "$srcdir/kernels/vector_add/make_variants.py" --check
"$py" "$srcdir/tests/kernels/vmcnt_model.py" --check
"$py" "$srcdir/tests/kernels/check_expect.py" --clang "${CLANG22:-clang-22}" \
    --objdump "${LLVM_OBJDUMP:-llvm-objdump-22}" "$srcdir"/kernels/*/expect.json
