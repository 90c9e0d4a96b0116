/*
 * sim.c -- the simulated device: device memory (allocations with guard gaps,
 * faults for accesses outside them), waves and workgroups, the dispatch of a
 * grid (initial SGPR/VGPR state from the kernel descriptor), the inner
 * execution loop, s_barrier scheduling, faults and findings.
 *
 * Initial kernel execution state follows LLVM AMDGPUUsage.rst ("Initial
 * Kernel Execution State"): user SGPRs in the order private segment buffer,
 * dispatch ptr, queue ptr, kernarg segment ptr, dispatch id, flat scratch
 * init, private segment size, preloaded kernel arguments; then the system
 * SGPRs at USER_SGPR_COUNT: workgroup id x, y, z, workgroup info.  gfx942 and
 * gfx950 have architected flat scratch (no scratch wave offset SGPR) and
 * packed work-item ids: v0 = x | y << 10 | z << 20.  With kernarg preloading
 * the hardware starts 256 bytes after the kernel entry (the first 256 bytes
 * are the compatibility prologue that loads the same SGPRs).
 * The dispatch packet is hsa_kernel_dispatch_packet_t (HSA runtime spec).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "gcn_facts.h"
#include "sim_int.h"
#include "trace.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- device --------------------------------------------------------------- */

static void set_opts(gcn_sim *s, const gcn_sim_opts *opts)
{
    if (opts)
        s->o = *opts;
    else
        memset(&s->o, 0, sizeof s->o);
    if (!s->o.max_insns)
        s->o.max_insns = 2000000000ull;
    if (!s->o.trace_out)
        s->o.trace_out = stdout;
}

gcn_sim *gcn_sim_new(const gcn_sim_opts *opts)
{
    gcn_sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    set_opts(s, opts);
    s->next_addr = SIM_HEAP_BASE;
    return s;
}

static void wave_free(sim_wave *w);
static void free_finding(gcn_sim_finding *f);
static void dev_free(sim_alloc *a);

void gcn_sim_reset(gcn_sim *s, const gcn_sim_opts *opts)
{
    for (unsigned i = 0; i < s->nallocs; i++) {
        dev_free(&s->allocs[i]);
        free(s->allocs[i].name);
    }
    s->nallocs = 0;
    s->last = 0;
    s->next_addr = SIM_HEAP_BASE;
    for (unsigned i = 0; i < s->nfinds; i++)
        free_finding(&s->finds[i]);
    s->nfinds = 0;
    set_opts(s, opts);
}

/* Device memory: zeroed host memory.  Large blocks are anonymous mappings aligned to
 * 2 MiB and offered to the kernel for transparent huge pages: kernels that stride
 * through big buffers (a grid-stride loop touches a new 4 KiB page at every step) miss
 * the TLB far less. */
enum { DEV_BIG = 4u << 20, DEV_ALIGN = 2u << 20 };

static uint8_t *dev_alloc(uint64_t size, unsigned k, void **map, size_t *maplen)
{
    *map = NULL;
    *maplen = 0;
    /* the K-th allocation starts (k * 5 mod 64) cache lines into its mapping: buffers that
     * a kernel walks side by side (A[i], B[i], C[i]) would otherwise share the host's L1
     * sets at every step (2 MiB alignment: the same address bits below 4 KiB) and evict
     * each other from its 8 ways; only host addresses move, never device ones */
    size_t color = (size_t)(k * 5 % 64) * 64;
    if (size < DEV_BIG || size > SIZE_MAX - DEV_ALIGN - color)
        return calloc(1, size ? size : 1);
    size_t len = (size_t)size + DEV_ALIGN + color;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return calloc(1, size);
    uint8_t *p = (uint8_t *)(((uintptr_t)m + DEV_ALIGN - 1) & ~(uintptr_t)(DEV_ALIGN - 1)) + color;
#ifdef MADV_HUGEPAGE
    madvise(p - color, ((size_t)size + color + DEV_ALIGN - 1) & ~(size_t)(DEV_ALIGN - 1),
            MADV_HUGEPAGE);
#endif
    *map = m;
    *maplen = len;
    return p;
}

static void dev_free(sim_alloc *a)
{
    if (a->map)
        munmap(a->map, a->maplen);
    else
        free(a->data);
}

void gcn_sim_free(gcn_sim *s)
{
    if (!s)
        return;
    for (unsigned i = 0; i < s->nallocs; i++) {
        dev_free(&s->allocs[i]);
        free(s->allocs[i].name);
    }
    free(s->allocs);
    for (unsigned i = 0; i < s->nfinds; i++)
        free_finding(&s->finds[i]);
    free(s->finds);
    for (unsigned i = 0; i < SIM_MAX_WAVES; i++)
        wave_free(s->wave_pool[i]);
    free(s->wg.lds);
    free(s->wg.lds_tag);
    free(s->wg.lds_rtag);
    free(s->wg.lds_atag);
    free(s->wg.lds_bw);
    sim_blkpool_free(&s->blkpool);
    free(s);
}

int gcn_sim_alloc(gcn_sim *s, uint64_t size, const char *name, uint64_t *addr)
{
    if (s->nallocs == s->cap_allocs) {
        unsigned nc = s->cap_allocs ? 2 * s->cap_allocs : 16;
        sim_alloc *na = realloc(s->allocs, nc * sizeof *na);
        if (!na)
            return -1;
        s->allocs = na;
        s->cap_allocs = nc;
    }
    sim_alloc *a = &s->allocs[s->nallocs];
    a->data = dev_alloc(size, s->nallocs, &a->map, &a->maplen);
    if (!a->data)
        return -1;
    a->size = size;
    a->base = s->next_addr;
    a->name = strdup(name ? name : "?");
    /* next allocation: 1 MiB aligned, at least 1 MiB of unmapped guard after this one */
    s->next_addr = (a->base + size + (2u << 20) - 1) & ~((1ull << 20) - 1);
    s->nallocs++;
    *addr = a->base;
    return 0;
}

/* ---- waves ---------------------------------------------------------------- */

/* Bytes of one wave's ticket payloads: per ticket 4 data rows and 2 rows of lane
 * addresses. */
#define TK_PAY_SIZE ((size_t)SIM_NTICKETS * (6 * NL) * sizeof(uint32_t))
#define TK_PAY_COLORS 4096      /* room for the block's offset (below) */

