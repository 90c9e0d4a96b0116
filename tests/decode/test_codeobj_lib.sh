# test_codeobj_lib.sh -- shared by the code-object tests (sourced, not run):
# finds the tools, makes a work directory, builds the test code objects from
# tests/decode/inputs/ with clang-22, and makes the corrupted ones.
# Callers set -eu themselves.

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
CLANG22=${CLANG22:-clang-22}
LLVM_OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump-22}
LLVM_READELF=${LLVM_READELF:-llvm-readelf-22}
BUNDLER=${BUNDLER:-clang-offload-bundler-22}
PYTHON3=${PYTHON3:-python3}
export LLVM_OBJDUMP LLVM_READELF
GCNDIS=$top_builddir/gcndis
INPUTS=$top_srcdir/tests/decode/inputs

co_skip_without_tools() {
    for t in "$CLANG22" "$LLVM_OBJDUMP" "$LLVM_READELF" "$PYTHON3"; do
        command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t not found"; exit 77; }
    done
    [ -x "$GCNDIS" ] || { echo "FAIL: $GCNDIS not built"; exit 1; }
}

# co_workdir NAME: a fresh directory under the build tree, removed on exit
# unless KEEP_WORK is set.
co_workdir() {
    WORK=$top_builddir/tests/decode/$1.work
    rm -rf "$WORK"
    mkdir -p "$WORK"
    [ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$WORK"' EXIT
}

co_asm() {   # co_asm SRC TARGET VERSION OUT
    "$CLANG22" -x assembler -target amdgcn-amd-amdhsa -mcpu="$2" -mcode-object-version="$3" \
        -g "$1" -o "$4"
}

co_hip() {   # co_hip SRC TARGET OUT [extra clang args...]
    local src=$1 t=$2 out=$3
    shift 3
    "$CLANG22" -x hip --offload-arch="$t" -nogpulib -nogpuinc --cuda-device-only \
        --no-gpu-bundle-output -O2 "$@" "$src" -o "$out"
}

co_bundle() {  # co_bundle SRC OUT: one offload bundle with gfx942 and gfx950
    "$CLANG22" -x hip --offload-arch=gfx942 --offload-arch=gfx950 -nogpulib -nogpuinc \
        --cuda-device-only -O2 "$1" -o "$2"
}

# co_build_all DIR: the good inputs (names listed in $GOOD) and $BUNDLE.
co_build_all() {
    local d=$1
    GOOD=""
    for t in gfx942 gfx950; do
        for v in 4 5 6; do
            co_asm "$INPUTS/co_asm.s" $t $v "$d/asm_${t}_v$v.hsaco"
            GOOD="$GOOD $d/asm_${t}_v$v.hsaco"
        done
        co_hip "$INPUTS/co_hip.hip" $t "$d/hip_${t}_v6.hsaco" -g
        co_hip "$INPUTS/co_hip.hip" $t "$d/hip_${t}_v5.hsaco" -mcode-object-version=5
        co_hip "$INPUTS/co_hip.hip" $t "$d/hip_${t}_preload.hsaco" \
            -mllvm -amdgpu-kernarg-preload-count=4
        GOOD="$GOOD $d/hip_${t}_v6.hsaco $d/hip_${t}_v5.hsaco $d/hip_${t}_preload.hsaco"
    done
    BUNDLE=$d/hip.bundle
    co_bundle "$INPUTS/co_hip.hip" "$BUNDLE"
}

# co_make_bad SRC DIR: corrupted variants of the good code object SRC and of
# the bundle $BUNDLE; sets BAD to "file:word ..." (word: what the message
# must say).
co_make_bad() {
    local src=$1 d=$2
    "$PYTHON3" - "$src" "$d" "${BUNDLE:-}" <<'PY'
import struct, sys
src, d, bundle = sys.argv[1], sys.argv[2], sys.argv[3]
data = bytearray(open(src, "rb").read())

def put(name, b):
    open(d + "/" + name, "wb").write(bytes(b))

def sections(b):
    shoff, = struct.unpack_from("<Q", b, 40)
    shnum, shstrndx = struct.unpack_from("<HH", b, 60)
    secs = []
    for i in range(shnum):
        secs.append(list(struct.unpack_from("<IIQQQQIIQQ", b, shoff + 64 * i)))
    stro = secs[shstrndx][4]
    out = {}
    for i, s in enumerate(secs):
        n = b[stro + s[0]:b.index(0, stro + s[0])].decode()
        out.setdefault(n, (i, s, shoff + 64 * i))
    return out

S = sections(data)
put("truncated.hsaco", data[:len(data) // 2])
b = bytearray(data); b[18:20] = struct.pack("<H", 62); put("wrong_machine.hsaco", b)
b = bytearray(data); b[7] = 0; put("wrong_osabi.hsaco", b)
b = bytearray(data); b[48] = 0x3f; put("gfx90a_flags.hsaco", b)
b = bytearray(data); b[40:48] = struct.pack("<Q", len(data) + 4096); put("bad_shoff.hsaco", b)
# The metadata note: its desc (after the 12-byte header and the padded
# "AMDGPU\0" owner) starts with a msgpack map; 0xc1 is never valid msgpack.
i, s, _ = S[".note"]
b = bytearray(data); b[s[4] + 12 + 8] = 0xc1; put("bad_note.hsaco", b)
# A map claiming 2^32-1 entries in a few bytes must not make anyone allocate.
b = bytearray(data); b[s[4] + 12 + 8] = 0xdf; b[s[4] + 12 + 9:s[4] + 12 + 13] = b"\xff\xff\xff\xff"
put("bad_note_count.hsaco", b)
# Kernel descriptors: symbols NAME.kd in .symtab/.dynsym.
def kd_syms(b):
    res = []
    for tab in (".symtab", ".dynsym"):
        if tab not in S: continue
        _, st, _ = S[tab]
        stro = sections(b)[".strtab" if tab == ".symtab" else ".dynstr"][1][4]
        for k in range(st[5] // 24):
            off = st[4] + 24 * k
            name_o, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", b, off)
            n = b[stro + name_o:b.index(0, stro + name_o)].decode()
            if n.endswith(".kd"):
                res.append((off, shndx, value, size))
    return res
ks = kd_syms(data)
_, shndx, value, _ = ks[0]
sec = [v for v in S.values() if v[0] == shndx][0][1]
kdoff = sec[4] + (value - sec[3])
b = bytearray(data); b[kdoff + 16:kdoff + 24] = struct.pack("<q", 0x7fff0000); put("bad_kd_entry.hsaco", b)
b = bytearray(data)
for off, _, _, _ in ks: b[off + 16:off + 24] = struct.pack("<Q", 32)
put("bad_kd_size.hsaco", b)
put("empty.hsaco", b"")
put("text.hsaco", b"this is not a code object\n")
if bundle:
    bb = bytearray(open(bundle, "rb").read())
    n, = struct.unpack_from("<Q", bb, 24)
    # entry 1: offset at 32 + 24 + len(triple 0) ...; make every entry's size huge
    p = 32
    for k in range(n):
        off, size, tl = struct.unpack_from("<QQQ", bb, p)
        struct.pack_into("<Q", bb, p + 8, len(bb) * 4)
        p += 24 + tl
    put("bad_bundle.bundle", bb)
    put("short_bundle.bundle", bb[:40])
PY
    BAD="$d/truncated.hsaco:truncated $d/wrong_machine.hsaco:e_machine
         $d/wrong_osabi.hsaco:ABI $d/gfx90a_flags.hsaco:gfx90a $d/bad_shoff.hsaco:section
         $d/bad_note.hsaco:NT_AMDGPU_METADATA $d/bad_note_count.hsaco:NT_AMDGPU_METADATA
         $d/bad_kd_entry.hsaco:kernel_code_entry_byte_offset $d/bad_kd_size.hsaco:size
         $d/empty.hsaco:empty $d/text.hsaco:ELF $d/nonexistent.hsaco:open $d:directory"
    [ -z "${BUNDLE:-}" ] || BAD="$BAD $d/bad_bundle.bundle:bundle $d/short_bundle.bundle:bundle"
    # Real objects for other machines/targets, where the tools exist.
    printf 'int f(int x) { return x + 1; }\n' > "$d/host.c"
    if "$CLANG22" -c "$d/host.c" -o "$d/host_x86.o" 2>/dev/null; then
        BAD="$BAD $d/host_x86.o:e_machine"
    fi
    if co_asm "$INPUTS/co_asm.s" gfx90a 5 "$d/real_gfx90a.hsaco" 2>/dev/null; then
        BAD="$BAD $d/real_gfx90a.hsaco:gfx90a"
    fi
    return 0
}
