/*
 * gcn_decode.h -- instruction records and the decode/print API.
 *
 * gcn_decode_one() turns the bytes at one address into a gcn_insn: the row id
 * from the ISA table, the encoding it was found in, its operands in LLVM's
 * printing order (each tagged with the field it came from, so the simulator
 * and analyzer can ask for "src0" or "vdst" without knowing the format), and
 * the modifier fields.  Decoding never reads past the given length and never
 * fails hard: bytes that are no instruction give id GCN_ID_INVALID.
 *
 * gcn_print_insn() prints a record exactly as llvm-objdump-22 prints it.
 */
#ifndef GCN_DECODE_H
#define GCN_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "gcn_isa.h"

/* Operand kinds. */
typedef enum gcn_opnd_kind {
    GCN_OPND_NONE = 0,
    GCN_OPND_SGPR,      /* reg = first SGPR, nregs */
    GCN_OPND_VGPR,      /* reg = first VGPR */
    GCN_OPND_AGPR,      /* reg = first AGPR */
    GCN_OPND_TTMP,      /* reg = first ttmp */
    GCN_OPND_SPECIAL,   /* reg = 9-bit source encoding (106 vcc_lo, 126 exec_lo, 124 m0, 253 scc, ...) */
    GCN_OPND_INLINE,    /* inline constant: reg = encoding (128..208, 240..248) */
    GCN_OPND_LITERAL,   /* 32-bit literal: imm = insn->literal */
    GCN_OPND_IMM,       /* immediate instruction field (simm16, offset, ...) */
    GCN_OPND_LABEL,     /* branch target: imm = signed word offset, addr in insn */
} gcn_opnd_kind;

/* Which field an operand came from (the simulator asks by field). */
typedef enum gcn_field {
    GCN_FLD_NONE = 0,
    GCN_FLD_SDST, GCN_FLD_SSRC0, GCN_FLD_SSRC1, GCN_FLD_SIMM16,
    GCN_FLD_VDST, GCN_FLD_SDST_VOP3B, /* carry-out / vcc-like dst */
    GCN_FLD_SRC0, GCN_FLD_SRC1, GCN_FLD_SRC2,
    GCN_FLD_VADDR, GCN_FLD_VDATA, GCN_FLD_SRSRC, GCN_FLD_SOFFSET, GCN_FLD_SADDR,
    GCN_FLD_SBASE, GCN_FLD_SDATA, GCN_FLD_OFFSET,
    GCN_FLD_DATA0, GCN_FLD_DATA1, GCN_FLD_ADDR,
    GCN_FLD_VCC_IMPLICIT,    /* printed vcc operand of VOP2/VOPC e32 forms */
    GCN_FLD_SCALE_SRC0, GCN_FLD_SCALE_SRC1, /* gfx950 v_mfma_scale_*: scale of A, B */
    GCN_FLD_COUNT
} gcn_field;

/* Operand flags. */
#define GCN_OPF_DST   0x01
#define GCN_OPF_SRC   0x02
#define GCN_OPF_NEG   0x04
#define GCN_OPF_ABS   0x08
#define GCN_OPF_SEXT  0x10
#define GCN_OPF_BADREG 0x20   /* register of a kind the field's class does not allow
                                 (LLVM prints an "Invalid register" comment) */
#define GCN_OPF_BADIMM 0x40   /* constant in a register-only field ("Invalid immediate") */
#define GCN_OPF_MISALIGN 0x80 /* VGPR tuple not 2-aligned (gfx90a+ "_Align2" classes) */

/* Data types of an operand, for constants and for the simulator. */
typedef enum gcn_dtype {
    GCN_DT_NONE = 0,
    GCN_DT_B16, GCN_DT_I16, GCN_DT_U16, GCN_DT_F16, GCN_DT_BF16,
    GCN_DT_B32, GCN_DT_I32, GCN_DT_U32, GCN_DT_F32,
    GCN_DT_B64, GCN_DT_I64, GCN_DT_U64, GCN_DT_F64,
    GCN_DT_V2F16, GCN_DT_V2I16, GCN_DT_V2BF16, GCN_DT_V2F32, GCN_DT_V2B32,
    GCN_DT_B128, GCN_DT_ANY,
} gcn_dtype;

