/*
 * racyreg.c -- the cross-wave LDS race check reports a race on a read only when the
 * reading wave uses what it read (gcnlint's "dead reads", docs/gcnlint.md; issue 13).
 *
 * A read whose bytes another wave writes with no s_barrier between the two may return
 * either value; if the reading wave never reads the registers the value landed in before
 * overwriting them, nothing depends on the order (software pipelining: the last prefetch
 * of a loop, which the exit does not use, against the epilogue's writes).  So:
 *
 *   - every DS read of a workgroup of several waves gets a record (sim_rz_note, from
 *     sim_lds_rnote), linked from its note (w->lrd) and from its register ticket;
 *   - when the ticket lands, the rows it writes (VGPRs and AGPRs) hold the read's value
 *     in its lanes: w->rz_lanes / w->rz_own;
 *   - an instruction that reads such a row in such a lane (any source: implicit, tied,
 *     one register of a tuple, the data of a store or export, MFMA operands, readlane)
 *     uses the value: the record is "used" (sim_rz_after; v_swap's destination, whose
 *     value moves into src0, too);
 *   - an instruction that writes the whole dword in a lane (a VALU result, a load
 *     landing) ends the value in that lane; with no lane left in any row the value is
 *     dead (a partial write -- SDWA, op_sel, d16, writelane -- ends nothing);
 *   - a race found on the read waits on its record as an occurrence: counted when the
 *     value is used in a lane the race concerns, dropped when it is dead or the wave
 *     ends.  Both orders: this wave's read of bytes another wave wrote (the record of
 *     the current read), and another wave's later write of bytes this wave read (the
 *     read's value may be the new one: the record of that wave's newest read covering
 *     the byte, whose value may have been used already -- then it counts at once);
 *   - the s_barrier ends the records no race waits on (no later write can race them).
 *
 * Writes against writes (and atomics against plain writes, either order: both change
 * the bytes) are counted at once, as before.  An atomic against another wave's plain
 * read waits on that read, like a write.  FLAT accesses that reach LDS keep no record:
 * their races count at once.  The common case costs one test per instruction (no row
 * followed); with rows followed, a quick test on the operand masks of sim_check_masks
 * (here so that fifo.c's sim_check_regs shares it without a cycle of references).
 *
 * Cost (session 12): a race-free read whose value is used is the commonest case (the
 * LDS-DMA vector add: 32,768 of them).  The records in use are a 64-bit mask (the free
 * slot is the same one the scan from rz_next found); the note, the ticket's link, the
 * unlink and the landing of a ticket whose rows below 64 are not followed yet are inline
 * in sim_body.h; sim_rz_after works on the masks of rows below 64, in any order, while no
 * race waits on a record of the wave (w->rz_wait: then nothing is counted, and what a use
 * or an overwrite does to the records does not depend on the order of the rows); with a
 * race waiting, or a row of 64 or more, the loops by reference, in their order, as before.
 * tools/lds_race_diff.py --uses checks both against a reference binary.
 *
 * The finding's site is made when the race is detected (sim_finding_site: findings keep
 * the order of their first detection) and pruned at the end of the workgroup when no
 * occurrence was counted; the first seen occurrence is the counted one detected first,
 * so a run where every racy read is used reports what it reported before.
 */
#include <string.h>
#include "sim_int.h"

#define REC(w, k) (&(w)->rz[(k) - 1])

static inline int row_marked(const sim_wave *w, unsigned r)
{
    return (int)(w->rz_m[r >> 6] >> (r & 63) & 1);
}

/* any of rows [r, r + n) followed? */
static inline int rows_marked(const sim_wave *w, unsigned r, unsigned n)
{
    for (unsigned k = r; k < r + n; k = (k | 63) + 1) {
        unsigned e = (k | 63) + 1 < r + n ? (k | 63) + 1 : r + n;
        uint64_t m = e - k >= 64 ? ~0ull : ((1ull << (e - k)) - 1) << (k & 63);
        if (w->rz_m[k >> 6] & m)
            return 1;
    }
    return 0;
}

