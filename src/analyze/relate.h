/*
 * relate.h -- linear relations between scalar values, for the path facts
 * (relate.c): proves that no run takes an edge and then a given successor
 * of the block it enters, where the zone of paths.c cannot.
 *
 * The zone holds bounds on x - y.  A kernel that splits its work into two
 * items computes the item count and a per-item clamp from one kernel
 * argument n by divisions by different powers of two (ceil(n / 256) and
 * ceil(n / 128): AITER's gfx950 fmha_v3_bwd), and the route that would
 * race needs both a second item and a clamp that the first item cannot
 * have: ceil(n / 128) >= 2 * ceil(n / 256) - 1, a factor of two.  relate.c
 * evaluates the two compares' operands symbolically, back through their
 * reaching definitions, as linear forms over atoms (kernel-entry SGPRs,
 * loaded values, floor(x / 2^k) of a shift or of LLVM's division sequence
 * with its two defining inequalities), splits cases at s_cselect_b32 and at
 * loop headers (first iteration, or a later one after the back edge), and
 * refutes each case by Fourier-Motzkin elimination with integer tightening.
 *
 * Assumptions, as for the zone (docs/gcnlint.md): adds, subtracts and
 * multiplies by constants do not wrap, and a value that a shift right or an
 * unsigned division takes is non-negative (below 2^31).
 */
#ifndef GCN_RELATE_H
#define GCN_RELATE_H

#include <stdbool.h>
#include <stdint.h>
#include "lint.h"

typedef struct gcn_relate gcn_relate;

/* Bounds [*lo, *hi] of SGPR reg on entry to loop header block h (from the
 * zone); false when none are known. */
typedef bool (*gcn_relate_bound_fn)(void *ctx, unsigned h, unsigned reg, int64_t *lo,
                                    int64_t *hi);

/* NULL on allocation failure (then nothing is refuted). */
gcn_relate *gcn_relate_new(const gcn_cfg *cfg, gcn_relate_bound_fn bound, void *ctx);
void gcn_relate_free(gcn_relate *R);

/* True when no run takes the edge from block b into block t (b's SCC
 * branch, needing SCC == need1) and then leaves t by its SCC branch with
 * SCC == need2.  False when not proven (also past the per-kernel budget). */
bool gcn_relate_refute(gcn_relate *R, unsigned b, unsigned t, int need1, int need2);

#endif
