#!/usr/bin/env python3
"""test_lds_pend.py -- gcnsim's per-block LDS summaries: the LDS reads against pending LDS
writers through the per-block counts of the pending ranges (src/sim/sim_body.h,
sim_wg.lr_bcnt; fifo.c lr_remove), and the race checks through the clean-block summaries.

A read tests the counts of its blocks before it scans the pending ranges (sim_lds_overlap,
sim_lds_overlap_nl): a range counted in the wrong block, not counted, or taken out too early
would hide a finding from the coalesced read path or the per-lane one.  Cases: an LDS-DMA at
a block's start and one across two blocks (counted by sim_lds_lr_count_blocks), read whole,
in its second block only, shifted across the boundary, and one block away (no finding);
the read after the DMA landed (no finding); many DMAs, of which the first is read after
the later ones landed and left; an LDS write left pending at s_barrier whose box spans one
block and one that spans more than SIM_LR_SMALL blocks (lr_nbig: every test scans), read by
the other wave after the barrier; several workgroups one after the other.  Each kernel runs
at two --quantum settings; a finding must name the right kind, consumer and producer.

Then the block summaries of the clean paths: a coalesced ds_read_b32 of a block whose
summaries show this wave's reader tags and no other wave's writer (lds_bfr, lds_bw) adds no
tags, and an LDS-DMA (or coalesced ds_write_b32) of a whole block whose 64 writer tags are
this wave's of this epoch already (lds_bfw, with lds_bw) writes none.  Each case makes such a
summary stale (a block shared by two waves, a write after the summary was made, an epoch
change at s_barrier, an entry left by an earlier workgroup, another wave's read between two
DMAs), and the race after it must still be found (with the occurrences of every workgroup).
usage: test_lds_pend.py GCNSIM WORKDIR
"""
import os
import re
import subprocess
import sys

import lds_frame

GCNSIM, WORK = sys.argv[1], sys.argv[2]

HEAD = lds_frame.head([
    'v_lshlrev_b32 v3, 5, v1                   // 32 * lane',
    'v_mov_b32 v7, 1',
])
TAIL = lds_frame.tail(["v_add_u32 v12, v12, v9"])

nlab = [0]


def only(wave, lines):
    nlab[0] += 1
    lab = ".L%d" % nlab[0]
    return ["s_cmp_eq_u32 s20, %d" % wave, "s_cbranch_scc0 %s" % lab] + lines + [lab + ":"]


def spin(n):
    nlab[0] += 1
    lab = ".Lz%d" % nlab[0]
    return ["s_mov_b32 s25, %d" % n, lab + ":", "s_sub_u32 s25, s25, 1", "s_cmp_lg_u32 s25, 0",
            "s_cbranch_scc1 %s" % lab]


def dma(m0):
    return ["s_mov_b32 m0, %d" % m0, "s_nop 0", "buffer_load_dword v2, s[8:11], 0 offen lds"]


def read(off, reg="v2"):
    return ["ds_read_b32 v9, %s offset:%d" % (reg, off)]


fails = 0
runs = 0


def run(name, lines, expect, block="128", grid=None, occ=None):
    """expect: None (no finding) or (finding kind, consumer text, producer text); occ: the
    occurrences the finding must count"""
    global fails, runs
    failed = fails
    src = os.path.join(WORK, name + ".s")
    with open(src, "w") as f:
        f.write(HEAD + "".join("    %s\n" % l if not l.endswith(":") else l + "\n"
                               for l in lines) + TAIL)
    for q in ("1", "3"):
        runs += 1
        cmd = [GCNSIM, "-j", "1", "--mcpu", "gfx942", "--block", block, "--quantum", q, src,
               "--buffer", "src:4096:random=u32,1", "--buffer", "dst:1024",
               "--arg", "buffer:src", "--arg", "buffer:dst", "--arg", "u32:0",
               "--no-group", "--max-findings", "100"]
        if grid:
            cmd += ["--grid", grid]
        p = subprocess.run(cmd, capture_output=True, text=True)
        out = p.stdout + p.stderr
        why = None
        if expect is None:
            if p.returncode != 0 or "0 findings" not in out:
                why = "want no finding"
        else:
            kind, cons, prod = expect
            m = re.search(r"%s at [^\n]*: %s\n(\s+[^\n]*\n)*?\s+producer: [^\n]*: %s\n"
                          r"(?:\s+fix: [^\n]*\n)?\s+first seen: [^\n]*; (\d+) occurrences?\n" %
                          (re.escape(kind), re.escape(cons), re.escape(prod)), out)
            if p.returncode != 4 or not m:
                why = "want %s at '%s', producer '%s'" % (kind, cons, prod)
            elif occ is not None and int(m.group(2)) != occ:
                why = "want %d occurrences, not %s" % (occ, m.group(2))
        if why:
            fails += 1
            print("FAIL %s (--quantum %s): %s; exit %d" % (name, q, why, p.returncode))
            print("".join("    " + l + "\n" for l in out.splitlines()[:16]))
    if fails == failed:
        print("ok   %s" % name)


