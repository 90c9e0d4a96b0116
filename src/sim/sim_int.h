/*
 * sim_int.h -- internals of the simulator: the device (allocations, run state,
 * findings), the program (pre-decoded instructions of a code object), the hazard
 * history and its hooks in the inner loop, the registry of bodies, and the
 * program and wave functions the run loop and the unit tests use.  What an
 * instruction body sees is sim_body.h, which this header includes; a unit test
 * can build a bare wave (sim_wave_new) and call a body directly (sim_exec_one).
 */
#ifndef GCN_SIM_INT_H
#define GCN_SIM_INT_H

#include "sim_body.h"

/* ---- program: decoded instructions of a code object ------------------- */
typedef struct sim_prog {
    const gcn_codeobj *co;
    gcn_decoder dec;
    uint64_t text_addr, text_size;
    int32_t *at;                /* per 4-byte slot of .text: insn index, -1 unknown */
    sim_insn **blk;             /* blocks of SIM_PROG_BLK instructions (never move) */
    uint32_t n, cap;
    unsigned accum, nvrows;     /* of the kernel, for operand checks */
    /* unified register file: per row at or above accum, the first instruction
     * that named it as vN / as aM (index + 1, 0 none) */
    uint32_t *vname_first, *aname_first;
    uint64_t hz_cons;           /* union of the decoded instructions' hz_cons */
    uint64_t hz_pgcons;         /* the hz_cons the instructions' hz_pg are for (a regroup,
                                 * hazard_sim.c, brings it up to hz_cons) */
    /* variants of instructions under VGPR index mode or VSKIP (idxmode.c) */
    struct sim_ixent { const struct sim_insn *base; unsigned key; struct sim_insn *v; } *ix;
    uint32_t nix, capix;
    gcn_strbuf sb;              /* scratch for the instructions' texts */
    /* the texts, where, file and sym strings of the program's instructions (not of the
     * index-mode variants), kept in chunks freed with the program (prog.c prog_str) */
    struct sim_strchunk *strs;
    char *str_cur;
    size_t str_left;
    /* the symbols that can name an address of .text (gcn_co_symbols_in), when at most
     * SIM_PROG_SYMS (nsym larger: every symbol is looked at) */
#define SIM_PROG_SYMS 16
    uint32_t sym_idx[SIM_PROG_SYMS];
    unsigned nsym;
    /* where blocks come from and go back to: the device's spare blocks (gcn_sim_run's
     * program), or NULL (malloc and free) */
    struct sim_blkpool *pool;
} sim_prog;

/* Blocks of a program kept for the next program on the same device (a block is 206 KB:
 * above the mmap threshold of the sanitizers' allocator, so mapped, page-faulted and
 * unmapped again for every run of a device that runs many dispatches). */
#define SIM_BLKPOOL_MAX 8
typedef struct sim_blkpool {
    struct sim_insn *b[SIM_BLKPOOL_MAX];
    unsigned n;
} sim_blkpool;

#define SIM_PROG_BLK 256
static inline sim_insn *sim_prog_insn(const sim_prog *p, uint32_t i)
{
    return &p->blk[i / SIM_PROG_BLK][i % SIM_PROG_BLK];
}

/* ---- device ------------------------------------------------------------ */
typedef struct sim_alloc {
    uint64_t base, size;
    uint8_t *data;
    void *map;                  /* a large block's mapping (sim.c dev_alloc), or NULL */
    size_t maplen;
    char *name;
} sim_alloc;

