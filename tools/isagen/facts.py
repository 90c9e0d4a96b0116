#!/usr/bin/env python3
"""facts.py -- generate src/decode/isa/facts.def: the per-row facts the analyzer (and, in
time, the simulator) needs beyond the INSN columns, one FACT() row per INSN() row.

The input is the four generated family tables (salu.def, valu.def, vop3p.def, mem.def: the
INSN rows of tools/isagen/{salu,valu,vop3p,mem}.py); the output is keyed by row ID, so every
instruction fact of the analyzer comes from one generated table and no C file outside
src/decode/isa lists mnemonics.  Everything here is decided once, per row, from the row's
mnemonic, format, unit and flags; the rule tables below say where each fact comes from.

  FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ)
    CTL     control-flow kind (gcn_lkind without GCN_LK_): OTHER BRANCH CBRANCH SETPC SWAPPC
            CALL GETPC ENDPGM WAITCNT BARRIER NOP (LLVM SOPInstructions.td: isBranch,
            isReturn/isCall, SIInsertWaitcnts' S_WAITCNT, S_BARRIER; s_rfe_b64 ends the wave's
            visible control flow like s_endpgm)
    ALU     the value analysis' ALU class (gcn_lalu without GCN_LA_), NONE for others
    LDS     GCN_FX_LDS_R / GCN_FX_LDS_W of a DS row when it accesses LDS memory (atomics and
            returning stores both; ds_swizzle/permute/bpermute/nop/gws access none)
    EBYTES  bytes per lane of one data element of a memory row (DS/MUBUF/MTBUF/FLAT/GLOBAL/
            SCRATCH, from the LLVM mnemonic's type suffix; 16 when it names none), 0 otherwise
    MEMX    GCN_FX_TWO_ADDR (ds_read2/write2/wrxchg2*: offset0/offset1 in elements),
            GCN_FX_ST64 (their st64 forms: offsets in units of 64 elements),
            GCN_FX_SCC_CARRY (SALU add/sub whose SCC is the unsigned carry/borrow),
            GCN_FX_UNSIGNED (s_cmp_*_u32: the operands compare as unsigned)
    HZ      hazard roles (GCN_HR_*) of the producer/consumer classes hazards.def names
            (LLVM GCNHazardRecognizer.cpp: isDivFMas, isSGetReg/isSSetReg, isRFE, isRWLane,
            readsM0/isSendMsgTraceDataOrGDS, isDGEMM's 4x4x4/16x16x4 f64 shapes, fp8/fp4 dst_sel
            SDWA-like converts (checkMAIVALUHazards/fixShift64HighRegBug group), tied src2)

Also src/decode/isa/mfma.def: MFMA(ID, KIND, TC, TA, TB, F8F6F4), one row per MFMA-flagged row
(see generate_mfma).

usage: facts.py [--isa src/decode/isa] [-o src/decode/isa/facts.def] [--check]
--check compares with the committed files instead of writing them (exit 1 when stale).
"""
import argparse
import os
import re
import sys

FAMILIES = ("salu.def", "valu.def", "vop3p.def", "mem.def")   # gcn_isa.def's order
ROW = re.compile(r'INSN\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*"([^"]*)"\s*,'
                 r'\s*(\w+)\s*,\s*([^,]+?)\s*,\s*(\d+)\s*,', re.S)
MEMFMT = {"DS", "MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH"}


def rows(isadir):
    out = []
    for fam in FAMILIES:
        text = open(os.path.join(isadir, fam)).read()
        for m in ROW.finditer(text):
            ident, fmt, _, _, mnem, unit, flags, _ = m.groups()
            fl = set() if flags.strip() == "0" else {f.strip()[6:] for f in flags.split("|")}
            out.append((ident, fmt, mnem, unit, fl))
    return out


# ---- control-flow kind (SOPP/SOP1 rows; LLVM SOPInstructions.td)
CTL_EXACT = {"s_branch": "BRANCH", "s_setpc_b64": "SETPC", "s_swappc_b64": "SWAPPC",
             "s_call_b64": "CALL", "s_getpc_b64": "GETPC", "s_rfe_b64": "ENDPGM",
             "s_waitcnt": "WAITCNT", "s_barrier": "BARRIER", "s_nop": "NOP"}


def ctl(m):
    if m in CTL_EXACT:
        return CTL_EXACT[m]
    if m.startswith("s_cbranch_"):
        return "CBRANCH"
    if m.startswith("s_endpgm"):
        return "ENDPGM"
    return "OTHER"


