#!/usr/bin/env bash
# run.sh -- build the libFuzzer targets of the reader, decoder and printers with clang-22's
# libFuzzer, ASan and UBSan (tests/fuzz/build.sh: the library compiled in, instrumented) and
# run them for a bounded time, one after the other, each from its committed seeds:
# fuzz_codeobj (code objects and bundles; tests/fuzz/corpus/), fuzz_rawdis (raw instruction
# streams; corpus_rawdis/) and fuzz_textpar (the threaded printer against one thread's text;
# corpus_textpar/).
#   tests/fuzz/run.sh [SECONDS] [TARGET...]   SECONDS in all (default 60), shared equally
#                                             (at least 5 each); TARGET default the three
# New inputs go to a scratch corpus under the build tree, never into the
# committed ones; a crash leaves its input as crash-* there and fails (exit 1).
# Exit 77 when clang-22 has no libFuzzer (the reason is printed).
set -eu
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-codeobj rawdis textpar}
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
CLANG22=${CLANG22:-clang-22}
work=$top_builddir/tests/fuzz/work

# the targets come from tests/fuzz/build.sh (the whole library instrumented, with
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

n=0
for t in $targets; do n=$((n + 1)); done
each=$((secs / n))
[ $each -ge 5 ] || each=5
fails=0
for t in $targets; do
    bin=$san/fuzz_$t
    seeds=$top_srcdir/tests/fuzz/corpus_$t
    [ $t = codeobj ] && seeds=$top_srcdir/tests/fuzz/corpus
    # fuzz_all.sh's input size limits
    case $t in
        codeobj) maxlen=65536 ;;
        textpar) maxlen=2048 ;;
        *) maxlen=4096 ;;
    esac
    d=$work/$t
    mkdir -p "$d/corpus"
    echo "fuzz_$t for $each s (seeds: $seeds)"
    set +e
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0} \
    "$bin" -max_total_time="$each" -max_len=$maxlen -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$d/" "$d/corpus" "$seeds" > "$d/fuzz.log" 2>&1
    rc=$?
    set -e
    grep -E "^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::new_units_added)" "$d/fuzz.log" |
        sed 's/^/    /' || true
    if [ $rc != 0 ]; then
        echo "FAIL: fuzz_$t exit $rc; input saved as:"
        ls "$d"/crash-* "$d"/leak-* "$d"/timeout-* "$d"/oom-* 2>/dev/null | sed 's/^/    /'
        grep -A30 "ERROR:\|runtime error" "$d/fuzz.log" | head -60
        fails=$((fails + 1))
    fi
done
[ $fails = 0 ] || exit 1
echo "PASS: no crash in $each s of each of: $targets"
