// wave_uniform_trap_broken.s -- control dependence: a branch on a constant
// can still part the waves.  Waves 0-1 set s20 = 1 on one side of a branch on
// the wave index, waves 2-3 keep s20 = 0; after the join and an s_barrier,
// s20 decides the roles: waves 0-1 write their slots [256 * wave, +256),
// waves 2-3 read wave 0's slot [0, 256) in the same barrier interval (a race:
// gcnsim reports it at run time).  Every value s20 takes is a constant, so a
// test that only follows where values come from (not which branch chose
// them) would call the second branch the same in every wave and drop the
// pair; uniform.c makes s20 non-uniform at the join.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_readfirstlane_b32 s10, v0             // 64 * wave
    s_lshr_b32 s11, s10, 6                  // wave
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                 // 4 * lane
    s_lshl_b32 s12, s10, 2                  // 256 * wave
    v_add_u32 v2, s12, v1                   // the own slot
    v_mov_b32 v6, 0
    ds_write_b32 v2, v6                     // clear the own slot
    s_mov_b32 s20, 0
    s_cmp_lt_u32 s11, 2                     // waves 0-1
    s_cbranch_scc0 .Ljoin
    s_mov_b32 s20, 1                        // a constant, on one side only
.Ljoin:
    s_waitcnt lgkmcnt(0)
    s_barrier
    s_cmp_eq_u32 s20, 1                     // differs between waves
    s_cbranch_scc0 .Lreaders
    ds_write_b32 v2, v0                     // waves 0-1: the own slot
    s_branch .Ldone
.Lreaders:
    ds_read_b32 v3, v1                      // expect: lds-cross-wave-race
    s_waitcnt lgkmcnt(0)
    v_add_u32 v5, v3, v3                    // the value read is used
.Ldone:
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"
