#!/usr/bin/env bash
# fuzz_all.sh -- run the fuzz targets of a folder made by tests/fuzz/build.sh, on this host or
# on another one the folder was copied to, and print per target: executions, executions per
# second (all processes, and per process), coverage (cov, ft), corpus size, and
# crashes/leaks/timeouts/OOMs found.
#   ./fuzz_all.sh [-j JOBS] [-t SECONDS] [-o WORKDIR] [TARGET...]
#     -j   parallel fuzzing processes per target, default: the CPU count
#     -t   seconds per target, default 600
#     -o   work folder (corpora grow there, artifacts land there), default ./work
#     TARGET: codeobj rawdis textpar manifest kernarg lint sim (default all)
# Targets run one after the other, each with JOBS processes (libFuzzer -jobs=JOBS -workers=JOBS)
# that fuzz for the whole time and share one corpus folder, each taking up the others' new
# inputs every second.  (libFuzzer's -fork mode starts short jobs one after another and merges
# each one's corpus in a single process between them; for the slower targets the starts and the
# merges took much of the time.)  A process that finds a crash, leak, timeout or OOM stops and
# leaves the input; the others go on.  The seeds in corpus/TARGET are read, never written.
# Exit 1 when any target found something: the inputs are WORKDIR/TARGET/crash-*, leak-*,
# timeout-*, oom-*, replayable with ./fuzz_TARGET FILE.  Each process's log is
# WORKDIR/TARGET/fuzz-N.log; cov and ft are the largest any process reached.
# The summary is also written to WORKDIR/summary.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# the libraries build.sh copied (their own dependencies too) before the host's
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
jobs=$(nproc 2>/dev/null || echo 1)
secs=600
work=./work
while getopts "j:t:o:" c; do
    case $c in
        j) jobs=$OPTARG ;;
        t) secs=$OPTARG ;;
        o) work=$OPTARG ;;
        *) sed -n '2,21p' "$0"; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
targets=${*:-codeobj rawdis textpar manifest kernarg lint sim}
mkdir -p "$work"
work=$(cd "$work" && pwd)
summary=$work/summary.txt
printf '%-8s %14s %9s %9s %7s %8s %7s %s\n' target executions exec/s per-proc cov ft corpus \
    "crash/leak/timeout/oom" | tee "$summary"
bad=0
for t in $targets; do
    bin=$here/fuzz_$t
    [ -x "$bin" ] || { echo "no $bin"; bad=1; continue; }
    d=$work/$t
    mkdir -p "$d/corpus"
    rm -f "$d"/fuzz-*.log
    # per target: input size limits that suit it
    case $t in
        codeobj) extra="-max_len=65536" ;;
        # the threaded printer: chunks down to 4 bytes, at most 36 of them, cut inside
        # instructions already in 2 KiB; longer streams only add decoding (fuzz_rawdis's):
        # 1.4x the executions per CPU second, the same coverage (docs/reliability.md)
        textpar) extra="-max_len=2048" ;;
        *) extra="-max_len=4096" ;;
    esac
    # the processes' logs (fuzz-N.log) land in the current folder
    (cd "$d" && ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0} \
        "$bin" -jobs="$jobs" -workers="$jobs" -max_total_time="$secs" -print_final_stats=1 \
        -timeout=10 -rss_limit_mb=2048 $extra -artifact_prefix="$d/" "$d/corpus" "$here/corpus/$t" \
        > "$d/fuzz.log" 2>&1)
    # each log ends with "stat::number_of_executed_units: N"; its last status line has
    # "cov: C ft: F"
    execs=0 cov=0 ft=0 n=0
    for l in "$d"/fuzz-*.log; do
        [ -f "$l" ] || continue
        n=$((n + 1))
        e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$l" | tail -1)
        last=$(grep -E '^#[0-9]+.* cov: ' "$l" | tail -1)
        if [ -z "$e" ]; then    # stopped by a finding: its last status line
            e=$(echo "$last" | sed -E 's/^#([0-9]+).*/\1/')
        fi
        c=$(echo "$last" | sed -E 's/.* cov: ([0-9]+).*/\1/')
        f=$(echo "$last" | sed -E 's/.* ft: ([0-9]+).*/\1/')
        execs=$((execs + ${e:-0}))
        [ "${c:-0}" -gt $cov ] 2>/dev/null && cov=$c
        [ "${f:-0}" -gt $ft ] 2>/dev/null && ft=$f
    done
    eps=$((execs / (secs > 0 ? secs : 1)))
    per=$((eps / (n > 0 ? n : 1)))
    corp=$(ls "$d/corpus" | wc -l)
    found=$(ls "$d" | grep -cE '^(crash|leak|timeout|oom)-')
    kinds=$(for k in crash leak timeout oom; do ls "$d" | grep -c "^$k-"; done | paste -sd/)
    printf '%-8s %14s %9s %9s %7s %8s %7s %s\n' "$t" "$execs" "$eps" "$per" "$cov" "$ft" \
        "$corp" "$kinds" | tee -a "$summary"
    [ "$n" = "$jobs" ] || { echo "$t: $n of $jobs process logs"; bad=1; }
    [ "$found" = 0 ] || bad=1
done
exit $bad
