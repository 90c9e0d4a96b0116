#!/bin/sh
# test_args.sh -- gcnsim on a compiled kernel given without its arguments (issue 18, "the
# first command a user types"): the error lists the arguments from the code object's
# metadata (checked against llvm-readelf's view of the same metadata), --list-args,
# --list-kernels and the kernels a multi-kernel object names, --manifest-template (the
# skeleton loads as written, and once its sizes and scalars are filled it computes the
# right values: every argument, the by-value struct and the 64-bit scalar included, lands
# where the kernel reads it), --default-args (runs on stated defaults, announced).  The
# kernels are tests/sim/args/argkinds.hip (HIP, gfx942: pointers, int, float, u64, a
# struct, hidden arguments) and clkinds.cl (OpenCL C with -cl-kernel-arg-info, gfx950:
# names, type names, const, a local pointer; two kernels), compiled here with clang-22.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
gcnsim=${GCNSIM:-$builddir/gcnsim}
clang=${CLANG22:-clang-22}
readelf=${LLVM_READELF:-llvm-readelf-22}
py=${PYTHON3:-python3}
[ -x "$gcnsim" ] || { echo "gcnsim not built: skipped"; exit 77; }
command -v "$clang" >/dev/null 2>&1 || { echo "no $clang (HIP/OpenCL compiler): skipped"; exit 77; }
command -v "$py" >/dev/null 2>&1 || { echo "no python3: skipped"; exit 77; }
T=$(mktemp -d /tmp/gcnsim-args-XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }

A=$srcdir/tests/sim/args
"$clang" -x hip --offload-arch=gfx942 -nogpulib -nogpuinc --cuda-device-only \
    --no-gpu-bundle-output -O2 -mcode-object-version=5 -I"$srcdir/kernels/hip" \
    "$A/argkinds.hip" -o "$T/argkinds.hsaco" || { bad "compiling argkinds.hip"; exit 1; }
"$clang" -x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx950 \
    -nogpulib -O2 -mcode-object-version=5 "$A/clkinds.cl" -o "$T/clkinds.hsaco" ||
    { bad "compiling clkinds.cl"; exit 1; }

# expect RC PATTERN CMD... -- the exit code, and PATTERN (grep -E) in stdout+stderr
expect() {
    want=$1 pat=$2
    shift 2
    "$@" > "$T/out" 2>&1
    rc=$?
    if [ $rc -ne "$want" ]; then
        bad "exit $rc (expected $want): $*"; sed 's/^/    /' "$T/out" | head -30
    elif [ -n "$pat" ] && ! grep -Eq -- "$pat" "$T/out"; then
        bad "no /$pat/ in the output of: $*"; sed 's/^/    /' "$T/out" | head -30
    else
        ok "$want /$pat/: $(echo "$*" | sed "s|$T/||g; s|$gcnsim|gcnsim|")"
    fi
}
absent() {      # absent PATTERN -- not in the last output
    if grep -Eq -- "$1" "$T/out"; then bad "/$1/ in the output"; sed 's/^/    /' "$T/out" | head -20
    else ok "no /$1/"; fi
}

cd "$T"
# ---- the first command: no arguments given --------------------------------------------------
expect 2 "argkinds.hsaco: kernel argkinds has 6 explicit arguments, the command line \(--arg\) gives 0:" \
    "$gcnsim" argkinds.hsaco
absent "the manifest"
cp out first.txt
for row in "0 +0x0 +8 +global_buffer .* buffer +global pointer, read_only" \
           "1 +0x8 +8 +global_buffer .* buffer +global pointer$" \
           "2 +0x10 +4 +by_value .* u32 +scalar" "3 +0x14 +4 +by_value .* u32 +scalar" \
           "4 +0x18 +8 +by_value .* u64 +scalar" "5 +0x20 +16 +by_value .* bytes +by value \(a struct\)" \
           "- +0x30 +4 +hidden_block_count_x .*hidden: workgroups in the grid" \
           "- +0x3c +2 +hidden_group_size_x .*hidden: work-items per workgroup" \
           "--default-args" "--manifest-template"; do
    grep -Eq -- "$row" first.txt && ok "the error lists /$row/" || { bad "no /$row/ in the error"; cat first.txt; }
done
# the table's offsets and sizes are the metadata's (llvm-readelf's reading of the same note)
if command -v "$readelf" >/dev/null 2>&1; then
    for f in argkinds clkinds; do
        "$readelf" --notes "$f.hsaco" > notes.txt
        "$gcnsim" --list-args "$f.hsaco" > table.txt
        $py - notes.txt table.txt "$f" <<'EOF' && ok "$f: every argument's offset, size and value kind as llvm-readelf shows them" || bad "$f: the table differs from llvm-readelf"
