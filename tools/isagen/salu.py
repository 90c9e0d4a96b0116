#!/usr/bin/env python3
"""salu.py -- generate src/decode/isa/salu.def: the scalar families SOP2,
SOPK, SOP1, SOPC, SOPP and SMEM of gfx942 and gfx950.

Everything about an instruction's shape is asked of the installed LLVM 22
disassembler (tests/decode/llvm_oracle, the LLVM-C disassembler; or
llvm-mc-22 --disassemble when no oracle is given), opcode by opcode and
target by target:
  * which opcode values decode, and to which mnemonic;
  * which encoding field each printed operand comes from (probe words with
    distinct register numbers in each field);
  * the operand class of every register field: the field is swept over all
    its values and the printed text is compared with a model of each class
    (the same models salu.c implements); a field that matches no model
    stops the generator;
  * how immediate fields print (hex, decimal, label, hwreg(), sendmsg(),
    s_waitcnt fields, gpr_idx(), ...), by the same kind of comparison.
What LLVM cannot print -- implicit register uses and definitions, waitcnt
counters, units -- comes from the tables below, each taken from LLVM's
llvm/lib/Target/AMDGPU/SOPInstructions.td and SMInstructions.td
(Defs/Uses, LGKM_CNT, mayLoad/mayStore, isBranch, ...) as cited there.

usage: salu.py [--oracle tests/decode/llvm_oracle] [--llvm-mc llvm-mc-22]
               [-o src/decode/isa/salu.def]
The output is committed; the build never runs this script.
"""
import argparse
import os
import re
import struct
import subprocess
import sys

import oracle

TARGETS = ("gfx942", "gfx950")
SNOP = 0xBF800000
LIT = 0x12345678

# ---------------------------------------------------------------------------
# Talking to LLVM


class Oracle:
    def __init__(self, oracle, llvm_mc):
        self.oracle = oracle
        self.llvm_mc = llvm_mc
        self.cache = {}

    def dis(self, mcpu, slots):
        """Disassemble each slot (a list of up to 4 dwords, padded with
        s_nop); return [(size, text or None)] for the first instruction."""
        todo = [s for s in slots if (mcpu, tuple(s)) not in self.cache]
        if todo:
            res = self._run(mcpu, todo)
            for s, r in zip(todo, res):
                self.cache[(mcpu, tuple(s))] = r
        return [self.cache[(mcpu, tuple(s))] for s in slots]

    def _run(self, mcpu, slots):
        if self.oracle:
            return self._run_oracle(mcpu, slots)
        return self._run_mc(mcpu, slots)

    def _run_oracle(self, mcpu, slots):
        got = oracle.Oracle(self.oracle).raw(mcpu, slots)
        res = [(4, None)] * len(slots)
        for i, (n, text) in got.items():
            res[i] = (n, None if text in ("<invalid>", "<crash>") else text)
        return res

    def _run_mc(self, mcpu, slots):
        # One slot per line; llvm-mc prints one line per decoded instruction
        # and a warning per invalid word, so decode slot by slot (slow but
        # simple; the oracle is the fast path).
        res = []
        for ws in slots:
            ws = list(ws) + [SNOP] * (4 - len(ws))
            b = struct.pack("<4I", *ws)
            inp = " ".join("0x%02x" % x for x in b) + "\n"
            p = subprocess.run([self.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + mcpu,
                                "--disassemble", "--show-encoding"],
                               input=inp, capture_output=True, text=True)
            lines = [l for l in p.stdout.splitlines() if "; encoding:" in l]
            first_bad = "invalid instruction encoding" in p.stderr.split("\n")[0] \
                if p.stderr else False
            if first_bad or not lines:
                res.append((4, None))
                continue
            text = lines[0].split("; encoding:")[0].strip()
            # size: the number of s_nop lines tells how many words were eaten
            nops = sum(1 for l in lines[1:] if l.strip().startswith("s_nop 0"))
            res.append((16 - 4 * nops, text))
        return res


# ---------------------------------------------------------------------------
# Models of how LLVM prints operands (salu.c implements the same rules).

SPECIAL32 = {102: "flat_scratch_lo", 103: "flat_scratch_hi", 104: "xnack_mask_lo",
             105: "xnack_mask_hi", 106: "vcc_lo", 107: "vcc_hi", 124: "m0", 125: "null",
             126: "exec_lo", 127: "exec_hi"}
SPECIAL64 = {102: "flat_scratch", 104: "xnack_mask", 106: "vcc", 125: "null", 126: "exec"}
SRCNAMES = {230: "src_flat_scratch_base_lo", 235: "src_shared_base", 236: "src_shared_limit",
            237: "src_private_base", 238: "src_private_limit",
            239: "src_pops_exiting_wave_id", 251: "src_vccz", 252: "src_execz", 253: "src_scc"}
FLOATS = ["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"]
F32BITS = [0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000,
           0x40800000, 0xc0800000]


