#!/bin/sh
# test_install.sh -- `make install` into a temporary DESTDIR installs the tools, the man
# pages, the libraries (libgcndecode.a, libgcnanalyze.a, libgcnsim.a; not libgcnrun.a, which is
# gcnrun's alone), the public headers under include/gcnsim/ and gcnsim.pc; the example
# program examples/gcn_example.c builds against that installed copy alone, with
# `pkg-config --define-prefix --cflags --libs gcnsim` (PKG_CONFIG_PATH = the temporary
# lib/pkgconfig; --define-prefix takes the prefix from where the .pc lies), and runs:
# it reads a bundled code object (its kernels, and its disassembly identical to the
# installed gcndis --llvm-text) and runs an MFMA through the library, checked against a
# C matrix product.  A program that only decodes links with -lgcndecode alone (the decoder is
# the lowest layer).  Then `make uninstall` must leave no file behind.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
pkgconfig=${PKG_CONFIG:-pkg-config}
command -v "$pkgconfig" >/dev/null 2>&1 || { echo "SKIP: pkg-config not found"; exit 77; }
cc=$(sed -n 's/^CC = //p' "$builddir/Makefile")
unset MAKEFLAGS MFLAGS MAKEOVERRIDES   # not the variables of a `make check` this runs under
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
prefix="$T/prefix"
fail=0
${MAKE:-make} -s -C "$builddir" install prefix="$prefix" > "$T/install.log" 2>&1 ||
    { cat "$T/install.log"; echo "FAIL: make install prefix=$prefix"; exit 1; }
for f in lib/pkgconfig/gcnsim.pc lib/libgcndecode.a lib/libgcnanalyze.a lib/libgcnsim.a include/gcnsim/gcn_decode.h include/gcnsim/gcn_codeobj.h include/gcnsim/gcn_isa.h \
         include/gcnsim/gcn_mfma.h include/gcnsim/gcn_mfma_num.h include/gcnsim/gcn_sim.h \
         include/gcnsim/manifest.h include/gcnsim/isa/gcn_isa.def bin/gcndis bin/gcnsim bin/gcnlint \
         share/man/man1/gcnsim.1; do
    [ -f "$prefix/$f" ] || { echo "FAIL: $f not installed under $prefix"; fail=1; }
done
# every installed header compiles on its own (includes only what is installed)
for h in "$prefix"/include/gcnsim/*.h; do
    printf '#include <%s>\nint gcn_x;\n' "$(basename "$h")" > "$T/h.c"
    $cc -std=c17 -I"$prefix/include/gcnsim" -c "$T/h.c" -o "$T/h.o" 2> "$T/h.err" ||
        { cat "$T/h.err"; echo "FAIL: installed header $(basename "$h") does not compile alone"; fail=1; }
done
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" "$pkgconfig" --cflags --libs gcnsim) ||
    { echo "FAIL: pkg-config --cflags --libs gcnsim"; exit 1; }
echo "pkg-config --cflags --libs gcnsim: $flags"
case " $flags " in *" -I$prefix/include/gcnsim "*) ;; *) echo "FAIL: the flags do not name the installed headers"; fail=1 ;; esac
case "$flags" in *"$srcdir/src"*) echo "FAIL: the flags name the source tree"; fail=1 ;; esac
cp "$srcdir/examples/gcn_example.c" "$T/"
(cd "$T" && $cc -std=c17 -Wall -Wextra -o gcn_example gcn_example.c $flags) > "$T/cc.log" 2>&1 ||
    { cat "$T/cc.log"; echo "FAIL: examples/gcn_example.c does not build against the installed library"; exit 1; }
[ -s "$T/cc.log" ] && { cat "$T/cc.log"; echo "FAIL: warnings building the example"; fail=1; }
obj="$srcdir/tests/fuzz/corpus/hip_gfx942_v5.hsaco"
"$T/gcn_example" "$obj" > "$T/out" 2>&1
rc=$?
cat "$T/out"
[ $rc = 0 ] || { echo "FAIL: gcn_example exit $rc"; fail=1; }
for want in "gfx942, code object v5, 3 kernel(s)" "kernel saxpy: 116 bytes of code, 19 instructions (0 invalid)" \
            "256 of 256 elements of D = A\*B + C equal to the C product"; do
    grep -q "$want" "$T/out" || { echo "FAIL: gcn_example does not print '$want'"; fail=1; }
done
"$T/gcn_example" --llvm-text "$obj" > "$T/ex.txt" 2>&1
"$prefix/bin/gcndis" --llvm-text "$obj" > "$T/dis.txt" 2>&1
if [ -s "$T/ex.txt" ] && cmp -s "$T/ex.txt" "$T/dis.txt"; then
    echo "ok: gcn_example --llvm-text = installed gcndis --llvm-text ($(wc -l < "$T/ex.txt") lines)"
else
    diff "$T/dis.txt" "$T/ex.txt" | head; echo "FAIL: gcn_example --llvm-text differs from gcndis --llvm-text"; fail=1
fi
[ -e "$prefix/lib/libgcnrun.a" ] && { echo "FAIL: libgcnrun.a (gcnrun's alone) is installed"; fail=1; }
# the decoder alone: v_add_f32_e32 v0, v1, v2 (0x02000501) decoded and printed, -lgcndecode only
cat > "$T/dec.c" <<'EOF'
#include <stdio.h>
#include <gcn_decode.h>
int main(void)
{
    const unsigned char w[4] = {0x01, 0x05, 0x00, 0x02};
    gcn_decoder d = {.target = GCN_TARGET_GFX942};
    gcn_insn in;
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_decode_one(&d, w, sizeof w, 0, &in);
    gcn_print_insn(&d, &in, &sb);
    printf("%s\n", sb.buf ? sb.buf : "");
    gcn_sb_free(&sb);
    return 0;
}
EOF
if (cd "$T" && $cc -std=c17 -Wall -Wextra -o dec dec.c -I"$prefix/include/gcnsim" -L"$prefix/lib" \
        -lgcndecode -lpthread) > "$T/dec.log" 2>&1; then
    out=$("$T/dec")
    if [ "$out" = "v_add_f32_e32 v0, v1, v2" ]; then
        echo "ok: a decoder-only program links -lgcndecode alone and prints: $out"
    else
        echo "FAIL: the decoder-only program prints '$out'"; fail=1
    fi
else
    cat "$T/dec.log"; echo "FAIL: a decoder-only program does not link with -lgcndecode alone"; fail=1
fi
"$T/gcn_example" "$T/no-such.hsaco" > "$T/bad" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "no-such.hsaco" "$T/bad" || { cat "$T/bad"; echo "FAIL: a missing file: exit $rc (want 2 and its name)"; fail=1; }
${MAKE:-make} -s -C "$builddir" uninstall prefix="$prefix" > "$T/uninstall.log" 2>&1 ||
    { cat "$T/uninstall.log"; echo "FAIL: make uninstall"; fail=1; }
left=$(find "$prefix" -type f | sed "s|^$prefix/||")
[ -z "$left" ] || { echo "FAIL: make uninstall left:" $left; fail=1; }
[ $fail = 0 ] && echo "ok: installed, built and ran the example against the installed library, uninstalled"
exit $fail
