#!/usr/bin/env python3
"""valu.py -- generate src/decode/isa/valu.def, the VOP1/VOP2/VOPC/VOP3 rows.

Every fact in the output is asked of the installed LLVM 22 (through the
crash-proof LLVM-C oracle tests/decode/llvm_oracle, the same disassembler and
printer llvm-objdump-22 uses), opcode by opcode, for gfx942 and gfx950:

  * which opcodes exist in each family and their mnemonics (VOP1 0..255,
    VOP2 0..62, VOPC 0..255 as e32; VOP3 0..0x37f as e64 / VOP3-only);
  * which forms each instruction has (e32, e64, SDWA, DPP) and the operand
    template LLVM prints for each form;
  * operand widths (from printed register ranges), register classes (a
    VGPR/SGPR/constant probe of each source), the print type of each source
    (inline-constant and literal probes: f16 / int16 / bf16 / 32-bit /
    f64 / int64);
  * for the VOP3 form, what each modifier bit does (abs[2:0], op_sel[3:0],
    clamp, omod[1:0], neg[2:0]): invalid when set, ignored, or printed; and
    the number of op_sel entries LLVM prints;
  * for SDWA and DPP, the same per modifier bit.

Facts cited from LLVM's sources (llvm/lib/Target/AMDGPU): encodings of
VOP1/VOP2/VOPC/VOP3 (VOP1Instructions.td, VOP2Instructions.td,
VOPCInstructions.td, VOP3Instructions.td, VOPInstructions.td: VOP3e_vi,
VOP3be_vi, VOP_SDWA9e, VOP_DPPe), promotion offsets VOPC +0x000, VOP2 +0x100,
VOP1 +0x140 (VOP3_Real_vi / VOP1_Real_e32e64_vi ...), transcendental ops
(TRANS = 1 in VOP1Instructions.td; SIInstrInfo::isTRANS).

usage: valu.py --oracle tests/decode/llvm_oracle [-o src/decode/isa/valu.def]
"""
import argparse
import collections
import os
import re
import sys

import oracle

TARGETS = ("gfx942", "gfx950")
SNOP = 0xBF800000
SLOT = 16
LIT = 0x11223344


class Oracle(oracle.Oracle):
    """The shared LLVM-C oracle (tools/isagen/oracle.py); run() gives [(size, text)]."""


# ---- encodings (GFX9 / CDNA; LLVM VOP*Instructions.td *_vi encodings) -------

def e32_word(fam, op, vdst, src0, vsrc1):
    if fam == "VOP1":
        return 0x7E000000 | (vdst << 17) | (op << 9) | src0
    if fam == "VOPC":
        return 0x7C000000 | (op << 17) | (vsrc1 << 9) | src0
    return (op << 25) | (vdst << 17) | (vsrc1 << 9) | src0


def e64_words(op3, vdst, src0, src1, src2, w0bits=0, w1bits=0):
    return [0xD0000000 | (op3 << 16) | vdst | w0bits,
            src0 | (src1 << 9) | (src2 << 18) | w1bits]


VOP3_BASE = {"VOPC": 0x000, "VOP2": 0x100, "VOP1": 0x140}
# VOP3 modifier bits: (name, dword, bit)
V3BITS = [("abs0", 0, 8), ("abs1", 0, 9), ("abs2", 0, 10), ("os0", 0, 11), ("os1", 0, 12),
          ("os2", 0, 13), ("os3", 0, 14), ("clamp", 0, 15), ("omod0", 1, 27), ("omod1", 1, 28),
          ("neg0", 1, 29), ("neg1", 1, 30), ("neg2", 1, 31)]
# SDWA second-dword bits probed one at a time (VOP_SDWA9e / VOPC_SDWA9e)
SDWA_BITS = [13, 14, 15, 19, 20, 21, 22, 23, 27, 28, 29, 30, 31]
SDWAC_BITS = [15, 19, 20, 21, 22, 23, 27, 28, 29, 30, 31]
DPP_BITS = [17, 18, 19, 20, 21, 22, 23]

# canonical register numbers, so roles can be recognised in the printed text
R_D, R_S0, R_S1, R_S2 = 8, 16, 32, 64


def sdwa_base(fam):
    if fam == "VOP1":
        return 0x00060600
    if fam == "VOPC":
        return 0x06060000
    return 0x06060600


def strip_comments(t):
    return re.sub(r"/\*.*?\*/", "", t)


