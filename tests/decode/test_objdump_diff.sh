#!/usr/bin/env bash
# test_objdump_diff.sh -- the acceptance test of gcndis --llvm-text: for every
# kernel source in kernels/ and tests/ (*.s, *.hip), built for gfx942 and for
# gfx950 where the source allows, the instruction text gcndis prints must be
# exactly what llvm-objdump-22 prints:
#   llvm-objdump-22 -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr
# instruction lines only (they start with a tab), the trailing
# "// address: bytes" comment and surrounding white space removed.
# Any differing line fails the test (the first few are shown).
# Set KEEP_WORK=1 to keep the built objects and both texts.
set -eu
. "$(dirname "$0")/test_codeobj_lib.sh"
co_skip_without_tools
co_workdir test_objdump_diff
W=$WORK

reference() {   # reference FILE: llvm-objdump's instruction lines
    "$LLVM_OBJDUMP" -d --disassemble-zeroes --no-show-raw-insn --no-leading-addr "$1" |
        grep "$(printf '^\t')" |
        sed -E 's#[[:space:]]*// [0-9A-Fa-f]+:.*$##; s/^[[:space:]]+//; s/[[:space:]]+$//'
}

build() {       # build SRC TARGET OUT: 0 when built
    case "$1" in
    *.hip) co_hip "$1" "$2" "$3" 2>/dev/null ;;
    *.s)
        "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu="$2" "$1" -o "$3" 2>/dev/null ||
            "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu="$2" -c "$1" -o "$3" 2>/dev/null
        ;;
    esac
}

sources=$(find "$top_srcdir/kernels" "$top_srcdir/tests" \( -name '*.work' -prune \) -o \
          -type f \( -name '*.s' -o -name '*.hip' \) -print 2>/dev/null | sort)
compared=0 failed=0 total_lines=0 total_diff=0
for src in $sources; do
    rel=${src#$top_srcdir/}
    built=0
    for t in gfx942 gfx950; do
        obj=$W/$(echo "$rel" | tr '/' '_').$t.o
        build "$src" $t "$obj" || continue
        built=1
        reference "$obj" > "$obj.ref"
        if ! "$GCNDIS" --llvm-text "$obj" > "$obj.ours" 2> "$obj.err"; then
            echo "FAIL: $rel ($t): gcndis failed: $(cat "$obj.err")"
            failed=$((failed + 1))
            continue
        fi
        compared=$((compared + 1))
        case "$rel" in
        tests/decode/inputs/labels_abs.s)   # the absolute symbol must sit on the label
            vals=$("$LLVM_READELF" -s "$obj" | awk '$8 == "loop" || $8 == "aaa_abs" {print $2}' | sort -u)
            if [ "$(echo "$vals" | wc -l)" != 1 ]; then
                echo "FAIL: $rel ($t): aaa_abs and loop no longer coincide ($vals): update its .set"
                failed=$((failed + 1))
            fi ;;
        esac
        n=$(wc -l < "$obj.ref")
        total_lines=$((total_lines + n))
        if ! cmp -s "$obj.ref" "$obj.ours"; then
            d=$(diff "$obj.ref" "$obj.ours" | grep -c '^[<>]' || true)
            total_diff=$((total_diff + d))
            echo "FAIL: $rel ($t): $d differing lines (reference $n lines, gcndis $(wc -l < "$obj.ours")):"
            diff "$obj.ref" "$obj.ours" | head -12 | sed 's/^/    /'
            failed=$((failed + 1))
        else
            echo "ok:   $rel ($t): $n lines identical"
        fi
    done
    [ $built = 1 ] || echo "note: $rel builds for neither gfx942 nor gfx950; skipped"
done
echo "compared $compared objects, $total_lines reference lines; $failed objects differ ($total_diff differing lines)"
[ $compared -gt 0 ] || { echo "FAIL: nothing compared"; exit 1; }
[ $failed = 0 ]