import re, sys
notes, table, k = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
# the args of kernel k in the YAML note: each "- " item up to the kernel's other keys
want = []
kern = re.split(r"\n  - ", notes[notes.index("amdhsa.kernels:"):])
for kb in kern:
    if re.search(r"\.name:\s+%s\n" % k, kb):
        args = kb[kb.index(".args:"):]
        args = args[:re.search(r"\n    \.[a-z_]+:", args).start()] if re.search(r"\n    \.[a-z_]+:", args) else args
        for item in re.split(r"\n      - ", args)[1:]:
            d = dict(re.findall(r"\.(\w+):\s+(\S+)", item))
            want.append((int(d["offset"]), int(d["size"]), d["value_kind"]))
got = []
mine = False
for line in table.splitlines():
    if line.startswith("kernel "):
        mine = line.startswith("kernel %s:" % k)
    m = mine and re.match(r"\s+(\d+|-)\s+0x([0-9a-f]+)\s+(\d+)\s+(\S+)", line)
    if m:
        got.append((int(m.group(2), 16), int(m.group(3)), m.group(4)))
if not want or got != want:
    print("want", want, "\ngot ", got)
    sys.exit(1)
EOF
    done
else
    echo "skip: no $readelf, the table is not compared with it"
fi

# ---- --list-args with names, types, const, a local pointer --------------------------------
expect 0 "kernel clkinds: 7 explicit arguments" "$gcnsim" --list-args --kernel clkinds clkinds.hsaco
for row in "0 +0x0 +8 +global_buffer +x +buffer +global pointer, float\*, const, read_only" \
           "2 +0x10 +4 +dynamic_shared_pointer +tmp +u32 +local pointer, float\*, an offset into LDS" \
           "3 +0x14 +4 +by_value +n +i32 +scalar, int" "4 +0x18 +4 +by_value +a +f32 +scalar, float" \
           "5 +0x20 +8 +by_value +count +u64 +scalar, ulong" "6 +0x28 +16 +by_value +p +bytes +by value \(a struct\), params"; do
    grep -Eq -- "$row" out && ok "--list-args: /$row/" || { bad "no /$row/ in --list-args"; cat out; }
done
absent "clsecond"

