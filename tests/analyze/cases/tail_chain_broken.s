// tail_chain_broken.s -- tail_chain.s with the full chunks ended at n & ~127
// while a loop trip and a tail part still take 64 elements: the chain is
// entered at c = n & ~127, so when n mod 128 > 64 role B runs part X and
// falls through into part Y, and wave 3 overwrites the row that wave 2 reads
// in X with no barrier between (gcnsim reports the race for n = 100, 200).
//
// tail_chain.s -- waves with roles and a masked tail chain that falls through
// from part to part but runs at most one part (the shape of AITER's gfx950
// fmha_v4_fwd masked tails, class F4 of docs/gcnlint-corpus.md): the waves
// that reach each block follow the static path facts (paths.c, values.c).
// Each lane sums src[j] over j < n with j = lane (mod 64), one 64-element
// chunk per loop trip.  s9 = n & ~63 ends the full chunks: waves 0-1
// (role A) and waves 2-3 (role B) run them in loops of their own and enter
// the tail chain X -> Y where the loop test fails, at c = s9 <= n < s9 + 64:
// role B at part X, role A at part Y.  Each part, when c < n, adds the
// masked last chunk and then c += 64, so after X c >= s9 + 64 > n, and Y's
// test fails on every path that falls through from X: role B never runs Y.
// Part X also adds the partner wave's row (LDS [256 * (w ^ 1), +256), filled
// before the barrier); part Y publishes the wave's sum in its own row, which
// the partner reads after the last barrier.  Were role B to run Y, wave 3
// would overwrite the row that wave 2 reads in X with no barrier between:
// gcnlint, whose wave set of Y included role B through the fall-through
// edge, reported that race; the high-bit mask bound (n - s9 in [0, 63]) and
// the edge facts prove it no run's.  tail_chain_broken.s masks with ~127
// instead: then the chain can run two parts and the race is real.
// Arguments: src (n elements of 4 bytes, padded to whole chunks + 64),
// dst (4 bytes per work-item), n >= 0.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0        // src s[4:5], dst s[6:7]
    s_load_dword s8, s[0:1], 0x10             // n
    v_readfirstlane_b32 s11, v0
    s_lshr_b32 s11, s11, 6                    // wave
    v_and_b32 v1, 63, v0                      // lane
    s_lshl_b32 s12, s11, 8                    // 256 * wave: the wave's row
    v_lshlrev_b32 v2, 2, v1                   // 4 * lane
    v_add_u32 v3, s12, v2                     // the lane's word of its row
    s_xor_b32 s13, s11, 1
    s_lshl_b32 s13, s13, 8                    // 256 * (wave ^ 1): the partner's row
    v_add_u32 v11, s13, v2                    // the lane's word of the partner's row
    v_mov_b32 v10, 0                          // the sum
    ds_write_b32 v3, v0                       // row[w][lane] = work-item id
    s_waitcnt lgkmcnt(0)
    s_barrier
    s_and_b32 s9, s8, 0xffffff80              // n & ~127: the chain may run two parts
    s_mov_b32 s10, 0                          // c, the chunk's first element
    s_cmp_lt_u32 s11, 2
    s_cbranch_scc0 .Lrole_b
    s_cmp_lt_i32 s10, s9                      // role A: waves 0-1
    s_cbranch_scc0 .Lpart_y
.Lloop_a:
    v_add_u32 v4, s10, v1
    v_lshlrev_b32 v4, 2, v4
    v_mov_b32 v5, 0
    v_lshl_add_u64 v[4:5], s[4:5], 0, v[4:5]
    global_load_dword v6, v[4:5], off
    s_waitcnt vmcnt(0)
    v_add_u32 v10, v10, v6
    s_addk_i32 s10, 0x40
    s_cmp_lt_i32 s10, s9
    s_cbranch_scc1 .Lloop_a
    s_branch .Lpart_y                         // role A enters the chain at Y
.Lrole_b:
    s_cmp_lt_i32 s10, s9                      // role B: waves 2-3
.Lloop_b:
    s_cbranch_scc0 .Lpart_x                   // the test's compare is in the block before
    v_add_u32 v4, s10, v1
    v_lshlrev_b32 v4, 2, v4
    v_mov_b32 v5, 0
    v_lshl_add_u64 v[4:5], s[4:5], 0, v[4:5]
    global_load_dword v6, v[4:5], off
    s_waitcnt vmcnt(0)
    v_add_u32 v10, v10, v6
    s_addk_i32 s10, 0x40
    s_cmp_lt_i32 s10, s9
    s_branch .Lloop_b                         // role B leaves into the chain at X
.Lpart_x:
    s_cmp_lt_i32 s10, s8
    s_cbranch_scc0 .Lexit
    v_add_u32 v4, s10, v1                     // the masked last chunk
    v_cmp_gt_i32 vcc, s8, v4
    v_lshlrev_b32 v4, 2, v4
    v_mov_b32 v5, 0
    v_lshl_add_u64 v[4:5], s[4:5], 0, v[4:5]
    global_load_dword v6, v[4:5], off
    ds_read_b32 v7, v11                       // expect: lds-cross-wave-race (wave 3 may write it in Y)
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_cndmask_b32 v6, 0, v6, vcc
    v_add_u32 v10, v10, v6
    v_add_u32 v10, v10, v7
    s_addk_i32 s10, 0x40                      // falls through to Y
.Lpart_y:
    s_cmp_lt_i32 s10, s8
    s_cbranch_scc0 .Lexit
    v_add_u32 v4, s10, v1                     // the masked last chunk
    v_cmp_gt_i32 vcc, s8, v4
    v_lshlrev_b32 v4, 2, v4
    v_mov_b32 v5, 0
    v_lshl_add_u64 v[4:5], s[4:5], 0, v[4:5]
    global_load_dword v6, v[4:5], off
    s_waitcnt vmcnt(0)
    v_cndmask_b32 v6, 0, v6, vcc
    v_add_u32 v10, v10, v6
    ds_write_b32 v3, v10                      // publish the sum in the wave's row
    s_addk_i32 s10, 0x40
.Lexit:
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b32 v7, v11                       // the partner's row
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v7
    v_mov_b32 v9, 0
    v_lshlrev_b32 v8, 2, v0                   // 4 * work-item
    v_lshl_add_u64 v[8:9], s[6:7], 0, v[8:9]
    global_store_dword v[8:9], v10, off
    s_waitcnt vmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail_args.inc"
