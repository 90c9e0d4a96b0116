#!/usr/bin/env python3
"""hz_mir.py -- turn the compact hazard cases (tests/analyze/inputs/hz_cases.txt)
into a MIR file for one target, one machine function per case, for llc-22 to
run its post-RA hazard recognizer on (see test_hazard_oracle.sh).

Case file syntax:
  # comment
  case NAME [gfx942|gfx950]      start a case (default: both targets)
  <MIR instruction>              one body line; shorthand:
      v5 a5 s5 -> $vgpr5 $agpr5 $sgpr5;  v[0:3] -> $vgpr0_vgpr1_vgpr2_vgpr3
      !E -> ", implicit $exec"   !ME -> ", implicit $mode, implicit $exec"
  mfma KIND DST A B C            an MFMA: KIND one of the keys of MFMA below
                                 (_vgprcd_e64 form when DST is a VGPR tuple)
  fill N                         N independent SALU moves (distance filler)

usage: hz_mir.py --mcpu gfx942 CASES > out.mir
"""
import re
import sys

MFMA = {
    "X2": "V_MFMA_F32_4X4X4F16",      # XDL, 2 passes
    "X4": "V_MFMA_F32_16X16X16F16",   # XDL, 4 passes
    "X8": "V_MFMA_F32_32X32X8F16",    # XDL, 8 passes
    "X16": "V_MFMA_F32_32X32X4F16",   # XDL, 16 passes
    "I4": "V_MFMA_I32_16X16X32I8",    # XDL, 4 passes (i8)
    "B8": "V_MFMA_F32_32X32X8BF16",   # XDL, 8 passes (bf16)
    "S2": "V_MFMA_F32_4X4X1F32",      # non-XDL f32, 2 passes
    "S8": "V_MFMA_F32_16X16X4F32",    # non-XDL f32, 8 passes
    "S16": "V_MFMA_F32_32X32X2F32",   # non-XDL f32, 16 passes
    "D4": "V_MFMA_F64_4X4X4F64",      # DGEMM 4x4 (4 passes)
    "D16": "V_MFMA_F64_16X16X4F64",   # DGEMM 16x16
}


def regs(kind, lo, hi):
    name = {"v": "vgpr", "a": "agpr", "s": "sgpr"}[kind]
    return "$" + "_".join("%s%d" % (name, i) for i in range(lo, hi + 1))


def expand(line):
    line = re.sub(r"(?<![\w$])([vas])\[(\d+):(\d+)\]",
                  lambda m: regs(m.group(1), int(m.group(2)), int(m.group(3))), line)
    line = re.sub(r"(?<![\w$])([vas])(\d+)(?![\w\[])",
                  lambda m: regs(m.group(1), int(m.group(2)), int(m.group(2))), line)
    line = line.replace("!ME", ", implicit $mode, implicit $exec")
    line = line.replace("!E", ", implicit $exec")
    return line


def body_line(line):
    w = line.split()
    if w[0] == "mfma":
        kind, dst, a, b, c = w[1], w[2], w[3], w[4], w[5]
        op = MFMA[kind] + ("_vgprcd_e64" if dst.startswith("v") else "_e64")
        return ["%s = %s %s, %s, %s, 0, 0, 0, implicit $mode, implicit $exec"
                % (expand(dst), op, expand(a), expand(b), expand(c))]
    if w[0] == "fill":
        return ["$sgpr%d = S_MOV_B32 0" % (90 + i % 8) for i in range(int(w[1]))]
    return [expand(line)]


def main():
    args = sys.argv[1:]
    mcpu = "gfx942"
    if args[:1] == ["--mcpu"]:
        mcpu, args = args[1], args[2:]
    cases, cur = [], None
    for raw in open(args[0]):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        w = line.split()
        if w[0] == "case":
            cur = {"name": w[1], "targets": w[2:] or ["gfx942", "gfx950"], "body": []}
            cases.append(cur)
            continue
        cur["body"] += body_line(line.strip())
    out = sys.stdout
    for c in cases:
        if mcpu not in c["targets"]:
            continue
        out.write("---\nname: %s\ntracksRegLiveness: false\nbody: |\n  bb.0:\n" % c["name"])
        for b in c["body"]:
            out.write("    %s\n" % b)
        out.write("    S_ENDPGM 0\n...\n")


if __name__ == "__main__":
    main()
