/*
 * fifo.c -- the wait counters as FIFOs of tickets, and the dynamic checks
 * built on them.
 *
 * Every memory instruction takes a ticket and enters the FIFO of each counter
 * it increments (vmcnt: vector memory, in issue order; lgkmcnt: LDS in order,
 * SMEM and FLAT out of order).  The value a load returns is computed at issue
 * and kept in the ticket; it reaches registers or LDS only when the ticket
 * retires, and tickets retire only at s_waitcnt (oldest first, until the
 * counter is at most N), at s_endpgm, or when a counter is full (the hardware
 * stalls issue then).  This pessimistic model exposes every missing wait:
 *   - a read of a register whose load has not retired (the program reads the
 *     old value, as it may on hardware), and an overwrite of such a register;
 *   - an LDS read of bytes an unretired LDS-DMA writes;
 *   - an SMEM result used after lgkmcnt(N>0) while another out-of-order
 *     operation was pending (only lgkmcnt(0) guarantees an SMEM result);
 *   - an s_barrier passed with this wave's LDS writes outstanding that
 *     another wave then reads after its own s_barrier (not an atomic of that
 *     wave against a pending atomic: LDS atomics need no order between waves);
 *   - cross-wave LDS races (the tags of sim_body.h): plain against plain, and
 *     an LDS atomic against a plain access, never atomic against atomic.
 * Each finding carries its fix: the loosest s_waitcnt that retires what the
 * consumer waits for, counted from the FIFOs (fifo_wait_for, reg_pending),
 * and where it goes (the consumer, or the writer's s_barrier).
 * s_waitcnt encoding (gfx9): vmcnt = simm16[3:0] | simm16[15:14] << 4,
 * expcnt = [6:4], lgkmcnt = [11:8] (LLVM AMDGPUBaseInfo decodeWaitcnt).
 */
#include <stdio.h>
#include <string.h>
#include "sim_int.h"
#include "valu_int.h"               /* GCN_HOT */
#include "trace.h"

/* The per-block counts of a pending range of several blocks (or past SIM_LDS_MAXBLK), for
 * sim_lds_lr_add and lr_remove: d = 1 counts it, -1 takes it out */
void sim_lds_lr_count_blocks(sim_wg *g, uint32_t lo, uint32_t hi, int d)
{
    uint32_t b0 = lo >> SIM_LDS_BLK_SHIFT, b1 = (hi - 1) >> SIM_LDS_BLK_SHIFT;
    if (b1 >= SIM_LDS_MAXBLK || b1 - b0 >= SIM_LR_SMALL)
        g->lr_nbig += (unsigned)d;
    else
        for (uint32_t b = b0; b <= b1; b++)
            g->lr_bcnt[b] = (uint16_t)(g->lr_bcnt[b] + d);
}


static inline __attribute__((always_inline)) void lr_remove(sim_wg *g, sim_ticket *t)
{
    if (!g || t->lr_idx < 0)
        return;
    unsigned i = (unsigned)t->lr_idx;
    uint32_t cb = g->lr[i].cb;
    if (__builtin_expect(cb != UINT32_MAX, 1))
        g->lr_bcnt[cb]--;
    else
        sim_lds_lr_count_blocks(g, g->lr[i].lo, g->lr[i].hi, -1);
    g->nlr--;
    if (i != g->nlr) {
        g->lr[i] = g->lr[g->nlr];
        g->lr[i].t->lr_idx = (int16_t)i;
    } else if (!g->nlr) {
        g->lr_dirty = 0;        /* (every count is 0 again) */
    }
    t->lr_idx = -1;
}

