#!/bin/sh
# test_trace_json.sh -- gcnsim --trace-json keeps the Trace Event Format's pairing rules
# (tests/sim/trace_check.py: B/E nesting per thread, b/e matched by cat+id+name, nothing
# left open, well-formed X/C/i/M) on traces of bundled kernels, on both targets and for
# several waves; the checker itself must catch each way of breaking a trace (--self-test,
# including the lgkm span that ended with cat "vm", issue 18).
srcdir=${top_srcdir:-.}
bld=${top_builddir:-.}
gcnsim=$bld/gcnsim
py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
[ -x "$gcnsim" ] || { echo "SKIP: $gcnsim not built"; exit 77; }
if [ -z "$CLANG22" ] || ! command -v "$CLANG22" >/dev/null 2>&1; then
    echo "SKIP: clang-22 (CLANG22) is needed to assemble the kernels"; exit 77
fi
export GCN_CLANG=$CLANG22
T=$(mktemp -d /tmp/gcnsim-trace-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
n=0
for spec in vector_add/vector_add.json:0,0 vector_add/vector_add.json:1,3 \
            lds_transpose/lds_transpose.json:0,1 wave_reduce/wave_reduce.json:0,0 \
            mem_bandwidth/mem_bandwidth.json:0,0 lds_histogram/lds_histogram.json:0,2 \
            mfma_gemm/mfma_gemm_bf16.json:0,0 mfma_bf16_16x16x32/mfma_bf16_16x16x32.json:0,0 \
            wave_shuffle/wave_shuffle.json:0,0 vector_add/vector_add_weak_loop.json:0,0; do
    m=${spec%%:*} w=${spec#*:}
    for t in $("$py" -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1])).get("targets") or ["gfx942"]))' "$srcdir/kernels/$m"); do
        n=$((n + 1))
        out=$T/$n.json
        "$gcnsim" -q --no-progress --manifest "$srcdir/kernels/$m" --mcpu $t --wave=$w \
            --trace-json "$out" >"$T/log" 2>&1
        rc=$?
        if [ $rc != 0 ] && [ $rc != 4 ]; then
            echo "FAIL: gcnsim $m --mcpu $t --wave=$w: exit $rc"; head -5 "$T/log"
            fails=$((fails + 1)); continue
        fi
        "$py" "$srcdir/tests/sim/trace_check.py" "$out" | sed "s|$out|$m $t wave $w|" ||
            fails=$((fails + 1))
    done
done
# lgkm and vm spans both present in one of the traces (lds_transpose has both)
"$gcnsim" -q --no-progress --manifest "$srcdir/kernels/lds_transpose/lds_transpose.json" \
    --trace-json "$T/lt.json" >/dev/null 2>&1
"$py" - "$T/lt.json" <<'PY' || fails=$((fails + 1))
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
cats = {(e["ph"], e["cat"]) for e in ev if e["ph"] in ("b", "e")}
want = {("b", "vm"), ("e", "vm"), ("b", "lgkm"), ("e", "lgkm")}
if not want <= cats:
    print("FAIL: lds_transpose trace lacks spans:", sorted(want - cats)); sys.exit(1)
print("ok   lds_transpose: vm and lgkm spans both begin and end")
PY
"$py" "$srcdir/tests/sim/trace_check.py" --self-test "$T/lt.json" || fails=$((fails + 1))
if [ $fails -ne 0 ]; then
    echo "$fails failure(s)"; exit 1
fi
echo "all $n traces keep the pairing rules"