# ---- the value analysis' ALU classes (src/analyze/values.c and cfg.c interpret them)
ALU = {
    "s_mov_b32": "S_MOV", "s_mov_b64": "S_MOV64",
    "s_add_u32": "S_ADD", "s_add_i32": "S_ADD", "s_addc_u32": "S_ADDC",
    "s_sub_u32": "S_SUB", "s_sub_i32": "S_SUB", "s_subb_u32": "S_SUBB",
    "s_lshl_b32": "S_LSHL", "s_mul_i32": "S_MUL",
    "v_mov_b32": "V_MOV",
    "v_add_u32": "V_ADD", "v_add_co_u32": "V_ADD", "v_add_i32": "V_ADD",
    "v_sub_u32": "V_SUB", "v_sub_co_u32": "V_SUB", "v_sub_i32": "V_SUB",
    "v_subrev_u32": "V_SUBREV", "v_subrev_co_u32": "V_SUBREV",
    "v_lshlrev_b32": "V_LSHLREV",
    "v_lshl_add_u32": "V_LSHL_ADD", "v_add_lshl_u32": "V_ADD_LSHL",
    "v_mul_lo_u32": "V_MUL", "v_mul_u32_u24": "V_MUL", "v_mul_i32_i24": "V_MUL",
    "v_mul_lo_i32": "V_MUL",
    "v_mad_i32_i24": "V_MAD", "v_mad_u32_u24": "V_MAD", "v_add3_u32": "V_ADD3",
    "v_readfirstlane_b32": "V_READFIRSTLANE",
    "s_and_b32": "S_AND", "s_or_b32": "S_OR", "s_xor_b32": "S_XOR",
    "s_lshr_b32": "S_LSHR", "s_ashr_i32": "S_ASHR", "s_bfe_u32": "S_BFE_U32",
    "s_lshl1_add_u32": "S_LSHL1_ADD", "s_lshl2_add_u32": "S_LSHL2_ADD",
    "s_lshl3_add_u32": "S_LSHL3_ADD", "s_lshl4_add_u32": "S_LSHL4_ADD",
    "s_movk_i32": "S_MOVK", "s_addk_i32": "S_ADDK", "s_mulk_i32": "S_MULK",
    "v_and_b32": "V_AND", "v_or_b32": "V_OR", "v_xor_b32": "V_XOR",
    "v_lshrrev_b32": "V_LSHRREV", "v_ashrrev_i32": "V_ASHRREV",
    "v_bfe_u32": "V_BFE_U32", "v_bfe_i32": "V_BFE_I32", "v_lshl_or_b32": "V_LSHL_OR",
    "v_and_or_b32": "V_AND_OR", "v_or3_b32": "V_OR3",
    "v_mbcnt_lo_u32_b32": "V_MBCNT_LO", "v_mbcnt_hi_u32_b32": "V_MBCNT_HI",
    "v_readlane_b32": "V_READLANE", "v_cndmask_b32": "V_CNDMASK",
    "s_and_b64": "S_AND64", "s_or_b64": "S_OR64", "s_and_saveexec_b64": "S_AND_SAVEEXEC",
    "s_cselect_b32": "S_CSELECT",
}
# 32-bit integer compares: v_cmp/v_cmpx and s_cmp of lt le gt ge eq ne(lg), u32 and i32
for _op, _s in (("lt", "lt"), ("le", "le"), ("gt", "gt"), ("ge", "ge"), ("eq", "eq"),
                ("ne", "lg")):
    for _t in ("u32", "i32"):
        ALU["v_cmp_%s_%s" % (_op, _t)] = ALU["v_cmpx_%s_%s" % (_op, _t)] = "V_CMP_" + _op.upper()
        ALU["s_cmp_%s_%s" % (_s, _t)] = "S_CMP_" + _op.upper()
# SALU add/sub whose SCC is the carry/borrow out (the _i32 forms set SCC on signed overflow)
SCC_CARRY = {"s_add_u32", "s_sub_u32", "s_addc_u32", "s_subb_u32"}
# scalar compares of unsigned values (paths.c takes both operands as non-negative)
UNSIGNED_CMP = {"s_cmp_%s_u32" % _s for _s in ("lt", "le", "gt", "ge", "eq", "lg")}


# ---- LDS accesses of DS rows (LLVM DSInstructions.td mayLoad/mayStore)
def lds(m):
    if not m.startswith("ds_"):
        return []
    no_mem = (m.startswith(("ds_swizzle", "ds_permute", "ds_bpermute", "ds_gws"))
              or m == "ds_nop")
    if no_mem:
        return []
    pure_read = m.startswith("ds_read")
    out = ["LDS_R"]
    if not pure_read:
        out.append("LDS_W")
    if m.startswith("ds_write") and "rtn" not in m:
        out.remove("LDS_R")
    return out


