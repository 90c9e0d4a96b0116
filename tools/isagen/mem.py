#!/usr/bin/env python3
"""mem.py -- generate src/decode/isa/mem.def, the vector memory rows of the ISA
table (DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH) for gfx942 and gfx950.

The facts come from the installed LLVM 22 disassembler, asked opcode by opcode
through tests/decode/llvm_oracle (LLVM-C, the printer llvm-objdump uses):
for every opcode value it disassembles a set of probe encodings (fields zero
or not, modifier bits set or not, registers even, odd or high) and reads from
the text which mnemonic the opcode has on each target, which encoding fields
the instruction uses (LLVM rejects a DS word whose unused fields are not
zero), how many registers each data operand covers, which modifier bits are
allowed (gds, acc, lds, sve), and which register class LLVM names when an
operand tuple is misaligned.  Properties LLVM's text cannot show (counters,
load/store/atomic, M0 and EXEC reads) follow from the mnemonic with the rules
below, which restate LLVM's DSInstructions.td, BUFInstructions.td and
FLATInstructions.td (llvm/lib/Target/AMDGPU).

usage: mem.py --oracle tests/decode/llvm_oracle [--out src/decode/isa/mem.def]
              [--dump FILE]        (probe results as JSON, for review)
"""
import argparse
import json
import re
import sys

import oracle

TARGETS = ("gfx942", "gfx950")
SNOP = 0xBF800000
SLOT = 16


class Oracle(oracle.Oracle):
    """The shared LLVM-C oracle (tools/isagen/oracle.py); run() gives [text or None]."""

    def run(self, mcpu, cands):
        return self.texts(mcpu, cands)


# ---------------------------------------------------------------------------
# Text parsing helpers

REG_RE = re.compile(r"^(v|a|s|ttmp)(?:(\d+)|\[(\d+):(\d+)\])(/\*Invalid register, operand has "
                    r"'([A-Za-z0-9_]+)' register class\*/)?$")


def parse_reg(tok):
    """'v[20:21]/*Invalid..'AV_64_Align2'..*/' -> ('v', 20, 2, 'AV_64_Align2')."""
    m = REG_RE.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        lo, n = int(m.group(2)), 1
    else:
        lo, n = int(m.group(3)), int(m.group(4)) - int(m.group(3)) + 1
    return (m.group(1), lo, n, m.group(6))


MODWORDS = {"gds", "offen", "idxen", "lds", "sc0", "sc1", "nt", "glc", "slc", "tfe", "scc"}


def split_text(text):
    """Split 'mnem a, b, c mods' into (mnem, [operands], modstring).  The last
    operand is separated from the modifiers at its first blank; the ', ' in
    LLVM's '/*Invalid register, operand has ...*/' comments does not split."""
    mnem, _, rest = text.partition(" ")
    if not rest:
        return mnem, [], ""
    first = rest.split(" ")[0]
    if first in MODWORDS or re.match(r"^[a-z_0-9]+:", first):
        return mnem, [], rest
    prot = re.sub(r"/\*.*?\*/", lambda m: m.group(0).replace(", ", "\x01").replace(" ", "\x02"),
                  rest)
    parts = prot.split(", ")
    last, _, mods = parts[-1].partition(" ")
    back = lambda x: x.replace("\x01", ", ").replace("\x02", " ")
    return mnem, [back(x) for x in parts[:-1] + [last]], back(mods)



def reg_token(name, n, kind_by_acc, cls_by_acc, dt=None, opt=False, rcls_by_acc=None):
    """Operand token of a SIG: name[?]:N[:dt][:acc][:V=cls][:A=cls][:Vr=cls][:Ar=cls]
    (the r classes: when the atomic returns, where they differ)."""
    t = "%s%s:%d" % (name, "?" if opt else "", n)
    if dt:
        t += ":" + dt
    if kind_by_acc.get(1) == "a":
        t += ":acc"
    if cls_by_acc.get(0):
        t += ":V=" + cls_by_acc[0]
    if cls_by_acc.get(1):
        t += ":A=" + cls_by_acc[1]
    if rcls_by_acc is not None and rcls_by_acc != cls_by_acc:
        t += ":Vr=" + (rcls_by_acc.get(0) or "-")
        if 1 in rcls_by_acc or 1 in cls_by_acc:
            t += ":Ar=" + (rcls_by_acc.get(1) or "-")
    return t


