#!/usr/bin/env python3
"""sweep.py -- differential sweep of gcndis against llvm-mc-22, family by family.

For every encoding family and every opcode value it generates random operand
field variants (a fixed seed, so runs repeat), lays each candidate in its own
16-byte slot (candidate dwords, one literal dword, s_nop padding), and
disassembles the same byte stream with llvm-mc-22 (in a child process, in
chunks; a chunk that crashes LLVM is bisected and the crashing slots are left
out and counted) and with `gcndis --raw --llvm-text --with-offsets`.

A candidate is "valid" when LLVM decodes an instruction at the slot start.
It matches when gcndis prints the same text with the same size there.  Words
LLVM calls invalid must be invalid for gcndis too.

usage: sweep.py --gcndis PATH --mcpu gfx942 [--per-op N] [--family F ...]
                [--min-valid N] [--min-rate R] [--report FILE] [--show N]
Exit 0 when the thresholds hold, 1 otherwise.
"""
import argparse
import collections
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

SNOP = 0xBF800000
SLOT = 16

# family: (number of dwords, base word, opcode shift, opcode values, extra fixed fn)
def fam_table():
    t = {}
    t["SOP2"] = (1, 0x80000000, 23, range(0, 0x60))
    t["SOPK"] = (1, 0xB0000000, 23, range(0, 32))
    t["SOP1"] = (1, 0xBE800000, 8, range(0, 256))
    t["SOPC"] = (1, 0xBF000000, 16, range(0, 128))
    t["SOPP"] = (1, 0xBF800000, 16, range(0, 128))
    t["SMEM"] = (2, 0xC0000000, 18, range(0, 256))
    t["VOP2"] = (1, 0x00000000, 25, range(0, 0x3E))
    t["VOP1"] = (1, 0x7E000000, 9, range(0, 256))
    t["VOPC"] = (1, 0x7C000000, 17, range(0, 256))
    t["VOP3"] = (2, 0xD0000000, 16, range(0, 0x380))
    t["VOP3P"] = (2, 0xD3800000, 16, range(0, 128))
    t["DS"] = (2, 0xD8000000, 17, range(0, 256))
    t["FLAT"] = (2, 0xDC000000, 18, range(0, 128))
    t["GLOBAL"] = (2, 0xDC008000, 18, range(0, 128))
    t["SCRATCH"] = (2, 0xDC004000, 18, range(0, 128))
    t["MUBUF"] = (2, 0xE0000000, 18, range(0, 128))
    t["MTBUF"] = (2, 0xE8000000, 15, range(0, 16))
    return t

# Bits of the first dword that are fixed by the family (encoding + opcode).
FIXED_MASK = {
    "SOP2": 0xFF800000, "SOPK": 0xFF800000, "SOP1": 0xFF80FF00, "SOPC": 0xFFFF0000,
    "SOPP": 0xFFFF0000, "SMEM": 0xFFFC0000, "VOP2": 0xFE000000, "VOP1": 0xFE01FE00,
    "VOPC": 0xFFFE0000, "VOP3": 0xFFFF0000, "VOP3P": 0xFFFF0000, "DS": 0xFFFE0000,
    "FLAT": 0xFFFCC000, "GLOBAL": 0xFFFCC000, "SCRATCH": 0xFFFCC000, "MUBUF": 0xFFFC0000,
    "MTBUF": 0xFC078000,
}

# Interesting 9-bit source values, mixed in so special operands get coverage.
SPECIAL_SRC = [0, 1, 101, 102, 103, 104, 105, 106, 107, 108, 123, 124, 125, 126, 127, 128, 129,
               192, 193, 208, 209, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245,
               246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256, 257, 511]


def rand_word(rng):
    return rng.getrandbits(32)


# VOP3P extras draw from their own generator, so adding them left the
# candidate streams of the other families unchanged.
VOP3P_RNG = random.Random(0x3B3)