# ---- several kernels: named, and how to pick one -----------------------------------------------
expect 2 "clkinds.hsaco has 2 kernels: clkinds, clsecond; pick one with --kernel NAME" "$gcnsim" clkinds.hsaco
expect 2 "no kernel named nope; it has 2 kernels: clkinds, clsecond" "$gcnsim" --kernel nope clkinds.hsaco
"$gcnsim" --list-kernels clkinds.hsaco > kl.txt 2>&1
[ "$(cat kl.txt)" = "clkinds
clsecond" ] && ok "--list-kernels: one name per line" || { bad "--list-kernels"; cat kl.txt; }
expect 2 "has 2 kernels: clkinds, clsecond" "$gcnsim" --manifest-template clkinds.hsaco

# ---- --manifest-template: loads as written; filled, it computes the right values -----------
expect 0 "" "$gcnsim" --manifest-template=argkinds.json argkinds.hsaco
expect 0 "argkinds on gfx942: grid 1x1x1, block 64x1x1" "$gcnsim" --manifest argkinds.json
"$gcnsim" --manifest-template --kernel clkinds clkinds.hsaco > clkinds.json 2> tmpl.err
[ $? = 0 ] && [ ! -s tmpl.err ] && ok "--manifest-template to stdout" || { bad "--manifest-template to stdout"; cat tmpl.err; }
expect 0 "clkinds on gfx950: grid 1x1x1, block 64x1x1" "$gcnsim" --manifest clkinds.json
grep -q '"dynamic_lds": 1024' clkinds.json && grep -q '{"bytes": \[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0\]}' clkinds.json &&
    grep -q '"outputs": \["y"\]' clkinds.json && grep -q '"x": {"size": "N\*4", "init": "zero"}' clkinds.json &&
    ok "the template: buffers of N elements, struct bytes, LDS, outputs the non-const buffers" ||
    { bad "the template's content"; cat clkinds.json; }
mkdir sub
expect 0 "" "$gcnsim" --manifest-template=sub/t.json argkinds.hsaco
grep -q "\"code\": \"$T/argkinds.hsaco\"\|\"code\": \"/.*/argkinds.hsaco\"" sub/t.json &&
    ok "a template written elsewhere names the code by its absolute path" || { bad "sub/t.json code path"; head -4 sub/t.json; }
expect 0 "argkinds on gfx942" "$gcnsim" --manifest sub/t.json
expect 2 "cannot create|No such file" "$gcnsim" --manifest-template=nodir/t.json argkinds.hsaco
# fill: x random, n = N, a = 2, count = N/2 (only the first half is written), the struct
# {n = 1, scale = 1.0f, bias = 0.5}: y[i] = 2*x[i]*1 + 0.5f + 1.0f for i < N/2, else 0
for f in argkinds clkinds; do
    $py - "$f.json" <<'EOF'
import json, struct, sys
m = json.load(open(sys.argv[1]))
m["params"]["N"] = 256
m["grid"] = ["N/64", 1, 1]
inb = [b for b in m["buffers"] if b not in m["outputs"]][0]
m["buffers"][inb]["init"] = {"random": "f32", "seed": 3}
a = m["args"]
scal = [i for i, x in enumerate(a) if "buffer" not in x]
if m["kernel"] == "clkinds":
    scal = scal[1:]                       # the first is the LDS pointer
n_i, a_i, c_i, p_i = scal
a[n_i] = {list(a[n_i])[0]: "N"}
a[a_i] = {"f32": 2.0}
a[c_i] = {"u64": "N/2"}
a[p_i] = {"bytes": list(struct.pack("<ifd", 1, 1.0, 0.5))}
json.dump(m, open(sys.argv[1], "w"), indent=1)
EOF
    out=$($py -c "import json; print(json.load(open('$f.json'))['outputs'][0])")
    inb=$($py -c "import json; m=json.load(open('$f.json')); print([b for b in m['buffers'] if b != '$out'][0])")
    expect 0 "$f on gfx9[45][02]: grid 4x1x1" "$gcnsim" --manifest "$f.json" --dump-dir "d_$f" --dump-inputs
    $py - "d_$f/$inb.in.bin" "d_$f/$out.bin" <<'EOF' && ok "$f: filled template, y = a*x*p.scale + p.bias + p.n for i < count, 0 after" || bad "$f: wrong values"
import struct, sys
x = struct.unpack("<256f", open(sys.argv[1], "rb").read())
y = struct.unpack("<256f", open(sys.argv[2], "rb").read())
f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
want = [f32(f32(2.0 * x[i] + 0.5) + 1.0) if i < 128 else 0.0 for i in range(256)]
bad = [i for i in range(256) if y[i] != want[i]]
if bad:
    print("first difference at", bad[0], y[bad[0]], "want", want[bad[0]]); sys.exit(1)
EOF
done

# ---- --default-args ----------------------------------------------------------------------
expect 0 "--default-args: argkinds runs on stated defaults, not real data: grid 1x1x1, block 64x1x1; arguments: #0 = buffer arg0 \(65536 bytes, zero\); #1 = buffer arg1 \(65536 bytes, zero\); #2 = 1; #3 = 1; #4 = 1; #5 = 16 zero bytes" \
    "$gcnsim" --default-args argkinds.hsaco
expect 0 "x = buffer x \(4096 bytes, random\); y = buffer y \(4096 bytes, random\); tmp = 0; n = 64; a = 64; count = 64; p = 16 zero bytes" \
    "$gcnsim" --default-args=random --default-buffer-size 4096 --default-scalar 64 --kernel clkinds \
    --dump-dir dd --dump-inputs clkinds.hsaco
[ "$(wc -c < dd/x.in.bin)" = 4096 ] && [ "$(od -An -tx1 dd/x.in.bin | tr -d ' 0\n' | wc -c)" -gt 0 ] &&
    grep -q '"kind": "i32"' dd/run.json && grep -q '"value": 64' dd/run.json &&
    ok "--default-args=random: 4096-byte random buffers, scalars 64 (dump, run.json)" || bad "--default-args dump"
"$gcnsim" --default-args --trace=fifo argkinds.hsaco > trace.txt 2> trace.err
[ $? = 0 ] && grep -q "global_load_dword\|global_store_dword" trace.txt && grep -q "stated defaults" trace.err &&
    ok "--default-args --trace=fifo: a FIFO trace without real data" || { bad "--default-args trace"; head -5 trace.err; }
expect 1 "expected zero or random" "$gcnsim" --default-args=ones argkinds.hsaco
expect 1 "takes no --buffer or --arg" "$gcnsim" --default-args --arg u32:1 argkinds.hsaco
expect 1 "expected 1 to 4294967296 bytes" "$gcnsim" --default-args --default-buffer-size 0 argkinds.hsaco
expect 1 "describe a dispatch without a manifest" "$gcnsim" --default-args --manifest argkinds.json

# ---- the wording with a manifest -------------------------------------------------------------
$py -c "import json; m=json.load(open('argkinds.json')); m['args']=m['args'][:2]; json.dump(m, open('short.json','w'))"
expect 2 "short.json: kernel argkinds has 6 explicit arguments, the manifest gives 2:" "$gcnsim" --manifest short.json
absent "command line"
expect 2 "give them with --arg|manifest-template" "$gcnsim" --manifest short.json

echo "$fails failure(s)"
[ $fails -eq 0 ]
