/*
 * decode_int.h -- internals shared by the decoder's family modules.
 *
 * decode.c classifies a dword by its encoding bits and hands it to the family
 * module (salu.c, valu.c, vop3p.c, mem.c); print.c hands a record to the same
 * module's printer.  operand.c holds what several families share: 9-bit
 * source operands, register ranges, inline constants and literals.
 * Encodings are extracted with shifts and masks (gcn_bits), never C bitfields.
 */
#ifndef GCN_DECODE_INT_H
#define GCN_DECODE_INT_H

#include <assert.h>
#include <stdio.h>
#include <stdatomic.h>
#include "gcn_decode.h"

/* Bits [lo, lo+width) of a 64-bit encoding. */
static inline uint32_t gcn_bits(uint64_t w, unsigned lo, unsigned width)
{
    return (uint32_t)((w >> lo) & ((width >= 64) ? ~0ull : ((1ull << width) - 1)));
}

/* A function off the hot path (the compiler keeps its code out of the way). */
#define GCN_COLD __attribute__((cold, noinline))

/* Per-row data built at first use (a row's SIG parsed into a compact
 * struct), thread-safe and lock-free for readers: the first thread that
 * needs a row builds it, a thread arriving meanwhile waits for it.  Only
 * the rows a program meets are parsed, so start-up stays cheap.
 *     static gcn_once st[GCN_ID_COUNT];  static T data[GCN_ID_COUNT];
 *     static GCN_COLD void build_once(unsigned id) {
 *         if (gcn_once_claim(&st[id])) { build(&data[id]); gcn_once_done(&st[id]); }
 *     }
 *     if (!gcn_once_ready(&st[id])) build_once(id);
 *     ... use data[id] ... */
typedef atomic_uchar gcn_once;

static inline int gcn_once_ready(gcn_once *o)
{
    return atomic_load_explicit(o, memory_order_acquire) == 2;
}
/* 1: the caller builds the data now and then calls gcn_once_done(); 0: the
 * data is ready (built by another thread, which this call waited for). */
int gcn_once_claim(gcn_once *o);           /* isa.c */
void gcn_once_done(gcn_once *o);

/* isa.c: the opcode -> id maps per target index and family, built by
 * gcn_isa_lut_init(ti), each target at its first lookup; the decoders look opcodes up
 * inline. */
extern uint16_t *gcn_isa_lut[2][GCN_FMT_COUNT];
extern atomic_int gcn_isa_lut_ready[2];
void gcn_isa_lut_init(int ti);

/* gcn_isa_lookup() for target index ti (0 or 1) and an opcode taken from a
 * field exactly as wide as the family's opcode space. */
static inline unsigned gcn_isa_find(int ti, gcn_fmt fmt, unsigned op)
{
    if (!atomic_load_explicit(&gcn_isa_lut_ready[ti], memory_order_acquire))
        gcn_isa_lut_init(ti);
    return gcn_isa_lut[ti][fmt][op];
}

/* Classify the first dword: which family's encoding it is (GCN_FMT_INVALID if none). */
gcn_fmt gcn_classify(uint32_t w0);

/* Family decoders: w[0..nw) are the available dwords (nw >= 1, at most 4;
 * only the gfx950 VOP3PX2 pair uses a fourth).  Called by gcn_decode_one()
 * only for a target the ISA table has (gcn_isa_target_index() >= 0).
 * Fill *out (id, enc, sub, operands, mods, literal) and return the size in
 * bytes, or 0 when the encoding is invalid on the target. */
size_t gcn_dec_salu(const gcn_decoder *d, gcn_fmt fmt, const uint32_t *w, size_t nw, gcn_insn *out);
size_t gcn_dec_valu(const gcn_decoder *d, gcn_fmt fmt, const uint32_t *w, size_t nw, gcn_insn *out);
size_t gcn_dec_vop3p(const gcn_decoder *d, gcn_fmt fmt, const uint32_t *w, size_t nw, gcn_insn *out);
size_t gcn_dec_mem(const gcn_decoder *d, gcn_fmt fmt, const uint32_t *w, size_t nw, gcn_insn *out);

