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
    GCN_FLD_COUNT
} gcn_field;

/* Operand flags. */
#define GCN_OPF_DST   0x01
#define GCN_OPF_SRC   0x02
#define GCN_OPF_NEG   0x04
#define GCN_OPF_ABS   0x08
#define GCN_OPF_SEXT  0x10

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
    uint32_t words[3];      /* raw dwords (word[1] / word[2] if present) */
    uint8_t size;           /* bytes consumed: 4, 8 or 12 (4 for invalid) */
    uint8_t enc;            /* gcn_fmt this instance was decoded from */
    uint8_t sub;            /* GCN_SUB_* below: e32/e64/dpp/sdwa variants */
    uint8_t has_literal;
    uint16_t id;            /* gcn_insn_id */
    uint16_t opcode;        /* opcode field as encoded */
    uint32_t literal;
    uint8_t nopnds;
    gcn_opnd op[GCN_MAX_OPNDS];
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
} gcn_decoder;

/* Decode the instruction at bytes[0..len).  Always fills *out and returns the
 * number of bytes consumed (>= 1 when len >= 1; 4 for an invalid dword; len
 * when fewer than 4 bytes remain).  out->id == GCN_ID_INVALID for bytes that
 * are no instruction on the decoder's target. */
size_t gcn_decode_one(const gcn_decoder *d, const uint8_t *bytes, size_t len,
                      uint64_t addr, gcn_insn *out);

/* Text output buffer (grows; no fixed limits). */
typedef struct gcn_strbuf {
    char *buf;
    size_t len, cap;
} gcn_strbuf;

void gcn_sb_init(gcn_strbuf *sb);
void gcn_sb_free(gcn_strbuf *sb);
void gcn_sb_reset(gcn_strbuf *sb);
void gcn_sb_puts(gcn_strbuf *sb, const char *s);
void gcn_sb_putc(gcn_strbuf *sb, char c);
void gcn_sb_printf(gcn_strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Print one instruction in llvm-objdump-22 syntax (no address, no bytes, no
 * trailing comment).  Invalid records print as LLVM leaves them (see
 * docs/gcndis.md). */
void gcn_print_insn(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb);

/* Operand helpers. */
const gcn_opnd *gcn_insn_field(const gcn_insn *in, gcn_field f);

/* The counter limits of an s_waitcnt (salu.c; GFX9 simm16 layout: vmcnt
 * bits 3:0 and 15:14, expcnt 6:4, lgkmcnt 11:8).  For any other
 * instruction the maxima (63, 7, 15), i.e. no wait.  Null pointers are
 * skipped. */
void gcn_waitcnt_fields(const gcn_insn *in, unsigned *vmcnt, unsigned *expcnt,
                        unsigned *lgkmcnt);

#endif
