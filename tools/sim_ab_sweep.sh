#!/bin/sh
# sim_ab_sweep.sh -- runs two gcnsim binaries over every bundled manifest and says whether
# anything they print or write differs: the exactness check of a change to the simulator
# that must not change its results (a speed change, a refactor).
#
# The manifests: every git-tracked *.json of the source tree that names a kernel and whose
# code is assembly (.s) or a code object (.hsaco, .co), plus those the kernel tests built
# (tests/kernels/build/TARGET/*/*.json, HIP ones included) when `make check` has made them.
# Each runs for each of its targets, for its first three test sizes (or its defaults), under
# three option sets: the defaults; `--quantum 3 --hazard-effect=stale`; and
# `--wait-effect=retire --no-group -j 2`.  Compared per run: the exit code, standard output
# and error (times masked), the --json findings and every file of --dump-dir.
#
# Usage: tools/sim_ab_sweep.sh GCNSIM_A GCNSIM_B [WORKDIR]
#   (from the top of a checkout; .s manifests need GCN_CLANG or clang-22, as gcnsim does).
#   Prints one line per differing run and a summary; exits 0 when none differs, 1 when
#   some do, 2 on bad arguments.  WORKDIR (default: a temporary directory, removed) keeps
#   both sides' outputs of the differing runs.
set -u
[ $# -ge 2 ] || { echo "usage: $0 GCNSIM_A GCNSIM_B [WORKDIR]" >&2; exit 2; }
A=$(realpath "$1") B=$(realpath "$2")
[ -x "$A" ] && [ -x "$B" ] || { echo "$0: $1 or $2 is not an executable" >&2; exit 2; }
if [ $# -ge 3 ]; then work=$3; mkdir -p "$work"; keep=1; else work=$(mktemp -d); keep=0; fi
[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT
top=$(pwd)
python3 - "$A" "$B" "$work" "$top" <<'PY'
import glob, json, os, re, subprocess, sys, shutil
A, B, work, top = sys.argv[1:5]
tracked = subprocess.run(["git", "ls-files", "*.json"], capture_output=True, text=True,
                         cwd=top).stdout.split()
mans = [os.path.join(top, f) for f in tracked]
mans += sorted(glob.glob(os.path.join(top, "tests/kernels/build/*/*/*.json")))
runs = []
for m in mans:
    try:
        j = json.load(open(m))
    except Exception:
        continue
    if not isinstance(j, dict) or "kernel" not in j or "code" not in j:
        continue
    code = str(j["code"])
    if not code.endswith((".s", ".hsaco", ".co")):
        continue
    if not os.path.exists(os.path.join(os.path.dirname(m), code)):
        continue
    built = "/tests/kernels/build/" in m
    targets = [m.split("/tests/kernels/build/")[1].split("/")[0]] if built else \
        j.get("targets", ["gfx942"])
    sizes = j.get("test_sizes") or [{}]
    for t in targets:
        for sz in sizes[:3]:
            sets = []
            for k, v in sz.items():
                sets += ["--set", "%s=%s" % (k, v)]
            for opts in ([], ["--quantum", "3", "--hazard-effect=stale"],
                         ["--wait-effect=retire", "--no-group", "-j", "2"]):
                runs.append((m, t, sets, opts))
times = re.compile(r"[0-9]+\.[0-9]+ s|[0-9.]+ ?(ms|us|µs)\b|\([0-9.]+ s CPU\)")

def one(binary, side, i, m, t, sets, opts):
    d = os.path.join(work, "%d%s" % (i, side))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d + "/dump")
    cmd = [binary, "--no-progress", "--mcpu", t, "--manifest", m, "--json", d + "/f.json",
           "--dump-dir", d + "/dump"] + sets + opts
    try:
        p = subprocess.run(cmd, capture_output=True, cwd=os.path.dirname(m), timeout=600)
        out = [str(p.returncode).encode(), times.sub("T", p.stdout.decode(errors="replace")).encode(),
               times.sub("T", p.stderr.decode(errors="replace")).encode()]
    except subprocess.TimeoutExpired:
        out = [b"timeout", b"", b""]
    files = {}
    for root, _, fs in os.walk(d):
        for f in fs:
            rel = os.path.relpath(os.path.join(root, f), d)
            data = open(os.path.join(root, f), "rb").read()
            if rel.endswith(".json"):       # times in run.json / the findings
                data = re.sub(rb'"(time|cpu|seconds|wall|cpu_s|wall_s)"\s*:\s*[0-9.eE+-]+',
                              rb'"\1": T', data)
                data = data.replace(d.encode(), b"D")
            files[rel] = data
    return d, out, files

ndiff = 0
codes = {}
for i, (m, t, sets, opts) in enumerate(runs):
    da, oa, fa = one(A, "a", i, m, t, sets, opts)
    db, ob, fb = one(B, "b", i, m, t, sets, opts)
    oa[1] = oa[1].replace(da.encode(), b"D")
    oa[2] = oa[2].replace(da.encode(), b"D")
    ob[1] = ob[1].replace(db.encode(), b"D")
    ob[2] = ob[2].replace(db.encode(), b"D")
    codes[oa[0]] = codes.get(oa[0], 0) + 1
    what = []
    if oa != ob:
        what.append("exit/stdout/stderr")
    if set(fa) != set(fb):
        what.append("file set")
    else:
        what += [f for f in sorted(fa) if fa[f] != fb[f]]
    if what:
        ndiff += 1
        print("DIFF %s %s %s %s: %s" % (os.path.relpath(m, top), t, " ".join(sets),
                                        " ".join(opts), ", ".join(what)), flush=True)
    else:
        shutil.rmtree(da, ignore_errors=True)
        shutil.rmtree(db, ignore_errors=True)
print("sim_ab_sweep: %d runs of %d manifests, exit codes %s; %d differ" % (
    len(runs), len({r[0] for r in runs}),
    ", ".join("%s: %d" % (k.decode(), v) for k, v in sorted(codes.items())), ndiff))
sys.exit(1 if ndiff else 0)
PY
