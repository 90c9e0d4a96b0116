#!/bin/sh
# test_man_render.sh -- every man page in docs/man renders without a warning:
# groff -ww -man (all warnings on) must print nothing on stderr, and man -l must succeed.
# Skipped (77) without groff (Debian package groff-base).
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v groff >/dev/null 2>&1 || { echo "groff not installed: skipped"; exit 77; }
fail=0
for page in "$srcdir"/docs/man/*.1; do
    w=$(groff -ww -man -Tutf8 -z "$page" 2>&1)
    if [ -n "$w" ]; then
        echo "FAIL: $page: groff warnings:"; echo "$w"; fail=1
    fi
    if command -v man >/dev/null 2>&1; then
        out=$(MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$page" 2>&1 >/dev/null)
        if [ $? -ne 0 ] || [ -n "$out" ]; then
            echo "FAIL: man -l $page:"; echo "$out"; fail=1
        fi
    fi
    [ $fail -eq 0 ] && echo "ok: $page"
done
exit $fail
