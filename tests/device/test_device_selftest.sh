#!/bin/sh
# test_device_selftest.sh -- the cross-check machinery end to end on a machine without a GPU:
# test_device.sh with gcnrun's "sim" backend (the gcnsim simulator standing in for the GPU)
# must find every bundled kernel x target x size identical to gcnsim -- same initial bytes,
# same kernarg, same dumps and run.json -- and the compare tool must then find a one-bit
# change in a device dump, naming the element and both values.  This checks gcnrun's
# pipeline, crosscheck.py and devcmp; it is NOT a device cross-check (test_device.sh is).
# Uses the built gcnrun, else tests/device/gcnrun_nohip (the same program without HIP).
# Exits 77 while no bundled kernel runs in gcnsim (both fault alike: nothing to compare).
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$srcdir}
py=${PYTHON3:-python3}
gcnrun=$builddir/gcnrun
[ -x "$gcnrun" ] || gcnrun=$builddir/tests/device/gcnrun_nohip
out=$builddir/tests/device/selftest
rm -rf "$out"
mkdir -p "$out"
rc=0
GCNRUN=$gcnrun GCNRUN_BACKEND=sim GCNRUN_ALLOW_SIM_FAULTS=1 GCNRUN_WORK=$out/work \
    GCNRUN_REPORT_DIR=$out sh "$srcdir/tests/device/test_device.sh" >"$out/log.txt" 2>&1 || rc=$?
tail -n 3 "$out/log.txt"
if [ "$rc" = 77 ]; then
    grep SKIP "$out/log.txt" | head -n 1
    echo "(no bundled kernel runs in gcnsim yet: gcnsim and gcnrun's simulator backend fault alike)"
    exit 77
fi
if [ "$rc" != 0 ]; then
    grep -v '^identical ' "$out/log.txt" | head -n 60
    echo "FAIL: the simulator backend of gcnrun does not reproduce gcnsim (exit $rc)"
    exit 1
fi
# the report, and a one-bit change found by the compare tool
export top_builddir="$builddir" top_srcdir="$srcdir"
exec "$py" - "$out" "$builddir/tests/device/devcmp" "$srcdir" <<'PYEOF'
import json, os, shutil, subprocess, sys
out, devcmp, srcdir = sys.argv[1], sys.argv[2], sys.argv[3]
rep = json.load(open(os.path.join(out, "report.json")))
bad = []
c = rep["counts"]
if c["different"] or c["error"] or not c["identical"]:
    bad.append("counts %s" % c)
if "not a device cross-check" not in rep.get("note", ""):
    bad.append("the report does not say it is a self-test")
done = False
for case in rep["cases"]:
    if case["result"] != "identical":
        continue
    dev = case["dev_dir"]
    rj = json.load(open(os.path.join(dev, "run.json")))
    if rj.get("tool") != "gcnrun" or rj.get("device", {}).get("backend") != "sim":
        bad.append("%s/run.json lacks tool/device" % dev)
    if done:
        continue
    outs = [b for b in case["buffers"] if b["output"] and b["bytes"] >= 4 and b["bytes"] % 4 == 0]
    if not outs:
        continue
    b = outs[0]
    mut = os.path.join(out, "mutant")
    shutil.rmtree(mut, ignore_errors=True)
    shutil.copytree(dev, mut)
    path = os.path.join(mut, b["name"] + ".bin")
    data = bytearray(open(path, "rb").read())
    data[-4] ^= 0x01
    open(path, "wb").write(data)
    r = subprocess.run([devcmp, "--report-json", os.path.join(out, "mutant.json"),
                        "--report-text", os.path.join(out, "mutant.txt"), case["sim_dir"], mut],
                       capture_output=True, text=True)
    m = json.load(open(os.path.join(out, "mutant.json")))
    fd = [x for x in m["buffers"] if x["name"] == b["name"]][0].get("first_difference", {})
    want = "0x%08x" % int.from_bytes(data[-4:], "little")
    if r.returncode != 1 or fd.get("index") != b["bytes"] // 4 - 1 or \
            not fd.get("device", "").startswith(want):
        bad.append("one-bit change in %s/%s not reported right: exit %d, %s" %
                   (case["label"], b["name"], r.returncode, fd))
    else:
        print("one-bit change in %s %s found: %s" % (case["label"], b["name"],
                                                     open(os.path.join(out, "mutant.txt")).read()
                                                     .split("first: ")[1].splitlines()[0]))
    done = True
    # a reproducer of that case has everything docs/gcnrun.md promises
    case_dir = os.path.dirname(case["dev_dir"])
    tgz = os.path.join(out, "reproducer.tar.gz")
    r = subprocess.run(["sh", os.path.join(srcdir, "tests", "device", "reproducer.sh"), case_dir,
                        tgz], capture_output=True, text=True)
    names = subprocess.run(["tar", "-tzf", tgz], capture_output=True, text=True).stdout.split() \
        if r.returncode == 0 else []
    want = ["compare.json", "manifest.json", "gcnsim/run.json", "device/run.json", "gcndis.txt",
            "llvm-objdump.txt", "versions.txt", "README.txt"]
    missing = [w for w in want if "gcnrun-reproducer/" + w not in names]
    if r.returncode != 0 or missing or not any(n.endswith(".hsaco") for n in names):
        bad.append("reproducer.sh: exit %d, missing %s: %s" % (r.returncode, missing,
                                                                r.stderr.strip()))
    else:
        print("reproducer of %s: %d files" % (case["label"], len(names)))
if not done:
    bad.append("no case to mutate")
for b in bad:
    print("FAIL: " + b)
print("%d identical through gcnrun's simulator backend; %s" %
      (c["identical"], "FAIL" if bad else "ok"))
sys.exit(1 if bad else 0)
PYEOF