def vop3p_extra(words, op):
    """VOP3P bias (deterministic): sparser modifier/MAI fields half of the
    time (two-source, dot4/8, SMFMAC, accvgpr and f8f6f4 rows require some of
    them to be zero); for op 0x2c (gfx950 v_mfma_ld_scale_b32) mostly a
    second 64-bit half that is an f8f6f4 MFMA with abid = 1, the 128-bit
    VOP3PX2 scaled MFMA (a 16-byte candidate, no literal)."""
    r = VOP3P_RNG.random()
    if r < 0.3:
        words[0] &= ~0x0000FF00
        words[1] &= 0x07FFFFFF
    elif r < 0.5:
        words[0] &= ~(VOP3P_RNG.getrandbits(8) << 8)
        words[1] &= ~(VOP3P_RNG.getrandbits(5) << 27)
    if op == 0x2C and VOP3P_RNG.random() < 0.75:
        op2 = VOP3P_RNG.choice((0x2D, 0x2E))
        w2 = (VOP3P_RNG.getrandbits(16) & ~0x7800) | 0xD3800000 | (op2 << 16) | (1 << 11)
        if VOP3P_RNG.random() < 0.1:
            w2 ^= 1 << VOP3P_RNG.randrange(11, 15)
        w3 = VOP3P_RNG.getrandbits(32)
        if VOP3P_RNG.random() < 0.5:
            w3 &= 0x1FFFFFFF
        words += [w2, w3]


MEM_FAMS = ("DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF")


# Memory-family extras also draw from their own generator.
MEM_RNG = random.Random(0x3E3)


def mem_bias(fam, words):
    """Vector memory candidates (owner: the mem helper).  Bit 25 of the
    first dword is fixed by FIXED_MASK but is a field here (DS acc, FLAT sc1;
    ignored by MUBUF), so it is randomized; fields LLVM requires to be zero
    (DS unused registers, the FLAT segment's saddr and bit 13) or to hold a
    marker (saddr off = 0x7f) are often set so; register bytes sometimes sit
    at the top of the register file (tuples running past v255/a255), and
    soffset sometimes takes a special source value."""
    w0, w1 = words
    w0 = (w0 & ~(1 << 25)) | (MEM_RNG.getrandbits(1) << 25)
    if fam == "DS":
        for sh in (0, 8, 16, 24):
            if MEM_RNG.random() < 0.5:
                w1 &= ~(0xFF << sh)
        if MEM_RNG.random() < 0.3:
            w0 &= ~0xFFFF
    elif fam == "FLAT":
        if MEM_RNG.random() < 0.85:
            w1 &= ~(0x7F << 16)
            w0 &= ~(1 << 13)
    elif fam in ("GLOBAL", "SCRATCH"):
        r = MEM_RNG.random()
        if r < 0.4:
            w1 |= 0x7F << 16
        elif r < 0.6:
            w1 = (w1 & ~(0x7F << 16)) | (MEM_RNG.choice((102, 103, 104, 105, 106, 107, 124, 125,
                                                      126, 0, 1, 108, 109, 123)) << 16)
        if fam == "GLOBAL" and MEM_RNG.random() < 0.8:
            w0 &= ~(1 << 13)
    elif fam in ("MUBUF", "MTBUF"):
        if MEM_RNG.random() < 0.3:
            w1 = (w1 & 0x00FFFFFF) | (MEM_RNG.choice([x for x in SPECIAL_SRC if x < 256]) << 24)
    if MEM_RNG.random() < 0.15:
        sh = MEM_RNG.choice((0, 8, 24) if fam != "DS" else (0, 8, 16, 24))
        w1 = (w1 & ~(0xFF << sh)) | (MEM_RNG.randrange(245, 256) << sh)
    return [w0 & 0xFFFFFFFF, w1 & 0xFFFFFFFF]