/* Family printers. */
void gcn_print_salu(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb);
void gcn_print_valu(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb);
void gcn_print_vop3p(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb);
void gcn_print_mem(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb);

/* ---- the decode and print entry points, inline ---------------------------
 * gcn_decode_one() and gcn_print_insn() are these; the listing loops
 * (colist.c) use them inline, which saves two calls per instruction. */

/* decode.c: the family of each value of the top 9 bits of the first dword
 * (built once by gcn_fmt_init()) and the family decoders. */
extern uint8_t gcn_fmt_by_top9[512];
extern atomic_int gcn_fmt_ready;
void gcn_fmt_init(void);
typedef size_t (*gcn_family_decoder)(const gcn_decoder *, gcn_fmt, const uint32_t *, size_t,
                                     gcn_insn *);
extern const gcn_family_decoder gcn_decoder_of[GCN_FMT_COUNT];   /* NULL: no instruction */

/* A little-endian dword (one load on little-endian hosts). */
static inline uint32_t gcn_load_le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Clear a record: everything but the operand slots, which gcn_add_opnd()
 * fills completely as operands are added (op[i] for i >= nopnds is left
 * unspecified; clearing all of them cost more than a decode). */
static inline void gcn_insn_clear(gcn_insn *out, uint64_t addr)
{
    memset(out, 0, offsetof(gcn_insn, op));
    memset(&out->m, 0, sizeof out->m);
    out->addr = addr;
}

/* Decode from the nw (1..4) dwords w[] (w[i] = 0 for i >= nw) into a
 * record cleared by gcn_insn_clear(). */
static inline size_t gcn_decode_words(const gcn_decoder *d, const uint32_t *w, size_t nw,
                                      uint64_t addr, gcn_insn *out)
{
    out->words[0] = w[0];
    if (!atomic_load_explicit(&gcn_fmt_ready, memory_order_acquire))
        gcn_fmt_init();
    gcn_fmt fmt = (gcn_fmt)gcn_fmt_by_top9[w[0] >> 23];
    gcn_family_decoder dec = gcn_decoder_of[fmt];
    size_t size = 0;
    if (dec && gcn_isa_target_index(d->target) >= 0)
        size = dec(d, fmt, w, nw, out);
    if (size == 0 || out->id == GCN_ID_INVALID) {
        gcn_insn_clear(out, addr);
        out->words[0] = w[0];
        out->size = 4;
        return 4;
    }
    /* the words the instruction uses; the others stay 0 (a mask per size,
     * one vector AND: no branches on the size, sizes mix at random) */
    static const uint32_t keep[5][4] = {
        {0, 0, 0, 0}, {~0u, 0, 0, 0}, {~0u, ~0u, 0, 0}, {~0u, ~0u, ~0u, 0}, {~0u, ~0u, ~0u, ~0u}};
    assert(size <= 16 && size % 4 == 0);  /* 4, 8, 12, or 16 for VOP3PX2 */
    const uint32_t *k = keep[size >> 2];
    for (size_t i = 0; i < 4; i++)
        out->words[i] = w[i] & k[i];
    out->size = (uint8_t)size;
    return size;
}

/* gcn_decode_one() for fewer than 16 bytes (decode.c). */
size_t gcn_decode_short(const gcn_decoder *d, const uint8_t *bytes, size_t len,
                        uint64_t addr, gcn_insn *out);

static inline __attribute__((always_inline)) size_t
gcn_decode_one_inline(const gcn_decoder *d, const uint8_t *bytes, size_t len, uint64_t addr,
                      gcn_insn *out)
{
    if (__builtin_expect(len < 16, 0))
        return gcn_decode_short(d, bytes, len, addr, out);
    gcn_insn_clear(out, addr);
    uint32_t w[4] = {gcn_load_le32(bytes), gcn_load_le32(bytes + 4), gcn_load_le32(bytes + 8),
                     gcn_load_le32(bytes + 12)};
    return gcn_decode_words(d, w, 4, addr, out);
}

