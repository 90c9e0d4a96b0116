/*
 * decode.c -- classify an instruction's first dword by its encoding bits and
 * dispatch to the family module.  The classification follows the GFX9/CDNA
 * encoding tables (LLVM SIInstrFormats.td / *Instructions.td "Enc*" classes;
 * AMD CDNA3 ISA guide, chapter "Microcode formats").
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include "decode_int.h"

/* The family is fixed by the top 9 bits of the first dword: the decoder
 * looks it up in a table built once from gcn_classify() (a chain of
 * data-dependent branches that mispredicts on a mixed instruction stream). */
uint8_t gcn_fmt_by_top9[512];
static pthread_once_t fmt_once = PTHREAD_ONCE_INIT;
atomic_int gcn_fmt_ready;

static void fmt_table_build(void)
{
    for (uint32_t t = 0; t < 512; t++)
        gcn_fmt_by_top9[t] = (uint8_t)gcn_classify(t << 23);
    atomic_store_explicit(&gcn_fmt_ready, 1, memory_order_release);
}

void gcn_fmt_init(void)
{
    pthread_once(&fmt_once, fmt_table_build);
}

gcn_fmt gcn_classify(uint32_t w0)
{
    if ((w0 >> 31) == 0) {                     /* VOP2 / VOP1 / VOPC */
        unsigned top7 = w0 >> 25;
        if (top7 == 0x3F) return GCN_FMT_VOP1;
        if (top7 == 0x3E) return GCN_FMT_VOPC;
        return GCN_FMT_VOP2;
    }
    if ((w0 >> 30) == 0x2) {                   /* scalar ALU */
        unsigned top9 = w0 >> 23;
        if (top9 == 0x17D) return GCN_FMT_SOP1;
        if (top9 == 0x17E) return GCN_FMT_SOPC;
        if (top9 == 0x17F) return GCN_FMT_SOPP;
        if ((w0 >> 28) == 0xB) return GCN_FMT_SOPK;
        return GCN_FMT_SOP2;
    }
    switch (w0 >> 26) {
    case 0x30: return GCN_FMT_SMEM;            /* 110000 */
    case 0x34:                                 /* 110100 */
        return ((w0 >> 23) == 0x1A7) ? GCN_FMT_VOP3P : GCN_FMT_VOP3;
    case 0x36: return GCN_FMT_DS;              /* 110110 */
    case 0x37: return GCN_FMT_FLAT;            /* 110111 (seg picks FLAT/GLOBAL/SCRATCH) */
    case 0x38: return GCN_FMT_MUBUF;           /* 111000 */
    case 0x3A: return GCN_FMT_MTBUF;           /* 111010 */
    default: return GCN_FMT_INVALID;
    }
}

const gcn_family_decoder gcn_decoder_of[GCN_FMT_COUNT] = {
    [GCN_FMT_SOP2] = gcn_dec_salu, [GCN_FMT_SOPK] = gcn_dec_salu, [GCN_FMT_SOP1] = gcn_dec_salu,
    [GCN_FMT_SOPC] = gcn_dec_salu, [GCN_FMT_SOPP] = gcn_dec_salu, [GCN_FMT_SMEM] = gcn_dec_salu,
    [GCN_FMT_VOP2] = gcn_dec_valu, [GCN_FMT_VOP1] = gcn_dec_valu, [GCN_FMT_VOPC] = gcn_dec_valu,
    [GCN_FMT_VOP3] = gcn_dec_valu, [GCN_FMT_VOP3P] = gcn_dec_vop3p,
    [GCN_FMT_DS] = gcn_dec_mem, [GCN_FMT_MUBUF] = gcn_dec_mem, [GCN_FMT_MTBUF] = gcn_dec_mem,
    [GCN_FMT_FLAT] = gcn_dec_mem,
};

/* Fewer than 16 bytes left (the end of a section or stream): the dwords
 * there are, zeros after them. */
size_t gcn_decode_short(const gcn_decoder *d, const uint8_t *bytes, size_t len,
                        uint64_t addr, gcn_insn *out)
{
    gcn_insn_clear(out, addr);
    if (len < 4) {                             /* trailing bytes: no instruction */
        out->size = (uint8_t)len;
        for (size_t i = 0; i < len; i++)
            out->words[0] |= (uint32_t)bytes[i] << (8 * i);
        return len;
    }
    size_t nw = len / 4 < 4 ? len / 4 : 4;
    uint32_t w[4];
    for (size_t i = 0; i < 4; i++)
        w[i] = i < nw ? gcn_load_le32(bytes + 4 * i) : 0;
    return gcn_decode_words(d, w, nw, addr, out);
}

size_t gcn_decode_one(const gcn_decoder *d, const uint8_t *bytes, size_t len,
                      uint64_t addr, gcn_insn *out)
{
    return gcn_decode_one_inline(d, bytes, len, addr, out);
}

const gcn_opnd *gcn_insn_field(const gcn_insn *in, gcn_field f)
{
    for (unsigned i = 0; i < in->nopnds; i++)
        if (in->op[i].field == f)
            return &in->op[i];
    return NULL;
}
