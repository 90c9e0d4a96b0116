#!/bin/sh
# test_nodevice.sh -- gcnrun on a machine without a gfx942/gfx950 GPU: the documented exit
# code 5 and the message "no gfx942/gfx950 device", no dump written; and the other exit codes
# (1 usage, 2 bad input before any device is looked for, 0 for --no-device --print-kernarg).
# Checks the built gcnrun (HIP runtime, no GPU; skipped if a GPU is present) and
# tests/device/gcnrun_nohip (built without HIP) alike.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
work=$builddir/tests/device/nodevice.work
rm -rf "$work"
mkdir -p "$work"
pass=0
fail=0
expect() {   # expect WHAT WANT_EXIT GREP_TEXT CMD...
    what=$1 want=$2 text=$3
    shift 3
    "$@" >"$work/out" 2>"$work/err"
    got=$?
    if [ "$got" = "$want" ] && { [ -z "$text" ] || grep -q -- "$text" "$work/out" "$work/err"; }; then
        echo "ok   $what"
        pass=$((pass + 1))
    else
        echo "FAIL $what: exit $got (want $want), output:"
        sed 's/^/    /' "$work/out" "$work/err"
        fail=$((fail + 1))
    fi
}
va=$srcdir/kernels/vector_add/vector_add.json
ws=$srcdir/kernels/wave_shuffle/wave_shuffle.json
check_binary() {
    b=$1 name=$2
    expect "$name --list-devices: exit 5" 5 "no gfx942/gfx950 device" "$b" --list-devices
    expect "$name run: exit 5 with the message" 5 "gcnrun: no gfx942/gfx950 device" \
        "$b" --manifest "$va" --dump-dir "$work/dump"
    if [ -e "$work/dump" ]; then
        echo "FAIL $name: a dump directory was made without a device"; fail=$((fail + 1))
    else
        echo "ok   $name: nothing dumped"; pass=$((pass + 1))
    fi
    expect "$name run --mcpu gfx942 (code loaded first): exit 5" 5 "no gfx942/gfx950 device" \
        "$b" --manifest "$ws" --mcpu gfx942 --dump-dir "$work/dump"
    expect "$name missing manifest: exit 2 (input before device)" 2 "no-such.json" \
        "$b" --manifest "$work/no-such.json"
    expect "$name --mcpu gfx90a: exit 2" 2 "gfx90a" "$b" --manifest "$va" --mcpu gfx90a
    expect "$name unknown option: exit 1" 1 "usage" "$b" --frobnicate
    expect "$name no manifest: exit 1" 1 "usage" "$b"
    expect "$name --no-device without --print-kernarg: exit 1" 1 "print-kernarg" \
        "$b" --no-device --manifest "$va"
    expect "$name --help: exit 0, documents exit 5" 0 "5 no gfx942/gfx950 device" "$b" --help
    expect "$name --no-device --print-kernarg: exit 0" 0 "^kernarg vector_add gfx942 32" \
        "$b" --no-device --print-kernarg --manifest "$va"
}
check_binary "$builddir/tests/device/gcnrun_nohip" gcnrun_nohip
if [ -x "$builddir/gcnrun" ]; then
    if "$builddir/gcnrun" --list-devices >/dev/null 2>&1; then
        echo "(a gfx942/gfx950 GPU is present: gcnrun's no-device path is not tested here)"
    else
        check_binary "$builddir/gcnrun" gcnrun
    fi
else
    echo "(gcnrun is not built -- no HIP runtime: only gcnrun_nohip tested)"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
