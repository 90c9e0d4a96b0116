/*
 * hazard_sim.c -- the simulator's use of the hazard engine (src/analyze/
 * gcn_hazard.h): every issued instruction of a wave is checked against the
 * wave's recent history; a violated rule is a finding (GCN_FIND_HAZARD)
 * naming producer, consumer, the wait states required and present.  The
 * llvm-conservative rules of hazards.def (what only LLVM requires) are
 * checked only with gcn_sim_opts.hazard_llvm (gcnsim --llvm-conservative).
 *
 * --hazard-effect=stale (gcn_sim_opts.hazard_effect = GCN_SIM_HZ_STALE) also
 * models the consequence of the hazards where the consumer reads a result
 * too early: it reads the register's value from before the producer wrote
 * it.  For that the pre-write values of every instruction's destinations are
 * kept for the hazard window (a ring of saved registers), swapped in for the
 * consumer's execution and swapped back afterwards (unless the consumer
 * itself overwrote them).  WAR/WAW and other hazards are only reported.
 *
 * Speed (the checks are on by default): the hazard facts of an instruction
 * are computed once, when it is pre-decoded (gcn_hz_analyze, gcn_hz_roles:
 * the rule groups it can be a consumer and a matching producer of).  The
 * inline hooks of sim_int.h only keep, per issued instruction, a ring of the
 * wave's last SIM_HZ_RING instructions (more than the 21-wait-state window), a
 * wait-state clock and per rule group the clock after its latest producer (the
 * look); the engine's history is brought up to date from the ring only before a
 * check is made (hz_sync, below), for an instruction that consumes a group with a
 * producer within the group's window.  There the history gives an entry only to
 * instructions that can be the producer of some group an instruction of the
 * program (as far as decoded) consumes; the others just advance the wait-state
 * clock (gcn_hz_skip).  When the ring no longer holds every instruction since
 * the last sync, or decoding met an instruction that consumes new groups, the
 * history is rebuilt from the ring: the findings are exactly those of a full
 * history (none looks further back than the window).  A check that found
 * nothing is not made again for the same instruction after the same
 * GCN_HZ_WINDOW instructions (the memo, below: a loop's checks are made once).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"

#define HZ_SAVE_SLOTS 160     /* saved registers (a 32x32 MFMA writes 16..32) */

typedef struct hz_save {
    uint64_t pc;               /* producer */
    uint32_t seq;              /* age (larger = newer) */
    uint16_t unit;             /* gcn_hz unit */
    uint8_t valid;
    uint32_t val[NL];          /* scalar: val[0] */
} hz_save;

/* Storage of a register unit in the wave, or NULL (lanes: 1 for scalar). */
static uint32_t *unit_ptr(sim_wave *w, unsigned unit, unsigned *lanes)
{
    if (unit < 128) {
        *lanes = 1;
        return &w->s[unit];
    }
    unsigned row;
    if (unit >= GCN_HZ_UNIT_AGPR)
        row = w->accum + (unit - GCN_HZ_UNIT_AGPR);
    else
        row = unit - GCN_HZ_UNIT_VGPR;
    if (row >= w->nvrows)
        return NULL;
    *lanes = NL;
    return w->v[row];
}

void sim_hz_free(sim_wave *w)
{
    if (w && w->hz) {
        free(w->hz->save);
        free(w->hz);
        w->hz = NULL;
    }
}

void sim_hz_setup(gcn_sim *s)
{
    for (unsigned g = 0; g < 64; g++) {
        s->hz_win[g] = (uint8_t)gcn_hz_group_window(g, s->hz_flags);
        s->hz_pwin[g] = s->hz_win[g] ? s->hz_win[g] : 1;
    }
}

