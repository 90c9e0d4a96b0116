// dead_read_ctrl_broken.s -- the dead-read test (xwave.c) trusts the writers'
// route only past branches that go the same way in every wave, and a branch
// on a constant can still part them (control dependence, uniform.c).  Every
// wave reads wave 0's slot [0, 256); waves 0-1 set s20 = 1 on one side of a
// branch on the wave index, waves 2-3 keep s20 = 0.  Waves 2-3 then write
// (wave 2 into [0, 256), with no barrier) and overwrite the value they read:
// dead on that route.  Waves 0-1 leave the route on s20 and use what they
// read, which wave 2's write may already have changed: a race that matters.
// A test that only follows where values come from calls s20 the same in
// every wave (every value it takes is a constant) and drops the pair.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_readfirstlane_b32 s10, v0             // 64 * wave
    s_lshr_b32 s11, s10, 6                  // wave
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                 // 4 * lane: wave 0's slot
    ds_read_b32 v3, v1                      // expect: lds-cross-wave-race
    s_mov_b32 s20, 0
    s_cmp_lt_u32 s11, 2                     // waves 0-1
    s_cbranch_scc0 .Ljoin
    s_mov_b32 s20, 1                        // a constant, on one side only
.Ljoin:
    s_cmp_eq_u32 s20, 1                     // differs between waves
    s_cbranch_scc1 .Luse                    // waves 0-1 leave the writers' route
    s_sub_u32 s13, s11, 2
    s_lshl_b32 s13, s13, 8                  // waves 2-3: 0 and 256
    v_add_u32 v4, s13, v1
    ds_write_b32 v4, v0                     // wave 2 writes the slot the others read
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, 0                         // the value read is dead on this route
    s_endpgm
.Luse:
    s_waitcnt lgkmcnt(0)
    v_add_u32 v5, v3, v3                    // waves 0-1 use the value read
    s_endpgm
.Lk_end:
.include "kernel_tail_args.inc"
