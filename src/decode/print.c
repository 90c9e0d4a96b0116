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

char gcn_mnem_pad[GCN_ID_COUNT][GCN_MNEM_PAD];
uint8_t gcn_mnem_len[GCN_ID_COUNT];
atomic_int gcn_mnem_ready;
static pthread_once_t mnem_once = PTHREAD_ONCE_INIT;

static void mnem_build(void)
{
    for (unsigned id = 0; id < GCN_ID_COUNT; id++) {
        const char *m = gcn_isa_rows[id].mnem;
        size_t n = strlen(m);
        assert(n < GCN_MNEM_PAD);
        memcpy(gcn_mnem_pad[id], m, n);
        gcn_mnem_len[id] = (uint8_t)n;
    }
    atomic_store_explicit(&gcn_mnem_ready, 1, memory_order_release);
}

void gcn_mnem_init(void)
{
    pthread_once(&mnem_once, mnem_build);
}

/* The family printer of each decoded encoding (mem.c prints the rest). */
const gcn_family_printer gcn_printer_of[GCN_FMT_COUNT] = {
    [GCN_FMT_INVALID] = gcn_print_mem,
    [GCN_FMT_SOP2] = gcn_print_salu, [GCN_FMT_SOPK] = gcn_print_salu,
    [GCN_FMT_SOP1] = gcn_print_salu, [GCN_FMT_SOPC] = gcn_print_salu,
    [GCN_FMT_SOPP] = gcn_print_salu, [GCN_FMT_SMEM] = gcn_print_salu,
    [GCN_FMT_VOP2] = gcn_print_valu, [GCN_FMT_VOP1] = gcn_print_valu,
    [GCN_FMT_VOPC] = gcn_print_valu, [GCN_FMT_VOP3] = gcn_print_valu,
    [GCN_FMT_VOP3P] = gcn_print_vop3p,
    [GCN_FMT_DS] = gcn_print_mem, [GCN_FMT_MUBUF] = gcn_print_mem,
    [GCN_FMT_MTBUF] = gcn_print_mem, [GCN_FMT_FLAT] = gcn_print_mem,
    [GCN_FMT_GLOBAL] = gcn_print_mem, [GCN_FMT_SCRATCH] = gcn_print_mem,
    [GCN_FMT_VOP3PX2] = gcn_print_mem,
};

void gcn_print_invalid(const gcn_insn *in, gcn_strbuf *sb)
{
    if (in->size < 4) {
        gcn_sb_puts(sb, ".byte ");
        for (unsigned i = 0; i < in->size; i++)
            gcn_sb_printf(sb, "%s0x%02x", i ? ", " : "", (in->words[0] >> (8 * i)) & 0xff);
    } else {
        gcn_sb_puts(sb, ".long 0x");
        gcn_sb_puthex(sb, in->words[0], 8);
    }
}

void gcn_print_insn(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb)
{
    gcn_print_insn_inline(d, in, sb);
}
