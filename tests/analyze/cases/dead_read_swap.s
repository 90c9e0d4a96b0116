// dead_read_swap.s -- dead_read_swap_broken.s made correct: a barrier after
// the last prefetch is used (through v_swap_b32's vdst) and before any wave
// writes the tile.  Clean for gcnlint and gcnsim.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dword s8, s[0:1], 0x10             // n, the parts
    v_readfirstlane_b32 s11, v0
    s_lshr_b32 s11, s11, 6                    // wave
    v_and_b32 v1, 63, v0                      // lane
    s_lshl_b32 s12, s11, 6                    // 64 * wave
    v_add_u32 v3, s12, v1                     // the lane's byte of the wave's 64
    v_lshlrev_b32 v1, 2, v1                   // 4 * lane
    v_mov_b32 v10, 0                          // the sum
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s9, 0                           // parts done
    ds_read_b32 v6, v1                        // the first part's word
.Lloop:
    s_add_u32 s9, s9, 1
    s_cmp_lt_u32 s9, s8
    s_cbranch_scc0 .Lexit                     // the prefetch in flight is not used
    s_waitcnt lgkmcnt(0)
    s_barrier
    v_add_u32 v10, v10, v6
    ds_read_b32 v6, v1                        // the next part's word
    s_branch .Lloop
.Lexit:
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v7, 0
    v_swap_b32 v6, v7                         // reads v6 (the prefetch) into v7
    v_add_u32 v10, v10, v7                    // the last part, from the prefetch
    s_barrier                                 // every wave's last read is done
    ds_write_b8 v3, v10                       // the wave's 64 bytes of the tile
    s_waitcnt lgkmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail_args.inc"