/* print.c: the family printers by decoded encoding, and invalid records. */
typedef void (*gcn_family_printer)(const gcn_decoder *, const gcn_insn *, gcn_strbuf *);
extern const gcn_family_printer gcn_printer_of[GCN_FMT_COUNT];
void gcn_print_invalid(const gcn_insn *in, gcn_strbuf *sb);

static inline __attribute__((always_inline)) void
gcn_print_insn_inline(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb)
{
    if (__builtin_expect(in->id == GCN_ID_INVALID, 0)) {
        gcn_print_invalid(in, sb);
        return;
    }
    gcn_printer_of[in->enc < GCN_FMT_COUNT ? in->enc : GCN_FMT_INVALID](d, in, sb);
}

/* Add an operand to a record; returns it (NULL if full). */
static inline gcn_opnd *gcn_add_opnd(gcn_insn *in, gcn_opnd_kind kind, gcn_field field,
                                     unsigned flags, unsigned reg, unsigned nregs, gcn_dtype dt)
{
    if (in->nopnds >= GCN_MAX_OPNDS)
        return NULL;
    gcn_opnd *o = &in->op[in->nopnds++];
    o->kind = (uint8_t)kind;
    o->field = (uint8_t)field;
    o->flags = (uint8_t)flags;
    o->reg = (uint16_t)reg;
    o->nregs = (uint8_t)nregs;
    o->dtype = (uint8_t)dt;
    o->imm = 0;
    return o;
}

/* The separator before operand i of a printed instruction: " " before the
 * first, ", " before the others. */
static inline void gcn_print_sep(gcn_strbuf *sb, unsigned i)
{
    char *p = gcn_sb_room(sb, 2);
    p[0] = i ? ',' : ' ';
    p[1] = ' ';
    gcn_sb_commit(sb, p + 1 + (i != 0));
}

/* print.c: mnemonics padded to a fixed size, so that printing one is a
 * constant-size copy (a variable-length memcpy of a short string costs
 * more than printing a register); built once by gcn_mnem_init(). */
#define GCN_MNEM_PAD 48
extern char gcn_mnem_pad[GCN_ID_COUNT][GCN_MNEM_PAD];
extern uint8_t gcn_mnem_len[GCN_ID_COUNT];
extern atomic_int gcn_mnem_ready;
void gcn_mnem_init(void);

/* The row's mnemonic at a cursor (GCN_MNEM_PAD bytes of room). */
static inline char *gcn_cur_mnem(char *p, unsigned id)
{
    if (!atomic_load_explicit(&gcn_mnem_ready, memory_order_acquire))
        gcn_mnem_init();
    if (id >= GCN_ID_COUNT)
        id = 0;
    memcpy(p, gcn_mnem_pad[id], GCN_MNEM_PAD);
    return p + gcn_mnem_len[id];
}

/* Print the row's mnemonic. */
static inline void gcn_print_mnem(gcn_strbuf *sb, unsigned id)
{
    gcn_sb_commit(sb, gcn_cur_mnem(gcn_sb_room(sb, GCN_MNEM_PAD), id));
}

/* The operand of a record that came from field f (NULL if none): the
 * inline form of gcn_insn_field() for the printers. */
static inline const gcn_opnd *gcn_field_opnd(const gcn_insn *in, gcn_field f)
{
    for (unsigned i = 0; i < in->nopnds; i++)
        if (in->op[i].field == f)
            return &in->op[i];
    return NULL;
}

/* Print a register range like LLVM: v1, v[2:3], s[4:7], a0, ttmp[0:1]. */
void gcn_print_reg(gcn_strbuf *sb, gcn_opnd_kind kind, unsigned reg, unsigned nregs);

/* Register name prefixes by kind (4 bytes each, copied whole) and their
 * lengths (operand.c). */
extern const char gcn_reg_prefix[GCN_OPND_TTMP + 1][4];
extern const uint8_t gcn_reg_prefix_len[GCN_OPND_TTMP + 1];