struct gcn_sim {
    gcn_sim_opts o;
    sim_alloc *allocs;
    unsigned nallocs, cap_allocs;
    unsigned last;              /* last allocation hit */
    unsigned mhint[64];         /* sim_mem: the allocation last hit in each 2 MiB region
                                 * (address bits 26:21), a hint checked like last */
    uint64_t next_addr;
    /* run state */
    int faulted;
    int stop;                   /* faulted or finding_stop: the inner loop returns */
    char fault[1024];
    gcn_sim_where fault_at;     /* where the fault happened (pc 0: no instruction) */
    gcn_sim_finding *finds;
    unsigned nfinds, cap_finds;
    int finding_stop;           /* --strict and a finding occurred */
    uint64_t rz_seq;            /* races detected on LDS reads (racyreg.c): their order */
    sim_prog *prog;
    const gcn_dispatch *disp;
    uint64_t insns, budget;
    sim_wave *wave_pool[SIM_MAX_WAVES];
    sim_wg wg;
    struct sim_trace *trace;
    double t0, tlast, cpu0;
    int hz_on;                  /* hazard checks (hazard_sim.c) */
    unsigned hz_flags;          /* GCN_HZ_* for gcn_hz_reset */
    uint8_t hz_win[64];         /* gcn_hz_group_window of each group (sim_hz_setup) */
    uint8_t hz_pwin[64];        /* the same, 1 for the soft-clause groups (struct sim_hz pwin) */
    int wgkey;                  /* a thread's copy (sim.c par_run): its findings are one
                                 * workgroup's, kept apart by the place of their fix too */
    /* what setup_wave computes once and keeps for the next workgroups: the index of the
     * entry instruction (for entry_prog, entry_pc), and per wave index the work-item ids
     * of v0 and the EXEC of a full workgroup (wid_ok bit wi; for the block and the id
     * enable bits in wid_key) */
    const sim_prog *entry_prog;
    uint64_t entry_pc;
    uint32_t entry_idx;
    unsigned wid_key[4];
    uint32_t wid_ok;
    uint64_t wid_exec[SIM_MAX_WAVES];
    uint32_t wid_v0[SIM_MAX_WAVES][NL];
    sim_blkpool blkpool;        /* the blocks of the last run's program, for the next */
};

/* ---- threads (crew.c, wgscan.c) ---------------------------------------- */
/* CPUs this process may run on (its affinity mask, else the online ones). */
unsigned sim_crew_cpus(void);
/* Take the process's crew for a job on n threads (the caller's one of them): the threads
 * had, at most n; 1 when the crew is busy with another caller's job or no thread starts
 * (nothing to give back then). */
unsigned sim_crew_take(unsigned n);
/* fn(arg, 0) on the caller and fn(arg, i), i = 1..n-1, on crew threads; returns when all
 * have returned. */
void sim_crew_run(unsigned n, void (*fn)(void *, unsigned), void *arg);
void sim_crew_give(unsigned n);
/* Whether the workgroups of a kernel entered at ENTRY may run on threads with the serial
 * results: 1, or 0 and why (wgscan.c). */
int sim_wg_scan(const gcn_codeobj *co, gcn_target t, uint64_t entry, unsigned accum,
                unsigned nvrows, char *why, size_t whylen);

/* ---- hazards (hazard_sim.c) ------------------------------------------- */
#define SIM_HZ_RING 32          /* recent instructions kept for a rebuild (> 21 wait states) */
/* the ring's slots: instruction k (of the wave, from 0) in slot k % SIM_HZ_SLOTS, twice the
 * ring (the check memo's window of the last GCN_HZ_WINDOW lies in one piece of the slots
 * but after the first GCN_HZ_WINDOW - 1 of them: sim_hz_memo_win) */
#define SIM_HZ_SLOTS 64
#define HZ_SWAP_MAX 64
struct sim_hz {
    /* what the run loop's hooks touch for every instruction (sim_hz_pre, sim_hz_post) */
    unsigned rn;                /* instructions so far (ring position) */
    uint32_t clk;               /* wait states so far (the look's clock; st has its own) */
    uint64_t hot;               /* groups an instruction produced for (hz_prod) since a
                                 * look last found the group out of its window (the bit is
                                 * cleared then): every group with a producer in its window
                                 * is among them */
    const sim_insn *ring[SIM_HZ_SLOTS];
    /* the same instructions' idx, for the check memo (hazard_sim.c) */
    uint32_t ring_idx[SIM_HZ_SLOTS];
    uint32_t plast[65];         /* per rule group the program consumes (prog hz_pgcons): clk
                                 * after its latest producer; [64]: where sim_insn hz_pg's
                                 * "none" goes */
    uint8_t pwin[64];           /* per rule group: win, 1 for the soft-clause groups (a
                                 * clause runs only right after a member) */
    /* the history proper, brought up to date only before a check (hazard_sim.c hz_sync) */
    unsigned built;             /* st holds the wave's instructions up to this rn (more than
                                 * SIM_HZ_RING behind rn: a rebuild makes it) */
    gcn_hz_state st;
    uint64_t cons;              /* the prog->hz_cons the history was built for */
    int stale;                  /* --hazard-effect=stale */
    int32_t last[64];           /* per rule group: st's clock after its latest producer entry */
    uint8_t win[64];            /* per rule group: gcn_hz_group_window */
    unsigned wflags;            /* 1 + the gcn_sim hz_flags win and pwin are for (0: none) */
    /* stale mode: saved pre-write values, and the registers swapped for one consumer */
    struct hz_save *save;
    uint32_t seq;
    unsigned next;              /* next save slot (ring) */
    unsigned nswap;
    uint16_t swap_unit[HZ_SWAP_MAX];
    uint32_t swap_new[HZ_SWAP_MAX][NL];
};
void sim_hz_wave_reset(gcn_sim *s, sim_wave *w);
/* The per-run hazard tables (the rule groups' windows for s->hz_flags): before any wave. */
void sim_hz_setup(gcn_sim *s);
void sim_hz_before(gcn_sim *s, sim_x *x, const sim_insn *si);
void sim_hz_restore(gcn_sim *s, sim_x *x, const sim_insn *si);
void sim_hz_free(sim_wave *w);
/* For tests only (tests/sim/test_hz_memo.c, one thread): with verify set, every check the
 * memo of hazard_sim.c skips is made all the same (hits counts them, wrong those that found
 * something), and so is every check the look of sim_hz_pre skips for an instruction that
 * consumes some group (skips, wrong_skips). */
