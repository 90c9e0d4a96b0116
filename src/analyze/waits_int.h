/*
 * waits_int.h -- internals of the pending-operation exploration shared by
 * waits.c (findings) and suggest.c (loosest safe waits).
 *
 * A state is the content of the two wait-counter queues: vmcnt and lgkmcnt,
 * each a list of pending operations, oldest first.  Every entry carries the
 * producing instruction, its rank (how many in-order operations of the same
 * counter were issued after it) and whether it returns out of order.
 * s_waitcnt cnt(N) guarantees that an in-order entry of rank >= N has
 * completed (if it were pending, the N or more younger in-order ones would
 * be too: more than N outstanding); an out-of-order entry only for N = 0.
 * The counters are as wide as their s_waitcnt fields (vmcnt 6 bits,
 * lgkmcnt 4): a wave cannot have more than 63 / 15 operations outstanding
 * (issue stalls until one retires), so an in-order entry retires when its
 * rank reaches the maximum, and ranks stay below it (a fix derived from a
 * rank is never the "no wait" value).  The exploration keeps the set of
 * distinct states per basic block (so the first loop iteration and the
 * steady state are told apart), and joins states (minimum rank per
 * producer) only when a block's budget is exhausted.
 */
#ifndef GCN_WAITS_INT_H
#define GCN_WAITS_INT_H

#include "lint.h"
#include "paths.h"

#define WQ_VM 0
#define WQ_LGKM 1
#define QF_OOO 1u       /* returns out of order in this counter */
#define QF_ASSUMED 2u   /* a wait would have retired it, were it in order */

typedef struct qent {
    uint32_t idx;        /* producing instruction */
    uint8_t rank;
    uint8_t fl;
    uint16_t pad;
} qent;

typedef struct lstate {
    uint32_t hash;
    uint16_t n[2];
    uint8_t nf;          /* path facts (paths.h), stored after the entries */
    qent e[];            /* n[0] vmcnt entries, then n[1] lgkmcnt entries */
} lstate;
static inline gcn_pfact *lstate_facts(const lstate *l)
{
    return (gcn_pfact *)(void *)(l->e + l->n[0] + l->n[1]);
}

typedef struct wnode {
    unsigned block;
    int pred;            /* node it came from, -1 for the entry */
    bool joined;         /* a widened (merged) state */
    lstate *st;
} wnode;

/* A record whose LDS ranges could not be compared (an address the value
 * analysis does not know) carries this bit on its check: it becomes an
 * lds-unproven warning, not an error. */
#define WREC_UNPROVEN 0x40
static inline int wrec_check(int check)        /* the check as reported */
{
    return (check & WREC_UNPROVEN) ? GCN_CHK_LDS_UNPROVEN : check;
}

typedef struct wrec {
    uint8_t check;
    uint8_t q;           /* queue of the producer's entry */
    unsigned i, p, node;
} wrec;

typedef struct wstate {
    qent *q[2];
    unsigned n[2];
    unsigned cap;
    unsigned lo[2];      /* hint: entries before lo[q] are out of order (q_push skips
                          * them); 0 is always valid */
    uint64_t *sig[2];    /* NULL, or per entry asig[idx] (the exploration's working state:
                          * its check reads them in order instead of asig at random) */
    const uint64_t *asig;
    uint64_t sigu[2];    /* sig: a superset of the union of sig[q] (every entry loaded or
                          * pushed since the last load), to skip scans no entry can match */
    uint32_t *seq[2];    /* NULL, or per entry its number in ix (the exploration's state) */
    struct wix *ix;      /* NULL, or the register index of the exploration (waits.c) */
    gcn_pstate pf;       /* path facts: which SCC branches this path must take */
    bool lazy;           /* ranks of in-order entries are P[q] - pad, not rank */
    unsigned P[2];       /* lazy: pushes so far, plus 64 */
} wstate;

typedef struct wrun {
    const gcn_cfg *cfg;
    const gcn_values *vals;
    const gcn_lint_opts *o;
    wnode *nodes;
    unsigned nnodes, capnodes;
    wrec *recs;
    unsigned nrecs, caprecs;
    uint64_t *rkeys;     /* dedupe of (check, i, p) */
    unsigned rcap, rn;
    unsigned *htab;      /* (block, state) -> node, open addressing */
    unsigned hcap, hn;
    unsigned *bcount;
    int *bwiden;
    uint64_t *asig;      /* per instruction: signature of its async defs (rs_sig) */
    uint64_t *fsig;      /* per instruction: signature of its uses, defs and async defs */
    unsigned qcap;
    unsigned *jslot;     /* state_join scratch: per (instruction, ooo) key a slot, ~0u free */
    struct jkey *jkeys;  /* state_join scratch: 2 * qcap + 1 slots */
    uint64_t *rmemo;     /* per instruction: the last RMEMO rkeys it added or met */
    uint32_t *aoff;      /* per instruction i: its async-def registers are areg[aoff[i]..aoff[i+1]) */
    uint32_t *toff;      /* ... the registers it reads, treg[toff[i]..tmid[i]), and writes */
    uint32_t *tmid;      /* (defs and async defs), treg[tmid[i]..toff[i+1]) */
    uint16_t *areg, *treg;/* register numbers: scalar 0..127, vector 128 + (0..511) */
    uint32_t *bpush;     /* per block: registers its pushes add to the index (an upper bound) */
    unsigned **bafter;   /* per s_barrier: LDS accesses in the interval after it (lazy) */
    unsigned *nbafter;
    struct wchunk *chunks;/* the nodes' states (lstate), bump-allocated (waits.c warena_alloc) */
    char *acur;
    size_t aleft;
    gcn_paths *paths;    /* NULL: every edge is followed */
    bool own_paths;      /* built by the run (else the caller's, gcn_waits_explore_paths) */
    unsigned long pruned;/* edges the path facts ruled out */
    bool widened, truncated;
} wrun;

int gcn_waits_explore(wrun *r, const gcn_cfg *cfg, const gcn_values *vals,
                      const gcn_lint_opts *o);
/* The same with the path facts built by the caller (paths: the result of
 * gcn_paths_build(cfg), NULL too, which the run uses and does not free), for
 * callers that explore one kernel many times (suggest.c). */
int gcn_waits_explore_paths(wrun *r, const gcn_cfg *cfg, const gcn_values *vals,
                            const gcn_lint_opts *o, gcn_paths *paths);
void gcn_waits_free(wrun *r);

int gcn_wstate_init(wstate *s, unsigned cap);
void gcn_wstate_free(wstate *s);
void gcn_wstate_load(wstate *s, const lstate *l);
/* Apply the effects of instruction i (waits, pushes) to s. */
void gcn_waits_step(const wrun *r, wstate *s, unsigned i);
/* The nodes from the entry to `node`, in path order (caller frees). */
unsigned *gcn_waits_path(const wrun *r, unsigned node, unsigned *n);
/* Phrase for where a path is: "on the first iteration of the loop at line 40". */
void gcn_waits_path_phrase(const wrun *r, const unsigned *path, unsigned n, unsigned block,
                           gcn_strbuf *sb);
const char *gcn_ctr_name(unsigned q);
/* The last s_waitcnt on the finding's path, after its producer was issued,
 * that waited on the producer's counter (the wait a fix would change), or -1. */
int gcn_waits_last_wait(const wrun *r, const wrec *rec);

#endif
