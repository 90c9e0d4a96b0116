#!/bin/sh
# test_fuzz_replay.sh -- make check's replay of the committed regression corpora: every input of
# tests/fuzz/corpus_{rawdis,textpar,manifest,kernarg,lint,sim} (and tests/fuzz/corpus for fuzz_codeobj) runs once
# through its target built by tests/fuzz/build.sh with clang-22 -fsanitize=fuzzer,address,
# undefined,float-cast-overflow; any crash, sanitizer report, leak or failed oracle check fails
# the test.  Exit 77 when clang-22 cannot build the targets.  Longer runs: tests/fuzz/fuzz_all.sh.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
san=$builddir/tests/fuzz/san
mkdir -p "$san"
top_srcdir=$srcdir top_builddir=$builddir "$srcdir/tests/fuzz/build.sh" "$san" > "$san-replay.log" 2>&1
rc=$?
[ $rc = 77 ] && { cat "$san-replay.log"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: building the targets:"; tail -30 "$san-replay.log"; exit 1; }
fails=0
for t in codeobj rawdis textpar manifest kernarg lint sim; do
    corpus=$srcdir/tests/fuzz/corpus_$t
    [ $t = codeobj ] && corpus=$srcdir/tests/fuzz/corpus
    n=$(ls "$corpus" | wc -l)
    [ "$n" -gt 0 ] || { echo "FAIL: $corpus is empty"; fails=$((fails + 1)); continue; }
    log=$san/replay_$t.log
    if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
       "$san/fuzz_$t" -runs=0 -timeout=30 -rss_limit_mb=2048 "$corpus" > "$log" 2>&1; then
        echo "ok   fuzz_$t: $n inputs replayed"
    else
        echo "FAIL: fuzz_$t on $corpus:"
        grep -B2 -A25 "ERROR\|runtime error\|check failed\|expression \"" "$log" | head -40
        fails=$((fails + 1))
    fi
done
[ $fails = 0 ]