sim_wave *sim_wave_new(unsigned nvrows, unsigned accum)
{
    sim_wave *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->nvrows = nvrows ? nvrows : 1;
    w->accum = accum;
    /* rows 64-byte aligned: whole-row vector loads and stores */
    w->v = aligned_alloc(64, (size_t)w->nvrows * sizeof *w->v);   /* zeroed by the reset */
    w->vpend = calloc(w->nvrows, 1);
    w->vooo = calloc(w->nvrows, 1);
    w->vooo_prod = calloc(w->nvrows, sizeof *w->vooo_prod);
    w->vooo_other = calloc(w->nvrows, sizeof *w->vooo_other);
    w->vooo_wait = calloc(w->nvrows, sizeof *w->vooo_wait);
    w->rz_lanes = calloc(w->nvrows, sizeof *w->rz_lanes);
    w->rz_own = calloc(w->nvrows, 1);
    w->sooo_prod = calloc(128, sizeof *w->sooo_prod);
    w->sooo_other = calloc(128, sizeof *w->sooo_other);
    w->sooo_wait = calloc(128, sizeof *w->sooo_wait);
    /* payload rows aligned like the VGPR rows (pages), zero: anonymous pages, which cost
     * nothing until a ticket uses them (clearing 126 KiB per wave was a tenth of a small
     * run's start-up) */
    void *pm = mmap(NULL, TK_PAY_SIZE + TK_PAY_COLORS, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    w->tk_pay = pm == MAP_FAILED ? NULL : pm;
    /* each wave's payloads start at another cache-line offset into their pages: the waves
     * of a workgroup use the same few tickets in turn, whose payload rows would otherwise
     * fall in the same L1 sets of the host (page-aligned blocks) */
    static _Atomic unsigned pay_color;
    unsigned c = atomic_fetch_add_explicit(&pay_color, 1, memory_order_relaxed);
    uint32_t *pay = w->tk_pay ? (uint32_t *)((uint8_t *)w->tk_pay + (size_t)(c * 5 % 64) * 64)
                              : NULL;
    if (!w->v || !w->vpend || !w->vooo || !w->vooo_prod || !w->vooo_other ||
        !w->vooo_wait || !w->sooo_prod || !w->sooo_other || !w->sooo_wait || !pay ||
        !w->rz_lanes || !w->rz_own) {
        wave_free(w);
        return NULL;
    }
    for (unsigned i = 0; i < SIM_NTICKETS; i++) {
        w->tk[i].data = pay + (size_t)i * (6 * NL);
        w->tk[i].lane_addr = w->tk[i].data + 4 * NL;
    }
    sim_wave_reset(w);
    return w;
}

static void wave_free(sim_wave *w)
{
    if (!w)
        return;
    sim_hz_free(w);
    free(w->v);
    free(w->vpend);
    free(w->vooo);
    free(w->vooo_prod);
    free(w->vooo_other);
    free(w->vooo_wait);
    free(w->rz_lanes);
    free(w->rz_own);
    free(w->sooo_prod);
    free(w->sooo_other);
    free(w->sooo_wait);
    if (w->tk_pay)
        munmap(w->tk_pay, TK_PAY_SIZE + TK_PAY_COLORS);
    free(w->priv);
    free(w);
}

void sim_wave_free(sim_wave *w)
{
    wave_free(w);
}

void sim_wave_reset(sim_wave *w)
{
    memset(w->s, 0, sizeof w->s);
    if (++w->pf_gen == 0) {                 /* (wrapped: entries of old waves could match) */
        memset(w->pf, 0, sizeof w->pf);
        w->pf_gen = 1;
    }
    w->scc = 0;
    w->hw_mode = w->hw_status = w->hw_trapsts = 0;
    memset(w->v, 0, (size_t)w->nvrows * sizeof *w->v);
    /* the pending counts are all zero without a pending register ticket (npend), the
     * out-of-order marks without a marked register (nooo): a wave that ended (every ticket
     * landed) leaves them clear */
    if (w->npend) {
        memset(w->vpend, 0, w->nvrows);
        memset(w->spend, 0, sizeof w->spend);
        w->vpend_m = 0;
        w->spend_m[0] = w->spend_m[1] = 0;
    }
    if (w->nooo) {
        memset(w->vooo, 0, w->nvrows);
        memset(w->sooo, 0, sizeof w->sooo);
    }
    w->nooo = 0;
    w->npend = 0;
    w->vm.n = w->vm.head = 0;
    w->lgkm.n = w->lgkm.head = 0;
    /* the free stack in its first order, tk_free[p] = &tk[SIM_NTICKETS - 1 - p]; only the
     * slots the wave popped since the last reset (from tk_low up) can hold other tickets,
     * and only the tickets first in those slots can have been used (a one-line kernel's
     * wave touches a few of its 80 tickets; resetting all was a tenth of its time) */
    for (unsigned p = w->tk_low; p < SIM_NTICKETS; p++) {
        sim_ticket *t = &w->tk[SIM_NTICKETS - 1 - p];
        t->kind = TK_NONE;
        w->tk_free[p] = t;
    }
    w->ntk_free = w->tk_low = SIM_NTICKETS;
    w->state = WS_RUN;
    w->nlw = w->lw_next = 0;
    w->nlrd = w->lrd_next = 0;
    sim_rz_reset(w);
    w->cur = NULL;
    w->seq = 0;
    if (w->priv && w->priv_size)
        memset(w->priv, 0, (size_t)w->priv_size * NL);
}

/* ---- execution ------------------------------------------------------------- */

/* Run one instruction already selected in x (x->w, x->g, x->i set; w: x->w). */
static inline void exec_insn(gcn_sim *s, sim_x *x, sim_wave *w, const sim_insn *si)
{
    x->i = si;
    x->exec = sim_exec(w);
    x->wmask = x->exec;
    if (w->pend_any &&
        (w->nooo || si->ck != 1 || ((si->ck_s[0] & w->spend_m[0]) | (si->ck_s[1] & w->spend_m[1]) |
                                    (si->ck_v & w->vpend_m))))
        sim_check_regs(x);      /* (its quick test inline: no operand register pending) */
    si->fn(x);
    if (__builtin_expect(w->rz_n, 0) && (si->ck != 1 || (si->ck_v & w->rz_m[0])))
        sim_rz_after(x, si);    /* rows of LDS reads followed for the race check (racyreg.c;
                                 * the quick test: no such row among its operands) */
}

int sim_exec_one(gcn_sim *s, sim_wave *w, sim_wg *g, const sim_insn *si, sim_x *x)
{
    x->sim = s;
    x->w = w;
    x->g = g;
    x->flow = 0;
    exec_insn(s, x, w, si);
    return s->faulted ? -1 : 0;
}

static void progress(gcn_sim *s, const gcn_dispatch *d, unsigned wgi, unsigned nwg)
{
    double t = now_s();
    if (t - s->tlast < 0.25)
        return;
    s->tlast = t;
    fprintf(stderr, "\rgcnsim: workgroup %u/%u, %.1f M wave-instructions, %.1f s   ", wgi + 1, nwg,
            s->insns / 1e6, t - s->t0);
    fflush(stderr);
    (void)d;
}

/* A taken branch to itself whose condition nothing in the one-instruction
 * loop can change (SCC, VCC, EXEC): the wave would run until the
 * instruction budget is spent, 20 s by default; say so at once. */
/* The direct branches, s_branch and s_cbranch_* (the generated facts' CTL column,
 * src/decode/isa/facts.def): their conditions are SCC, VCC, EXEC or debug state. */
static const uint8_t direct_branch[GCN_ID_COUNT] = {
#define FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ)                                             \
    [GCN_ID_##ID] = GCN_LK_##CTL == GCN_LK_BRANCH || GCN_LK_##CTL == GCN_LK_CBRANCH,
#include "isa/facts.def"
#undef FACT
};

static int self_loop(const sim_insn *si)
{
    return si->id < GCN_ID_COUNT && direct_branch[si->id];
}

/* Run wave w for at most `quantum` instructions, or until it ends, waits at
 * a barrier, or faults.  Returns 0 when the wave still runs and the run goes on; else
 * the wave ended or waits at a barrier, or the run stops (s->stop: a fault, or --strict
 * and a finding).  BUDGETED (a constant of the caller): 1 when the caller made sure that
 * the instruction budget holds the QUANTUM instructions (no test before each; run_wave:
 * 0). */
static inline __attribute__((always_inline)) int run_wave_b(gcn_sim *s, sim_x *x, sim_wave *w,
                                                            unsigned quantum, int plain,
                                                            int budgeted)
{
    x->w = w;
    sim_insn *cur = w->cur;
    char err[256];
    /* plain (a constant of the caller): no trace, not in stale mode, and 1: hazard checks
     * on and the wave has a history, 2: hazard checks off */
    struct sim_hz *h = w->hz;
    const int tr = plain ? 0 : w->traced, hz = plain ? plain == 1 : s->hz_on && h;
    for (unsigned q = 0; q < quantum; q++) {
        sim_insn *si = cur;
        if (__builtin_expect(w->hw_mode & (3u << 27), 0)) {    /* GPR_IDX_EN, VSKIP */
            si = sim_mode_insn(s, x, si);
            if (!si)
                return s->stop;
            if (__builtin_expect(s->prog->hz_cons != s->prog->hz_pgcons, 0))
                sim_hz_regroup(s, w->wg->waves, w->wg->nwaves);
        }
        if (!budgeted && __builtin_expect(s->insns >= s->budget, 0)) {
            x->i = si;
            sim_fault(x, "instruction budget exceeded: %llu wave-instructions in one workgroup "
                      "(--max-insns); the kernel may never end",
                      (unsigned long long)s->o.max_insns);
            return s->stop;
        }
        if (__builtin_expect(tr, 0))
            sim_trace_before(s->trace, x, si);
        if (hz)
            sim_hz_pre(s, x, h, si, plain);
        exec_insn(s, x, w, si);
        if (hz)
            sim_hz_post(s, x, h, si, plain);
        s->insns++;
        if (__builtin_expect(tr, 0))
            sim_trace_after(s->trace, x, si);
        if (__builtin_expect(!(x->flow | s->stop) && si->nsi, 1)) {
            cur = si->nsi;          /* the straight line */
            continue;
        }
        if (s->stop)
            return 1;
        sim_prog *p = s->prog;      /* (read here: the straight line does not need it) */
        if (x->ended) {
            x->flow = 0;
            w->state = WS_DONE;     /* (its cur is not read again: not kept) */
            return 1;
        }
        if (x->branch_taken) {
            x->branch_taken = 0;
            if (__builtin_expect(x->branch_pc == si->pc, 0) && self_loop(si)) {
                x->i = si;
                sim_fault(x, "endless loop: the branch jumps to itself and nothing in the loop "
                          "can change its condition");
                return s->stop;
            }
            if (x->branch_pc == si->target && si->tsi)
                cur = si->tsi;
            else {
                int32_t t = sim_prog_at(p, x->branch_pc, err, sizeof err);
                if (t < 0) {
                    x->i = si;
                    sim_fault(x, "branch to bad address: %s", err);
                    return s->stop;
                }
                cur = sim_prog_insn(p, (uint32_t)t);
                if (x->branch_pc == si->target)
                    si->tsi = cur;
            }
        } else if (si->nsi) {
            cur = si->nsi;
        } else {
            int32_t t = sim_prog_at(p, si->pc + si->size, err, sizeof err);
            if (t < 0) {
                x->i = si;
                sim_fault(x, "execution ran off the end of the code: %s", err);
                return s->stop;
            }
            cur = sim_prog_insn(p, (uint32_t)t);
            si->nsi = cur;
        }
        if (__builtin_expect(p->hz_cons != p->hz_pgcons, 0))
            sim_hz_regroup(s, w->wg->waves, w->wg->nwaves);   /* (cur was decoded now) */
        if (x->waiting) {
            x->waiting = 0;
            w->state = WS_BARRIER;
            w->cur = cur;
            return 1;
        }
    }
    w->cur = cur;
    return 0;
}
/* run_wave_b with the budget's test before each instruction. */
static inline __attribute__((always_inline)) int run_wave(gcn_sim *s, sim_x *x, sim_wave *w,
                                                          unsigned quantum, int plain)
{
    return run_wave_b(s, x, w, quantum, plain, 0);
}

/* run_wave off the inline paths (a wave of the plain turn without a history). */
static __attribute__((noinline)) int run_wave_any(gcn_sim *s, sim_x *x, sim_wave *w,
                                                  unsigned quantum)
{
    return run_wave(s, x, w, quantum, 0);
}

/* kernel descriptor fields needed at dispatch */
typedef struct disp_layout {
    unsigned nvrows, accum;
    uint32_t lds_size;
    uint32_t priv_size;
    uint64_t entry;
} disp_layout;

static int setup_wave(gcn_sim *s, const gcn_dispatch *d, const disp_layout *L, sim_wg *g,
                      sim_wave *w, unsigned wi, uint64_t kernarg_addr, uint64_t packet_addr,
                      uint64_t queue_addr, char *err, size_t errlen)
{
    const gcn_kd *kd = &d->kernel->kd;
    sim_wave_reset(w);
    sim_hz_wave_reset(s, w);
    w->idx = wi;
    w->wg = g;
    unsigned nthreads = d->block[0] * d->block[1] * d->block[2];
    unsigned key[4] = { d->block[0], d->block[1], d->block[2], kd->enable_vgpr_workitem_id + 1u };
    if (memcmp(key, s->wid_key, sizeof key)) {
        memcpy(s->wid_key, key, sizeof key);
        s->wid_ok = 0;
    }
    if (!(s->wid_ok >> wi & 1)) {
        /* work-item ids (x, y, z) of lane 0, then counted up lane by lane (no divisions
         * per lane: 64 of them were a sixth of a one-line kernel's time); the same for
         * every workgroup of the dispatch, so kept */
        uint32_t *row = s->wid_v0[wi];
        uint64_t exec = 0;
        memset(row, 0, NL * sizeof *row);
        unsigned t0 = wi * NL, tx = 0, ty = 0, tz = 0;
        if (t0 < nthreads) {
            tx = t0 % d->block[0];
            ty = (t0 / d->block[0]) % d->block[1];
            tz = t0 / (d->block[0] * d->block[1]);
        }
        for (unsigned l = 0; l < NL; l++) {
            unsigned t = t0 + l;
            if (t >= nthreads)
                break;
            exec |= 1ull << l;
            uint32_t v0 = tx;
            if (kd->enable_vgpr_workitem_id >= 1) v0 |= ty << 10;
            if (kd->enable_vgpr_workitem_id >= 2) v0 |= tz << 20;
            row[l] = v0;
            if (++tx == d->block[0]) {
                tx = 0;
                if (++ty == d->block[1]) {
                    ty = 0;
                    tz++;
                }
            }
        }
        s->wid_exec[wi] = exec;
        s->wid_ok |= 1u << wi;
    }
    memcpy(w->v[0], s->wid_v0[wi], NL * sizeof w->v[0][0]);
    uint64_t exec = s->wid_exec[wi];
    sim_set_exec(w, exec);
    unsigned n = 0;
    if (kd->user_sgpr_private_segment_buffer) {
        /* a raw descriptor of the private segment: swizzled scratch through
         * MUBUF is refused by the buffer bodies (not simulated) */
        w->s[n] = (uint32_t)SIM_PRIVATE_BASE;
        w->s[n + 1] = (uint32_t)(SIM_PRIVATE_BASE >> 32) & 0xffff;
        w->s[n + 2] = 0xffffffffu;
        w->s[n + 3] = 0x00020000u | (1u << 23) /* add_tid_enable: marks scratch */;
        n += 4;
    }
    if (kd->user_sgpr_dispatch_ptr) {
        w->s[n] = (uint32_t)packet_addr;
        w->s[n + 1] = (uint32_t)(packet_addr >> 32);
        n += 2;
    }
    if (kd->user_sgpr_queue_ptr) {
        w->s[n] = (uint32_t)queue_addr;
        w->s[n + 1] = (uint32_t)(queue_addr >> 32);
        n += 2;
    }
    if (kd->user_sgpr_kernarg_segment_ptr) {
        w->s[n] = (uint32_t)kernarg_addr;
        w->s[n + 1] = (uint32_t)(kernarg_addr >> 32);
        n += 2;
    }
    if (kd->user_sgpr_dispatch_id) {
        w->s[n] = 0;
        w->s[n + 1] = 0;
        n += 2;
    }
    if (kd->user_sgpr_flat_scratch_init) {
        w->s[n] = 0;
        w->s[n + 1] = 0;
        n += 2;
    }
    if (kd->user_sgpr_private_segment_size) {
        w->s[n] = L->priv_size;
        n += 1;
    }
    if (kd->kernarg_preload_length) {
        unsigned off = kd->kernarg_preload_offset, len = kd->kernarg_preload_length;
        for (unsigned i = 0; i < len && n < 102; i++, n++) {
            size_t b = (size_t)(off + i) * 4;
            uint32_t v = 0;
            if (b + 4 <= d->kernarg_size)
                memcpy(&v, d->kernarg + b, 4);
            w->s[n] = v;
        }
    }
    if (kd->user_sgpr_count > n)
        n = kd->user_sgpr_count;
    else if (kd->user_sgpr_count < n && kd->user_sgpr_count) {
        snprintf(err, errlen, "kernel descriptor of %s: USER_SGPR_COUNT %u is smaller than the "
                 "%u user SGPRs its enable bits ask for", d->kernel->name, kd->user_sgpr_count, n);
        return -1;
    }
    for (int k = 0; k < 3; k++)
        if (kd->enable_sgpr_workgroup_id[k] && n < 102)
            w->s[n++] = g->id[k];
    if (kd->enable_sgpr_workgroup_info && n < 102)
        w->s[n++] = 0;
    /* MODE register from rsrc1 (FLOAT_MODE [19:12], DX10_CLAMP [21], IEEE [23]) */
    w->hw_mode = (kd->float_round_mode_32 & 3) | (kd->float_round_mode_16_64 & 3) << 2 |
                 (kd->float_denorm_mode_32 & 3) << 4 | (kd->float_denorm_mode_16_64 & 3) << 6 |
                 (kd->dx10_clamp & 1) << 8 | (kd->ieee_mode & 1) << 9;
    if (L->priv_size) {
        if (w->priv_size < L->priv_size) {
            free(w->priv);
            w->priv = calloc(NL, L->priv_size);
            if (!w->priv) {
                snprintf(err, errlen, "out of memory for %u bytes of scratch per lane", L->priv_size);
                return -1;
            }
        } else {
            memset(w->priv, 0, (size_t)L->priv_size * NL);
        }
        w->priv_size = L->priv_size;
    } else {
        w->priv_size = 0;
    }
    if (s->entry_prog != s->prog || s->entry_pc != L->entry) {
        int32_t idx = sim_prog_at(s->prog, L->entry, err, errlen);
        if (idx < 0)
            return -1;
        s->entry_prog = s->prog;
        s->entry_pc = L->entry;
        s->entry_idx = (uint32_t)idx;
    }
    w->cur = sim_prog_insn(s->prog, s->entry_idx);
    if (s->prog->hz_cons != s->prog->hz_pgcons)
        sim_hz_regroup(s, g->waves, wi + 1);     /* (the waves set up so far) */
    return 0;
}

/* The LDS and the waves of one workgroup of the dispatch on s (the serial device or a
 * thread's copy). */
static int prep_wg(gcn_sim *s, const disp_layout *L, unsigned nwaves)
{
    for (unsigned i = 0; i < nwaves; i++) {
        sim_wave *w = s->wave_pool[i];
        if (w && (w->nvrows != L->nvrows || w->accum != L->accum)) {
            wave_free(w);
            w = s->wave_pool[i] = NULL;
        }
        if (!w && !(w = s->wave_pool[i] = sim_wave_new(L->nvrows, L->accum)))
            return -1;
    }
    sim_wg *g = &s->wg;
    free(g->lds);
    free(g->lds_tag);
    free(g->lds_rtag);
    free(g->lds_atag);
    free(g->lds_bw);
    g->lds = aligned_alloc(64, (L->lds_size + 16 + 63) & ~(size_t)63);
    if (g->lds)
        memset(g->lds, 0, L->lds_size + 16);
    g->lds_tag = calloc(L->lds_size / 4 + 4, sizeof *g->lds_tag);
    g->lds_rtag = calloc(L->lds_size / 4 + 4, sizeof *g->lds_rtag);
    g->lds_atag = calloc(L->lds_size / 4 + 4, sizeof *g->lds_atag);
    g->lds_bw = calloc(SIM_LDS_NSUM * SIM_LDS_NBLK(L->lds_size), sizeof *g->lds_bw);
    g->lds_br = g->lds_bw ? g->lds_bw + SIM_LDS_NBLK(L->lds_size) : NULL;
    g->lds_bfr = g->lds_bw ? g->lds_bw + 2 * SIM_LDS_NBLK(L->lds_size) : NULL;
    g->lds_size = L->lds_size;
    return g->lds && g->lds_tag && g->lds_rtag && g->lds_atag && g->lds_bw ? 0 : -1;
}

/* The dispatch's addresses: kernarg segment, dispatch packet, queue. */
typedef struct disp_addrs {
    uint64_t ka, pa, qa;
} disp_addrs;

/* After wave w's turn: its end (its tickets retired, one live wave fewer) or its wait at a
 * barrier counted. */
static inline void turn_end(gcn_sim *s, sim_wave *w, unsigned *live, unsigned *waiting)
{
    if (w->state == WS_DONE) {
        sim_retire_all(s, w);
        sim_rz_wave_end(w);
        (*live)--;
    } else if (w->state == WS_BARRIER) {
        (*waiting)++;
    }
}

/* One round of one-instruction turns of the waves of g that run (run_wave's plain copy
 * MODE, 1 or 2; a wave without a history, out of memory, on the general path), then, while
 * every wave runs (none ended, none waits at a barrier), each has a history (MODE 1), and
 * nothing else is to be done between rounds (MORE: no progress to show), at most CAP next
 * rounds at once, without those tests before each turn (a wave ends or waits only in its
 * own turn: the round is finished, then the loop left). */
static inline __attribute__((always_inline)) void plain_turns(gcn_sim *s, sim_x *x, sim_wg *g,
                                                              unsigned nwaves, unsigned *live,
                                                              unsigned *waiting, int more,
                                                              uint64_t cap, int mode)
{
    int stopped = 0;
    for (unsigned i = 0; i < nwaves; i++) {
        sim_wave *w = g->waves[i];
        if (w->state != WS_RUN)
            continue;
        if (__builtin_expect(mode == 2 || w->hz != NULL ? run_wave(s, x, w, 1, mode)
                                                        : run_wave_any(s, x, w, 1), 0)) {
            turn_end(s, w, live, waiting);
            if ((stopped = s->stop))
                break;
        }
    }
    int all = !stopped && *live == nwaves && !*waiting && more;
    for (unsigned i = 0; mode == 1 && all && i < nwaves; i++)
        all = g->waves[i]->hz != NULL;
    if (!all)
        return;
    sim_wave *const *first = g->waves, *const *end = first + nwaves;
    /* (a round runs nwaves instructions: the rounds the budget holds, counted down in
     * place of its test before each instruction) */
    uint64_t rounds = (s->budget - s->insns) / nwaves;
    if (rounds > cap)
        rounds = cap;
    if (!rounds)
        return;
    for (sim_wave *const *wp = first;;) {
        if (__builtin_expect(run_wave_b(s, x, *wp, 1, mode, 1), 0)) {
            /* the wave ended, waits or the run stops: the round's other turns (on the
             * general path, the same for a plain run), then out */
            turn_end(s, *wp, live, waiting);
            while (!s->stop && ++wp != end)
                if (run_wave_any(s, x, *wp, 1))
                    turn_end(s, *wp, live, waiting);
            return;
        }
        if (__builtin_expect(++wp == end, 0)) {
            wp = first;
            if (!--rounds)
                return;
        }
    }
}

/* A run on threads passes STOP: the workgroups at or past *STOP are not needed (one before
 * them faulted or stopped), so one of them is abandoned (*ABANDONED set). */
#define PAR_QUANTUM 65536u     /* a lone wave's turn on a thread: how often it looks at STOP */

/* Run workgroup number FLAT, (gx, gy, gz), on s to its end (all its waves done) or until s
 * stops (a fault, or --strict and a finding).  The instruction budget (--max-insns) is per
 * workgroup.  Returns the waves it set up. */
static unsigned run_wg(gcn_sim *s, sim_x *x, const gcn_dispatch *d, const disp_layout *L,
                       unsigned nwaves, uint32_t gx, uint32_t gy, uint32_t gz, unsigned flat,
                       const disp_addrs *A, const _Atomic uint64_t *stop, int *abandoned,
                       int show_progress, uint64_t nwg)
{
    sim_wg *g = &s->wg;
    char err[512];
    unsigned waves = 0;
    s->budget = s->o.max_insns > UINT64_MAX - s->insns ? UINT64_MAX : s->insns + s->o.max_insns;
    g->id[0] = gx;
    g->id[1] = gy;
    g->id[2] = gz;
    g->flat = flat;
    g->nwaves = nwaves;
    g->nbarrier = 0;
    g->ndone = 0;
    g->nlr = 0;
    g->epoch = 0;
    g->atom_epoch = 0;
    g->tag_epoch = 0;
    g->nrdefer = 0;
    x->rz_cur = 0;
    memset(g->lds, 0, L->lds_size);
    if (nwaves > 1) {
        memset(g->lds_tag, 0, (L->lds_size / 4 + 4) * sizeof *g->lds_tag);
        memset(g->lds_rtag, 0, (L->lds_size / 4 + 4) * sizeof *g->lds_rtag);
        memset(g->lds_atag, 0, (L->lds_size / 4 + 4) * sizeof *g->lds_atag);
        memset(g->lds_bw, 0, SIM_LDS_NSUM * SIM_LDS_NBLK(L->lds_size) * sizeof *g->lds_bw);
    }
    for (unsigned i = 0; i < nwaves; i++) {
        sim_wave *w = s->wave_pool[i];
        g->waves[i] = w;
        if (setup_wave(s, d, L, g, w, i, A->ka, A->pa, A->qa, err, sizeof err)) {
            x->i = NULL;
            sim_fault(x, "%s", err);
            break;
        }
        if (w->tk[0].gid != (uint16_t)(i * SIM_NTICKETS + 1))  /* (wave_pool[i] is always wave i) */
            for (unsigned t = 0; t < SIM_NTICKETS; t++)
                w->tk[t].gid = (uint16_t)(i * SIM_NTICKETS + t + 1);
        w->traced = s->trace && flat == s->o.trace_wg && i == s->o.trace_wave;
        waves++;
    }
    /* schedule: the live waves take turns of `quantum` instructions (a
     * single wave runs until it blocks); a barrier releases when every
     * live wave waits at it */
    unsigned quantum = s->o.quantum ? s->o.quantum : 1;
    unsigned live = nwaves, waiting = 0, round = 0, look = 0;
    unsigned q = nwaves > 1 ? quantum : stop ? PAR_QUANTUM : UINT32_MAX;
    /* run_wave's common cases (no trace, not in stale mode; 1: hazard checks on -- and the
     * wave has a history --, 2: off) */
    const int plain = s->trace || s->o.hazard_effect == GCN_SIM_HZ_STALE ? 0 : s->hz_on ? 1 : 2;
    /* plain_turns' rounds at once (no progress to show); on threads at most 64 rounds a
     * call, STOP looked at before each call (else before every 64th turn) */
    const int fast = !show_progress && q == 1 && plain;
    const uint64_t cap = stop ? 63 : UINT64_MAX;
    while (live && !s->stop) {
        /* (every 64th turn: a turn is a few instructions when several waves take turns;
         * before each call of plain_turns' rounds at once) */
        if (stop && (fast || !(look++ & 63)) &&
            flat >= atomic_load_explicit(stop, memory_order_relaxed)) {
            *abandoned = 1;
            return waves;
        }
        /* (the turn's loop twice: the common one-instruction turn with its constants, so
         * that neither the choice nor the end-of-turn tests of a wave still running are
         * made per instruction) */
        if (q == 1 && plain == 1)
            plain_turns(s, x, g, nwaves, &live, &waiting, fast, cap, 1);
        else if (q == 1 && plain == 2)
            plain_turns(s, x, g, nwaves, &live, &waiting, fast, cap, 2);
        else {
            for (unsigned i = 0; i < nwaves && !s->stop; i++) {
                sim_wave *w = g->waves[i];
                if (w->state != WS_RUN)
                    continue;
                /* (the budget's test made once for the turn where it holds the turn; a lone
                 * wave's turn cut to what it holds, the next turn then faulting at once) */
                const uint64_t left = s->budget - s->insns;
                const unsigned qb = nwaves == 1 ? (left < q ? (unsigned)left : q)
                                                : (left >= q ? q : 0);
                if (plain == 1 && w->hz) {
                    if (qb)
                        run_wave_b(s, x, w, qb, 1, 1);
                    else
                        run_wave(s, x, w, q, 1);
                } else if (plain == 2) {
                    if (qb)
                        run_wave_b(s, x, w, qb, 2, 1);
                    else
                        run_wave(s, x, w, q, 2);
                } else {
                    run_wave(s, x, w, q, 0);
                }
                turn_end(s, w, &live, &waiting);
            }
        }
        if (live && waiting == live) {
            for (unsigned i = 0; i < nwaves; i++) {
                if (g->waves[i]->state == WS_BARRIER)
                    g->waves[i]->state = WS_RUN;
                g->waves[i]->nlw = 0;
                g->waves[i]->nlrd = 0;
                sim_rz_barrier(g->waves[i]);
            }
            waiting = 0;
            g->epoch++;
            if (!(g->epoch & 0xffff)) {   /* the reader/atomic tags' 16-bit epoch wrapped */
                g->nrdefer = 0;             /* (their tags are cleared: nothing to write) */
                memset(g->lds_rtag, 0, (L->lds_size / 4 + 4) * sizeof *g->lds_rtag);
                memset(g->lds_atag, 0, (L->lds_size / 4 + 4) * sizeof *g->lds_atag);
                memset(g->lds_bw, 0, SIM_LDS_NSUM * SIM_LDS_NBLK(L->lds_size) * sizeof *g->lds_bw);
            }
            if (s->trace)
                sim_trace_barrier(s->trace);
        }
        if (show_progress && (++round & 4095) == 0)
            progress(s, d, flat, (unsigned)nwg);
    }
    if (show_progress)
        progress(s, d, flat, (unsigned)nwg);
    /* races on LDS reads whose values no wave used are no findings (racyreg.c) */
    sim_finding_prune(s);
    return waves;
}

static void free_finding(gcn_sim_finding *f)
{
    free(f->text); free(f->where); free(f->file); free(f->prod_text); free(f->prod_where);
    free(f->detail); free(f->sym); free(f->prod_sym); free(f->rule);
    free(f->fix_text); free(f->fix_where); free(f->fix_sym); free(f->detail_base);
}

/* Merge finding E of one workgroup (a thread's copy keeps one entry per kind, rule, pc,
 * producer AND place of the fix: add_finding's wgkey) into s's findings as add_finding
 * would have met its occurrences in a serial run, the workgroups merged in dispatch order:
 * a new site takes E whole (its first occurrence is E's); a known one adds E's count and,
 * when E's fix goes before the same instruction, tightens the fix to E's counts. */
static void merge_finding(gcn_sim *s, gcn_sim_finding *e)
{
    for (unsigned i = 0; i < s->nfinds; i++) {
        gcn_sim_finding *f = &s->finds[i];
        if (f->kind != e->kind || f->pc != e->pc || f->prod_pc != e->prod_pc ||
            !sim_same_str(f->rule, e->rule))
            continue;
        f->count += e->count;
        if (e->fix_pc != ~0ull && f->fix_pc == e->fix_pc) {
            int ch = 0;
            if (e->fix_vmcnt >= 0 && (f->fix_vmcnt < 0 || e->fix_vmcnt < f->fix_vmcnt))
                f->fix_vmcnt = e->fix_vmcnt, ch = 1;
            if (e->fix_lgkmcnt >= 0 && (f->fix_lgkmcnt < 0 || e->fix_lgkmcnt < f->fix_lgkmcnt))
                f->fix_lgkmcnt = e->fix_lgkmcnt, ch = 1;
            if (ch)
                sim_compose_detail(f);
        }
        free_finding(e);
        return;
    }
    if (s->nfinds == s->cap_finds) {
        unsigned nc = s->cap_finds ? 2 * s->cap_finds : 16;
        gcn_sim_finding *nf = realloc(s->finds, nc * sizeof *nf);
        if (!nf) {
            free_finding(e);
            return;
        }
        s->finds = nf;
        s->cap_finds = nc;
    }
    s->finds[s->nfinds++] = *e;
}

/* ---- workgroups on threads ------------------------------------------------ */

/* What one workgroup run on a thread left for the merge. */
typedef struct par_slot {
    int done;
    int faulted, fstop;
    gcn_sim_finding *f;
    unsigned nf;
    uint64_t insns, waves;
    char *fault;                /* faulted: the message */
    gcn_sim_where fault_at;
} par_slot;

/* One thread: its copy of the device (the allocations shared, everything a run changes
 * its own: waves, LDS, program, findings, fault) and its execution context. */
typedef struct par_worker {
    gcn_sim *c;
    sim_prog prog;
    sim_x *x;
    double cpu;                 /* its CPU seconds in the run */
} par_worker;

typedef struct par_job {
    gcn_sim *s;
    const gcn_dispatch *d;
    const disp_layout *L;
    const disp_addrs *A;
    unsigned nwaves;
    uint64_t nwg;
    par_worker *w;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t next;              /* the next workgroup to take (mu) */
    uint64_t merged;            /* workgroups merged into s, in dispatch order (mu) */
    uint64_t waves;             /* their waves (mu) */
    _Atomic uint64_t stop;      /* workgroups at or past it are not needed */
    unsigned W;                 /* slots: workgroups taken run at most W ahead of the merge */
    par_slot *slot;
    int show_progress;
} par_job;

static sim_x *x_new(void)
{
    sim_x *x = aligned_alloc(_Alignof(sim_x), (sizeof *x + 63) & ~(size_t)63);
    if (x)
        memset(x, 0, sizeof *x);
    return x;
}

static void worker_free(par_worker *w)
{
    gcn_sim *c = w->c;
    if (c) {
        for (unsigned i = 0; i < c->nfinds; i++)
            free_finding(&c->finds[i]);
        free(c->finds);
        for (unsigned i = 0; i < SIM_MAX_WAVES; i++)
            wave_free(c->wave_pool[i]);
        free(c->wg.lds);
        free(c->wg.lds_tag);
        free(c->wg.lds_rtag);
        free(c->wg.lds_atag);
        free(c->wg.lds_bw);
        free(c);
    }
    if (w->prog.at)
        sim_prog_free(&w->prog);
    free(w->x);
    memset(w, 0, sizeof *w);
}

/* A thread's copy of s for the dispatch: 0, or -1 when out of memory. */
static int worker_new(par_worker *w, const gcn_sim *s, const gcn_dispatch *d,
                      const disp_layout *L, unsigned nwaves, gcn_target tgt)
{
    char err[512];
    memset(w, 0, sizeof *w);
    gcn_sim *c = w->c = calloc(1, sizeof *c);
    if (!c || !(w->x = x_new()) ||
        sim_prog_init(&w->prog, d->co, tgt, L->accum, L->nvrows, err, sizeof err)) {
        worker_free(w);
        return -1;
    }
    c->o = s->o;
    c->o.trace_fifo = 0;
    c->o.trace_json = NULL;
    c->o.plot_svg = NULL;
    c->o.progress = 0;
    c->allocs = s->allocs;          /* read-only while workgroups run */
    c->nallocs = s->nallocs;
    c->next_addr = s->next_addr;
    c->prog = &w->prog;
    c->disp = d;
    c->hz_on = s->hz_on;
    c->hz_flags = s->hz_flags;
    memcpy(c->hz_win, s->hz_win, sizeof c->hz_win);     /* sim_hz_setup's, for this run */
    memcpy(c->hz_pwin, s->hz_pwin, sizeof c->hz_pwin);
    c->wgkey = 1;
    w->x->sim = c;
    w->x->g = &c->wg;
    if (prep_wg(c, L, nwaves)) {
        worker_free(w);
        return -1;
    }
    return 0;
}

/* Merge the workgroups that are done, in dispatch order, as far as they go (mu held). */
static void par_merge(par_job *j)
{
    gcn_sim *s = j->s;
    while (j->merged < j->nwg && j->merged < atomic_load(&j->stop)) {
        par_slot *sl = &j->slot[j->merged % j->W];
        if (!sl->done)
            break;
        s->insns += sl->insns;
        j->waves += sl->waves;
        for (unsigned i = 0; i < sl->nf; i++)
            merge_finding(s, &sl->f[i]);
        free(sl->f);
        if (sl->faulted) {
            s->faulted = 1;
            snprintf(s->fault, sizeof s->fault, "%s", sl->fault ? sl->fault : "kernel fault");
            s->fault_at = sl->fault_at;
        }
        if (sl->fstop)
            s->finding_stop = 1;
        free(sl->fault);
        memset(sl, 0, sizeof *sl);
        j->merged++;
        if (j->show_progress && j->merged < j->nwg)
            progress(s, j->d, (unsigned)j->merged, (unsigned)j->nwg);
    }
}

static void par_work(void *arg, unsigned wi)
{
    par_job *j = arg;
    par_worker *pw = &j->w[wi];
    gcn_sim *c = pw->c;
    const gcn_dispatch *d = j->d;
    double c0 = cpu_s();
    for (;;) {
        pthread_mutex_lock(&j->mu);
        while (j->next < j->nwg && j->next < atomic_load(&j->stop) && j->next >= j->merged + j->W)
            pthread_cond_wait(&j->cv, &j->mu);
        if (j->next >= j->nwg || j->next >= atomic_load(&j->stop)) {
            pthread_mutex_unlock(&j->mu);
            break;
        }
        uint64_t k = j->next++;
        pthread_mutex_unlock(&j->mu);
        uint64_t gxy = (uint64_t)d->grid[0] * d->grid[1];
        uint32_t gx = (uint32_t)(k % d->grid[0]), gy = (uint32_t)(k / d->grid[0] % d->grid[1]),
                 gz = (uint32_t)(k / gxy);
        c->faulted = c->stop = c->finding_stop = 0;
        c->fault[0] = 0;
        memset(&c->fault_at, 0, sizeof c->fault_at);
        uint64_t i0 = c->insns;
        int abandoned = 0;
        unsigned waves = run_wg(c, pw->x, d, j->L, j->nwaves, gx, gy, gz, (unsigned)k, j->A,
                                &j->stop, &abandoned, 0, j->nwg);
        if (abandoned) {            /* past a workgroup that stopped the run: not needed */
            for (unsigned i = 0; i < c->nfinds; i++)
                free_finding(&c->finds[i]);
            c->nfinds = 0;
            continue;
        }
        par_slot *sl = &j->slot[k % j->W];
        sl->f = c->finds;
        sl->nf = c->nfinds;
        c->finds = NULL;
        c->nfinds = c->cap_finds = 0;
        sl->insns = c->insns - i0;
        sl->waves = waves;
        sl->faulted = c->faulted;
        sl->fstop = c->finding_stop;
        if (c->faulted) {
            sl->fault = strdup(c->fault);
            sl->fault_at = c->fault_at;
        }
        if (c->faulted || c->finding_stop) {
            uint64_t cur = atomic_load(&j->stop);
            while (k + 1 < cur && !atomic_compare_exchange_weak(&j->stop, &cur, k + 1))
                ;
        }
        pthread_mutex_lock(&j->mu);
        sl->done = 1;
        par_merge(j);
        pthread_cond_broadcast(&j->cv);
        pthread_mutex_unlock(&j->mu);
    }
    pw->cpu = cpu_s() - c0;
}

/* Run the workgroups of d on n threads (the crew taken); 0, or -1 (nothing run: out of
 * memory) for the caller to run them serially. */
static int par_run(gcn_sim *s, const gcn_dispatch *d, const disp_layout *L,
                   const disp_addrs *A, unsigned nwaves, uint64_t nwg, unsigned n,
                   gcn_target tgt, int show_progress, gcn_sim_result *res, double *cpu_other)
{
    par_job j;
    memset(&j, 0, sizeof j);
    j.s = s;
    j.d = d;
    j.L = L;
    j.A = A;
    j.nwaves = nwaves;
    j.nwg = nwg;
    j.W = n * 64 < 4096 ? 4096 : n * 64;
    j.show_progress = show_progress;
    atomic_init(&j.stop, UINT64_MAX);
    j.w = calloc(n, sizeof *j.w);
    j.slot = calloc(j.W, sizeof *j.slot);
    int ok = j.w && j.slot;
    for (unsigned i = 0; ok && i < n; i++)
        ok = !worker_new(&j.w[i], s, d, L, nwaves, tgt);
    if (!ok) {
        for (unsigned i = 0; j.w && i < n; i++)
            worker_free(&j.w[i]);
        free(j.w);
        free(j.slot);
        return -1;
    }
    pthread_mutex_init(&j.mu, NULL);
    pthread_cond_init(&j.cv, NULL);
    sim_crew_run(n, par_work, &j);
    res->waves = j.waves;
    if (s->faulted || s->finding_stop)
        s->stop = 1;
    *cpu_other = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i)
            *cpu_other += j.w[i].cpu;
        worker_free(&j.w[i]);
    }
    for (unsigned i = 0; i < j.W; i++) {       /* abandoned or past the stop: unmerged */
        for (unsigned k = 0; k < j.slot[i].nf; k++)
            free_finding(&j.slot[i].f[k]);
        free(j.slot[i].f);
        free(j.slot[i].fault);
    }
    pthread_mutex_destroy(&j.mu);
    pthread_cond_destroy(&j.cv);
    free(j.w);
    free(j.slot);
    return 0;
}

