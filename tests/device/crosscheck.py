#!/usr/bin/python3
"""crosscheck.py -- the on-device cross-check (docs/gcnrun.md): for every bundled kernel
manifest (kernels/**/*.json) whose targets include a GPU present, every test size, run
gcnsim and gcnrun on the same manifest and compare their dumps with devcmp; gather the
comparisons into one report (REPORT_DIR/report.json, report.txt).  python3 stdlib only.

  crosscheck.py --gcnrun P --gcnsim P --devcmp P --work DIR --report-dir DIR
                [--backend hip|sim] [--kernels DIR] [--refs DIR] [--tolerance FILE]
                [--only SUBSTRING] [--device N] [--allow-sim-faults]

Exit: 0 every comparison identical (or within the stated tolerance), 1 a difference or an
error, 77 nothing could be compared (no device, no kernel for its target, ...: the reason
is printed).  Run by tests/device/test_device.sh (`make check`, `make check-device`).
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
SKIP = 77


def opt(args, name, default=None):
    if name in args:
        i = args.index(name)
        v = args[i + 1]
        del args[i:i + 2]
        return v
    return default


def flag(args, name):
    if name in args:
        args.remove(name)
        return True
    return False


def run(cmd, timeout=900):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return r.returncode, (r.stdout + r.stderr).strip()
    except subprocess.TimeoutExpired:
        return -999, "timed out after %d s" % timeout


def exit_text(rc):
    if rc == -999:
        return "timed out"
    if rc < 0:
        return "killed by signal %d" % -rc
    return "exit %d" % rc


def first_line(txt):
    lines = [l for l in txt.splitlines() if l.strip()]
    return lines[0] if lines else "(no message)"


def manifests(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".json"):
                p = os.path.join(d, f)
                try:
                    with open(p) as fh:
                        m = json.load(fh)
                except (OSError, ValueError):
                    continue
                if isinstance(m, dict) and "code" in m and "kernel" in m:
                    out.append(p)
    return out


def sizes(m):
    base = dict(m.get("params", {}))
    return [dict(base, **t) for t in (m.get("test_sizes") or [{}])]


def device_targets(gcnrun, backend, device):
    """{target: 'INDEX: ...' line} of the usable devices, or (None, reason)."""
    rc, txt = run([gcnrun, "--backend", backend, "--list-devices"], timeout=120)
    if rc == 5:
        return None, first_line(txt)
    if rc != 0:
        return None, "gcnrun --list-devices: %s: %s" % (exit_text(rc), first_line(txt))
    found = {}
    for line in txt.splitlines():
        parts = line.split()
        if len(parts) < 2 or not parts[0].endswith(":") or parts[1] == "-":
            continue
        if device is not None and parts[0] != "%s:" % device:
            continue
        found.setdefault(parts[1], line)
    if not found:
        return None, "no gfx942/gfx950 device in: " + txt.replace("\n", "; ")
    return found, ""


def skipped_case(path, m, t, params, reason, extra=None):
    c = {"format": "gcnrun-compare/1", "manifest": path, "kernel": m.get("kernel", ""),
         "target": t, "params": params, "result": "skipped", "reason": reason}
    c.update(extra or {})
    return c


def error_case(path, m, t, params, reason, extra=None):
    c = skipped_case(path, m, t, params, reason, extra)
    c["result"] = "error"
    return c


def ref_check(ref, d):
    if not ref or not os.path.exists(ref):
        return "not run (no reference program)"
    rc, txt = run([ref, d], timeout=300)
    if rc == 0:
        return "equal"
    if rc == 1:
        return "differs: " + first_line(txt)
    return "error (%s): %s" % (exit_text(rc), first_line(txt))


def main(argv):
    args = argv[1:]
    gcnrun = opt(args, "--gcnrun")
    gcnsim = opt(args, "--gcnsim")
    devcmp = opt(args, "--devcmp")
    work = opt(args, "--work")
    report_dir = opt(args, "--report-dir")
    backend = opt(args, "--backend", "hip")
    kdir = opt(args, "--kernels", os.path.join(TOP, "kernels"))
    refs = opt(args, "--refs")
    tol = opt(args, "--tolerance", os.path.join(HERE, "tolerance.json"))
    only = opt(args, "--only")
    device = opt(args, "--device")
    allow_sim_faults = flag(args, "--allow-sim-faults")
    if args or not (gcnrun and gcnsim and devcmp and work and report_dir):
        print(__doc__)
        return 2
    found, why = device_targets(gcnrun, backend, device)
    if not found:
        print("SKIP: %s" % why)
        return SKIP
    for t, line in sorted(found.items()):
        print("device for %s: %s" % (t, line))
    if backend != "hip":
        print("NOTE: backend %s -- a self-test of gcnrun's pipeline, not a device cross-check"
              % backend)

    # code objects for the targets present: WORK/build/<target>/<dir>/<stem>.{hsaco,json}
    build = os.path.join(work, "build")
    shutil.rmtree(build, ignore_errors=True)
    cmd = [sys.executable, os.path.join(TOP, "tests", "kernels", "kernels.py"), "build",
           "--kernels", kdir, "--out", build, "--targets", ",".join(sorted(found))]
    if refs:
        cmd += ["--refs", refs]
    rc, txt = run(cmd)
    if rc != 0:
        print("FAIL: building the kernels:\n" + txt)
        return 1

    cases_dir = os.path.join(work, "cases")
    shutil.rmtree(cases_dir, ignore_errors=True)
    case_files = []
    devopt = ["--device", device] if device is not None else []
    for t in sorted(found):
        tdir = os.path.join(build, t)
        if not os.path.isdir(tdir):
            continue
        for mp in manifests(tdir):
            with open(mp) as fh:
                m = json.load(fh)
            rel = os.path.relpath(mp, tdir)
            src_manifest = os.path.join(os.path.relpath(kdir, TOP) if kdir.startswith(TOP)
                                        else kdir, rel)
            if only and only not in rel and only not in m["kernel"]:
                continue
            ref = os.path.join(os.path.dirname(mp), m.get("reference", "ref"))
            hsaco = os.path.join(os.path.dirname(mp), m["code"])
            for i, params in enumerate(sizes(m)):
                base = os.path.join(cases_dir, t, os.path.splitext(rel)[0], str(i))
                simd, devd = os.path.join(base, "gcnsim"), os.path.join(base, "device")
                os.makedirs(base)
                sets = []
                for k, v in sorted(params.items()):
                    sets += ["--set", "%s=%d" % (k, v)]
                label = "%s %s %s" % (t, m["kernel"],
                                      " ".join("%s=%d" % kv for kv in sorted(params.items())))
                extra = {"label": label, "source_manifest": src_manifest, "sim_dir": simd,
                         "dev_dir": devd}
                # the whole dump, as gcnrun writes it: every buffer's inputs and final bytes
                outs = [a for b in sorted(json.load(open(mp))["buffers"]) for a in ("--output", b)]
                src, srt = run([gcnsim, "--manifest", mp, "--mcpu", t, "--dump-dir", simd, "--dump-inputs", "-q",
                                "--no-progress"] + outs + sets)
                drc, drt = run([gcnrun, "--backend", backend, "--manifest", mp, "--mcpu", t,
                                "--dump-dir", devd, "-q"] + devopt + sets)
                extra["gcnsim_exit"] = src
                extra["gcnrun_exit"] = drc
                case = None
                if drc == 5:
                    case = skipped_case(mp, m, t, params, "gcnrun: " + first_line(drt), extra)
                elif src == 3 and allow_sim_faults and drc == 3:
                    case = skipped_case(mp, m, t, params, "the kernel faults in gcnsim (and in "
                                        "gcnrun's simulator backend): " + first_line(srt), extra)
                elif src not in (0, 4):
                    case = error_case(mp, m, t, params, "gcnsim %s: %s" % (exit_text(src),
                                                                           first_line(srt)), extra)
                elif drc != 0:
                    case = error_case(mp, m, t, params, "gcnrun %s: %s" % (exit_text(drc),
                                                                           first_line(drt)), extra)
                cf = os.path.join(base, "compare.json")
                if case is None:
                    ccmd = [devcmp, "--code", hsaco, "--label", label, "--report-json", cf,
                            "--report-text", os.path.join(base, "compare.txt"), simd, devd]
                    if tol and os.path.exists(tol):
                        ccmd[1:1] = ["--tolerance", tol]
                    crc, ctxt = run(ccmd)
                    try:
                        with open(cf) as fh:
                            case = json.load(fh)
                    except (OSError, ValueError):
                        case = error_case(mp, m, t, params, "devcmp %s: %s" %
                                          (exit_text(crc), first_line(ctxt)), extra)
                    for k, v in extra.items():
                        case.setdefault(k, v)
                    case["reference"] = {"device": ref_check(ref, devd),
                                         "gcnsim": ref_check(ref, simd)}
                    if src == 4:
                        case["gcnsim_findings"] = True
                        if case.get("result") == "different":
                            case["result"] = "skipped"
                            case["reason"] = ("timing-dependent: gcnsim reports wait-counter "
                                              "findings, so the results depend on when memory "
                                              "returns; the device result differs")
                case["manifest"] = mp
                with open(cf, "w") as fh:
                    json.dump(case, fh, indent=2)
                case_files.append(cf)
                print("%-16s %s" % (case["result"], label))
                if case["result"] in ("different", "error"):
                    ct = os.path.join(base, "compare.txt")
                    if os.path.exists(ct):
                        with open(ct) as fh:
                            print("  " + fh.read().strip().replace("\n", "\n  "))
                    else:
                        print("  " + case.get("reason", case.get("error", "")))
    if not case_files:
        print("SKIP: no bundled kernel manifest lists a target of the device(s) present (%s)"
              % ", ".join(sorted(found)))
        return SKIP
    os.makedirs(report_dir, exist_ok=True)
    rj, rt = os.path.join(report_dir, "report.json"), os.path.join(report_dir, "report.txt")
    note = None if backend == "hip" else ("backend %s: a self-test of gcnrun's pipeline against "
                                          "gcnsim, not a device cross-check" % backend)
    cmd = [devcmp, "--summary", "--report-json", rj, "--report-text", rt]
    if note:
        cmd += ["--note", note]
    rc, txt = run(cmd + case_files)
    if rc != 0:
        print("FAIL: devcmp --summary: " + txt)
        return 1
    with open(rj) as fh:
        counts = json.load(fh)["counts"]
    with open(rt) as fh:
        last = fh.read().strip().splitlines()[-1]
    print(last)
    print("report: %s and %s" % (rt, rj))
    if counts["different"] or counts["error"]:
        return 1
    if not counts["identical"] and not counts["within-tolerance"]:
        print("SKIP: nothing could be compared")
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
