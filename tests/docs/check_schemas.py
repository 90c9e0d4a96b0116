#!/usr/bin/env python3
"""check_schemas.py -- the JSON Schemas of docs/schemas/ with a real validator
(python3-jsonschema, draft 2020-12): the schemas themselves, every bundled manifest, and
real outputs of gcnsim (--json, run.json of dumps with and without --dump-inputs, of a
fault, of a dispatch without a manifest), gcnrun (run.json) and gcnlint (--format=json,
with --explain).  Then mutants of each document must be rejected, so the check can fail.

Usage: check_schemas.py SRCDIR BUILDDIR TMPDIR.  Exit 0 when all hold, 1 otherwise, 77
(SKIP) when the jsonschema module is missing.
"""
import copy
import glob
import json
import os
import subprocess
import sys

try:
    import jsonschema
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
except ImportError as x:
    print("SKIP: the Python jsonschema module (Debian: python3-jsonschema) is missing: %s" % x)
    sys.exit(77)

src, bld, tmp = sys.argv[1:4]
fails = 0
counts = {}


def fail(msg):
    global fails
    fails += 1
    print("FAIL " + msg)


schemas = {}
resources = []
for p in sorted(glob.glob(os.path.join(src, "docs/schemas/*.schema.json"))):
    s = json.load(open(p))
    try:
        Draft202012Validator.check_schema(s)
    except jsonschema.exceptions.SchemaError as x:
        fail("%s is not a valid draft 2020-12 schema: %s" % (p, x.message))
        continue
    schemas[os.path.basename(p).replace(".schema.json", "")] = s
    resources.append((s["$id"], Resource.from_contents(s)))
registry = Registry().with_resources(resources)
want = {"manifest", "gcnsim-run", "gcnsim-findings", "gcnlint"}
if set(schemas) != want:
    fail("docs/schemas holds %s, expected %s" % (sorted(schemas), sorted(want)))
    sys.exit(1)
V = {k: Draft202012Validator(s, registry=registry) for k, s in schemas.items()}


def check(kind, doc, label):
    errs = sorted(V[kind].iter_errors(doc), key=lambda e: list(e.absolute_path))
    counts[kind] = counts.get(kind, 0) + 1
    if errs:
        fail("%s does not validate against %s.schema.json: %s at %s" %
             (label, kind, errs[0].message[:300], "/".join(map(str, errs[0].absolute_path))))
    return not errs


def rejects(kind, doc, label):
    if V[kind].is_valid(doc):
        fail("%s.schema.json accepts a broken document: %s" % (kind, label))


def run(cmd, ok=(0, 4)):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in ok:
        fail("%s: exit %d: %s" % (" ".join(cmd), r.returncode, (r.stderr or r.stdout)[:400]))
    return r


# ---- every bundled manifest (expectation files are not manifests)
mans = [p for p in glob.glob(os.path.join(src, "kernels/**/*.json"), recursive=True)
        if os.path.basename(p) != "expect.json"]
mans += glob.glob(os.path.join(src, "docs/tutorial/kernels/*.json"))
mans += glob.glob(os.path.join(src, "docs/tutorial/exercises/solutions/*.json"))
mans += glob.glob(os.path.join(src, "tests/sim/real/*.json"))
mans += [os.path.join(src, "tests/analyze/idioms/manifest.json"), os.path.join(src, "bench/bench_valu.json")]
for p in sorted(mans):
    check("manifest", json.load(open(p)), os.path.relpath(p, src))
if counts.get("manifest", 0) < 40:
    fail("only %d manifests found" % counts.get("manifest", 0))

# ---- gcnsim outputs
gcnsim, gcnlint = os.path.join(bld, "gcnsim"), os.path.join(bld, "gcnlint")
K = lambda p: os.path.join(src, "kernels", p)
n = 0
runs = [
    (K("vector_add/vector_add.json"), []),
    (K("vector_add/vector_add_weak_loop.json"), []),
    (K("vector_add/vector_add_weak_loop.json"), ["--no-group"]),
    (K("vector_add/vector_add_m0_hazard.json"), ["--set", "N=2048", "--set", "WG=1"]),
    (K("lds_histogram/lds_histogram_no_count_barrier.json"), []),
    (K("lds_transpose/lds_transpose_no_wait.json"), ["--dump-inputs"]),
    (K("mfma_gemm/mfma_gemm_bf16_nop_removed.json"), ["--mcpu", "gfx950"]),
    (K("wave_shuffle/wave_shuffle.json"), ["--dump-inputs", "--mcpu", "gfx950"]),
]
for m, extra in runs:
    n += 1
    d, j = os.path.join(tmp, "d%d" % n), os.path.join(tmp, "f%d.json" % n)
    r = run([gcnsim, "-q", "--no-progress", "--manifest", m, "--dump-dir", d, "--json", j] + extra)
    if r.returncode not in (0, 4):
        continue
    check("gcnsim-findings", json.load(open(j)), "gcnsim --json of %s %s" % (os.path.relpath(m, src), extra))
    check("gcnsim-run", json.load(open(os.path.join(d, "run.json"))),
          "run.json of %s %s" % (os.path.relpath(m, src), extra))
