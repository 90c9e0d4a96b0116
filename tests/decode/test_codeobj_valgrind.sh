#!/usr/bin/env bash
# test_codeobj_valgrind.sh -- one valgrind pass over gcndis's code-object
# paths: a listing and --llvm-text of good code objects and a bundle, bundle
# listing/extraction, and every corrupted input of test_codeobj_lib.sh.  Any
# invalid read/write, use of uninitialised memory or definite leak fails.
# Skipped (exit 77) when valgrind is not installed.
set -eu
. "$(dirname "$0")/test_codeobj_lib.sh"
command -v valgrind >/dev/null 2>&1 || { echo "SKIP: valgrind not installed"; exit 77; }
co_skip_without_tools
# memcheck cannot follow malloc in a static binary: check the dynamic link of
# the same code when gcndis is static (configure --enable-static-gcndis)
[ -x "$top_builddir/tests/decode/gcndis_dyn" ] && GCNDIS=$top_builddir/tests/decode/gcndis_dyn
co_workdir test_codeobj_valgrind
W=$WORK
co_asm "$INPUTS/co_asm.s" gfx942 5 "$W/asm.hsaco"
co_hip "$INPUTS/co_hip.hip" gfx950 "$W/hip.hsaco" -g
BUNDLE=$W/hip.bundle
co_bundle "$INPUTS/co_hip.hip" "$BUNDLE"
co_make_bad "$W/asm.hsaco" "$W"

fail=0
vg() {   # vg EXPECTED_EXIT ARGS...: run gcndis under valgrind
    local want=$1
    shift
    set +e
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        --log-file="$W/vg.log" "$GCNDIS" "$@" > /dev/null 2> "$W/err.txt"
    local rc=$?
    set -e
    if [ $rc = 99 ] || [ -s "$W/vg.log" ]; then
        echo "FAIL: valgrind: gcndis $*:"
        sed 's/^/    /' "$W/vg.log" | head -40
        fail=1
    elif [ "$rc" != "$want" ]; then
        echo "FAIL: gcndis $*: exit $rc, expected $want"
        fail=1
    fi
}
vg 0 "$W/asm.hsaco"
vg 0 --llvm-text "$W/hip.hsaco"
vg 0 "$W/hip.hsaco"
vg 0 --offload-arch=gfx950 "$BUNDLE"
vg 0 --bundle-list "$BUNDLE"
vg 0 --bundle-extract=gfx942 -o "$W/x.hsaco" "$BUNDLE"
for b in $BAD; do
    vg 2 "${b%%:*}"
done
[ $fail = 0 ] && echo "PASS: valgrind clean on $(( 6 + $(echo $BAD | wc -w) )) runs"
exit $fail
