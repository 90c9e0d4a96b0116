// wave_roles_barrier_broken.s -- wave_roles_split_broken.s after a barrier:
// every wave first clears its own [256 * wave, +256), waits and meets the
// others at s_barrier; then waves 0-2 write and wave 3 reads on the two sides
// of a branch on the wave index.  The waves leave the barrier together, so
// wave 2's write of [512, 768) and wave 3's read of it run at the same time:
// the pair shares the barrier interval that begins at the s_barrier (not the
// entry's), which gcnlint once never built (issue 13).  gcnsim reports the
// race at run time.  wave_roles_barrier.s is the correct kernel.
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
    s_cbranch_scc0 .Lreaders
    ds_write_b32 v2, v0                      // [256 * wave, +256)
    s_branch .Ldone
.Lreaders:
    ds_read_b32 v3, v1 offset:512            // expect: lds-cross-wave-race
    ds_read_b32 v4, v1 offset:768            // [768, 1024): its own clear, before the barrier
    s_waitcnt lgkmcnt(0)
    v_add_u32 v5, v3, v4                     // the values read are used
.Ldone:
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"
