/*
 * paths.h -- which branch a path must take: scalar facts that decide the
 * SCC branches of hand-unrolled loops and their tails (paths.c).
 *
 * A kernel that unrolls its main loop k times leaves it at one of k exits
 * and later dispatches on the trip count (`s_and_b32 s, 3, n`, or the parity
 * of ceil(n / 64)).  Each exit fixes that trip count modulo k, so it fixes
 * the tail variant; a path from one exit into another exit's tail does not
 * exist.  paths.c computes, once per kernel and for every block,
 *   - the known bits of every SGPR (a loop counter keeps its residue modulo a
 *     power of two around an unrolled loop), and
 *   - a zone (bounds on x - y) over the SGPRs that compares use, so that a
 *     failed `s_cmp_lt_i32 c, n` after `c += 1` means c == n;
 * and turns them into path facts: small claims on one SGPR that the waits
 * exploration carries into a block where paths join (a loop exit's residue),
 * evaluates through the scalar instructions that follow, and uses to drop
 * the successor of an SCC branch that the facts rule out.
 *
 * Assumption (stated in docs/gcnlint.md): two compared registers differ by
 * less than 2^31 and additions of constants do not wrap, as for trip counts
 * and loop counters; signed and unsigned compares are treated alike.
 */
#ifndef GCN_PATHS_H
#define GCN_PATHS_H

#include "lint.h"

/* One path fact: the SGPR holds x + d, where x matches the known bits
 * (mask m, values v), x = cr modulo cm when cm >= 2, and d lies in
 * [lo, hi]. */
typedef struct gcn_pfact {
    uint8_t reg;
    uint8_t cm, cr;             /* a residue of x (cm 0: none) */
    uint8_t pad;
    uint32_t m, v;
    int32_t lo, hi;
} gcn_pfact;

#define GCN_PF_MAX 8

typedef struct gcn_pstate {
    uint8_t n;
    gcn_pfact f[GCN_PF_MAX];   /* sorted by reg */
} gcn_pstate;

typedef struct gcn_paths gcn_paths;

/* Build the per-kernel facts; NULL on allocation failure (then the
 * exploration follows every edge, as without it). */
gcn_paths *gcn_paths_build(const gcn_cfg *cfg);
void gcn_paths_free(gcn_paths *p);

/* Apply instruction i to the facts; *scc becomes 0 or 1 when the facts
 * decide the SCC it writes, -1 when they do not (left as is when i does
 * not write SCC). */
void gcn_paths_step(const gcn_paths *p, gcn_pstate *ps, unsigned i, int *scc);
/* Successor s of block b with the facts ps (after the block) and its SCC:
 * false when the edge cannot be taken; otherwise *out is the facts on
 * entry to the successor (births at joins added, dead ones dropped). */
bool gcn_paths_edge(const gcn_paths *p, unsigned b, unsigned s, const gcn_pstate *ps,
                    int scc, gcn_pstate *out);

/* Static facts alone (the same for every path): is successor s of block b
 * taken by no run?  And which successors of that successor t (bit s2 for
 * t's successor s2) does no run take right after this edge?  (t's own SCC
 * branch decided by what the edge knows; 0 unless t is a join.)  For
 * analyses that keep one state per block, such as the set of waves that
 * reach each block (values.c). */
bool gcn_paths_edge_dead(const gcn_paths *p, unsigned b, unsigned s);
unsigned gcn_paths_edge_thru(const gcn_paths *p, unsigned b, unsigned s);

#endif
