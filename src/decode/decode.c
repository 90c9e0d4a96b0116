/*
 * decode.c -- classify an instruction's first dword by its encoding bits and
 * dispatch to the family module.  The classification follows the GFX9/CDNA
 * encoding tables (LLVM SIInstrFormats.td / *Instructions.td "Enc*" classes;
 * AMD CDNA3 ISA guide, chapter "Microcode formats").
 */
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>
#include "decode_int.h"

/* gcn_once states: 0 not built, 1 being built, 2 ready. */
int gcn_once_claim(gcn_once *o)
{
    unsigned char expect = 0;
    if (atomic_compare_exchange_strong_explicit(o, &expect, 1, memory_order_acquire,
                                                memory_order_acquire))
        return 1;
    while (atomic_load_explicit(o, memory_order_acquire) != 2)
        sched_yield();                  /* another thread parses this row (microseconds) */
    return 0;
}

void gcn_once_done(gcn_once *o)
{
    atomic_store_explicit(o, 2, memory_order_release);
}

/* The family is fixed by the top 9 bits of the first dword: the decoder
 * looks it up in a table built once from gcn_classify() (a chain of
 * data-dependent branches that mispredicts on a mixed instruction stream). */
static uint8_t fmt_by_top9[512];
static pthread_once_t fmt_once = PTHREAD_ONCE_INIT;

static void fmt_table_build(void)
{
    for (uint32_t t = 0; t < 512; t++)
        fmt_by_top9[t] = (uint8_t)gcn_classify(t << 23);
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

/* A little-endian dword (one load on little-endian hosts). */
static inline uint32_t load_le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Clear a record: everything but the operand slots, which gcn_add_opnd()
 * fills completely as operands are added (op[i] for i >= nopnds is left
 * unspecified; clearing all of them cost more than a decode). */
static inline void insn_clear(gcn_insn *out, uint64_t addr)
{
    memset(out, 0, offsetof(gcn_insn, op));
    memset(&out->m, 0, sizeof out->m);
    out->addr = addr;
}

size_t gcn_decode_one(const gcn_decoder *d, const uint8_t *bytes, size_t len,
                      uint64_t addr, gcn_insn *out)
{
    insn_clear(out, addr);
    if (len < 4) {                             /* trailing bytes: no instruction */
        out->size = (uint8_t)len;
        for (size_t i = 0; i < len; i++)
            out->words[0] |= (uint32_t)bytes[i] << (8 * i);
        return len;
    }
    uint32_t w[4] = {0, 0, 0, 0};
    size_t nw = len / 4 > 4 ? 4 : len / 4;   /* 16 bytes: gfx950 VOP3PX2 */
    for (size_t i = 0; i < nw; i++)
        w[i] = load_le32(bytes + 4 * i);
    out->words[0] = w[0];
    pthread_once(&fmt_once, fmt_table_build);
    gcn_fmt fmt = (gcn_fmt)fmt_by_top9[w[0] >> 23];
    size_t size = 0;
    if (gcn_isa_target_index(d->target) >= 0) {
        switch (fmt) {
        case GCN_FMT_SOP2: case GCN_FMT_SOPK: case GCN_FMT_SOP1: case GCN_FMT_SOPC:
        case GCN_FMT_SOPP: case GCN_FMT_SMEM:
            size = gcn_dec_salu(d, fmt, w, nw, out);
            break;
        case GCN_FMT_VOP2: case GCN_FMT_VOP1: case GCN_FMT_VOPC: case GCN_FMT_VOP3:
            size = gcn_dec_valu(d, fmt, w, nw, out);
            break;
        case GCN_FMT_VOP3P:
            size = gcn_dec_vop3p(d, fmt, w, nw, out);
            break;
        case GCN_FMT_DS: case GCN_FMT_MUBUF: case GCN_FMT_MTBUF: case GCN_FMT_FLAT:
            size = gcn_dec_mem(d, fmt, w, nw, out);
            break;
        default:
            break;
        }
    }
    if (size == 0 || out->id == GCN_ID_INVALID) {
        insn_clear(out, addr);
        out->words[0] = w[0];
        out->size = 4;
        return 4;
    }
    for (size_t i = 1; i < size / 4 && i < 4; i++)
        out->words[i] = w[i];
    out->size = (uint8_t)size;
    return size;
}

const gcn_opnd *gcn_insn_field(const gcn_insn *in, gcn_field f)
{
    for (unsigned i = 0; i < in->nopnds; i++)
        if (in->op[i].field == f)
            return &in->op[i];
    return NULL;
}