PEND = "lds-dma-read-before-retire"
BAR = "barrier-with-pending-lds-write"
DMA = "buffer_load_dword v2, s[8:11], 0 offen lds"
B = 0x400
ONE = "64"                      # one wave
# an LDS-DMA at a block's start: its block pending, not the next one, not after it landed
run("dma_read", dma(B) + read(B), (PEND, read(B)[0], DMA), ONE)
run("dma_read_shifted", dma(B) + read(B + 4), (PEND, read(B + 4)[0], DMA), ONE)
run("dma_read_before", dma(B) + read(B - 4), (PEND, read(B - 4)[0], DMA), ONE)
run("dma_read_next", dma(B) + read(B + 256), None, ONE)
run("dma_read_prev", dma(B) + read(B - 256), None, ONE)
run("dma_landed_read", dma(B) + ["s_waitcnt vmcnt(0)"] + read(B), None, ONE)
# an LDS-DMA across two blocks (M0 in the middle of one): counted in both
run("dma_mid_read_second", dma(B + 128) + read(B + 256), (PEND, read(B + 256)[0], DMA), ONE)
run("dma_mid_read_first", dma(B + 128) + read(B), (PEND, read(B)[0], DMA), ONE)
run("dma_mid_read_after", dma(B + 128) + read(B + 512), None, ONE)
run("dma_mid_landed", dma(B + 128) + ["s_waitcnt vmcnt(0)"] + read(B + 256), None, ONE)
# many DMAs: the first one's block read after the first landed (the others still pending
# and moved in the table), and while it is pending; the last one's likewise
many = sum((dma(0x800 + 256 * i) for i in range(12)), [])
LAST = 0x800 + 256 * 11
run("many_first_landed", dma(B) + many + ["s_waitcnt vmcnt(12)"] + read(B), None, ONE)
run("many_first_pending", dma(B) + many + ["s_waitcnt vmcnt(13)"] + read(B),
    (PEND, read(B)[0], DMA), ONE)
run("many_last_pending", dma(B) + many + ["s_waitcnt vmcnt(1)"] + read(LAST),
    (PEND, read(LAST)[0], DMA), ONE)
run("many_last_landed", dma(B) + many + ["s_waitcnt vmcnt(0)"] + read(LAST), None, ONE)
# two waves: wave 1's DMA pending into the next block does not make wave 0's read of its
# own (landed) block a finding
run("two_waves_own", only(1, dma(B + 256)) + only(0, dma(B) + ["s_waitcnt vmcnt(0)"] + read(B)),
    None)
# LDS writes left pending at s_barrier, read by the other wave after it: a box of one block
# and one of 8 blocks (32 bytes a lane: more than SIM_LR_SMALL blocks)
W1 = "ds_write_b32 v2, v7 offset:%d" % B
W8 = "ds_write_b32 v3, v7 offset:%d" % B
bar = ["s_barrier"]
keep = only(0, spin(200))       # wave 0 keeps its write pending while wave 1 reads
run("bar_write_read", only(0, [W1]) + bar + keep + only(1, read(B + 64)),
    (BAR, read(B + 64)[0], W1))
run("bar_write_read_outside", only(0, [W1]) + bar + keep + only(1, read(B + 256)), None)
run("bar_bigbox_read", only(0, [W8]) + bar + keep + only(1, read(B + 32 * 40)),
    (BAR, read(B + 32 * 40)[0], W8))
run("bar_bigbox_read_gap", only(0, [W8]) + bar + keep +
    only(1, ["ds_read_b32 v9, v3 offset:%d" % (B + 4)]), None)
# the same kernels over several workgroups, one after the other
run("dma_read_wgs", dma(B) + read(B), (PEND, read(B)[0], DMA), ONE, grid="8")
run("bar_bigbox_read_wgs", only(0, [W8]) + bar + keep + only(1, read(B + 32 * 40)),
    (BAR, read(B + 32 * 40)[0], W8), grid="8")

