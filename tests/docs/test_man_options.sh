#!/bin/sh
# test_man_options.sh -- each program's --help and its man page (docs/man/PROG.1) list the
# same options (tests/docs/man_options.py says how they are compared), and gcnlint.1
# describes every check of `gcnlint --list-checks`.  A self-check first:
# a man page with one OPTIONS entry removed must be reported, so the comparison can fail.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
py=${PYTHON3:-python3}
cmp="$srcdir/tests/docs/man_options.py"
[ -x "$builddir/gcnlint" ] || { echo "programs not built: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
# self-check: drop the first .TP entry of gcnlint.1's OPTIONS
awk '/^\.SH OPTIONS/{o=1} o&&/^\.TP/&&!d{d=1;getline;next} {print}' \
    "$srcdir/docs/man/gcnlint.1" > "$T/mutant.1"
if "$py" "$cmp" "$builddir/gcnlint" "$T/mutant.1" > "$T/out" 2>&1; then
    echo "FAIL: a man page with a missing option was not reported"; fail=1
fi
n=0
for prog in gcndis gcnsim gcnlint gcnrun gcnmfma; do
    page="$srcdir/docs/man/$prog.1"
    bin="$builddir/$prog"
    [ -f "$page" ] || { [ "$prog" = gcnrun ] && continue; echo "FAIL: $page missing"; fail=1; continue; }
    if [ ! -x "$bin" ]; then
        [ "$prog" = gcnrun ] && bin="$builddir/tests/device/gcnrun_nohip"
        [ -x "$bin" ] || { echo "$prog not built: not compared"; continue; }
    fi
    if "$py" "$cmp" "$bin" "$page"; then
        echo "ok: $prog --help and docs/man/$prog.1 list the same options"; n=$((n + 1))
    else
        fail=1
    fi
done
# every check of gcnlint --list-checks is described in gcnlint.1's CHECKS section
if "$py" "$cmp" --checks "$builddir/gcnlint" "$srcdir/docs/man/gcnlint.1"; then
    echo "ok: gcnlint --list-checks and docs/man/gcnlint.1 CHECKS agree"
else
    fail=1
fi
exit $fail
