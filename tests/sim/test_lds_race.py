#!/usr/bin/env python3
"""test_lds_race.py -- gcnsim's cross-wave LDS race check through every pair of paths.

gcnsim keeps, besides the per-dword writer and reader tags, per-block summaries of them
(src/sim/sim_body.h, sim_wg.lds_bw / lds_br / lds_bfr) that let the coalesced LDS-DMA, the
coalesced ds_write and the coalesced ds_read of a block skip their tag scans; a tag written
without its summary mark would hide a race from those paths only.  So every writer form is
paired with every reader form, in both orders (a read of bytes another wave wrote, a write
of bytes another wave read), two waves, no barrier between: each must be reported, at the
second access, with a byte both accesses touch and the first access as the producer.
Scenarios: the deferred reader tags overflowing their list (17 blocks read) before the
block is read again; a read in a later barrier epoch of a block read before; the same after
65,536 barriers (the 16-bit epoch of the reader tags wraps); 20 LDS-DMAs before another
wave reads the first one's bytes; and, as controls, the same pairs with an s_barrier
between (no race).  Dead reads by the register file: a raced read into rows 64 and up or an
AGPR counts when its value is used, not when it is overwritten first (racyreg.c); the same for
a raced read into a row below 64 that still holds an earlier read's value.
usage: test_lds_race.py GCNSIM WORKDIR
"""
import os
import re
import subprocess
import sys

import lds_frame

GCNSIM, WORK = sys.argv[1], sys.argv[2]
B = 0x400                       # the region every access meets (LDS block 4)

# name: (instruction lines, byte set as a function of nothing: a set of LDS byte addresses,
#        producer text the report names)
def lanes(step, size, off, nl=64):
    return {B + off + step * l + k for l in range(nl) for k in range(size)}

WRITERS = {
    # the coalesced LDS-DMA of all lanes (the block path)
    "dma": (["s_mov_b32 m0, %d" % B, "s_nop 0", "buffer_load_dword v2, s[8:11], 0 offen lds"],
            lanes(4, 4, 0), "buffer_load_dword v2, s[8:11], 0 offen lds"),
    # the same, half the lanes (the per-lane path)
    "dma_half": (["s_mov_b32 exec_hi, 0", "s_mov_b32 m0, %d" % B, "s_nop 0",
                  "buffer_load_dword v2, s[8:11], 0 offen lds", "s_mov_b32 exec_hi, -1"],
                 lanes(4, 4, 0, 32), "buffer_load_dword v2, s[8:11], 0 offen lds"),
    "write_b32": (["ds_write_b32 v2, v7 offset:%d" % B], lanes(4, 4, 0),
                  "ds_write_b32 v2, v7 offset:%d" % B),
    "write_b32_strided": (["ds_write_b32 v3, v7 offset:%d" % B], lanes(8, 4, 0),
                          "ds_write_b32 v3, v7 offset:%d" % B),
    "write_b32_unaligned": (["ds_write_b32 v4, v7 offset:%d" % B], lanes(4, 4, 2),
                            "ds_write_b32 v4, v7 offset:%d" % B),
    "write_b64": (["ds_write_b64 v3, v[10:11] offset:%d" % B], lanes(8, 8, 0),
                  "ds_write_b64 v3, v[10:11] offset:%d" % B),
    "write_b8": (["ds_write_b8 v2, v7 offset:%d" % B], lanes(4, 1, 0),
                 "ds_write_b8 v2, v7 offset:%d" % B),
    "write2_b32": (["ds_write2_b32 v5, v7, v10 offset1:1"], lanes(8, 8, 0),
                   "ds_write2_b32 v5, v7, v10 offset1:1"),
}
READERS = {
    # the coalesced read of a whole block (the block path), and of 64 dwords across two blocks
    "read_b32": (["ds_read_b32 v9, v2 offset:%d" % B], lanes(4, 4, 0),
                 "ds_read_b32 v9, v2 offset:%d" % B),
    "read_b32_shifted": (["ds_read_b32 v9, v2 offset:%d" % (B + 4)], lanes(4, 4, 4),
                         "ds_read_b32 v9, v2 offset:%d" % (B + 4)),
    "read_b32_strided": (["ds_read_b32 v9, v3 offset:%d" % B], lanes(8, 4, 0),
                         "ds_read_b32 v9, v3 offset:%d" % B),
    "read_b64": (["ds_read_b64 v[14:15], v3 offset:%d" % B], lanes(8, 8, 0),
                 "ds_read_b64 v[14:15], v3 offset:%d" % B),
    "read_u8": (["ds_read_u8 v9, v2 offset:%d" % B], lanes(4, 1, 0),
                "ds_read_u8 v9, v2 offset:%d" % B),
    "read2_b32": (["ds_read2_b32 v[14:15], v5 offset1:1"], lanes(8, 8, 0),
                  "ds_read2_b32 v[14:15], v5 offset1:1"),
}

