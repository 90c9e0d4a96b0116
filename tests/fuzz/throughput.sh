#!/usr/bin/env bash
# throughput.sh -- executions per second of the fuzz targets of a folder made by
# tests/fuzz/build.sh (this script is copied there), one libFuzzer process per target, from
# the committed seeds (OUT/corpus/TARGET), on this host or on another Linux x86-64 host the
# folder was copied to (it needs bash, coreutils and glibc 2.34 or later; no clang, no
# libraries of ours: OUT/lib has them).
#   ./throughput.sh [-t SECONDS] [-p PARALLEL] [-o WORKDIR] [-r RUNS] [-s SEED] [TARGET...]
#     -t   seconds per process (libFuzzer -max_total_time), default 45
#     -p   how many targets run at once (each one process), default 1; on a host with many
#          more CPUs than that, the processes do not compete (a target's threads, where it
#          has any, take CPUs of their own too: fuzz_codeobj, fuzz_textpar use up to 3)
#     -r   with -r N, each process stops after N executions instead (libFuzzer -runs),
#          the time limit still applying; for the same work before and after a change
#     -s   libFuzzer -seed (default 1): the same mutations for the same code
#     -o   work folder (default ./work-throughput; emptied per target)
#     TARGET: the fuzz_TARGET programs of the folder (default: every one there); a folder
#          DIR beside this script with fuzz_* programs of its own (a build to compare, with
#          its own lib/ and corpus/, or sharing these) is named DIR/TARGET; TARGET:N runs it
#          with -max_len=N instead of fuzz_all.sh's (codeobj 65536, textpar 2048, else 4096)
# Prints per target: executions, wall seconds, executions per second (libFuzzer's count over
# the wall time of the process), CPU seconds (user + system, all its threads) and executions
# per CPU second, cov and ft at the end, and findings; also written to WORKDIR/throughput.txt.
# Exit 1 when a process found a crash, leak, timeout or OOM (the input is in WORKDIR/TARGET/).
set -u
here=$(cd "$(dirname "$0")" && pwd)
secs=45
par=1
runs=
seed=1
work=./work-throughput
while getopts "t:p:r:s:o:" c; do
    case $c in
        t) secs=$OPTARG ;;
        p) par=$OPTARG ;;
        r) runs=$OPTARG ;;
        s) seed=$OPTARG ;;
        o) work=$OPTARG ;;
        *) sed -n '2,22p' "$0"; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
    targets=$*
else
    targets=$(cd "$here" && ls fuzz_* 2>/dev/null | grep -v '\.' | sed 's/^fuzz_//')
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
out=$work/throughput.txt

# one target: fuzz TARGET for $secs s from its seeds, then its figures into $work/T.row
one() {
    local t=$1 dir=$here name=${1%%:*} bin maxlen=
    case $t in *:*) maxlen=${t##*:} ;; esac
    case $name in */*) dir=$here/${name%/*}; name=${name##*/} ;; esac
    bin=$dir/fuzz_$name
    local tag=${t//\//_}
    tag=${tag//:/_}
    local d=$work/$tag
    rm -rf "$d"
    mkdir -p "$d/corpus"
    local seeds=$dir/corpus/$name
    [ -d "$seeds" ] || seeds=$here/corpus/$name
    local lib=$dir/lib
    [ -d "$lib" ] || lib=$here/lib
    # fuzz_all.sh's input size limits
    if [ -z "$maxlen" ]; then
        case $name in
            codeobj) maxlen=65536 ;;
            textpar) maxlen=2048 ;;
            *) maxlen=4096 ;;
        esac
    fi
    local extra="-max_len=$maxlen"
    [ -n "$runs" ] && extra="$extra -runs=$runs"
    if [ ! -x "$bin" ]; then
        printf '%-20s no %s\n' "$t" "$bin" > "$work/$tag.row"
        return
    fi
    local t0 t1
    t0=$(date +%s.%N)
    # CPU time of the process and its threads: the subshell's `times` after it ended
    # (its children's user and system time)
    (
        cd "$d" || exit 1
        LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0} \
            "$bin" -max_total_time="$secs" -seed="$seed" -print_final_stats=1 -timeout=10 \
            -rss_limit_mb=2048 $extra -artifact_prefix="$d/" "$d/corpus" "$seeds" > "$d/fuzz.log" 2>&1
        echo $? > "$d/rc"
        times > "$d/times"
    )
    t1=$(date +%s.%N)
    local execs last cov ft cpu found
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/fuzz.log" | tail -1)
    last=$(grep -E '^#[0-9]+.* cov: ' "$d/fuzz.log" | tail -1)
    [ -n "$execs" ] || execs=$(echo "$last" | sed -E 's/^#([0-9]+).*/\1/')
    cov=$(echo "$last" | sed -nE 's/.* cov: ([0-9]+).*/\1/p')
    ft=$(echo "$last" | sed -nE 's/.* ft: ([0-9]+).*/\1/p')
    # `times` prints the shell's then its children's "XmY.YYYs XmY.YYYs"
    cpu=$(sed -n 2p "$d/times" | awk '{
        n = 0
        for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); n += a[1] * 60 + a[2] }
        printf "%.2f", n }')
    found=$(ls "$d" | grep -cE '^(crash|leak|timeout|oom)-')
    awk -v t="$t" -v e="${execs:-0}" -v t0="$t0" -v t1="$t1" -v c="${cpu:-0}" -v cov="${cov:-0}" -v ft="${ft:-0}" \
        -v f="$found" -v rc="$(cat "$d/rc")" 'BEGIN {
        w = t1 - t0
        printf "%-20s %10d %7.1f %8.0f %7.1f %9.0f %6d %7d %5d%s\n", t, e, w, e / w, c,
               (c > 0 ? e / c : 0), cov, ft, f, (rc != 0 && f == 0 ? "  (exit " rc ")" : "") }' \
        > "$work/$tag.row"
}

printf '%-20s %10s %7s %8s %7s %9s %6s %7s %5s\n' target executions wall_s exec/s cpu_s \
    exec/cpu_s cov ft found | tee "$out"
running=0
for t in $targets; do
    one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$par" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
bad=0
for t in $targets; do
    tag=${t//\//_}
    tag=${tag//:/_}
    cat "$work/$tag.row" | tee -a "$out"
    f=$(awk '{print $9}' "$work/$tag.row")
    [ "${f:-0}" = 0 ] 2>/dev/null || bad=1
done
echo "host: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); seconds per process $secs${runs:+, at most $runs runs}, seed $seed" | tee -a "$out"
exit $bad