def sreg_text(v, n):
    """7-bit scalar register encoding v as a range of n registers (LLVM's
    AMDGPUDisassembler: SGPR/TTMP tuples are 2-aligned for 64 bits and
    4-aligned above; the low bits are dropped)."""
    if v <= 101:
        if n == 1:
            return "s%d" % v
        base = v & ~(1 if n == 2 else 3)
        if base + n > 106:
            return None
        return "s[%d:%d]" % (base, base + n - 1)
    if 108 <= v <= 123:
        t = v - 108
        if n == 1:
            return "ttmp%d" % t
        base = t & ~(1 if n == 2 else 3)
        if base + n > 16:
            return None
        return "ttmp[%d:%d]" % (base, base + n - 1)
    if v == 125:
        return "null"
    if n == 1:
        return SPECIAL32.get(v)
    if n == 2:
        return SPECIAL64.get(v)
    return None


def imm32_text(v):
    """LLVM printImmediate32."""
    s = v - (1 << 32) if v & 0x80000000 else v
    if -16 <= s <= 64:
        return "%d" % s
    if v in F32BITS:
        return FLOATS[F32BITS.index(v)]
    if v == 0x3e22f983:
        return "0.15915494"
    return "0x%x" % v


def lit_inlinable(v, n):
    if n == 2:
        return v <= 64
    s = v - (1 << 32) if v & 0x80000000 else v
    return -16 <= s <= 64 or v in F32BITS or v == 0x3e22f983


def src_text(v, n, regonly, lit):
    """8-bit scalar source v of n registers.  regonly: an SReg_* operand
    (LLVM decodes constants anyway and marks them /*Invalid immediate*/)."""
    bad = "/*Invalid immediate*/" if regonly else ""
    if v < 128:
        return sreg_text(v, n)
    if v <= 192:
        return "%d%s" % (v - 128, bad)
    if v <= 208:
        return "%d%s" % (192 - v, bad)
    if 240 <= v <= 247:
        return FLOATS[v - 240] + bad
    if v == 248:
        return ("0.15915494309189532" if n == 2 and not regonly else "0.15915494") + bad
    if v == 231:
        return "src_flat_scratch_base_hi" if n == 1 else None
    if v in SRCNAMES:
        return SRCNAMES[v]
    if v == 254:
        return ("src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/"
                if n == 1 else None)
    if v == 255:
        if regonly:
            return imm32_text(lit) + bad
        return ("lit(0x%x)" if lit_inlinable(lit, n) else "0x%x") % lit
    return None


def dst_text(v, n, cls):
    t = sreg_text(v, n)
    if t is None:
        return None
    if cls == "X32" and v in (124, 126, 127):
        t += "/*Invalid register, operand has 'SReg_32_XM0_XEXEC' register class*/"
    if cls == "X64" and v == 126:
        t += "/*Invalid register, operand has 'SReg_64_XEXEC' register class*/"
    return t


REG_CLASSES = {"S32": 1, "S64": 2, "X32": 1, "X64": 2, "S128": 4, "S256": 8, "S512": 16}


def class_width(cls):
    return REG_CLASSES.get(cls) or {"SS32": 1, "SS64": 2}[cls]


# simm16 printers
def hwreg_text(v):
    names = {1: "HW_REG_MODE", 2: "HW_REG_STATUS", 3: "HW_REG_TRAPSTS", 4: "HW_REG_HW_ID",
             5: "HW_REG_GPR_ALLOC", 6: "HW_REG_LDS_ALLOC", 7: "HW_REG_IB_STS",
             15: "HW_REG_SH_MEM_BASES", 16: "HW_REG_TBA_LO", 17: "HW_REG_TBA_HI",
             18: "HW_REG_TMA_LO", 19: "HW_REG_TMA_HI", 20: "HW_REG_XCC_ID",
             21: "HW_REG_SQ_PERF_SNAPSHOT_DATA", 22: "HW_REG_SQ_PERF_SNAPSHOT_DATA1",
             23: "HW_REG_SQ_PERF_SNAPSHOT_PC_LO", 24: "HW_REG_SQ_PERF_SNAPSHOT_PC_HI"}
    rid, off, size = v & 63, (v >> 6) & 31, ((v >> 11) & 31) + 1
    s = "hwreg(" + names.get(rid, "%d" % rid)
    if off != 0 or size != 32:
        s += ", %d, %d" % (off, size)
    return s + ")"


def sendmsg_text(v):
    names = {1: "MSG_INTERRUPT", 2: "MSG_GS", 3: "MSG_GS_DONE", 4: "MSG_SAVEWAVE",
             5: "MSG_STALL_WAVE_GEN", 6: "MSG_HALT_WAVES", 7: "MSG_ORDERED_PS_DONE",
             8: "MSG_EARLY_PRIM_DEALLOC", 9: "MSG_GS_ALLOC_REQ", 10: "MSG_GET_DOORBELL",
             15: "MSG_SYSMSG"}
    sysops = {1: "SYSMSG_OP_ECC_ERR_INTERRUPT", 2: "SYSMSG_OP_REG_RD", 4: "SYSMSG_OP_TTRACE_PC"}
    gsops = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"]
    mid, op, st = v & 15, (v >> 4) & 7, (v >> 8) & 3
    if mid in names:
        if mid == 15:
            if op in sysops and st == 0:
                return "sendmsg(%s, %s)" % (names[mid], sysops[op])
        elif mid in (2, 3):
            if op <= 3 and not (mid == 2 and op == 0) and (op != 0 or st == 0):
                if op == 0:
                    return "sendmsg(%s, %s)" % (names[mid], gsops[op])
                return "sendmsg(%s, %s, %d)" % (names[mid], gsops[op], st)
        elif op == 0 and st == 0:
            return "sendmsg(%s)" % names[mid]
    if v & ~0x37f == 0:          # the fields re-encode to exactly v (bit 7 unused)
        return "sendmsg(%d, %d, %d)" % (mid, op, st)
    return "%d" % v


