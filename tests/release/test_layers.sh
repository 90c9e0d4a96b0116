#!/bin/sh
# test_layers.sh -- the libraries are layers, decode -> analyze -> sim -> run (Makefile.am,
# docs/library.md "Layers"): layers.py reads the built archives with nm and fails on a
# reference to a later layer, a symbol defined twice, or a cycle of references between the
# files of one layer (its self-test first shows that each rule catches what it must).  Then
# the instruction bodies: src/sim/ops_*.c (and valu_int.h, the VALU bodies' helpers) see the
# machine only through src/sim/sim_body.h, never through sim_int.h or trace.h.
# Skipped (77) until the libraries are built.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
py=${PYTHON3:-python3}
nm=${NM:-nm}
libs=
for l in libgcndecode.a libgcnanalyze.a libgcnsim.a libgcnrun.a; do
    [ -f "$builddir/$l" ] || { echo "SKIP: $builddir/$l not built (make)"; exit 77; }
    libs="$libs $builddir/$l"
done
cc=$(sed -n 's/^CC = //p' "$builddir/Makefile" 2>/dev/null)
ar=$(sed -n 's/^AR = //p' "$builddir/Makefile" 2>/dev/null)
fail=0
"$py" "$srcdir/tests/release/layers.py" --selftest "${cc:-cc}" "${ar:-ar}" "$nm" || fail=1
# shellcheck disable=SC2086
"$py" "$srcdir/tests/release/layers.py" --nm "$nm" $libs || fail=1
n=0
for f in "$srcdir"/src/sim/ops_*.c "$srcdir"/src/sim/valu_int.h; do
    n=$((n + 1))
    if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(sim_int|trace)\.h"' "$f"; then
        echo "FAIL: ${f#"$srcdir"/} includes the simulator's internals: instruction bodies include sim_body.h"
        fail=1
    fi
done
if grep -nE '#[[:space:]]*include[[:space:]]*"(sim_int|trace)\.h"' "$srcdir/src/sim/sim_body.h"; then
    echo "FAIL: src/sim/sim_body.h includes the simulator's internals"
    fail=1
fi
[ $n -ge 8 ] || { echo "FAIL: only $n body files found under src/sim"; fail=1; }
[ $fail = 0 ] && echo "ok: $n instruction-body files include sim_body.h, not sim_int.h"
exit $fail