extern struct sim_hz_memo_test {
    int verify;
    unsigned long long hits, wrong;
    unsigned long long skips, wrong_skips;
} sim_hz_memo_test;

/* ---- hazard hooks of the inner loop (hazard_sim.c does the rest) ------- */
/* The rule groups si consumes with a producer entry inside the group's window (or, for the
 * soft-clause groups, a clause running): the only groups whose check can find anything
 * (on the history brought up to date, hazard_sim.c). */
static inline __attribute__((always_inline)) uint64_t sim_hz_may_find(const struct sim_hz *h,
                                                                      const sim_insn *si)
{
    uint64_t r = 0;
    for (uint64_t m = si->hz_cons & h->st.gprod_union; m; m &= m - 1) {
        unsigned g = (unsigned)__builtin_ctzll(m);
        if (h->win[g] ? h->st.clock - h->last[g] < (int32_t)h->win[g] : h->st.clause.count != 0)
            r |= 1ull << g;
    }
    return r;
}
/* The check memo (hazard_sim.c says why it is exact): the idx of the last GCN_HZ_WINDOW
 * instructions, oldest first, in the slots (or, when they wrap around the slots' end, in
 * copies of the slots in BUF; at a wave's start the slots before its first instruction hold
 * what an earlier wave left, or zeros: compared too, so a hit needs them equal as well --
 * more than needed, never less), and into *n how many of them are this wave's. */
static inline const uint32_t *sim_hz_memo_win(const struct sim_hz *h, unsigned *n,
                                              uint32_t buf[2 * GCN_HZ_WINDOW])
{
    *n = h->rn < GCN_HZ_WINDOW ? h->rn : GCN_HZ_WINDOW;
    const unsigned e = h->rn % SIM_HZ_SLOTS;        /* (the newest's slot + 1) */
    if (__builtin_expect(e >= GCN_HZ_WINDOW, 1))
        return &h->ring_idx[e - GCN_HZ_WINDOW];
    /* the slots' last GCN_HZ_WINDOW and first GCN_HZ_WINDOW side by side (two copies of a
     * fixed size): the window starts at e among them */
    memcpy(buf, &h->ring_idx[SIM_HZ_SLOTS - GCN_HZ_WINDOW], GCN_HZ_WINDOW * sizeof *buf);
    memcpy(buf + GCN_HZ_WINDOW, h->ring_idx, GCN_HZ_WINDOW * sizeof *buf);
    return buf + e;
}
/* Whether si's last check that found nothing came after the same window, with the same
 * program groups (cons: the prog->hz_cons a check now would be made with). */
