// dead_read_broken.s -- dead_read.s with the last prefetch used after the
// loop: a slower wave may add what a faster wave wrote.
//
// dead_read.s -- a race on a read whose value is never used (gcnlint's
// cross-wave check, xwave.c, "dead reads").  Every wave reads the shared tile
// [0, 256) one part ahead (software pipelining) and leaves the loop after n
// parts; then each wave writes its own 64 bytes of the tile, with no barrier.
// A slower wave's last prefetch may still be in flight and may return what a
// faster wave wrote -- into v6, which the wave never reads again on that
// route: nothing changes, and gcnlint reports nothing.  On the way round the
// loop the prefetch is used, after a barrier.  dead_read_broken.s uses the
// last prefetch after the loop: then the race matters.  (gcnsim's run-time
// check counts a race on a read whose value is used, and reports it here.)
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
    ds_read_b32 v6, v1                        // expect: lds-cross-wave-race
.Lloop:
    s_add_u32 s9, s9, 1
    s_cmp_lt_u32 s9, s8
    s_cbranch_scc0 .Lexit                     // the prefetch in flight is not used
    s_waitcnt lgkmcnt(0)
    s_barrier
    v_add_u32 v10, v10, v6
    ds_read_b32 v6, v1                        // expect: lds-cross-wave-race
    s_branch .Lloop
.Lexit:
    s_waitcnt lgkmcnt(0)
    v_add_u32 v10, v10, v6                    // the last part, from the prefetch
    ds_write_b8 v3, v10                       // the wave's 64 bytes of the tile
    s_waitcnt lgkmcnt(0)
    s_endpgm
.Lk_end:
.include "kernel_tail_args.inc"