void sim_hz_wave_reset(gcn_sim *s, sim_wave *w)
{
    if (!s->hz_on)
        return;
    if (!w->hz) {
        w->hz = calloc(1, sizeof *w->hz);
        if (!w->hz)
            return;
        gcn_hz_reset(&w->hz->st, s->prog->dec.target, s->hz_flags);
    }
    struct sim_hz *h = w->hz;
    if (h->wflags != s->hz_flags + 1) {
        memcpy(h->win, s->hz_win, sizeof s->hz_win);      /* sim_hz_setup's */
        memcpy(h->pwin, s->hz_pwin, sizeof s->hz_pwin);
        h->wflags = s->hz_flags + 1;
    }
    h->rn = 0;
    h->clk = 0;
    /* the history is made at the first sync, a rebuild (from the wave's instructions) */
    h->built = h->rn - SIM_HZ_RING - 1;
    /* no group hot: plast is read only for the groups in hot, each set when its bit was
     * (a test verifying the look: every group stays hot, each look is made -- then what an
     * earlier wave left in plast can make a look find a group near: more, never less) */
    h->hot = sim_hz_memo_test.verify ? ~0ull : 0;
    w->hz->seq = 0;
    w->hz->next = 0;
    w->hz->nswap = 0;
    w->hz->stale = s->o.hazard_effect == GCN_SIM_HZ_STALE;
    if (w->hz->stale) {
        if (!w->hz->save)
            w->hz->save = calloc(HZ_SAVE_SLOTS, sizeof *w->hz->save);
        if (w->hz->save)
            for (unsigned i = 0; i < HZ_SAVE_SLOTS; i++)
                w->hz->save[i].valid = 0;
    }
}

/* Rebuild the history from the ring of recent instructions (the program's consumer groups
 * grew, or the ring no longer holds every instruction since the last sync). */
static void rebuild(gcn_sim *s, struct sim_hz *h)
{
    gcn_hz_restart(&h->st, s->prog->dec.target, s->hz_flags);
    h->cons = s->prog->hz_cons;
    for (unsigned g = 0; g < 64; g++)
        h->last[g] = INT32_MIN / 2;
    unsigned n = h->rn < SIM_HZ_RING ? h->rn : SIM_HZ_RING;
    for (unsigned k = h->rn - n; k != h->rn; k++) {
        const sim_insn *si = h->ring[k % SIM_HZ_SLOTS];
        if (si->hz_prod & h->cons)
            sim_hz_push(h, si);
        else
            gcn_hz_skip(&h->st, si->hz_ws);
    }
}

/* Bring the history up to date (the hooks of the run loop only fill the ring): the
 * instructions since the last sync appended, as each would have been after it executed;
 * or a rebuild. */
static void hz_sync(gcn_sim *s, struct sim_hz *h)
{
    if (h->cons != s->prog->hz_cons || h->rn - h->built > SIM_HZ_RING) {
        rebuild(s, h);
    } else {
        for (unsigned k = h->built; k != h->rn; k++) {
            const sim_insn *si = h->ring[k % SIM_HZ_SLOTS];
            if (si->hz_prod & h->cons)
                sim_hz_push(h, si);
            else
                gcn_hz_skip(&h->st, si->hz_ws);
        }
    }
    h->built = h->rn;
}

/* Remember the values the destinations of si hold before it executes. */
static void save_defs(sim_wave *w, const sim_insn *si)
{
    struct sim_hz *h = w->hz;
    const gcn_hz_insn *hi = &si->hz;
    h->seq++;
    for (unsigned d = 0; d < hi->ndef; d++)
        for (unsigned u = hi->def[d].lo; u < (unsigned)hi->def[d].lo + hi->def[d].n; u++) {
            unsigned lanes;
            uint32_t *p = unit_ptr(w, u, &lanes);
            if (!p)
                continue;
            /* a ring: the slot reused is the oldest */
            hz_save *sv = &h->save[h->next];
            h->next = (h->next + 1) % HZ_SAVE_SLOTS;
            sv->valid = 1;
            sv->pc = si->pc;
            sv->seq = h->seq;
            sv->unit = (uint16_t)u;
            memcpy(sv->val, p, lanes * sizeof *p);
        }
}

static const hz_save *find_save(const struct sim_hz *h, uint64_t pc, unsigned unit)
{
    const hz_save *best = NULL;
    for (unsigned i = 0; i < HZ_SAVE_SLOTS; i++) {
        const hz_save *sv = &h->save[i];
        if (sv->valid && sv->pc == pc && sv->unit == unit && (!best || sv->seq > best->seq))
            best = sv;
    }
    return best;
}

/* The check memo.  A check's findings are a function of the consumer's record, the
 * target and flags (fixed for a run), the program's consumer groups (h->cons, which decide
 * which instructions have history entries) and the last GCN_HZ_WINDOW instructions the
 * wave issued, in order: every instruction counts at least one wait state and no window
 * reaches GCN_HZ_WINDOW, so an older producer is never seen (its entry, while not yet
 * expired, only widens gprod_union, which narrows nothing a check finds); the soft-clause
 * checks look at at most 19 trailing members, and a clause that began before the window
 * shows as one running through all of it either way; a wave's first instructions have
 * fewer predecessors (the count is part of the key).  So when a check found nothing, the
 * same instruction after the same predecessors, with the same groups, finds nothing
 * again: the record keeps the predecessors of its last empty check (their indices in this
 * thread's program, whose records never move or change: one index, one instruction; half
 * the bytes of pointers to compare) and a check after the same ones is skipped.  A loop's
 * instructions meet the same predecessors in every iteration. */
