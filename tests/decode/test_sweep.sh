#!/usr/bin/env bash
# test_sweep.sh -- the decoder acceptance sweep against LLVM 22, both targets:
# every family, every opcode value, 300 random operand variants each; at
# least 200,000 valid encodings per target, >= 99.9% identical text, and
# every word LLVM calls invalid is invalid for us.  Mismatches are written to
# sweep-<target>.txt in the build directory (docs/decoder-differences.md
# explains the remaining ones).
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
py=${PYTHON3:-python3}
rc=0
for t in gfx942 gfx950; do
    "$py" "$s/tests/decode/sweep.py" --gcndis "$b/gcndis" --oracle "$b/tests/decode/llvm_oracle" \
        --mcpu "$t" --per-op 300 --show 5 --min-valid 200000 --min-rate 0.999 \
        --report "$b/sweep-$t.txt" || rc=1
done
exit $rc