# a fault: --json says so
fm = json.load(open(K("vector_add/vector_add.json")))
fm["buffers"]["C"]["size"] = 4
fm["code"] = os.path.abspath(K("vector_add/" + fm["code"]))
fp = os.path.join(tmp, "fault.json")
json.dump(fm, open(fp, "w"))
r = run([gcnsim, "-q", "--no-progress", "--manifest", fp, "--json", os.path.join(tmp, "fault.out.json")], ok=(3,))
if r.returncode == 3:
    doc = json.load(open(os.path.join(tmp, "fault.out.json")))
    if check("gcnsim-findings", doc, "gcnsim --json of a fault") and doc["status"] != "fault":
        fail("a fault's --json status is %r" % doc["status"])
# without a manifest
co = K("vector_add/vector_add.s")
r = run([gcnsim, "-q", "--no-progress", co, "--mcpu", "gfx942", "--kernel", "vector_add", "--block", "256",
         "--buffer", "A:1024:random=f32,1", "--buffer", "B:1024", "--buffer", "C:1024",
         "--arg", "buffer:A", "--arg", "buffer:B", "--arg", "buffer:C", "--arg", "u32:256",
         "--arg", "u32:256", "--output", "C", "--dump-dir", os.path.join(tmp, "cl"),
         "--json", os.path.join(tmp, "cl.json")])
if r.returncode in (0, 4):
    check("gcnsim-run", json.load(open(os.path.join(tmp, "cl", "run.json"))), "run.json without a manifest")
    check("gcnsim-findings", json.load(open(os.path.join(tmp, "cl.json"))), "gcnsim --json without a manifest")
# gcnrun (the simulator backend of the same pipeline) writes the same run.json
gcnrun = os.path.join(bld, "tests/device/gcnrun_nohip")
if os.access(gcnrun, os.X_OK):
    r = run([gcnrun, "--backend", "sim", "-q", "--manifest", K("vector_add/vector_add.json"),
             "--dump-dir", os.path.join(tmp, "gr")])
    if r.returncode in (0, 4):
        check("gcnsim-run", json.load(open(os.path.join(tmp, "gr", "run.json"))), "gcnrun's run.json")

# ---- gcnlint --format=json
lints = [[K("vector_add/vector_add.s")], [K("vector_add/vector_add_weak_loop.s"), "--explain"],
         [K("lds_histogram/lds_histogram_no_count_barrier.s")],
         [K("mfma_gemm/mfma_gemm_bf16_nop_removed.s"), "--mcpu=gfx950"],
         [K("vector_add/vector_add_weak_prologue.s"), K("wave_reduce/wave_reduce_dpp_hazard.s")],
         [K("lds_transpose/lds_transpose_no_wait.s"), "-Wlds-unproven"]]
some = None
for args in lints:
    r = run([gcnlint, "--format=json"] + args)
    if r.returncode in (0, 4):
        doc = json.loads(r.stdout)
        check("gcnlint", doc, "gcnlint --format=json %s" % " ".join(os.path.relpath(a, src) if a.startswith("/") else a for a in args))
        if doc["findings"] and not some:
            some = doc

# ---- mutants must be rejected
man = json.load(open(K("vector_add/vector_add.json")))
bad = copy.deepcopy(man); bad["ouputs"] = bad.pop("outputs"); rejects("manifest", bad, "a misspelt key")
bad = copy.deepcopy(man); bad["buffers"]["A"]["init"] = {"random": "f128"}; rejects("manifest", bad, "random f128")
bad = copy.deepcopy(man); bad["args"][0] = {"buffer": "A", "u32": 1}; rejects("manifest", bad, "an arg with two kinds")
bad = copy.deepcopy(man); bad["buffers"]["A"]["init"] = {"file": "x", "skip": 1}; rejects("manifest", bad, "file init with an unknown key")
bad = copy.deepcopy(man); bad["targets"] = ["gfx90a"]; rejects("manifest", bad, "target gfx90a")
rj = json.load(open(os.path.join(tmp, "d1", "run.json")))
bad = copy.deepcopy(rj); del bad["grid"]; rejects("gcnsim-run", bad, "run.json without grid")
bad = copy.deepcopy(rj); bad["grid"] = [1, 1]; rejects("gcnsim-run", bad, "run.json with a 2-d grid")
fj = json.load(open(os.path.join(tmp, "f2.json")))
bad = copy.deepcopy(fj); bad["findings"][0]["kind"] = "read-befor-retire"; rejects("gcnsim-findings", bad, "a misspelt kind")
bad = copy.deepcopy(fj); bad["findings"][0]["pc"] = 288; rejects("gcnsim-findings", bad, "a numeric pc")
bad = copy.deepcopy(fj); bad["status"] = "clean"; rejects("gcnsim-findings", bad, "status clean with findings")
if some:
    bad = copy.deepcopy(some); bad["findings"][0]["severity"] = "fatal"; rejects("gcnlint", bad, "severity fatal")
    bad = copy.deepcopy(some); del bad["findings"][0]["check"]; rejects("gcnlint", bad, "a finding without check")
else:
    fail("no gcnlint report with findings to mutate")

print("%s validated; %s" % (", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())),
                            "%d failure(s)" % fails if fails else "all valid, every mutant rejected"))
sys.exit(1 if fails else 0)