# gcnsim counts a race on a read only when the reading wave uses the value (racyreg.c, dead
# reads): every read is followed by a use of what it read
for _k, (_ins, _bytes, _prod) in list(READERS.items()):
    _dst = re.match(r"ds_read\S* (v\d+|v\[(\d+):(\d+)\])", _ins[0])
    _regs = ([_dst.group(1)] if not _dst.group(2) else
             ["v%d" % r for r in range(int(_dst.group(2)), int(_dst.group(3)) + 1)])
    READERS[_k] = (_ins + ["s_waitcnt lgkmcnt(0)"] +
                   ["v_add_u32 v12, v12, %s" % r for r in _regs], _bytes, _prod)

HEAD = lds_frame.head([
    'v_lshlrev_b32 v3, 3, v1                   // 8 * lane',
    'v_add_u32 v4, 2, v2                       // 4 * lane + 2',
    'v_add_u32 v5, 0x400, v3                   // 8 * lane + the region (B)',
    'v_mov_b32 v7, 1',
    'v_mov_b32 v10, 3',
    'v_mov_b32 v11, 5',
])
TAIL = lds_frame.tail()

nlab = [0]


def section(steps):
    """steps: ("both", lines) | ("w0", lines) | ("w1", lines) | ("spin1", n): wave 1 spins n
    iterations (so that wave 0 runs ahead) | ("bars", n): n barriers of both waves."""
    out = []
    for kind, arg in steps:
        nlab[0] += 1
        lab = ".L%d" % nlab[0]
        if kind == "both":
            out += arg
        elif kind in ("w0", "w1"):
            out += ["s_cmp_eq_u32 s20, %s" % kind[1], "s_cbranch_scc0 %s" % lab] + arg + [lab + ":"]
        elif kind == "spin1":
            out += ["s_mul_i32 s23, s20, %d" % arg, "s_add_u32 s23, s23, 1", lab + ":",
                    "s_sub_u32 s23, s23, 1", "s_cmp_lg_u32 s23, 0", "s_cbranch_scc1 %s" % lab]
        elif kind == "bars":
            out += ["s_waitcnt vmcnt(0) lgkmcnt(0)", "s_mov_b32 s24, %d" % arg, lab + ":",
                    "s_barrier", "s_sub_u32 s24, s24, 1", "s_cmp_lg_u32 s24, 0",
                    "s_cbranch_scc1 %s" % lab]
    return "".join("    %s\n" % l if not l.endswith(":") else l + "\n" for l in out)


fails = 0
runs = 0


def run(name, steps, expect, tail=TAIL):
    """expect: None (no finding) or (consumer text, 'wrote'|'read', byte set of the first
    access, byte set of the second, producer text); tail: the kernel's descriptor."""
    global fails, runs
    failed = fails
    src = os.path.join(WORK, name + ".s")
    with open(src, "w") as f:
        f.write(HEAD + section(steps) + tail)
    for q in ("1", "3"):
        runs += 1
        p = subprocess.run([GCNSIM, "--mcpu", "gfx942", "--block", "128", "--quantum", q, src,
                            "--buffer", "src:4096:random=u32,1", "--buffer", "dst:1024",
                            "--arg", "buffer:src", "--arg", "buffer:dst", "--arg", "u32:0",
                            "--no-group", "--max-findings", "100"],
                           capture_output=True, text=True)
        out = p.stdout + p.stderr
        why = None
        if expect is None:
            if p.returncode != 0 or "0 findings" not in out:
                why = "want no finding"
        else:
            cons, verb, first, second, prod = expect
            m = re.search(r"lds-cross-wave-race at [^\n]*: %s\n\s+(\w+) LDS byte 0x([0-9a-f]+) "
                          r"that wave 0 (\w+)[^\n]*\n\s+producer: [^\n]*: %s\n" %
                          (re.escape(cons), re.escape(prod)), out)
            if p.returncode != 4 or not m:
                why = "want lds-cross-wave-race at '%s', wave 0 %s, producer '%s'" % (
                    cons, verb, prod)
            else:
                a = int(m.group(2), 16)
                dw = set(range(a, a + 4))
                if m.group(3) != verb or m.group(1) != ("reads" if verb == "wrote" else "writes"):
                    why = "wrong direction: %s ... %s" % (m.group(1), m.group(3))
                elif not (dw & first and dw & second):
                    why = "byte 0x%x is not one both accesses touch" % a
        if why:
            fails += 1
            print("FAIL %s (--quantum %s): %s; exit %d" % (name, q, why, p.returncode))
            print("".join("    " + l + "\n" for l in out.splitlines()[:16]))
    if fails == failed:
        print("ok   %s" % name)