def waitcnt_text(v):
    vm = (v & 15) | ((v >> 14) & 3) << 4
    exp = (v >> 4) & 7
    lgkm = (v >> 8) & 15
    parts = []
    allx = vm == 63 and exp == 7 and lgkm == 15
    if vm != 63 or allx:
        parts.append("vmcnt(%d)" % vm)
    if exp != 7 or allx:
        parts.append("expcnt(%d)" % exp)
    if lgkm != 15 or allx:
        parts.append("lgkmcnt(%d)" % lgkm)
    return " ".join(parts)


def gpridx_text(v):
    if v & ~15:
        return "0x%x" % v
    return "gpr_idx(" + ",".join(n for i, n in enumerate(("SRC0", "SRC1", "SRC2", "DST"))
                                 if v & (1 << i)) + ")"


IMM_STYLES = {
    "k16": lambda v: "0x%x" % v,                           # SOPK s16imm/u16imm
    "u16": lambda v: "%d" % v if v <= 64 else "0x%x" % v,  # SOPP i16imm/i32imm
    "label": lambda v: "%d" % v,                           # SOPPBrTarget
    "hwreg": hwreg_text,
    "sendmsg": sendmsg_text,
    "waitcnt": waitcnt_text,
    "gpridx": gpridx_text,
}

# Structured immediates are checked over all 65536 values.
EXHAUSTIVE = ("hwreg", "sendmsg", "waitcnt", "gpridx")

# ---------------------------------------------------------------------------
# Facts LLVM does not print: implicit operands, counters, units.
# From llvm/lib/Target/AMDGPU/SOPInstructions.td (Defs/Uses lists, isBranch,
# isCall, isReturn) and SMInstructions.td (LGKM_CNT, mayLoad/mayStore,
# IsAtomicRet/NoRet).  A name not listed has no implicit operands.

WR_SCC = """s_add_u32 s_sub_u32 s_add_i32 s_sub_i32 s_addc_u32 s_subb_u32 s_min_i32 s_min_u32
s_max_i32 s_max_u32 s_and_b32 s_and_b64 s_or_b32 s_or_b64 s_xor_b32 s_xor_b64 s_andn2_b32
s_andn2_b64 s_orn2_b32 s_orn2_b64 s_nand_b32 s_nand_b64 s_nor_b32 s_nor_b64 s_xnor_b32
s_xnor_b64 s_lshl_b32 s_lshl_b64 s_lshr_b32 s_lshr_b64 s_ashr_i32 s_ashr_i64 s_bfe_u32
s_bfe_i32 s_bfe_u64 s_bfe_i64 s_absdiff_i32 s_lshl1_add_u32 s_lshl2_add_u32 s_lshl3_add_u32
s_lshl4_add_u32 s_not_b32 s_not_b64 s_wqm_b32 s_wqm_b64 s_bcnt0_i32_b32 s_bcnt0_i32_b64
s_bcnt1_i32_b32 s_bcnt1_i32_b64 s_and_saveexec_b64 s_or_saveexec_b64 s_xor_saveexec_b64
s_andn2_saveexec_b64 s_orn2_saveexec_b64 s_nand_saveexec_b64 s_nor_saveexec_b64
s_xnor_saveexec_b64 s_andn1_saveexec_b64 s_orn1_saveexec_b64 s_andn1_wrexec_b64
s_andn2_wrexec_b64 s_abs_i32 s_cmpk_eq_i32 s_cmpk_lg_i32 s_cmpk_gt_i32 s_cmpk_ge_i32
s_cmpk_lt_i32 s_cmpk_le_i32 s_cmpk_eq_u32 s_cmpk_lg_u32 s_cmpk_gt_u32 s_cmpk_ge_u32
s_cmpk_lt_u32 s_cmpk_le_u32 s_addk_i32 s_cmp_eq_i32 s_cmp_lg_i32 s_cmp_gt_i32 s_cmp_ge_i32
s_cmp_lt_i32 s_cmp_le_i32 s_cmp_eq_u32 s_cmp_lg_u32 s_cmp_gt_u32 s_cmp_ge_u32 s_cmp_lt_u32
s_cmp_le_u32 s_bitcmp0_b32 s_bitcmp1_b32 s_bitcmp0_b64 s_bitcmp1_b64 s_setvskip
s_cmp_eq_u64 s_cmp_lg_u64""".split()
RD_SCC = """s_addc_u32 s_subb_u32 s_cselect_b32 s_cselect_b64 s_cmov_b32 s_cmov_b64
s_cmovk_i32 s_cbranch_scc0 s_cbranch_scc1""".split()
EXEC_RW = """s_and_saveexec_b64 s_or_saveexec_b64 s_xor_saveexec_b64 s_andn2_saveexec_b64
s_orn2_saveexec_b64 s_nand_saveexec_b64 s_nor_saveexec_b64 s_xnor_saveexec_b64
s_andn1_saveexec_b64 s_orn1_saveexec_b64 s_andn1_wrexec_b64 s_andn2_wrexec_b64""".split()
# The legacy fork/join branches manipulate EXEC (AMD Vega/CDNA ISA, "s_cbranch_*_fork");
# LLVM models them without Defs.
FORK_JOIN = "s_cbranch_g_fork s_cbranch_i_fork s_cbranch_join".split()
RD_EXEC = "s_cbranch_execz s_cbranch_execnz s_sendmsg s_sendmsghalt".split()
RD_VCC = "s_cbranch_vccz s_cbranch_vccnz".split()
RD_M0 = """s_movrels_b32 s_movrels_b64 s_movreld_b32 s_movreld_b64 s_set_gpr_idx_idx
s_set_gpr_idx_on s_sendmsg s_sendmsghalt s_ttracedata""".split()
WR_M0 = "s_set_gpr_idx_idx s_set_gpr_idx_on s_set_gpr_idx_mode".split()
BRANCH = """s_branch s_cbranch_scc0 s_cbranch_scc1 s_cbranch_vccz s_cbranch_vccnz
s_cbranch_execz s_cbranch_execnz s_cbranch_cdbgsys s_cbranch_cdbguser
s_cbranch_cdbgsys_or_user s_cbranch_cdbgsys_and_user s_setpc_b64 s_swappc_b64
s_rfe_b64 s_rfe_restore_b64 s_call_b64 s_cbranch_g_fork s_cbranch_i_fork
s_cbranch_join""".split()
ENDPGM = "s_endpgm s_endpgm_saved s_endpgm_ordered_ps_done".split()
MSG = "s_sendmsg s_sendmsghalt".split()