# element bytes from the type suffix, longest first
EBYTES = (("dwordx4", 16), ("dwordx3", 12), ("dwordx2", 8), ("dword", 4),
          ("b128", 16), ("b96", 12), ("b64", 8), ("b32", 4), ("b16", 2), ("b8", 1),
          ("u16", 2), ("i16", 2), ("short", 2), ("u8", 1), ("i8", 1), ("byte", 1))


def ebytes(fmt, m):
    if fmt not in MEMFMT:
        return 0
    for suf, b in EBYTES:
        if suf in m:
            return b
    return 16


def memx(m):
    out = []
    if m.startswith("ds_") and ("read2" in m or "write2" in m or "xchg2" in m):
        out.append("TWO_ADDR")
        if "st64" in m:
            out.append("ST64")
    if m in SCC_CARRY:
        out.append("SCC_CARRY")
    if m in UNSIGNED_CMP:
        out.append("UNSIGNED")
    return out


# ---- hazard roles (LLVM GCNHazardRecognizer.cpp; see the module comment)
HZ_EXACT = {
    "v_readlane_b32": ["READLANE", "RWLANE"], "v_readfirstlane_b32": ["READLANE"],
    "v_writelane_b32": ["WRITELANE", "RWLANE"],
    "v_div_fmas_f32": ["DIVFMAS"], "v_div_fmas_f64": ["DIVFMAS"],
    "s_setreg_b32": ["SETREG"], "s_setreg_imm32_b32": ["SETREG"],
    "s_getreg_b32": ["GETREG"], "s_rfe_b64": ["RFE"],
    "s_movrels_b32": ["M0READ"], "s_movrels_b64": ["M0READ"], "s_movreld_b32": ["M0READ"],
    "s_movreld_b64": ["M0READ"], "s_sendmsg": ["M0READ"], "s_sendmsghalt": ["M0READ"],
    "s_ttracedata": ["M0READ"], "ds_read_addtid_b32": ["M0READ"],
    "ds_write_addtid_b32": ["M0READ"],
    "v_fma_f64": ["FMA64"], "v_fmac_f64": ["FMA64"],
    "v_permlane16_swap_b32": ["PERMSWAP"], "v_permlane32_swap_b32": ["PERMSWAP"],
    "v_cvt_sr_fp8_f32": ["FP8_DSTSEL"], "v_cvt_sr_bf8_f32": ["FP8_DSTSEL"],
    "v_cvt_scalef32_sr_fp8_f32": ["FP8_DSTSEL"], "v_cvt_scalef32_sr_bf8_f32": ["FP8_DSTSEL"],
    "v_cvt_scalef32_sr_fp8_f16": ["FP8_DSTSEL"], "v_cvt_scalef32_sr_bf8_f16": ["FP8_DSTSEL"],
    "v_cvt_scalef32_sr_fp8_bf16": ["FP8_DSTSEL"], "v_cvt_scalef32_sr_bf8_bf16": ["FP8_DSTSEL"],
    "v_cvt_scalef32_sr_pk_fp4_f32": ["FP4_DSTSEL"], "v_cvt_scalef32_sr_pk_fp4_f16": ["FP4_DSTSEL"],
    "v_cvt_scalef32_sr_pk_fp4_bf16": ["FP4_DSTSEL"],
    "v_addc_co_u32": ["CARRY_IN"], "v_subb_co_u32": ["CARRY_IN"],
    "v_subbrev_co_u32": ["CARRY_IN"],
}
DGEMM_SHAPE = {"v_mfma_f64_4x4x4_4b_f64": "DGEMM4", "v_mfma_f64_16x16x4_f64": "DGEMM16"}


def hz(m, flags):
    out = []
    if "MFMA" in flags and m in DGEMM_SHAPE:
        out.append(DGEMM_SHAPE[m])
    if m.startswith("v_dot"):
        out.append("DOT")
    out += HZ_EXACT.get(m, [])
    if "RD_DST" in flags and "SMFMAC" not in flags:   # src2 tied to vdst (valu.py TIED_SRC2)
        out.append("TIED_SRC2")
    return out


def bits(prefix, names):
    return "|".join(prefix + n for n in names) if names else "0"


HEADER = """\
/* facts.def -- GENERATED by tools/isagen/facts.py from the INSN rows of salu.def, valu.def,
 * vop3p.def and mem.def; do not edit by hand (`make isa` regenerates it).
 * FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ): one row per INSN row, keyed by its ID; see
 * src/decode/gcn_facts.h for the columns and tools/isagen/facts.py for their sources. */
"""