static void finish_result(gcn_sim *s, gcn_sim_result *res, double cpu_other)
{
    res->insns = s->insns;
    res->findings = s->finds;
    res->nfindings = s->nfinds;
    res->seconds = now_s() - s->t0;
    res->cpu_seconds = cpu_s() - s->cpu0 + cpu_other;
    if (s->faulted) {
        res->status = GCN_SIM_FAULT;
        snprintf(res->msg, sizeof res->msg, "%s", s->fault);
        res->fault_at = s->fault_at;
    }
}

unsigned gcn_sim_cpus(void)
{
    return sim_crew_cpus();
}

/* A dispatch that cannot run (bad input, or out of memory before anything ran): res says
 * why; returns GCN_SIM_EINPUT. */
__attribute__((format(printf, 2, 3)))
static int bad_input(gcn_sim_result *res, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->msg, sizeof res->msg, fmt, ap);
    va_end(ap);
    res->status = GCN_SIM_EINPUT;
    return res->status;
}

/* The state one run starts from: no fault, no stop, no instructions, the clocks now. */
static void run_reset(gcn_sim *s, gcn_sim_result *res)
{
    memset(res, 0, sizeof *res);
    res->threads = 1;
    s->faulted = 0;
    s->finding_stop = 0;
    s->stop = 0;
    s->fault[0] = 0;
    memset(&s->fault_at, 0, sizeof s->fault_at);
    s->insns = 0;
    s->t0 = s->tlast = now_s();
    s->cpu0 = cpu_s();
}