# ---------------------------------------------------------------------------
# Data types of the data operands, from the mnemonic (LLVM prints no types;
# these follow the mnemonic suffix as the ISA guides define it).

def data_dtype(mnem):
    m = mnem + "_"
    if "_tr_b" in m:                       # gfx950 transposing LDS loads
        return "b" + mnem.rsplit("_tr_b", 1)[1]
    if "pk_add_bf16" in m:
        return "v2bf16"
    if "pk_add_f16" in m or "pk_add_rtn_f16" in m:
        return "v2f16"
    if "pk_add_rtn_bf16" in m:
        return "v2bf16"
    for suf in ("f64", "f32", "u64", "i64", "b64", "u32", "i32", "b32", "u16", "i16", "b16",
                "u8", "i8", "b8"):
        if "_" + suf + "_" in m:
            return suf
    if "format_d16" in m:
        return "f16"
    if "format" in m:
        return "f32"
    for w, dt in (("ubyte", "u8"), ("sbyte", "i8"), ("ushort", "u16"), ("sshort", "i16"),
                  ("byte", "b8"), ("short", "b16")):
        if "_" + w + "_" in m:
            return dt
    if "_atomic_" in m:
        x2 = "_x2_" in m
        op = mnem.split("_atomic_")[1].replace("_x2", "")
        if op in ("smin", "smax"):
            return "i64" if x2 else "i32"
        if op in ("umin", "umax", "add", "sub", "inc", "dec"):
            return "u64" if x2 else "u32"
        return "b64" if x2 else "b32"
    return "b32"


# ---------------------------------------------------------------------------
# DS: word0 offset[15:0] gds[16] op[24:17] acc[25] 0x36[31:26];
#     word1 addr[39:32] data0[47:40] data1[55:48] vdst[63:56]
# (LLVM DSInstructions.td, class DS_Real_vi).  Fields an instruction does not
# have are encoded as 0, and LLVM's decoder requires them to be 0.

DS_FIELDS = (("addr", 0, 10), ("data0", 8, 20), ("data1", 16, 30), ("vdst", 24, 40))


def ds_word(op, gds=0, acc=0, offset=0, regs=None):
    w0 = 0xD8000000 | (op << 17) | (gds << 16) | (acc << 25) | (offset & 0xFFFF)
    w1 = 0
    for name, sh, _ in DS_FIELDS:
        w1 |= (regs or {}).get(name, 0) << sh
    return [w0, w1]