/* The rows of VGPR/AGPR reference r within the wave's rows when some of them hold a
 * followed read's value, else 0. */
static inline unsigned ref_marked(const sim_wave *w, const sim_rref *r)
{
    if (r->file != 1 || r->r >= w->nvrows)
        return 0;
    unsigned n = r->r + r->n <= w->nvrows ? r->n : w->nvrows - r->r;
    return rows_marked(w, r->r, n) ? n : 0;
}

static inline void row_clear(sim_wave *w, unsigned r)
{
    w->rz_lanes[r] = 0;
    w->rz_own[r] = 0;
    w->rz_m[r >> 6] &= ~(1ull << (r & 63));
    w->rz_n--;
}

/* release the rows that hold record k's value (only its ticket's rows [dreg, dreg + dn) can
 * hold it: those below 64 by their marks) */
static __attribute__((noinline)) void rec_rows_scan(sim_wave *w, unsigned k)
{
    sim_rzrec *c = REC(w, k);
    for (unsigned r = c->dreg; c->nrows && r < (unsigned)c->dreg + c->dn && r < w->nvrows; r++)
        if (w->rz_own[r] == k) {
            row_clear(w, r);
            c->nrows--;
        }
    c->nrows = 0;
}
static inline void rec_rows_release(sim_wave *w, unsigned k)
{
    sim_rzrec *c = REC(w, k);
    if (!c->nrows)              /* (none: nothing to release, nrows stays 0) */
        return;
    if ((unsigned)c->dreg + c->dn > 64) {
        rec_rows_scan(w, k);
        return;
    }
    uint64_t m = ((2ull << (c->dn - 1)) - 1) << c->dreg & w->rz_m[0], clr = 0;
    unsigned n = 0;
    for (; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctzll(m);
        if (w->rz_own[r] == k) {
            w->rz_lanes[r] = 0;
            w->rz_own[r] = 0;
            clr |= m & -m;
            n++;
        }
    }
    w->rz_m[0] &= ~clr;
    w->rz_n -= n;
    c->nrows = 0;
}

static inline void rec_free(sim_wave *w, unsigned k)
{
    sim_rzrec *c = REC(w, k);
    rec_rows_release(w, k);
    c->gen = 0;
    c->nocc = 0;
    c->nlink = 0;
    w->rz_busy &= ~(1ull << (k - 1));
}

/* count the occurrences waiting on record k (all, or those of lanes h) */
static void rec_confirm(gcn_sim *s, sim_wave *w, unsigned k, uint64_t h)
{
    sim_rzrec *c = REC(w, k);
    sim_wg *g = w->wg;
    unsigned n = 0;
    for (unsigned i = 0; i < c->nocc; i++) {
        const sim_rzocc *o = &c->occ[i];
        if (o->rlanes & h) {
            sim_wave *fw = g && o->wave < g->nwaves ? g->waves[o->wave] : w;
            for (uint32_t j = 0; j < o->n; j++)
                sim_finding_occur(s, (int)o->fi, fw, o->lanes, o->seq);
        } else {
            c->occ[n++] = *o;
        }
    }
    c->nocc = (uint8_t)n;
}

/* the value is gone from every row: nothing waiting on it can happen any more */
static void rec_dead(sim_wave *w, unsigned k)
{
    sim_rzrec *c = REC(w, k);
    c->dead = 1;
    c->nocc = 0;
    if (!c->nlink)
        rec_free(w, k);
}

static void row_kill(sim_wave *w, unsigned r, uint64_t lanes)
{
    uint64_t l = w->rz_lanes[r];
    if (!(l & lanes))
        return;
    l &= ~lanes;
    if (l) {
        w->rz_lanes[r] = l;
        return;
    }
    unsigned k = w->rz_own[r];
    row_clear(w, r);
    sim_rzrec *c = REC(w, k);
    if (c->nrows && !--c->nrows && c->landed)
        rec_dead(w, k);
}