/* What the hardware would refuse: a target other than gfx942/gfx950, an empty grid or
 * block, a workgroup over 1024 work-items, wave32. */
static int check_dispatch(const gcn_dispatch *d, gcn_target tgt, gcn_sim_result *res)
{
    const gcn_kernel *k = d->kernel;
    if (tgt != GCN_TARGET_GFX942 && tgt != GCN_TARGET_GFX950)
        return bad_input(res, "target %s is not simulated (gfx942 and gfx950 are)",
                         gcn_target_name(tgt));
    for (int i = 0; i < 3; i++)
        if (d->grid[i] == 0 || d->block[i] == 0)
            return bad_input(res, "grid and block dimensions must be >= 1");
    uint64_t nthreads = (uint64_t)d->block[0] * d->block[1] * d->block[2];
    if (nthreads > 1024)
        return bad_input(res, "a workgroup of %llu work-items is larger than 1024",
                         (unsigned long long)nthreads);
    if (k->kd.enable_wavefront_size32)
        return bad_input(res, "kernel %s asks for wave32, which gfx9 does not have", k->name);
    /* work-item ids 0..1023 fit the 10 bits of a packed id; 1024 is a valid block */
    if (d->block[0] > 1024 || d->block[1] > 1024 || d->block[2] > 1024)
        return bad_input(res, "block dimensions must be at most 1024 each");
    return 0;
}

