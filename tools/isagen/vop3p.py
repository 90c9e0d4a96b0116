#!/usr/bin/env python3
"""vop3p.py -- generate src/decode/isa/vop3p.def (the VOP3P family: packed
math, mixed-precision FMA, dot products, and all MAI instructions: MFMA,
SMFMAC, v_accvgpr_read/write, gfx950's v_mfma_ld_scale_b32 and the 128-bit
scaled MFMAs) for gfx942 and gfx950.

Every fact comes from the installed LLVM 22, asked opcode by opcode:
  * the disassembler (tests/decode/llvm_oracle, the same MCDisassembler and
    printer as llvm-objdump-22) gives mnemonics, operand order, register
    counts, which encoding bits must be zero, how modifiers print, how inline
    constants and literals print per operand;
  * llvm-mca-22 gives the number of passes of each MAI instruction (its
    reciprocal throughput = ReleaseAtCycles of the Write*PassMAI / DGEMM
    SchedWrite; LLVM SISchedule.td, SIDPGFX940FullSpeedModel /
    SIDPGFX950FullSpeedModel; GCNHazardRecognizer uses the same sched model
    latency as the pass count).  llvm-mca does not resolve the SchedVariant
    of the gfx950 f8f6f4 MFMAs (SISchedule.td: WriteMFMAScale_16X16X128_F8F6F4
    = 8 passes if either matrix is fp8/bf8 (cbsz/blgp <= 1) else 4;
    WriteMFMAScale_32X32X64_F8F6F4 = 16 else 8), so for those rows the PASSES
    column holds the f8 (larger) value and gcn_mfma_passes() computes the
    actual one from cbsz/blgp.
  * XDL vs not: LLVM GCNHazardRecognizer isXDL() = MAI, not DGEMM, not
    v_accvgpr_*, and MAIInst.is_gfx940_xdl (VOP3PInstructions.td: every MAI
    is_gfx940_xdl except the five f32 MFMAs 4x4x1/16x16x1/16x16x4/32x32x1/
    32x32x2 f32 and the f64 DGEMMs).
  * RD_MODE: VOP3PInstructions.td MAIInst/SMFMACInst set ReadsModeReg = 1;
    float packed/mixed/dot ops read the FP mode; integer ones do not.

usage: vop3p.py --oracle tests/decode/llvm_oracle [--mca llvm-mca-22] [-o FILE]
The output is committed; the build never runs this script.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import oracle

TARGETS = ("gfx942", "gfx950")
BASE = 0xD3800000          # VOP3P encoding, bits 31:23 = 0x1A7
SNOP = 0xBF800000
ORACLE = None

# ---------------------------------------------------------------- oracle


def disasm(cpu, seqs, slot=24):
    """Disassemble each word sequence at the start of its own slot.
    Returns [(size, text)], size 0 for invalid, -1 for an LLVM crash."""
    got = oracle.Oracle(ORACLE, slot).raw(cpu, seqs)
    res = []
    for i in range(len(seqs)):
        n, t = got.get(i, (-1, "<crash>"))
        res.append((-1 if t == "<crash>" else 0 if t == "<invalid>" else n, t))
    return res


def split_text(t):
    """'mnem a, b, c mods' -> (mnem, [a, b, c], mods); LLVM's /*...*/ notes
    after an operand stay part of it."""
    mn, _, rest = t.partition(" ")
    ops, cur, i, n = [], "", 0, len(rest)
    while i < n:
        if rest.startswith("/*", i):
            j = rest.index("*/", i) + 2
            cur += rest[i:j]
            i = j
        elif rest.startswith(", ", i):
            ops.append(cur)
            cur, i = "", i + 2
        elif rest[i] == " ":
            break
        else:
            cur += rest[i]
            i += 1
    if cur or ops:
        ops.append(cur)
    return mn, ops, rest[i + 1:] if i < n else ""


REG_RE = re.compile(r"^([va])(?:(\d+)|\[(\d+):(\d+)\])$")


def reg_info(tok):
    """'v[4:7]' -> ('v', 4, 4); 'a3' -> ('a', 3, 1)."""
    m = REG_RE.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 1
    lo, hi = int(m.group(3)), int(m.group(4))
    return m.group(1), lo, hi - lo + 1

# ---------------------------------------------------------------- discovery


def w64(w0, w1):
    return w0 | (w1 << 32)


def canonical(cpu, op):
    """A valid 64-bit encoding of opcode op (vdst/src registers distinct)."""
    cands = [
        [BASE | (op << 16), 256 | (258 << 9) | (260 << 18)],
        [BASE | (op << 16) | 0x8000, 272 | (288 << 9) | (320 << 18)],
        [BASE | (op << 16), 280 | (281 << 9)],             # v_mfma_ld_scale_b32: vdst, src2 = 0
    ]
    for c, (n, t) in zip(cands, disasm(cpu, cands)):
        if n == 8:
            return c, t
    return None, None


def classify(mn):
    if mn == "v_mfma_ld_scale_b32":
        return "ldscale"
    if mn.startswith("v_mfma_scale_"):
        return "mfmascale"
    if mn.startswith("v_mfma_"):
        return "mfma"
    if mn.startswith("v_smfmac_"):
        return "smfmac"
    if mn == "v_accvgpr_read_b32":
        return "accr"
    if mn == "v_accvgpr_write_b32":
        return "accw"
    return "valu"


def flip(c, b):
    w = list(c)
    w[b // 32] ^= 1 << (b % 32)
    return w


def zero_mask(cpu, c, t):
    """Bits (outside opcode/encoding) whose flip makes the word invalid."""
    bits = [b for b in range(64) if not 16 <= b < 32]
    res = disasm(cpu, [flip(c, b) for b in bits])
    m = 0
    for b, (n, _) in zip(bits, res):
        if n == 0:
            m |= 1 << b
    return m


def mod_letters(cpu, cls, c, t, nsrc):
    """Modifier kinds this opcode prints, from single-bit flips."""
    probes = {8: None, 11: None, 14: None, 15: None, 59: None, 61: None}
    res = disasm(cpu, [flip(c, b) for b in probes])
    got = {b: r for b, r in zip(probes, res)}
    _, _, mods0 = split_text(t)
    L = ""
    if cls in ("mfma", "smfmac"):
        if "cbsz:1" in got[8][1]:
            L += "C"
        if "abid:1" in got[11][1]:
            L += "A"
        if "blgp:1" in got[61][1]:
            L += "B"
        elif "neg:[1," in got[61][1]:
            L += "N"
        return L
    if cls in ("accr", "accw"):
        return L
    if "op_sel:[1" in got[11][1]:
        L += "o"
    if "op_sel_hi:" in mods0 or "op_sel_hi:[1" in got[59][1]:
        L += "h"
    if "op_sel_hi:[0" in mods0:
        L += "p"                     # packed: op_sel_hi defaults to 1
    if "neg_lo:[1" in got[61][1]:
        L += "l"
    if "neg_hi:[1" in got[8][1]:
        L += "n"
    if got[8][0] == 8 and "|" in got[8][1]:
        L += "a"                     # mix: neg_hi -> |abs|, neg_lo -> -neg
    if got[15][0] == 8 and got[15][1].endswith(" clamp"):
        L += "c"
    return L


# Inline-constant / literal print classes (see the .def header).
INL_F32 = {0x3f000000: "0.5", 0xbf000000: "-0.5", 0x3f800000: "1.0", 0xbf800000: "-1.0",
           0x40000000: "2.0", 0xc0000000: "-2.0", 0x40800000: "4.0", 0xc0800000: "-4.0",
           0x3e22f983: "0.15915494"}
INL_F16 = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118}
INL_BF16 = {0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080, 0x3e22}
INL_F64HI = {0x3fe00000: "0.5", 0xbfe00000: "-0.5", 0x3ff00000: "1.0", 0xbff00000: "-1.0",
             0x40000000: "2.0", 0xc0000000: "-2.0", 0x40100000: "4.0", 0xc0100000: "-4.0"}
FLOAT_NAMES = ["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"]


def s32(v):
    return v - (1 << 32) if v & 0x80000000 else v


def s16(v):
    v &= 0xffff
    return v - (1 << 16) if v & 0x8000 else v


def pred_inline(cls, enc):
    if enc <= 192:
        s = str(enc - 128)
    elif enc <= 208:
        s = str(192 - enc)
    elif enc < 248:
        s = FLOAT_NAMES[enc - 240]
    else:
        s = "0.15915494309189532" if cls == "d" else "0.15915494"
    return s + ("/*Invalid immediate*/" if cls == "x" else "")


def pred_literal(cls, v):
    """How LLVM 22 prints a 32-bit literal v for an operand of class cls."""
    if cls == "x":
        if -16 <= s32(v) <= 64:
            s = str(s32(v))
        elif v in INL_F32:
            s = INL_F32[v]
        else:
            s = "0x%x" % v
        return s + "/*Invalid immediate*/"
    if cls == "d":
        if v == 0:
            return "0"
        return INL_F64HI.get(v, "0x%x" % v)
    if cls == "m":
        lo = v & 0xffff
        if -16 <= s16(lo) <= 64 or lo in INL_F16:
            return "lit(0x%x)" % v
        return "0x%x" % lo
    inl = -16 <= s32(v) <= 64
    if cls == "w":
        inl = inl or v in INL_F32
    elif cls == "n":
        inl = inl or (v in INL_F32 and v != 0x3e22f983)
    elif cls == "h":
        inl = inl or v in INL_F16
    elif cls == "b":
        inl = inl or v in INL_BF16
    return ("lit(0x%x)" if inl else "0x%x") % v


LIT_PROBES = [0x3c00abcd, 0x3c00, 0x3800, 0x3f800000, 0x40, 0xffff, 0xfff0, 0x12345678,
              0x3e22f983, 0x3118, 0x10000, 0x3fc45f30, 0xc400, 0x3f80, 0x3e22, 0x3f00,
              0xbf80, 0xffffffff, 0xfffffff0, 0x41, 0xffef, 0x3c003c00, 0x40000000,
              0x3fe00000, 0xbff00000, 0x4000, 0x0, 0x4080, 0xc0800000, 0x40800000,
              0xbfe00000, 0x3c000000, 0x11]
INL_PROBES = list(range(128, 209)) + list(range(240, 249))


def operand_token(t, idx):
    mn, ops, mods = split_text(t)
    return ops[idx] if idx < len(ops) else None


def imm_class(per, field_shift, op_index):
    """Find the print class of the source at bits field_shift of w1 whose
    printed position is op_index, from inline (both targets) and literal
    (gfx950) probes.  Returns a class letter, or None when none fits."""
    res = {}
    for cpu in per:
        c = per[cpu]["canon"]
        cases = []
        for v in INL_PROBES:
            w = list(c)
            w[1] = (w[1] & ~(0x1ff << field_shift)) | (v << field_shift)
            cases.append(w)
        if cpu == "gfx950":
            for v in LIT_PROBES:
                w = list(c)
                w[1] = (w[1] & ~(0x1ff << field_shift)) | (255 << field_shift)
                cases.append(w + [v])
        res[cpu] = disasm(cpu, cases)
    for cls in "wnhbmdx":
        ok = True
        for cpu in per:
            r = res[cpu]
            for v, (n, tt) in zip(INL_PROBES, r):
                if n != 8 or operand_token(tt, op_index) != pred_inline(cls, v):
                    ok = False
                    break
            if ok and cpu == "gfx950":
                for v, (n, tt) in zip(LIT_PROBES, r[len(INL_PROBES):]):
                    if n != 12 or operand_token(tt, op_index) != pred_literal(cls, v):
                        ok = False
                        break
            if not ok:
                break
        if ok:
            return cls
    return None

# ---------------------------------------------------------------- types


def mfma_types(mn):
    """(C/D type, A type, B type) from an MFMA/SMFMAC mnemonic."""
    parts = mn.split("_")
    dt = parts[2]                      # f32 / i32 / f64
    tail = parts[4:]
    tail = [x for x in tail if not re.match(r"^\d+b$", x)]
    if tail == ["f8f6f4"]:
        return dt, "f8f6f4", "f8f6f4"
    if len(tail) == 2:
        return dt, tail[0], tail[1]
    ab = tail[0] if tail else dt
    ab = {"i8": "i8"}.get(ab, ab)
    return dt, ab, ab


def mfma_shape(mn):
    m = re.search(r"_(\d+)x(\d+)x(\d+)(?:_(\d+)b)?_", mn + "_")
    return int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4) or 1)


def valu_types(mn, nsrc):
    """(dst type, [src types]) for a packed/mixed/dot VALU op."""
    if mn.startswith("v_pk_"):
        t = mn.rsplit("_", 1)[1]
        return t, [t] * nsrc
    if mn.startswith("v_fma_mix"):
        d = "f32" if mn.endswith("f32") else "f16"
        return d, ["mix"] * nsrc
    if mn.startswith("v_dot"):
        _, _, d, s = mn.split("_")
        src = {"f16": "f16", "bf16": "bf16", "i16": "i16", "u16": "u16", "i8": "i8",
               "u8": "u8", "i4": "i4", "u4": "u4"}[s]
        return d, [src, src, d]
    if mn == "v_mfma_ld_scale_b32":
        return None, ["b32", "b32"]
    raise SystemExit("unknown VALU type for " + mn)


FLOAT_T = {"f16", "bf16", "f32", "f64", "mix"}

# ---------------------------------------------------------------- per opcode


def regs_of(tok):
    r = reg_info(tok)
    return r[2] if r else None


def probe_f8f6f4(cpu, c):
    """Register counts of A (by cbsz) and B (by blgp) for fmt 0..7."""
    a, b = [], []
    cases = [[c[0] | (f << 8), c[1]] for f in range(8)] + \
            [[c[0], c[1] | (f << 29)] for f in range(8)]
    res = disasm(cpu, cases)
    for f in range(8):
        a.append(regs_of(split_text(res[f][1])[1][1]))
        b.append(regs_of(split_text(res[8 + f][1])[1][2]))
    return a, b


def discover(cpu, op):
    c, t = canonical(cpu, op)
    if not c:
        return None
    mn, ops, mods = split_text(t)
    cls = classify(mn)
    info = {"mn": mn, "cls": cls, "canon": c, "text": t}
    info["zero"] = zero_mask(cpu, c, t)
    if cls in ("mfma", "smfmac"):
        # canonical with acc_cd=1, v16/v32 A/B, a64 C (or v64 index)
        cc = [BASE | (op << 16) | 0x8000, 272 | (288 << 9) | (320 << 18)]
        n, tt = disasm(cpu, [cc])[0]
        assert n == 8, (cpu, op, tt)
        _, o, _ = split_text(tt)
        info["canon"], info["text"] = cc, tt
        nd, na, nb = regs_of(o[0]), regs_of(o[1]), regs_of(o[2])
        assert o[0].startswith("a[") or o[0].startswith("a"), tt
        dt, at, bt = mfma_types(mn)
        if cls == "mfma":
            nc = regs_of(o[3])
            assert nc == nd, tt
        if at == "f8f6f4":
            fa, fb = probe_f8f6f4(cpu, cc)
            assert fa == [8, 8, 6, 6, 4, 8, 8, 8] and fb == fa, (fa, fb)
            na = nb = "f"
        info["ops"] = [("vdst", "cd" if cls == "mfma" else "avd", nd, dt),
                       ("src0", "av", na, at), ("src1", "av", nb, bt)]
        if cls == "mfma":
            info["ops"].append(("src2", "cd", nd, dt))
        else:
            info["ops"].append(("src2", "vi", 1, "b32"))
        info["mods"] = mod_letters(cpu, cls, cc, tt, 3)
        info["shape"] = mfma_shape(mn)
        info["types"] = (dt, at, bt)
        return info
    if cls == "accr":
        info["ops"] = [("vdst", "v", 1, "b32"), ("src0", "ag", 1, "b32")]
    elif cls == "accw":
        info["ops"] = [("vdst", "a", 1, "b32"), ("src0", "vs", 1, "b32")]
    elif cls == "ldscale":
        _, sts = valu_types(mn, 2)
        info["ops"] = [("src0", "vs", 1, "b32"), ("src1", "vs", 1, "b32")]
    else:
        nsrc = len(ops) - 1
        dt, sts = valu_types(mn, nsrc)
        info["ops"] = [("vdst", "v", regs_of(ops[0]), dt)]
        for i in range(nsrc):
            info["ops"].append(("src%d" % i, "vs", regs_of(ops[1 + i]), sts[i]))
    nsrc = len([o for o in info["ops"] if o[0].startswith("src")])
    info["mods"] = mod_letters(cpu, cls, c, t, nsrc)
    return info


def add_imm_classes(infos):
    """Attach the constant print class to each source (probed once per
    mnemonic, on the gfx950 opcode if present)."""
    for mn, per in infos.items():
        cpu = "gfx950" if "gfx950" in per else "gfx942"
        info = per[cpu]
        c = info["canon"]
        ops = []
        pos = 0
        for (f, k, n, ty) in info["ops"]:
            cls = None
            if f.startswith("src") and k != "a":
                idx = [o[0] for o in info["ops"]].index(f)
                cls = imm_class(per, 9 * int(f[3]), idx)
                if cls is None:
                    raise SystemExit("no constant print class fits %s %s" % (mn, f))
            ops.append((f, k, n, ty, cls))
        for cpu2 in per:
            per[cpu2]["ops"] = ops


def scaled_rows(unscaled):
    """The gfx950 VOP3PX2 scaled MFMAs: v_mfma_ld_scale_b32 (64 bits) followed
    by an f8f6f4 MFMA whose abid field is 1 (bits 11..14 of its first dword;
    found by bit probing)."""
    rows = {}
    for op in (0x2d, 0x2e):
        c = [BASE | (0x2c << 16), 280 | (281 << 9), BASE | (op << 16) | (1 << 11),
             260 | (268 << 9) | (276 << 18)]
        n, t = disasm("gfx950", [c])[0]
        assert n == 16, t
        mn, o, mods = split_text(t)
        assert mn.startswith("v_mfma_scale_"), t
        # bits of the pair that must hold: probe every bit but the opcodes
        bits = [b for b in range(128) if not (16 <= b < 32 or 80 <= b < 96)]
        res = disasm("gfx950", [flip(c, b) for b in bits])
        must = [b for b, (nn, _) in zip(bits, res) if nn != 16]
        assert must == [75, 76, 77, 78], must
        base = unscaled[op]
        info = {"mn": mn, "cls": "mfmascale", "canon": c, "text": t, "op": op}
        dt, at, bt = mfma_types(base["mn"])
        info["ops"] = [("vdst", "cd", base["ops"][0][2], dt, None),
                       ("src0", "av", "f", at, "x"), ("src1", "av", "f", bt, "x"),
                       ("src2", "cd", base["ops"][0][2], dt, base["ops"][3][4]),
                       ("scale0", "vi", 1, "b32", "x"), ("scale1", "vi", 1, "b32", "x")]
        info["mods"] = "CB"
        info["shape"] = mfma_shape(mn)
        info["types"] = (dt, at, bt)
        info["zero"] = 0
        rows[mn] = info
    return rows

# ---------------------------------------------------------------- passes


def mca_passes(cpu, asm_lines):
    """Reciprocal throughput (passes) of each line from llvm-mca-22."""
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(asm_lines) + "\n")
        path = f.name
    try:
        out = subprocess.run([MCA, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + cpu,
                              "--instruction-info", "--iterations=1", path],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)
    res = []
    sec = out.split("Instructions:", 2)[-1]
    for ln in sec.splitlines():
        m = re.match(r"^\s*\d+\s+\d+\s+([\d.]+)\s", ln)
        if m:
            res.append(float(m.group(1)))
    assert len(res) == len(asm_lines), (out, asm_lines)
    return [int(round(x)) for x in res]


def mai_asm(info):
    """An assemblable line for an MAI instruction (AGPR C/D, VGPR A/B)."""
    t = info["text"]
    mn, ops, mods = split_text(t)
    return mn + " " + ", ".join(ops)

# ---------------------------------------------------------------- output


NON_XDL = {"v_mfma_f32_32x32x1_2b_f32", "v_mfma_f32_16x16x1_4b_f32",
           "v_mfma_f32_4x4x1_16b_f32", "v_mfma_f32_32x32x2_f32", "v_mfma_f32_16x16x4_f32"}


def flags_of(info):
    cls, mn = info["cls"], info["mn"]
    fl = ["GCN_F_RD_EXEC"]
    if cls in ("mfma", "smfmac", "mfmascale"):
        fl += ["GCN_F_MFMA", "GCN_F_RD_MODE"]
        dt = info["types"][0]
        if dt == "f64":
            fl.append("GCN_F_DGEMM")
        elif mn not in NON_XDL:
            fl.append("GCN_F_XDL")
        if cls == "smfmac":
            # the accumulator C is the destination (VOP3PInstructions.td SMFMACInst:
            # Constraints = "$vdst = $src2"; the printed third source is the index)
            fl += ["GCN_F_SMFMAC", "GCN_F_RD_DST"]
    elif cls in ("accr", "accw"):
        fl.append("GCN_F_ACCVGPR")
    elif cls == "valu":
        src_types = [o[3] for o in info["ops"] if o[0].startswith("src")]
        if any(t in FLOAT_T for t in src_types):
            fl.append("GCN_F_RD_MODE")
    return "|".join(fl)


def sig_of(info):
    parts = [info["cls"]]
    for (f, k, n, ty, cls) in info["ops"]:
        s = "%s:%s%s:%s" % (f, k, n, ty)
        if cls:
            s += ":" + cls
        parts.append(s)
    if info["mods"]:
        parts.append("mods=" + info["mods"])
    if info.get("zero"):
        parts.append("zero=%x" % info["zero"])
    if "shape" in info:
        parts.append("shape=%dx%dx%dx%d" % info["shape"])
    return " ".join(parts)


HEADER = """\
/* vop3p.def -- GENERATED by tools/isagen/vop3p.py from LLVM 22 (llvm-mc/
 * LLVMDisasm oracle + llvm-mca-22); do not edit by hand.
 *
 * The VOP3P family of gfx942/gfx950: packed math (v_pk_*), mixed FMA
 * (v_fma_mix*), dot products, and MAI: MFMA, SMFMAC, v_accvgpr_read/write,
 * gfx950 v_mfma_ld_scale_b32 and the 128-bit VOP3PX2 scaled MFMAs
 * (v_mfma_ld_scale_b32 + f8f6f4 MFMA with abid=1; rows in FMT VOP3PX2,
 * keyed by the MFMA's opcode).
 *
 * Encoding (LLVM VOP3PInstructions.td VOP3Pe / VOP3Pe_MAI, AMD CDNA3 ISA):
 *   w0: vdst[7:0] neg_hi[10:8] op_sel[13:11] op_sel_hi2[14] clamp[15]
 *       op[22:16] 0x1A7[31:23];  MAI: cbsz[10:8] abid[14:11] acc_cd[15]
 *   w1: src0[8:0] src1[17:9] src2[26:18] op_sel_hi[28:27] neg_lo[31:29];
 *       MAI: acc(A,B)[28:27] blgp[31:29]
 * gfx950 also accepts a 32-bit literal (src = 255) after the 64 bits.
 *
 * PASSES: MAI passes (llvm-mca-22 = SISchedule.td Write*PassMAI/DGEMM; for
 * f8f6f4 the fp8/bf8 value, see gcn_mfma_passes()).
 *
 * SIG grammar:  CLASS {" " OPERAND} {" " ATTR}
 *   CLASS   valu | ldscale | accr | accw | mfma | smfmac | mfmascale
 *   OPERAND FIELD ":" KIND NREGS ":" TYPE [":" IMM], in LLVM print order
 *     FIELD vdst src0 src1 src2 scale0 scale1 (scale = ld_scale src0/src1)
 *     KIND  v   VGPR (8-bit vdst)          a   AGPR (8-bit vdst)
 *           vs  9-bit VALU source (VGPR/SGPR/constant/literal)
 *           ag  9-bit source read as AGPR (v_accvgpr_read)
 *           av  MAI A/B: 9-bit, VGPR or AGPR by the acc bit (w1 27/28)
 *           cd  MAI C/D: AGPR if acc_cd else VGPR (C also takes constants)
 *           avd SMFMAC D (also its C): AGPR if acc_cd else VGPR
 *           vi  9-bit VGPR-only source (SMFMAC index, scale operands)
 *     NREGS 32-bit registers; "f" = f8f6f4 A/B: by cbsz (A) / blgp (B):
 *           fp8/bf8 (0,1) 8, fp6/bf6 (2,3) 6, fp4 (4) 4, others 8
 *     TYPE  element type: f16 bf16 f32 f64 i16 u16 b16 i32 u32 b32 i8 u8 i4
 *           u4 fp8 bf8 xf32 f8f6f4, mix (f16 or f32 by op_sel_hi)
 *     IMM   how constants print (LLVM 22 AMDGPUInstPrinter):
 *           w 32-bit (lit() if int -16..64 or f32 inline incl. 1/2pi)
 *           n 32-bit without 1/2pi     h v2f16 (lit() if f16 inline)
 *           b v2bf16                   m mix: low 16 bits unless lit()
 *           d f64: literal is the high half, printed as a double
 *           x not allowed: printed as 32-bit, then the Invalid-immediate note
 *   ATTR  mods=LETTERS  o op_sel, h op_sel_hi, p packed (op_sel_hi default
 *                       1), l neg_lo, n neg_hi, a abs/neg per source (mix),
 *                       c clamp; MAI: C cbsz, A abid, B blgp, N blgp as neg:[]
 *         zero=HEX      64-bit (w1<<32|w0) mask of bits that must be 0
 *         shape=MxNxKxB MAI shape: M, N, K and number of blocks
 */