/* record k's value is read in lanes h of row r */
static void row_use(gcn_sim *s, sim_wave *w, unsigned r, uint64_t h)
{
    unsigned k = w->rz_own[r];
    sim_rzrec *c = REC(w, k);
    c->used = 1;
    if (c->nocc)
        rec_confirm(s, w, k, h);
    if (!c->nocc) {             /* nothing waits: a later write counts at once (used) */
        rec_rows_release(w, k);
        if (!c->nlink)
            rec_free(w, k);
    }
}

_Static_assert(SIM_RZ_NREC == 64, "the records in use are one 64-bit mask (rz_busy)");

/* (sim_rz_note with the choice of a record, sim_rz_unlink, sim_rz_issue and the common case of
 * sim_rz_land are inline in sim_body.h: these are the rest) */

/* Every record in use (cannot happen with the notes' ring of 32 and at most 15 reads in
 * flight, unless races wait on many): the oldest slot is given up, what waits on it counted
 * (as if used), its notes then name no record (a later write counts at once). */
unsigned sim_rz_give_up(sim_x *x)
{
    sim_wave *w = x->w;
    unsigned k = w->rz_next % SIM_RZ_NREC + 1;
    rec_confirm(x->sim, w, k, ~0ull);
    rec_free(w, k);
    return k;
}

void sim_rz_free(sim_wave *w, unsigned k)
{
    rec_free(w, k);
}

void sim_rz_land_rows(gcn_sim *s, sim_wave *w, sim_ticket *t, unsigned rk)
{
    unsigned n = t->dreg + t->dn <= w->nvrows ? t->dn : t->dreg < w->nvrows ? w->nvrows - t->dreg : 0;
    uint64_t m = t->lanes;
    sim_rzrec *c = rk ? REC(w, rk) : NULL;
    if (c)
        c->landed = 1;
    for (unsigned k = 0; k < n && m; k++) {
        unsigned r = t->dreg + k;
        if (row_marked(w, r)) {
            /* full dwords end the values they overwrite (d16 forms keep a half) */
            if (t->wmask_mode == 0 || (t->wmask_mode == 3 && k + 1 < t->dn))
                row_kill(w, r, m);
            unsigned o = w->rz_own[r];
            if (c && o && o != rk) {
                /* lanes of another read's value stay beside this one (a partial write):
                 * that read is taken as used (what waits on it counts), no longer followed */
                REC(w, o)->used = 1;
                rec_confirm(s, w, o, ~0ull);
                rec_rows_release(w, o);
                if (!REC(w, o)->nlink)
                    rec_free(w, o);
            }
        }
        if (!c)
            continue;
        if (!w->rz_own[r]) {
            w->rz_own[r] = (uint8_t)rk;
            w->rz_m[r >> 6] |= 1ull << (r & 63);
            w->rz_n++;
            c->nrows++;
        }
        w->rz_lanes[r] |= m;
    }
    if (c && !c->nrows)
        rec_dead(w, rk);
}

/* Whether an instruction reads the value of every lane, not only EXEC's: those that read
 * across lanes (DPP, MFMA operands, readlane/readfirstlane, permutes, swizzle, permlane
 * swaps) */
static int uses_all_lanes(const sim_insn *si)
{
    if (si->sub == GCN_SUB_DPP || (si->flags & (GCN_F_MFMA | GCN_F_RD_LANESEL)))
        return 1;
    switch (si->id) {
    case GCN_ID_V_READFIRSTLANE_B32: case GCN_ID_DS_BPERMUTE_B32: case GCN_ID_DS_PERMUTE_B32:
    case GCN_ID_DS_SWIZZLE_B32: case GCN_ID_V_PERMLANE16_SWAP_B32:
    case GCN_ID_V_PERMLANE32_SWAP_B32:
        return 1;
    default:
        return 0;
    }
}

/* Whether an instruction overwrites its VGPR/AGPR destinations whole at once: the VALU's
 * (not SDWA, not a 16-bit half by op_sel, not writelane), in the lanes it writes (EXEC and
 * x->wmask); loads and atomics write when their tickets land (sim_rz_land); anything else
 * does not. */
