// ceil_thirds_broken.s -- ceil_thirds.s with a second item when 2w < B (not
// 2w + 1 < B): work-group w with B = 2w + 1 runs its item twice, and for
// n <= 128 (B = 1, c <= 2) the second run's write meets the first run's reads
// of slower waves with no barrier between: a real race, which gcnlint
// reports and gcnsim sees.  The rest as in ceil_thirds.s:
//
// ceil_thirds.s -- ceil_items.s with an item of 192 = 3 * 64 elements, not a
// power of two (relate.c): B = ceil(n / 192) items through LLVM's 32-bit
// unsigned division sequence (a divisor 0xc0), c = min(3, ceil(n / 64) - 3 *
// item) parts of 64 (a shift), a factor of three between the two divisions.
// The form of AITER's gfx950 fmha_v3_bwd hd192 `pssk` kernels (sample X6 of
// docs/gcnlint-corpus.md), written anew.
//
// Work-group w runs item w and, only when 2w + 1 < B, item B - 1 - w (a
// second item).  Per item each wave writes its 64 elements of the item into
// its slot of the tile (LDS [256 * wave, +256); wave 3's and those past n are
// 0), a barrier, each wave adds the slot of wave ^ 1; when c = 3, a barrier,
// each wave adds the slot of wave ^ 2, a barrier.  When c <= 2 the item ends
// with no barrier after its read, and the next item's write would race with
// slower waves' reads -- but c <= 2 only for the last item of all, never a
// work-group's first when it has a second: n > 192 * (2w + 1) gives
// ceil(n / 64) >= 6w + 4, so ceil(n / 64) - 3w >= 3w + 4 >= 4.  Ruling it
// out takes w >= 0 (from c >= 0 and c <= 3w + 2) before w is eliminated,
// which Fourier-Motzkin over the integers finds only in the Omega test's
// exact order.  ceil_thirds_broken.s runs a second item when 2w < B: for
// n <= 128 work-group 0 runs item 0 (c <= 2) twice, and the race is real.
// Arguments: src ((192 B + 64) u32), dst (4 bytes per work-item of the
// grid), n >= 1.  Grid: ceil(B / 2) work-groups of 256.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0        // src s[4:5], dst s[6:7]
    s_load_dword s8, s[0:1], 0x10             // n
    s_waitcnt lgkmcnt(0)
    // B = (n + 191) / 192, LLVM's division sequence
    s_add_u32 s13, 0xbf, s8
    s_mov_b32 s14, 0xc0
    v_cvt_f32_u32_e32 v2, s14
    s_sub_i32 s15, 0, s14
    v_rcp_iflag_f32_e32 v2, v2
    s_nop 0
    v_mul_f32_e32 v2, 0x4f7ffffe, v2
    v_cvt_u32_f32_e32 v2, v2
    v_mul_lo_u32 v3, s15, v2
    v_mul_hi_u32 v3, v2, v3
    v_add_u32_e32 v2, v2, v3
    v_mul_hi_u32 v2, s13, v2
    v_mul_lo_u32 v3, v2, s14
    v_sub_u32_e32 v5, s13, v3
    v_add_u32_e32 v4, 1, v2
    v_cmp_le_u32_e32 vcc, s14, v5
    v_subrev_u32_e32 v3, s14, v5
    s_nop 0
    v_cndmask_b32_e32 v2, v2, v4, vcc
    v_cndmask_b32_e32 v5, v5, v3, vcc
    v_add_u32_e32 v3, 1, v2
    v_cmp_le_u32_e32 vcc, s14, v5
    s_nop 1
    v_cndmask_b32_e32 v5, v2, v3, vcc
    s_nop 3
    v_readfirstlane_b32 s16, v5               // B
    v_readfirstlane_b32 s11, v0
    s_lshr_b32 s11, s11, 6                    // wave
    v_and_b32 v7, 63, v0                      // lane
    v_lshlrev_b32 v1, 2, v7                   // 4 * lane
    s_lshl_b32 s12, s11, 8                    // 256 * wave: the wave's slot
    v_add_u32 v3, s12, v1
    s_xor_b32 s13, s11, 1
    s_lshl_b32 s13, s13, 8                    // the slot of wave ^ 1
    v_add_u32 v12, s13, v1
    s_xor_b32 s13, s11, 2
    s_lshl_b32 s13, s13, 8                    // the slot of wave ^ 2
    v_add_u32 v13, s13, v1
    v_mov_b32 v10, 0                          // the sum
    s_mov_b32 s17, 0                          // items done
    s_mov_b32 s18, 1                          // items
    s_lshl_b32 s19, s2, 1
    s_cmp_ge_i32 s19, s16
    s_cselect_b32 s18, s18, 2                 // two when 2w < B: wrong
    s_mov_b32 s20, s2                         // the item
.Litem:
    s_mul_i32 s21, 3, s20
    s_add_u32 s22, s8, 63
    s_lshr_b32 s22, s22, 6                    // ceil(n / 64)
    s_sub_i32 s23, s22, s21
    s_cmp_lt_i32 s23, 3
    s_cselect_b32 s23, s23, 3                 // c = min(3, ceil(n / 64) - 3 * item)
    s_mul_i32 s25, s20, 0xc0                  // 192 * item
    s_add_u32 s27, s25, 0xc0
    s_min_u32 s27, s27, s8                    // the item's end: min(192 * item + 192, n)
    s_lshl_b32 s26, s11, 6
    s_add_u32 s25, s25, s26                   // 192 * item + 64 * wave
    v_add_u32 v6, s25, v7                     // the element
    v_cmp_gt_u32_e32 vcc, s27, v6
    v_lshlrev_b32 v8, 2, v6
    v_mov_b32 v9, 0
    v_lshl_add_u64 v[8:9], s[4:5], 0, v[8:9]
    global_load_dword v11, v[8:9], off
    s_waitcnt vmcnt(0)
    v_cndmask_b32_e32 v11, 0, v11, vcc        // 0 past n
    ds_write_b32 v3, v11                      // the wave's slot
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b32 v6, v12                       // expect: lds-cross-wave-race (the second run of the item writes)
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v6
    s_cmp_ge_i32 2, s23
    s_cbranch_scc1 .Lnext                     // c <= 2 parts: no barrier
    s_barrier
    ds_read_b32 v6, v13                       // the slot of wave ^ 2
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v6
    s_barrier
.Lnext:
    s_sub_i32 s24, s16, 1
    s_sub_i32 s20, s24, s20                   // the second item: B - 1 - w
    s_addk_i32 s17, 0x1
    s_cmp_lt_i32 s17, s18
    s_cbranch_scc1 .Litem
    s_lshl_b32 s25, s2, 8
    v_add_u32 v8, s25, v0                     // work-item of the grid
    v_lshlrev_b32 v8, 2, v8
    v_mov_b32 v9, 0
    v_lshl_add_u64 v[8:9], s[6:7], 0, v[8:9]
    global_store_dword v[8:9], v10, off
    s_waitcnt vmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail_args.inc"
