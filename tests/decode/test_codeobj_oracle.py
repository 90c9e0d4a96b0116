#!/usr/bin/env python3
"""test_codeobj_oracle.py -- write what LLVM 22's own tools say about a code
object, as simple "key value" lines the CUnit test (test_codeobj.c) compares
with the reader's fields.  Nothing here is typed by hand: every value comes
from llvm-readelf-22 (-h, -s, --notes) and llvm-objdump-22 (-D
--disassemble-symbols=NAME.kd for the kernel descriptors, -d -l for lines).

usage: test_codeobj_oracle.py FILE > FILE.expect

Output lines:
  header abi N | header flags 0xHEX | header mach NAME | header type DYN|REL
  sym NAME VALUE SIZE TYPE            (symbols of .symtab, else .dynsym)
  kernel NAME
  kd NAME KEY VALUE                   (.amdhsa_KEY VALUE of the descriptor)
  md NAME KEY VALUE                   (scalar keys of the kernel's metadata map)
  nargs NAME N
  arg NAME INDEX KEY VALUE
  line 0xADDR LINE FILE               (first instruction after each "; FILE:LINE")
"""
import os
import re
import subprocess
import sys

READELF = os.environ.get("LLVM_READELF") or "llvm-readelf-22"
OBJDUMP = os.environ.get("LLVM_OBJDUMP") or "llvm-objdump-22"


def run(*args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("oracle: %s failed: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout


def header(path, out):
    txt = run(READELF, "-h", path)
    m = re.search(r"ABI Version:\s+(\d+)", txt)
    out.append("header abi %s" % m.group(1))
    m = re.search(r"Flags:\s+(0x[0-9a-fA-F]+)(?:, (\S+?))?(?:,|$)", txt, re.M)
    out.append("header flags %s" % m.group(1))
    if m.group(2):
        out.append("header mach %s" % m.group(2))
    m = re.search(r"Type:\s+(\w+)", txt)
    out.append("header type %s" % m.group(1))


def symbols(path, out):
    txt = run(READELF, "-s", "--wide", path)
    tables = {}
    cur = None
    for ln in txt.splitlines():
        m = re.match(r"Symbol table '(\S+)' contains", ln)
        if m:
            cur = tables.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*(\d+):\s+([0-9a-f]+)\s+(\S+)\s+(\w+)\s+\w+\s+\w+\s+\S+\s?(.*)$", ln)
        if m and cur is not None:
            if int(m.group(1)) == 0:
                continue
            size = m.group(3)
            size = int(size, 16) if size.startswith("0x") else int(size)
            cur.append((m.group(5).strip(), int(m.group(2), 16), size, m.group(4)))
    syms = tables.get(".symtab") or tables.get(".dynsym") or []
    for name, value, size, typ in syms:
        if name and " " not in name:
            out.append("sym %s 0x%x %d %s" % (name, value, size, typ))


def scalar(v):
    v = v.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        v = v[1:-1]
    return v


def notes(path, out):
    """Parse the YAML llvm-readelf prints for the metadata note (its fixed
    layout: kernels are "  - " items, their keys at indent 4, args "      - "
    items with keys at indent 8)."""
    txt = run(READELF, "--notes", path)
    kernels = []
    in_kernels = False
    kern = arg = None
    key_list = None
    for ln in txt.splitlines():
        if re.match(r"^amdhsa\.kernels:", ln):
            in_kernels = True
            continue
        if re.match(r"^\S", ln):
            in_kernels = False
            continue
        if not in_kernels:
            continue
        m = re.match(r"^(\s*)(- )?(\.[\w.]+):\s*(.*)$", ln)
        if not m:
            continue
        ind = len(m.group(1)) + (2 if m.group(2) else 0)
        key, val = m.group(3), m.group(4)
        if m.group(2) and len(m.group(1)) == 2:      # new kernel
            kern = {"md": {}, "args": []}
            kernels.append(kern)
            arg = None
        if kern is None:
            continue
        if m.group(2) and len(m.group(1)) == 6 and key_list == ".args":   # new arg
            arg = {}
            kern["args"].append(arg)
        if ind == 4:
            key_list = key if val == "" else None
            arg = None
            if val != "":
                kern["md"][key] = scalar(val)
        elif ind == 8 and arg is not None:
            arg[key] = scalar(val)
    return kernels


def descriptors(path, names, out):
    if not names:
        return
    txt = run(OBJDUMP, "-D", "--disassemble-symbols=" + ",".join(n + ".kd" for n in names), path)
    cur = None
    for ln in txt.splitlines():
        m = re.match(r"^\.amdhsa_kernel (\S+)", ln)
        if m:
            cur = m.group(1)
            continue
        m = re.match(r"^\s+\.amdhsa_(\w+)\s+(\S+)", ln)
        if m and cur:
            out.append("kd %s %s %s" % (cur, m.group(1), m.group(2)))


def lines(path, out):
    txt = run(READELF, "-S", "--wide", path)
    if ".debug_line" not in txt:
        return
    txt = run(OBJDUMP, "-d", "-l", path)
    pending = None
    for ln in txt.splitlines():
        m = re.match(r"^; (/.*):(\d+)$", ln)
        if m:
            pending = (m.group(1), int(m.group(2)))
            continue
        m = re.search(r"// ([0-9A-F]+):", ln)
        if m and ln.startswith("\t") and pending:
            out.append("line 0x%x %d %s" % (int(m.group(1), 16), pending[1], pending[0]))
            pending = None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    out = []
    header(path, out)
    symbols(path, out)
    kernels = notes(path, out)
    names = []
    for k in kernels:
        name = k["md"].get(".name")
        names.append(name)
        out.append("kernel %s" % name)
        for key, val in sorted(k["md"].items()):
            out.append("md %s %s %s" % (name, key, val))
        out.append("nargs %s %d" % (name, len(k["args"])))
        for i, a in enumerate(k["args"]):
            for key, val in sorted(a.items()):
                out.append("arg %s %d %s %s" % (name, i, key, val))
    descriptors(path, names, out)
    lines(path, out)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