static int kills_whole(const sim_insn *si)
{
    if (si->flags & (GCN_F_LOAD | GCN_F_ATOMIC | GCN_F_STORE | GCN_F_RD_LANESEL))
        return 0;
    switch (si->enc) {
    case GCN_FMT_VOP1: case GCN_FMT_VOP2: case GCN_FMT_VOP3P:
        break;
    case GCN_FMT_VOP3:
        if (si->mods.op_sel)
            return 0;
        break;
    default:
        return 0;
    }
    return si->sub != GCN_SUB_SDWA;
}

/* sim_insn.rz_fast: every VGPR/AGPR row of sim_rz_after's loops below 64 (the masks
 * ck_rzu, ck_rzw hold them); the instruction reads every lane; it overwrites whole */
#define RZ_FAST 1
#define RZ_ALL 2
#define RZ_KILL 4

/* The masks of the registers si reads and writes (sim_insn.ck: sim_check_regs's quick test in
 * fifo.c, racyreg.c's), made at the first check. */
void sim_check_masks(sim_insn *si)
{
    uint64_t ms[2] = {0, 0}, mv = 0;
    int big = 0;
    for (unsigned i = 0; i < si->nrd + si->nwr; i++) {
        const sim_rref *r = i < si->nrd ? &si->rd[i] : &si->wr[i - si->nrd];
        if (i >= si->nrd && (si->flags & (GCN_F_LOAD | GCN_F_ATOMIC)))
            break;
        for (unsigned k = r->r; k < (unsigned)r->r + r->n; k++) {
            if (r->file == 2 && k < 128)
                ms[k >> 6] |= 1ull << (k & 63);
            else if (r->file == 1 && k < 64)
                mv |= 1ull << k;
            else if (r->file == 1)
                big = 1;
        }
    }
    si->ck_s[0] = ms[0];
    si->ck_s[1] = ms[1];
    si->ck_v = mv;
    /* sim_rz_after's rows: the use loop's references (rd, and wr for the swaps), the
     * overwrite loop's (wr) */
    uint64_t mu = 0, mw = 0;
    int fast = 1;
    unsigned nu = si->nrd + (si->flags & GCN_F_WR_SRC0 ? si->nwr : 0);
    for (unsigned i = 0; i < nu + si->nwr; i++) {
        const sim_rref *r = i < nu ? (i < si->nrd ? &si->rd[i] : &si->wr[i - si->nrd])
                                   : &si->wr[i - nu];
        if (r->file != 1)
            continue;
        if ((unsigned)r->r + r->n > 64) {
            fast = 0;
            break;
        }
        uint64_t m = (r->n >= 64 ? ~0ull : (1ull << r->n) - 1) << r->r;
        if (i < nu)
            mu |= m;
        else
            mw |= m;
    }
    si->ck_rzu = mu;
    si->ck_rzw = mw;
    si->rz_fast = (uint8_t)((fast ? RZ_FAST : 0) | (uses_all_lanes(si) ? RZ_ALL : 0) |
                            (kills_whole(si) ? RZ_KILL : 0));
    si->ck = big ? 2 : 1;
}

static uint64_t use_lanes(const sim_x *x, const sim_insn *si)
{
    return si->rz_fast & RZ_ALL ? ~0ull : x->exec;
}
static uint64_t kill_lanes(const sim_x *x, const sim_insn *si)
{
    return si->rz_fast & RZ_KILL ? x->exec & x->wmask : 0;
}

/* sim_rz_after by the references, in their order: a row of 64 or more among them, or a race
 * waits on a record of the wave (then the order of the uses is the order of the counts) */
