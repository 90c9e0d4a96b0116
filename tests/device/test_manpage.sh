#!/bin/sh
# test_manpage.sh -- docs/man/gcnrun.1 renders with `groff -ww -man` without a warning and
# documents the exit codes gcnrun's --help gives.
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v groff >/dev/null 2>&1 || { echo "groff not found: skipped"; exit 77; }
page=$srcdir/docs/man/gcnrun.1
out=$(groff -ww -man -Tutf8 "$page" 2>&1 >/dev/null)
if [ -n "$out" ]; then
    echo "FAIL: groff warnings for $page:"; echo "$out"; exit 1
fi
text=$(groff -man -Tascii -P-c -P-b -P-u "$page" 2>/dev/null)
for want in "EXIT STATUS" "No gfx942/gfx950 device" "--print-kernarg" "--list-devices"; do
    case $text in
    *"$want"*) ;;
    *) echo "FAIL: the man page does not mention \"$want\""; exit 1 ;;
    esac
done
echo "ok   gcnrun.1 renders without warnings"
echo "1 passed, 0 failed"
