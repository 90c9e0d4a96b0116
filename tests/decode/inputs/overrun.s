// overrun.s -- an instruction that runs past the next symbol: llvm-objdump
// decodes the 8-byte global_load_dword that starts 4 bytes before `second`
// whole, then starts afresh at `second` (its second dword, 0x02040001, is
// then v_add_f32_e32 v2, s1, v0).  gcndis must do the same on one thread
// and on several (tests/decode/test_objdump_diff.sh, test_textpar.sh; a
// fuzzed object found the one-thread printer not restarting there).
.text
.globl first
.p2align 8
.type first,@function
first:
  s_nop 0
  v_mov_b32 v0, 0x12345678
  .long 0xdc508000                // global_load_dword v2, v1, s[4:5]: first dword
.globl second
.type second,@function
second:
  .long 0x02040001                // its second dword, and an instruction of its own
  s_waitcnt vmcnt(0)
  v_mov_b32 v1, 0x80000001        // a literal that runs past `third` as well
  .long 0x7e0402ff
.globl third
.type third,@function
third:
  .long 0x3f800000
  s_endpgm