struct sim_hz_memo_test sim_hz_memo_test;

/* The window and the test: sim_hz_memo_win and sim_hz_memo_hit (sim_int.h, inline in the
 * run loop's hook). */
_Static_assert(SIM_HZ_RING >= GCN_HZ_WINDOW, "the memo's window lies in the ring");
_Static_assert(SIM_HZ_SLOTS >= SIM_HZ_RING && !(SIM_HZ_SLOTS & (SIM_HZ_SLOTS - 1)),
               "the ring lies in the slots (a power of two: k % SIM_HZ_SLOTS wraps with k)");

static void memo_keep(const struct sim_hz *h, const sim_insn *si)
{
    unsigned n;
    uint32_t buf[2 * GCN_HZ_WINDOW];
    const uint32_t *prev = sim_hz_memo_win(h, &n, buf);
    /* the predecessors by their program index: one that has none (an index-mode variant)
     * could not be told from another, so such a window keeps no memo (the stale slots
     * before a wave's first instruction are compared too, but decide nothing) */
    for (unsigned i = GCN_HZ_WINDOW - n; i < GCN_HZ_WINDOW; i++)
        if (prev[i] == SIM_NO_IDX)
            return;
    sim_insn *m = (sim_insn *)si;      /* the memo only: a cache in this thread's record */
    memcpy(m->hzm_prev, prev, sizeof m->hzm_prev);
    m->hzm_cons = h->cons;
    m->hzm_n = (uint8_t)(n + 1);
}

void sim_hz_before(gcn_sim *s, sim_x *x, const sim_insn *si)
{
    sim_wave *w = x->w;
    struct sim_hz *h = w->hz;
    if (!h)
        return;
    hz_sync(s, h);
    if (__builtin_expect(sim_hz_memo_test.verify, 0))
        h->hot = ~0ull;         /* (the test's: sim_hz_verify_skip) */
    h->nswap = 0;
    int stale = h->stale && h->save;
    /* only the groups that can find anything (the others have no producer in their window:
     * their checks would find nothing); stale mode checks all */
    uint64_t groups = stale ? ~0ull : sim_hz_may_find(h, si);
    if (!groups)
        return;
    gcn_hz_finding f[16];
    if (!stale && sim_hz_memo_hit(h, si, h->cons)) {
        if (__builtin_expect(sim_hz_memo_test.verify, 0)) {
            sim_hz_memo_test.hits++;
            sim_hz_memo_test.wrong += gcn_hz_check_groups(&h->st, &si->hz, groups, f, 16) != 0;
        }
        return;
    }
    unsigned n = gcn_hz_check_groups(&h->st, &si->hz, groups, f, 16);
    if (!n && !stale)
        memo_keep(h, si);
    if (stale)
        save_defs(w, si);
    for (unsigned i = 0; i < n && i < 16; i++) {
        const gcn_hz_rule *r = gcn_hz_rule_get(f[i].rule);
        char err[128], u[24];
        int32_t pi = sim_prog_at(s->prog, f[i].prod_pc, err, sizeof err);
        const sim_insn *prod = pi >= 0 ? sim_prog_insn(s->prog, (uint32_t)pi) : NULL;
        char detail[512];
        snprintf(detail, sizeof detail,
                 "hazard %s: needs %u wait state%s after the producer, has %u (%s); %s "
                 "[%s%s]%s",
                 r ? r->name : "?", f[i].required, f[i].required == 1 ? "" : "s", f[i].present,
                 gcn_hz_unit_name(f[i].unit, u, sizeof u), r ? r->desc : "",
                 r ? gcn_hz_src_tag(r->src) : "",
                 f[i].llvm ? "; llvm-conservative: only LLVM requires it" : "",
                 stale && f[i].raw ? "; read the old value" : "");
        sim_finding_rule(s, w, si, r ? r->name : "?", prod, sim_exec(w), detail);
        if (!stale || !f[i].raw)
            continue;
        for (unsigned u2 = f[i].reg.lo; u2 < (unsigned)f[i].reg.lo + f[i].reg.n; u2++) {
            const hz_save *sv = find_save(h, f[i].prod_pc, u2);
            unsigned lanes;
            uint32_t *p = unit_ptr(w, u2, &lanes);
            if (!sv || !p || h->nswap == HZ_SWAP_MAX)
                continue;
            int dup = 0;
            for (unsigned k = 0; k < h->nswap; k++)
                dup |= h->swap_unit[k] == u2;
            if (dup)
                continue;
            h->swap_unit[h->nswap] = (uint16_t)u2;
            memcpy(h->swap_new[h->nswap], p, lanes * sizeof *p);
            memcpy(p, sv->val, lanes * sizeof *p);
            h->nswap++;
        }
    }
}