static __attribute__((noinline)) void rz_after_refs(sim_x *x, const sim_insn *si)
{
    sim_wave *w = x->w;
    uint64_t u = 0;
    int uset = 0;
    /* (the swaps move the destination's value into src0: read as a use too) */
    unsigned nu = si->nrd + (si->flags & GCN_F_WR_SRC0 ? si->nwr : 0);
    if (si->rz_fast & RZ_FAST) {
        /* every row below 64: the same loops on the masks (a row's followed state is one bit
         * of rz_m[0]; a use only releases rows, so the rows marked when a reference is
         * reached are the only ones its loop can use, in the same order) */
        if (si->ck_rzu & w->rz_m[0])
            for (unsigned i = 0; i < nu && w->rz_n; i++) {
                const sim_rref *r = i < si->nrd ? &si->rd[i] : &si->wr[i - si->nrd];
                if (r->file != 1)
                    continue;
                uint64_t b = (r->n >= 64 ? ~0ull : (1ull << r->n) - 1) << r->r & w->rz_m[0];
                if (!b)
                    continue;
                if (!uset) {
                    u = use_lanes(x, si);
                    uset = 1;
                }
                for (; b; b &= b - 1) {
                    unsigned k = (unsigned)__builtin_ctzll(b);
                    if (row_marked(w, k) && (w->rz_lanes[k] & u))
                        row_use(x->sim, w, k, w->rz_lanes[k] & u);
                }
            }
        if (!w->rz_n || !(si->ck_rzw & w->rz_m[0]))
            return;             /* (no written row followed: the overwrite loop does nothing) */
    } else
    for (unsigned i = 0; i < nu && w->rz_n; i++) {
        const sim_rref *r = i < si->nrd ? &si->rd[i] : &si->wr[i - si->nrd];
        unsigned n = ref_marked(w, r);
        if (!n)
            continue;
        if (!uset) {
            u = use_lanes(x, si);
            uset = 1;
        }
        for (unsigned k = r->r; k < r->r + n; k++)
            if (row_marked(w, k) && (w->rz_lanes[k] & u))
                row_use(x->sim, w, k, w->rz_lanes[k] & u);
    }
    if (!w->rz_n)
        return;
    uint64_t kl = ~0ull;
    int kset = 0;
    for (unsigned i = 0; i < si->nwr; i++) {
        const sim_rref *r = &si->wr[i];
        unsigned n = ref_marked(w, r);
        if (!n)
            continue;
        if (!kset) {
            kl = kill_lanes(x, si);
            kset = 1;
        }
        if (!kl)
            return;
        for (unsigned k = r->r; k < r->r + n; k++)
            if (row_marked(w, k))
                row_kill(w, k, kl);
    }
}

void sim_rz_after(sim_x *x, const sim_insn *si)
{
    sim_wave *w = x->w;
    if (__builtin_expect(!(si->rz_fast & RZ_FAST) || w->rz_wait, 0)) {
        if (!si->ck)
            sim_check_masks((sim_insn *)si);
        if (si->ck == 1 && !(si->ck_v & w->rz_m[0]))
            return;             /* (only rows below 64, none followed) */
        rz_after_refs(x, si);
        return;
    }
    /* every row below 64 and no race waits on a record of the wave: a use marks the record
     * used and releases its rows, an overwrite ends lanes; nothing is counted, so the order
     * of the rows does not matter (the records a use reaches are those of the rows read in
     * a lane of u that hold a value, whichever row comes first) */
    uint64_t b = si->ck_rzu & w->rz_m[0];
    if (b) {
        uint64_t u = use_lanes(x, si);
        for (; b; b &= b - 1) {
            unsigned r = (unsigned)__builtin_ctzll(b);
            if (!(w->rz_m[0] >> r & 1) || !(w->rz_lanes[r] & u))
                continue;       /* (released by a use of this instruction already) */
            unsigned k = w->rz_own[r];
            sim_rzrec *c = REC(w, k);
            c->used = 1;
            if (c->dn == 1) {   /* (a read of one register: its one row is r) */
                w->rz_lanes[r] = 0;
                w->rz_own[r] = 0;
                w->rz_m[0] &= ~(1ull << r);
                w->rz_n--;
                c->nrows = 0;
            } else {
                rec_rows_release(w, k);
            }
            if (!c->nlink)
                rec_free(w, k);
        }
    }
    b = si->ck_rzw & w->rz_m[0];
    if (!b || !(si->rz_fast & RZ_KILL))
        return;
    uint64_t kl = x->exec & x->wmask;
    for (; b && kl; b &= b - 1) {
        unsigned r = (unsigned)__builtin_ctzll(b);
        if (w->rz_m[0] >> r & 1)
            row_kill(w, r, kl);
    }
}

