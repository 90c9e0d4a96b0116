// wave_roles_barrier.s -- wave_roles_barrier_broken.s made correct: the
// writers (waves 0-2) write, every wave waits for its LDS writes and meets the
// others at a second s_barrier, and only then does wave 3 read [512, 768),
// which wave 2 wrote.  The write and the read are in different barrier
// intervals (the first barrier's and the second's), the clears in the
// entry's: gcnlint and gcnsim are clean.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_readfirstlane_b32 s10, v0              // 64 * wave
    s_lshr_b32 s11, s10, 6                   // wave
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                  // 4 * lane
    s_lshl_b32 s12, s10, 2                   // 256 * wave
    v_add_u32 v2, s12, v1
    v_mov_b32 v6, 0
    ds_write_b32 v2, v6                      // clear [256 * wave, +256)
    s_waitcnt lgkmcnt(0)
    s_barrier
    s_cmp_lt_u32 s11, 3                      // the writers: waves 0-2
    s_cbranch_scc0 .Lsync
    ds_write_b32 v2, v0                      // [256 * wave, +256)
.Lsync:
    s_waitcnt lgkmcnt(0)                     // the writes are done
    s_barrier                                // before any wave passes here
    s_cmp_lt_u32 s11, 3
    s_cbranch_scc1 .Ldone                    // the reader: wave 3
    ds_read_b32 v3, v1 offset:512            // [512, 768): wave 2's write
    ds_read_b32 v4, v1 offset:768            // [768, 1024): its own clear
    s_waitcnt lgkmcnt(0)
    v_add_u32 v5, v3, v4                     // the values read are used
.Ldone:
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"