/* The data of a ticket that has not landed reaches its destination. */
static inline __attribute__((always_inline)) void tk_land_now(gcn_sim *s, sim_wave *w,
                                                              sim_ticket *t)
{
    t->landed = 1;
    sim_wg *g = w->wg;
    switch (t->kind) {
    case TK_VREG:
        if (__builtin_expect(t->dn == 1 && !t->wmask_mode && t->lanes == ~0ull &&
                             t->dreg < w->nvrows, 1)) {
            /* one row, every lane: the loop below in a copy */
            unsigned row = t->dreg;
            sim_row_copy(w->v[row], t->data);
            if (w->vpend[row] && !--w->vpend[row] && row < 64)
                w->vpend_m &= ~(1ull << row);
            if (__builtin_expect(w->rz_n | t->rz, 0))
                sim_rz_land1(s, w, t);      /* (sim_rz_land of this one row) */
        } else {
            for (unsigned k = 0; k < t->dn; k++) {
                unsigned row = t->dreg + k;
                if (row >= w->nvrows)
                    break;
                uint32_t *d = w->v[row];
                const uint32_t *src = t->data + k * NL;
                uint64_t m = t->lanes;
                if (t->wmask_mode == 0 && m == ~0ull) {
                    memcpy(d, src, NL * 4);
                } else {
                    uint32_t keep = t->wmask_mode == 1   ? 0xffff0000u
                                    : t->wmask_mode == 2 ? 0xffffu
                                                         : 0;
                    if (t->wmask_mode == 3) /* d16 xyz: the last register's high half kept */
                        keep = k + 1 == t->dn ? 0xffff0000u : 0;
                    for (unsigned l = 0; l < NL; l++)
                        if (m >> l & 1)
                            d[l] = (d[l] & keep) | (src[l] & ~keep);
                }
                if (w->vpend[row] && !--w->vpend[row] && row < 64)
                    w->vpend_m &= ~(1ull << row);
            }
            if (__builtin_expect(w->rz_n | t->rz, 0))
                sim_rz_land(s, w, t);   /* the race check's followed reads (racyreg.c) */
        }
        lr_remove(g, t);            /* a returning LDS atomic also writes LDS (naddr) */
        w->npend--;
        break;
    case TK_SREG:
        for (unsigned k = 0; k < t->dn; k++) {
            unsigned r = t->dreg + k;
            if (r >= 128)
                break;
            if (r != SR_NULL)
                w->s[r] = t->data[k];
            if (w->spend[r] && !--w->spend[r])
                w->spend_m[r >> 6] &= ~(1ull << (r & 63));
        }
        w->npend--;
        break;
    case TK_LDS_DMA:
        if (g && t->lane_bytes) {
            const uint8_t *src = (const uint8_t *)t->data;
            unsigned sz = t->lane_bytes;
            if (t->lanes == ~0ull && (uint64_t)t->lds_base + (uint64_t)sz * NL <= g->lds_size) {
                if (sz == 4)
                    sim_row_copy(g->lds + t->lds_base, src);    /* (the common dword DMA) */
                else
                    memcpy(g->lds + t->lds_base, src, (size_t)sz * NL);
            } else {
                for (unsigned l = 0; l < NL; l++) {
                    if (!(t->lanes >> l & 1))
                        continue;
                    uint32_t a = t->lds_base + l * sz;
                    if ((uint64_t)a + sz <= g->lds_size)
                        memcpy(g->lds + a, src + (size_t)l * sz, sz);
                }
            }
            lr_remove(g, t);
        }
        break;
    case TK_LDS_WRITE:
        lr_remove(g, t);
        break;
    default:
        break;
    }
    (void)s;
}
static inline __attribute__((always_inline)) void tk_land(gcn_sim *s, sim_wave *w, sim_ticket *t)
{
    if (!t->landed)
        tk_land_now(s, w, t);
}

static void tk_free(sim_wave *w, sim_ticket *t)
{
    t->kind = TK_NONE;
    w->tk_free[w->ntk_free++] = t;
}

/* Retire ticket t, just taken off FIFO `bit` (tr: the wave is traced, w->traced && s->trace):
 * it lands when no FIFO still needs it and is free when it is in no FIFO. */
static inline __attribute__((always_inline)) void tk_retire(gcn_sim *s, sim_wave *w,
                                                            sim_ticket *t, unsigned bit, int tr)
{
    if (__builtin_expect(!tr && t->in == bit && t->need == bit, 1)) {
        /* the common ticket, in this FIFO only: not landed yet (its need was this FIFO),
         * it lands and is free (in and need are set anew when it is taken again) */
        tk_land_now(s, w, t);
        tk_free(w, t);
        return;
    }
    t->in &= (uint8_t)~bit;
    t->need &= (uint8_t)~bit;
    if (!t->need)
        tk_land(s, w, t);
    if (__builtin_expect(tr, 0))
        sim_trace_retire(s->trace, w, t, bit);
    if (!t->in)
        tk_free(w, t);
}
/* Retire the oldest entry of one FIFO (inline: sim_waitcnt's loops retire most). */
static inline __attribute__((always_inline)) void fifo_retire_tr(gcn_sim *s, sim_wave *w,
                                                                 sim_fifo *f, unsigned bit, int tr)
{
    sim_ticket *t = f->e[f->head];
    f->head = (f->head + 1) & 63;
    f->n--;
    tk_retire(s, w, t, bit, tr);
}
/* Retire the oldest entries of one FIFO until it holds keep (sim_waitcnt; the wave is not
 * traced): the entries leave the ring at once, then each is retired in age order as
 * fifo_retire_tr does (landing neither reads nor changes the FIFOs). */
static inline __attribute__((always_inline)) void fifo_retire_to(gcn_sim *s, sim_wave *w,
                                                                 sim_fifo *f, unsigned bit,
                                                                 unsigned keep)
{
    unsigned k = f->n - keep, h = f->head;
    f->head = (h + k) & 63;
    f->n = keep;
    for (unsigned i = 0; i < k; i++)
        tk_retire(s, w, f->e[(h + i) & 63], bit, 0);
}
static inline __attribute__((always_inline)) void fifo_retire(gcn_sim *s, sim_wave *w,
                                                              sim_fifo *f, unsigned bit)
{
    fifo_retire_tr(s, w, f, bit, w->traced && s->trace);
}