def probe_ds(orc, mcpu):
    """{opcode: (mnemonic, [SIG tokens])} for the DS family on one target."""
    cands, keys = [], []
    for op in range(256):
        for gds in (0, 1):
            for acc in (0, 1):
                for offs in (0, 0x0201):
                    for mask in range(16):
                        regs = {n: v for i, (n, _, v) in enumerate(DS_FIELDS) if mask >> i & 1}
                        cands.append(ds_word(op, gds, acc, offs, regs))
                        keys.append((op, gds, acc, offs, mask))
    valid = {}
    for k, t in zip(keys, orc.run(mcpu, cands)):
        if t is not None:
            valid.setdefault(k[0], {})[k[1:]] = t
    out = {}
    for op, v in sorted(valid.items()):
        mnems = {t.split(" ")[0] for t in v.values()}
        assert len(mnems) == 1, (mcpu, op, mnems)
        mnem = mnems.pop()
        gds_ok = sorted({k[0] for k in v})
        g = gds_ok[0]
        acc_ok = any(k[1] == 1 for k in v)
        offs = 0x0201 if any(k[2] for k in v) else 0
        fields = 0
        for k in v:
            fields |= k[3]
        # every combination of the fields (zero or not) decodes the same way
        for m in range(16):
            if m & ~fields == 0:
                assert (g, 0, offs, m) in v, (mcpu, op, m)
        regs = {n: val for i, (n, _, val) in enumerate(DS_FIELDS) if fields >> i & 1}
        text = orc.run(mcpu, [ds_word(op, g, 0, offs, regs)])[0]
        _, ops, mods = split_text(text)
        byval = {val: n for n, _, val in DS_FIELDS}
        order = []
        for o in ops:
            r = parse_reg(o)
            assert r and r[0] == "v" and r[1] in byval and r[3] is None, (mcpu, op, text)
            order.append((byval[r[1]], r[2]))
        assert len(order) == bin(fields).count("1"), (mcpu, op, text)
        kinds, cls = {}, {}
        for acc in ((0, 1) if acc_ok else (0,)):
            t = orc.run(mcpu, [ds_word(op, g, acc, offs, {n: x + 1 for n, x in regs.items()})])[0]
            assert t is not None, (mcpu, op, acc)
            _, ops2, _ = split_text(t)
            for (name, n), o in zip(order, ops2):
                r = parse_reg(o)
                kinds.setdefault(name, {})[acc] = r[0]
                cls.setdefault(name, {})[acc] = r[3]
        toks = []
        dt = data_dtype(mnem)
        for name, n in order:
            toks.append(reg_token(name, n, kinds[name], cls[name],
                                  None if name == "addr" and kinds[name].get(1) != "a" else dt))
        # the offset syntax
        if mods.startswith("offset0:"):
            toks.append("offset01")
        elif "swizzle" in mods:
            toks.append("swizzle")
        elif offs:
            assert mods.startswith("offset:513"), (mcpu, op, text)
            toks.append("offset")
        if gds_ok == [1]:
            assert mods.endswith("gds"), (mcpu, op, text)
            toks.append("gds")
        elif gds_ok == [0]:
            toks.append("nogds")
        if acc_ok:
            toks.append("acc")
        out[op] = (mnem, toks)
    return out


# ---------------------------------------------------------------------------
# MUBUF: word0 offset[11:0] offen[12] idxen[13] sc0/glc[14] sc1[15] lds[16]
#        nt/slc[17] op[24:18] 0x38[31:26]; word1 vaddr[39:32] vdata[47:40]
#        srsrc[52:48] (x4) acc[55] soffset[63:56]   (BUFInstructions.td,
#        MUBUF_Real_Base_vi / MUBUF_Real_gfx90a / MUBUF_Real_gfx940)
# MTBUF: word0 offset[11:0] offen[12] idxen[13] sc0[14] op[18:15] dfmt[22:19]
#        nfmt[25:23] 0x3a[31:26]; word1 as MUBUF, with sc1[53] nt[54]
#        acc[55] (MTBUF_Real_Base_vi / MTBUF_Real_gfx90a)

def buf_word(mt, op, idx=0, sc0=0, lds=0, acc=0, vaddr=10, vdata=20, offset=0x10):
    if mt:
        w0 = 0xE8000000 | (op << 15) | (1 << 19) | (idx << 12) | (sc0 << 14) | offset
    else:
        w0 = 0xE0000000 | (op << 18) | (lds << 16) | (idx << 12) | (sc0 << 14) | offset
    w1 = vaddr | (vdata << 8) | (1 << 16) | (acc << 23) | (0x80 << 24)
    return [w0, w1]


