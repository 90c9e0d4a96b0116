#!/bin/sh
# test_sanitized.sh -- the end-to-end tests of the tools (tests/sim/test_cli.sh,
# tests/sim/test_reliability.sh) run again on the tools built by tests/fuzz/build.sh with
# clang-22 -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all and
# LeakSanitizer on: any sanitizer report (a leak on an early exit, signed overflow in an
# instruction's semantics, a float-to-integer conversion out of range) changes an exit code and
# fails them.  Exit 77 when clang-22 cannot build them.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
san=$builddir/tests/fuzz/san
mkdir -p "$san"
top_srcdir=$srcdir top_builddir=$builddir "$srcdir/tests/fuzz/build.sh" "$san" > "$san-cli.log" 2>&1
rc=$?
[ $rc = 77 ] && { cat "$san-cli.log"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: building the sanitized tools:"; tail -30 "$san-cli.log"; exit 1; }
# a sanitizer report exits 86, a code no tool uses, so no expected exit code can hide one
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:exitcode=86
export LSAN_OPTIONS=exitcode=86
export UBSAN_OPTIONS=print_stacktrace=1:exitcode=86
fails=0
for t in test_cli.sh test_reliability.sh; do
    if GCNSIM=$san/gcnsim GCNLINT=$san/gcnlint GCNDIS=$san/gcndis GCNRUN=$san/gcnrun_nohip \
       sh "$srcdir/tests/sim/$t" > "$san/$t.log" 2>&1; then
        echo "ok   $t with the sanitized tools"
    else
        echo "FAIL: $t with the sanitized tools:"
        grep -E "^FAIL|ERROR|runtime error|LeakSanitizer" "$san/$t.log" | head -20
        fails=$((fails + 1))
    fi
done
[ $fails = 0 ]