/* sim_tk_new with a full counter or no free ticket (apart: the common issue has no retire) */
__attribute__((noinline)) void sim_tk_stall(sim_x *x, unsigned counters)
{
    sim_wave *w = x->w;
    /* a full counter stalls issue until the oldest entry returns */
    if ((counters & TC_VM) && w->vm.n >= SIM_VM_MAX)
        fifo_retire(x->sim, w, &w->vm, TC_VM);
    if ((counters & TC_LGKM) && w->lgkm.n >= SIM_LGKM_MAX)
        fifo_retire(x->sim, w, &w->lgkm, TC_LGKM);
    if (!w->ntk_free) {
        /* cannot happen: each FIFO holds at most its maximum */
        while (w->vm.n)
            fifo_retire(x->sim, w, &w->vm, TC_VM);
        while (w->lgkm.n)
            fifo_retire(x->sim, w, &w->lgkm, TC_LGKM);
    }
}

void sim_tk_trace(sim_x *x, const sim_ticket *t)
{
    if (x->w->traced && x->sim->trace)
        sim_trace_issue(x->sim->trace, x->w, t);
}

sim_ticket *sim_tk_new(sim_x *x, int kind, unsigned counters)
{
    return sim_tk_take(x, kind, counters);
}

/* Same in-order stream: both only in vmcnt, or both in-order lgkm (DS). */
static int same_stream(const sim_ticket *a, const sim_ticket *b)
{
    if (a->ooo || b->ooo)
        return 0;
    return a->in == b->in;
}

/* The count N of the loosest wait on FIFO f (vmcnt(N) or lgkmcnt(N)) after which ticket
 * t is guaranteed complete, or -1 when t is not in f.
 *   vmcnt: vector memory operations return in issue order (gfx9 counts loads, stores and
 *     atomics in one in-order vmcnt), so N = the entries issued after t still counted.
 *   lgkmcnt: LDS operations return in issue order, SMEM and FLAT out of order.  The wait
 *     lets N operations stay outstanding; were an in-order t among them, so would be every
 *     in-order entry after it.  So N = the in-order entries after t (the out-of-order ones
 *     may all have returned), and 0 for an out-of-order t, which may return last (LLVM
 *     SIInsertWaitcnts: counterOutOfOrder forces 0; its header notes that lgkmcnt(i)
 *     would do for the i-th-last LDS operation with SMEM in flight).  sim_waitcnt
 *     retires by the same rule.
 * The FIFOs never hold more than 63 / 15 entries (a full counter stalls issue, sim_tk_new),
 * so N is at most 62 / 14: never the field's maximum, which on gfx9 means "do not wait". */
static int fifo_wait_for(const sim_fifo *f, const sim_ticket *t, int lgkm)
{
    int pos = -1;
    for (unsigned i = 0; i < f->n; i++)
        if (f->e[(f->head + i) & 63] == t) {
            pos = (int)i;
            break;
        }
    if (pos < 0)
        return -1;
    if (!lgkm)
        return (int)f->n - 1 - pos;
    if (t->ooo)
        return 0;
    int n = 0;
    for (unsigned i = (unsigned)pos + 1; i < f->n; i++)
        n += !f->e[(f->head + i) & 63]->ooo;
    return n;
}

/* Tighten fx so that it also retires t: a wait on each counter t must still leave before
 * its data lands (need), e.g. vmcnt and lgkmcnt for a FLAT load that read LDS. */
static void fix_add(sim_fix *fx, const sim_wave *w, const sim_ticket *t)
{
    if (t->need & TC_VM) {
        int n = fifo_wait_for(&w->vm, t, 0);
        if (n >= 0 && (fx->vm < 0 || n < fx->vm))
            fx->vm = n;
    }
    if (t->need & TC_LGKM) {
        int n = fifo_wait_for(&w->lgkm, t, 1);
        if (n >= 0 && (fx->lgkm < 0 || n < fx->lgkm))
            fx->lgkm = n;
    }
}

/* The unlanded register tickets of w that write registers [r0, r0+n) of FILE (1 VGPR rows,
 * 2 SGPRs) for any of LANES (VGPRs), other than SKIP and, when SAME is given, other than
 * those of SAME's in-order stream: fx becomes the wait that retires all of them, and the
 * youngest is returned (the producer a report names), or NULL when there is none. */
static const sim_ticket *reg_pending(const sim_wave *w, int file, unsigned r0, unsigned n,
                                     uint64_t lanes, const sim_ticket *same, sim_fix *fx)
{
    const sim_ticket *prod = NULL;
    int kind = file == 1 ? TK_VREG : TK_SREG;
    fx->vm = fx->lgkm = -1;
    for (int q = 0; q < 2; q++) {
        const sim_fifo *f = q ? &w->lgkm : &w->vm;
        for (unsigned i = 0; i < f->n; i++) {
            const sim_ticket *t = f->e[(f->head + i) & 63];
            if (t == same || t->landed || t->kind != kind || t->dreg >= r0 + n ||
                t->dreg + t->dn <= r0 || (file == 1 && !(t->lanes & lanes)))
                continue;
            if (same && same_stream(t, same))
                continue;
            fix_add(fx, w, t);
            if (!prod || t->seq > prod->seq)
                prod = t;
        }
    }
    return prod;
}

/* --wait-effect=retire: after a read-before-retire or overwrite-before-retire finding, the
 * loads retire as the wait the finding proposes would retire them */
