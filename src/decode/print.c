/*
 * print.c -- print a decoded instruction in llvm-objdump-22's syntax by
 * dispatching to the family printer.  An invalid dword prints as LLVM's
 * objdump leaves it: ".long 0xXXXXXXXX"; trailing bytes (fewer than 4) as
 * ".byte 0xXX, ...".
 */
#include "decode_int.h"

void gcn_print_insn(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb)
{
    if (in->id == GCN_ID_INVALID) {
        if (in->size < 4) {
            gcn_sb_puts(sb, ".byte ");
            for (unsigned i = 0; i < in->size; i++)
                gcn_sb_printf(sb, "%s0x%02x", i ? ", " : "", (in->words[0] >> (8 * i)) & 0xff);
        } else {
            gcn_sb_puts(sb, ".long 0x");
            gcn_sb_puthex(sb, in->words[0], 8);
        }
        return;
    }
    switch (in->enc) {
    case GCN_FMT_SOP2: case GCN_FMT_SOPK: case GCN_FMT_SOP1: case GCN_FMT_SOPC:
    case GCN_FMT_SOPP: case GCN_FMT_SMEM:
        gcn_print_salu(d, in, sb);
        break;
    case GCN_FMT_VOP2: case GCN_FMT_VOP1: case GCN_FMT_VOPC: case GCN_FMT_VOP3:
        gcn_print_valu(d, in, sb);
        break;
    case GCN_FMT_VOP3P:
        gcn_print_vop3p(d, in, sb);
        break;
    default:
        gcn_print_mem(d, in, sb);
        break;
    }
}
