#!/usr/bin/env bash
# fuzz_all.sh -- run the fuzz targets of a folder made by tests/fuzz/build.sh, on this host or
# on another one the folder was copied to, and print per target: executions, executions per
# second, coverage (cov, ft), corpus size, and crashes/leaks/timeouts/OOMs found.
#   ./fuzz_all.sh [-j JOBS] [-t SECONDS] [-o WORKDIR] [TARGET...]
#     -j   parallel fuzzing processes per target (libFuzzer -fork), default: the CPU count
#     -t   seconds per target, default 600
#     -o   work folder (corpora grow there, artifacts land there), default ./work
#     TARGET: codeobj manifest kernarg lint sim (default all)
# Targets run one after the other, each with all JOBS processes.  The seeds in corpus/TARGET are
# read, never written.  Exit 1 when any target found a crash, leak, timeout or OOM: the inputs
# are WORKDIR/TARGET/crash-*, leak-*, timeout-*, oom-*, replayable with ./fuzz_TARGET FILE.
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
        *) sed -n '2,13p' "$0"; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
targets=${*:-codeobj manifest kernarg lint sim}
mkdir -p "$work"
work=$(cd "$work" && pwd)
summary=$work/summary.txt
printf '%-8s %14s %9s %7s %8s %7s %s\n' target executions exec/s cov ft corpus "crash/leak/timeout/oom" | tee "$summary"
bad=0
for t in $targets; do
    bin=$here/fuzz_$t
    [ -x "$bin" ] || { echo "no $bin"; bad=1; continue; }
    d=$work/$t
    mkdir -p "$d/corpus"
    # per target: input size and memory limits that suit it
    case $t in
        codeobj) extra="-max_len=65536" ;;
        lint) extra="-max_len=4096" ;;
        *) extra="-max_len=4096" ;;
    esac
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0} \
    "$bin" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 $extra \
        -artifact_prefix="$d/" "$d/corpus" "$here/corpus/$t" > "$d/fuzz.log" 2>&1
    # fork mode prints "#N: cov: C ft: F corp: K exec/s E oom/timeout/crash: O/T/X time: S..."
    last=$(grep -E '^#[0-9]+: cov:' "$d/fuzz.log" | tail -1)
    execs=$(echo "$last" | sed -E 's/^#([0-9]+):.*/\1/')
    cov=$(echo "$last" | sed -E 's/.* cov: ([0-9]+).*/\1/')
    ft=$(echo "$last" | sed -E 's/.* ft: ([0-9]+).*/\1/')
    corp=$(echo "$last" | sed -E 's/.* corp: ([0-9]+).*/\1/')
    eps=$(echo "$last" | sed -E 's/.* exec\/s:? ([0-9]+).*/\1/')
    found=$(ls "$d" | grep -cE '^(crash|leak|timeout|oom)-')
    kinds=$(for k in crash leak timeout oom; do ls "$d" | grep -c "^$k-"; done | paste -sd/)
    printf '%-8s %14s %9s %7s %8s %7s %s\n' "$t" "${execs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" \
        "${corp:-?}" "$kinds" | tee -a "$summary"
    [ "$found" = 0 ] || bad=1
done
exit $bad
