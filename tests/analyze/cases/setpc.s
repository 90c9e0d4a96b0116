// setpc.s -- control flow through s_setpc_b64 / s_swappc_b64 with targets
// computed from s_getpc_b64: the linter follows them (and their returns); the
// bytes after s_endpgm are not code.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_getpc_b64 s[10:11]
.Lpc0:
    s_add_u32 s10, s10, .Lfar - .Lpc0
    s_addc_u32 s11, s11, 0
    s_setpc_b64 s[10:11]
    .long 0xffffffff                          // never executed
.Lfar:
    v_mov_b32 v2, 0
    v_mov_b32 v3, 0
    global_load_dword v4, v[2:3], off
    v_mov_b32 v5, v4                          // expect: pending-read
    s_waitcnt vmcnt(0)
    s_getpc_b64 s[10:11]
.Lpc1:
    s_add_u32 s10, s10, .Lfunc - .Lpc1
    s_addc_u32 s11, s11, 0
    s_swappc_b64 s[30:31], s[10:11]
    v_mov_b32 v7, v6                          // expect: pending-read
    s_waitcnt vmcnt(0)
    s_endpgm
    .long 0xffffffff, 0xdeadbeef              // padding, not code
.Lfunc:
    global_load_dword v6, v[2:3], off
    s_setpc_b64 s[30:31]
.Lk_end:
.include "kernel_tail.inc"