def probe_buf(orc, mcpu, mt):
    nops = 16 if mt else 128
    keys, cands = [], []
    for op in range(nops):
        for lds in ((0,) if mt else (0, 1)):
            for acc in (0, 1):
                for idx in range(4):
                    for sc0 in (0, 1):
                        keys.append((op, lds, acc, idx, sc0))
                        cands.append(buf_word(mt, op, idx, sc0, lds, acc))
    valid = {}
    for k, t in zip(keys, orc.run(mcpu, cands)):
        if t is not None:
            valid.setdefault(k[0], {})[k[1:]] = t
    out = {}
    for op, v in sorted(valid.items()):
        mnems = {t.split(" ")[0] for t in v.values()}
        assert len(mnems) == 1, (mcpu, op, mnems)
        mnem = mnems.pop()
        t0 = v[(0, 0, 0, 0)]
        if not split_text(t0)[1]:
            # buffer_wbl2 / buffer_inv: no operands, only the cache bits; any
            # vaddr/vdata/srsrc/soffset/offset, but no idxen/offen/lds/acc
            assert set(v) == {(0, 0, 0, 0), (0, 0, 0, 1)}, (mcpu, op, sorted(v))
            out[op] = (mnem, ["noargs"])
            continue
        for key in v:
            assert key[2] in (0, 1, 2, 3)
        assert all((0, 0, idx, 0) in v for idx in range(4)), (mcpu, op)
        acc_ok = (0, 1, 0, 0) in v
        acc_rtn_ok = (0, 1, 0, 1) in v
        lds_ok = (1, 0, 0, 0) in v
        if lds_ok:
            assert (1, 1, 0, 0) not in v, (mcpu, op)       # lds excludes acc
            tl = v[(1, 0, 1, 0)]
            assert tl.startswith(mnem + " v10, s[4:7], 0 offen offset:16") and tl.endswith(" lds")
        t = v[(0, 0, 1, 0)]
        _, ops, _ = split_text(t)
        r = parse_reg(ops[0])
        assert r[0] == "v" and r[1] == 20 and ops[1] == "v10", (mcpu, op, t)
        n = r[2]
        atomic = "_atomic_" in mnem
        kinds, cls, rcls = {}, {}, {}
        vcls = None
        for rtn in ((0, 1) if atomic else (0,)):
            for acc in (0, 1):
                if acc and not (acc_rtn_ok if rtn else acc_ok):
                    continue
                t2 = orc.run(mcpu, [buf_word(mt, op, 3, rtn, 0, acc, 11, 21)])[0]
                _, ops2, _ = split_text(t2)
                rd, ra = parse_reg(ops2[0]), parse_reg(ops2[1])
                if rtn:
                    rcls[acc] = rd[3]
                else:
                    kinds[acc], cls[acc] = rd[0], rd[3]
                vcls = ra[3]
        toks = [reg_token("vdata", n, kinds, cls, data_dtype(mnem),
                          rcls_by_acc=rcls if atomic else None),
                "vaddr" + (":V=" + vcls if vcls else ""), "srsrc", "soffset"]
        if mt:
            toks.append("format")
        if atomic:
            toks.append("rtn")
        if lds_ok:
            toks.append("lds")
        if acc_ok:
            toks.append("acc")
            if not acc_rtn_ok:
                toks.append("noacc_rtn")
        out[op] = (mnem, toks)
    return out


# ---------------------------------------------------------------------------
# FLAT / GLOBAL / SCRATCH: word0 offset[12:0] lds|sve[13] seg[15:14] sc0[16]
#   nt[17] op[24:18] sc1[25] 0x37[31:26]; word1 vaddr[39:32] vdata[47:40]
#   saddr[54:48] acc[55] vdst[63:56]   (FLATInstructions.td, FLAT_Real and
#   FLAT_Real_gfx940).  seg: 0 flat, 1 scratch, 2 global.  Unused register
#   fields are "don't care" (unlike DS).

FLAT_REGS = (("vaddr", 0, 10), ("vdata", 8, 20), ("vdst", 24, 40))


def flat_word(seg, op, saddr=0x7f, b13=0, acc=0, sc0=0, offset=0x10, regs=None, sc1=0):
    w0 = (0xDC000000 | (op << 18) | (seg << 14) | (b13 << 13) | (sc0 << 16) | (sc1 << 25) |
          (offset & 0x1FFF))
    w1 = (saddr << 16) | (acc << 23)
    for name, sh, val in FLAT_REGS:
        w1 |= (regs or {}).get(name, val) << sh
    return [w0, w1]