SPIN = 40
# a read of bytes another wave wrote, and a write of bytes another wave read
for wn, (wl, wb, wt) in WRITERS.items():
    for rn, (rl, rb, rt) in READERS.items():
        if not (wb & rb):
            continue
        run("raw_%s_%s" % (wn, rn), [("w0", wl), ("spin1", SPIN), ("w1", rl)],
            (rt, "wrote", wb, rb, wt))
        run("war_%s_%s" % (rn, wn), [("w0", rl), ("spin1", SPIN), ("w1", wl)],
            (wt, "read", rb, wb, rt))
# controls: an s_barrier between (both waves wait for their accesses first): no race
run("bar_dma_read", [("w0", WRITERS["dma"][0]), ("bars", 1), ("w1", READERS["read_b32"][0])],
    None)
run("bar_read_dma", [("w0", READERS["read_b32"][0]), ("bars", 1), ("w1", WRITERS["dma"][0])],
    None)
# the deferred reader tags overflow (17 more blocks read) before the block is read again
rd, dma = READERS["read_b32"], WRITERS["dma"]
others = ["ds_read_b32 v9, v2 offset:%d" % (0x800 + 256 * i) for i in range(20)]
run("war_overflow", [("w0", rd[0] + others + rd[0]), ("spin1", 100), ("w1", dma[0])],
    (dma[2], "read", rd[1], dma[1], rd[2]))
run("war_overflow_only", [("w0", rd[0] + others), ("spin1", 100), ("w1", dma[0])],
    (dma[2], "read", rd[1], dma[1], rd[2]))
# a read of the block in a later barrier epoch, after one in an earlier epoch
run("war_next_epoch", [("w0", rd[0]), ("bars", 1), ("w0", rd[0]), ("spin1", SPIN),
                       ("w1", dma[0])], (dma[2], "read", rd[1], dma[1], rd[2]))
# the same 65,536 barriers later: the reader tags' 16-bit epoch is the first one's again
run("war_epoch_wrap", [("w0", rd[0]), ("bars", 65536), ("w0", rd[0]), ("spin1", SPIN),
                       ("w1", dma[0])], (dma[2], "read", rd[1], dma[1], rd[2]))
run("raw_epoch_wrap", [("w0", dma[0]), ("bars", 65536), ("w0", dma[0]), ("spin1", SPIN),
                       ("w1", rd[0])], (rd[2], "wrote", dma[1], rd[1], dma[2]))
run("none_epoch_wrap", [("w0", rd[0]), ("bars", 65536), ("w1", dma[0])], None)
# 20 LDS-DMAs of wave 0 (one into the block, 19 elsewhere), then wave 1 reads the block
dmas = dma[0] + sum((["s_mov_b32 m0, %d" % (0x800 + 256 * i), "s_nop 0",
                      "buffer_load_dword v2, s[8:11], 0 offen lds"] for i in range(19)), [])
run("raw_many_dmas", [("w0", dmas), ("spin1", 100), ("w1", rd[0])],
    (rd[2], "wrote", dma[1], rd[1], dma[2]))
# dead reads by the register file (racyreg.c): a raced read whose value lands in rows 64 and
# up (v[64:65], v70) or in an AGPR (a0) counts when the value is used and not when it is
# overwritten first, the raced read by another wave's write before it (raw) and after it
# (war: the race waits on the read's record until the use) -- racyreg.c's quick paths cover
# rows below 64 only, these take its loops by reference
BIG = (TAIL.replace("next_free_vgpr 16", "next_free_vgpr 96")
       .replace("accum_offset 16", "accum_offset 72").replace("vgpr_count: 16", "vgpr_count: 96"))
