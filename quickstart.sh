#!/usr/bin/env bash
# quickstart.sh -- install what is missing (Debian 12), build gcnsim, and run
# the main job on a bundled kernel.   `./quickstart.sh check` runs the whole
# test suite instead (this is what .ci/run calls).
set -euo pipefail
cd "$(dirname "$0")"

PKGS="clang-22 llvm-22 llvm-22-dev lld-22 libelf-dev libdw-dev libmsgpack-dev libjansson-dev
      libcunit1-dev autoconf automake libtool pkg-config make gcc python3 python3-jsonschema python3-numpy
      hipcc libamdhip64-dev"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "quickstart: installing:$missing"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    # (debconf's note that apt-utils is missing is not news; any other message is shown)
    aerr=$(mktemp)
    if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null 2>"$aerr"; then
        cat "$aerr" >&2; rm -f "$aerr"; exit 1
    fi
    grep -v 'apt-utils is not installed' "$aerr" >&2 || true
    rm -f "$aerr"
fi

# the trace viewer test's engine, Chrome DevTools' trace engine from the npm registry (best
# effort: without it tests/sim/test_trace_viewer.sh is skipped, saying so)
if [ "${1:-run}" = check ] && command -v npm >/dev/null 2>&1 &&
   [ ! -f "$(npm root -g 2>/dev/null)/@paulirish/trace_engine/models/trace/trace.js" ]; then
    npm install -g --silent @paulirish/trace_engine@0.0.65 >/dev/null 2>&1 ||
        echo "quickstart: npm install -g @paulirish/trace_engine failed: the trace viewer test will be skipped"
fi

# (re)configure after installing packages too: configure looks for the optional HIP runtime
if [ ! -f Makefile ] || [ -n "$missing" ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
    # quiet unless it fails (automake names each build-aux file it installs)
    autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
    ./configure -q
fi
make -j"$(nproc)" >/dev/null

case "${1:-run}" in
check)
    make -j"$(nproc)" check
    ;;
run)
    # The main job: simulate the bundled vector add (seed 001's five patterns)
    # and show what the wait-counter FIFOs hold at each instruction, then
    # let the linter prove its waits and suggest the loosest safe ones.
    m=kernels/vector_add/vector_add.json
    echo "== gcnsim: FIFO trace of wave 0 (first 30 instructions) =="
    t=$(mktemp)
    ./gcnsim --manifest "$m" --mcpu gfx942 --set N=1000 --trace=fifo \
        --plot vector_add_fifo.svg >"$t" 2>&1
    head -n 90 "$t"; echo "[... $(wc -l <"$t") lines in all]"; rm -f "$t"
    echo
    echo "== gcnsim on a broken variant (one wait too weak on the first loop iteration) =="
    ./gcnsim --manifest kernels/vector_add/vector_add_weak_loop.json --mcpu gfx942 --set N=4097 || true
    echo
    echo "== gcnlint --suggest =="
    ./gcnlint --suggest kernels/vector_add/vector_add.s
    echo
    echo "quickstart: FIFO-depth plot written to vector_add_fifo.svg"
    ;;
*)
    echo "usage: $0 [run|check]" >&2
    exit 1
    ;;
esac