/* The kernel's layout from its descriptor: VGPR rows and where the AGPRs begin, LDS (the
 * static size and the dispatch's dynamic LDS, at most the target's), scratch, the entry
 * point (past the 256 bytes of a kernarg-preload prologue). */
static int layout_of(const gcn_dispatch *d, gcn_target tgt, disp_layout *L, gcn_sim_result *res)
{
    const gcn_kernel *k = d->kernel;
    const gcn_kd *kd = &k->kd;
    L->accum = kd->accum_offset ? kd->accum_offset : kd->next_free_vgpr;
    L->nvrows = kd->next_free_vgpr;
    if (L->nvrows < L->accum)
        L->nvrows = L->accum;
    if (L->nvrows == 0)
        L->nvrows = 8;
    if (L->nvrows > 512)
        L->nvrows = 512;
    if (L->accum > L->nvrows)
        L->accum = L->nvrows;
    uint32_t lds_max = tgt == GCN_TARGET_GFX950 ? 160 * 1024 : 64 * 1024;
    uint64_t lds = (uint64_t)kd->group_segment_fixed_size + d->dynamic_lds;
    if (lds > lds_max)
        return bad_input(res, "kernel %s needs %llu bytes of LDS; %s has %u", k->name,
                         (unsigned long long)lds, gcn_target_name(tgt), lds_max);
    L->lds_size = (uint32_t)lds;
    L->priv_size = kd->private_segment_fixed_size;
    L->entry = k->entry_addr + (kd->kernarg_preload_length ? 256 : 0);
    return 0;
}