static void fix_retire(sim_x *x, const sim_fix *fx)
{
    if (x->sim->o.wait_effect != GCN_SIM_WAIT_RETIRE)
        return;
    sim_waitcnt(x, fx->vm >= 0 ? (unsigned)fx->vm : ~0u, fx->lgkm >= 0 ? (unsigned)fx->lgkm : ~0u);
}

static void reg_name(char *buf, size_t n, const sim_wave *w, int file, unsigned r)
{
    if (file == 1) {
        if (r >= w->accum)
            snprintf(buf, n, "a%u", r - w->accum);
        else
            snprintf(buf, n, "v%u", r);
    } else {
        const char *sp = NULL;
        switch (r) {
        case SR_VCC_LO: sp = "vcc_lo"; break;
        case SR_VCC_HI: sp = "vcc_hi"; break;
        case SR_M0: sp = "m0"; break;
        case SR_EXEC_LO: sp = "exec_lo"; break;
        case SR_EXEC_HI: sp = "exec_hi"; break;
        default: break;
        }
        if (sp)
            snprintf(buf, n, "%s", sp);
        else if (r >= SR_TTMP0 && r < SR_TTMP0 + 16)
            snprintf(buf, n, "ttmp%u", r - SR_TTMP0);
        else
            snprintf(buf, n, "s%u", r);
    }
}

/* sim_tk_issue's check of a register load against the pending loads of its registers
 * (the report's path apart: the common issue runs without its frame). */
__attribute__((noinline, cold)) void sim_tk_issue_pending(sim_x *x, sim_ticket *t)
{
    sim_wave *w = x->w;
    char rn[32];
    sim_fix fx;
    if (t->kind == TK_VREG) {
        unsigned n = t->dreg + t->dn <= w->nvrows ? t->dn : t->dreg < w->nvrows ? w->nvrows - t->dreg : 0;
        for (unsigned k = 0; k < n; k++) {
            if (!w->vpend[t->dreg + k])
                continue;
            const sim_ticket *o = reg_pending(w, 1, t->dreg, n, t->lanes, t, &fx);
            if (o) {
                unsigned row = o->dreg > t->dreg ? o->dreg : t->dreg;
                reg_name(rn, sizeof rn, w, 1, row);
                sim_finding_fix(x, GCN_FIND_WRITE_PENDING, o->si, o->lanes & t->lanes, &fx, NULL,
                                "add %s before", "%s is overwritten by this load while the "
                                "earlier load writing it has not retired and may land later "
                                "(the two return in no fixed order)", rn);
                fix_retire(x, &fx);
            }
            break;
        }
    } else if (t->kind == TK_SREG) {
        unsigned n = t->dreg + t->dn <= 128 ? t->dn : t->dreg < 128 ? 128 - t->dreg : 0;
        for (unsigned k = 0; k < n; k++) {
            if (!w->spend[t->dreg + k])
                continue;
            const sim_ticket *o = reg_pending(w, 2, t->dreg, n, 0, t, &fx);
            if (o) {
                unsigned r = o->dreg > t->dreg ? o->dreg : t->dreg;
                reg_name(rn, sizeof rn, w, 2, r);
                sim_finding_fix(x, GCN_FIND_WRITE_PENDING, o->si, 1, &fx, NULL, "add %s before",
                                "%s is overwritten by this load while the earlier load writing "
                                "it has not retired (scalar loads return out of order)", rn);
                fix_retire(x, &fx);
            }
            break;
        }
    }
}

/* whether a register ticket writes a register another pending load still writes */
static inline int tk_dest_pending(const sim_wave *w, const sim_ticket *t)
{
    if (t->kind == TK_VREG) {
        unsigned n = t->dreg + t->dn <= w->nvrows ? t->dn : t->dreg < w->nvrows ? w->nvrows - t->dreg : 0;
        for (unsigned k = 0; k < n; k++)
            if (w->vpend[t->dreg + k])
                return 1;
    } else if (t->kind == TK_SREG) {
        unsigned n = t->dreg + t->dn <= 128 ? t->dn : t->dreg < 128 ? 128 - t->dreg : 0;
        for (unsigned k = 0; k < n; k++)
            if (w->spend[t->dreg + k])
                return 1;
    }
    return 0;
}

void sim_tk_issue(sim_x *x, sim_ticket *t)
{
    sim_wave *w = x->w;
    if (x->rz_cur && t->kind == TK_VREG)
        sim_rz_issue(x, t);         /* the DS read's record follows its result */
    /* a load that writes registers another load of a different return order still has to
     * write: the two may land in either order (checked before t is counted, so the fix
     * is the wait to put before this load) */
    if (w->npend && tk_dest_pending(w, t))
        sim_tk_issue_pending(x, t);
    if (t->in & TC_VM)
        sim_fifo_push(&w->vm, t);
    if (t->in & TC_LGKM)
        sim_fifo_push(&w->lgkm, t);
    if (t->kind == TK_VREG) {
        for (unsigned k = 0; k < t->dn; k++) {
            unsigned row = t->dreg + k;
            if (row >= w->nvrows)
                break;
            sim_tk_pend_row(w, row);
        }
        w->npend++;
    } else if (t->kind == TK_SREG) {
        for (unsigned k = 0; k < t->dn; k++) {
            unsigned r = t->dreg + k;
            if (r >= 128)
                break;
            w->spend[r]++;
            w->spend_m[r >> 6] |= 1ull << (r & 63);
            if (w->sooo[r]) {
                w->sooo[r] = 0;
                w->nooo--;
            }
        }
        w->npend++;
    }
    if (w->traced && x->sim->trace)
        sim_trace_issue(x->sim->trace, w, t);
}

