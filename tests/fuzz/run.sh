#!/usr/bin/env bash
# run.sh -- build tests/fuzz/fuzz_codeobj.c with clang-22's libFuzzer, ASan and
# UBSan (tests/fuzz/build.sh: the library compiled in, instrumented) and run it
# for a bounded time over the committed seed corpus tests/fuzz/corpus/.
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

# the target comes from tests/fuzz/build.sh (the whole library instrumented, with
# float-cast-overflow too), shared with the other targets and make check's replay
san=$top_builddir/tests/fuzz/san
mkdir -p "$san"
set +e
top_srcdir=$top_srcdir top_builddir=$top_builddir CLANG22=$CLANG22 \
    "$top_srcdir/tests/fuzz/build.sh" "$san" > "$san-run.log" 2>&1
rc=$?
set -e
[ $rc = 77 ] && { cat "$san-run.log"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: building the fuzz targets:"; tail -30 "$san-run.log"; exit 1; }
bin=$san/fuzz_codeobj

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