/* ---- cursor writers ------------------------------------------------------
 * The hot paths of the printers write through a cursor p into room they
 * reserved with gcn_sb_room(sb, GCN_LINE_MAX), and close the text with
 * gcn_sb_commit(sb, p): no capacity check per piece.  Each writer returns
 * the new cursor.  Rare, long forms go back to the gcn_sb_* appenders
 * (commit, append, reserve again). */

/* Room one instruction's text may need: the longest forms are eight
 * operands each with a register-class note (under 100 bytes each) and a
 * few modifiers; the longest LLVM 22 prints is under 500 bytes. */
#define GCN_LINE_MAX 2048

/* A string literal (its length is known at compile time). */
#define GCN_CUR_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

static inline char *gcn_cur_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

/* The separator before operand i: " " before the first, ", " after. */
static inline char *gcn_cur_sep(char *p, unsigned i)
{
    p[0] = i ? ',' : ' ';
    p[1] = ' ';
    return p + 1 + (i != 0);
}

/* A register range as LLVM prints it: v1, v[2:3], s[4:7], a0, ttmp[0:1].
 * Without branches on the width (single registers and ranges mix at
 * random in code): the range form is written in any case, and for a single
 * register its brackets and second number land where the next text goes. */
static inline char *gcn_cur_reg(char *p, unsigned kind, unsigned reg, unsigned nregs)
{
    unsigned k = kind <= GCN_OPND_TTMP ? kind : GCN_OPND_SGPR;
    unsigned range = nregs > 1;
    memcpy(p, gcn_reg_prefix[k], 4);
    p += gcn_reg_prefix_len[k];
    *p = '[';
    p = gcn_put_dec(p + range, reg);
    char *single_end = p;
    *p = ':';
    p = gcn_put_dec(p + 1, reg + nregs - 1);
    *p = ']';
    return range ? p + 1 : single_end;
}

/* The decimal digits of v: gcn_put_dec() without its digit-by-digit loop
 * for 1000 to 999999 (offsets, branch targets). */
static inline char *gcn_cur_udec(char *p, unsigned v)
{
    if (v < 1000 || v >= 1000000)
        return gcn_put_dec(p, v);
    unsigned hi = v / 1000, lo = v % 1000;
    p = gcn_put_dec(p, hi);
    p[0] = (char)('0' + lo / 100);
    p[1] = (char)('0' + lo / 10 % 10);
    p[2] = (char)('0' + lo % 10);
    return p + 3;
}

/* Lower-case hex of v with "0x" (how LLVM prints most immediates). */
static inline char *gcn_cur_hex(char *p, uint64_t v)
{
    unsigned n = v ? (unsigned)(64 - __builtin_clzll(v) + 3) / 4 : 1;
    p[0] = '0';
    p[1] = 'x';
    p += 2;
    for (unsigned i = n; i-- > 0; v >>= 4)
        p[i] = "0123456789abcdef"[v & 15];
    return p + n;
}

/* Integer inline constants: encodings 128..208 (0..64, -1..-16), printed
 * the same for every operand type. */
static inline int gcn_inline_is_int(unsigned enc)
{
    return enc >= 128 && enc <= 208;
}

static inline char *gcn_cur_inline_int(char *p, unsigned enc)
{
    if (enc <= 192)
        return gcn_put_dec(p, enc - 128);
    *p = '-';
    return gcn_put_dec(p + 1, enc - 192);
}

/* gcn_print_reg() inline, for the printers' hot paths. */
static inline void gcn_put_reg(gcn_strbuf *sb, unsigned kind, unsigned reg, unsigned nregs)
{
    gcn_sb_commit(sb, gcn_cur_reg(gcn_sb_room(sb, 48), kind, reg, nregs));
}

/* Register operand kinds (SGPR, VGPR, AGPR, TTMP). */
static inline int gcn_kind_is_reg(unsigned kind)
{
    return kind >= GCN_OPND_SGPR && kind <= GCN_OPND_TTMP;
}

