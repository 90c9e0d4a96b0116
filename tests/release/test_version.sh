#!/bin/sh
# test_version.sh -- every tool prints its version with --version (exit 0, nothing on
# stderr): "TOOL VERSION", plus " (git REV)" when the source tree is a git checkout, REV
# being `git describe --always --dirty` of it; a build from a tarball prints no revision.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
version=$(sed -n 's/^PACKAGE_VERSION = //p' "$builddir/Makefile")
[ -n "$version" ] || { echo "FAIL: no PACKAGE_VERSION in $builddir/Makefile"; exit 1; }
suffix=
if [ -e "$srcdir/.git" ] && command -v git >/dev/null 2>&1; then
    rev=$(git -C "$srcdir" describe --always 2>/dev/null) && suffix=" (git $rev)"
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 n=0
for t in gcndis gcnsim gcnlint gcnrun tests/device/gcnrun_nohip; do
    bin="$builddir/$t"
    name=$(basename "$t")
    [ "$name" = gcnrun_nohip ] && name=gcnrun
    if [ ! -x "$bin" ]; then
        case $t in gcnrun) echo "gcnrun not built (no HIP runtime): its twin gcnrun_nohip is checked"; continue ;; esac
        echo "FAIL: $bin not built"; fail=1; continue
    fi
    "$bin" --version > "$T/out" 2> "$T/err"
    rc=$?
    want="$name $version$suffix"
    got=$(cat "$T/out")
    # "-dirty" says whether tracked files had changes at the last make: that may differ now
    [ -n "$suffix" ] && [ "$got" = "$name $version (git $rev-dirty)" ] && want=$got
    if [ $rc -ne 0 ] || [ -s "$T/err" ] || [ "$got" != "$want" ]; then
        echo "FAIL: $t --version: exit $rc, printed '$(cat "$T/out" "$T/err")', want '$want'"
        fail=1
    else
        echo "ok: $t --version: $want"; n=$((n + 1))
    fi
done
[ $fail = 0 ] && echo "all $n tools print their version"
exit $fail