HIGH = {
    # name: (read, its bytes, a use, an overwrite of all it wrote)
    "v70": ("ds_read_b32 v70, v2 offset:%d" % B, lanes(4, 4, 0), ["v_add_u32 v12, v12, v70"],
            ["v_mov_b32 v70, 0"]),
    "v64_65": ("ds_read_b64 v[64:65], v3 offset:%d" % B, lanes(8, 8, 0),
               ["v_add_u32 v12, v12, v65"], ["v_mov_b32 v64, 0", "v_mov_b32 v65, 0"]),
    "a0": ("ds_read_b32 a0, v2 offset:%d" % B, lanes(4, 4, 0), ["v_accvgpr_read_b32 v12, a0"],
           ["v_accvgpr_write_b32 a0, 0"]),
}
def spin0(n):
    nlab[0] += 1
    return ["s_mov_b32 s25, %d" % n, ".Lz%d:" % nlab[0], "s_sub_u32 s25, s25, 1",
            "s_cmp_lg_u32 s25, 0", "s_cbranch_scc1 .Lz%d" % nlab[0]]
for hn, (hr, hb, use, kill) in HIGH.items():
    w = ["s_waitcnt lgkmcnt(0)"]
    run("raw_dma_%s_used" % hn, [("w0", dma[0]), ("spin1", SPIN), ("w1", [hr] + w + use)],
        (hr, "wrote", dma[1], hb, dma[2]), BIG)
    run("raw_dma_%s_dead" % hn, [("w0", dma[0]), ("spin1", SPIN), ("w1", [hr] + w + kill + use)],
        None, BIG)
    run("war_%s_dma_used" % hn, [("w0", [hr] + w), ("spin1", SPIN), ("w1", dma[0]),
                                 ("w0", spin0(400) + use)], (dma[2], "read", hb, dma[1], hr), BIG)
    run("war_%s_dma_dead" % hn, [("w0", [hr] + w), ("spin1", SPIN), ("w1", dma[0]),
                                 ("w0", spin0(400) + kill + use)], None, BIG)
# a raced read into a row below 64 that an earlier read of the wave still holds (followed,
# its value not used yet): the one-row landing (fifo.c, sim_rz_land1) leaves it to
# racyreg.c's loops; the earlier read landed by its own wait ("refollow") or by the same
# wait as the raced one ("twice": one wait retires both, in age order)
PRE = "ds_read_b32 v9, v2 offset:%d" % 0x800
LOW = {
    # name: (the lines before the raced read, the raced read, its bytes, a use, an overwrite)
    "v9_refollow": ([PRE, "s_waitcnt lgkmcnt(0)"], "ds_read_b32 v9, v2 offset:%d" % B,
                    lanes(4, 4, 0), ["v_add_u32 v12, v12, v9"], ["v_mov_b32 v9, 0"]),
    "v9_twice": ([PRE], "ds_read_b32 v9, v2 offset:%d" % B, lanes(4, 4, 0),
                 ["v_add_u32 v12, v12, v9"], ["v_mov_b32 v9, 0"]),
}
for hn, (pre, hr, hb, use, kill) in LOW.items():
    w = ["s_waitcnt lgkmcnt(0)"]
    run("raw_dma_%s_used" % hn, [("w0", dma[0]), ("spin1", SPIN), ("w1", pre + [hr] + w + use)],
        (hr, "wrote", dma[1], hb, dma[2]))
    run("raw_dma_%s_dead" % hn, [("w0", dma[0]), ("spin1", SPIN),
                                 ("w1", pre + [hr] + w + kill + use)], None)
    run("war_%s_dma_used" % hn, [("w0", pre + [hr] + w), ("spin1", SPIN), ("w1", dma[0]),
                                 ("w0", spin0(400) + use)], (dma[2], "read", hb, dma[1], hr))
    run("war_%s_dma_dead" % hn, [("w0", pre + [hr] + w), ("spin1", SPIN), ("w1", dma[0]),
                                 ("w0", spin0(400) + kill + use)], None)
print("%d runs, %d failed" % (runs, fails))
sys.exit(1 if fails else 0)