/* Hazards: LLVM's assumptions for the kernel (xnack any/on: soft clauses; AGPRs in use:
 * the longer soft-clause lookahead), then the windows of the rules (sim_hz_setup). */
static void hazards_setup(gcn_sim *s, const gcn_dispatch *d)
{
    s->hz_on = s->o.hazard_effect != GCN_SIM_HZ_OFF;
    s->hz_flags = (d->co->xnack_mode == GCN_CO_FEAT_OFF ? 0 : GCN_HZ_XNACK) |
                  (d->kernel->md_agpr_count ? GCN_HZ_AGPR0 : 0) |
                  (s->o.hazard_llvm ? GCN_HZ_LLVM : 0);
    sim_hz_setup(s);
}

/* The dispatch's own memory, the last three allocations of s: the kernarg segment (the
 * arguments copied in), the AQL dispatch packet, the queue. */
static int dispatch_memory(gcn_sim *s, const gcn_dispatch *d, const disp_layout *L,
                           disp_addrs *A)
{
    size_t kasz = d->kernarg_size ? d->kernarg_size : 1;
    if (gcn_sim_alloc(s, (kasz + 255) & ~(size_t)255, "kernarg segment", &A->ka) ||
        gcn_sim_alloc(s, 64, "dispatch packet", &A->pa) || gcn_sim_alloc(s, 256, "queue", &A->qa))
        return -1;
    if (d->kernarg_size)
        memcpy(sim_mem(s, A->ka, d->kernarg_size), d->kernarg, d->kernarg_size);
    uint8_t *pk = sim_mem(s, A->pa, 64);
    unsigned dims = d->grid[2] * d->block[2] > 1 ? 3 : d->grid[1] * d->block[1] > 1 ? 2 : 1;
    uint16_t hdr = 2 /* KERNEL_DISPATCH */, setup = (uint16_t)dims;
    uint16_t wg16[3] = {(uint16_t)d->block[0], (uint16_t)d->block[1], (uint16_t)d->block[2]};
    uint32_t gs[3] = {d->grid[0] * d->block[0], d->grid[1] * d->block[1],
                      d->grid[2] * d->block[2]};
    memcpy(pk + 0, &hdr, 2);
    memcpy(pk + 2, &setup, 2);
    memcpy(pk + 4, wg16, 6);
    memcpy(pk + 12, gs, 12);
    memcpy(pk + 24, &L->priv_size, 4);
    memcpy(pk + 28, &L->lds_size, 4);
    memcpy(pk + 32, &d->kernel->kd_addr, 8);
    memcpy(pk + 40, &A->ka, 8);
    return 0;
}