def gen_candidate(rng, fam, op):
    nw, base, shift, _ = FAMS[fam]
    mask = FIXED_MASK[fam]
    w0 = (rand_word(rng) & ~mask & 0xFFFFFFFF) | base | (op << shift)
    words = [w0 & 0xFFFFFFFF]
    if nw == 2:
        words.append(rand_word(rng))
    # Mix in special source operand values in the usual source field places.
    r = rng.random()
    if r < 0.35:
        s = rng.choice(SPECIAL_SRC)
        if fam in ("VOP2", "VOP1", "VOPC"):
            words[0] = (words[0] & ~0x1FF) | s
        elif fam in ("VOP3", "VOP3P"):
            which = rng.randrange(3)
            words[1] = (words[1] & ~(0x1FF << (9 * which))) | (s << (9 * which))
        elif fam in ("SOP2", "SOPC"):
            sh = rng.choice((0, 8))
            words[0] = (words[0] & ~(0xFF << sh)) | ((s & 0xFF) << sh)
        elif fam == "SOP1":
            words[0] = (words[0] & ~0xFF) | (s & 0xFF)
    elif r < 0.5 and fam in ("VOP3", "VOP3P", "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF",
                             "MTBUF", "SMEM"):
        # sparser modifiers: clear random high bits of the second dword
        words[1] &= rng.choice((0x0003FFFF, 0x00FFFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 0x01FF01FF))
    if fam in MEM_FAMS and MEM_RNG.random() < 0.6:
        words = mem_bias(fam, words)
    lit = rand_word(rng) & 0x7FFFFFFF
    if rng.random() < 0.3:
        lit = rng.choice((0x3F800000, 0x40000000, 0x3E22F983, 0x00000040, 0x0000FFFF,
                          0x3C00, 0x7FFFFFFF, 0x00000001, 0x3FF00000))
    if fam in ("VOP1", "VOP2", "VOPC", "VOP3"):
        words, lit = bias_vop(fam, words, lit)
    if fam == "VOP3P":
        vop3p_extra(words, op)
    if fam in SALU_FAMS:
        words, lit = salu_bias(fam, words, lit)
    return words, lit


SALU_FAMS = ("SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM")

# Scalar-family extras draw from their own generator too (owner: the salu
# helper), so the other families' candidates stay as they were.
SALU_RNG = random.Random(0x5A1)


def salu_bias(fam, words, lit):
    """Scalar candidates: SOPP simm16 = 0 (the operand-less s_barrier,
    s_wakeup, s_icache_inv, ... decode only so) or small; destinations and
    SMEM data/base registers at the top of the SGPR file and in the
    special/ttmp range (tuple alignment and range ends); both SOP2/SOPC
    sources taking the one literal; SMEM soffset specials; negative
    literals (the random ones are all positive)."""
    r = SALU_RNG.random
    w0 = words[0]
    if fam == "SOPP":
        x = r()
        if x < 0.25:
            w0 &= ~0xFFFF
        elif x < 0.4:
            w0 = (w0 & ~0xFFFF) | SALU_RNG.randrange(0, 80)
    elif fam in ("SOP2", "SOP1", "SOPK") and r() < 0.3:
        w0 = (w0 & ~(0x7F << 16)) | (SALU_RNG.randrange(88, 128) << 16)
    if fam in ("SOP2", "SOPC") and r() < 0.1:
        w0 |= 0xFFFF
    if fam == "SMEM":
        if r() < 0.3:
            w0 = (w0 & ~(0x7F << 6)) | (SALU_RNG.randrange(84, 128) << 6)
        if r() < 0.2:
            w0 = (w0 & ~0x3F) | SALU_RNG.randrange(44, 64)
        if r() < 0.2:
            words[1] = (words[1] & 0x01FFFFFF) | (SALU_RNG.randrange(100, 128) << 25)
    words[0] = w0 & 0xFFFFFFFF
    if r() < 0.1:
        lit = SALU_RNG.choice((0xFFFFFFF0, 0xFFFFFFEF, 0x80000000, 0xBF800000, 0xC0800000,
                               0xFFFFFFFF, 0x3E22F983, 0x00000041))
    return words, lit