void sim_hz_stamp_more(struct sim_hz *h, const sim_insn *si)
{
    /* (all of hz_prod: a group the program does not consume gets its true clock too) */
    for (uint64_t pm = si->hz_prod; pm; pm &= pm - 1)
        h->plast[__builtin_ctzll(pm)] = h->clk;
}

void sim_hz_regroup(gcn_sim *s, sim_wave *const *waves, unsigned n)
{
    sim_prog *p = s->prog;
    uint64_t add = p->hz_cons & ~p->hz_pgcons;
    p->hz_pgcons = p->hz_cons;
    if (!add)
        return;
    for (uint32_t i = 0; i < p->n; i++)
        sim_hz_groups(sim_prog_insn(p, i), p->hz_pgcons);
    for (uint32_t k = 0; k < p->nix; k++)
        if (p->ix[k].v)
            sim_hz_groups(p->ix[k].v, p->hz_pgcons);
    /* the new groups' latest producers in each ring, the newest first (the clock after an
     * instruction: clk less the wait states of those after it); without hazard checks the
     * waves' histories are not in use (not reset for this run: their rings may hold an
     * earlier program's instructions) */
    for (unsigned wi = 0; s->hz_on && wi < n; wi++) {
        struct sim_hz *h = waves[wi] ? waves[wi]->hz : NULL;
        if (!h)
            continue;
        uint32_t c = h->clk;
        uint64_t need = add;
        unsigned m = h->rn < SIM_HZ_RING ? h->rn : SIM_HZ_RING;
        for (unsigned k = h->rn; need && k-- != h->rn - m;) {
            const sim_insn *si = h->ring[k % SIM_HZ_SLOTS];
            uint64_t f = si->hz_prod & need;
            for (uint64_t b = f; b; b &= b - 1)
                h->plast[__builtin_ctzll(b)] = c;
            need &= ~f;
            c -= si->hz_ws;
        }
        h->hot |= add & ~need;
    }
}

/* For tests only (sim_hz_memo_test.verify): si's look found no group with a producer in
 * its window, so no check was made: make it all the same (skips counts them, wrong those
 * that found something), and keep every group hot (each look is made). */
void sim_hz_verify_skip(gcn_sim *s, sim_x *x, const sim_insn *si)
{
    struct sim_hz *h = x->w->hz;
    if (!h)
        return;
    hz_sync(s, h);
    h->hot = ~0ull;
    uint64_t groups = sim_hz_may_find(h, si);
    sim_hz_memo_test.skips++;
    if (groups) {
        gcn_hz_finding f[16];
        sim_hz_memo_test.wrong_skips += gcn_hz_check_groups(&h->st, &si->hz, groups, f, 16) != 0;
    }
}

/* Stale mode: put back the values swapped in for si (sim_hz_post). */
void sim_hz_restore(gcn_sim *s, sim_x *x, const sim_insn *si)
{
    sim_wave *w = x->w;
    struct sim_hz *h = w->hz;
    (void)s;
    if (!h)
        return;
    for (unsigned k = 0; k < h->nswap; k++) {
        unsigned u = h->swap_unit[k], lanes;
        int written = 0;
        for (unsigned d = 0; d < si->hz.ndef; d++)
            written |= u >= si->hz.def[d].lo && u < (unsigned)si->hz.def[d].lo + si->hz.def[d].n;
        uint32_t *p = unit_ptr(w, u, &lanes);
        if (!p)
            continue;
        if (!written)
            memcpy(p, h->swap_new[k], lanes * sizeof *p);
        else if (lanes == NL)   /* lanes the consumer did not write keep the new value */
            for (unsigned l = 0; l < NL; l++)
                if (!(x->exec >> l & 1))
                    p[l] = h->swap_new[k][l];
    }
    h->nswap = 0;
}
