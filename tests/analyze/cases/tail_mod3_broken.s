// tail_mod3_broken.s -- tail_mod3.s with the tail's three variants rotated:
// the tail reads a buffer whose DMA is still in flight, on every run.
//
// tail_mod3.s -- a loop unrolled three times with an exit after each part,
// and a tail that picks its buffer by the trip count modulo 3, computed as
// AITER's gfx950 mla kernels do: q = readfirstlane(n / 3) through the VALU
// sequence that LLVM emits for a 32-bit unsigned division (a float
// reciprocal, one Newton-Raphson round, two refinements), then n - 3 * q.
// Tiles of 256 bytes go by LDS-DMA into the wave's buffers A [768w, +256),
// B [768w + 256, +256) and C [768w + 512, +256), two in flight.  Part 1
// consumes A and leaves the loop when n = 1 (mod 3), with the DMA into B in
// flight; part 2 consumes B and leaves when n = 2 (mod 3), C in flight;
// part 3 consumes C and leaves when n = 0 (mod 3), A in flight.  The tail
// reads the last tile again from the buffer whose DMA has retired.  Each exit
// fixes n modulo 3, so it fixes the tail variant (paths.c and idiv.c follow
// the remainder); gcnlint --all-paths reports the pairings no run takes.
// tail_mod3_broken.s rotates the three variants: then every run with n >= 1
// reads a buffer whose DMA is in flight.  Arguments: src (n + 2 tiles of 256
// bytes, the same for every wave), dst (4 bytes per work-item), n >= 0.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx4 s[4:7], s[0:1], 0x0        // src s[4:5], dst s[6:7]
    s_load_dword s8, s[0:1], 0x10             // n, the tiles to sum
    v_readfirstlane_b32 s11, v0
    s_lshr_b32 s11, s11, 6                    // wave
    s_mul_i32 s12, s11, 0x300                 // A: 768 * wave
    s_add_u32 s13, s12, 0x100                 // B
    s_add_u32 s21, s12, 0x200                 // C
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                   // 4 * lane
    v_add_u32 v2, s12, v1                     // the lane's word of A
    v_mov_b32 v10, 0                          // the sum
    s_waitcnt lgkmcnt(0)
    s_cmp_eq_u32 s8, 0
    s_cbranch_scc1 .Lout                      // no tiles
    v_mov_b32 v5, 0
    v_mov_b32 v4, v1
    v_lshl_add_u64 v[4:5], s[4:5], 0, v[4:5]  // src + 4 * lane
    s_mov_b32 s9, 0                           // tiles consumed
    s_mov_b64 s[14:15], 0x100                 // a tile's bytes
    s_mov_b32 m0, s12
    s_nop 0
    global_load_lds_dword v[4:5], off         // tile 0 -> A
    v_lshl_add_u64 v[4:5], s[14:15], 0, v[4:5] // the next tile
    s_mov_b32 m0, s13
    s_nop 0
    global_load_lds_dword v[4:5], off         // tile 1 -> B
.Lloop:
    s_waitcnt vmcnt(1)                        // the tile in A has arrived
    ds_read_b32 v6, v2                        // A
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v6
    s_add_u32 s9, s9, 1
    s_cmp_lt_u32 s9, s8
    s_cbranch_scc0 .Ltail                     // n = 1 (mod 3); the DMA into B in flight
    v_lshl_add_u64 v[4:5], s[14:15], 0, v[4:5]
    s_mov_b32 m0, s21
    s_nop 0
    global_load_lds_dword v[4:5], off         // tile + 2 -> C
    s_waitcnt vmcnt(1)                        // the tile in B has arrived
    ds_read_b32 v6, v2 offset:256             // B
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v6
    s_add_u32 s9, s9, 1
    s_cmp_lt_u32 s9, s8
    s_cbranch_scc0 .Ltail                     // n = 2 (mod 3); the DMA into C in flight
    v_lshl_add_u64 v[4:5], s[14:15], 0, v[4:5]
    s_mov_b32 m0, s12
    s_nop 0
    global_load_lds_dword v[4:5], off         // tile + 2 -> A
    s_waitcnt vmcnt(1)                        // the tile in C has arrived
    ds_read_b32 v6, v2 offset:512             // C
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v6
    s_add_u32 s9, s9, 1
    s_cmp_lt_u32 s9, s8
    s_cbranch_scc0 .Ltail                     // n = 0 (mod 3); the DMA into A in flight
    v_lshl_add_u64 v[4:5], s[14:15], 0, v[4:5]
    s_mov_b32 m0, s13
    s_nop 0
    global_load_lds_dword v[4:5], off         // tile + 2 -> B
    s_branch .Lloop
.Ltail:
    // q = n / 3 (unsigned), every lane the same
    s_mov_b32 s16, 3                          // the divisor
    s_mov_b32 s17, s8                         // the dividend
    v_cvt_f32_u32 v11, s16
    s_sub_i32 s18, 0, s16                     // -3
    v_rcp_iflag_f32 v11, v11
    s_nop 0                                   // a transcendental result read by VALU
    v_mul_f32 v11, 0x4f7ffffe, v11
    v_cvt_u32_f32 v11, v11                    // z0, about 2^32 / 3
    v_mul_lo_u32 v12, s18, v11
    v_mul_hi_u32 v12, v11, v12
    v_add_u32 v11, v11, v12                   // z, one Newton-Raphson round
    v_mul_hi_u32 v11, s17, v11                // q0
    v_mul_lo_u32 v12, v11, s16
    v_sub_u32 v14, s17, v12                   // r0 = n - 3 * q0
    v_add_u32 v13, 1, v11
    v_cmp_le_u32 vcc, s16, v14
    v_subrev_u32 v12, s16, v14                // r0 - 3
    s_nop 1
    v_cndmask_b32 v11, v11, v13, vcc          // q1
    v_cndmask_b32 v14, v14, v12, vcc          // r1
    v_add_u32 v12, 1, v11
    v_cmp_le_u32 vcc, s16, v14
    s_nop 1
    v_cndmask_b32 v14, v11, v12, vcc          // q2 = n / 3
    s_nop 3
    v_readfirstlane_b32 s19, v14
    s_nop 3
    s_mul_i32 s20, s19, 3
    s_sub_u32 s20, s8, s20                    // n mod 3
    s_cmp_eq_u32 s20, 1
    s_cbranch_scc1 .Lr1
    s_cmp_eq_u32 s20, 0
    s_cbranch_scc1 .Lr0
    ds_read_b32 v7, v2 offset:512             // expect: lds-dma-pending (n = 2: C, in flight)
    s_branch .Llast
.Lr1:
    ds_read_b32 v7, v2 offset:256             // expect: lds-dma-pending (n = 1: B, in flight)
    s_branch .Llast
.Lr0:
    ds_read_b32 v7, v2                        // expect: lds-dma-pending (n = 0: A, in flight)
.Llast:
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v7                    // the last tile counts twice
.Lout:
    v_mov_b32 v9, 0
    v_lshlrev_b32 v8, 2, v0                   // 4 * work-item
    v_lshl_add_u64 v[8:9], s[6:7], 0, v[8:9]
    global_store_dword v[8:9], v10, off
    s_waitcnt vmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail_args.inc"