typedef struct gcn_opnd {
    uint8_t kind;    /* gcn_opnd_kind */
    uint8_t field;   /* gcn_field */
    uint8_t flags;   /* GCN_OPF_* */
    uint8_t nregs;   /* 32-bit registers covered (register operands) */
    uint8_t dtype;   /* gcn_dtype */
    uint16_t reg;
    int64_t imm;
} gcn_opnd;

/* Modifier fields; only those of the instruction's encoding are meaningful. */
typedef struct gcn_mods {
    /* VOP3 / VOP3P */
    uint8_t clamp, omod;
    uint8_t op_sel, op_sel_hi, neg_lo, neg_hi;   /* bit i = source i (op_sel bit 3 = dst) */
    /* MAI */
    uint8_t cbsz, abid, blgp, acc_cd;
    /* DPP */
    uint16_t dpp_ctrl;
    uint8_t row_mask, bank_mask, bound_ctrl, fi;
    /* SDWA */
    uint8_t dst_sel, dst_unused, src0_sel, src1_sel;
    /* memory */
    int32_t offset;            /* MUBUF/MTBUF/FLAT/SMEM/DS offset (DS: offset16) */
    uint8_t offset0, offset1;  /* DS two-address forms */
    uint8_t offen, idxen, lds, gds, tfe, addr64;
    uint8_t glc, slc, nt, sc0, sc1; /* cache policy bits as encoded */
    uint8_t dfmt, nfmt;        /* MTBUF format */
    uint8_t imm_offset_mode;   /* SMEM: imm bit */
    uint8_t soe;               /* SMEM: soffset enable */
} gcn_mods;

#define GCN_MAX_OPNDS 8

typedef struct gcn_insn {
    uint64_t addr;          /* byte address (offset in .text or raw stream) */
    uint32_t words[4];      /* raw dwords (word[1..3] if present) */
    uint8_t size;           /* bytes consumed: 4, 8, 12 or 16 (4 for invalid;
                             * 16 = gfx950 VOP3PX2 scaled MFMA) */
    uint8_t enc;            /* gcn_fmt this instance was decoded from */
    uint8_t sub;            /* GCN_SUB_* below: e32/e64/dpp/sdwa variants */
    uint8_t has_literal;
    uint16_t id;            /* gcn_insn_id */
    uint16_t opcode;        /* opcode field as encoded */
    uint32_t literal;
    uint8_t nopnds;
    gcn_opnd op[GCN_MAX_OPNDS];   /* op[0..nopnds); later slots are unspecified */
    gcn_mods m;
} gcn_insn;

/* Sub-encodings (suffixes LLVM prints). */
enum {
    GCN_SUB_NONE = 0,
    GCN_SUB_E32,   /* VOP1/2/C 32-bit form */
    GCN_SUB_E64,   /* VOP3 form */
    GCN_SUB_DPP,
    GCN_SUB_SDWA,
};

typedef struct gcn_decoder {
    gcn_target target;
    /* Optional symbolizer for branch targets (as llvm-objdump's
     * AMDGPUSymbolizer does): the name of an STT_NOTYPE symbol at exactly
     * this address, or NULL to print the number. */
    const char *(*label_name)(void *ctx, uint64_t target);
    void *label_ctx;
} gcn_decoder;

/* Decode the instruction at bytes[0..len).  Always fills *out and returns the
 * number of bytes consumed (>= 1 when len >= 1; 4 for an invalid dword; len
 * when fewer than 4 bytes remain).  out->id == GCN_ID_INVALID for bytes that
 * are no instruction on the decoder's target. */
size_t gcn_decode_one(const gcn_decoder *d, const uint8_t *bytes, size_t len,
                      uint64_t addr, gcn_insn *out);

