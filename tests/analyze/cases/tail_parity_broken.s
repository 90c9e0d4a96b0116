// tail_parity_broken.s -- tail_parity.s with the tail's two variants swapped:
// the tail reads the buffer whose DMA is still in flight, on every run.
//
// tail_parity.s -- a loop unrolled twice with an exit after each half, and a
// tail that picks its buffer by the parity of the trip count, as AITER's
// fmha_v3_fwd does (`s_and_b32 s40, 1, ...; s_cmp_lt_i32 s40, 1`) and its
// mla kernels do modulo 4 (`s_and_b32 s56, 3, s71`).  Tiles of 256 bytes go
// by LDS-DMA into the wave's buffer A [512w, +256) and B [512w + 256, +256),
// two in flight.  The
// first half consumes A and leaves the loop when n is odd; then the DMA of
// the next tile into B is still in flight.  The second half consumes B and
// leaves when n is even, with a DMA into A in flight.  The tail reads the
// last tile again from the buffer whose DMA has retired: A when n is odd.
// Each exit fixes n modulo 2, so it fixes the tail variant; an analysis that
// takes both tail variants after each exit pairs the in-flight buffer with the
// variant that reads it, a path no run takes (gcnlint --all-paths reports it).
// tail_parity_broken.s swaps the two variants: then every run with n >= 1
// reads the in-flight buffer.  Arguments: src (n + 2 tiles of 256 bytes, the
// same for every wave), dst (4 bytes per work-item), n >= 0.
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
    s_lshl_b32 s12, s11, 9                    // A: 512 * wave
    s_add_u32 s13, s12, 0x100                 // B
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
    s_mov_b64 s[14:15], 0x100                 // a tile's bytes (v_lshl_add_u64 shifts by S1[2:0] only)
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
    s_cbranch_scc0 .Ltail                     // n odd; the DMA into B in flight
    v_lshl_add_u64 v[4:5], s[14:15], 0, v[4:5]
    s_mov_b32 m0, s12
    s_nop 0
    global_load_lds_dword v[4:5], off         // tile + 2 -> A
    s_waitcnt vmcnt(1)                        // the tile in B has arrived
    ds_read_b32 v6, v2 offset:256             // B
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v6
    s_add_u32 s9, s9, 1
    s_cmp_lt_u32 s9, s8
    s_cbranch_scc0 .Ltail                     // n even; the DMA into A in flight
    v_lshl_add_u64 v[4:5], s[14:15], 0, v[4:5]
    s_mov_b32 m0, s13
    s_nop 0
    global_load_lds_dword v[4:5], off         // tile + 2 -> B
    s_branch .Lloop
.Ltail:
    s_and_b32 s10, 1, s8
    s_cmp_eq_u32 s10, 1
    s_cbranch_scc1 .Lodd
    ds_read_b32 v7, v2                        // expect: lds-dma-pending (n even: A, in flight)
    s_branch .Llast
.Lodd:
    ds_read_b32 v7, v2 offset:256             // expect: lds-dma-pending (n odd: B, in flight)
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
