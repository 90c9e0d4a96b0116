// wave_roles_split.s -- wave_roles.s with the two roles on the two sides of
// one branch, as warp-specialised kernels are written: no path leads from the
// writers' ds_write to the readers' ds_read, yet the waves run both at the
// same time (all leave the entry together and neither side has a barrier), so
// gcnlint compares every pair of accesses of one barrier interval.  Correct:
// waves 0-1 write [0, 512), waves 2-3 read [512, 1024).
// wave_roles_split_broken.s gives the writing role one wave too many.
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
    s_cmp_lt_u32 s11, 2                      // the writers: waves 0-1
    s_cbranch_scc0 .Lreaders
    ds_write_b32 v2, v0                      // [256 * wave, +256)
    s_branch .Ldone
.Lreaders:
    ds_read_b32 v3, v1 offset:512            // [512, 768)
    ds_read_b32 v4, v1 offset:768            // [768, 1024)
    s_waitcnt lgkmcnt(0)
    v_add_u32 v5, v3, v4                     // the values read are used
.Ldone:
    s_endpgm
.Lk_end:
.include "kernel_tail.inc"