def probe_flat(orc, mcpu, seg):
    keys, cands = [], []
    for op in range(128):
        for saddr in (0, 0x7f, 4):
            for b13 in (0, 1):
                for acc in (0, 1):
                    for sc0 in (0, 1):
                        keys.append((op, saddr, b13, acc, sc0))
                        cands.append(flat_word(seg, op, saddr, b13, acc, sc0))
    valid = {}
    for k, t in zip(keys, orc.run(mcpu, cands)):
        if t is not None:
            valid.setdefault(k[0], {})[k[1:]] = t
    out = {}
    for op, v in sorted(valid.items()):
        mnems = {t.split(" ")[0] for t in v.values()}
        assert len(mnems) == 1, (mcpu, op, mnems)
        mnem = mnems.pop()
        saddrs = sorted({k[0] for k in v})
        b13s = sorted({k[1] for k in v})
        if seg == 0:
            assert saddrs == [0] and b13s == [0], (mcpu, op, saddrs, b13s)
        elif seg == 2:
            assert saddrs == [0, 4, 0x7f] and b13s == [0], (mcpu, op, saddrs, b13s)
        else:
            assert saddrs == [0, 4, 0x7f] and b13s == [0, 1], (mcpu, op, saddrs, b13s)
        sa = 0 if seg == 0 else 4
        b13 = 1 if seg == 1 else 0
        atomic = "_atomic_" in mnem
        acc_ok = (sa, b13, 1, 0) in v
        acc_rtn_ok = (sa, b13, 1, 1) in v
        t = v[(sa, b13, 0, 1 if atomic else 0)]
        _, ops, _ = split_text(t)
        # GLOBAL with saddr off: a 64-bit vaddr, whose misalignment LLVM names
        vacls = None
        if seg != 1:
            tv = orc.run(mcpu, [flat_word(seg, op, 0x7f if seg == 2 else 0, 0, 0, 0, 0x10,
                                          {"vaddr": 11})])[0]
            vacls = parse_reg(split_text(tv)[1][0 if tv.split(" ")[1].startswith("v[11") else 1])[3]
        byval = {val: n for n, _, val in FLAT_REGS}
        toks = []
        # misaligned (odd) tuples: classes per (returns, acc)
        kinds, cls = {}, {}
        for rtn in ((0, 1) if atomic else (0,)):
            for acc in (0, 1):
                if acc and not (acc_rtn_ok if rtn else acc_ok):
                    continue
                t2 = orc.run(mcpu, [flat_word(seg, op, sa, b13, acc, rtn, 0x10,
                                              {"vaddr": 11, "vdata": 21, "vdst": 41})])[0]
                _, ops2, _ = split_text(t2)
                for o in ops2:
                    r = parse_reg(o)
                    if r and r[0] in "va" and r[1] - 1 in byval:
                        kinds.setdefault((byval[r[1] - 1], rtn), {})[acc] = r[0]
                        cls.setdefault((byval[r[1] - 1], rtn), {})[acc] = r[3]
        dt = data_dtype(mnem)
        for o in ops:
            r = parse_reg(o)
            if o == "off" or (r and r[0] == "s"):
                if seg == 1 and not toks or seg == 1 and toks[-1].startswith("vdst"):
                    toks.append("vaddr")    # scratch: 'off' in the vaddr place (sve=0)
                    continue
                # the class LLVM names for exec (126) as saddr, if it objects
                te = orc.run(mcpu, [flat_word(seg, op, 126, b13, 0, 1 if atomic else 0)])[0]
                m = re.search(r"operand has '([A-Za-z0-9_]+)' register class\*/, ?$|"
                              r"exec(?:_lo)?/\*Invalid register, operand has '([A-Za-z0-9_]+)'", te)
                toks.append("saddr" + (":V=" + m.group(2) if m and m.group(2) else ""))
                continue
            assert r and r[0] == "v" and r[1] in byval, (mcpu, seg, op, t)
            name = byval[r[1]]
            if name == "vaddr":
                toks.append("vaddr" + (":V=" + vacls if vacls else ""))
            elif name == "vdst":
                rr = 1 if atomic else 0
                toks.append(reg_token(name, r[2], kinds[(name, rr)], cls[(name, rr)], dt,
                                      opt=atomic))
            else:
                toks.append(reg_token(name, r[2], kinds[(name, 0)], cls[(name, 0)], dt,
                                      rcls_by_acc=cls[(name, 1)] if atomic else None))
        if atomic:
            toks.append("rtn")
            tn = v[(sa, b13, 0, 0)]
            assert not tn.startswith(mnem + " v40"), (mcpu, seg, op, tn)
        if acc_ok:
            toks.append("acc")
            if atomic and not acc_rtn_ok:
                toks.append("noacc_rtn")
            # the f64 atomics reject acc with both sc0 and sc1
            if atomic and acc_rtn_ok and orc.run(mcpu, [flat_word(seg, op, sa, b13, 1, 1,
                                                                  sc1=1)])[0] is None:
                toks.append("noacc_sc0sc1")
        out[op] = (mnem, toks)
    return out


