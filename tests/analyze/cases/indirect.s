// indirect.s -- a jump through a register the analysis cannot compute is a
// warning (paths through it are not checked); --werror makes it an error.
// gcnlint-args:
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_setpc_b64 s[4:5]                        // expect: cfg-indirect
.Lk_end:
.include "kernel_tail.inc"
