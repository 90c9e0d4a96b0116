/*
 * gcn_isa.h -- the one ISA table of gcnsim, as seen from C.
 *
 * Every instruction of gfx942 and gfx950 is one INSN() row in the generated
 * files src/decode/isa/ *.def (made by tools/isagen, committed).  This header
 * turns the rows into an enum of instruction ids, a row struct, and property
 * queries.  The decoder, the printer, the simulator dispatch and the analyzer
 * all derive from the same rows; nothing else lists instructions.
 *
 * Row columns:
 *   INSN(ID, FMT, OP942, OP950, MNEM, UNIT, FLAGS, PASSES, SIG)
 *     ID      C identifier, unique (GCN_ID_<ID>)
 *     FMT     native encoding family (gcn_fmt without the GCN_FMT_ prefix)
 *     OP942   opcode in that family on gfx942, or NONE
 *     OP950   opcode on gfx950, or NONE
 *     MNEM    LLVM mnemonic (without _e32/_e64/_sdwa/_dpp suffixes)
 *     UNIT    unit class (gcn_unit without GCN_UNIT_)
 *     FLAGS   GCN_F_* properties or'ed together (0 for none)
 *     PASSES  MFMA/SMFMAC passes (0 for non-MAI)
 *     SIG     operand signature: a family-specific string, see the .def
 *             header of each family for its grammar.
 */
#ifndef GCN_ISA_H
#define GCN_ISA_H

#include <stdint.h>

typedef enum gcn_target {
    GCN_TARGET_UNKNOWN = 0,
    GCN_TARGET_GFX90A,
    GCN_TARGET_GFX942,
    GCN_TARGET_GFX950,
} gcn_target;

/* Encoding families (native format of a row; also the format an
 * instruction instance was decoded from, see gcn_insn.enc). */
typedef enum gcn_fmt {
    GCN_FMT_INVALID = 0,
    GCN_FMT_SOP2, GCN_FMT_SOPK, GCN_FMT_SOP1, GCN_FMT_SOPC, GCN_FMT_SOPP,
    GCN_FMT_SMEM,
    GCN_FMT_VOP2, GCN_FMT_VOP1, GCN_FMT_VOPC,
    GCN_FMT_VOP3,      /* VOP3-only rows; VOP1/2/C rows promoted are enc VOP3 */
    GCN_FMT_VOP3P,     /* packed math and MAI (MFMA/SMFMAC/accvgpr) */
    GCN_FMT_DS,
    GCN_FMT_MUBUF, GCN_FMT_MTBUF,
    GCN_FMT_FLAT, GCN_FMT_GLOBAL, GCN_FMT_SCRATCH,
    GCN_FMT_VOP3PX2,   /* gfx950 128-bit pair: v_mfma_ld_scale_b32 + f8f6f4 MFMA
                        * (rows keyed by the MFMA's VOP3P opcode; instances
                        * decode with enc = GCN_FMT_VOP3P) */
    GCN_FMT_COUNT
} gcn_fmt;

typedef enum gcn_unit {
    GCN_UNIT_NONE = 0,
    GCN_UNIT_SALU, GCN_UNIT_SMEM, GCN_UNIT_BRANCH, GCN_UNIT_MSG,
    GCN_UNIT_VALU, GCN_UNIT_TRANS, GCN_UNIT_MFMA,
    GCN_UNIT_LDS, GCN_UNIT_VMEM, GCN_UNIT_FLAT,
} gcn_unit;

#define NONE 0xFFFFu

