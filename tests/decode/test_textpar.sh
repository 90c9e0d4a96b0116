#!/usr/bin/env bash
# test_textpar.sh -- gcndis --llvm-text on several threads prints exactly
# what one thread prints.  Builds code objects from every kernel source in
# kernels/ (gfx942 and gfx950; their data, labels and several symbols make
# cut points land in every kind of place) and a 3,000-instruction mixed
# kernel from bench/bench_decode_gen.py, then runs test_textpar on them
# (which also checks raw streams cut at every dword), and gcndis itself
# with -j1 against -j2 and -j5 on the mixed kernel.  Then the same test
# built with clang-22 -fsanitize=thread (src/decode compiled in) on a few of
# the objects: ThreadSanitizer must find no data race; and built with
# -fsanitize=address,undefined: no memory error, undefined behaviour or leak
# (each skipped, with a note, where clang-22 cannot build it).
set -eu
. "$(dirname "$0")/test_codeobj_lib.sh"
co_skip_without_tools
co_workdir test_textpar
W=$WORK
objs=""
for src in $(find "$top_srcdir/kernels" "$top_srcdir/tests/decode/inputs" -name '*.s' | sort); do
    for t in gfx942 gfx950; do
        o=$W/$(basename "$src" .s).$t.hsaco
        "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu=$t "$src" -o "$o" 2>/dev/null ||
            continue
        objs="$objs $o"
    done
done
"$PYTHON3" "$top_srcdir/bench/bench_decode_gen.py" 3000 > "$W/mixed.s"
"$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx942 "$W/mixed.s" -o "$W/mixed.hsaco"
objs="$objs $W/mixed.hsaco"
[ "$(echo $objs | wc -w)" -ge 20 ] || { echo "FAIL: too few objects built: $objs"; exit 1; }
"$top_builddir/tests/decode/test_textpar" $objs
"$GCNDIS" --llvm-text -j1 "$W/mixed.hsaco" > "$W/j1.txt"
for j in 2 5; do
    "$GCNDIS" --llvm-text -j$j "$W/mixed.hsaco" > "$W/j$j.txt"
    cmp "$W/j1.txt" "$W/j$j.txt" || { echo "FAIL: gcndis -j$j differs from -j1"; exit 1; }
done
tsan=skipped
if "$CLANG22" -fsanitize=thread -x c - -o "$W/probe" <<< 'int main(void){return 0;}' 2>/dev/null &&
   flags=$(pkg-config --cflags --libs libelf libdw msgpack 2>/dev/null); then
    # shellcheck disable=SC2086
    "$CLANG22" -std=c17 -D_GNU_SOURCE -g -O1 -fsanitize=thread -I"$top_srcdir/src" \
        -I"$top_srcdir/src/decode" -I"$top_builddir" "$top_srcdir"/src/decode/*.c \
        "$top_srcdir/tests/decode/test_textpar.c" $flags -lcunit -lpthread -lm -o "$W/test_textpar_tsan"
    set -- $objs
    TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$W/test_textpar_tsan" "$W/mixed.hsaco" "$1" "$2" "$3" \
        > "$W/tsan.log" 2>&1 || { echo "FAIL: ThreadSanitizer:"; head -60 "$W/tsan.log"; exit 1; }
    tsan=clean
else
    echo "note: $CLANG22 cannot build with -fsanitize=thread here; the race check is skipped"
fi
asan=skipped
if "$CLANG22" -fsanitize=address,undefined -x c - -o "$W/probe" <<< 'int main(void){return 0;}' 2>/dev/null &&
   flags=$(pkg-config --cflags --libs libelf libdw msgpack 2>/dev/null); then
    # shellcheck disable=SC2086
    "$CLANG22" -std=c17 -D_GNU_SOURCE -g -O1 -fsanitize=address,undefined \
        -fno-sanitize-recover=undefined -I"$top_srcdir/src" -I"$top_srcdir/src/decode" \
        -I"$top_builddir" "$top_srcdir"/src/decode/*.c "$top_srcdir/tests/decode/test_textpar.c" \
        $flags -lcunit -lpthread -lm -o "$W/test_textpar_asan"
    set -- $objs
    ASAN_OPTIONS=detect_leaks=1 "$W/test_textpar_asan" "$W/mixed.hsaco" "$1" "$2" "$3" \
        > "$W/asan.log" 2>&1 || { echo "FAIL: AddressSanitizer/UBSan:"; head -60 "$W/asan.log"; exit 1; }
    asan=clean
else
    echo "note: $CLANG22 cannot build with -fsanitize=address here; that check is skipped"
fi
echo "PASS: $(echo $objs | wc -w) code objects and raw streams, one thread = many; ThreadSanitizer: $tsan; AddressSanitizer+UBSan: $asan"
