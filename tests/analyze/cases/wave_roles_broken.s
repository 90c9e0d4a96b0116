// wave_roles_broken.s -- wave_roles.s with waves 0-2 in the writing role: wave 2
// writes [512, 768), which wave 3 reads with no barrier between: a race.
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dword s4, s[0:1], 0x0             // a flag
    v_readfirstlane_b32 s10, v0              // 64 * wave
    s_lshr_b32 s11, s10, 6                   // wave
    v_and_b32 v1, 63, v0
    v_lshlrev_b32 v1, 2, v1                  // 4 * lane
    s_lshl_b32 s12, s10, 2                   // 256 * wave
    v_add_u32 v2, s12, v1
    s_waitcnt lgkmcnt(0)
    s_cmp_lt_u32 s11, 3                      // the writers: waves 0-2
    s_cbranch_scc0 .Lreaders
    s_cmp_eq_u32 s4, 0
    s_cbranch_scc1 .Lwrite
    v_mov_b32 v0, 1
.Lwrite:
    ds_write_b32 v2, v0                      // [256 * wave, +256)
.Lreaders:
    s_cmp_ge_u32 s11, 2                      // the readers: waves 2-3
    s_cbranch_scc0 .Ldone
    s_cmp_eq_u32 s4, 0
    s_cbranch_scc1 .Lread
    v_mov_b32 v0, 1
.Lread:
    ds_read_b32 v3, v1 offset:512            // expect: lds-cross-wave-race
    ds_read_b32 v4, v1 offset:768            // [768, 1024)
    s_waitcnt lgkmcnt(0)
    v_add_u32 v5, v5, v3                    // the value read is used (a dead read would race harmlessly)
.Ldone:
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"
