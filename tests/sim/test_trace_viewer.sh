#!/bin/sh
# test_trace_viewer.sh -- gcnsim's --trace-json loaded in a real trace processor: the
# Chrome DevTools Performance panel's trace engine (npm: @paulirish/trace_engine),
# tests/sim/trace_viewer.mjs.  Also that it rejects a trace with the lgkm spans of
# issue 18 (ended with cat "vm"): the engine then pairs fewer spans.
# Install the engine with `npm install -g @paulirish/trace_engine` (or give its
# node_modules directory in TRACE_ENGINE_DIR); without node or the package: SKIP.
srcdir=${top_srcdir:-.}
bld=${top_builddir:-.}
gcnsim=$bld/gcnsim
py=${PYTHON3:-python3}
[ -x "$gcnsim" ] || { echo "SKIP: $gcnsim not built"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "SKIP: node (Node.js) is not installed"; exit 77; }
command -v "$py" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
if [ -z "$CLANG22" ] || ! command -v "$CLANG22" >/dev/null 2>&1; then
    echo "SKIP: clang-22 (CLANG22) is needed to assemble the kernels"; exit 77
fi
export GCN_CLANG=$CLANG22
dir=${TRACE_ENGINE_DIR:-}
if [ -z "$dir" ] && command -v npm >/dev/null 2>&1; then
    dir=$(npm root -g 2>/dev/null)
fi
if [ -z "$dir" ] || [ ! -f "$dir/@paulirish/trace_engine/models/trace/trace.js" ]; then
    echo "SKIP: the Chrome DevTools trace engine is not installed (npm install -g @paulirish/trace_engine," \
         "or TRACE_ENGINE_DIR=.../node_modules)"
    exit 77
fi
T=$(mktemp -d /tmp/gcnsim-tview-XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
set --
for m in vector_add/vector_add.json lds_transpose/lds_transpose.json mfma_gemm/mfma_gemm_bf16.json \
         lds_histogram/lds_histogram.json vector_add/vector_add_weak_loop.json; do
    out=$T/$(basename "$m" .json).json
    "$gcnsim" -q --no-progress --manifest "$srcdir/kernels/$m" --trace-json "$out" >"$T/log" 2>&1
    rc=$?
    if [ $rc != 0 ] && [ $rc != 4 ]; then
        echo "FAIL: gcnsim $m: exit $rc"; head -5 "$T/log"; fails=$((fails + 1)); continue
    fi
    set -- "$@" "$out"
done
node "$srcdir/tests/sim/trace_viewer.mjs" "$dir" "$@" || fails=$((fails + 1))
# the issue-18 trace: every lgkm span ends with cat "vm"; the engine must not pair those
"$py" - "$T/lds_transpose.json" "$T/broken.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for e in doc["traceEvents"]:
    if e["ph"] == "e":
        e["cat"] = "vm"
json.dump(doc, open(sys.argv[2], "w"))
PY
if node "$srcdir/tests/sim/trace_viewer.mjs" "$dir" "$T/broken.json" >"$T/blog" 2>&1; then
    echo "FAIL: the engine paired the spans of a trace whose lgkm spans end with cat vm"
    fails=$((fails + 1))
else
    echo "ok   a trace with lgkm spans ended as vm is caught: $(grep -o 'paired [0-9]* async spans of [0-9]* begins' "$T/blog")"
fi
[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "the trace engine loads every trace and pairs every span"