# VOP families: a second generator (so the other families' candidates do not
# change) biases candidates toward SDWA / DPP second dwords with mostly valid
# selectors and DPP controls, and toward VOP3 words with sparse modifiers.
RNG_VOP = random.Random(12345)
DPP_CTRLS = ([0x101 + i for i in range(15)] + [0x111 + i for i in range(15)] +
             [0x121 + i for i in range(15)] + [0x130, 0x134, 0x138, 0x13C, 0x140, 0x141,
                                                0x142, 0x143] + [0x150 + i for i in range(16)])


def bias_vop(fam, words, lit):
    r = RNG_VOP.random()
    if fam == "VOP3":
        if r < 0.5:
            words[0] &= ~0xFF00 & 0xFFFFFFFF          # abs / op_sel / clamp
            words[1] &= 0x07FFFFFF                    # omod / neg
            for _ in range(RNG_VOP.randrange(3)):
                b = RNG_VOP.choice((8, 9, 10, 11, 12, 13, 14, 15, 59, 60, 61, 62, 63))
                words[b // 32] |= 1 << (b % 32)
            for k in range(3):                        # few literals and specials
                if ((words[1] >> (9 * k)) & 0x1FF) in (249, 250, 255) and RNG_VOP.random() < 0.8:
                    words[1] = (words[1] & ~(0x1FF << (9 * k))) | (
                        (0x100 | RNG_VOP.getrandbits(8)) << (9 * k))
        return words, lit
    if r < 0.18:                                      # SDWA
        words[0] = (words[0] & ~0x1FF) | 0xF9
        sel = lambda: RNG_VOP.randrange(7)
        w = RNG_VOP.getrandbits(8)
        if fam == "VOPC":
            w |= RNG_VOP.getrandbits(8) << 8          # sdst, sd
        else:
            w |= sel() << 8 | RNG_VOP.randrange(3) << 11
        w |= sel() << 16
        if fam != "VOP1":
            w |= sel() << 24
        for _ in range(RNG_VOP.randrange(4)):
            b = RNG_VOP.choice((13, 14, 15, 19, 20, 21, 22, 23, 27, 28, 29, 30, 31))
            if fam == "VOPC" and b in (13, 14, 15):
                continue
            w |= 1 << b
        lit = w
    elif r < 0.36:                                    # DPP
        words[0] = (words[0] & ~0x1FF) | 0xFA
        if RNG_VOP.random() < 0.5:
            ctrl = RNG_VOP.randrange(256)
        elif RNG_VOP.random() < 0.9:
            ctrl = RNG_VOP.choice(DPP_CTRLS)
        else:
            ctrl = RNG_VOP.randrange(512)
        w = RNG_VOP.getrandbits(8) | ctrl << 8 | RNG_VOP.getrandbits(4) << 24 | \
            RNG_VOP.getrandbits(4) << 28
        for _ in range(RNG_VOP.randrange(3)):
            w |= 1 << RNG_VOP.choice((17, 18, 19, 20, 21, 22, 23))
        lit = w
    return words, lit


def build_slots(rng, fams, per_op):
    slots = []  # (family, opcode, [dwords...16 bytes])
    for fam in fams:
        _, _, _, ops = FAMS[fam]
        for op in ops:
            for _ in range(per_op):
                words, lit = gen_candidate(rng, fam, op)
                d = (words + [lit])[:SLOT // 4]      # a 16-byte candidate has no literal
                while len(d) < SLOT // 4:
                    d.append(SNOP)
                slots.append((fam, op, d))
    return slots


ENC_RE = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]\s*$")
WARN_RE = re.compile(r"^<stdin>:(\d+):(\d+): (warning|error): (.*)$")


def run_llvm(llvm_mc, mcpu, slots):
    """Disassemble slots (one per input line).  Returns list of
    (offset, size, text-or-None) or None when LLVM crashed."""
    lines = []
    for _, _, d in slots:
        b = struct.pack("<%dI" % len(d), *d)
        lines.append(" ".join("0x%02x" % x for x in b))
    inp = "\n".join(lines) + "\n"
    p = subprocess.run([llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + mcpu,
                        "--disassemble", "--show-encoding"],
                       input=inp, capture_output=True, text=True)
    if p.returncode != 0 and p.returncode < 0 or "Stack dump" in p.stderr:
        return None
    valid = []
    for ln in p.stdout.splitlines():
        m = ENC_RE.match(ln)
        if not m:
            continue
        nbytes = len([x for x in m.group(2).split(",") if x.strip()])
        valid.append((m.group(1), nbytes))
    invalid = []
    for ln in p.stderr.splitlines():
        m = WARN_RE.match(ln)
        if m and "invalid instruction encoding" in m.group(4):
            line, col = int(m.group(1)), int(m.group(2))
            invalid.append((line - 1) * SLOT + (col - 1) // 5)
    total = len(slots) * SLOT
    out = []
    pos, vi, ii = 0, 0, 0
    inv = set(invalid)
    while pos < total:
        if pos in inv:
            out.append((pos, 4, None))
            pos += 4
            continue
        if vi >= len(valid):
            return None  # inconsistent (output cut short)
        text, n = valid[vi]
        vi += 1
        out.append((pos, n, text))
        pos += n
    return out


def llvm_disasm(llvm_mc, mcpu, slots, stats, base=0):
    """Disassemble with bisection on crashes.  Returns dict offset->(size,text)
    keyed by absolute offset (slot index * SLOT); crashing slots are omitted."""
    res = run_llvm(llvm_mc, mcpu, slots)
    if res is not None:
        return {base + o: (n, t) for o, n, t in res}
    if len(slots) == 1:
        stats["llvm_crash"] += 1
        return {}
    h = len(slots) // 2
    a = llvm_disasm(llvm_mc, mcpu, slots[:h], stats, base)
    b = llvm_disasm(llvm_mc, mcpu, slots[h:], stats, base + h * SLOT)
    a.update(b)
    return a


def oracle_disasm(oracle, mcpu, slots, stats):
    """Run the crash-proof in-process LLVM oracle (tests/decode/llvm_oracle)."""
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        for _, _, d in slots:
            f.write(struct.pack("<%dI" % len(d), *d))
        path = f.name
    try:
        p = subprocess.run([oracle, mcpu, path, str(SLOT)], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if p.returncode != 0:
        sys.stderr.write("llvm_oracle failed (exit %d): %s\n" % (p.returncode, p.stderr[:2000]))
        sys.exit(2)
    out = {}
    for ln in p.stdout.splitlines():
        off, n, text = ln.split("\t", 2)
        if text == "<crash>":
            stats["llvm_crash"] += 1
            continue
        out[int(off)] = (int(n), None if text == "<invalid>" else text)
    return out


def ours_disasm(gcndis, mcpu, slots):
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        for _, _, d in slots:
            f.write(struct.pack("<%dI" % len(d), *d))
        path = f.name
    try:
        p = subprocess.run([gcndis, "--raw", "--mcpu=" + mcpu, "--llvm-text", "--with-offsets",
                            path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if p.returncode != 0:
        sys.stderr.write("gcndis failed (exit %d): %s\n" % (p.returncode, p.stderr[:2000]))
        sys.exit(2)
    out = {}
    for ln in p.stdout.splitlines():
        off, n, text = ln.split("\t", 2)
        out[int(off)] = (int(n), text)
    return out


def resync_ours(gcndis, mcpu, slots, ours):
    """gcndis decodes the slots as one stream, LLVM slot by slot: when an
    instruction late in one slot reaches into the next (a 16-byte candidate
    has no padding), ours has no entry at the next slot's start.  Decode
    those slots again on their own, each followed by 16 bytes of s_nop so
    nothing reaches the following one, and take the slot-start result."""
    miss = [i for i in range(len(slots)) if i * SLOT not in ours]
    if not miss:
        return
    iso = [(f, op, d + [SNOP] * 4) for f, op, d in (slots[i] for i in miss)]
    res = ours_disasm(gcndis, mcpu, iso)
    step = SLOT + 16
    for k, i in enumerate(miss):
        if k * step in res:
            ours[i * SLOT] = res[k * step]


def main():
    global FAMS
    FAMS = fam_table()
    ap = argparse.ArgumentParser()
    ap.add_argument("--gcndis", required=True)
    ap.add_argument("--llvm-mc", default=os.environ.get("LLVM_MC", "llvm-mc-22"))
    ap.add_argument("--oracle", help="tests/decode/llvm_oracle binary (fast, in-process LLVM)")
    ap.add_argument("--mcpu", required=True)
    ap.add_argument("--per-op", type=int, default=200)
    ap.add_argument("--family", action="append")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=2048)
    ap.add_argument("--min-valid", type=int, default=0)
    ap.add_argument("--min-rate", type=float, default=0.0)
    ap.add_argument("--report")
    ap.add_argument("--show", type=int, default=20, help="mismatches to print per family")
    a = ap.parse_args()
    fams = a.family or list(FAMS)
    rng = random.Random(a.seed * 1000003 + (0 if a.mcpu == "gfx942" else 7))
    slots = build_slots(rng, fams, a.per_op)
    stats = collections.Counter()
    llvm = {}
    if a.oracle:
        llvm = oracle_disasm(a.oracle, a.mcpu, slots, stats)
    else:
        for i in range(0, len(slots), a.chunk):
            part = llvm_disasm(a.llvm_mc, a.mcpu, slots[i:i + a.chunk], stats, i * SLOT)
            llvm.update(part)
    ours = ours_disasm(a.gcndis, a.mcpu, slots)
    resync_ours(a.gcndis, a.mcpu, slots, ours)
    per = collections.defaultdict(collections.Counter)
    shown = collections.Counter()
    mism_lines = []
    for si, (fam, op, d) in enumerate(slots):
        off = si * SLOT
        c = per[fam]
        c["candidates"] += 1
        if off not in llvm:
            c["llvm_crash"] += 1
            continue
        ln, lt = llvm[off]
        on, ot = ours.get(off, (None, None))
        if lt is None:
            c["llvm_invalid"] += 1
            if on is not None and not ot.startswith(".long"):
                c["invalid_mismatch"] += 1
                line = "%s op=0x%x words=%s: llvm invalid, ours '%s'" % (
                    fam, op, " ".join("%08x" % x for x in d), ot)
                mism_lines.append(line)
                if shown[fam] < a.show:
                    shown[fam] += 1
                    print("  " + line)
            continue
        c["valid"] += 1
        if ot == lt and on == ln:
            c["match"] += 1
        else:
            c["mismatch"] += 1
            line = "%s op=0x%x words=%s:\n    llvm: %s (%d)\n    ours: %s (%s)" % (
                fam, op, " ".join("%08x" % x for x in d), lt, ln, ot, on)
            mism_lines.append(line)
            if shown[fam] < a.show:
                shown[fam] += 1
                print("  " + line)
    tot = collections.Counter()
    print("%-8s %10s %8s %8s %8s %8s %8s %7s" % ("family", "candidates", "valid", "match",
                                                  "mismatch", "inv", "inv-bad", "crash"))
    for fam in fams:
        c = per[fam]
        tot.update(c)
        print("%-8s %10d %8d %8d %8d %8d %8d %7d" % (fam, c["candidates"], c["valid"], c["match"],
                                                      c["mismatch"], c["llvm_invalid"],
                                                      c["invalid_mismatch"], c["llvm_crash"]))
    rate = tot["match"] / tot["valid"] if tot["valid"] else 0.0
    print("TOTAL %s: %d valid encodings, %d identical (%.4f%%), %d invalid agreed of %d, "
          "%d llvm crashes" % (a.mcpu, tot["valid"], tot["match"], 100 * rate,
                               tot["llvm_invalid"] - tot["invalid_mismatch"],
                               tot["llvm_invalid"], tot["llvm_crash"]))
    if a.report:
        with open(a.report, "w") as f:
            f.write("\n".join(mism_lines) + "\n")
    ok = tot["valid"] >= a.min_valid and rate >= a.min_rate and tot["invalid_mismatch"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