# Operand roles beyond the default (first operand written, the others read):
# which printed operands are read ("s"), written ("d") or both ("ds").
ROLES = {
    "s_cmpk_eq_i32": "s s", "s_cmpk_lg_i32": "s s", "s_cmpk_gt_i32": "s s",
    "s_cmpk_ge_i32": "s s", "s_cmpk_lt_i32": "s s", "s_cmpk_le_i32": "s s",
    "s_cmpk_eq_u32": "s s", "s_cmpk_lg_u32": "s s", "s_cmpk_gt_u32": "s s",
    "s_cmpk_ge_u32": "s s", "s_cmpk_lt_u32": "s s", "s_cmpk_le_u32": "s s",
    "s_addk_i32": "ds s", "s_mulk_i32": "ds s", "s_cmovk_i32": "ds s",
    "s_setreg_b32": "s s", "s_setreg_imm32_b32": "s s",
    "s_cbranch_i_fork": "s s",
    "s_bitset0_b32": "ds s", "s_bitset0_b64": "ds s", "s_bitset1_b32": "ds s",
    "s_bitset1_b64": "ds s",
    "s_cmov_b32": "ds s", "s_cmov_b64": "ds s",
    "s_and_saveexec_b64": "d s", "s_movreld_b32": "d s", "s_movreld_b64": "d s",
}


def flags_for(fam, mnem):
    f = []
    if fam == "SMEM":
        # SM_Pseudo: LGKM_CNT = 1; scalar memory returns out of order.  The
        # probes (SM_Probe_Pseudo) have LGKM_CNT = 0 in LLVM because they
        # return nothing its waitcnt pass must wait for, but they are SMEM
        # operations and take an lgkmcnt ticket like the others (gcnsim's
        # model, docs/gcnsim.md); counting them is the conservative choice.
        f += ["GCN_F_LGKMCNT", "GCN_F_SMEM_OOO"]
        if "_atomic_" in mnem:
            f += ["GCN_F_ATOMIC", "GCN_F_LOAD", "GCN_F_STORE"]
        elif "_load_" in mnem:
            f.append("GCN_F_LOAD")
        elif "_store_" in mnem:
            f.append("GCN_F_STORE")
        return f
    if mnem in RD_EXEC or mnem in EXEC_RW or mnem in FORK_JOIN:
        f.append("GCN_F_RD_EXEC")
    if mnem in EXEC_RW or mnem in FORK_JOIN:
        f.append("GCN_F_WR_EXEC")
    if mnem in RD_VCC:
        f.append("GCN_F_RD_VCC")
    if mnem in RD_SCC:
        f.append("GCN_F_RD_SCC")
    if mnem in WR_SCC:
        f.append("GCN_F_WR_SCC")
    if mnem in RD_M0:
        f.append("GCN_F_RD_M0")
    if mnem in WR_M0:
        f.append("GCN_F_WR_M0")
    if mnem in BRANCH:
        f.append("GCN_F_BRANCH")
    if mnem in ENDPGM:
        f.append("GCN_F_ENDPGM")
    if mnem == "s_barrier":
        f.append("GCN_F_BARRIER")
    if mnem == "s_waitcnt":
        f.append("GCN_F_WAITCNT")
    if mnem == "s_nop":
        f.append("GCN_F_NOP")
    if mnem in MSG:
        f.append("GCN_F_LGKMCNT")   # messages are counted by lgkmcnt
    return f


def unit_for(fam, mnem):
    if fam == "SMEM":
        return "SMEM"
    if mnem in MSG:
        return "MSG"
    if mnem in BRANCH or mnem in ENDPGM:
        return "BRANCH"
    return "SALU"


# ---------------------------------------------------------------------------
# Probing


def fail(msg):
    sys.stderr.write("salu.py: " + msg + "\n")
    sys.exit(1)


