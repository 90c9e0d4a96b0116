#!/usr/bin/python3
"""mfma_layouts.py -- generate tests/sim/mfma_layouts/gfx942.txt from the AMD Matrix
Instruction Calculator (github.com/ROCm/amd_matrix_instruction_calculator, v1.3.2).

The calculator is NOT part of gcnsim: check it out anywhere and point --calc at its
matrix_calculator.py (it needs python3 and Debian's python3-tabulate).  This script runs
it as a program, once per instruction, matrix and modifier setting, and writes one
compact text file that tests/sim/test_mfma_layout.c compares the simulator against.

  tools/mfma_layouts.py --calc /tmp/mic/matrix_calculator.py \\
      --out tests/sim/mfma_layouts/gfx942.txt

For every CDNA3 (gfx942) MFMA/SMFMAC instruction the calculator lists it records:
  * --detail-instruction: M N K blocks, GPR counts, cycles, sparse, and whether CBSZ/ABID
    and BLGP are supported;
  * --register-layout --csv for A, B, C, D (SMFMAC: A, B, D and the compression index K):
    where (register, lane, bit range) each element lives, with the instruction's
    modifiers: A for every legal (CBSZ, ABID) when supported, B for every BLGP 1..7 when
    supported (on the f64 MFMAs BLGP negates A/B/C: the sign is recorded), K (SMFMAC)
    for every (CBSZ, ABID) the index register allows;
  * a cross-check of the parsed tables: for the last element of every default map,
    --get-register must give the same place and --matrix-entry at that place must name
    that element (the script stops if not).

Output format (one record per line; '#' starts a comment line):
  insn MNEM M N K BLOCKS GPRS_A GPRS_B GPRS_C GPRS_D CYCLES SPARSE CBSZ_ABID BLGP
        (GPRS_C is 0 for SMFMAC: C is D; flags are 0/1)
  map MNEM MATRIX CBSZ ABID BLGP WIDTH : ENTRY ...
        MATRIX is A, B, C, D or K; WIDTH the element's bit width (64 for f64: the entry
        names the low register of the pair; 32 for a whole register).  The SMFMAC A
        entries name the bits of the element's compressed 4-group (its two stored values:
        a whole register for 16-bit types, a 16-bit half for 8-bit ones).  ENTRIES are in element order: blocks, then rows, then columns
        (A[b][i][k], B[b][k][j], C/D[b][i][j], K[b][i][k]); each is REG.LANE.BITLO, with a
        leading '-' when the modifier negates the element.  A run of N >= 3 entries whose
        register, lane and bit each change by a constant is written REG.LANE.BITLO*N+DR+DL+DB
        (signed steps), e.g. 0.0.0*32+0+1+0 = lanes 0..31 of register 0.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

ARCH = "cdna3"

FLAG = {"A": "-A", "B": "-B", "C": "-C", "D": "-D", "K": "-k"}   # K = compression index
CELL = re.compile(r"^(-?)v(?:(\d+)|\[(\d+):(\d+)\])\{(\d+)\}(?:\.\[(\d+):(\d+)\])?$")


def run(args, calc, py):
    r = subprocess.run([py, calc, "-a", ARCH] + args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("calculator %s failed:\n%s%s" % (" ".join(args), r.stdout, r.stderr))
    return r.stdout


def detail(calc, py, insn):
    out = run(["-i", insn, "-d"], calc, py)
    d = {}
    pats = {
        "M": r"^\s+M: (\d+)", "N": r"^\s+N: (\d+)", "K": r"^\s+K: (\d+)",
        "blocks": r"^\s+blocks: (\d+)", "cycles": r"Execution cycles: (\d+)",
        "ga": r"GPRs required for A: (\d+)", "gb": r"GPRs required for B: (\d+)",
        "gc": r"GPRs required for C: (\d+)", "gd": r"GPRs required for D: (\d+)",
    }
    for k, p in pats.items():
        m = re.search(p, out, re.M)
        d[k] = int(m.group(1)) if m else 0
    d["sparse"] = int("Sparse A matrix: True" in out)
    d["cbsz"] = int("CBSZ and ABID bits supported: True" in out)
    d["blgp"] = int("BLGP bits supported: True" in out)
    return d


def parse_cell(c):
    m = CELL.match(c.strip())
    if not m:
        raise ValueError("cannot parse cell %r" % c)
    neg, reg, hi2, lo2, lane, bhi, blo = m.groups()
    if reg is not None:
        r, width = int(reg), 32
    else:
        r, width = int(lo2), 32 * (int(hi2) - int(lo2) + 1)
    if blo is not None:
        lo, width = int(blo), int(bhi) - int(blo) + 1
    else:
        lo = 0
    return (neg == "-", r, int(lane), lo, width)


def layout(calc, py, insn, matrix, d, cbsz=0, abid=0, blgp=0):
    """{(block, row, col): (neg, reg, lane, bitlo, width)} from --register-layout --csv."""
    args = ["-i", insn, FLAG[matrix], "-R", "-c"]
    if d["cbsz"] and matrix in "AK":
        args += ["--cbsz", str(cbsz), "--abid", str(abid)]
    if d["blgp"] and blgp:
        args += ["--blgp", str(blgp)]
    out = run(args, calc, py)
    res = {}
    blocks = None
    for line in out.splitlines():
        if line.startswith("Block"):
            blocks = [int(x) for x in line.split(None, 1)[1].split(",")]
            continue
        if blocks is None or not line or line[0] not in "0123456789":
            continue
        cells = line.split(",")
        row = int(cells[0])
        for col, c in enumerate(cells[1:]):
            for b in blocks:
                res[(b, row, col)] = parse_cell(c)
    return res


def dims(d, matrix):
    M, N, K, B = d["M"], d["N"], d["K"], d["blocks"]
    return {"A": (B, M, K), "K": (B, M, K), "B": (B, K, N), "C": (B, M, N), "D": (B, M, N)}[matrix]


def encode(d, matrix, lay):
    nb, nr, nc = dims(d, matrix)
    if len(lay) != nb * nr * nc:
        raise ValueError("%s: %d entries, expected %d" % (matrix, len(lay), nb * nr * nc))
    widths = {v[4] for v in lay.values()}
    if len(widths) != 1:
        raise ValueError("%s: mixed widths %s" % (matrix, widths))
    seq = [lay[(b, r, c)][:4] for b in range(nb) for r in range(nr) for c in range(nc)]
    ents, i = [], 0
    while i < len(seq):
        neg, reg, lane, lo = seq[i]
        n, step = 1, None
        if i + 2 < len(seq) and seq[i + 1][0] == neg:
            step = tuple(seq[i + 1][x] - seq[i][x] for x in (1, 2, 3))
            while (i + n < len(seq) and seq[i + n][0] == neg and
                   tuple(seq[i + n][x] - seq[i + n - 1][x] for x in (1, 2, 3)) == step):
                n += 1
        text = "%s%d.%d.%d" % ("-" if neg else "", reg, lane, lo)
        if n >= 3:
            text += "*%d%+d%+d%+d" % ((n,) + step)
        else:
            n = 1
        ents.append(text)
        i += n
    return widths.pop(), " ".join(ents)


def crosscheck(calc, py, insn, matrix, d, lay):
    """--get-register and --matrix-entry for the last element must agree with the table."""
    nb, nr, nc = dims(d, matrix)
    b, r, c = nb - 1, nr - 1, nc - 1
    coord = {"A": ["-I", r, "-K", c], "K": ["-I", r, "-K", c], "B": ["-K", r, "-J", c],
             "C": ["-I", r, "-J", c], "D": ["-I", r, "-J", c]}[matrix]
    args = ["-i", insn, FLAG[matrix], "-g", "-b", str(b)] + [str(x) for x in coord]
    out = run(args, calc, py)
    m = re.search(r"= (\S+)\s*$", out.strip())
    if not m or parse_cell(m.group(1)) != lay[(b, r, c)]:
        raise ValueError("%s %s: --get-register %r disagrees with table %r"
                         % (insn, matrix, out.strip().splitlines()[-1], lay[(b, r, c)]))
    _, reg, lane, lo, width = lay[(b, r, c)]
    if matrix == "K":
        return   # --matrix-entry has no compression-index view; --get-register was checked
    out = run(["-i", insn, FLAG[matrix], "-m", "-r", str(reg), "-l", str(lane)], calc, py)
    if d["blocks"] > 1:
        want = "%s[%d][%d].B%d" % ("A" if matrix == "K" else matrix, r, c, b)
    else:
        want = "%s[%d][%d]" % ("A" if matrix == "K" else matrix, r, c)
    names = [ln.split("=", 1)[1].strip() for ln in out.splitlines() if "=" in ln]
    if want not in names:
        raise ValueError("%s %s: --matrix-entry v%d{%d} gives %s, want %s"
                         % (insn, matrix, reg, lane, names, want))


def variants(d, insn):
    """(matrix, cbsz, abid, blgp) to record for one instruction."""
    out = []
    mats = "ABDK" if d["sparse"] else "ABCD"
    for mx in mats:
        out.append((mx, 0, 0, 0))
    if d["cbsz"] and not d["sparse"]:
        b = d["blocks"]
        cmax = b.bit_length() - 1
        for cb in range(0, cmax + 1):
            for ab in range(0, 1 << cb):
                if (cb, ab) != (0, 0):
                    out.append(("A", cb, ab, 0))
    if d["sparse"]:
        segs = 4 if insn.endswith("f16") else 2     # 8 or 16 index bits per lane
        for ab in range(1, segs):
            out.append(("K", 0, ab, 0))
        out.append(("K", 1, 0, 0))
    if d["blgp"]:
        for bl in range(1, 8):
            out.append(("B", 0, 0, bl))
            if "f64" in insn:
                out.append(("A", 0, 0, bl))
                out.append(("C", 0, 0, bl))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calc", default=os.environ.get("MIC", "/tmp/mic/matrix_calculator.py"))
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--out", default="tests/sim/mfma_layouts/gfx942.txt")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    calc, py = a.calc, a.python
    version = subprocess.run([py, calc, "-v"], capture_output=True, text=True).stdout.strip()
    insns = [ln.strip() for ln in run(["-L"], calc, py).splitlines()[1:] if ln.strip()]
    lines = ["# mfma_layouts/gfx942.txt -- GENERATED by tools/mfma_layouts.py; do not edit.",
             "# Source: %s (--architecture %s), %d instructions." % (version, ARCH, len(insns)),
             "# Format: see the header of tools/mfma_layouts.py."]
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        details = dict(zip(insns, pool.map(lambda i: detail(calc, py, i), insns)))
        jobs = []
        for insn in insns:
            d = details[insn]
            for (mx, cb, ab, bl) in variants(d, insn):
                jobs.append((insn, mx, cb, ab, bl,
                             pool.submit(layout, calc, py, insn, mx, d, cb, ab, bl)))
        nmaps = 0
        for insn in insns:
            d = details[insn]
            lines.append("insn %s %d %d %d %d %d %d %d %d %d %d %d %d" % (
                insn, d["M"], d["N"], d["K"], d["blocks"], d["ga"], d["gb"],
                0 if d["sparse"] else d["gc"], d["gd"], d["cycles"], d["sparse"], d["cbsz"],
                d["blgp"]))
            for (i2, mx, cb, ab, bl, fut) in jobs:
                if i2 != insn:
                    continue
                lay = fut.result()
                if (cb, ab, bl) == (0, 0, 0):
                    crosscheck(calc, py, insn, mx, d, lay)
                width, ents = encode(d, mx, lay)
                lines.append("map %s %s %d %d %d %d : %s" % (insn, mx, cb, ab, bl, width, ents))
                nmaps += 1
            sys.stderr.write("%-34s done\n" % insn)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("%s: %d instructions, %d maps" % (a.out, len(insns), nmaps))


if __name__ == "__main__":
    main()