void sim_rz_barrier(sim_wave *w)
{
    uint8_t wait = 0;
    for (uint64_t b = w->rz_busy; b; b &= b - 1) {
        unsigned k = (unsigned)__builtin_ctzll(b) + 1;
        sim_rzrec *c = REC(w, k);
        c->nlink = 0;
        if (!c->nocc)
            rec_free(w, k);
        else
            wait = 1;
    }
    w->rz_wait = wait;
}

void sim_rz_wave_end(sim_wave *w)
{
    /* what the wave never used is dead; the records stay (dead) for the notes */
    for (uint64_t b = w->rz_busy; b; b &= b - 1) {
        unsigned k = (unsigned)__builtin_ctzll(b) + 1;
        sim_rzrec *c = REC(w, k);
        rec_rows_release(w, k);
        c->landed = 1;
        rec_dead(w, k);
    }
}

void sim_rz_reset(sim_wave *w)
{
    if (w->rz_n) {
        memset(w->rz_lanes, 0, (size_t)w->nvrows * sizeof *w->rz_lanes);
        memset(w->rz_own, 0, w->nvrows);
        memset(w->rz_m, 0, sizeof w->rz_m);
        w->rz_n = 0;
    }
    for (uint64_t b = w->rz_busy; b; b &= b - 1)
        w->rz[__builtin_ctzll(b)].gen = 0;
    w->rz_busy = 0;
    w->rz_wait = 0;
    w->rz_next = 0;
}

int sim_rz_race(sim_x *x, int read, int war, sim_wave *ow, uint32_t addr,
                const sim_insn **prod, unsigned *rec)
{
    if (read) {
        *rec = x->rz_cur;
        return x->rz_cur ? 1 : 0;
    }
    if (!war || !ow)
        return 0;
    /* the reads of wave ow covering the byte, newest first (the producer named as before:
     * the newest) */
    unsigned n = sizeof ow->lrd / sizeof ow->lrd[0], alive = 0, any = 0;
    for (unsigned j = 0; j < ow->nlrd; j++) {
        unsigned i = (ow->lrd_next - 1 - j) % n;
        if (!(addr >= ow->lrd[i].lo && addr < ow->lrd[i].hi))
            continue;
        any = 1;
        unsigned k = ow->lrd[i].rz;
        const sim_rzrec *c = k ? REC(ow, k) : NULL;
        if (!c || c->gen != ow->lrd[i].rzgen || c->used)
            return 0;           /* used (or not known): counts now */
        if (!c->dead && !alive) {
            alive = k;
            *prod = c->si;
        }
    }
    if (!any)
        return 0;
    if (!alive)
        return 2;               /* every read of it is dead already */
    *rec = alive;
    return 1;
}

void sim_rz_defer(sim_x *x, sim_wave *rw, unsigned k, int fi, uint64_t lanes, uint64_t rlanes)
{
    gcn_sim *s = x->sim;
    uint64_t seq = s->rz_seq++;
    sim_rzrec *c = REC(rw, k);
    if (fi < 0)
        return;
    for (unsigned i = 0; i < c->nocc; i++)
        if (c->occ[i].fi == (uint32_t)fi && c->occ[i].wave == x->w->idx &&
            c->occ[i].rlanes == rlanes) {
            c->occ[i].n++;      /* once more (the first seen stays the earlier) */
            return;
        }
    if (c->nocc == SIM_RZ_NOCC) {
        sim_finding_occur(s, fi, x->w, lanes, seq);       /* no room to wait: counts now */
        return;
    }
    sim_rzocc *o = &c->occ[c->nocc++];
    rw->rz_wait = 1;
    o->fi = (uint32_t)fi;
    o->wave = (uint16_t)x->w->idx;
    o->lanes = lanes;
    o->rlanes = rlanes;
    o->seq = seq;
    o->n = 1;
}