def operands_of(text):
    """Split LLVM text into mnemonic and operand strings (", " separated;
    SMEM ' offset:'/' glc' suffixes stay attached to the last operand)."""
    if " " not in text:
        return text, []
    m, rest = text.split(" ", 1)
    ops, cur, depth, i = [], "", 0, 0
    while i < len(rest):          # split at ", " outside /* */ and ( )
        if rest.startswith("/*", i) or rest[i] == "(":
            depth += 1
        elif rest.startswith("*/", i) or rest[i] == ")":
            depth -= 1
        if depth == 0 and rest.startswith(", ", i):
            ops.append(cur)
            cur = ""
            i += 2
            continue
        cur += rest[i]
        i += 1
    ops.append(cur)
    return m, ops


class Prober:
    def __init__(self, orc):
        self.orc = orc

    def dis1(self, mcpu, words):
        return self.orc.dis(mcpu, [words])[0]

    def sweep(self, mcpu, mk, values):
        return self.orc.dis(mcpu, [mk(v) for v in values])

    def match_field(self, mcpu, mk, values, idx, models, what):
        """Sweep a field; return the first model name whose prediction equals
        LLVM's text (or invalidity) for every value."""
        rs = self.sweep(mcpu, mk, values)
        got = []
        for r in rs:
            if r[1] is None:
                got.append(None)
            else:
                _, ops = operands_of(r[1])
                got.append(", ".join(ops[idx:idx + 1]) if idx >= 0 else r[1])
        for name, fn in models:
            ok = True
            for v, g in zip(values, got):
                if fn(v) != g:
                    ok = False
                    break
            if ok:
                return name
        # report the first disagreement with each model
        lines = []
        for name, fn in models:
            for v, g in zip(values, got):
                if fn(v) != g:
                    lines.append("  %s: value %d: llvm %r model %r" % (name, v, g, fn(v)))
                    break
        fail("%s on %s: no operand model fits\n%s" % (what, mcpu, "\n".join(lines)))


def src_models(lit):
    return [("SS32", lambda v: src_text(v, 1, False, lit)),
            ("SS64", lambda v: src_text(v, 2, False, lit)),
            ("S32", lambda v: src_text(v, 1, True, lit)),
            ("S64", lambda v: src_text(v, 2, True, lit)),
            ("gpridx", gpridx_text)]


def dst_models():
    return [(c, (lambda c: lambda v: dst_text(v, REG_CLASSES[c], c))(c))
            for c in ("S32", "S64", "X32", "X64", "S128", "S256", "S512")]


def imm_models():
    return list(IMM_STYLES.items())


def reg_token_field(tok, probes):
    """Which probe field a printed register token came from, and its width."""
    m = re.match(r"^s(\d+)$", tok)
    if m:
        base, n = int(m.group(1)), 1
    else:
        m = re.match(r"^s\[(\d+):(\d+)\]$", tok)
        if not m:
            return None, 0
        base, n = int(m.group(1)), int(m.group(2)) - int(m.group(1)) + 1
    for field, val in probes.items():
        if val == base:
            return field, n
    return None, n


# --- SOP2 / SOP1 / SOPC ------------------------------------------------------

def probe_sop(pr, fam, mcpu, op):
    if fam == "SOP2":
        def mk(d=10, s0=40, s1=20, lit=LIT):
            return [0x80000000 | (op << 23) | (d << 16) | (s1 << 8) | s0, lit]
    elif fam == "SOP1":
        def mk(d=10, s0=40, s1=None, lit=LIT):
            return [0xBE800000 | (d << 16) | (op << 8) | s0, lit]
    else:  # SOPC
        def mk(d=None, s0=40, s1=20, lit=LIT):
            return [0xBF000000 | (op << 16) | (s1 << 8) | s0, lit]
    size, text = pr.dis1(mcpu, mk())
    if text is None:
        return None
    mnem, ops = operands_of(text)
    probes = {"sdst": 10, "ssrc0": 40, "ssrc1": 20}
    sig = []
    for i, tok in enumerate(ops):
        field, n = reg_token_field(tok, probes)
        if field is None:
            # s_set_gpr_idx_on's mode operand prints as an immediate
            if fam == "SOPC" and i == 1:
                field = "ssrc1"
            else:
                fail("%s op 0x%x on %s: cannot place operand %r of %r" % (fam, op, mcpu, tok, text))
        if field == "sdst":
            cls = pr.match_field(mcpu, lambda v: mk(d=v), range(128), i, dst_models(),
                                 "%s %s sdst" % (fam, mnem))
        else:
            key = "s0" if field == "ssrc0" else "s1"
            models = src_models(LIT)
            cls = pr.match_field(mcpu, lambda v: mk(**{key: v}), range(256), i, models,
                                 "%s %s %s" % (fam, mnem, field))
            if cls != "gpridx":
                # the literal prints by the same model for other values too
                n, regonly = class_width(cls), cls in ("S32", "S64")
                pr.match_field(mcpu, lambda v: mk(**{key: 255, "lit": v}),
                               [0, 1, 64, 65, 0xfffffff0, 0xffffffef, 0x3f800000,
                                0x3e22f983, 0x3ff00000, 0x80000000], i,
                               [(cls, lambda v: src_text(255, n, regonly, v))],
                               "%s %s %s literal" % (fam, mnem, field))
        sig.append((field, cls))
    return mnem, sig


