#!/bin/sh
# test_dist.sh -- the release tarball, checked the way a distribution builds it.
#  1. `make dist` makes the tarball (nothing is built for it);
#  2. it holds sources only: no object, library, ELF program or other build product (the
#     only ELF files allowed are committed test inputs: *.hsaco, tests/fuzz/corpus/ and the
#     raw-stream corpora tests/fuzz/corpus_rawdis/, corpus_textpar/: code objects as words), and,
#     in a git checkout, every file git tracks (but .gitignore/.gitattributes) and nothing
#     else but what autoreconf generates;
#  3. unpacked and made read-only, it configures out of tree with --without-llvm and
#     --without-cunit (configure must not need LLVM 22 or CUnit) and `make` builds the
#     tools and the C references, and no test program;
#  4. there, an assembly input with no clang-22 on PATH stops gcnsim and gcnlint with a
#     message naming clang-22 and the file, exit 2 (docs/man);
#  5. the README's tour runs as printed in that build (tests/docs/readme_tour.py; it needs
#     clang-22 at run time, so it is left out when there is none);
#  6. a smoke set of `make check` passes there: --version (no git revision in a tarball
#     build), the installed library with pkg-config, the man pages' finding list, and the
#     reports that the tests needing LLVM 22 or CUnit are skipped with the reason.
# This is what `make distcheck` checks, less the full test suite (which is `make check`
# itself; a full distcheck is too slow for CI's 2 cores: docs/library.md "Releasing").
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
MAKE=${MAKE:-make}
# The makes below are make runs of their own: not the variables (TEST_LOGS, ...) or the
# jobserver of a `make check` this test runs under.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL
jobs=-j2
version=$(sed -n 's/^PACKAGE_VERSION = //p' "$builddir/Makefile")
[ -n "$version" ] || { echo "FAIL: no PACKAGE_VERSION in $builddir/Makefile"; exit 1; }
T=$(mktemp -d)
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
fail=0
say() { echo "$@"; }
bad() { echo "FAIL: $*"; fail=1; }

# ---- 1. the tarball (a distdir name of our own: a user's gcnsim-VERSION is left alone)
name="gcnsim-$version-disttest$$"
$MAKE -C "$builddir" dist-gzip distdir="$name" > "$T/dist.log" 2>&1 ||
    { tail -n 30 "$T/dist.log"; echo "FAIL: make dist"; exit 1; }
mv "$builddir/$name.tar.gz" "$T/" || exit 1
if grep -E '^ *(CC|CCLD|AR) ' "$T/dist.log" > "$T/built"; then
    bad "make dist built something:"; head "$T/built"
fi
tar tzf "$T/$name.tar.gz" | sed "s|^$name/||; /\/$/d; /^$/d" | sort > "$T/list"
say "make dist: $(wc -l < "$T/list") files, $(wc -c < "$T/$name.tar.gz") bytes"

# ---- 2. sources only
grep -E '\.(o|a|so|la|lo|log|trs|pyc)$|(^|/)(\.deps|\.libs|__pycache__)/|\.dirstamp$|^config\.(status|log|h)$|(^|/)Makefile$|^gcn_git_rev\.h$' \
    "$T/list" > "$T/products"
