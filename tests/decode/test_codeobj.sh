#!/usr/bin/env bash
# test_codeobj.sh -- the code-object reader and gcndis's code-object modes,
# checked against LLVM 22's own tools:
#  1. builds code objects from tests/decode/inputs/ with clang-22 (assembly as
#     code object v4/v5/v6 with -g, HIP as v5/v6 and with kernarg preload, both
#     gfx942 and gfx950, and an offload bundle with both);
#  2. writes the oracle's view of each (test_codeobj_oracle.py: llvm-readelf-22,
#     llvm-objdump-22) and runs the CUnit test test_codeobj over them, which
#     also feeds it every truncation and thousands of corruptions in memory;
#  3. checks gcndis on the command line: listings, --llvm-text line counts,
#     --bundle-list/--bundle-extract against clang-offload-bundler-22, and
#     that corrupt inputs give exit 2, a message naming the file, no output
#     file.
set -eu
. "$(dirname "$0")/test_codeobj_lib.sh"
co_skip_without_tools
co_workdir test_codeobj
W=$WORK
fail=0
bad() { echo "FAIL: $*"; fail=1; }

co_build_all "$W"
co_make_bad "$W/asm_gfx942_v5.hsaco" "$W"

# ---- 2. oracle + CUnit ----------------------------------------------------
M=$W/manifest
: > "$M"
for f in $GOOD; do
    "$PYTHON3" "$top_srcdir/tests/decode/test_codeobj_oracle.py" "$f" > "$f.expect"
    echo "good $f $f.expect" >> "$M"
done
if command -v "$BUNDLER" >/dev/null 2>&1; then
    for t in gfx942 gfx950; do
        "$BUNDLER" --unbundle --type=o --targets=hipv4-amdgcn-amd-amdhsa--$t \
            --input="$BUNDLE" --output="$W/bundle_$t.hsaco"
        "$PYTHON3" "$top_srcdir/tests/decode/test_codeobj_oracle.py" "$W/bundle_$t.hsaco" \
            > "$W/bundle_$t.expect"
        echo "bundle $BUNDLE $t $W/bundle_$t.expect" >> "$M"
    done
else
    echo "note: $BUNDLER not found; bundle entries not checked against it"
fi
for b in $BAD; do
    echo "bad ${b%%:*} ${b##*:}" >> "$M"
done
"$top_builddir/tests/decode/test_codeobj" "$M" || bad "CUnit test_codeobj"

# ---- 3. the gcndis command ------------------------------------------------
for f in $GOOD "$BUNDLE"; do
    "$GCNDIS" "$f" > "$W/out.txt" 2> "$W/err.txt" || bad "gcndis $f: exit $?"
    grep -q '^kernel saxpy\|^kernel copy_lds' "$W/out.txt" || bad "gcndis $f: no kernel listed"
    # One output line per instruction the reference prints (real text once
    # the decoders land; until then invalid words are one .long each, so
    # only the count of words is comparable: see test_objdump_diff.sh).
    "$GCNDIS" --llvm-text "$f" > "$W/llvm.txt" 2> "$W/err.txt" || bad "gcndis --llvm-text $f"
    [ -s "$W/llvm.txt" ] || bad "gcndis --llvm-text $f: empty output"
    grep -qv '^\(\.long 0x[0-9a-f]\{8\}\|\.byte .*\|[a-z_0-9].*\)$' "$W/llvm.txt" &&
        bad "gcndis --llvm-text $f: a line that is no instruction"
    # -o writes the same atomically.
    "$GCNDIS" --llvm-text -o "$W/llvm_o.txt" "$f" 2>/dev/null || bad "gcndis -o $f"
    cmp -s "$W/llvm.txt" "$W/llvm_o.txt" || bad "gcndis -o $f differs from stdout"
done
# Line info in the listing of an assembled kernel: file:line of the .s.
"$GCNDIS" "$W/asm_gfx950_v5.hsaco" > "$W/out.txt"
grep -q 'co_asm\.s:[0-9]' "$W/out.txt" || bad "listing has no co_asm.s:LINE"
"$GCNDIS" --kernel=tiny "$W/asm_gfx950_v5.hsaco" > "$W/out.txt"
grep -q '^kernel tiny' "$W/out.txt" && ! grep -q '^kernel copy_lds' "$W/out.txt" ||
    bad "--kernel=tiny"