# ---------------------------------------------------------------------------
# Row properties from the mnemonic.  Each rule restates the LLVM fact it
# stands for (llvm/lib/Target/AMDGPU/*.td).

DS_NOT_MEMORY = ("ds_swizzle_b32", "ds_permute_b32", "ds_bpermute_b32", "ds_nop")
DS_ATOMIC_OPS = ("add", "sub", "rsub", "inc", "dec", "min", "max", "and", "or", "xor", "mskor",
                 "cmpst", "cmpstore", "wrxchg", "wrxchg2", "wrxchg2st64", "wrap", "condxchg32",
                 "pk")


def ds_flags(mnem, toks):
    # DS_Pseudo: LGKM_CNT = 1, Uses = [M0, EXEC] unless has_m0_read = 0; the
    # GFX9 (_gfx9) variants of the loads, stores and atomics have
    # has_m0_read = 0; ds_swizzle/ds_permute/ds_bpermute use only EXEC; the
    # DS_0A_RET (ds_append, ds_consume, ds_read_addtid_b32), DS_0A1D_NORET
    # (ds_write_addtid_b32), DS_GWS_* and DS_VOID (ds_nop) keep M0.
    f = ["GCN_F_LGKMCNT", "GCN_F_RD_EXEC"]
    base = mnem[3:]
    if mnem.startswith("ds_gws_"):
        return f + ["GCN_F_RD_M0", "GCN_F_GDS"]
    if mnem in ("ds_append", "ds_consume", "ds_read_addtid_b32", "ds_write_addtid_b32",
                "ds_nop"):
        f.append("GCN_F_RD_M0")
    if mnem in DS_NOT_MEMORY:             # mayLoad = 0, mayStore = 0
        return f
    has_vdst = any(t.startswith("vdst") for t in toks)
    has_data = any(t.startswith("data0") for t in toks)
    atomic = base.split("_")[0] in DS_ATOMIC_OPS or mnem in ("ds_append", "ds_consume")
    if has_vdst:
        f.append("GCN_F_LOAD")
    if atomic or base.startswith("write"):
        f.append("GCN_F_STORE")
    if atomic:
        f.append("GCN_F_ATOMIC")
    assert has_vdst or has_data, mnem
    return f


