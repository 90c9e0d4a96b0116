/*
 * gcn_mfma.h -- the matrix-core (MAI) instructions of gfx942 and gfx950 as pure
 * functions on register values: every v_mfma_* / v_smfmac_* / v_mfma_scale_* row of
 * the ISA table, one parameterised implementation (src/sim/mfma.c) with the register
 * layouts of the AMD Matrix Instruction Calculator and the numerics of docs/mfma.md
 * (src/sim/mfma_num.c, shared with the kernels' C references).
 *
 * Register values are passed lane-major per register: operand X with R registers is
 * uint32_t X[R * 64], X[r * 64 + lane] = lane `lane` of the operand's r-th register
 * (the first register of the tuple is r = 0).  The caller (the simulator) reads the
 * VGPRs / AGPRs named by the decoded record (vop3p.c header: vdst = D, src0 = A,
 * src1 = B, src2 = C, or for SMFMAC the index VGPR; acc bits choose AGPRs) and expands
 * an inline constant / literal C into every lane of every register (for f64 C: low
 * word in even, high word in odd registers).
 *
 * EXEC: the matrix core ignores it (AMD CDNA4 ISA 7.1.5: "Execution Mask: ignores exec
 * mask ... forces it to 1 for all threads"; the same on CDNA3): all 64 lanes of D are
 * written.  The exec argument is accepted for symmetry and not used.
 */
#ifndef GCN_MFMA_H
#define GCN_MFMA_H

#include <stdint.h>
#include "gcn_decode.h"
#include "gcn_mfma_num.h"

/* What an MFMA/SMFMAC instance does (resolved for target and modifiers). */
typedef struct gcn_mfma_info {
    unsigned m, n, k, blocks;      /* per block: D[m][n] = A[m][k] * B[k][n] + C */
    unsigned regs_a, regs_b;       /* 32-bit registers per lane of A and B */
    unsigned regs_c, regs_d;       /* of C and D (SMFMAC: C is D, regs_c = regs_d) */
    gcn_mfma_type ta, tb, tc;      /* element types (tc is also D's) */
    unsigned sparse;               /* SMFMAC: A holds K/2 values, src2 = index VGPR */
    unsigned scaled;               /* v_mfma_scale_*: scale_a/scale_b operands */
    unsigned cbsz_ok, blgp_ok;     /* CBSZ/ABID broadcast, BLGP lane patterns apply */
    unsigned ignored_mods;         /* modifier bits set that this instruction ignores
                                      (GCN_MFMA_IGN_*; the simulator may warn) */
} gcn_mfma_info;

#define GCN_MFMA_IGN_CBSZ 1u
#define GCN_MFMA_IGN_ABID 2u
#define GCN_MFMA_IGN_BLGP 4u

/* Fill *out for a decoded MFMA/SMFMAC on target t.  Returns 0, or -1 (with a message in
 * err[errlen] when err is not NULL) for an instruction that is no MAI matrix op, does
 * not exist on t, or has an invalid f8f6f4 format selector. */
int gcn_mfma_info_get(const gcn_insn *in, gcn_target t, gcn_mfma_info *out, char *err,
                      size_t errlen);

/* All operands of one execution. */
typedef struct gcn_mfma_operands {
    const uint32_t *a;        /* [regs_a * 64] */
    const uint32_t *b;        /* [regs_b * 64] */
    const uint32_t *c;        /* [regs_c * 64]; SMFMAC: the accumulator (old D) */
    const uint32_t *idx;      /* SMFMAC: [64], the src2 index VGPR */
    const uint32_t *scale_a;  /* v_mfma_scale: [64], scale VGPR of A (or the constant
                                 in every lane); NULL = no scaling */
    const uint32_t *scale_b;
    uint32_t *d;              /* [regs_d * 64] out; may alias c */
} gcn_mfma_operands;

/* Execute.  Returns 0, or -1 as gcn_mfma_info_get. */
int gcn_mfma_run(const gcn_insn *in, gcn_target t, const gcn_mfma_operands *ops,
                 char *err, size_t errlen);

/* The narrow interface: srcA/srcB/srcC are the values of the record's src0/src1/src2
 * operands, dst those of vdst.  MFMA: dst = A*B + C.  SMFMAC: srcC is the index VGPR
 * (src2) and dst is read (the accumulator C, tied to D) and written.  Scaled MFMAs need
 * the scale operands: use gcn_mfma_run (here they count as 1.0).  exec is ignored (see
 * above).  Returns 0 or -1. */
int gcn_mfma_exec(const gcn_insn *in, gcn_target t, const uint32_t *srcA,
                  const uint32_t *srcB, const uint32_t *srcC, uint32_t *dst, uint64_t exec);

/* Register layouts (the calculator's mapping), for tests, tools and teaching.
 * Where element [blk][row][col] of operand `which` ('A': A[i][k], 'B': B[k][j],
 * 'C'/'D': [i][j], 'K': SMFMAC index nibble of A[i][k]) lives under the instance's
 * modifiers: register, lane, first bit and width.  For 'A'/'B' with CBSZ/ABID/BLGP this
 * is where the element the matrix core uses for that block is read from.  SMFMAC 'A'
 * gives the bits of the element's compressed 4-group (its two stored values: width =
 * 2 * element bits).  Returns 0, or -1
 * for coordinates out of range. */
typedef struct gcn_mfma_place {
    unsigned reg, lane, bit, width;
    int neg;                  /* f64 BLGP negation applies */
} gcn_mfma_place;
int gcn_mfma_layout(const gcn_insn *in, gcn_target t, char which, unsigned blk,
                    unsigned row, unsigned col, gcn_mfma_place *out);

#endif