/* The bits an inline-constant operand (GCN_OPND_INLINE: encoding enc, 128..208 or
 * 240..248) stands for as an operand of type dt: the integers -16..64 at the operand's
 * width, 0.5, -0.5 ... -4.0 and 1/(2*pi) in its float format (f16, bf16, f32, f64; 16-bit
 * integer operands take the f16 patterns, 64-bit integer ones the f64 ones), replicated
 * into both halves of a packed operand; 0 for any other encoding (AMD CDNA3 ISA "Inline
 * constants"; LLVM SIInstrInfo, AMDGPUInstPrinter). */
uint64_t gcn_inline_value(unsigned enc, gcn_dtype dt);

/* Text output buffer (grows; no fixed limits).  buf is NUL-terminated
 * after every append (once anything was appended).
 *
 * The appenders below are the hot path of the printers (a code object
 * listing appends a dozen pieces per instruction), so they are inline: a
 * capacity check, a copy, and a call to gcn_sb_grow() only when the buffer
 * must grow.  gcn_sb_printf() is for cold paths (headers, summaries). */
typedef struct gcn_strbuf {
    char *buf;
    size_t len, cap;
} gcn_strbuf;

/* The library's error messages: vsnprintf into a caller's buffer err of n bytes. */
void gcn_seterr(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

void gcn_sb_init(gcn_strbuf *sb);
void gcn_sb_free(gcn_strbuf *sb);
void gcn_sb_reset(gcn_strbuf *sb);
/* Make room for need more bytes and the NUL (slow path of the appenders). */
void gcn_sb_grow(gcn_strbuf *sb, size_t need) __attribute__((cold));
void gcn_sb_printf(gcn_strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Room for need more bytes plus the NUL; returns where they go. */
static inline char *gcn_sb_room(gcn_strbuf *sb, size_t need)
{
    if (sb->len + need + 1 > sb->cap)
        gcn_sb_grow(sb, need);
    return sb->buf + sb->len;
}

/* Append n bytes of s. */
static inline void gcn_sb_putn(gcn_strbuf *sb, const char *s, size_t n)
{
    char *p = gcn_sb_room(sb, n);
    memcpy(p, s, n);
    p[n] = 0;
    sb->len += n;
}

/* Append a string (the length of a literal folds at compile time). */
static inline void gcn_sb_puts(gcn_strbuf *sb, const char *s)
{
    gcn_sb_putn(sb, s, strlen(s));
}

static inline void gcn_sb_putc(gcn_strbuf *sb, char c)
{
    char *p = gcn_sb_room(sb, 1);
    p[0] = c;
    p[1] = 0;
    sb->len++;
}

/* Decimal text of 0..999: the digits, then the digit count in byte 3
 * (strbuf.c). */
extern const char gcn_dec3_tab[1000][4];

/* Write the decimal digits of v at p (no NUL); returns the end.  Numbers
 * below 1000 (register numbers, most immediates) are one table copy; longer
 * ones are counted, then written from the last digit back (no array on the
 * stack: under AddressSanitizer every caller that inlines one allocates a
 * frame for it, on every call). */
static inline char *gcn_put_dec(char *p, uint64_t v)
{
    if (__builtin_expect(v < 1000, 1)) {
        memcpy(p, gcn_dec3_tab[v], 4);  /* 4 bytes of room; byte 3 is overwritten next */
        return p + gcn_dec3_tab[v][3];
    }
    size_t n = 4;
    for (uint64_t x = v / 10000; x; x /= 10)
        n++;
    char *e = p + n;
    do {
        *--e = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p + n;
}

/* Close an append made by writing directly at gcn_sb_room()'s pointer:
 * end is one past the last byte written. */
static inline void gcn_sb_commit(gcn_strbuf *sb, char *end)
{
    *end = 0;
    sb->len = (size_t)(end - sb->buf);
}

/* Fast appenders for the hot printing paths (no printf): decimal, signed
 * decimal, and lower-case hex with at least mindigits digits (no "0x"). */
static inline void gcn_sb_putu(gcn_strbuf *sb, uint64_t v)
{
    gcn_sb_commit(sb, gcn_put_dec(gcn_sb_room(sb, 20), v));
}

static inline void gcn_sb_puti(gcn_strbuf *sb, int64_t v)
{
    if (v < 0) {
        gcn_sb_putc(sb, '-');
        gcn_sb_putu(sb, (uint64_t)0 - (uint64_t)v);
    } else {
        gcn_sb_putu(sb, (uint64_t)v);
    }
}

static inline void gcn_sb_puthex(gcn_strbuf *sb, uint64_t v, unsigned mindigits)
{
    unsigned n = v ? (unsigned)(64 - __builtin_clzll(v) + 3) / 4 : 1;
    if (n < mindigits)
        n = mindigits > 16 ? 16 : mindigits;
    char *p = gcn_sb_room(sb, n);
    for (unsigned i = n; i-- > 0; v >>= 4)
        p[i] = "0123456789abcdef"[v & 15];
    p[n] = 0;
    sb->len += n;
}

/* "0x" and lower-case hex: how LLVM prints most immediates. */
static inline void gcn_sb_put0x(gcn_strbuf *sb, uint64_t v)
{
    gcn_sb_putn(sb, "0x", 2);
    gcn_sb_puthex(sb, v, 1);
}

/* Print one instruction in llvm-objdump-22 syntax (no address, no bytes, no
 * trailing comment).  Invalid records print as LLVM leaves them (see
 * docs/gcndis.md). */
void gcn_print_insn(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb);

/* Operand helpers. */
const gcn_opnd *gcn_insn_field(const gcn_insn *in, gcn_field f);

/* The row's GCN_F_* flags narrowed to this instance (mem.c): a MUBUF load
 * without its lds bit is no LDS DMA and reads no M0; an atomic without sc0
 * returns nothing (no GCN_F_LOAD); a DS instruction with its gds bit set
 * uses GDS and reads M0.  Other families: the row's flags. */
uint64_t gcn_insn_flags(const gcn_insn *in);

/* The wait counters an instruction increments: GCN_F_VMCNT / GCN_F_LGKMCNT of its flags
 * (gcn_insn_flags, or a row's).  The one source of that fact for the simulator and the
 * analyzer: every memory row carries its counters (tools/isagen/mem.py, salu.py for SMEM
 * and the messages); FLAT rows carry both, the access may go to LDS or to memory. */
static inline uint64_t gcn_insn_counters(uint64_t flags)
{
    return flags & (GCN_F_VMCNT | GCN_F_LGKMCNT);
}
/* ---- register def/use (src/decode/regs.c) -------------------------------
 * A register set: scalar registers by their 7-bit encoding (s0..s101 at
 * 0..101, flat_scratch 102/103, xnack_mask 104/105, vcc 106/107, ttmp0..15
 * 108..123, m0 124, exec 126/127) with SCC at the otherwise unused index 125;
 * vector registers v0..v255 at 0..255 and a0..a255 at 256..511. */
typedef struct gcn_regset {
    uint64_t s[2];
    uint64_t v[8];
} gcn_regset;

#define GCN_RS_VCC   106u
#define GCN_RS_TTMP0 108u
#define GCN_RS_M0    124u
#define GCN_RS_SCC   125u
#define GCN_RS_EXEC  126u
#define GCN_RS_AGPR0 256u

void gcn_rs_clear(gcn_regset *rs);
void gcn_rs_add_s(gcn_regset *rs, unsigned first, unsigned n);  /* scalar indices */
void gcn_rs_add_v(gcn_regset *rs, unsigned first, unsigned n);  /* vector indices (AGPR: +256) */
void gcn_rs_or(gcn_regset *dst, const gcn_regset *a);
void gcn_rs_and(gcn_regset *dst, const gcn_regset *a, const gcn_regset *b);
void gcn_rs_andnot(gcn_regset *dst, const gcn_regset *a);       /* dst &= ~a */
bool gcn_rs_empty(const gcn_regset *rs);
bool gcn_rs_intersects(const gcn_regset *a, const gcn_regset *b);
bool gcn_rs_equal(const gcn_regset *a, const gcn_regset *b);
bool gcn_rs_has_s(const gcn_regset *rs, unsigned i);
bool gcn_rs_has_v(const gcn_regset *rs, unsigned i);
/* Print as LLVM names register ranges: "v[2:3], s7, vcc, m0, scc". */
void gcn_rs_format(const gcn_regset *rs, gcn_strbuf *sb);

/* The scalar registers an instruction reads and writes without naming them as operands,
 * from its flags F (gcn_insn_flags for the instance; a record without a row passes its
 * own): VCC, M0, EXEC and SCC (GCN_RS_* numbering), the reads first, then the writes, each
 * in that order.  An LDS-DMA instance reads M0 (the LDS address); a MUBUF/MTBUF row's M0
 * read counts only with the lds bit set.  Fills out[0..n), n <= GCN_IMPLICIT_MAX, returns n.
 * The one expansion of implicit registers: gcn_insn_regs uses it, and so does the
 * simulator's pre-decode (src/sim/prog.c). */
#define GCN_IMPLICIT_MAX 8
typedef struct gcn_implicit {
    uint8_t write;              /* 0 read, 1 written */
    uint8_t reg, n;             /* first register (GCN_RS_*), count */
} gcn_implicit;
unsigned gcn_insn_implicit(const gcn_insn *in, uint64_t f, gcn_implicit *out);

/* Registers an instruction reads (uses), writes when it executes (defs) and
 * writes later, when its memory counter retires it (async_defs: the results
 * of loads and returning atomics counted by vmcnt/lgkmcnt).  Operands give
 * the explicit registers (by their DST/SRC flags), the instance's flags
 * (gcn_insn_flags) the implicit EXEC/VCC/SCC/M0 ones.  Any output pointer
 * may be NULL. */
void gcn_insn_regs(const gcn_insn *in, gcn_regset *uses, gcn_regset *defs,
                   gcn_regset *async_defs);
/* The same with explicit row flags (for records whose id has no row yet,
 * and for unit tests). */
void gcn_insn_regs_flags(const gcn_insn *in, uint64_t row_flags, gcn_regset *uses,
                         gcn_regset *defs, gcn_regset *async_defs);

/* MAI (vop3p.c).  Shape of an MFMA/SMFMAC: the instruction computes
 * `blocks` independent M x N x K products (D = A*B + C per block; for SMFMAC
 * K is the dense K).  Returns 0, or -1 when in is no MFMA/SMFMAC. */
int gcn_mfma_shape(const gcn_insn *in, unsigned *m, unsigned *n, unsigned *k,
                   unsigned *blocks);
/* Passes (issue cycles / 4) of an MFMA/SMFMAC on the decoder's target, as
 * LLVM 22's scheduling model counts them (SISchedule.td; also resolves the
 * gfx950 f8f6f4 variants by cbsz/blgp).  0 for other instructions. */
unsigned gcn_mfma_passes(const gcn_decoder *d, const gcn_insn *in);
/* The counter limits of an s_waitcnt (salu.c; GFX9 simm16 layout: vmcnt
 * bits 3:0 and 15:14, expcnt 6:4, lgkmcnt 11:8).  For any other
 * instruction the maxima (63, 7, 15), i.e. no wait.  Null pointers are
 * skipped. */
void gcn_waitcnt_fields(const gcn_insn *in, unsigned *vmcnt, unsigned *expcnt,
                        unsigned *lgkmcnt);

/* The scalar decoder's compiled tables (src/decode/salu_tabs.inc) against what the
 * decoder's own code makes (tests/decode/test_salu): the number of entries that differ, each
 * named on rep; gcn_salu_tabs_write writes the file's text anew (-1: out of memory). */
unsigned gcn_salu_tabs_check(FILE *rep);
int gcn_salu_tabs_write(FILE *out);
/* The same for the VALU decoder's operand tables (src/decode/valu_tabs.inc,
 * tests/decode/test_valu); gcn_valu_tabs_write only before the process decodes its first
 * VALU row (else -1). */
unsigned gcn_valu_tabs_check(FILE *rep);
int gcn_valu_tabs_write(FILE *out);
/* The same for the memory decoder's scalar operand tables (src/decode/mem_tabs.inc,
 * tests/decode/test_mem). */
unsigned gcn_mem_tabs_check(FILE *rep);
int gcn_mem_tabs_write(FILE *out);

#endif
