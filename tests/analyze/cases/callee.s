// callee.s -- findings outside the kernel's own symbol: in a function the
// kernel calls (named helper+0xOFF in a binary) and in code that no symbol
// covers (.text+0xOFF), as AMD's rj_waitcheck names locations.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    v_mov_b32 v2, 0
    v_mov_b32 v3, 0
    s_getpc_b64 s[10:11]
.Lpc0:
    s_add_u32 s10, s10, .Lanon - .Lpc0
    s_addc_u32 s11, s11, 0
    s_swappc_b64 s[30:31], s[10:11]
    s_getpc_b64 s[10:11]
.Lpc1:
    s_add_u32 s10, s10, helper - .Lpc1
    s_addc_u32 s11, s11, 0
    s_swappc_b64 s[30:31], s[10:11]
    s_endpgm
.Lk_end:
.Lanon:                                       // no symbol covers this code
    global_load_dword v6, v[2:3], off
    v_mov_b32 v7, v6                          // expect: pending-read
    s_waitcnt vmcnt(0)
    s_setpc_b64 s[30:31]
.type helper,@function
helper:
    global_load_dword v8, v[2:3], off
    v_mov_b32 v9, v8                          // expect: pending-read
    s_waitcnt vmcnt(0)
    s_setpc_b64 s[30:31]
.Lhelper_end:
.size helper, .Lhelper_end - helper
.include "kernel_tail.inc"