/* Flag the destination registers of t as "retired by count, not guaranteed". */
static void mark_ooo(sim_wave *w, const sim_ticket *t, const sim_insn *other, const sim_insn *wait)
{
    if (t->kind == TK_VREG) {
        for (unsigned k = 0; k < t->dn && t->dreg + k < w->nvrows; k++) {
            unsigned r = t->dreg + k;
            if (!w->vooo[r])
                w->nooo++;
            w->vooo[r] = 1;
            w->vooo_prod[r] = t->si;
            w->vooo_other[r] = other;
            w->vooo_wait[r] = wait;
        }
    } else if (t->kind == TK_SREG) {
        for (unsigned k = 0; k < t->dn && t->dreg + k < 128; k++) {
            unsigned r = t->dreg + k;
            if (!w->sooo[r])
                w->nooo++;
            w->sooo[r] = 1;
            w->sooo_prod[r] = t->si;
            w->sooo_other[r] = other;
            w->sooo_wait[r] = wait;
        }
    }
}

static void clear_ooo(sim_wave *w)
{
    if (!w->nooo)
        return;
    memset(w->vooo, 0, w->nvrows);
    memset(w->sooo, 0, sizeof w->sooo);
    w->nooo = 0;
}

/* sim_waitcnt's body (inline: sim_waitcnt is its one out-of-line copy, the general path of
 * sim_waitcnt_insn, the hot body) */
static inline __attribute__((always_inline)) void waitcnt(sim_x *x, unsigned vm, unsigned lgkm)
{
    sim_wave *w = x->w;
    gcn_sim *s = x->sim;
    int tr = w->traced && s->trace;
    if (__builtin_expect(tr, 0)) {
        while (w->vm.n > vm)
            fifo_retire_tr(s, w, &w->vm, TC_VM, tr);
    } else if (w->vm.n > vm) {
        fifo_retire_to(s, w, &w->vm, TC_VM, vm);
    }
    if (w->lgkm.n > lgkm) {
        unsigned nret = w->lgkm.n - lgkm;
        if (lgkm > 0) {
            /* which retired entries are guaranteed complete?  lgkmcnt(N) lets up
             * to N operations stay outstanding.  An in-order entry (LDS) with at
             * least N in-order entries after it is done: were it not, those, which
             * return after it, would be outstanding too.  Any other entry may still
             * be outstanding while out-of-order ones (SMEM, FLAT) completed in its
             * place.  (LLVM's SIInsertWaitcnts header notes the same: with SMEM in
             * flight, lgkmcnt(i) suffices for the i-th-last LDS operation.) */
            unsigned n = w->lgkm.n, after = 0;
            for (unsigned i = n; i-- > 0;) {
                sim_ticket *t = w->lgkm.e[(w->lgkm.head + i) & 63];
                if (i < nret && (t->ooo || after < lgkm)) {
                    /* the operation that may have returned in its place: the first
                     * out-of-order one after it, else the first one still counted */
                    const sim_insn *other = NULL;
                    for (unsigned j = i + 1; j < n && !other; j++) {
                        const sim_ticket *r = w->lgkm.e[(w->lgkm.head + j) & 63];
                        if (r->ooo)
                            other = r->si;
                    }
                    if (!other && n > nret)
                        other = w->lgkm.e[(w->lgkm.head + nret) & 63]->si;
                    mark_ooo(w, t, other, x->i);
                }
                if (!t->ooo)
                    after++;
            }
        }
        if (__builtin_expect(tr, 0)) {
            while (w->lgkm.n > lgkm)
                fifo_retire_tr(s, w, &w->lgkm, TC_LGKM, tr);
        } else {
            fifo_retire_to(s, w, &w->lgkm, TC_LGKM, lgkm);
        }
    }
    if (lgkm == 0)
        clear_ooo(w);
}
void sim_waitcnt(sim_x *x, unsigned vm, unsigned lgkm)
{
    waitcnt(x, vm, lgkm);
}
/* The body of s_waitcnt (ops_salu.c registers it): its vmcnt and lgkmcnt fields (expcnt is
 * not modelled), then the wait, with no call between the two. */
GCN_HOT void sim_waitcnt_insn(sim_x *x)
{
    uint32_t v = (uint32_t)x->i->imm;
    unsigned vm = (v & 0xf) | ((v >> 14) & 3) << 4, lgkm = (v >> 8) & 0xf;
    sim_wave *w = x->w;
    if (__builtin_expect((w->traced && x->sim->trace) || w->nooo ||
                         (lgkm > 0 && w->lgkm.n > lgkm), 0)) {
        sim_waitcnt(x, vm, lgkm);
        return;
    }
    /* waitcnt without what it cannot meet here (a trace, registers marked out of order, an
     * lgkmcnt above 0 that retires something): each FIFO down to its count, none marked */
    if (w->vm.n > vm)
        fifo_retire_to(x->sim, w, &w->vm, TC_VM, vm);
    if (w->lgkm.n > lgkm)
        fifo_retire_to(x->sim, w, &w->lgkm, TC_LGKM, lgkm);
}

