#!/usr/bin/python3
"""kernels.py -- test driver for the bundled kernels in kernels/ (python3 stdlib only).

Subcommands:
  list     [--kernels DIR]                       print every run manifest (kernels/**/*.json
                                                 with a "code" key)
  build    --out BUILD [--kernels DIR] [--targets gfx942,gfx950] [--refs DIR]
                                                 assemble / compile every kernel for every
                                                 target it supports into
                                                 BUILD/<target>/<dir>/<stem>.hsaco, next to a
                                                 copy of its manifest whose "code" is that
                                                 file and "targets" that target; with --refs
                                                 (the build tree's kernels/), link the built
                                                 reference program there too
  selftest [--kernels DIR] --refs DIR [--work DIR]
                                                 for every manifest and test size: make inputs,
                                                 compute the expected outputs with an
                                                 independent Python model, and check that the
                                                 C reference accepts them (exit 0), rejects a
                                                 one-bit change (exit 1, naming the element)
                                                 and a missing input (exit 2)
  sim      --gcnsim PROG --build BUILD [--what outputs|findings] [--kernels DIR] [--work DIR]
                                                 run every built kernel x target x test size
                                                 through gcnsim: outputs = correct kernels run
                                                 clean and match their C reference; findings =
                                                 broken kernels give the reports of
                                                 kernels/**/expect.json (minus the gaps
                                                 listed in tests/kernels/known_gaps.txt)
  lint     --gcnlint PROG --build BUILD [--kernels DIR]
                                                 run gcnlint on every built code object and
                                                 check it against kernels/**/expect.json

Manifests are described in docs/manifest.md.  "test_sizes" lists param overrides to run.
HIP kernels carry "source": "<stem>.hip" and "code": "<stem>.hsaco" (built here, never
committed).
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
TARGETS = ("gfx942", "gfx950")
CLANG = os.environ.get("CLANG22") or "clang-22"
HIP_FLAGS = ["-x", "hip", "-nogpulib", "-nogpuinc", "--cuda-device-only", "--no-gpu-bundle-output",
             "-O2", "-mcode-object-version=5"]


# ---------------------------------------------------------------- manifests

def manifests(kdir):
    out = []
    for root, dirs, files in os.walk(kdir):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith(".json"):
                continue
            path = os.path.join(root, f)
            with open(path) as fh:
                m = json.load(fh)
            if isinstance(m, dict) and "code" in m and "kernel" in m:
                out.append(path)
    return out


def load(path):
    with open(path) as fh:
        return json.load(fh)


class Expr:
    """Integer expressions over params: integers, names, + - * / % and parentheses
    (docs/manifest.md); / and % truncate like C on non-negative values."""

    def __init__(self, text, params):
        self.s = text.replace(" ", "")
        self.i = 0
        self.params = params

    def value(self):
        v = self.sum()
        if self.i != len(self.s):
            raise ValueError("bad expression %r" % self.s)
        return v

    def sum(self):
        v = self.product()
        while self.i < len(self.s) and self.s[self.i] in "+-":
            op = self.s[self.i]
            self.i += 1
            w = self.product()
            v = v + w if op == "+" else v - w
        return v

    def product(self):
        v = self.atom()
        while self.i < len(self.s) and self.s[self.i] in "*/%":
            op = self.s[self.i]
            self.i += 1
            w = self.atom()
            v = v * w if op == "*" else (int(v / w) if op == "/" else v - w * int(v / w))
        return v

    def atom(self):
        s = self.s
        if self.i < len(s) and s[self.i] == "(":
            self.i += 1
            v = self.sum()
            if self.i >= len(s) or s[self.i] != ")":
                raise ValueError("missing ) in %r" % s)
            self.i += 1
            return v
        if self.i < len(s) and s[self.i] == "-":
            self.i += 1
            return -self.atom()
        j = self.i
        while j < len(s) and (s[j].isalnum() or s[j] == "_"):
            j += 1
        tok, self.i = s[self.i:j], j
        if not tok:
            raise ValueError("bad expression %r" % s)
        if tok.isdigit():
            return int(tok)
        if tok not in self.params:
            raise ValueError("unknown param %r" % tok)
        return self.params[tok]


def ev(x, params):
    return x if isinstance(x, int) else Expr(str(x), params).value()


def sizes(m):
    """Param dicts to run: the defaults updated by each test size (or the defaults alone)."""
    base = dict(m.get("params", {}))
    ts = m.get("test_sizes") or [{}]
    return [dict(base, **t) for t in ts]


# ---------------------------------------------------------------- inputs

def xorshift64s(seed):
    """xorshift64* stream (for self-test inputs; not necessarily gcnsim's stream)."""
    x = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF or 1
    while True:
        x ^= x >> 12
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 27
        yield (x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF


def init_bytes(spec, size, mdir, wide=False):
    """The initial bytes of a buffer.  WIDE (self-tests only) draws f32 values with random
    exponents in [2^-20, 2^20) so that the order of float additions shows in the results."""
    init = spec.get("init", "zero")
    if init == "zero":
        return bytes(size)
    if "fill" in init:
        return bytes([init["fill"]]) * size
    if "file" in init:
        with open(os.path.join(mdir, init["file"]), "rb") as fh:
            return (fh.read() + bytes(size))[:size]
    kind, gen = init["random"], xorshift64s(init.get("seed", 0))
    out = bytearray()
    while len(out) < size:
        r = next(gen)
        if kind == "f32" and wide:
            mant = 1.0 + ((r >> 41) & 0x7FFFFF) / float(1 << 23)
            sign = -1.0 if r & 1 else 1.0
            out += struct.pack("<f", sign * mant * 2.0 ** (((r >> 8) % 40) - 20))
        elif kind == "f32":
            out += struct.pack("<f", ((r >> 40) / float(1 << 24)) * 2.0 - 1.0)
        elif kind == "f16":
            out += struct.pack("<e", ((r >> 53) / float(1 << 11)) * 2.0 - 1.0)
        elif kind == "bf16":
            out += struct.pack("<f", ((r >> 56) / 256.0) * 2.0 - 1.0)[2:]
        elif kind in ("u32", "i32"):
            out += struct.pack("<I", r >> 32)
        elif kind == "u8":
            out += bytes([r >> 56])
        else:
            raise ValueError("unknown random kind %r" % kind)
    return bytes(out[:size])


def make_inputs(mpath, params, d, target="gfx942", wide=False):
    """Write DIR/NAME.in.bin and DIR/NAME.bin (= the initial bytes) for every buffer and
    DIR/run.json; return {name: bytes}."""
    m = load(mpath)
    os.makedirs(d, exist_ok=True)
    bufs = {}
    for name, spec in m["buffers"].items():
        data = init_bytes(spec, ev(spec["size"], params), os.path.dirname(mpath), wide)
        bufs[name] = data
        for suffix in (".in.bin", ".bin"):
            with open(os.path.join(d, name + suffix), "wb") as fh:
                fh.write(data)
    run = {"kernel": m["kernel"], "target": target, "params": params,
           "grid": [ev(g, params) for g in m["grid"]], "block": [ev(b, params) for b in m["block"]]}
    with open(os.path.join(d, "run.json"), "w") as fh:
        json.dump(run, fh)
    return bufs


# ---------------------------------------------------------------- Python models

def f32(x):
    """Round a double to IEEE single (exact f32 add: a double sum of two floats rounds right)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def floats(b):
    return list(struct.unpack("<%df" % (len(b) // 4), b))


def words(b):
    return list(struct.unpack("<%dI" % (len(b) // 4), b))


def pack_f(v):
    return struct.pack("<%df" % len(v), *v)


def pack_u(v):
    return struct.pack("<%dI" % len(v), *v)


def model_vector_add(p, b):
    a, bb = floats(b["A"]), floats(b["B"])
    return {"C": pack_f([f32(x + y) for x, y in zip(a, bb)][:p["N"]])}


def model_mem_bandwidth(p, b):
    w, n, t = words(b["in"]), p["N"], p["WG"] * 256
    out = [0] * t
    for i in range(n):
        out[i % t] = (out[i % t] + sum(w[4 * i:4 * i + 4])) & 0xFFFFFFFF
    return {"out": pack_u(out)}


def model_transpose(p, b):
    w, rows, cols = words(b["in"]), p["ROWS"], p["COLS"]
    return {"out": pack_u([w[j * cols + i] for i in range(cols) for j in range(rows)])}


def model_wave_reduce(p, b):
    x, n = floats(b["in"]), p["N"]
    out = []
    for wv in range((n + 255) // 256 * 4):
        v = [x[wv * 64 + l] if wv * 64 + l < n else 0.0 for l in range(64)]
        # stages 1-4 (quad xor 1, quad xor 2, half-row mirror, row mirror): every lane of a
        # row ends with the same value, built pairwise as below
        for part in (1, 2):
            v = [f32(v[l ^ part] + v[l]) for l in range(64)]
        v = [f32(v[(l & ~7) + 7 - (l & 7)] + v[l]) for l in range(64)]
        v = [f32(v[(l & ~15) + 15 - (l & 15)] + v[l]) for l in range(64)]
        rows = [v[16 * r + 15] for r in range(4)]
        r01, r23 = f32(rows[0] + rows[1]), f32(rows[2] + rows[3])
        out.append(f32(r01 + r23))
    return {"out": pack_f(out)}


def model_wave_shuffle(p, b):
    x, s, n = words(b["in"]), words(b["sel"]), p["N"]
    res = []
    for i in range(n):
        j = (i & ~63) | (s[i] & 63)
        res.append(x[j] if j < n else 0)
    return {"out": pack_u(res)}


def model_hip_reduce(p, b):
    x, n, wg = floats(b["in"]), p["N"], p["WG"]
    stride = wg * 256
    out = []
    for g in range(wg):
        parts = []
        for wv in range(4):
            v = []
            for l in range(64):
                acc = 0.0
                for i in range(g * 256 + wv * 64 + l, n, stride):
                    acc = f32(acc + x[i])
                v.append(acc)
            for m in (32, 16, 8, 4, 2, 1):
                v = [f32(v[l] + v[l ^ m]) for l in range(64)]
            parts.append(v[0])
        out.append(f32(f32(f32(parts[0] + parts[1]) + parts[2]) + parts[3]))
    return {"out": pack_f(out)}


MODELS = {
    "vector_add": model_vector_add, "hip_vector_add": model_vector_add,
    "mem_bandwidth": model_mem_bandwidth,
    "lds_transpose": model_transpose, "hip_transpose": model_transpose,
    "wave_reduce": model_wave_reduce, "wave_shuffle": model_wave_shuffle,
    "hip_reduce": model_hip_reduce,
}


def dir_model(mpath, kernel):
    """MODELS[kernel] of a model.py next to the manifest (kernels/mfma_*: their matrix-core
    numerics come from tests/sim/mfma_model.py), or None."""
    p = os.path.join(os.path.dirname(mpath), "model.py")
    if not os.path.exists(p):
        return None
    import runpy
    return runpy.run_path(p).get("MODELS", {}).get(kernel)


def base_kernel(mpath, m):
    """The base kernel of a generated variant (its folder's variants.py), else the kernel."""
    spec = os.path.join(os.path.dirname(mpath), "variants.py")
    if os.path.exists(spec):
        import runpy
        v = runpy.run_path(spec)
        if any(m["kernel"] == name for name, _, _ in v["VARIANTS"]):
            return v["BASE"]
    return m["kernel"]


# ---------------------------------------------------------------- build

def compile_one(src, target, out):
    if src.endswith(".hip"):
        cmd = [CLANG] + HIP_FLAGS + ["--offload-arch=" + target, src, "-o", out]
    else:
        cmd = [CLANG, "-x", "assembler", "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target, "-g",
               src, "-o", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(" ".join(cmd) + "\n" + r.stderr)
    return r.returncode == 0


def cmd_build(kdir, out, targets, refs):
    bad = built = 0
    for mp in manifests(kdir):
        m = load(mp)
        rel = os.path.relpath(os.path.dirname(mp), kdir)
        src = os.path.join(os.path.dirname(mp), m.get("source", m["code"]))
        stem = os.path.splitext(os.path.basename(mp))[0]
        for t in targets:
            if t not in m.get("targets", TARGETS):
                continue
            d = os.path.join(out, t, rel)
            os.makedirs(d, exist_ok=True)
            hsaco = os.path.join(d, stem + ".hsaco")
            if not compile_one(src, t, hsaco):
                print("FAIL build %s %s" % (mp, t))
                bad += 1
                continue
            m2 = dict(m, code=stem + ".hsaco", targets=[t])
            m2.pop("source", None)
            with open(os.path.join(d, stem + ".json"), "w") as fh:
                json.dump(m2, fh, indent=2)
            if refs:
                ref = os.path.abspath(os.path.join(refs, rel, m.get("reference", "ref")))
                link = os.path.join(d, m.get("reference", "ref"))
                if os.path.exists(ref) and not os.path.lexists(link):
                    os.symlink(ref, link)
            built += 1
            print("built %s" % hsaco)
    print("%d code objects built, %d failures" % (built, bad))
    return 1 if bad else 0


# ---------------------------------------------------------------- self-test of the references

def run_ref(ref, args):
    r = subprocess.run([ref] + args, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def cmd_selftest(kdir, refs, work):
    bad = 0
    seen = set()
    for mp in manifests(kdir):
        m = load(mp)
        rel = os.path.relpath(os.path.dirname(mp), kdir)
        ref = os.path.join(refs, rel, m.get("reference", "ref"))
        base = base_kernel(mp, m)
        model = MODELS.get(base) or dir_model(mp, base)
        key = (rel, base)
        if key in seen:          # variants share their base kernel's reference and model
            continue
        seen.add(key)
        if not os.path.exists(ref) or model is None:
            print("FAIL %s: no reference program %s or no model" % (mp, ref))
            bad += 1
            continue
        runs = [(p, False) for p in sizes(m)] + [(sizes(m)[-1], True)]
        for i, (params, wide) in enumerate(runs):
            d = os.path.join(work, rel.replace(os.sep, "_") + "_%s_%d" % (m["kernel"], i))
            shutil.rmtree(d, ignore_errors=True)
            bufs = make_inputs(mp, params, d, wide=wide)
            expected = model(params, bufs)
            for name, data in expected.items():
                with open(os.path.join(d, name + ".bin"), "wb") as fh:
                    fh.write(data)
            what = "%s %s%s" % (m["kernel"], json.dumps(params, sort_keys=True),
                                " wide floats" if wide else "")
            rc, txt = run_ref(ref, [d])
            ok = rc == 0
            # one flipped bit in the last element of the first output must be found
            out0 = m["outputs"][0]
            data = bytearray(expected[out0])
            data[-1] ^= 0x01
            with open(os.path.join(d, out0 + ".bin"), "wb") as fh:
                fh.write(data)
            rc1, txt1 = run_ref(ref, [d])
            last = len(data) // 4 - 1
            ok = ok and rc1 == 1 and ("%s[%d]" % (out0, last)) in txt1
            # --write-expected must reproduce the model's bytes
            rcw, _ = run_ref(ref, ["--write-expected", d])
            with open(os.path.join(d, out0 + ".bin"), "rb") as fh:
                ok = ok and rcw == 0 and fh.read() == expected[out0]
            # a missing input is bad input
            first_in = [n for n in m["buffers"] if n not in m["outputs"]][0]
            os.remove(os.path.join(d, first_in + ".in.bin"))
            rc2, _ = run_ref(ref, [d])
            ok = ok and rc2 == 2
            print("%s %s" % ("ok  " if ok else "FAIL", what))
            if not ok:
                print("  ref exit codes: equal %d (want 0), changed %d (want 1), write %d, "
                      "missing input %d (want 2)\n  %s  %s" % (rc, rc1, rcw, rc2, txt.strip(),
                                                            txt1.strip()))
                bad += 1
    return 1 if bad else 0


# ---------------------------------------------------------------- simulator runs

def load_expect(kdir):
    """kernel name -> its expect.json entry, over every kernels/**/expect.json."""
    out = {}
    for root, dirs, files in os.walk(kdir):
        if "expect.json" in files:
            for k, v in load(os.path.join(root, "expect.json")).items():
                if not k.startswith("_"):
                    out[k] = v
    return out


def expected_reports(entry, params):
    """The reports of ENTRY that a simulator must give for a run with PARAMS: those whose
    "sim_sizes" is absent or "all", or lists a dict contained in PARAMS."""
    out = []
    for rep in entry.get("reports", []):
        sz = rep.get("sim_sizes", "all")
        if sz == "all" or any(all(params.get(k) == v for k, v in d.items()) for d in sz):
            out.append(rep)
    return out


def load_gaps(path):
    """{(tool, kernel, kind)} from tests/kernels/known_gaps.txt (see there)."""
    gaps = set()
    if path and os.path.exists(path):
        with open(path) as fh:
            for line in fh:
                f = line.split("#", 1)[0].split()
                if len(f) == 3:
                    gaps.add(tuple(f))
    return gaps


def judge_missing(tool, kernel, rep, missing, gaps, why, notes):
    """Record an expected report that is MISSING (bool) against the known gaps: a missing
    report is a failure unless listed; a listed one that is present is a failure too (the
    gap is closed: delete its line)."""
    key = (tool, kernel, rep["kind"])
    desc = "%s at %s %s" % (rep["kind"], rep["consumer"]["pc"], rep["consumer"]["text"])
    if missing and key in gaps:
        notes.append("known gap (tests/kernels/known_gaps.txt): " + desc)
    elif missing:
        why.append("missing " + desc)
    elif key in gaps:
        why.append("gap closed, delete '%s %s %s' from tests/kernels/known_gaps.txt" % key)


def report_pcs(rep):
    """Every pc (int) a report names, in any role."""
    out = set()
    for val in rep.values():
        for v in (val if isinstance(val, list) else [val]):
            if isinstance(v, dict) and "pc" in v:
                out.add(int(v["pc"], 16))
    return out


def cmd_sim(gcnsim, build, kdir, work, what, gaps=frozenset()):
    """Run every built kernel x target x test size through gcnsim (exit 0 clean, 4 findings).
    WHAT = "outputs": no fault; kernels whose expect.json verdict is clean must run without
    findings and produce the reference's outputs (broken ones may compute garbage: a
    simulator that lands loads late shows the race in the data).  WHAT = "findings": every
    report expect.json expects at that size must show in gcnsim's output (its consumer
    instruction text)."""
    expect = load_expect(kdir)
    bad = runs = 0
    for t in sorted(os.listdir(build)):
        for mp in manifests(os.path.join(build, t)):
            m = load(mp)
            ref = os.path.join(os.path.dirname(mp), m.get("reference", "ref"))
            entry = expect.get(m["kernel"], {"verdict": "clean", "reports": []})
            clean = entry.get("verdict") == "clean"
            if what == "findings" and clean:
                continue
            for i, params in enumerate(sizes(m)):
                d = os.path.join(work, t, m["kernel"] + "_%d" % i)
                shutil.rmtree(d, ignore_errors=True)
                os.makedirs(d)
                cmd = [gcnsim, "--manifest", mp, "--mcpu", t, "--dump-dir", d, "--dump-inputs", "--no-group",
                       "--max-findings", "1000"]
                for k, v in sorted(params.items()):
                    cmd += ["--set", "%s=%d" % (k, v)]
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
                simtxt = r.stdout + r.stderr
                why = []
                if r.returncode not in (0, 4):
                    why.append("gcnsim exit %d" % r.returncode)
                elif what == "outputs" and clean:
                    if r.returncode == 4:
                        why.append("findings in a clean kernel")
                    rc, txt = run_ref(ref, [d])
                    if rc != 0:
                        why.append("reference: " + txt.strip())
                notes = []
                if what == "findings" and not why:
                    for rep in expected_reports(entry, params):
                        missing = r.returncode != 4 or rep["consumer"]["text"] not in simtxt
                        judge_missing("sim", m["kernel"], rep, missing, gaps, why, notes)
                runs += 1
                print("%s %s %s %s" % ("FAIL" if why else "ok  ", t, m["kernel"],
                                       json.dumps(params, sort_keys=True)))
                for n in notes:
                    print("  " + n)
                if why:
                    print("  " + " ".join(cmd) + "\n  " + "\n  ".join(why) + "\n  " +
                          simtxt.strip().replace("\n", "\n  "))
                    bad += 1
    print("%d runs, %d failures" % (runs, bad))
    return 1 if bad else 0


def cmd_lint(gcnlint, build, kdir, gaps=frozenset()):
    """Run gcnlint (--format=json --suggest) on every built code object.  Clean kernels must
    have no error or warning; every expected report of a broken kernel must match an error or
    warning at one of the pcs it names (offsets from the kernel symbol).  Optional reports
    (e.g. a wait stronger than needed) are listed as found or not, never failed."""
    expect = load_expect(kdir)
    bad = runs = 0
    for t in sorted(os.listdir(build)):
        for mp in manifests(os.path.join(build, t)):
            m = load(mp)
            code = os.path.join(os.path.dirname(mp), m["code"])
            entry = expect.get(m["kernel"], {"verdict": "clean", "reports": []})
            r = subprocess.run([gcnlint, "--format=json", "--no-group", "--suggest",
                                "--kernel=" + m["kernel"], code],
                               capture_output=True, text=True, timeout=600)
            why = []
            try:
                found = json.loads(r.stdout)["findings"]
            except (ValueError, KeyError):
                found = []
                why.append("gcnlint exit %d, no JSON: %s" % (r.returncode, r.stderr.strip()))
            serious = [f for f in found if f.get("severity") in ("error", "warning")]
            at = {}
            for f in serious:
                at.setdefault(int(f["offset"], 16), []).append(f)
            if entry.get("verdict") == "clean":
                for f in serious:
                    why.append("unexpected %s at %s: %s" % (f["check"], f["offset"], f["message"]))
            gap_notes = []
            for rep in entry.get("reports", []):
                missing = not any(pc in at for pc in report_pcs(rep))
                judge_missing("lint", m["kernel"], rep, missing, gaps, why, gap_notes)
            notes = {int(f["offset"], 16) for f in found}
            for rep in entry.get("optional", []):
                hit = any(pc in notes for pc in report_pcs(rep))
                print("     optional %s at %s: %s" % (rep["kind"], sorted(hex(p) for p in report_pcs(rep)),
                                                     "reported" if hit else "not reported"))
            runs += 1
            print("%s %s %s" % ("FAIL" if why else "ok  ", t, m["kernel"]))
            for w in why + gap_notes:
                print("  " + w)
            bad += bool(why)
    print("%d code objects, %d failures" % (runs, bad))
    return 1 if bad else 0


# ---------------------------------------------------------------- main

def opt(args, name, default=None):
    if name in args:
        i = args.index(name)
        v = args[i + 1]
        del args[i:i + 2]
        return v
    return default


def main(argv):
    args = argv[1:]
    if not args:
        print(__doc__)
        return 2
    cmd = args.pop(0)
    kdir = opt(args, "--kernels", os.path.join(TOP, "kernels"))
    refs = opt(args, "--refs")
    work = opt(args, "--work")
    gaps = load_gaps(opt(args, "--known-gaps", os.path.join(HERE, "known_gaps.txt")))
    tmp = None
    if work is None and cmd in ("selftest", "sim"):
        tmp = tempfile.mkdtemp(prefix="gcnk-")
        work = tmp
    try:
        if cmd == "list":
            for mp in manifests(kdir):
                print(mp)
            return 0
        if cmd == "build":
            targets = opt(args, "--targets", ",".join(TARGETS)).split(",")
            return cmd_build(kdir, opt(args, "--out", "build-kernels"), targets, refs)
        if cmd == "selftest":
            return cmd_selftest(kdir, refs or os.path.join(TOP, "kernels"), work)
        if cmd == "sim":
            return cmd_sim(opt(args, "--gcnsim"), opt(args, "--build"), kdir, work,
                           opt(args, "--what", "outputs"), gaps)
        if cmd == "lint":
            return cmd_lint(opt(args, "--gcnlint"), opt(args, "--build"), kdir, gaps)
        print(__doc__)
        return 2
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
