// wave_uniform_exit.s -- the two sides of branches that go the same way in
// every wave of the work-group, after an s_barrier, touch the same LDS bytes
// (correct kernel: gcnlint and gcnsim are clean).
//   1. A loop with an s_barrier at its head: each pass, every wave adds its
//      work-item id + 1 to v5 and writes it to its own slot [256 * wave, +256);
//      the exit test compares the pass count with n, a kernel argument.  The
//      exit side reads wave 0's slot [0, 256), which the loop side writes in
//      wave 0.  Both follow the same barrier, but every wave leaves the loop
//      in the same pass, so no wave writes while another reads.
//   2. After another barrier, a test of n's low bit: odd n writes the own
//      slot, even n reads wave 0's slot; the whole work-group takes one side.
//      The test goes through VALU: v_readfirstlane of n + 0 in a VGPR, and a
//      v_cmp of n's low bit to VCC (the same bit in every lane of every
//      wave), then s_cbranch_vccz.
// gcnlint pairs two accesses on the two sides of a branch only when the
// branch may go different ways in different waves (uniform.c); before that
// both pairs were reported (issue 13).  dst[t] = n * (l + 1), doubled when n
// is even (l = t mod 64), which test_gcnlint.sh checks for n = 0..3.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx2 s[6:7], s[0:1], 0x8      // dst
    s_load_dword s8, s[0:1], 0x10           // n, the passes
    v_readfirstlane_b32 s10, v0             // 64 * wave
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                 // 4 * lane
    s_lshl_b32 s12, s10, 2                  // 256 * wave
    v_add_u32 v2, s12, v1                   // the own slot
    v_add_u32 v6, 1, v0                     // work-item id + 1
    v_mov_b32 v5, 0
    v_mov_b32 v4, 0
    ds_write_b32 v2, v5                     // the own slot: 0
    s_mov_b32 s21, 0                        // passes done
    s_waitcnt lgkmcnt(0)
.Lloop:
    s_barrier
    s_cmp_lt_u32 s21, s8                    // the exit: the same in every wave
    s_cbranch_scc0 .Lexit
    v_add_u32 v5, v5, v6
    ds_write_b32 v2, v5                     // the own slot
    s_add_u32 s21, s21, 1
    s_waitcnt lgkmcnt(0)
    s_branch .Lloop
.Lexit:
    ds_read_b32 v3, v1                      // wave 0's slot: n * (l + 1)
    s_waitcnt lgkmcnt(0)
    s_barrier
    v_mov_b32 v9, s8
    v_add_u32 v9, 0, v9                     // n in every lane
    s_nop 0
    v_readfirstlane_b32 s9, v9              // n again
    s_nop 1
    v_and_b32 v10, s9, 1
    v_cmp_eq_u32 vcc, 1, v10                // n odd: every lane, every wave
    s_cbranch_vccz .Leven
    ds_write_b32 v2, v0                     // the own slot
    s_branch .Lstore
.Leven:
    ds_read_b32 v4, v1                      // wave 0's slot again
.Lstore:
    s_waitcnt lgkmcnt(0)
    v_add_u32 v3, v3, v4
    v_lshlrev_b32 v8, 2, v0
    global_store_dword v8, v3, s[6:7]
    s_endpgm
.Lk_end:
.include "kernel_tail_args.inc"