# --- SOPK --------------------------------------------------------------------

def probe_sopk(pr, mcpu, op):
    def mk(d=10, k=0x1234, lit=LIT):
        return [0xB0000000 | (op << 23) | (d << 16) | k, lit]
    size, text = pr.dis1(mcpu, mk())
    if text is None:
        return None
    mnem, ops = operands_of(text)
    sig = []
    kvals = [0, 1, 3, 63, 64, 65, 0x1234, 0x7fff, 0x8000, 0x8001, 0xfff0, 0xffff, 0x07c1,
             0xf801, 0x0841, 0x3f]
    for i, tok in enumerate(ops):
        field, n = reg_token_field(tok, {"sdst": 10})
        if field == "sdst":
            cls = pr.match_field(mcpu, lambda v: mk(d=v), range(128), i, dst_models(),
                                 "SOPK %s sdst" % mnem)
            sig.append(("sdst", cls))
        elif size == 8 and tok == "0x%x" % LIT:
            cls = pr.match_field(mcpu, lambda v: mk(lit=v),
                                 [0, 1, 64, 65, 0xfffffff0, 0x3f800000, 0x3e22f983, LIT], i,
                                 [("imm32", imm32_text)], "SOPK %s literal" % mnem)
            sig.append(("literal", cls))
        else:
            cls = pr.match_field(mcpu, lambda v: mk(k=v), kvals, i, imm_models(),
                                 "SOPK %s simm16" % mnem)
            if cls in EXHAUSTIVE:
                pr.match_field(mcpu, lambda v: mk(k=v), range(65536), i,
                               [(cls, IMM_STYLES[cls])], "SOPK %s simm16 (all values)" % mnem)
            sig.append(("simm16", cls))
    return mnem, sig, size


# --- SOPP --------------------------------------------------------------------

def probe_sopp(pr, mcpu, op):
    def mk(k):
        return [0xBF800000 | (op << 16) | k]
    kvals = [0, 1, 3, 15, 63, 64, 65, 0x1234, 0x7fff, 0x8000, 0x8001, 0xfff0, 0xffff,
             0x0f70, 0xc07f, 0x3f7f, 0x0003, 0x0012, 0x0022, 0x0312, 0x000f, 0x002f,
             0x0010, 0x0400, 0x041f]
    rs = pr.sweep(mcpu, mk, kvals)
    valid = [(k, r[1]) for k, r in zip(kvals, rs) if r[1] is not None]
    if not valid:
        return None
    mnem = valid[0][1].split(" ")[0]
    if all(r[1] is None for k, r in zip(kvals, rs) if k != 0) and rs[0][1] == mnem:
        return mnem, [("simm16", "zero")]
    if rs[0][1] == mnem:          # s_endpgm: the operand is omitted when 0
        pr.match_field(mcpu, mk, kvals, -1, [("endpgm", lambda v: mnem if v == 0
                                               else "%s %d" % (mnem, v))],
                       "SOPP %s simm16" % mnem)
        return mnem, [("simm16", "endpgm")]
    cls = pr.match_field(mcpu, mk, kvals, 0, imm_models(), "SOPP %s simm16" % mnem)
    if cls in EXHAUSTIVE:
        pr.match_field(mcpu, mk, range(65536), 0, [(cls, IMM_STYLES[cls])],
                       "SOPP %s simm16 (all values)" % mnem)
    return mnem, [("simm16", cls)]


# --- SMEM --------------------------------------------------------------------

def smem_word(op, sdata=8, sbase=2, imm=1, soe=0, glc=0, w1=0x10):
    return [0xC0000000 | (op << 18) | (imm << 17) | (glc << 16) | (soe << 14) |
            (sdata << 6) | sbase, w1]


def probe_smem(pr, mcpu, op):
    imm = 1
    size, text = pr.dis1(mcpu, smem_word(op))
    if text is None:
        imm = 0
        size, text = pr.dis1(mcpu, smem_word(op, imm=0))
        if text is None:
            return None
    mnem, ops = operands_of(text)
    sig = []
    has_off = False
    for i, tok in enumerate(ops):
        field, n = reg_token_field(tok, {"sdata": 8, "sbase": 4})
        if field == "sdata":
            cls = pr.match_field(mcpu, lambda v: smem_word(op, sdata=v, imm=imm), range(128), i,
                                 dst_models(), "SMEM %s sdata" % mnem)
            sig.append(("sdata", cls))
        elif field == "sbase":
            cls = pr.match_field(mcpu, lambda v: smem_word(op, sbase=v, imm=imm), range(64), i,
                                 [("S64", lambda v: sreg_text(2 * v, 2)),
                                  ("S128", lambda v: sreg_text(2 * v, 4))],
                                 "SMEM %s sbase" % mnem)
            sig.append(("sbase", cls))
        elif tok == "8":
            pr.match_field(mcpu, lambda v: smem_word(op, sdata=v, imm=imm), range(128), i,
                           [("imm7", imm32_text)], "SMEM %s sdata imm" % mnem)
            sig.append(("sdata", "imm7"))
        elif i == len(ops) - 1 and tok.startswith("0x10"):
            has_off = True
            sig.append(("offset", "smem"))
        else:
            fail("SMEM op 0x%x on %s: cannot place operand %r of %r" % (op, mcpu, tok, text))
    if has_off:
        # the offset forms: check every (imm, soe) combination prints as modelled
        for (imm_, soe, w1), r in zip(SMEM_FORMS, pr.orc.dis(mcpu, smem_forms(op))):
            want = smem_offset_text(imm_, soe, w1)
            _, o = operands_of(r[1]) if r[1] else (None, [None])
            if o[-1] != want:
                fail("SMEM %s offset form imm=%d soe=%d w1=%x: llvm %r model %r"
                     % (mnem, imm_, soe, w1, o[-1], want))
    else:
        sig.append(("!imm", "zero"))
        if pr.dis1(mcpu, smem_word(op, imm=1))[1] is not None:
            fail("SMEM %s without offset decodes with imm=1" % mnem)
    # cache policy: does glc print?
    r = pr.dis1(mcpu, smem_word(op, imm=imm, glc=1))
    if r[1] is None:
        fail("SMEM %s invalid with glc" % mnem)
    if r[1].endswith(" glc"):
        sig.append(("cpol", "glc"))
    elif r[1] != text:
        fail("SMEM %s: glc changes text to %r" % (mnem, r[1]))
    return mnem, sig


