#!/usr/bin/env bash
# build.sh -- build every libFuzzer target and sanitized copies of the tools into one folder
# that can be carried to another Linux x86-64 host and run there (tests/fuzz/fuzz_all.sh):
#   tests/fuzz/build.sh [OUT]          default: $top_builddir/tests/fuzz/san
#   make fuzz-build [FUZZ_OUT=OUT]
# OUT/fuzz_codeobj, fuzz_rawdis, fuzz_textpar, fuzz_manifest, fuzz_kernarg, fuzz_lint, fuzz_sim (+ its template kernels
#   fuzz_sim_gfx942.hsaco, fuzz_sim_gfx950.hsaco from tests/fuzz/sim_template.s): clang-22
#   -fsanitize=fuzzer,address,undefined,float-cast-overflow -fno-sanitize-recover=all
# OUT/gcnsim, gcnlint, gcndis, gcnrun_nohip: the same library, no fuzzer (for the tests)
# OUT/lib/: the shared libraries they need beyond glibc (RUNPATH $ORIGIN/lib)
# OUT/corpus/TARGET/: the committed seeds; OUT/fuzz_all.sh: the runner
# Objects are kept in OUT/obj and rebuilt only when a source or header is newer.
# Exit 77 (and why) when clang-22 cannot build with libFuzzer.
set -eu
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
CLANG22=${CLANG22:-clang-22}
out=${1:-$top_builddir/tests/fuzz/san}
jobs=${FUZZ_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$out/obj" "$out/lib" "$out/corpus"
out=$(cd "$out" && pwd)
# one build at a time in a folder (make -j check runs several users)
exec 9>"$out/.lock"
flock 9

command -v "$CLANG22" >/dev/null 2>&1 || { echo "SKIP: $CLANG22 not found"; exit 77; }
SAN="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all"
probe=$out/obj/probe.c
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' > "$probe"
# shellcheck disable=SC2086
if ! "$CLANG22" -fsanitize=fuzzer $SAN "$probe" -o "$out/obj/probe" 2> "$out/obj/probe.err"; then
    echo "SKIP: $CLANG22 cannot link -fsanitize=fuzzer $SAN (no libFuzzer runtime?):"
    sed 's/^/    /' "$out/obj/probe.err" | head -5
    exit 77
fi
pkgs="libelf libdw msgpack jansson"
cflags=$(pkg-config --cflags $pkgs) || { echo "SKIP: pkg-config cannot find $pkgs"; exit 77; }
libs=$(pkg-config --libs $pkgs)
[ -f "$top_builddir/config.h" ] || { echo "SKIP: no config.h in $top_builddir (run configure)"; exit 77; }

CFLAGS="-std=c17 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -I$top_srcdir/src -I$top_srcdir/src/decode \
-I$top_srcdir/src/analyze -I$top_builddir $cflags"

# ---- the library, instrumented for the fuzzer
srcs=$(ls "$top_srcdir"/src/decode/*.c "$top_srcdir"/src/sim/*.c "$top_srcdir"/src/analyze/*.c \
       "$top_srcdir"/src/run/run.c "$top_srcdir"/src/run/dev_sim.c "$top_srcdir"/src/run/compare.c)
newest_h=$(ls -t "$top_srcdir"/src/*/*.h "$top_srcdir"/src/decode/isa/*.def "$top_srcdir"/src/analyze/*.def \
           "$top_builddir/config.h" "$0" 2>/dev/null | head -1)
objs=()
todo=()
for s in $srcs; do
    rel=${s#"$top_srcdir"/src/}
    o=$out/obj/${rel//\//_}
    o=${o%.c}.o
    objs+=("$o")
    if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$newest_h" -nt "$o" ]; then
        todo+=("$s:$o")
    fi
done
# libFuzzer's comparison tracing (trace-cmp: every integer comparison and switch reports its
# operands, which mutations then write into inputs) only where external bytes and text are
# read: the code-object reader, the manifest and kernarg parsers, run.json.  In the decoder's
# tables and printers, the analyses and the simulator the comparisons are of derived values
# (register numbers, states, counts); there the tracing was a third to a half of each run
# (fuzz_lint: 56%) and, measured over 40 s from the seeds, brought no coverage the faster
# runs did not reach (docs/reliability.md).  Edge coverage is unchanged everywhere.
cmp_flags() {
    case ${1#"$top_srcdir"/src/} in
        decode/codeobj.c|decode/bundle.c|decode/dwarf.c|sim/manifest.c|sim/kernarg.c|sim/argtmpl.c|run/run.c) ;;
        *) echo "-fno-sanitize-coverage=trace-cmp" ;;
    esac
}
compile() {
    # shellcheck disable=SC2086
    "$CLANG22" $CFLAGS $SAN -fsanitize=fuzzer-no-link $(cmp_flags "${1%%:*}") -c "${1%%:*}" \
        -o "${1#*:}.tmp" && mv "${1#*:}.tmp" "${1#*:}"
}
if [ ${#todo[@]} -gt 0 ]; then
    echo "compiling ${#todo[@]} library sources with $CLANG22 ($jobs jobs)"
    running=0
    fail=0
    for t in "${todo[@]}"; do
        compile "$t" &
        running=$((running + 1))
        if [ $running -ge "$jobs" ]; then
            wait -n || fail=1
            running=$((running - 1))
        fi
    done
    while [ $running -gt 0 ]; do
        wait -n || fail=1
        running=$((running - 1))
    done
    [ $fail = 0 ] || { echo "FAIL: compiling the library"; exit 1; }
    rm -f "$out/obj/libgcn_san.a"
fi
lib=$out/obj/libgcn_san.a
[ -f "$lib" ] || ar rcs "$lib" "${objs[@]}"

# ---- programs: relink when the library or their source is newer
link() {   # link OUT MODE SRC... (MODE fuzzer or tool)
    dst=$1 mode=$2
    shift 2
    stale=0
    [ -f "$dst" ] && [ ! "$lib" -nt "$dst" ] || stale=1
    for s in "$@"; do [ "$s" -nt "$dst" ] && stale=1; done
    [ "$mode" = fuzzer ] && [ "$top_srcdir/tests/fuzz/fuzz_json.h" -nt "$dst" ] && stale=1
    [ "$mode" = fuzzer ] && [ "$top_srcdir/tests/fuzz/fuzz_text.h" -nt "$dst" ] && stale=1
    [ "$mode" = fuzzer ] && [ "$top_srcdir/tests/fuzz/fuzz_jr.h" -nt "$dst" ] && stale=1
    [ $stale = 1 ] || return 0
    san=$SAN
    [ "$mode" = fuzzer ] && san="-fsanitize=fuzzer $SAN"
    # shellcheck disable=SC2086
    "$CLANG22" $CFLAGS $san -DGCN_CLANG="\"$CLANG22\"" "$@" "$lib" $libs -lm -lpthread \
        -Wl,-rpath,'$ORIGIN/lib' -o "$dst.tmp"
    mv "$dst.tmp" "$dst"
    echo "built $dst"
}
for t in codeobj rawdis textpar manifest kernarg lint sim; do
    link "$out/fuzz_$t" fuzzer "$top_srcdir/tests/fuzz/fuzz_$t.c"
done
# fuzz_sim's template kernel, for both targets, beside it
for t in gfx942 gfx950; do
    if [ ! -f "$out/fuzz_sim_$t.hsaco" ] || [ "$top_srcdir/tests/fuzz/sim_template.s" -nt "$out/fuzz_sim_$t.hsaco" ]; then
        "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu=$t \
            "$top_srcdir/tests/fuzz/sim_template.s" -o "$out/fuzz_sim_$t.hsaco"
    fi
done
link "$out/gcnsim" tool "$top_srcdir/src/tools/gcnsim.c"
link "$out/gcnlint" tool "$top_srcdir/src/tools/gcnlint.c"
link "$out/gcndis" tool "$top_srcdir/src/tools/gcndis.c"
link "$out/gcnrun_nohip" tool "$top_srcdir/src/tools/gcnrun.c" "$top_srcdir/src/run/dev_nohip.c"

# ---- what travels with them: libraries beyond glibc, seeds, the runner
ldd "$out/fuzz_lint" "$out/gcnsim" 2>/dev/null | awk '/=> \// {print $1, $3}' | sort -u |
while read -r name path; do
    case $name in
        libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libresolv.so*) ;;
        *) [ -f "$out/lib/$name" ] || cp -L "$path" "$out/lib/$name" ;;
    esac
done
for t in codeobj rawdis textpar manifest kernarg lint sim; do
    src=$top_srcdir/tests/fuzz/corpus_$t
    [ $t = codeobj ] && src=$top_srcdir/tests/fuzz/corpus
    mkdir -p "$out/corpus/$t"
    cp -p "$src"/* "$out/corpus/$t/" 2>/dev/null || true
done
cp -p "$top_srcdir/tests/fuzz/fuzz_all.sh" "$out/fuzz_all.sh"
cp -p "$top_srcdir/tests/fuzz/throughput.sh" "$out/throughput.sh"
echo "ready: $out (fuzz_codeobj fuzz_rawdis fuzz_textpar fuzz_manifest fuzz_kernarg fuzz_lint fuzz_sim;"
echo "       run $out/fuzz_all.sh, or $out/throughput.sh for executions per second)"
