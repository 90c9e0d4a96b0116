#!/bin/sh
# test_kernarg.sh -- for every bundled kernel manifest, target and test size, the kernarg
# bytes gcnrun would upload (`gcnrun --no-device --print-kernarg`: its pipeline with the
# buffer addresses the simulator gives) equal the bytes gcnsim builds (tests/device/
# simkernarg, gcnsim's own steps).  Runs everywhere: without the HIP runtime it uses
# tests/device/gcnrun_nohip, the same program.  Also checks that a changed argument or
# buffer address shows in the comparison (the test can fail).
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
py=${PYTHON3:-python3}
command -v "${CLANG22:-clang-22}" >/dev/null 2>&1 || { echo "clang-22 not found: skipped"; exit 77; }
gcnrun=$builddir/gcnrun
[ -x "$gcnrun" ] || gcnrun=$builddir/tests/device/gcnrun_nohip
work=$builddir/tests/device/kernarg.work
rm -rf "$work"
"$py" "$srcdir/tests/kernels/kernels.py" build --kernels "$srcdir/kernels" --out "$work" \
    --targets gfx942,gfx950 >"$work.log" 2>&1 || { cat "$work.log"; exit 1; }
exec "$py" - "$work" "$gcnrun" "$builddir/tests/device/simkernarg" <<'PYEOF'
import json, os, subprocess, sys
work, gcnrun, simka = sys.argv[1:4]
ok = bad = 0
for t in sorted(os.listdir(work)):
    for d, dirs, files in sorted(os.walk(os.path.join(work, t))):
        for f in sorted(files):
            if not f.endswith(".json"):
                continue
            mp = os.path.join(d, f)
            m = json.load(open(mp))
            base = dict(m.get("params", {}))
            for ts in m.get("test_sizes") or [{}]:
                p = dict(base, **ts)
                sets = []
                for k, v in sorted(p.items()):
                    sets += ["--set", "%s=%d" % (k, v)]
                a = subprocess.run([gcnrun, "--no-device", "--print-kernarg", "--manifest", mp,
                                    "--mcpu", t] + sets, capture_output=True, text=True)
                b = subprocess.run([simka, "--manifest", mp, "--mcpu", t] + sets,
                                   capture_output=True, text=True)
                what = "%s %s %s" % (t, m["kernel"], " ".join(sets[1::2]))
                good = a.returncode == 0 and b.returncode == 0 and a.stdout == b.stdout and \
                    a.stdout.startswith("kernarg %s %s " % (m["kernel"], t))
                print("%s %s" % ("ok  " if good else "FAIL", what))
                if good:
                    ok += 1
                    continue
                bad += 1
                print("  gcnrun exit %d: %s\n  simkernarg exit %d: %s" %
                      (a.returncode, (a.stdout + a.stderr).strip().replace("\n", "\n    "),
                       b.returncode, (b.stdout + b.stderr).strip().replace("\n", "\n    ")))
# the comparison sees a changed scalar argument: set a param that feeds an argument
mp = None
for d, dirs, files in sorted(os.walk(os.path.join(work, "gfx942"))):
    for f in sorted(files):
        if f == "vector_add.json" and "hip" not in d:
            mp = os.path.join(d, f)
if mp:
    a = subprocess.run([gcnrun, "--no-device", "--print-kernarg", "--manifest", mp, "--set", "N=999"],
                       capture_output=True, text=True)
    b = subprocess.run([simka, "--manifest", mp], capture_output=True, text=True)
    seen = a.returncode == 0 and b.returncode == 0 and a.stdout != b.stdout
    print("%s a different N gives different kernarg bytes" % ("ok  " if seen else "FAIL"))
    ok, bad = (ok + 1, bad) if seen else (ok, bad + 1)
else:
    print("FAIL no vector_add manifest found")
    bad += 1
print("%d passed, %d failed" % (ok, bad))
sys.exit(1 if bad or not ok else 0)
PYEOF
