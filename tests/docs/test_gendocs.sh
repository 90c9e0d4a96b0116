#!/bin/sh
# test_gendocs.sh -- self-test of tools/gendocs.py on a scratch tree: a stale block is
# reported by --check and rewritten without it; outputs, exit statuses, images, probes and
# path normalization come out as documented; a failing command is an error.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
py=${PYTHON3:-python3}
gd="$srcdir/tools/gendocs.py"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
mkdir -p "$T/docs/img"
cat > "$T/README.md" <<'MD'
# scratch
<!-- probe never: false -->
<!-- run: echo hello -->
stale text
<!-- end -->
<!-- run(exit=3): echo "$PWD/kernels/x.s:1: here"; exit 3 -->
<!-- end -->
<!-- run(image=docs/img/x.svg):
printf '<svg/>' > docs/img/x.svg
-->
<!-- end -->
<!-- run(requires=never): echo unreachable -->
<!-- end -->
MD
cp "$T/README.md" "$T/orig.md"
"$py" "$gd" --srcdir "$T" --builddir "$T" --check > "$T/check1.out" 2>&1
[ $? -eq 1 ] || { echo "FAIL: --check did not report a stale block"; cat "$T/check1.out"; fail=1; }
cmp -s "$T/README.md" "$T/orig.md" || { echo "FAIL: --check modified the document"; fail=1; }
"$py" "$gd" --srcdir "$T" --builddir "$T" > "$T/gen.out" 2>&1 || { echo "FAIL: generation failed"; cat "$T/gen.out"; fail=1; }
"$py" "$gd" --srcdir "$T" --builddir "$T" --check > "$T/check2.out" 2>&1 || { echo "FAIL: --check after generation"; cat "$T/check2.out"; fail=1; }
want() {
    grep -qxF -- "$1" "$T/README.md" || { echo "FAIL: the generated document lacks the line: $1"; fail=1; }
}
want '$ echo hello'
want 'hello'
want 'kernels/x.s:1: here'
want '[exit status 3]'
want '![x.svg](docs/img/x.svg)'
grep -q 'stale text' "$T/README.md" && { echo "FAIL: stale text kept"; fail=1; }
grep -qx 'unreachable' "$T/README.md" && { echo "FAIL: a block whose probe fails was run"; fail=1; }
grep -q 'probe `never`' "$T/README.md" || { echo "FAIL: no note for a failing probe"; fail=1; }
[ "$(cat "$T/docs/img/x.svg" 2>/dev/null)" = '<svg/>' ] || { echo "FAIL: the image was not copied"; fail=1; }
# a command that fails with a status that is not allowed is an error (2), nothing is written
printf '<!-- run: exit 1 -->\n<!-- end -->\n' > "$T/docs/bad.md"
cp "$T/README.md" "$T/good.md"
"$py" "$gd" --srcdir "$T" --builddir "$T" > "$T/bad.out" 2>&1
[ $? -eq 2 ] || { echo "FAIL: a failing command was not an error"; cat "$T/bad.out"; fail=1; }
cmp -s "$T/README.md" "$T/good.md" || { echo "FAIL: a failed run modified a document"; fail=1; }
# a block without its end marker is an error
printf '<!-- run: echo x -->\n' > "$T/docs/bad.md"
"$py" "$gd" --srcdir "$T" --builddir "$T" --check > "$T/bad2.out" 2>&1
[ $? -eq 2 ] || { echo "FAIL: a block without <!-- end --> was accepted"; fail=1; }
[ $fail -eq 0 ] && echo "ok: gendocs self-test"
exit $fail