def generate(isadir):
    out = [HEADER]
    seen = set()
    for ident, fmt, mnem, unit, flags in rows(isadir):
        assert ident not in seen, ident
        seen.add(ident)
        out.append("FACT(%s, %s, %s, %s, %d, %s, %s)\n" % (
            ident, ctl(mnem), ALU.get(mnem, "NONE"), bits("GCN_FX_", lds(mnem)),
            ebytes(fmt, mnem), bits("GCN_FX_", memx(mnem)), bits("GCN_HR_", hz(mnem, flags))))
    return "".join(out)


# ---- MFMA / SMFMAC shapes and element types (the mnemonic grammar of LLVM's VOP3PInstructions.td
# MAI names: v_mfma[_scale]_<C>_<M>x<N>x<K>[_<B>b]_<A>[_<B>] and v_smfmac_<C>_<M>x<N>x<K>_<A>[_<B>];
# f8f6f4 takes A/B formats from CBSZ/BLGP per instance)
MFMA_TYPES = {"f32": "F32", "xf32": "XF32", "f64": "F64", "f16": "F16", "bf16": "BF16",
              "i8": "I8", "i32": "I32", "fp8": "FP8", "bf8": "BF8"}
MFMA_NAME = re.compile(r"^v_(mfma_scale|mfma|smfmac)_([a-z0-9]+)_(\d+)x(\d+)x(\d+)(?:_(\d+)b)?_"
                       r"([a-z0-9]+)(?:_([a-z0-9]+))?$")


def mfma(mnem):
    """(KIND, TC, TA, TB, F8F6F4) of an MFMA row, or None (v_mfma_ld_scale_b32).  The
    M x N x K x blocks shape is vop3p.def's (from LLVM's operand sizes), not repeated here."""
    m = MFMA_NAME.match(mnem)
    if not m:
        return None
    kind, tc, mm, nn, kk, blocks, ta, tb = m.groups()
    f8f6f4 = ta == "f8f6f4"
    if f8f6f4:
        ta = tb = "fp8"                 # resolved per instance from CBSZ/BLGP
    tb = tb or ta
    if tc not in MFMA_TYPES or ta not in MFMA_TYPES or tb not in MFMA_TYPES:
        return None
    return ({"mfma": "DENSE", "mfma_scale": "SCALED", "smfmac": "SPARSE"}[kind],
            MFMA_TYPES[tc], MFMA_TYPES[ta], MFMA_TYPES[tb], int(f8f6f4))


MFMA_HEADER = """\
/* mfma.def -- GENERATED by tools/isagen/facts.py from the MFMA-flagged INSN rows of
 * vop3p.def; do not edit by hand (`make isa` regenerates it).
 * MFMA(ID, KIND, TC, TA, TB, F8F6F4): KIND DENSE / SPARSE (v_smfmac) / SCALED (v_mfma_scale);
 * TC the C/D element type, TA/TB A's and B's (gcn_mfma_type without GCN_MT_; F8F6F4 rows take
 * A/B formats from CBSZ/BLGP per instance).  The shape is vop3p.def's (gcn_mfma_shape).  The
 * simulator's MFMA descriptors (src/sim/mfma.c) come from these rows and that shape alone. */
"""


def generate_mfma(isadir):
    out = [MFMA_HEADER]
    for ident, fmt, mnem, unit, flags in rows(isadir):
        if "MFMA" not in flags:
            continue
        d = mfma(mnem)
        if d:
            out.append("MFMA(%s, %s, %s, %s, %s, %d)\n" % ((ident,) + d))
    return "".join(out)


def write_or_check(path, text, check):
    if check:
        old = open(path).read() if os.path.exists(path) else ""
        if old != text:
            sys.stderr.write("facts.py: %s is stale (run make isa)\n" % path)
            return 1
        return 0
    with open(path, "w") as f:
        f.write(text)
    return 0


def main():
    top = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--isa", default=os.path.join(top, "src", "decode", "isa"))
    ap.add_argument("-o", "--out")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    rc = write_or_check(a.out or os.path.join(a.isa, "facts.def"), generate(a.isa), a.check)
    mpath = os.path.join(os.path.dirname(a.out), "mfma.def") if a.out else \
        os.path.join(a.isa, "mfma.def")
    return rc | write_or_check(mpath, generate_mfma(a.isa), a.check)


if __name__ == "__main__":
    sys.exit(main())