/* Drop the dispatch's own allocations (the last three, dispatch_memory's). */
static void drop_dispatch_memory(gcn_sim *s)
{
    for (int i = 0; i < 3 && s->nallocs; i++) {
        s->nallocs--;
        dev_free(&s->allocs[s->nallocs]);
        free(s->allocs[s->nallocs].name);
    }
}

/* Threads: the workgroups of a kernel that the scan finds independent run on up to
 * o.threads threads, the results merged in dispatch order (docs/gcnsim.md, Threads).
 * The threads taken from the crew (1: run serially, res->serial_why says why when more
 * were asked for). */
static unsigned take_threads(gcn_sim *s, const gcn_dispatch *d, gcn_target tgt,
                             const disp_layout *L, uint64_t nwg, gcn_sim_result *res)
{
    unsigned want = s->o.threads ? s->o.threads : 1, got = 1;
    if (want > nwg)
        want = (unsigned)nwg;
    if (want <= 1)
        return 1;
    if (s->trace)
        snprintf(res->serial_why, sizeof res->serial_why, "--trace, --trace-json and --plot "
                 "follow one wave through the run in dispatch order");
    else if (s->o.strict)   /* the outputs are dumped as the first finding left them */
        snprintf(res->serial_why, sizeof res->serial_why, "--strict stops at the first "
                 "finding in dispatch order");
    else if (!sim_wg_scan(d->co, tgt, L->entry, L->accum, L->nvrows, res->serial_why,
                          sizeof res->serial_why))
        ;
    else if ((got = sim_crew_take(want)) <= 1)
        snprintf(res->serial_why, sizeof res->serial_why, "no other thread could be had");
    return got;
}

