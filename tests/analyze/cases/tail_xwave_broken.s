// tail_xwave_broken.s -- tail_xwave.s with the tail's two tiles swapped: a
// wave overwrites the tile that other waves may still be reading, on every
// run.
//
// tail_xwave.s -- a loop unrolled twice, with a barrier after each half, and
// a tail that overwrites the tile its exit no longer reads: the cross-wave
// race check follows the path facts (paths.c, xwave.c).  Wave 0 fills two
// shared tiles, S1 = LDS [0, 256) and S2 = [256, 512); every wave then reads
// S1 in the first half and S2 in the second, n reads in all.  The first half
// leaves the loop when n is odd: the last reads of S2 were before the barrier
// after the second half, so the tail may overwrite S2 while slower waves
// still read S1; the second half leaves when n is even and the tail
// overwrites S1.  Each wave writes its own 64 bytes of the tile, [64w, +64),
// and reads them back after a barrier.  Each exit fixes n modulo 2, so it
// fixes the tail variant; gcnlint --all-paths pairs each read with the
// variant that overwrites it, a pairing no run takes.  tail_xwave_broken.s
// swaps the tiles: then a wave overwrites the tile that other waves may still
// be reading, on every run.  Arguments: src (2 tiles of 256 bytes), dst (4
// bytes per work-item), n >= 0.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0        // src s[4:5], dst s[6:7]
    s_load_dword s8, s[0:1], 0x10             // n, the reads
    v_readfirstlane_b32 s11, v0
    s_lshr_b32 s11, s11, 6                    // wave
    v_and_b32 v1, 63, v0                      // lane
    s_lshl_b32 s12, s11, 6                    // 64 * wave
    v_add_u32 v3, s12, v1                     // the lane's byte of the wave's 64
    v_lshlrev_b32 v1, 2, v1                   // 4 * lane
    v_mov_b32 v10, 0                          // the sum
    s_waitcnt lgkmcnt(0)
    s_cmp_eq_u32 s11, 0
    s_cbranch_scc0 .Lfilled
    v_mov_b32 v5, 0                           // wave 0 fills S1 and S2
    v_mov_b32 v4, v1
    v_lshl_add_u64 v[4:5], s[4:5], 0, v[4:5]
    global_load_dword v6, v[4:5], off
    global_load_dword v7, v[4:5], off offset:256
    s_waitcnt vmcnt(0)
    ds_write_b32 v1, v6                       // S1
    ds_write_b32 v1, v7 offset:256            // S2
.Lfilled:
    s_waitcnt lgkmcnt(0)
    s_barrier
    s_cmp_eq_u32 s8, 0
    s_cbranch_scc1 .Lout                      // no reads
    s_mov_b32 s9, 0                           // reads made
.Lloop:
    ds_read_b32 v6, v1                        // expect: lds-cross-wave-race (S1; a wave that left may write it)
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v6
    s_add_u32 s9, s9, 1
    s_cmp_lt_u32 s9, s8
    s_cbranch_scc0 .Ltail                     // n odd: other waves may still read S1
    s_barrier
    ds_read_b32 v6, v1 offset:256             // expect: lds-cross-wave-race (S2; a wave that left may write it)
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v6
    s_add_u32 s9, s9, 1
    s_cmp_lt_u32 s9, s8
    s_cbranch_scc0 .Ltail                     // n even: other waves may still read S2
    s_barrier
    s_branch .Lloop
.Ltail:
    s_and_b32 s10, 1, s8
    s_cmp_eq_u32 s10, 1
    s_cbranch_scc1 .Lodd
    ds_write_b8 v3, v10 offset:256            // n even: S2, which slower waves may still read
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_u8 v7, v3 offset:256
    s_branch .Llast
.Lodd:
    ds_write_b8 v3, v10                       // n odd: S1, which slower waves may still read
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_u8 v7, v3
.Llast:
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v7                    // the sum's low byte counts twice
.Lout:
    v_mov_b32 v9, 0
    v_lshlrev_b32 v8, 2, v0                   // 4 * work-item
    v_lshl_add_u64 v[8:9], s[6:7], 0, v[8:9]
    global_store_dword v[8:9], v10, off
    s_waitcnt vmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail_args.inc"
