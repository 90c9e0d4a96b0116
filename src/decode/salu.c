/*
 * salu.c -- decoder and printer of one group of encoding families
 * (see decode_int.h).  Not yet written: every word decodes as invalid.
 */
#include "decode_int.h"

size_t gcn_dec_salu(const gcn_decoder *d, gcn_fmt fmt, const uint32_t *w, size_t nw, gcn_insn *out)
{
    return 0;
}

void gcn_print_salu(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb)
{
    gcn_sb_puts(sb, gcn_isa_row_of(in->id)->mnem);
}