def vmem_flags(fam, mnem, toks):
    # BUF_Pseudo / FLAT_Pseudo: VM_CNT = 1 and Uses EXEC for every MUBUF,
    # MTBUF, FLAT, GLOBAL and SCRATCH instruction; FLAT (segment 0) also has
    # LGKM_CNT = 1 (it may access LDS).  GFX9 counts stores in vmcnt too (no
    # separate vscnt; BUF_Pseudo's EXP_CNT only matters on SI, where stores
    # read their data late).  LDS DMA (MUBUF with lds = 1, *_load_lds_*) writes
    # LDS at M0 (Uses = [EXEC, M0]) and completes under vmcnt.
    f = ["GCN_F_VMCNT", "GCN_F_RD_EXEC"]
    if fam == "FLAT":
        f.append("GCN_F_LGKMCNT")
    if "noargs" in toks:                  # buffer_wbl2 / buffer_inv
        return f
    if "_load_lds_" in mnem or "lds" in toks or "lds@950" in toks or "lds@942" in toks:
        f += ["GCN_F_LDS_DMA", "GCN_F_RD_M0"]
    if "_atomic_" in mnem:
        f += ["GCN_F_LOAD", "GCN_F_STORE", "GCN_F_ATOMIC"]   # LOAD only with sc0 (rtn)
    elif "_load_" in mnem:
        f.append("GCN_F_LOAD")
    elif "_store_" in mnem:
        f.append("GCN_F_STORE")
    else:
        raise AssertionError(mnem)
    return f


UNIT = {"DS": "LDS", "MUBUF": "VMEM", "MTBUF": "VMEM", "FLAT": "FLAT", "GLOBAL": "FLAT",
        "SCRATCH": "FLAT"}


def merge(per_target):
    """per_target: {target: {opcode: (mnem, toks)}} -> rows
    [(mnem, {target: opcode}, toks)]; tokens present on one target only get
    an @942 / @950 suffix."""
    by_mnem = {}
    for t, ops in per_target.items():
        for op, (mnem, toks) in ops.items():
            e = by_mnem.setdefault(mnem, {"op": {}, "toks": {}})
            assert t not in e["op"], (mnem, t)
            e["op"][t] = op
            e["toks"][t] = toks
    rows = []
    for mnem, e in by_mnem.items():
        tl = [e["toks"][t] for t in TARGETS if t in e["toks"]]
        if len(tl) == 1:
            toks = tl[0]
        else:
            a, b = tl
            toks = [x for x in a if x in b]
            toks += [x + "@942" for x in a if x not in b] + [x + "@950" for x in b if x not in a]
            # operand tokens must agree (only attributes may differ)
            assert [x for x in a if ":" in x] == [x for x in b if ":" in x], (mnem, a, b)
        rows.append((mnem, e["op"], toks))
    rows.sort(key=lambda r: min(r[1].values()))
    return rows