set +e
"$GCNDIS" --kernel=nosuch "$W/asm_gfx950_v5.hsaco" > /dev/null 2>&1; [ $? = 1 ] || bad "--kernel=nosuch exit"
"$GCNDIS" > /dev/null 2>&1; [ $? = 1 ] || bad "no argument: exit not 1"
"$GCNDIS" --bogus x > /dev/null 2>&1; [ $? = 1 ] || bad "bad option: exit not 1"
"$GCNDIS" --bundle-extract=0 "$BUNDLE" > /dev/null 2>&1; [ $? = 1 ] || bad "extract without -o: exit not 1"
set -e

# Bundles: entries as clang-offload-bundler-22 lists and extracts them.
"$GCNDIS" --bundle-list "$BUNDLE" > "$W/list.txt" || bad "--bundle-list"
if command -v "$BUNDLER" >/dev/null 2>&1; then
    cut -f4 "$W/list.txt" | sort > "$W/ours.txt"
    "$BUNDLER" --list --type=o --input="$BUNDLE" | sort > "$W/theirs.txt"
    cmp -s "$W/ours.txt" "$W/theirs.txt" || bad "--bundle-list triples differ from $BUNDLER --list"
    while IFS="$(printf '\t')" read -r idx off size triple; do
        [ "$size" -gt 0 ] || continue
        "$GCNDIS" --bundle-extract="$triple" -o "$W/x_ours" "$BUNDLE" || bad "extract $triple"
        "$BUNDLER" --unbundle --type=o --targets="$triple" --input="$BUNDLE" --output="$W/x_theirs"
        cmp -s "$W/x_ours" "$W/x_theirs" || bad "--bundle-extract=$triple differs from $BUNDLER"
        "$GCNDIS" --bundle-extract="$idx" -o "$W/x_idx" "$BUNDLE" && cmp -s "$W/x_idx" "$W/x_ours" ||
            bad "--bundle-extract=$idx"
    done < "$W/list.txt"
fi
for t in gfx942 gfx950; do
    "$GCNDIS" --offload-arch=$t "$BUNDLE" 2>/dev/null | head -1 | grep -q "$t" ||
        bad "--offload-arch=$t"
done

# Corrupt inputs: exit 2, the file named on stderr, nothing on stdout, no
# output file (and no temporary left behind).
for b in $BAD; do
    f=${b%%:*}
    for mode in "" --llvm-text; do
        rm -f "$W/o.txt"
        set +e
        "$GCNDIS" $mode -o "$W/o.txt" "$f" > "$W/out.txt" 2> "$W/err.txt"
        rc=$?
        set -e
        [ "$rc" = 2 ] || bad "gcndis $mode $f: exit $rc, expected 2"
        grep -qF "$f" "$W/err.txt" || bad "gcndis $mode $f: message does not name the file: $(cat "$W/err.txt")"
        [ ! -s "$W/out.txt" ] || bad "gcndis $mode $f: wrote to stdout"
        [ ! -e "$W/o.txt" ] || bad "gcndis $mode $f: left an output file"
        ls "$W"/o.txt.tmp* > /dev/null 2>&1 && bad "gcndis $mode $f: left a temporary file"
    done
done
set +e
"$GCNDIS" --bundle-list "$W/asm_gfx942_v5.hsaco" > /dev/null 2>&1; [ $? = 2 ] || bad "--bundle-list on a non-bundle: exit not 2"
"$GCNDIS" --bundle-list "$W/bad_bundle.bundle" > /dev/null 2>&1; [ $? = 2 ] || bad "--bundle-list on a bad bundle: exit not 2"
"$GCNDIS" --bundle-extract=gfx1100 -o "$W/x" "$BUNDLE" > /dev/null 2>&1; [ $? = 2 ] || bad "--bundle-extract of an absent entry: exit not 2"
[ ! -e "$W/x" ] || bad "--bundle-extract of an absent entry left a file"
set -e

[ $fail = 0 ] && echo "PASS: test_codeobj.sh"
exit $fail