[ -s "$T/products" ] && { bad "build products in the tarball:"; head -n 20 "$T/products"; }
mkdir "$T/src" && tar xzf "$T/$name.tar.gz" -C "$T/src" || { echo "FAIL: unpacking"; exit 1; }
S="$T/src/$name"
(cd "$S" && find . -type f | sed 's|^\./||' | while read -r f; do
    if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ]; then
        case $f in tests/fuzz/corpus/* | tests/fuzz/corpus_rawdis/* | tests/fuzz/corpus_textpar/* | *.hsaco) ;;
            *) echo "$f" ;;
        esac
    fi
done) > "$T/elf"
[ -s "$T/elf" ] && { bad "ELF programs or objects in the tarball:"; head "$T/elf"; }
if [ -e "$srcdir/.git" ] && command -v git > /dev/null 2>&1; then
    git -C "$srcdir" ls-files | grep -Ev '(^|/)\.git(ignore|attributes)$' | sort > "$T/git"
    comm -23 "$T/git" "$T/list" > "$T/missing"
    [ -s "$T/missing" ] && { bad "files git tracks that the tarball lacks (add them to EXTRA_DIST):"; cat "$T/missing"; }
    comm -13 "$T/git" "$T/list" |
        grep -Ev '^(configure|Makefile\.in|aclocal\.m4|config\.h\.in|build-aux/.*)$' > "$T/extra"
    [ -s "$T/extra" ] && { bad "files in the tarball that git does not track:"; head -n 20 "$T/extra"; }
    [ -s "$T/missing" ] || [ -s "$T/extra" ] || say "ok: the tarball holds exactly the $(wc -l < "$T/git") files git tracks (+ autotools output)"
fi

# ---- 3. configure without LLVM 22 and CUnit, build, from a read-only source tree
chmod -R a-w "$S"
mkdir "$T/build"
(cd "$T/build" && "$S/configure" --without-llvm --without-cunit) > "$T/configure.log" 2>&1 ||
    { tail -n 20 "$T/configure.log"; echo "FAIL: configure --without-llvm --without-cunit"; exit 1; }
grep -q 'the tests that need LLVM 22 will be skipped' "$T/configure.log" ||
    bad "configure --without-llvm does not say that the LLVM tests will be skipped"
B="$T/build"
$MAKE -C "$B" $jobs > "$T/make.log" 2>&1 || { tail -n 30 "$T/make.log"; echo "FAIL: make (from the tarball)"; exit 1; }
grep -E 'warning:' "$T/make.log" | head -n 5 > "$T/warn"
[ -s "$T/warn" ] && { bad "compiler warnings in the tarball build:"; cat "$T/warn"; }
for p in gcndis gcnsim gcnlint kernels/vector_add/ref kernels/mfma_gemm/ref; do
    [ -x "$B/$p" ] || bad "make did not build $p"
done
for p in tests/decode/gcndis_dyn tests/sim/test_mfma_layout tests/device/devcmp; do
    [ -e "$B/$p" ] && bad "make built the test program $p (only make check should)"
done
say "ok: configured --without-llvm --without-cunit and built from the read-only tarball tree"

# ---- 4. .s input without clang-22
mkdir "$T/bin"
for d in $(echo "$PATH" | tr ':' ' '); do
    [ -d "$d" ] || continue
    for f in "$d"/*; do
        b=$(basename "$f")
        case $b in *clang* | llvm-* | ld.lld* | llc* | lld*) continue ;; esac
        [ -e "$T/bin/$b" ] || ln -s "$f" "$T/bin/$b"
    done
done
(cd "$S" && env -u GCN_CLANG -u GCNLINT_CLANG PATH="$T/bin" "$B/gcnsim" -q \
    --manifest kernels/vector_add/vector_add.json) > "$T/sim.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q 'clang-22' "$T/sim.out" && grep -q 'vector_add\.s' "$T/sim.out"; then
    say "ok: gcnsim without clang-22: exit 2: $(head -n 1 "$T/sim.out")"
else
    cat "$T/sim.out"; bad "gcnsim on a .s without clang-22: exit $rc (want 2 and a message naming clang-22 and the file)"
fi
(cd "$S" && env -u GCN_CLANG -u GCNLINT_CLANG PATH="$T/bin" "$B/gcnlint" kernels/vector_add/vector_add.s) > "$T/lint.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q 'clang-22' "$T/lint.out" && grep -q 'vector_add\.s' "$T/lint.out"; then
    say "ok: gcnlint without clang-22: exit 2: $(head -n 1 "$T/lint.out")"
else
    cat "$T/lint.out"; bad "gcnlint on a .s without clang-22: exit $rc (want 2 and a message naming clang-22 and the file)"
fi

# ---- 5. the README's tour in the tarball build
if command -v "${CLANG22:-clang-22}" > /dev/null 2>&1; then
    "${PYTHON3:-python3}" "$S/tests/docs/readme_tour.py" --srcdir "$S" --builddir "$B" --make "$MAKE" > "$T/tour.out" 2>&1 ||
        { cat "$T/tour.out"; bad "the README's tour in the tarball build"; }
    [ -s "$T/tour.out" ] && say "ok: the README's tour: $(grep -c '^ok:' "$T/tour.out") commands as printed"
else
    say "clang-22 not found: the README's tour is not run from the tarball"
fi

# ---- 6. the smoke set of make check
smoke="tests/release/test_version.sh tests/release/test_install.sh tests/docs/test_man_findings.sh tests/no_cunit.sh tests/sim/test_cli.sh"
$MAKE -C "$B" $jobs check TESTS="$smoke" > "$T/check.log" 2>&1 ||
    { tail -n 40 "$T/check.log"; bad "make check TESTS='$smoke' in the tarball build"; }
grep -E '^(PASS|SKIP|FAIL|ERROR|XFAIL|XPASS):' "$T/check.log" | sed 's/^/  /'
grep -q "^PASS: tests/release/test_version.sh" "$T/check.log" || bad "test_version.sh did not pass"
grep -q "^PASS: tests/release/test_install.sh" "$T/check.log" || bad "test_install.sh did not pass"
grep -q "(git " "$B/tests/release/test_version.sh.log" && bad "a tarball build prints a git revision"
grep -q "^SKIP: tests/sim/test_cli.sh" "$T/check.log" && grep -q "needs LLVM 22" "$B/tests/sim/test_cli.sh.log" ||
    bad "without LLVM, tests/sim/test_cli.sh is not skipped with the reason"
grep -q "^SKIP: tests/no_cunit.sh" "$T/check.log" && grep -q "CUnit" "$B/tests/no_cunit.sh.log" ||
    bad "without CUnit, make check does not say that the CUnit tests are skipped"
[ $fail = 0 ] && say "ok: the tarball builds and passes its smoke tests"
exit $fail