/* The workgroups in dispatch order on this thread, until the end or a stop. */
static void run_serial(gcn_sim *s, sim_x *x, const gcn_dispatch *d, const disp_layout *L,
                       const disp_addrs *A, unsigned nwaves, uint64_t nwg, int show_progress,
                       gcn_sim_result *res)
{
    unsigned flat = 0;
    for (uint32_t gz = 0; gz < d->grid[2] && !s->faulted && !s->finding_stop; gz++)
    for (uint32_t gy = 0; gy < d->grid[1] && !s->faulted && !s->finding_stop; gy++)
    for (uint32_t gx = 0; gx < d->grid[0] && !s->faulted && !s->finding_stop; gx++, flat++)
        res->waves += run_wg(s, x, d, L, nwaves, gx, gy, gz, flat, A, NULL, NULL,
                             show_progress, nwg);
}

/* The trace's files written (a failure to write them is bad input unless the kernel
 * faulted, which res says already); the trace freed. */
static void trace_finish(gcn_sim *s, gcn_sim_result *res)
{
    char err[512];
    if (!s->trace)
        return;
    if (sim_trace_finish(s->trace, err, sizeof err) && !s->faulted)
        bad_input(res, "%s", err);
    sim_trace_free(s->trace);
    s->trace = NULL;
}

int gcn_sim_run(gcn_sim *s, const gcn_dispatch *d, gcn_sim_result *res)
{
    run_reset(s, res);
    gcn_target tgt = s->o.target ? s->o.target : d->co->target;
    disp_layout L;
    if (check_dispatch(d, tgt, res) || layout_of(d, tgt, &L, res))
        return res->status;
    char err[512];
    sim_prog prog;
    if (sim_prog_init(&prog, d->co, tgt, L.accum, L.nvrows, err, sizeof err))
        return bad_input(res, "%s", err);
    prog.pool = &s->blkpool;
    s->prog = &prog;
    s->entry_prog = NULL;           /* (a new program: the entry's index is looked up again) */
    hazards_setup(s, d);
    s->disp = d;

    disp_addrs A = {0, 0, 0};
    unsigned nwaves = (d->block[0] * d->block[1] * d->block[2] + NL - 1) / NL;
    sim_x *x = NULL;
    if (dispatch_memory(s, d, &L, &A) || !(x = x_new()) || prep_wg(s, &L, nwaves)) {
        bad_input(res, "out of memory");
        free(x);
        sim_prog_free(&prog);
        s->prog = NULL;
        s->entry_prog = NULL;
        return res->status;
    }
    s->trace = NULL;
    if (s->o.trace_fifo || s->o.trace_json || s->o.plot_svg)
        s->trace = sim_trace_new(s);
    x->sim = s;
    x->g = &s->wg;
    int show_progress = s->o.progress && isatty(2);
    uint64_t nwg = (uint64_t)d->grid[0] * d->grid[1] * d->grid[2];
    double cpu_other = 0;
    unsigned got = take_threads(s, d, tgt, &L, nwg, res);
    if (got > 1) {
        if (par_run(s, d, &L, &A, nwaves, nwg, got, tgt, show_progress, res, &cpu_other))
            snprintf(res->serial_why, sizeof res->serial_why, "out of memory for the threads");
        else
            res->threads = got;
        sim_crew_give(got);
    }
    if (res->threads <= 1)
        run_serial(s, x, d, &L, &A, nwaves, nwg, show_progress, res);
    if (show_progress)
        fprintf(stderr, "\r%78s\r", "");
    trace_finish(s, res);
    finish_result(s, res, cpu_other);
    free(x);
    sim_prog_free(&prog);
    s->prog = NULL;
    s->entry_prog = NULL;
    drop_dispatch_memory(s);
    s->last = 0;
    return res->status;
}