static inline __attribute__((always_inline)) int sim_hz_memo_hit(const struct sim_hz *h,
                                                                 const sim_insn *si,
                                                                 uint64_t cons)
{
    unsigned n;
    if (si->hzm_n != (h->rn < GCN_HZ_WINDOW ? h->rn : GCN_HZ_WINDOW) + 1 || si->hzm_cons != cons)
        return 0;
    uint32_t buf[2 * GCN_HZ_WINDOW];
    const uint32_t *prev = sim_hz_memo_win(h, &n, buf);
    /* the older slots four at a time, loaded straight from both arrays (copies of them
     * into local arrays first made the compiler store and reload them all), the newest one
     * alone: it was stored just before, and a wider load of it would wait for that store */
    enum { OLD = GCN_HZ_WINDOW - 1 };
    _Static_assert(OLD % 4 == 0, "the older slots compare four at a time");
    typedef uint32_t hz_quad __attribute__((vector_size(16), aligned(4)));
    hz_quad acc = {prev[OLD] ^ si->hzm_prev[OLD], 0, 0, 0};
#pragma GCC unroll 8
    for (unsigned i = 0; i < OLD; i += 4) {
        hz_quad a, b;
        memcpy(&a, prev + i, sizeof a);
        memcpy(&b, si->hzm_prev + i, sizeof b);
        acc |= a ^ b;
    }
    typedef uint64_t hz_pair __attribute__((vector_size(16)));
    hz_pair t = (hz_pair)acc;
    return (t[0] | t[1]) == 0;
}
/* The look: of the groups M (si's among hot), whether one had a producer within its window
 * (plast, pwin: the clock after the latest producer of each group the program consumes --
 * si's are among them -- whether or not it gave the producer a history entry, and a
 * soft-clause group counts when the instruction just before was a member: more than
 * sim_hz_may_find finds on the history, never less); the groups found out of their window
 * leave hot.  (A hot group whose plast no producer set -- it is hot by a producer of an
 * instruction before the program consumed it, and the ring held none: an older one -- reads
 * what an earlier wave left there: near or far, a check made for nothing or rightly
 * skipped.) */
static inline __attribute__((always_inline)) int sim_hz_near(struct sim_hz *h, uint64_t m)
{
    const uint64_t m0 = m;
    const uint32_t clk = h->clk;
    for (; m; m &= m - 1) {
        const uintptr_t g = (unsigned)__builtin_ctzll(m);
        if (clk - h->plast[g] < h->pwin[g]) {
            h->hot &= ~(m0 ^ m);        /* (the groups before g: far) */
            return 1;
        }
    }
    h->hot &= ~m0;
    return 0;
}
void sim_hz_verify_skip(gcn_sim *s, sim_x *x, const sim_insn *si);
/* Before si executes: the engine only when si consumes a group with a producer in its
 * window (the look) and its memo does not say the check finds nothing (or stale mode, or
 * a test verifies the memo and the look). */
/* (nostale: a constant of the caller, 1 when the run is not in stale mode -- then no history
 * has h->stale set, and none swaps registers) */
/* (h: x->w->hz, not NULL) */
static inline __attribute__((always_inline)) void sim_hz_pre(gcn_sim *s, sim_x *x,
                                                            struct sim_hz *h, const sim_insn *si,
                                                            int nostale)
{
    if (!nostale && h->stale) {
        sim_hz_before(s, x, si);
        return;
    }
    /* (one AND for most instructions: nothing they consume was produced lately) */
    uint64_t m = si->hz_cons & h->hot;
    if (__builtin_expect(!m, 1))
        return;
    if (!sim_hz_near(h, m)) {
        if (__builtin_expect(sim_hz_memo_test.verify, 0))
            sim_hz_verify_skip(s, x, si);
        return;
    }
    if (__builtin_expect(sim_hz_memo_test.verify, 0) || !sim_hz_memo_hit(h, si, s->prog->hz_cons))
        sim_hz_before(s, x, si);
}
/* Append si to the history (its producer groups' clocks move on). */
static inline __attribute__((always_inline)) void sim_hz_push(struct sim_hz *h, const sim_insn *si)
{
    gcn_hz_push_fast(&h->st, &si->hz);
    for (uint64_t m = si->hz_prod & h->cons; m; m &= m - 1)
        h->last[__builtin_ctzll(m)] = h->st.clock;
}
/* si's hz_pg and hz_pgx: the groups of its hz_prod among CONS (the program's consumer
 * groups, sim_prog hz_pgcons). */
static inline void sim_hz_groups(sim_insn *si, uint64_t cons)
{
    uint64_t m = si->hz_prod & cons;
    for (unsigned k = 0; k < 2; k++) {
        si->hz_pg[k] = m ? (uint8_t)__builtin_ctzll(m) : 64;
        m &= m - 1;
    }
    si->hz_pgx = m != 0;
}
/* The program's consumer groups grew (a decoded instruction or index-mode variant consumes
 * new ones): every instruction's hz_pg for them, and the look's clocks of the new groups in
 * the histories of the n waves at WAVES (those of the workgroup running) from their rings. */
