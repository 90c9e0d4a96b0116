#!/usr/bin/python3
"""test_devcmp.py -- tests of the cross-check's compare tool (tests/device/devcmp) on dumps
made here, so they run without a GPU and without a working simulator: identical dumps, one
flipped bit (found, named, both values printed), a difference in the inputs, not the same
dispatch, missing and short files, stated tolerances (accepted only for kernels with an
approximate instruction, a 1-ulp difference within 2 ulp, 3 ulp beyond), --summary counts,
and the report formats (docs/gcnrun.md "Reports").

  test_devcmp.py DEVCMP_PROGRAM WORK_DIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys

KERNEL_S = """.amdhsa_code_object_version 5
.text
.globl %(k)s
.p2align 8
.type %(k)s,@function
%(k)s:
    v_mov_b32 v1, v0
%(body)s    s_endpgm
.L%(k)s_end:
.size %(k)s, .L%(k)s_end - %(k)s
.rodata
.p2align 6
.amdhsa_kernel %(k)s
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 8
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: %(k)s
    .symbol: %(k)s.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 8
    .max_flat_workgroup_size: 256
    .args:
      - {.name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
...
.end_amdgpu_metadata
"""

FAILS = []
PASSED = []


def check(cond, what):
    print("%s %s" % ("ok  " if cond else "FAIL", what))
    (PASSED if cond else FAILS).append(what)


def make_kernel(work, name, body):
    src = os.path.join(work, name + ".s")
    with open(src, "w") as fh:
        fh.write(KERNEL_S % {"k": name, "body": body})
    hsaco = os.path.join(work, name + ".hsaco")
    clang = os.environ.get("CLANG22") or "clang-22"
    r = subprocess.run([clang, "-x", "assembler", "-target", "amdgcn-amd-amdhsa",
                        "-mcpu=gfx942", src, "-o", hsaco], capture_output=True, text=True)
    if r.returncode:
        sys.exit("cannot assemble %s: %s" % (src, r.stderr))
    manifest = os.path.join(work, name + ".json")
    with open(manifest, "w") as fh:
        json.dump({"code": name + ".hsaco", "kernel": name, "targets": ["gfx942"],
                   "params": {"N": 8}, "grid": [1], "block": [64],
                   "buffers": {"x": {"size": "N*4", "init": {"random": "f32", "seed": 3}},
                               "out": {"size": "N*4", "init": "zero"}},
                   "args": [{"buffer": "out"}], "outputs": ["out"]}, fh)
    return manifest, hsaco


def write_dump(d, manifest, kernel, bufs, device=None, params=None):
    """bufs: name -> (in bytes, out bytes)"""
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    run = {"manifest": manifest, "kernel": kernel, "target": "gfx942",
           "params": params or {"N": 8}, "grid": [1, 1, 1], "block": [64, 1, 1],
           "buffers": {n: {"size": len(b[0]), "in": n + ".in.bin", "out": n + ".bin"}
                       for n, b in bufs.items()},
           "args": [{"kind": "buffer", "buffer": "out"}], "outputs": ["out"]}
    if device:
        run["tool"] = "gcnrun"
        run["device"] = device
    with open(os.path.join(d, "run.json"), "w") as fh:
        json.dump(run, fh)
    for n, (i, o) in bufs.items():
        with open(os.path.join(d, n + ".in.bin"), "wb") as fh:
            fh.write(i)
        with open(os.path.join(d, n + ".bin"), "wb") as fh:
            fh.write(o)


def f32s(v):
    return struct.pack("<%df" % len(v), *v)


def bump(data, index, ulps):
    """data with element `index` (f32) moved up by `ulps` units in the last place."""
    w = list(struct.unpack("<%dI" % (len(data) // 4), data))
    w[index] += ulps      # positive floats: the next representable numbers
    return struct.pack("<%dI" % len(w), *w)


def devcmp(prog, work, sim, dev, *extra):
    rj, rt = os.path.join(work, "r.json"), os.path.join(work, "r.txt")
    for p in (rj, rt):
        if os.path.exists(p):
            os.remove(p)
    r = subprocess.run([prog] + list(extra) + ["--report-json", rj, "--report-text", rt, sim, dev],
                       capture_output=True, text=True)
    rep = txt = None
    if os.path.exists(rj):
        with open(rj) as fh:
            rep = json.load(fh)
    if os.path.exists(rt):
        with open(rt) as fh:
            txt = fh.read()
    return r.returncode, rep, txt, r.stderr


def main(argv):
    prog, work = argv[1], argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    plain, plain_co = make_kernel(work, "plain", "    v_add_f32 v2, v1, v1\n")
    approx, approx_co = make_kernel(work, "approx", "    v_exp_f32 v2, v1\n    v_rcp_f32 v3, v2\n")
    dev = {"backend": "hip", "index": 0, "name": "Test GPU", "arch": "gfx942:sramecc+:xnack-",
           "target": "gfx942", "runtime": "HIP runtime 6.2.41133", "runtime_version": 60241133,
           "driver_version": 60241133}
    xin = f32s([0.5, -0.25, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    zero = bytes(32)
    out = f32s([1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5])
    S, D = os.path.join(work, "sim"), os.path.join(work, "dev")

    # 1. identical
    write_dump(S, plain, "plain", {"x": (xin, xin), "out": (zero, out)})
    write_dump(D, plain, "plain", {"x": (xin, xin), "out": (zero, out)}, dev)
    rc, rep, txt, err = devcmp(prog, work, S, D, "--code", plain_co)
    check(rc == 0 and rep["result"] == "identical", "identical dumps: exit 0, identical (%d %s)"
          % (rc, err.strip()))
    check(rep["format"] == "gcnrun-compare/1" and rep["device"]["name"] == "Test GPU" and
          rep["kernel"] == "plain" and rep["target"] == "gfx942", "report names kernel, target, device")
    check(txt and "result: IDENTICAL" in txt and "Test GPU" in txt, "text report says IDENTICAL")
    check(rep["approximate_instructions"] == [], "no approximate instruction in plain")
    # the code is found through run.json's manifest when --code is not given
    rc, rep, _, err = devcmp(prog, work, S, D)
    check(rc == 0, "code found through the manifest (%s)" % err.strip())

    # 2. one flipped bit in the last element of the output
    bad = bytearray(out)
    bad[-1] ^= 0x01
    write_dump(D, plain, "plain", {"x": (xin, xin), "out": (zero, bytes(bad))}, dev)
    rc, rep, txt, err = devcmp(prog, work, S, D, "--code", plain_co)
    b = [x for x in rep["buffers"] if x["name"] == "out"][0]
    fd = b.get("first_difference", {})
    want_dev = "0x%08x" % struct.unpack("<I", bytes(bad[-4:]))[0]
    want_sim = "0x%08x" % struct.unpack("<I", out[-4:])[0]
    check(rc == 1 and rep["result"] == "different", "one flipped bit: exit 1, different")
    check(fd.get("index") == 7 and fd.get("byte_offset") == 28 and
          fd.get("device", "").startswith(want_dev) and fd.get("gcnsim", "").startswith(want_sim),
          "first difference out[7] at byte 28 with both values (%s)" % json.dumps(fd))
    check(b["differing_elements"] == 1 and b["elements"] == 8, "one of eight elements differs")
    check(txt and "out[7]" in txt and want_dev in txt and want_sim in txt and "DIFFERENT" in txt,
          "text names out[7] and both values")
    # a difference in a buffer that is not an output is a difference as well
    bad_x = bytearray(xin)
    bad_x[0] ^= 0x80
    write_dump(D, plain, "plain", {"x": (xin, bytes(bad_x)), "out": (zero, out)}, dev)
    rc, rep, _, _ = devcmp(prog, work, S, D, "--code", plain_co)
    check(rc == 1 and [x for x in rep["buffers"] if x["name"] == "x"][0]["result"] == "different",
          "a changed non-output buffer is different")

    # 3. different initial bytes: an error of gcnrun, not a device result
    write_dump(D, plain, "plain", {"x": (bytes(bad_x), bytes(bad_x)), "out": (zero, out)}, dev)
    rc, rep, _, err = devcmp(prog, work, S, D, "--code", plain_co)
    check(rc == 2 and rep["result"] == "error" and "initial" in rep.get("error", ""),
          "different inputs: exit 2 (%s)" % err.strip())

    # 4. not the same dispatch
    write_dump(D, plain, "plain", {"x": (xin, xin), "out": (zero, out)}, dev, params={"N": 9})
    rc, rep, _, err = devcmp(prog, work, S, D, "--code", plain_co)
    check(rc == 2 and "params" in rep.get("error", ""), "different params: exit 2 (%s)" % err.strip())

    # 5. missing / short files
    write_dump(D, plain, "plain", {"x": (xin, xin), "out": (zero, out)}, dev)
    os.remove(os.path.join(D, "out.bin"))
    rc, rep, _, err = devcmp(prog, work, S, D, "--code", plain_co)
    check(rc == 2 and "out.bin" in rep.get("error", ""), "missing out.bin: exit 2 (%s)" % err.strip())
    write_dump(D, plain, "plain", {"x": (xin, xin), "out": (zero, out)}, dev)
    with open(os.path.join(D, "out.bin"), "wb") as fh:
        fh.write(out[:-4])
    rc, rep, _, err = devcmp(prog, work, S, D, "--code", plain_co)
    check(rc == 2 and "28 bytes" in rep.get("error", ""), "short out.bin: exit 2 (%s)" % err.strip())
    shutil.rmtree(os.path.join(D))
    rc, rep, _, err = devcmp(prog, work, S, D, "--code", plain_co)
    check(rc == 2 and rep["result"] == "error", "missing device dump directory: exit 2")

    # 6. tolerances
    tol = os.path.join(work, "tol.json")
    with open(tol, "w") as fh:
        json.dump({"tolerances": [
            {"kernel": "approx", "buffer": "out", "type": "f32", "ulp": 2, "why": "test"},
            {"kernel": "plain", "buffer": "out", "type": "f32", "ulp": 2, "why": "not allowed"}]},
            fh)
    write_dump(S, approx, "approx", {"x": (xin, xin), "out": (zero, out)})
    write_dump(D, approx, "approx", {"x": (xin, xin), "out": (zero, bump(out, 3, 1))}, dev)
    rc, rep, txt, err = devcmp(prog, work, S, D, "--code", approx_co, "--tolerance", tol)
    b = [x for x in rep["buffers"] if x["name"] == "out"][0]
    check(rc == 0 and rep["result"] == "within-tolerance" and b["compare"] == "f32 within 2 ulp",
          "1 ulp with a 2-ulp tolerance: exit 0, within-tolerance (%s)" % err.strip())
    check(rep["approximate_instructions"] == ["v_exp_f32", "v_rcp_f32"],
          "approximate instructions listed (%s)" % rep["approximate_instructions"])
    check(b["first_difference"]["ulp"] == 1 and b["max_ulp"] == 1, "ulp distance reported")
    write_dump(D, approx, "approx", {"x": (xin, xin), "out": (zero, bump(out, 5, 3))}, dev)
    rc, rep, txt, _ = devcmp(prog, work, S, D, "--code", approx_co, "--tolerance", tol)
    b = [x for x in rep["buffers"] if x["name"] == "out"][0]
    check(rc == 1 and b["beyond_tolerance"] == 1 and b["first_difference"]["index"] == 5 and
          b["first_difference"]["ulp"] == 3, "3 ulp with a 2-ulp tolerance: exit 1, out[5]")
    # without a tolerance entry the same kernel is compared bit for bit
    write_dump(D, approx, "approx", {"x": (xin, xin), "out": (zero, bump(out, 3, 1))}, dev)
    rc, rep, txt, _ = devcmp(prog, work, S, D, "--code", approx_co)
    check(rc == 1 and "v_exp_f32" in txt, "no tolerance: 1 ulp is a difference; text lists v_exp_f32")
    # a tolerance for a kernel without approximate instructions is refused
    write_dump(S, plain, "plain", {"x": (xin, xin), "out": (zero, out)})
    write_dump(D, plain, "plain", {"x": (xin, xin), "out": (zero, out)}, dev)
    rc, rep, _, err = devcmp(prog, work, S, D, "--code", plain_co, "--tolerance", tol)
    check(rc == 2 and "no approximate instruction" in rep.get("error", ""),
          "tolerance for a kernel without approximate instructions: exit 2 (%s)" % err.strip())
    with open(tol, "w") as fh:
        json.dump({"tolerances": [{"kernel": "approx", "buffer": "out", "type": "u32", "ulp": 2}]},
                  fh)
    write_dump(S, approx, "approx", {"x": (xin, xin), "out": (zero, out)})
    write_dump(D, approx, "approx", {"x": (xin, xin), "out": (zero, out)}, dev)
    rc, rep, _, _ = devcmp(prog, work, S, D, "--code", approx_co, "--tolerance", tol)
    check(rc == 2, "a tolerance on an integer type is refused")

    # 7. --summary
    cases = []
    for i, (res, extra) in enumerate([("identical", {}), ("different", {}),
                                       ("skipped", {"reason": "no device"})]):
        c = {"format": "gcnrun-compare/1", "kernel": "k%d" % i, "target": "gfx942",
             "params": {"N": i}, "result": res, "device": dev}
        c.update(extra)
        p = os.path.join(work, "case%d.json" % i)
        with open(p, "w") as fh:
            json.dump(c, fh)
        cases.append(p)
    rj, rt = os.path.join(work, "sum.json"), os.path.join(work, "sum.txt")
    r = subprocess.run([prog, "--summary", "--report-json", rj, "--report-text", rt] + cases,
                       capture_output=True, text=True)
    with open(rj) as fh:
        s = json.load(fh)
    with open(rt) as fh:
        st = fh.read()
    check(r.returncode == 0 and s["format"] == "gcnrun-report/1" and
          s["counts"] == {"identical": 1, "within-tolerance": 0, "different": 1, "error": 0,
                          "skipped": 1} and len(s["cases"]) == 3 and s["device"]["name"] == "Test GPU",
          "summary counts and cases")
    check(st.strip().splitlines()[-1] ==
          "1 identical, 0 within tolerance, 1 different, 0 errors, 1 skipped" and
          "result: SKIPPED: no device" in st, "summary text")

    print("%d passed, %d failed" % (len(PASSED), len(FAILS)))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