void sim_retire_all(gcn_sim *s, sim_wave *w)
{
    while (w->vm.n)
        fifo_retire(s, w, &w->vm, TC_VM);
    while (w->lgkm.n)
        fifo_retire(s, w, &w->lgkm, TC_LGKM);
    clear_ooo(w);
}

/* This wave reaches s_barrier: its LDS writes still counted (and its LDS-DMA loads) are
 * marked with the barrier, the workgroup epoch that the barrier closes, and the wait that
 * would have retired each there.  Only reads of other waves after the barrier (a later
 * epoch) are ordered after these writes by the barrier, so only those are reported
 * (sim_lds_check_read); a read before that wave's own barrier is not ordered by it at all
 * (that is the cross-wave race check's business). */
void sim_tk_barrier(sim_x *x)
{
    sim_wave *w = x->w;
    uint32_t epoch = x->g ? x->g->epoch : 0;
    for (unsigned i = 0; i < w->lgkm.n; i++) {
        sim_ticket *t = w->lgkm.e[(w->lgkm.head + i) & 63];
        if ((t->kind == TK_LDS_WRITE || t->kind == TK_LDS_DMA || t->naddr) && !t->barrier) {
            t->barrier = 1;
            t->bar_epoch = epoch;
            t->bar_si = x->i;
            t->bar_fix = (int8_t)fifo_wait_for(&w->lgkm, t, 1);
        }
        if ((t->kind == TK_LDS_WRITE || t->naddr) && t->lds_len)
            sim_lds_lr_add(x->g, w, t, t->lds_base, t->lds_base + t->lds_len);
    }
    for (unsigned i = 0; i < w->vm.n; i++) {
        sim_ticket *t = w->vm.e[(w->vm.head + i) & 63];
        if (t->kind == TK_LDS_DMA && !t->barrier) {
            t->barrier = 1;
            t->bar_epoch = epoch;
            t->bar_si = x->i;
            t->bar_fix = (int8_t)fifo_wait_for(&w->vm, t, 0);
        }
    }
}

void sim_lds_check_read(sim_x *x, uint32_t a, uint32_t n, unsigned lane)
{
    sim_wg *g = x->g;
    if (!g || !g->nlr)
        return;
    for (unsigned i = 0; i < g->nlr; i++) {
        const sim_lrange *r = &g->lr[i];
        if (!(a < r->hi && r->lo < a + n))
            continue;
        const sim_ticket *t = r->t;
        if (t->kind == TK_LDS_DMA && !t->landed) {
            /* the lanes of the DMA that write these bytes */
            unsigned sz = t->lane_bytes ? t->lane_bytes : 4;
            uint32_t l0 = (a > r->lo ? a - r->lo : 0) / sz;
            uint32_t l1 = (a + n - 1 - r->lo) / sz;
            for (uint32_t l = l0; l <= l1 && l < NL; l++)
                if (t->lanes >> l & 1) {
                    x->lds_dma_lanes |= 1ull << lane;
                    x->lds_dma_tk = t;
                    x->lds_dma_w = r->w;
                    break;
                }
        } else if ((t->kind == TK_LDS_WRITE || t->naddr) && t->barrier && r->w != x->w &&
                   x->g->epoch > t->bar_epoch && !(x->atomic && t->atomic)) {
            for (unsigned q = 0; q < t->naddr; q++)
                for (unsigned l = 0; l < NL; l++) {
                    uint32_t b = t->lane_addr[q * NL + l];
                    if ((t->lanes >> l & 1) && a < b + t->lane_bytes && b < a + n) {
                        x->lds_bar_lanes |= 1ull << lane;
                        x->lds_bar_tk = t;
                        x->lds_bar_w = r->w;
                        q = t->naddr;
                        break;
                    }
                }
        }
    }
}