SMEM_FORMS = [(imm, soe, w1) for imm, soe in ((0, 0), (0, 1), (1, 0), (1, 1))
              for w1 in (0x10, 0x1fffff, 0x100000, 0xfffff, 0, 0xfe000010, 0x0000007c)]


def smem_forms(op):
    return [smem_word(op, imm=imm, soe=soe, w1=w1) for imm, soe, w1 in SMEM_FORMS]


def smem_offset_text(imm, soe, w1):
    off = w1 & 0x1fffff
    if off & 0x100000:
        off -= 0x200000
    offs = ("-0x%x" % -off) if off < 0 else ("0x%x" % off)
    if imm and not soe:
        return offs
    if imm and soe:
        return "%s offset:%s" % (sreg_text(w1 >> 25, 1), offs)
    if soe:
        return sreg_text(w1 >> 25, 1)
    return sreg_text(w1 & 0x7f, 1)


def prefetch(pr, fam, mcpu, ops):
    """Ask LLVM in one run for the words the probes of a family will most
    likely need (the answers are cached), instead of one run per probe."""
    slots = []
    for op in ops:
        if fam == "SOP2":
            base = lambda d=10, s0=40, s1=20: [0x80000000 | (op << 23) | (d << 16) |
                                               (s1 << 8) | s0, LIT]
        elif fam == "SOP1":
            base = lambda d=10, s0=40, s1=None: [0xBE800000 | (d << 16) | (op << 8) | s0, LIT]
        elif fam == "SOPC":
            base = lambda d=None, s0=40, s1=20: [0xBF000000 | (op << 16) | (s1 << 8) | s0, LIT]
        elif fam == "SMEM":
            for imm in (0, 1):
                slots += [smem_word(op, imm=imm), smem_word(op, imm=imm, glc=1)]
                slots += [smem_word(op, sdata=v, imm=imm) for v in range(128)]
                slots += [smem_word(op, sbase=v, imm=imm) for v in range(64)]
            slots += smem_forms(op)
            continue
        else:
            continue
        slots.append(base())
        slots += [base(d=v) for v in range(128)]
        slots += [base(s0=v) for v in range(256)]
        slots += [base(s1=v) for v in range(256)]
    if slots:
        pr.orc.dis(mcpu, slots)


# ---------------------------------------------------------------------------

FAMILIES = [
    ("SOP2", range(0, 0x60)),   # 0x60.. are the SOPK, SOP1, SOPC, SOPP encodings
    ("SOPK", range(0, 29)),     # 29..31 are the SOP1/SOPC/SOPP encodings
    ("SOP1", range(0, 256)),
    ("SOPC", range(0, 128)),
    ("SOPP", range(0, 128)),
    ("SMEM", range(0, 256)),
]


STORE_PREFIXES = ("s_store", "s_buffer_store", "s_scratch_store")


