#!/usr/bin/env bash
# run.sh -- build tests/fuzz/fuzz_codeobj.c with clang-22's libFuzzer, ASan and
# UBSan (all of src/decode compiled in, instrumented) and run it for a bounded
# time over the committed seed corpus tests/fuzz/corpus/.
#   tests/fuzz/run.sh [SECONDS]        default 60
# New inputs go to a scratch corpus under the build tree, never into the
# committed one; a crash leaves its input as crash-* there and fails (exit 1).
# Exit 77 when clang-22 has no libFuzzer (the reason is printed).
set -eu
secs=${1:-60}
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
CLANG22=${CLANG22:-clang-22}
work=$top_builddir/tests/fuzz/work
mkdir -p "$work/corpus"
bin=$work/fuzz_codeobj

command -v "$CLANG22" >/dev/null 2>&1 || { echo "SKIP: $CLANG22 not found"; exit 77; }
probe=$work/probe.c
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' > "$probe"
if ! "$CLANG22" -fsanitize=fuzzer,address,undefined "$probe" -o "$work/probe" 2> "$work/probe.err"; then
    echo "SKIP: $CLANG22 cannot link -fsanitize=fuzzer,address,undefined (no libFuzzer runtime?):"
    sed 's/^/    /' "$work/probe.err" | head -5
    exit 77
fi
pkgs="libelf libdw msgpack"
flags=$(pkg-config --cflags --libs $pkgs) || { echo "SKIP: pkg-config cannot find $pkgs"; exit 77; }

# Rebuild when any source is newer than the binary.
newest=$(ls -t "$top_srcdir"/src/decode/*.c "$top_srcdir"/src/decode/*.h "$top_srcdir"/src/decode/isa/*.def \
         "$top_srcdir/tests/fuzz/fuzz_codeobj.c" | head -1)
if [ ! -x "$bin" ] || [ "$newest" -nt "$bin" ]; then
    echo "building $bin"
    # shellcheck disable=SC2086
    "$CLANG22" -std=c17 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
        -fno-sanitize-recover=undefined -I"$top_srcdir/src" -I"$top_srcdir/src/decode" \
        -I"$top_builddir" "$top_srcdir"/src/decode/*.c "$top_srcdir/tests/fuzz/fuzz_codeobj.c" \
        $flags -lpthread -lm -o "$bin.tmp"
    mv "$bin.tmp" "$bin"
fi

echo "fuzzing for $secs s (seeds: $top_srcdir/tests/fuzz/corpus)"
set +e
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0} \
"$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" "$top_srcdir/tests/fuzz/corpus" \
    > "$work/fuzz.log" 2>&1
rc=$?
set -e
grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::new_units_added)" "$work/fuzz.log" || true
if [ $rc != 0 ]; then
    echo "FAIL: fuzz_codeobj exit $rc; input saved as:"
    ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | sed 's/^/    /'
    grep -A30 "ERROR:\|runtime error" "$work/fuzz.log" | head -60
    exit 1
fi
echo "PASS: no crash in $secs s"