void sim_lds_check_done(sim_x *x)
{
    if (x->race_lanes) {
        sim_wave *ow = x->race_w;
        const sim_insn *prod = NULL;
        /* the newest access of that wave covering the byte (its atomics are noted with its
         * writes) */
        unsigned n = sizeof ow->lw / sizeof ow->lw[0];
        unsigned cnt = x->race_war ? ow->nlrd : ow->nlw, next = x->race_war ? ow->lrd_next : ow->lw_next;
        for (unsigned k = 0; k < cnt && !prod; k++) {
            unsigned i = (next - 1 - k) % n;
            uint32_t lo = x->race_war ? ow->lrd[i].lo : ow->lw[i].lo;
            uint32_t hi = x->race_war ? ow->lrd[i].hi : ow->lw[i].hi;
            if (!x->race_war && ow->lw[i].atom != (x->race_atom == 2))
                continue;       /* an atomic when a plain write is meant, or the reverse */
            if (x->race_addr >= lo && x->race_addr < hi)
                prod = x->race_war ? ow->lrd[i].si : ow->lw[i].si;
        }
        /* a race on a read counts when the reading wave uses the value (racyreg.c):
         * this read (another wave's plain write, or its atomic, before it), or another
         * wave's read before this plain write or atomic; writes against writes (and
         * atomics against plain writes) count now */
        int read = !x->race_war && x->race_atom != 1 && (x->i->flags & GCN_F_LOAD);
        unsigned rec = 0;
        int how = sim_rz_race(x, read, x->race_war, ow, x->race_addr, &prod, &rec);
        char buf[512];
        if (x->race_atom == 1)
            snprintf(buf, sizeof buf, "this atomic touches LDS byte 0x%x that wave %u %s with a plain (not "
                     "atomic) access, with no s_barrier in between: an atomic is atomic only "
                     "against other atomics, so the order of the two is not defined (a race); "
                     "put s_waitcnt lgkmcnt(0) and s_barrier between them, or make both "
                     "atomic", x->race_addr, ow->idx, x->race_war ? "read" : "wrote");
        else if (x->race_atom == 2)
            snprintf(buf, sizeof buf, "%s LDS byte 0x%x that wave %u changes with an atomic, with no s_barrier "
                     "in between: a plain access is not ordered against another wave's "
                     "atomic (a race); put s_waitcnt lgkmcnt(0) and s_barrier between them",
                     x->i->flags & GCN_F_LOAD ? "reads" : "writes", x->race_addr, ow->idx);
        else if (x->race_war)
            snprintf(buf, sizeof buf, "writes LDS byte 0x%x that wave %u read with no s_barrier in between: "
                     "whether that read sees this write is not defined (a race); put "
                     "s_waitcnt lgkmcnt(0) and s_barrier between the read and the write",
                     x->race_addr, ow->idx);
        else
            snprintf(buf, sizeof buf, "reads LDS byte 0x%x that wave %u wrote with no s_barrier in between: "
                     "the order of the two waves is not defined (a race); put s_waitcnt "
                     "lgkmcnt(0) and s_barrier between the write and the read",
                     x->race_addr, ow->idx);
        if (how != 2) {
            int fi = sim_finding_site(x, GCN_FIND_LDS_RACE, prod, buf);
            if (how == 1)
                sim_rz_defer(x, read ? x->w : ow, rec, fi, x->race_lanes,
                             read ? x->race_lanes : ~0ull);
            else
                sim_finding_occur(x->sim, fi, x->w, x->race_lanes, x->sim->rz_seq++);
        }
        x->race_lanes = 0;
        x->race_war = 0;
        x->race_atom = 0;
    }
    if (x->lds_dma_lanes) {
        const sim_ticket *t = x->lds_dma_tk;
        sim_wave *ow = x->lds_dma_w;
        sim_fix fx = {-1, -1};
        if (ow == x->w) {
            fx.vm = fifo_wait_for(&ow->vm, t, 0);
            sim_finding_fix(x, GCN_FIND_LDS_DMA_PENDING, t->si, x->lds_dma_lanes, &fx, NULL,
                            "add %s before this instruction", "reads LDS bytes [0x%x, 0x%x) that "
                            "an LDS-DMA load of this wave has not written yet (its ticket has "
                            "not retired)", t->lds_base, t->lds_base + t->lds_len);
        } else if (t->barrier && x->g->epoch > t->bar_epoch && t->bar_fix >= 0) {
            fx.vm = t->bar_fix;
            sim_finding_fix(x, GCN_FIND_LDS_DMA_PENDING, t->si, x->lds_dma_lanes, &fx, t->bar_si,
                            "that wave needs %s before its s_barrier", "reads LDS bytes [0x%x, "
                            "0x%x) that an LDS-DMA load of wave %u has not written yet (its ticket "
                            "has not retired): that wave passed s_barrier without waiting for it",
                            t->lds_base, t->lds_base + t->lds_len, ow->idx);
        } else {
            sim_finding(x, GCN_FIND_LDS_DMA_PENDING, t->si, x->lds_dma_lanes,
                        "reads LDS bytes [0x%x, 0x%x) that an LDS-DMA load of wave %u has not "
                        "written yet (its ticket has not retired), and no s_barrier orders the "
                        "two: that wave must wait for the load (s_waitcnt vmcnt(%d) now) and "
                        "both pass an s_barrier before this read", t->lds_base,
                        t->lds_base + t->lds_len, ow->idx, fifo_wait_for(&ow->vm, t, 0));
        }
    }
    if (x->lds_bar_lanes) {
        const sim_ticket *t = x->lds_bar_tk;
        sim_wave *ow = x->lds_bar_w;
        sim_fix fx = {-1, t->bar_fix};
        sim_finding_fix(x, GCN_FIND_BARRIER_LDS, t->si, x->lds_bar_lanes, &fx, t->bar_si,
                        "that wave needs %s before s_barrier", "reads LDS that wave %u wrote "
                        "before an s_barrier without waiting for the write: the barrier does "
                        "not wait for LDS writes", ow->idx);
    }
    x->lds_dma_lanes = x->lds_bar_lanes = 0;
}