def split_insn(t):
    """'mnem op, op, op mods...' -> (mnem, [operands], [trailing words])"""
    t = strip_comments(t).strip()
    if " " not in t:
        return t, [], []
    mnem, rest = t.split(" ", 1)
    parts = [p.strip() for p in split_commas(rest)]
    last = parts[-1].split()
    ops = parts[:-1] + ([last[0]] if last else [])
    trail = last[1:]
    if ops and re.match(r"^[a-z_0-9]+:", ops[-1]):   # operand-less: modifiers only
        trail = [ops.pop()] + trail
    return mnem, ops, trail


def split_commas(s):
    """Split at commas outside [] and /* */."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(s):
        c = s[i]
        if s.startswith("/*", i):
            j = s.find("*/", i)
            j = len(s) if j < 0 else j + 2
            cur += s[i:j]
            i = j
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    out.append(cur)
    return out


REG_RE = re.compile(r"^[-|]*(?:sext\()?(v|s|a|ttmp)(?:\[(\d+):(\d+)\]|(\d+))")


def reg_of(o):
    m = REG_RE.match(o)
    if not m:
        return None
    if m.group(4) is not None:
        return m.group(1), int(m.group(4)), 1
    lo, hi = int(m.group(2)), int(m.group(3))
    return m.group(1), lo, hi - lo + 1


def roles_of(ops, fam, form):
    """Map printed operands to roles via the canonical register numbers."""
    roles = []
    seen_src = False
    for i, o in enumerate(ops):
        r = reg_of(o)
        if o == "vcc":
            roles.append(("VCC" if seen_src else "VCCD", None))
            continue
        if r is None:
            roles.append(("K" if o == "0x%x" % LIT else "?" + o, None))
            seen_src = True
            continue
        k, n, cnt = r
        if n == R_D and not (form == "e64" and fam == "VOPC" and False):
            roles.append(("D", (k, cnt)))
        elif n == 0 and k == "s" and form == "e64":
            roles.append(("SD", (k, cnt)))
        elif n == R_S0:
            roles.append(("S0", (k, cnt)))
            seen_src = True
        elif n == R_S1:
            roles.append(("S1", (k, cnt)))
            seen_src = True
        elif n == R_S2:
            roles.append(("S2", (k, cnt)))
            seen_src = True
        else:
            roles.append(("?" + o, None))
    return roles


# ---- semantic types from the mnemonic ---------------------------------------

TYPE_TOKS = ["bf16", "f16", "f32", "f64", "i16", "u16", "b16", "i32", "u32", "b32", "i64",
             "u64", "b64", "i8", "u8", "i4", "u4", "fp8", "bf8", "fp4", "fp6", "bf6", "xf32",
             "i24", "u24"]


def mnem_types(mnem):
    toks = [t for t in mnem.split("_") if t in TYPE_TOKS]
    return toks


def sem_hint(mnem, role):
    """A semantic type hint (string) for one role, from the mnemonic."""
    toks = mnem_types(mnem)
    if not toks:
        return "b32"
    if mnem.startswith("v_cvt_scalef32") and role in ("S1", "S2"):
        sr = "_sr_" in mnem
        return "f32" if (role == "S2") == sr else "u32"
    if "ubyte" in mnem or mnem.startswith("v_cvt_off"):
        return "u32" if role != "D" else "f32"
    if mnem.startswith(("v_mad_u32_u16", "v_mad_i32_i16", "v_mad_u32_u24", "v_mad_i32_i24",
                        "v_mad_u64_u32", "v_mad_i64_i32")):
        return toks[0] if role in ("D", "S2") else toks[1]
    if mnem.startswith(("v_sad_", "v_msad_", "v_qsad", "v_mqsad")):
        return toks[0] if role in ("D", "S2") else toks[-1]
    if mnem.startswith("v_cvt") or mnem.startswith("v_sat_pk") or "_pk_" in mnem and \
            mnem.startswith("v_cvt"):
        if role == "D":
            return toks[0]
        return toks[1] if len(toks) > 1 else toks[0]
    if mnem.startswith("v_frexp_exp"):
        return toks[0] if role == "D" else toks[-1]
    if mnem.startswith("v_ldexp") or mnem.startswith("v_trig_preop"):
        return "i32" if role == "S1" else toks[-1]
    if mnem.startswith("v_cmp") and "_class_" in mnem:
        return "u32" if role == "S1" else toks[-1]
    if mnem.startswith("v_cmp"):
        return "b64" if role in ("D", "SD") else toks[-1]
    if role == "D" and len(toks) == 2 and not mnem.startswith("v_dot"):
        return toks[0]
    if role in ("S0", "S1") and len(toks) == 2:
        return toks[1]
    if role == "S2" and mnem.startswith("v_dot"):
        return toks[0]
    return toks[-1] if role != "D" else toks[0]


def packed_type(mnem, role):
    """Packed 16-bit sources (v_dot2*, v_pk_fmac_f16): v2f16 / v2bf16 / v2i16."""
    if not (mnem.startswith("v_dot2") and role in ("S0", "S1") or "pk_fmac" in mnem):
        return None
    t = mnem_types(mnem)[-1]
    return {"f16": "V2F16", "bf16": "V2BF16", "i16": "V2I16", "u16": "V2I16"}.get(t)


def dtype_for(hint, nregs, pclass):
    """gcn_dtype name (without GCN_DT_) for an operand: the semantic hint
    from the mnemonic, overruled by the print class LLVM showed (pclass:
    None when not measurable, "32", "f16", "bf16", "i16", "f64", "i64")."""
    h = hint or "b32"
    sign = {"i": "I", "u": "U"}.get(h[0], "B")
    if nregs == 2:
        if pclass == "f64" or (pclass is None and h == "f64"):
            return "F64"
        return sign + "64"
    if nregs > 2:
        return "B128" if nregs == 4 else "ANY"
    if pclass in ("v2f16", "v2bf16"):
        return pclass.upper()
    if pclass == "32!":
        pclass = "32"
    if pclass == "bf16" or (pclass is None and h == "bf16"):
        return "BF16"
    if pclass == "f16" or (pclass is None and h == "f16"):
        return "F16"
    if pclass == "i16" or (pclass is None and h.endswith("16")):
        return sign + "16"
    if h in ("f32", "xf32"):
        return "F32"
    if h.endswith("32") or h in ("i24", "u24"):
        return sign + "32"
    return "B32"


# VOP2 rows whose vdst is also their src2 (LLVM VOP2Instructions.td: VOP_MAC's and the
# v_dot*c profiles' Constraints = "$vdst = $src2"; v_pk_fmac_f16 likewise): GCN_F_RD_DST.
TIED_SRC2 = ("v_fmac_", "v_mac_", "v_dot2c_", "v_dot4c_", "v_dot8c_", "v_pk_fmac_f16")
TRANS_BASE = ("v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_")
FLOAT_TOKS = ("f16", "f32", "f64", "bf16", "fp8", "bf8", "fp4", "fp6", "bf6", "xf32")


# ---- discovery --------------------------------------------------------------

def discover(orc):
    """Returns {target: {(fam, op): mnem}} for e32 (VOP1/2/C) and VOP3 (e64)."""
    found = {}
    for t in TARGETS:
        f = {}
        for fam, n in (("VOP1", 256), ("VOP2", 63), ("VOPC", 256)):
            seqs = [[e32_word(fam, op, R_D, 0x100 + R_S0, R_S1), LIT] for op in range(n)]
            # v_nop and friends have no vdst: also try all-zero fields
            seqs += [[e32_word(fam, op, 0, 0, 0), LIT] for op in range(n)]
            res = orc.run(t, seqs)
            for op in range(n):
                txt = res[op][1]
                if txt in ("<invalid>", "<crash>"):
                    txt = res[n + op][1]
                if txt in ("<invalid>", "<crash>"):
                    continue
                f[(fam, op)] = split_insn(txt)[0]
        seqs = [e64_words(op, R_D, 0x100 + R_S0, 0x100 + R_S1, 0x100 + R_S2) for op in range(0x380)]
        seqs += [e64_words(op, 0, 0, 0, 0) for op in range(0x380)]
        res = orc.run(t, seqs)
        for op in range(0x380):
            txt = res[op][1]
            if txt in ("<invalid>", "<crash>"):
                txt = res[0x380 + op][1]
            if txt in ("<invalid>", "<crash>"):
                continue
            f[("VOP3", op)] = split_insn(txt)[0]
        found[t] = f
    return found


def base_mnem(m):
    for suf in ("_e32", "_e64", "_sdwa", "_dpp"):
        if m.endswith(suf):
            return m[: -len(suf)]
    return m


class Row:
    def __init__(self, mnem, fam):
        self.mnem = mnem
        self.fam = fam
        self.op = {}          # target -> native opcode
        self.forms = {}       # target -> {form: template list}
        self.opdefs = {}      # target -> {role: (cls, n, pclass, rcname)}
        self.v3 = {}          # target -> 13-char map
        self.os = {}          # target -> op_sel arity
        self.sdwa = {}        # target -> map string
        self.dpp = {}         # target -> map string
        self.e64_suffix = {}  # target -> bool (LLVM prints _e64)
        self.e32_suffix = {}
        self.special = set()  # bitop3, v3fi
        self.tspecial = {}    # target -> set of target-specific tokens
        self.base = {}        # target -> {form: canonical words that decode}


def build_rows(found):
    rows = collections.OrderedDict()
    for t in TARGETS:
        f = found[t]
        promoted = set()
        for (fam, op), m in sorted(f.items(), key=lambda x: ("VOP1 VOP2 VOPC VOP3".split().index(x[0][0]), x[0][1])):
            if fam == "VOP3":
                continue
            b = base_mnem(m)
            r = rows.setdefault(b, Row(b, fam))
            assert r.fam == fam, (b, r.fam, fam)
            r.op[t] = op
            op3 = VOP3_BASE[fam] + op
            if ("VOP3", op3) in f and base_mnem(f[("VOP3", op3)]) == b:
                promoted.add(op3)
        for (fam, op), m in sorted(f.items()):
            if fam != "VOP3" or op in promoted:
                continue
            b = base_mnem(m)
            r = rows.get(b)
            if r is None:
                r = rows[b] = Row(b, "VOP3")
            assert r.fam == "VOP3", (b, r.fam, t, hex(op))
            r.op[t] = op
    return rows


# ---- per-form probing --------------------------------------------------------

def form_words(r, t, form, src0=None, src1=None, src2=None, w0=0, w1=0, sd_w1=None):
    """Canonical words of a form; srcN given as 9-bit encodings (VGPRs 256+)."""
    fam = r.fam
    op = r.op[t]
    s0 = 0x100 + R_S0 if src0 is None else src0
    s1 = 0x100 + R_S1 if src1 is None else src1
    s2 = 0x100 + R_S2 if src2 is None else src2
    if form == "e32":
        return [e32_word(fam, op, R_D, s0, (s1 - 0x100) & 0xFF if s1 >= 0x100 else R_S1) | w0, LIT]
    if form == "e64":
        op3 = op if fam == "VOP3" else VOP3_BASE[fam] + op
        return e64_words(op3, R_D, s0, s1, s2, w0, w1)
    if form == "sdwa":
        word = e32_word(fam, op, R_D, 0xF9, R_S1)
        sw = sdwa_base(fam) | R_S0
        if sd_w1 is not None:
            sw = sd_w1
        return [word, sw | w1]
    if form == "dpp":
        word = e32_word(fam, op, R_D, 0xFA, R_S1)
        return [word, 0xFF00E400 | R_S0 | w1]
    raise ValueError(form)


def valid(txt):
    return txt not in ("<invalid>", "<crash>")


def probe_forms(orc, rows):
    for t in TARGETS:
        jobs = []
        for r in rows.values():
            if t not in r.op:
                continue
            forms = ["e64"] if r.fam == "VOP3" else ["e32", "e64", "sdwa", "dpp"]
            for fm in forms:
                jobs.append((r, fm, form_words(r, t, fm)))
                # operand-less v_nop / v_clrexcp: all fields zero (vdst must be)
                if fm == "e64":
                    w = form_words(r, t, fm, 0, 0, 0)
                    w[0] &= ~0xFF
                else:
                    w = form_words(r, t, fm, 0, 0, 0) if fm == "e32" else form_words(r, t, fm)
                    if r.fam == "VOP1":
                        w[0] &= ~(0xFF << 17)
                jobs.append((r, fm + "z", w))
        res = orc.run(t, [j[2] for j in jobs])
        for (r, fm, words), (n, txt) in zip(jobs, res):
            r.forms.setdefault(t, {})
            if not valid(txt):
                continue
            if fm.endswith("z"):
                fm = fm[:-1]
                if fm in r.forms[t]:
                    continue
            if fm in ("sdwa", "dpp") and n != 8:
                continue            # e.g. v_nop ignores src0 = SDWA
            mn, ops, trail = split_insn(txt)
            if base_mnem(mn) != r.mnem:
                continue
            r.base.setdefault(t, {})[fm] = list(words)
            if fm in ("sdwa", "dpp") and not mn.endswith("_" + fm):
                r.special.add("nosuf" + fm)
            if fm == "e64":
                r.e64_suffix[t] = mn.endswith("_e64")
            if fm == "e32":
                r.e32_suffix[t] = mn.endswith("_e32")
            if fm == "sdwa" and r.fam != "VOPC" and "dst_sel:" not in txt:
                r.tspecial.setdefault(t, set()).add("sdwanodst")
            r.forms[t][fm] = (roles_of(ops, r.fam, fm), txt)


def probe_opdefs(orc, rows):
    """Register class, width and print class of every operand."""
    for t in TARGETS:
        jobs = []
        for r in rows.values():
            if t not in r.op:
                continue
            fm = "e64" if "e64" in r.forms[t] else "e32"
            roles = r.forms[t][fm][0]
            for role, info in roles:
                if role not in ("S0", "S1", "S2"):
                    continue
                idx = int(role[1])
                for what, enc in (("sgpr", 0x002), ("inl", 242), ("inv", 248), ("vgpr", 0x103),
                                  ("vgpr2", 0x102)):
                    if fm == "e32" and role != "S0":
                        continue
                    kw = {"src%d" % idx: enc}
                    jobs.append((r, role, what, fm, form_words(r, t, fm, **kw)))
            # e32 literal probes for 64-bit / 16-bit print classes
            if "e32" in r.forms[t]:
                for lit in (0x3FF00000, 0x3E22F983, 0x00003C00):
                    w = form_words(r, t, "e32", src0=255)
                    w[1] = lit
                    jobs.append((r, "S0", "lit%x" % lit, "e32", w))
        res = orc.run(t, [j[4] for j in jobs])
        acc = collections.defaultdict(dict)
        for (r, role, what, fm, _), (n, txt) in zip(jobs, res):
            acc[(r.mnem, role)][what] = (fm, txt)
        for r in rows.values():
            if t not in r.op:
                continue
            fm = "e64" if "e64" in r.forms[t] else "e32"
            roles, canon = r.forms[t][fm]
            od = {}
            for i, (role, info) in enumerate(roles):
                if info is None:
                    continue
                k, cnt = info
                if role in ("D", "SD"):
                    od[role] = {"s": "s", "v": "v", "a": "a"}[k], cnt, None, None
                    continue
                pr = acc[(r.mnem, role)]

                def opnd(what):
                    if what not in pr:
                        return None
                    f2, txt = pr[what]
                    if not valid(txt):
                        return "<inv>"
                    full = re.sub(r"^v_\S+ ", "", txt)
                    parts = [p.strip() for p in split_commas(full)]
                    j = [x[0] for x in r.forms[t][f2][0]].index(role)
                    if j >= len(parts):
                        return "<?>"
                    return parts[j]
                cls = k
                rcname = None
                sg = opnd("sgpr")
                vg = opnd("vgpr")
                if k == "v":
                    if sg and "Invalid register" in sg:
                        cls = "v"
                        rcname = re.search(r"operand has '([^']+)'", sg).group(1)
                    elif sg == "<inv>":
                        cls = "v"
                        rcname = "!"
                    else:
                        cls = "c"
                if k == "s" or (vg and "Invalid register" in vg and "SReg" in vg):
                    cls = "s"
                    if vg and "Invalid register" in vg:
                        rcname = re.search(r"operand has '([^']+)'", vg).group(1)
                if k == "a":
                    cls = "a"
                inl = opnd("inl") or ""
                if cls == "c" and "Invalid immediate" in inl:
                    cls = "r"           # any register, no constant
                pclass = "32"
                if inl.startswith("0x3c00"):
                    pclass = "i16"
                elif "1.0" in inl:
                    pclass = "32"
                if cnt == 2:
                    pclass = None
                    l = pr.get("lit3ff00000")
                    if l and valid(l[1]):
                        j = [x[0] for x in r.forms[t]["e32"][0]].index("S0")
                        pclass = "f64" if split_insn(l[1])[1][j] == "1.0" else "i64"
                od[role] = (cls, cnt, pclass, rcname)
            r.opdefs[t] = od


LIT_PROBES = (0x3C00, 0x3F80, 0x12345678, 0x3C003C00, 0x10000, 0x3FF00000, 0x40)


def literal_class(txt, nregs):
    """Print class of an operand from how LLVM prints literal probes."""
    if nregs == 2:
        if txt.get(0x3FF00000) == "1.0":
            return "f64"
        if txt.get(0x40) == "lit(0x40)" or txt.get(0x3FF00000) == "0x3ff00000":
            return "i64"
        return None
    big = txt.get(0x12345678)
    if big == "0x5678":
        return "f16" if txt.get(0x3C00) == "lit(0x3c00)" else "i16"
    if big == "0x12345678":
        if txt.get(0x3C00) == "lit(0x3c00)":
            return "v2f16"
        if txt.get(0x3F80) == "lit(0x3f80)":
            return "bf16" if txt.get(0x10000) == "lit(0x10000)" else "v2bf16"
        return "32!"
    return None


def probe_literals(orc, rows):
    """Measure the print class of every source that can hold a literal: e32
    src0 on both targets, and every VOP3 source on gfx950 (which, unlike
    gfx942, accepts VOP3 literals).  The class found on one target is used
    for the same row on the other (printing is the same instruction)."""
    measured = {}
    for t in TARGETS:
        jobs = []
        for r in rows.values():
            if t not in r.op:
                continue
            if "e32" in r.forms[t] and "S0" in [x[0] for x in r.forms[t]["e32"][0]]:
                for lit in LIT_PROBES:
                    w = form_words(r, t, "e32", src0=255)
                    w[1] = lit
                    jobs.append((r, "S0", "e32", lit, w))
            if t == "gfx950" and "e64" in r.forms[t]:
                for role, info in r.forms[t]["e64"][0]:
                    if role not in ("S0", "S1", "S2"):
                        continue
                    for lit in LIT_PROBES:
                        w = form_words(r, t, "e64", **{"src" + role[1]: 255})
                        w.append(lit)
                        jobs.append((r, role, "e64", lit, w))
        res = orc.run(t, [j[4] for j in jobs])
        acc = collections.defaultdict(dict)
        for (r, role, fm, lit, _), (n, txt) in zip(jobs, res):
            if not valid(txt):
                continue
            roles = [x[0] for x in r.forms[t][fm][0]]
            ops = split_insn(txt)[1]
            if role in roles and roles.index(role) < len(ops):
                acc[(r.mnem, role)][lit] = ops[roles.index(role)]
        for (m, role), txts in acc.items():
            r = rows[m]
            cnt = r.opdefs[t][role][1] if role in r.opdefs[t] else 1
            c = literal_class(txts, cnt)
            if c:
                measured[(m, role)] = c
    for r in rows.values():
        for t, od in r.opdefs.items():
            for role in list(od):
                cls, cnt, pc, rc = od[role]
                c = measured.get((r.mnem, role))
                if c:
                    od[role] = (cls, cnt, c, rc)


def fix_16bit_by_name(rows):
    """Sources of VOP3-only / VOPC-e64-only positions cannot take a literal on
    gfx9, so an f16 source prints its inline constants exactly like an f32
    one: take the 16-bitness from the mnemonic there (printing is identical)."""
    for r in rows.values():
        for t, od in r.opdefs.items():
            for role in list(od):
                cls, cnt, pc, rc = od[role]
                if role in ("S0", "S1", "S2") and pc == "32" and cnt == 1:
                    h = sem_hint(r.mnem, role)
                    if h == "f16":
                        pc = "f16"
                    elif h == "bf16":
                        pc = "bf16"
                    od[role] = (cls, cnt, pc, rc)


def probe_v3(orc, rows):
    for t in TARGETS:
        jobs = []
        for r in rows.values():
            if t not in r.op or "e64" not in r.forms[t]:
                continue
            base = list(r.base[t]["e64"])
            jobs.append((r, None, base))
            for nm, wi, b in V3BITS:
                w = list(base)
                w[wi] |= 1 << b
                jobs.append((r, nm, w))
            # each op_sel bit alone: the printed list tells the arity
            for b in range(4):
                w = list(base)
                w[0] |= 1 << (11 + b)
                jobs.append((r, "osall", w))
        res = orc.run(t, [j[2] for j in jobs])
        cur = {}
        for (r, nm, _), (n, txt) in zip(jobs, res):
            if nm is None:
                cur[r.mnem] = txt
                r.v3[t] = ""
                continue
            if nm == "osall":
                m = re.search(r"op_sel:\[([0-9,]+)\]", txt)
                if m:
                    r.os[t] = max(r.os.get(t, 0), len(m.group(1).split(",")))
                continue
            if not valid(txt):
                c = "X"
            elif txt == cur[r.mnem]:
                c = "="
            else:
                c = "p"
                if "bitop3:" in txt:
                    r.special.add("bitop3")
                if " fi:1" in txt:
                    r.special.add("v3fi")
            r.v3[t] += c


def probe_sdwa_dpp(orc, rows):
    for t in TARGETS:
        jobs = []
        for r in rows.values():
            if t not in r.op:
                continue
            if "sdwa" in r.forms[t]:
                bits = SDWAC_BITS if r.fam == "VOPC" else SDWA_BITS
                base = list(r.base[t]["sdwa"])
                jobs.append((r, "sdwa", None, base))
                for b in bits:
                    w = list(base)
                    w[1] |= 1 << b
                    jobs.append((r, "sdwa", b, w))
            if "dpp" in r.forms[t]:
                base = list(r.base[t]["dpp"])
                jobs.append((r, "dpp", None, base))
                for b in DPP_BITS:
                    w = list(base)
                    w[1] |= 1 << b
                    jobs.append((r, "dpp", b, w))
        res = orc.run(t, [j[3] for j in jobs])
        cur = {}
        for (r, fm, b, _), (n, txt) in zip(jobs, res):
            d = r.sdwa if fm == "sdwa" else r.dpp
            if b is None:
                cur[(r.mnem, fm)] = txt
                d[t] = ""
                continue
            if not valid(txt) or n != 8:    # n == 4: fell back to the e32 v_nop
                c = "X"
            elif txt == cur[(r.mnem, fm)]:
                c = "="
            else:
                c = "p"
            d[t] += c


# ---- output ------------------------------------------------------------------

def row_sig(r, t):
    parts = []
    od = r.opdefs[t]
    for role in ("D", "SD", "S0", "S1", "S2"):
        if role not in od:
            continue
        cls, cnt, pc, rc = od[role]
        dt = dtype_for(sem_hint(r.mnem, role), cnt, pc)
        if packed_type(r.mnem, role) and dt in ("B32", "I32", "U32", "F32", "V2F16", "V2BF16",
                                                "F16", "BF16", "I16", "U16", "B16"):
            dt = packed_type(r.mnem, role)
        if role in ("D", "SD") and cls == "s":
            dt = "B64" if cnt == 2 else "B32"
        tok = "%s:%s%d:%s" % (role, cls, cnt, dt.lower())
        if rc:
            tok += ":" + rc
        parts.append(tok)
    for fm in ("e32", "e64", "sdwa", "dpp"):
        if fm in r.forms[t]:
            parts.append("%s=%s" % (fm, ",".join(x[0] for x in r.forms[t][fm][0])))
    if t in r.v3 and r.v3[t]:
        parts.append("v3=" + r.v3[t])
        if r.os.get(t):
            parts.append("os=%d" % r.os[t])
    if r.sdwa.get(t):
        parts.append("sw=" + r.sdwa[t])
    if r.dpp.get(t):
        parts.append("dp=" + r.dpp[t])
    if "e64" in r.forms[t] and r.fam != "VOP3" and not r.e64_suffix.get(t, True):
        parts.append("nosuf64")
    if "e32" in r.forms[t] and not r.e32_suffix.get(t, True):
        parts.append("nosuf32")
    parts += sorted(r.special)
    parts += sorted(r.tspecial.get(t, ()))
    return " ".join(parts)


def row_flags(r, sig):
    m = r.mnem
    fl = ["GCN_F_RD_EXEC"]
    trans = m.startswith(TRANS_BASE) and not m.startswith("v_rcp_iflag") or \
        m in ("v_exp_legacy_f32", "v_log_legacy_f32", "v_rcp_iflag_f32")
    if trans:
        fl.append("GCN_F_TRANS")
    if any(x in m.split("_") for x in FLOAT_TOKS):
        fl.append("GCN_F_RD_MODE")
    toks = sig.split()
    forms = dict(x.split("=", 1) for x in toks if "=" in x and x.split("=")[0] in ("e32", "e64", "sdwa", "dpp"))
    e32 = forms.get("e32", "").split(",")
    if "VCC" in e32 or m.startswith("v_div_fmas"):
        fl.append("GCN_F_RD_VCC")
    if "VCCD" in e32:
        fl.append("GCN_F_WR_VCC")
    if m.startswith("v_cmpx"):
        fl.append("GCN_F_WR_EXEC")
    if m in ("v_readlane_b32", "v_writelane_b32"):
        fl.append("GCN_F_RD_LANESEL")
    if m in ("v_swap_b32", "v_permlane16_swap_b32", "v_permlane32_swap_b32"):
        fl.append("GCN_F_WR_SRC0")     # both registers are written (swaps)
    if m.startswith(TIED_SRC2):
        fl.append("GCN_F_RD_DST")      # src2 tied to vdst: the destination is read too
    if "dpp" in forms:
        fl.append("GCN_F_DPP_OK")
    if "sdwa" in forms:
        fl.append("GCN_F_SDWA_OK")
    if r.fam == "VOP3":
        fl.append("GCN_F_VOP3_ONLY")
    elif "e64" not in forms:
        fl.append("GCN_F_NO_E64")
    return "|".join(fl)


HEADER = """\
/* valu.def -- VOP1 / VOP2 / VOPC / VOP3 rows of the ISA table, gfx942 and gfx950.
 * GENERATED by tools/isagen/valu.py from LLVM 22 (llvm_oracle); do not edit.
 *
 * INSN(ID, FMT, OP942, OP950, MNEM, UNIT, FLAGS, PASSES, SIG)
 * FMT is the native family (VOP1/VOP2/VOPC rows are also decodable as VOP3 at
 * +0x140/+0x100/+0x000 unless GCN_F_NO_E64; VOP3 rows carry the 10-bit VOP3
 * opcode).  OP942/OP950 are the native opcodes (NONE when absent).
 *
 * SIG grammar (space-separated tokens), as LLVM prints the instruction:
 *   operand definitions  ROLE:CLASSn:DTYPE[:RCNAME]
 *     ROLE   D   vector (or scalar, class s) destination (vdst field)
 *            SD  scalar destination of VOP3b (sdst field, carry-out / div_scale)
 *            S0 S1 S2  sources
 *     CLASS  v VGPR only, a AGPR, s SGPR (or SGPR/constant source),
 *            c any 9-bit source (VGPR, SGPR, special, inline constant),
 *            r any register (a constant prints "Invalid immediate")
 *     n      number of 32-bit registers
 *     DTYPE  gcn_dtype name in lower case (f32, u32, b64, f16 ...); constants
 *            print as LLVM prints them for this type (operand.c), and the
 *            generator checked that LLVM's print class agrees (f16/bf16/int16,
 *            f64/int64 where a literal can reach the operand)
 *     RCNAME LLVM register class named in "Invalid register" comments when the
 *            operand holds a register of the wrong kind ("!" = such a word is
 *            invalid)
 *   forms (operand templates in print order; the form exists iff listed)
 *     e32=...  e64=...  sdwa=...  dpp=...   items: D SD S0 S1 S2, K (32-bit
 *            literal constant of fmamk/fmaak/madmk/madak), VCC (printed vcc
 *            source), VCCD (printed vcc destination)
 *   v3=CCCCCCCCCCCCC  VOP3 modifier bits abs0 abs1 abs2 op_sel0..3 clamp omod0
 *            omod1 neg0 neg1 neg2: X invalid when set, = ignored, p printed
 *   os=N     number of op_sel entries LLVM prints
 *   sw=...   SDWA second-dword bits (VOP1/VOP2: 13 14 15 19 20 21 22 23 27 28 29
 *            30 31; VOPC: 15 19 20 21 22 23 27 28 29 30 31), same letters
 *   dp=...   DPP second-dword bits 17..23, same letters
 *   nosuf32 / nosuf64 / nosufdpp / nosufsdwa  LLVM prints no _e32 / _e64 /
 *            _dpp / _sdwa suffix (v_nop, v_swap_b32, VOP3-only ...)
 *   sdwanodst  SDWA form without dst_sel/dst_unused (gfx950 fp8/bf8 converts):
 *            dst_sel must be DWORD, dst_unused is ignored
 *   942:TOKEN / 950:TOKEN  a token that holds on one target only
 *   bitop3   VOP3 bits neg[2:0] abs[2:0] omod[1:0] hold the bitop3:N truth table
 *   v3fi     VOP3 op_sel bits 0/1 print as fi:1 / bound_ctrl:1 (permlane swaps)
 */
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", required=True)
    ap.add_argument("-o", "--output", default="src/decode/isa/valu.def")
    a = ap.parse_args()
    orc = Oracle(a.oracle)
    found = discover(orc)
    rows = build_rows(found)
    probe_forms(orc, rows)
    probe_opdefs(orc, rows)
    probe_literals(orc, rows)
    fix_16bit_by_name(rows)
    probe_v3(orc, rows)
    probe_sdwa_dpp(orc, rows)
    out = [HEADER]
    ids = set()
    for r in rows.values():
        sigs = {t: row_sig(r, t) for t in TARGETS if t in r.op}
        sig = sigs.get("gfx942", sigs.get("gfx950"))
        if len(set(sigs.values())) > 1:
            # common tokens, then target-specific ones as "942:tok" / "950:tok"
            toks = {t: sigs[t].split() for t in sigs}
            common = [x for x in toks["gfx942"] if x in toks["gfx950"]]
            sig = " ".join(common + ["%s:%s" % (t[3:], x) for t in TARGETS for x in toks[t]
                                     if x not in common])
        ident = r.mnem.upper()
        assert ident not in ids
        ids.add(ident)
        ops = ["0x%03x" % r.op[t] if t in r.op else "NONE" for t in TARGETS]
        unit = "TRANS" if "GCN_F_TRANS" in row_flags(r, sig) else "VALU"
        out.append('INSN(%s, %s, %s, %s, "%s", %s, %s, 0, "%s")\n' % (
            ident, r.fam, ops[0], ops[1], r.mnem, unit, row_flags(r, sig), sig))
    with open(a.output, "w") as f:
        f.write("".join(out))
    sys.stderr.write("%d rows, %d oracle runs\n" % (len(rows), orc.calls))


if __name__ == "__main__":
    main()