void sim_hz_regroup(gcn_sim *s, sim_wave *const *waves, unsigned n);
/* The stamps of si's groups past its hz_pg (hz_pgx). */
void sim_hz_stamp_more(struct sim_hz *h, const sim_insn *si);
/* After si executed: into the ring (the history takes it from there when a check needs
 * it), the look's clock and groups (h: x->w->hz, not NULL). */
static inline __attribute__((always_inline)) void sim_hz_post(gcn_sim *s, sim_x *x,
                                                             struct sim_hz *h, const sim_insn *si,
                                                             int nostale)
{
    if (!nostale && __builtin_expect(h->nswap != 0, 0))
        sim_hz_restore(s, x, si);
    const uintptr_t r = h->rn++ % SIM_HZ_SLOTS;
    h->ring[r] = si;
    h->ring_idx[r] = si->idx;
    uint32_t c = h->clk += si->hz_ws;
    uint64_t pm = si->hz_prod;
    h->hot |= pm;
    /* (most instructions produce for at most two groups: two stores, no loop) */
    h->plast[si->hz_pg[0]] = c;
    h->plast[si->hz_pg[1]] = c;
    if (__builtin_expect(si->hz_pgx, 0))
        sim_hz_stamp_more(h, si);
}

/* ---- faults and findings: the machine's side (fault.c) ------------------ */
/* Two optional strings are equal (both NULL, or the same text). */
static inline int sim_same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}
/* A finding's detail text from its base and its fix (after the fix changes: the
 * merge of a thread's findings, sim.c). */
void sim_compose_detail(gcn_sim_finding *f);
void sim_finding_w(gcn_sim *s, sim_wave *w, const sim_insn *cons, gcn_sim_finding_kind k,
                   const sim_insn *prod, uint64_t lanes, const char *detail);
/* A hazard finding of rule RULE (hazard_sim.c). */
void sim_finding_rule(gcn_sim *s, sim_wave *w, const sim_insn *cons, const char *rule,
                      const sim_insn *prod, uint64_t lanes, const char *detail);
/* Retire every ticket of a wave (it ended); the pending-register checks before an
 * instruction executes (fifo.c). */
void sim_retire_all(gcn_sim *s, sim_wave *w);
void sim_check_regs(sim_x *x);
void sim_check_masks(sim_insn *si);      /* si->ck, ck_s, ck_v (made at the first check) */

/* ---- body registry (table.c, notsim.c) ---------------------------------- */
typedef struct sim_notsim_ent {
    const char *pattern;        /* id name, or prefix ending with '*' */
    const char *reason;
} sim_notsim_ent;

/* idxmode.c: the instruction to run in place of si while MODE.GPR_IDX_EN or
 * MODE.VSKIP is set (si itself when neither applies; NULL after a fault). */
sim_insn *sim_mode_insn(gcn_sim *s, sim_x *x, sim_insn *si);
extern const sim_notsim_ent sim_notsim[];
sim_body sim_body_of(unsigned id);
void sim_body_unsimulated(sim_x *x);
void sim_body_bad(sim_x *x);
void sim_dpp_body(sim_x *x);
void sim_alias_body(sim_x *x);

/* ---- program / wave (sim.c, prog.c) ------------------------------------ */
int sim_prog_init(sim_prog *p, const gcn_codeobj *co, gcn_target t, unsigned accum,
                  unsigned nvrows, char *err, size_t errlen);
void sim_prog_free(sim_prog *p);
void sim_blkpool_free(sim_blkpool *bp);
/* Index of the instruction at pc (decoding it on first use), or -1 with a
 * message when pc is outside .text. */
int32_t sim_prog_at(sim_prog *p, uint64_t pc, char *err, size_t errlen);
/* Pre-decode a decoded instruction (also used by tests). */
void sim_predecode(sim_insn *si, const gcn_insn *in, const gcn_decoder *d, unsigned accum,
                   unsigned nvrows);
/* The same, the text printed into sb (a scratch buffer the caller keeps). */
void sim_predecode_sb(sim_insn *si, const gcn_insn *in, const gcn_decoder *d, unsigned accum,
                      unsigned nvrows, gcn_strbuf *sb);


/* A bare wave for unit tests (nvrows VGPR rows, AGPRs from accum). */
sim_wave *sim_wave_new(unsigned nvrows, unsigned accum);
void sim_wave_free(sim_wave *w);
void sim_wave_reset(sim_wave *w);
/* Execute one pre-decoded instruction on a wave (tests). */
int sim_exec_one(gcn_sim *s, sim_wave *w, sim_wg *g, const sim_insn *si, sim_x *x);

#endif