"""


def main():
    global ORACLE, MCA
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", required=True)
    ap.add_argument("--mca", default="llvm-mca-22")
    ap.add_argument("-o", "--output", default="src/decode/isa/vop3p.def")
    a = ap.parse_args()
    ORACLE, MCA = a.oracle, a.mca

    infos = {}          # mnemonic -> {cpu: info}
    for cpu in TARGETS:
        for op in range(128):
            info = discover(cpu, op)
            if not info:
                continue
            info["op"] = op
            infos.setdefault(info["mn"], {})[cpu] = info
    # consistency between targets
    for mn, per in infos.items():
        if len(per) == 2:
            x, y = per["gfx942"], per["gfx950"]
            for key in ("ops", "mods", "zero"):
                if x[key] != y[key]:
                    raise SystemExit("%s: %s differs between targets: %r / %r" %
                                     (mn, key, x[key], y[key]))
    add_imm_classes(infos)
    by_op950 = {per["gfx950"]["op"]: per["gfx950"] for per in infos.values() if "gfx950" in per}
    scaled = scaled_rows(by_op950)

    # passes
    for cpu in TARGETS:
        mai = [per[cpu] for per in infos.values() if cpu in per and
               per[cpu]["cls"] in ("mfma", "smfmac")]
        ps = mca_passes(cpu, [mai_asm(i) for i in mai])
        for i, p in zip(mai, ps):
            i["passes"] = p
        if cpu == "gfx950":
            for i in scaled.values():
                i["passes"] = None
    for per in infos.values():
        for i in per.values():
            if i.get("types", ("", ""))[1] == "f8f6f4":
                # SISchedule.td WriteMFMAScale_*: fp8/bf8 inputs double the passes
                i["passes"] *= 2
    for i in scaled.values():
        i["passes"] = by_op950[i["op"]]["passes"]
    for mn, per in infos.items():
        if len(per) == 2 and per["gfx942"].get("passes") != per["gfx950"].get("passes"):
            # same mnemonic, different pass count per target (gfx950 f64 16x16):
            # the column holds gfx942's; gcn_mfma_passes() applies the target
            per["gfx942"]["passes950"] = per["gfx950"]["passes"]

    rows = []
    for mn, per in infos.items():
        i = per.get("gfx942") or per["gfx950"]
        op942 = "0x%02x" % per["gfx942"]["op"] if "gfx942" in per else "NONE"
        op950 = "0x%02x" % per["gfx950"]["op"] if "gfx950" in per else "NONE"
        unit = "MFMA" if i["cls"] in ("mfma", "smfmac") else "VALU"
        p = i.get("passes") or 0
        sig = sig_of(i)
        if i.get("passes950"):
            sig += " passes950=%d" % i["passes950"]
        rows.append((min(per[c]["op"] for c in per), mn, "VOP3P", op942, op950, unit,
                     flags_of(i), p, sig))
    for mn, i in scaled.items():
        rows.append((0x80 + i["op"], mn, "VOP3PX2", "NONE", "0x%02x" % i["op"], "MFMA",
                     flags_of(i), i["passes"], sig_of(i)))
    rows.sort()
    with open(a.output, "w") as f:
        f.write(HEADER)
        for (_, mn, fmt, o942, o950, unit, fl, p, sig) in rows:
            f.write('INSN(%s, %s, %s, %s, "%s", %s, %s, %d,\n     "%s")\n' %
                    (mn.upper(), fmt, o942, o950, mn, unit, fl, p, sig))
    print("wrote %d rows to %s" % (len(rows), a.output))


if __name__ == "__main__":
    main()