/* The first row of [r0, r0+n) with a pending load, or -1. */
static int first_pending(const uint8_t *pend, unsigned r0, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        if (pend[r0 + k])
            return (int)(r0 + k);
    return -1;
}

void sim_check_regs(sim_x *x)
{
    sim_wave *w = x->w;
    const sim_insn *si = x->i;
    char rn[32];
    sim_fix fx;
    if (!w->nooo) {
        /* the common case: no register the loops below look at has a pending load (and
         * none is marked out of order), so they would do nothing */
        if (__builtin_expect(!si->ck, 0))
            sim_check_masks((sim_insn *)si);
        if (si->ck == 1 && !((si->ck_s[0] & w->spend_m[0]) | (si->ck_s[1] & w->spend_m[1]) |
                             (si->ck_v & w->vpend_m)))
            return;
    }
    for (unsigned i = 0; i < si->nrd; i++) {
        const sim_rref *r = &si->rd[i];
        unsigned lim = r->file == 1 ? w->nvrows : 128;
        unsigned n = r->r >= lim ? 0 : r->r + r->n <= lim ? r->n : lim - r->r;
        /* a read of registers loads still have to write: the fix retires every such load
         * of the operand (for the lanes that execute) */
        int pr = first_pending(r->file == 1 ? w->vpend : w->spend, r->r, n);
        if (pr >= 0) {
            const sim_ticket *t = reg_pending(w, r->file, r->r, n, x->exec, NULL, &fx);
            if (t) {
                reg_name(rn, sizeof rn, w, r->file, (unsigned)pr);
                sim_finding_fix(x, GCN_FIND_READ_PENDING, t->si,
                                r->file == 1 ? t->lanes & x->exec : x->exec, &fx, NULL,
                                "add %s before this instruction", "reads %s before the load "
                                "writing it has retired (the old value is read)", rn);
                fix_retire(x, &fx);
                continue;
            }
        }
        for (unsigned k = 0; w->nooo && k < n; k++) {    /* (nooo: the set vooo/sooo) */
            unsigned reg = r->r + k;
            if (r->file == 1 && w->vooo[reg]) {
                reg_name(rn, sizeof rn, w, 1, reg);
                fx.vm = -1;
                fx.lgkm = 0;
                sim_finding_fix(x, GCN_FIND_SMEM_OOO, w->vooo_prod[reg], x->exec, &fx, NULL,
                                "add %s before this instruction", "reads %s, retired by %s while "
                                "%s was pending: lgkmcnt counts SMEM/FLAT operations that return "
                                "out of order, so only lgkmcnt(0) guarantees this result", rn,
                                w->vooo_wait[reg] ? w->vooo_wait[reg]->text : "a wait",
                                w->vooo_other[reg] ? w->vooo_other[reg]->text : "another operation");
                w->vooo[reg] = 0;
                w->nooo--;
                break;
            }
            if (r->file == 2 && w->sooo[reg]) {
                reg_name(rn, sizeof rn, w, 2, reg);
                fx.vm = -1;
                fx.lgkm = 0;
                sim_finding_fix(x, GCN_FIND_SMEM_OOO, w->sooo_prod[reg], x->exec, &fx, NULL,
                                "add %s before this instruction", "reads %s, retired by %s while "
                                "%s was pending: SMEM returns out of order, so only lgkmcnt(0) "
                                "guarantees this result", rn,
                                w->sooo_wait[reg] ? w->sooo_wait[reg]->text : "a wait",
                                w->sooo_other[reg] ? w->sooo_other[reg]->text : "another SMEM");
                w->sooo[reg] = 0;
                w->nooo--;
                break;
            }
        }
    }
    /* writes: loads ticket their destinations themselves */
    if (si->flags & (GCN_F_LOAD | GCN_F_ATOMIC))
        return;
    for (unsigned i = 0; i < si->nwr; i++) {
        const sim_rref *r = &si->wr[i];
        unsigned lim = r->file == 1 ? w->nvrows : 128;
        unsigned n = r->r >= lim ? 0 : r->r + r->n <= lim ? r->n : lim - r->r;
        for (unsigned k = 0; w->nooo && k < n; k++) {
            unsigned reg = r->r + k;
            if (r->file == 1 && w->vooo[reg]) {
                w->vooo[reg] = 0;
                w->nooo--;
            } else if (r->file == 2 && w->sooo[reg]) {
                w->sooo[reg] = 0;
                w->nooo--;
            }
        }
        int pr = first_pending(r->file == 1 ? w->vpend : w->spend, r->r, n);
        if (pr < 0)
            continue;
        const sim_ticket *t = reg_pending(w, r->file, r->r, n, x->exec, NULL, &fx);
        if (!t)
            continue;
        reg_name(rn, sizeof rn, w, r->file, (unsigned)pr);
        sim_finding_fix(x, GCN_FIND_WRITE_PENDING, t->si, r->file == 1 ? t->lanes & x->exec : 1,
                        &fx, NULL, "add %s before this instruction", "overwrites %s while the "
                        "load writing it has not retired: the load lands later and clobbers this "
                        "result", rn);
        fix_retire(x, &fx);
    }
}
