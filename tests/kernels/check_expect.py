#!/usr/bin/python3
"""check_expect.py -- checks a kernels/<dir>/expect.json against the code: every kernel named
there is assembled (or compiled, .hip) for gfx942 and gfx950 (or the entry's "targets"), must
exist as a symbol, and every
{"pc", "text"} in its reports must be the llvm-objdump-22 text at that offset from the kernel
symbol.  This keeps the expected
simulator/linter reports (which other tests consume) true to the sources.

Usage: check_expect.py [--clang CLANG] [--objdump OBJDUMP] EXPECT.json [...]
Exit 0 if all entries match, 1 otherwise, 77 (skip) if the LLVM tools are missing.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TARGETS = ("gfx942", "gfx950")


HIP_FLAGS = ["-x", "hip", "-nogpulib", "-nogpuinc", "--cuda-device-only", "--no-gpu-bundle-output",
             "-O2", "-mcode-object-version=5"]


def disassemble(clang, objdump, src, target, tmp):
    """Map kernel name -> {offset: text} for the code assembled (.s) or compiled (.hip) from
    SRC."""
    out = os.path.join(tmp, os.path.basename(src) + "." + target + ".hsaco")
    if src.endswith(".hip"):
        cmd = [clang] + HIP_FLAGS + ["--offload-arch=" + target, src, "-o", out]
    else:
        cmd = [clang, "-x", "assembler", "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target, "-g",
               src, "-o", out]
    subprocess.run(cmd, check=True)
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", out], check=True,
                          capture_output=True, text=True).stdout
    funcs, cur, base = {}, None, 0
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            base, cur = int(m.group(1), 16), m.group(2)
            funcs[cur] = {}
            continue
        m = re.match(r"^\s+(\S.*?)\s*//\s*([0-9A-Fa-f]+):", line)
        if m and cur:
            insn = re.sub(r"\s+", " ", m.group(1)).strip()
            funcs[cur][int(m.group(2), 16) - base] = insn
    return funcs


def refs(entry):
    """Every {"pc", "text"} of an entry's reports: as a role's value or in a role's list."""
    for rep in entry.get("reports", []) + entry.get("optional", []):
        for role, val in rep.items():
            for v in (val if isinstance(val, list) else [val]):
                if isinstance(v, dict) and "pc" in v:
                    yield role, v


def main(argv):
    args = argv[1:]
    clang, objdump = "clang-22", "llvm-objdump-22"
    while args and args[0].startswith("--"):
        if args[0] == "--clang":
            clang = args[1]
        elif args[0] == "--objdump":
            objdump = args[1]
        args = args[2:]
    if not shutil.which(clang) or not shutil.which(objdump):
        print("check_expect: %s or %s not found: skipped" % (clang, objdump))
        return 77
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in args:
            with open(path) as f:
                expect = json.load(f)
            d = os.path.dirname(os.path.abspath(path))
            for kernel, entry in expect.items():
                if kernel.startswith("_"):
                    continue
                for target in entry.get("targets", TARGETS):
                    funcs = disassemble(clang, objdump, os.path.join(d, entry["file"]), target, tmp)
                    code = funcs.get(kernel)
                    if code is None:
                        print("FAIL %s %s: no symbol %s" % (path, target, kernel))
                        bad += 1
                        continue
                    for role, ref in refs(entry):
                        pc = int(ref["pc"], 16)
                        got = code.get(pc)
                        ok = got is not None and (got == ref["text"] or
                                                  got.replace("_e32", "") == ref["text"])
                        print("%s %s %s %s %s: %s" % ("ok  " if ok else "FAIL", kernel, target, role,
                                                      ref["pc"], got))
                        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
