// labels_abs.s -- a branch target that is also the value of an absolute
// symbol.  llvm-objdump's AMDGPUSymbolizer names branch targets from the
// symbols of the section being disassembled only, so the branch prints
// `loop`, not `aaa_abs` (the least name at that address over all symbols,
// which gcndis printed before).  0x1304 is where ld.lld-22 puts `loop`;
// tests/decode/test_objdump_diff.sh checks that the two still coincide.
.text
.globl labels_abs
.p2align 8
.type labels_abs,@function
labels_abs:
  s_nop 0
loop:
  s_add_u32 s0, s0, 1
  s_cbranch_scc1 loop
  s_endpgm
.globl aaa_abs
.set aaa_abs, 0x1304