/* Property flags (FLAGS column). */
#define GCN_F_VMCNT     (1ull << 0)   /* increments vmcnt */
#define GCN_F_LGKMCNT   (1ull << 1)   /* increments lgkmcnt */
#define GCN_F_EXPCNT    (1ull << 2)   /* increments expcnt */
#define GCN_F_LOAD      (1ull << 3)   /* reads memory into registers */
#define GCN_F_STORE     (1ull << 4)   /* writes memory */
#define GCN_F_ATOMIC    (1ull << 5)
#define GCN_F_LDS_DMA   (1ull << 6)   /* memory -> LDS at M0 (also needs lds bit for MUBUF) */
#define GCN_F_RD_EXEC   (1ull << 7)
#define GCN_F_WR_EXEC   (1ull << 8)
#define GCN_F_RD_VCC    (1ull << 9)
#define GCN_F_WR_VCC    (1ull << 10)
#define GCN_F_RD_SCC    (1ull << 11)
#define GCN_F_WR_SCC    (1ull << 12)
#define GCN_F_RD_M0     (1ull << 13)
#define GCN_F_WR_M0     (1ull << 14)
#define GCN_F_TRANS     (1ull << 15)  /* transcendental VALU */
#define GCN_F_MFMA      (1ull << 16)  /* MAI: MFMA / SMFMAC */
#define GCN_F_BRANCH    (1ull << 17)  /* may change the PC */
#define GCN_F_ENDPGM    (1ull << 18)
#define GCN_F_BARRIER   (1ull << 19)
#define GCN_F_WAITCNT   (1ull << 20)
#define GCN_F_NOP       (1ull << 21)
#define GCN_F_RD_MODE   (1ull << 22)  /* float ops: round/denorm mode */
#define GCN_F_SMEM_OOO  (1ull << 23)  /* returns out of order (SMEM) */
#define GCN_F_DPP_OK    (1ull << 24)  /* may use DPP */
#define GCN_F_SDWA_OK   (1ull << 25)  /* may use SDWA */
#define GCN_F_GDS       (1ull << 26)
#define GCN_F_XDL       (1ull << 27)  /* MFMA executes on the XDL pipe */
#define GCN_F_DGEMM     (1ull << 28)  /* f64 MFMA */
#define GCN_F_SMFMAC    (1ull << 29)
#define GCN_F_ACCVGPR   (1ull << 30)  /* v_accvgpr_read/write/mov */
#define GCN_F_RD_LANESEL (1ull << 31) /* v_readlane/writelane: lane select from SGPR */
#define GCN_F_VOP3_ONLY (1ull << 32)  /* VOP1/2/C row has no 32-bit form on target */
#define GCN_F_NO_E64    (1ull << 33)  /* VOP1/2/C row has no VOP3 (e64) form */
#define GCN_F_WR_SRC0   (1ull << 34)  /* src0 (a VGPR) is written too: v_swap_b32, v_permlane*_swap */
#define GCN_F_RD_DST    (1ull << 35)  /* vdst is read too (tied to a source LLVM's printed form
                                       * folds away): SMFMAC's accumulator, src2 of v_fmac,
                                       * v_mac, v_dot*c, v_pk_fmac */

typedef struct gcn_isa_row {
    const char *id_name;   /* "V_ADD_F32" */
    uint8_t fmt;           /* gcn_fmt */
    uint16_t op[2];        /* [0] gfx942, [1] gfx950; NONE if absent */
    const char *mnem;
    uint8_t unit;          /* gcn_unit */
    uint64_t flags;
    uint8_t passes;
    const char *sig;
} gcn_isa_row;

typedef enum gcn_insn_id {
    GCN_ID_INVALID = 0,
#define INSN(ID, FMT, OP942, OP950, MNEM, UNIT, FLAGS, PASSES, SIG) GCN_ID_##ID,
#include "isa/gcn_isa.def"
#undef INSN
    GCN_ID_COUNT
} gcn_insn_id;

/* Row for an id (GCN_ID_INVALID has a row with mnem "<invalid>"). */
extern const gcn_isa_row gcn_isa_rows[GCN_ID_COUNT];

static inline const gcn_isa_row *gcn_isa_row_of(unsigned id)
{
    return &gcn_isa_rows[id < GCN_ID_COUNT ? id : 0];
}

/* Index of a target in gcn_isa_row.op[]; -1 for targets we do not decode. */
static inline int gcn_isa_target_index(gcn_target t)
{
    return t == GCN_TARGET_GFX942 ? 0 : t == GCN_TARGET_GFX950 ? 1 : -1;
}

/* Opcode -> id for a family on a target (GCN_ID_INVALID when absent). */
unsigned gcn_isa_lookup(gcn_target t, gcn_fmt fmt, unsigned opcode);

/* The first row whose mnemonic is MNEM (GCN_ID_INVALID when none): for callers that name
 * instructions by text (hand-made instruction streams in tests). */
unsigned gcn_isa_find_mnem(const char *mnem);

/* Opcode space size per family (number of opcode values). */
unsigned gcn_isa_opcode_space(gcn_fmt fmt);

const char *gcn_fmt_name(gcn_fmt f);
const char *gcn_unit_name(gcn_unit u);
const char *gcn_target_name(gcn_target t);
gcn_target gcn_target_from_name(const char *name);

#endif