/* operand.c: decode a 9-bit source operand (VOP src0 / VOP3 srcN; SALU uses
 * the 8-bit subset).  Registers become SGPR/VGPR/TTMP/SPECIAL operands of
 * nregs registers; 128..208 and 240..248 INLINE; 255 a LITERAL taken from
 * lit (when have_lit is 0 the literal is missing and the function returns
 * NULL).  *used_lit is set when the literal was consumed. */
gcn_opnd *gcn_dec_src9(gcn_insn *in, gcn_field field, unsigned enc, unsigned nregs,
                       gcn_dtype dt, int have_lit, uint32_t lit, int *used_lit);

/* Print one operand as LLVM does (register, special name, inline constant
 * formatted for its dtype, literal, immediate as signed decimal). */
void gcn_print_opnd(gcn_strbuf *sb, const gcn_insn *in, const gcn_opnd *o);

/* gcn_print_opnd() with registers printed inline. */
static inline void gcn_put_opnd(gcn_strbuf *sb, const gcn_insn *in, const gcn_opnd *o)
{
    if (gcn_kind_is_reg(o->kind))
        gcn_put_reg(sb, o->kind, o->reg, o->nregs);
    else
        gcn_print_opnd(sb, in, o);
}

/* Name of a special scalar register encoding for nregs registers, or NULL. */
const char *gcn_special_name(unsigned enc, unsigned nregs);

/* Print an inline constant (enc 128..208, 240..248) for a data type. */
void gcn_print_inline(gcn_strbuf *sb, unsigned enc, gcn_dtype dt);

/* gcn_print_inline() at a cursor with GCN_CUR_INLINE_MAX bytes of room;
 * returns the end, or NULL when enc is no inline constant. */
#define GCN_CUR_INLINE_MAX 24
char *gcn_cur_inline(char *p, unsigned enc, gcn_dtype dt);

/* Whether a 32-bit literal value for dtype equals some inline constant
 * (LLVM then prints it as lit(0x...)). */
int gcn_literal_is_inlinable(uint32_t v, gcn_dtype dt);


/* ---- text output (sink.c) ------------------------------------------------
 * A listing's text collects in sb and goes to f in large writes:
 * GCN_OUT_BIG bytes at a time from a buffer backed by a transparent huge
 * page when the output is expected to be large (and THP is enabled), else
 * every GCN_FLUSH_AT bytes.  Call gcn_sink_flush() after each line. */
#define GCN_FLUSH_AT (1u << 16)
#define GCN_OUT_BIG (2u << 20)
#define GCN_OUT_ROOM 8192   /* beyond a block: a line (the buffer still grows if one is longer) */

typedef struct gcn_sink {
    gcn_strbuf sb;
    FILE *f;
    size_t flush_at;
    int big;
    int rc;                     /* -1 once a write failed */
} gcn_sink;

/* n bytes (>= GCN_OUT_BIG) aligned to GCN_OUT_BIG, the whole huge pages
 * of them to be backed by transparent huge pages; NULL when THP is not
 * usable here (or no memory).  free() releases them. */
void *gcn_big_alloc(size_t n);
/* Give sb room for about cap (>= GCN_OUT_BIG) bytes in huge-page-aligned
 * memory; returns 1, or 0 (sb untouched) when that is not possible. */
int gcn_sb_big(gcn_strbuf *sb, size_t cap);
/* expect: about how many bytes will be written (decides the block size). */
void gcn_sink_open(gcn_sink *k, FILE *f, uint64_t expect);
/* Write n bytes straight to f (after what was flushed before). */
void gcn_sink_write(gcn_sink *k, const char *p, size_t n);
/* Write out what is due: GCN_OUT_BIG bytes (the rest moves to the front),
 * or everything. */
void gcn_sink_flush_now(gcn_sink *k);
static inline void gcn_sink_flush(gcn_sink *k)
{
    if (k->sb.len >= k->flush_at)
        gcn_sink_flush_now(k);
}
/* Write the rest, free the buffer, flush f; 0, or -1 if a write failed. */
int gcn_sink_close(gcn_sink *k);

#endif
