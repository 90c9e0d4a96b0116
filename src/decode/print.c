/*
 * print.c -- print a decoded instruction in llvm-objdump-22's syntax by
 * dispatching to the family printer.  An invalid dword prints as LLVM's
 * objdump leaves it: ".long 0xXXXXXXXX"; trailing bytes (fewer than 4) as
 * ".byte 0xXX, ...".
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>
#include "decode_int.h"

/* Mnemonics padded to a fixed size, so that printing one is a constant-size
 * copy (a variable-length memcpy of a short string costs more than the rest
 * of printing a register). */
#define MNEM_PAD 48
static char mnem_pad[GCN_ID_COUNT][MNEM_PAD];
static uint8_t mnem_len[GCN_ID_COUNT];
static pthread_once_t mnem_once = PTHREAD_ONCE_INIT;
static atomic_int mnem_ready;

static void mnem_build(void)
{
    for (unsigned id = 0; id < GCN_ID_COUNT; id++) {
        const char *m = gcn_isa_rows[id].mnem;
        size_t n = strlen(m);
        assert(n < MNEM_PAD);
        memcpy(mnem_pad[id], m, n);
        mnem_len[id] = (uint8_t)n;
    }
    atomic_store_explicit(&mnem_ready, 1, memory_order_release);
}

void gcn_print_mnem(gcn_strbuf *sb, unsigned id)
{
    if (!atomic_load_explicit(&mnem_ready, memory_order_acquire))
        pthread_once(&mnem_once, mnem_build);
    if (id >= GCN_ID_COUNT)
        id = 0;
    char *p = gcn_sb_room(sb, MNEM_PAD);
    memcpy(p, mnem_pad[id], MNEM_PAD);
    gcn_sb_commit(sb, p + mnem_len[id]);
}

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