HEADER = """\
/* mem.def -- GENERATED by tools/isagen/mem.py from LLVM 22 (llvm_oracle); do not edit.
 *
 * The vector memory rows of the ISA table: DS, MUBUF, MTBUF and the FLAT
 * encoding's three segments FLAT, GLOBAL, SCRATCH, for gfx942 and gfx950.
 * Columns: INSN(ID, FMT, OP942, OP950, MNEM, UNIT, FLAGS, PASSES, SIG).
 *
 * SIG: blank-separated tokens.  First the operands in LLVM's print order,
 * then attributes.  Register operand:  NAME[?]:N[:DT][:acc][:V=CLS][:A=CLS]
 *   NAME   encoding field: DS vdst addr data0 data1 (the GWS ops keep their
 *          data0 in the addr field, so their operand is "addr"); MUBUF/MTBUF
 *          vdata; FLAT vdst vdata.  '?' = printed (and written) only when the
 *          instruction returns (atomics with sc0 set).
 *   N      32-bit registers covered;  DT  element type of the data (u32 f64
 *          v2f16 b16 ..., "f32"/"f16" for format conversions, b4/b6/b8/b16 for
 *          the gfx950 transposing loads); an address operand has none.
 *   acc    the acc bit (bit 55; DS bit 25) makes this operand an AGPR.
 *   V=, A= the register class LLVM names in "/\\*Invalid register, operand has
 *          'CLS' register class*\\/" when a VGPR (V) or AGPR (A) tuple of this
 *          operand starts at an odd register (gfx90a+ tuples are 2-aligned).
 * Implicit operands (their shape depends on the instance, not the row):
 *   vaddr[:V=CLS]  MUBUF/MTBUF: none with offen = idxen = 0 ("off"), 1 VGPR,
 *          2 with both; FLAT: 2 VGPRs; GLOBAL: 2 VGPRs when saddr is off, else
 *          1; SCRATCH: 1 VGPR when sve = 1, else "off".
 *   srsrc soffset  MUBUF/MTBUF buffer resource (4 SGPRs) and offset source.
 *   saddr  GLOBAL: SGPR pair or off (0x7f); SCRATCH: one SGPR or off.
 * Attributes:
 *   offset      DS 16-bit offset, printed offset:N
 *   offset01    DS two 8-bit offsets, printed offset0:N offset1:N
 *   swizzle     DS offset printed as a swizzle pattern (ds_swizzle_b32)
 *   gds         the gds bit must be 1 and prints " gds" (GWS);  nogds: must be 0;
 *               otherwise the bit may be either and is not printed (gfx90a+)
 *   acc         the acc bit is allowed;  noacc_rtn: not together with sc0 (rtn)
 *   rtn         atomic: sc0 = 1 returns the memory's old value (MUBUF/MTBUF:
 *               into vdata's first half for cmpswap, all of it otherwise)
 *   lds         MUBUF lds bit allowed (LDS DMA: no vdata, no acc)
 *   format      MTBUF dfmt/nfmt
 *   noacc_sc0sc1  acc not together with both sc0 and sc1 (FLAT/GLOBAL f64 atomics)
 *   noargs      no operands (buffer_wbl2, buffer_inv): idxen = offen = lds = acc = 0
 *   X@942 / X@950  attribute X holds on that target only.
 *
 * gfx90a and later have no MUBUF/MTBUF addr64 (bit 15 is sc1) and no tfe (bit
 * 55 is acc); LLVM 22 decodes but does not print a DS gds bit on gfx942/gfx950
 * except for the GWS ops, which require it.
 *
 * FLAGS: DS count in lgkmcnt; MUBUF/MTBUF/GLOBAL/SCRATCH in vmcnt (stores too:
 * gfx9 has no vscnt); FLAT in both.  LOAD = writes VGPRs from memory (atomics:
 * only with sc0), STORE = writes memory, LDS_DMA = the load may write LDS at
 * M0 instead of VGPRs (MUBUF: when its lds bit is set).  gcn_insn_flags()
 * narrows these to an instance.
 */
"""


def emit(rows_by_fam, out):
    lines = [HEADER]
    ids = set()
    for fam in ("DS", "MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH"):
        lines.append("/* ---- %s ---- */\n" % fam)
        for mnem, ops, toks in rows_by_fam[fam]:
            ident = mnem.upper()
            assert ident not in ids, ident
            ids.add(ident)
            flags = ds_flags(mnem, toks) if fam == "DS" else vmem_flags(fam, mnem, toks)
            o942 = "0x%02X" % ops["gfx942"] if "gfx942" in ops else "NONE"
            o950 = "0x%02X" % ops["gfx950"] if "gfx950" in ops else "NONE"
            lines.append('INSN(%s, %s, %s, %s, "%s", %s, %s, 0, "%s")\n' % (
                ident, fam, o942, o950, mnem, UNIT[fam], "|".join(flags), " ".join(toks)))
    text = "".join(lines)
    if out == "-":
        sys.stdout.write(text)
    else:
        with open(out, "w") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", default="tests/decode/llvm_oracle")
    ap.add_argument("--out", default="src/decode/isa/mem.def")
    a = ap.parse_args()
    orc = Oracle(a.oracle)
    fams = {"DS": {}, "MUBUF": {}, "MTBUF": {}, "FLAT": {}, "GLOBAL": {}, "SCRATCH": {}}
    for t in TARGETS:
        fams["DS"][t] = probe_ds(orc, t)
        fams["MUBUF"][t] = probe_buf(orc, t, 0)
        fams["MTBUF"][t] = probe_buf(orc, t, 1)
        fams["FLAT"][t] = probe_flat(orc, t, 0)
        fams["SCRATCH"][t] = probe_flat(orc, t, 1)
        fams["GLOBAL"][t] = probe_flat(orc, t, 2)
    emit({f: merge(v) for f, v in fams.items()}, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