def sig_string(mnem, sig):
    """FIELD:CLASS[:ROLE] tokens; roles from ROLES, else: a first sdst is
    written, SMEM data is written by loads, read by stores, both by atomics
    (written only when glc is set), other register operands are read."""
    roles = ROLES.get(mnem, "").split()
    out = []
    for i, (field, cls) in enumerate(sig):
        tok = "%s:%s" % (field, cls)
        if cls in REG_CLASSES or cls in ("SS32", "SS64"):
            if i < len(roles):
                role = roles[i]
            elif field == "sdst" and i == 0:
                role = "d"
            elif field == "sdata":
                role = ("s" if mnem.startswith(STORE_PREFIXES)
                        else "ds" if "_atomic_" in mnem else "d")
            else:
                role = "s"
            tok += ":" + role
        out.append(tok)
    return " ".join(out)


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.normpath(os.path.join(here, "..", ".."))
    default_oracle = os.path.join(top, "tests", "decode", "llvm_oracle")
    ap.add_argument("--oracle", default=default_oracle if os.path.exists(default_oracle) else None)
    ap.add_argument("--llvm-mc", default="llvm-mc-22")
    ap.add_argument("-o", "--output", default=os.path.join(top, "src", "decode", "isa", "salu.def"))
    a = ap.parse_args()
    pr = Prober(Oracle(a.oracle, a.llvm_mc))

    rows = {}    # (fam, mnem) -> {"op": {target: opcode}, "sig": {target: sig}}
    order = []
    for fam, ops in FAMILIES:
        for ti, mcpu in enumerate(TARGETS):
            prefetch(pr, fam, mcpu, ops)
            for op in ops:
                if fam in ("SOP2", "SOP1", "SOPC"):
                    r = probe_sop(pr, fam, mcpu, op)
                elif fam == "SOPK":
                    r = probe_sopk(pr, mcpu, op)
                    if r:
                        r = r[:2]
                elif fam == "SOPP":
                    r = probe_sopp(pr, mcpu, op)
                else:
                    r = probe_smem(pr, mcpu, op)
                if r is None:
                    continue
                mnem, sig = r
                sig = sig_string(mnem, sig)
                key = (fam, mnem)
                if key not in rows:
                    rows[key] = {"op": {}, "sig": {}}
                    order.append(key)
                if mcpu in rows[key]["op"]:
                    fail("%s %s appears twice on %s" % (fam, mnem, mcpu))
                rows[key]["op"][mcpu] = op
                rows[key]["sig"][mcpu] = sig
            sys.stderr.write("%s %s done\n" % (fam, mcpu))

    out = []
    out.append(HEADER)
    cur = None
    for key in order:
        fam, mnem = key
        r = rows[key]
        sigs = set(r["sig"].values())
        if len(sigs) != 1:
            fail("%s %s: operand shapes differ between targets: %s" % (fam, mnem, r["sig"]))
        if fam != cur:
            out.append("\n/* ---- %s ---- */" % fam)
            cur = fam
        ops = ["0x%02x" % r["op"][t] if t in r["op"] else "NONE" for t in TARGETS]
        flags = flags_for(fam, mnem)
        out.append('INSN(%-28s %-5s %-5s %-5s %-30s %-6s %s, 0, "%s")' % (
            mnem.upper() + ",", fam + ",", ops[0] + ",", ops[1] + ",", '"%s",' % mnem,
            unit_for(fam, mnem) + ",", "|".join(flags) if flags else "0", sigs.pop()))
    text = "\n".join(out) + "\n"
    with open(a.output, "w") as f:
        f.write(text)
    sys.stderr.write("wrote %s (%d rows)\n" % (a.output, len(order)))


HEADER = """/* salu.def -- the scalar families SOP2, SOPK, SOP1, SOPC, SOPP and SMEM of
 * gfx942 and gfx950.  GENERATED by tools/isagen/salu.py from the installed
 * LLVM 22 disassembler (mnemonics, opcodes, operand fields and classes) and
 * from LLVM's SOPInstructions.td / SMInstructions.td (implicit operands,
 * counters); do not edit by hand, re-run the generator.
 *
 * Columns: INSN(ID, FMT, OP942, OP950, MNEM, UNIT, FLAGS, PASSES, SIG); see
 * gcn_isa.h.
 *
 * SIG: the operands in LLVM's printing order, space separated, each
 * FIELD:CLASS[:ROLE].
 *   FIELD  the encoding field: sdst (bits 22:16 of SOP1/SOP2/SOPK), ssrc0
 *          (7:0), ssrc1 (15:8), simm16 (15:0), literal (the dword after a
 *          SOPK word), sdata (SMEM 12:6), sbase (SMEM 5:0, register number
 *          / 2), offset (the SMEM address tail: immediate, soffset, or
 *          soffset + offset, chosen by the imm (17) and soe (14) bits).
 *          Tokens that print nothing: "!imm:zero" (SMEM word valid only
 *          with imm = 0), "cpol:glc" (SMEM glc bit 16 prints " glc").
 *   CLASS  register classes (LLVM's names):
 *            S32/S64    SReg_32/SReg_64: registers only (LLVM still decodes
 *                       constants in an 8-bit source and prints them with
 *                       a trailing invalid-immediate comment)
 *            SS32/SS64  SSrc_b32/SSrc_b64: registers, inline constants,
 *                       the 32-bit literal (8-bit field value 255)
 *            X32/X64    SReg_32_XM0_XEXEC / SReg_64_XEXEC (SMEM data; m0 and
 *                       exec print with an invalid-register comment)
 *            S128/S256/S512  SGPR/TTMP tuples of 4, 8, 16 registers
 *          immediates:
 *            k16     SOPK 16-bit immediate, hex
 *            u16     decimal up to 64, hex above
 *            label   branch offset (signed words), printed unsigned decimal
 *            endpgm  omitted when 0, else decimal
 *            zero    must be 0, not printed (else the word is invalid)
 *            hwreg   hwreg(NAME|id[, offset, size])
 *            sendmsg sendmsg(MSG_..., op[, stream]) or raw forms
 *            waitcnt vmcnt(..) expcnt(..) lgkmcnt(..)
 *            gpridx  gpr_idx(SRC0,...) or hex
 *            imm32   32-bit literal printed as LLVM's printImmediate32
 *            imm7    SMEM sdata field used as a number (s_atc_probe)
 *            smem    the SMEM offset tail (see FIELD offset)
 *   ROLE   s = read, d = written, ds = both (register operands only).
 */"""

if __name__ == "__main__":
    main()