# The block summaries of the clean paths (sim_wg.lds_bw, lds_bfr, lds_bfw): a coalesced read
# of a block whose summaries show this wave's reader tags and no other wave's writer, and an
# LDS-DMA of a whole block whose 64 writer tags are this wave's already (lds_bfw), skip their
# tag work.  Each case makes the summary stale in one way; the race after it must be found.
RACE = "lds-cross-wave-race"
V5 = "v_mov_b32 v5, 0"                  # every lane the same address: one dword
one_w = lambda off: "ds_write_b32 v5, v7 offset:%d" % off
one_r = lambda off: "ds_read_b32 v9, v5 offset:%d" % off
use = ["s_waitcnt lgkmcnt(0)", "v_add_u32 v12, v12, v9"]
RB = "ds_read_b32 v9, v2 offset:%d" % B
WB = "ds_write_b32 v2, v7 offset:%d" % B
# a block shared by two waves: wave 0's whole-block DMA, wave 1's one-dword write there, wave
# 0's DMA of the block again (its tags must be written again), wave 1 reads its dword
run("bfw_shared_block", [V5] + only(0, dma(B) + spin(200) + dma(B)) +
    only(1, spin(100) + [one_w(B + 8)] + spin(250) + [one_r(B + 8)] + use),
    (RACE, one_r(B + 8), DMA))
# the same with wave 1's whole-block DMA in place of the write (the summary names wave 1)
run("bfw_other_whole", [V5] + only(0, dma(B) + spin(200) + dma(B)) +
    only(1, spin(100) + dma(B) + ["s_waitcnt vmcnt(0)"] + spin(250) + [one_r(B + 8)] + use),
    (RACE, one_r(B + 8), DMA))
# an epoch change at s_barrier between wave 0's two DMAs of the block
run("bfw_epoch", [V5] + only(0, dma(B)) + ["s_waitcnt vmcnt(0)", "s_barrier"] +
    only(0, dma(B)) + only(1, spin(100) + [one_r(B + 8)] + use), (RACE, one_r(B + 8), DMA))
# a summary left by an earlier workgroup: each workgroup's wave 0 writes one dword of the
# block, then DMAs the whole block; wave 1 reads another dword of it (once per workgroup)
run("bfw_next_workgroup", [V5] + only(0, [one_w(B + 8), "s_waitcnt lgkmcnt(0)"] + dma(B)) +
    only(1, spin(100) + [one_r(B + 12)] + use), (RACE, one_r(B + 12), DMA), grid="3", occ=3)
# another wave's read between a wave's two DMAs of the block (a write after that read)
run("bfw_war", only(1, dma(B) + ["s_waitcnt vmcnt(0)"] + spin(200) + dma(B)) +
    only(0, spin(100) + [RB, "s_waitcnt lgkmcnt(0)"] + spin(300) + ["v_add_u32 v12, v12, v9"]),
    (RACE, DMA, RB))
# the same with the DMA alone: the entry of the earlier workgroup is this wave's tag of this
# epoch, but this workgroup has not written the block yet (lds_bw shows no wave)
run("bfw_next_workgroup_dma", [V5] + only(0, dma(B)) + only(1, spin(100) + [one_r(B + 12)] + use),
    (RACE, one_r(B + 12), DMA), grid="3", occ=3)
# a read's clean summary gone stale: wave 0 reads the block, wave 1 writes it, wave 0 reads
# it again (the second read must see wave 1's write)
run("clean_read_then_write", only(0, [RB] + use + spin(200) + [RB] + use) +
    only(1, spin(100) + [WB]), (RACE, RB, WB))
# and in the next epoch: wave 0's read covers the block in epoch 0, then in epoch 1 wave 1
# writes it and wave 0 reads it
run("clean_read_epoch", only(0, [RB] + use) + ["s_barrier"] +
    only(0, spin(200) + [RB] + use) + only(1, [WB]), (RACE, RB, WB))
# a read's reader tags of an earlier epoch: wave 0 reads the block in epoch 0 and again in
# epoch 1, then wave 1 writes it in epoch 1 (a write after wave 0's second read)
WAR = ["s_waitcnt lgkmcnt(0)"] + spin(400) + ["v_add_u32 v12, v12, v9"]
run("clean_read_epoch_war", only(0, [RB] + use) + ["s_barrier"] + only(0, [RB] + WAR) +
    only(1, spin(100) + [WB]), (RACE, WB, RB))
print("%d runs, %d failed" % (runs, fails))
sys.exit(1 if fails else 0)
