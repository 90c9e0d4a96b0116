/*
 * values.c -- a forward value analysis that gives the LDS byte range of
 * every DS instruction and LDS-DMA load, so the linter can tell wave-private
 * slices, per-thread segments and the buffers of a pipelined loop apart.
 *
 * Values are affine forms c + sum k*sym over a few symbols (lint.h): the
 * lane id (0..63), the wave's index in the work-group (0..nwaves-1), the
 * value each SGPR held at kernel entry, and names for scalar values computed
 * outside loops that the analysis does not follow further.  Lane and wave
 * are bounded, so the bit idioms of hand-written kernels are followed
 * exactly when no carry can cross the bits they select:
 *   F & M, F >> n, bfe(F, o, w): F is split into a part whose coefficients
 *     are multiples of 2^n and a bounded rest in [0, 2^n); then F >> n is the
 *     first part / 2^n and F & (2^n - 1) the rest; within the rest, terms
 *     whose possible bits lie all inside (outside) M are kept (dropped);
 *   F | G, F ^ c: when the possible bits of the two sides are disjoint, the
 *     operation is an addition;
 *   v_mbcnt_lo(-1, x) = x + min(lane, 32); v_mbcnt_hi(-1, that) = x + lane;
 *   v_readfirstlane (lane 0 while EXEC has its launch value), v_readlane
 *     with a constant lane: the value at that lane.
 * Values are mathematical integers (no 32-bit wrap), as LDS addresses are.
 *
 * Entry values (AMDGPUUsage, "Initial Kernel Execution State"): v0 holds
 * workitem_id_x, or on gfx90a and later x | y << 10 | z << 20 when the
 * kernel asks for y or z ids.  With x alone the work-group is taken to be
 * one-dimensional (x = 64 * wave + lane); with packed ids, x, y and z are
 * bounded symbols of their own.  The wave count comes from the kernel's
 * maximum flat work-group size.  Joins keep a value only when all paths
 * agree; an unknown value remembers the instruction (or join) that lost it,
 * for the "could not prove" findings.
 *
 * The waves that reach each block (wmask) follow only the edges that the
 * static path facts (paths.h) allow: an edge no run takes carries no wave,
 * and a wave that enters a join over an edge after which the join's own
 * branch is decided leaves only by the other successor (per edge into the
 * block, the waves it carried are kept for that).  Register values still
 * follow every edge (a join may only lose precision).
 *
 * LDS ranges: a DS access covers ADDR + offset (+ offset0/offset1 * size
 * for the two-address forms, * 64 for st64) plus its data size, over lanes
 * 0..63.  An LDS-DMA load (buffer_load_* ... lds, global_load_lds_*)
 * writes M0 + inst_offset + lane * size (AMD CDNA3 ISA, "Buffer load to LDS";
 * LLVM IntrinsicsAMDGPU.td, buffer_load_lds: the immediate offset applies to
 * both the global and the LDS address; gcnsim models the same, and the
 * production attention kernels' padded layouts, M0 = base + 0x1000 * k with
 * offset:64 * k, only tile LDS without overlap that way).
 */
#include <stdlib.h>
#include <string.h>
#include "lint.h"
#include "paths.h"

/* ---- symbols ------------------------------------------------------------ */

bool gcn_sym_lane_varying(uint32_t s)
{
    if (gcn_sym_is_bound(s))
        return true;
    if (gcn_sym_is_field(s))
        s = gcn_sym_field_base(s);
    return s == GCN_SYM_LANE || s == GCN_SYM_MBLO || s == GCN_SYM_TIDX || s == GCN_SYM_TIDY ||
           s == GCN_SYM_TIDZ;
}

bool gcn_sym_wave_varying(uint32_t s)
{
    if (gcn_sym_is_field(s))
        s = gcn_sym_field_base(s);
    if (s == GCN_SYM_WAVE || gcn_sym_lane_varying(s))
        return true;
    return s >= GCN_SYM_FRESH && ((s - GCN_SYM_FRESH) & 1u);
}

/* ---- affine arithmetic -------------------------------------------------- */

static gcn_aval av_top(void)
{
    gcn_aval v;
    memset(&v, 0, sizeof v);
    return v;
}

static gcn_aval av_lost(uint32_t why)
{
    gcn_aval v = av_top();
    v.why = why;
    return v;
}

static gcn_aval av_const(int64_t c)
{
    gcn_aval v = av_top();
    v.known = 1;
    v.c = c;
    return v;
}

static gcn_aval av_sym(uint32_t sym, int64_t k)
{
    gcn_aval v = av_const(0);
    v.nt = 1;
    v.sym[0] = sym;
    v.k[0] = k;
    return v;
}

static bool av_eq(const gcn_aval *a, const gcn_aval *b)
{
    if (a->known != b->known)
        return false;
    if (!a->known)
        return true;
    if (a->c != b->c || a->nt != b->nt)
        return false;
    for (unsigned i = 0; i < a->nt; i++)
        if (a->sym[i] != b->sym[i] || a->k[i] != b->k[i])
            return false;
    return true;
}

/* Bits of a symbol that fields are cut from: LANE 6, WAVE 4 (16 waves of a
 * 1024-item work-group), work-item ids 10; 0 for the others. */
static unsigned sym_width(uint32_t s)
{
    switch (s) {
    case GCN_SYM_LANE: return 6;
    case GCN_SYM_WAVE: return 4;
    case GCN_SYM_TIDX: case GCN_SYM_TIDY: case GCN_SYM_TIDZ: return 10;
    default: return 0;
    }
}

/* Put k * FIELD(S, a, m) + k * 2^(m-a) * FIELD(S, m, b) back together as
 * k * FIELD(S, a, b) (and a field of all of S's bits as S: mk_field's
 * rule, which needs the bounds, is applied where fields are made). */
static void av_merge(gcn_aval *r)
{
    bool again = true;
    while (again) {
        again = false;
        for (unsigned i = 0; i < r->nt && !again; i++)
            for (unsigned j = 0; j < r->nt && !again; j++) {
                uint32_t s = r->sym[i], t = r->sym[j];
                if (i == j || !gcn_sym_is_field(s) || !gcn_sym_is_field(t) ||
                    gcn_sym_field_base(s) != gcn_sym_field_base(t) ||
                    gcn_sym_field_hi(s) != gcn_sym_field_lo(t))
                    continue;
                unsigned w = gcn_sym_field_hi(s) - gcn_sym_field_lo(s);
                if (r->k[j] != r->k[i] * ((int64_t)1 << w))
                    continue;
                uint32_t f = gcn_sym_field(gcn_sym_field_base(s), gcn_sym_field_lo(s),
                                           gcn_sym_field_hi(t));
                if (gcn_sym_field_lo(s) == 0 &&
                    gcn_sym_field_hi(t) >= sym_width(gcn_sym_field_base(s)))
                    f = gcn_sym_field_base(s);
                int64_t k = r->k[i];
                /* drop j and i, insert f in order */
                gcn_aval n = *r;
                n.nt = 0;
                for (unsigned x = 0; x < r->nt; x++)
                    if (x != i && x != j) {
                        n.sym[n.nt] = r->sym[x];
                        n.k[n.nt++] = r->k[x];
                    }
                unsigned pos = 0;
                while (pos < n.nt && n.sym[pos] < f)
                    pos++;
                if (pos < n.nt && n.sym[pos] == f) {
                    n.k[pos] += k;
                } else {
                    memmove(&n.sym[pos + 1], &n.sym[pos], (n.nt - pos) * sizeof n.sym[0]);
                    memmove(&n.k[pos + 1], &n.k[pos], (n.nt - pos) * sizeof n.k[0]);
                    n.sym[pos] = f;
                    n.k[pos] = k;
                    n.nt++;
                }
                *r = n;
                again = true;
            }
    }
}

/* a + m * b, terms kept sorted by symbol, fields left as they are. */
/* Coefficients and constants beyond this are given up on (no LDS address
 * needs them, and the arithmetic below then cannot overflow int64). */
#define AV_MAX ((int64_t)1 << 40)

/* x + m * y, false when it overflows or leaves [-AV_MAX, AV_MAX]. */
static bool av_madd(int64_t x, int64_t m, int64_t y, int64_t *r)
{
    int64_t p;
    if (__builtin_mul_overflow(m, y, &p) || __builtin_add_overflow(x, p, r))
        return false;
    return *r >= -AV_MAX && *r <= AV_MAX;
}

static gcn_aval av_addmul_raw(const gcn_aval *a, const gcn_aval *b, int64_t m)
{
    if (!a->known || !b->known)
        return av_top();
    int64_t c0;
    if (!av_madd(a->c, m, b->c, &c0))
        return av_top();
    gcn_aval r = av_const(c0);
    unsigned i = 0, j = 0;
    while (i < a->nt || j < b->nt) {
        uint32_t s;
        int64_t k;
        if (j >= b->nt || (i < a->nt && a->sym[i] < b->sym[j])) {
            s = a->sym[i];
            k = a->k[i++];
        } else if (i >= a->nt || b->sym[j] < a->sym[i]) {
            s = b->sym[j];
            if (!av_madd(0, m, b->k[j++], &k))
                return av_top();
        } else {
            s = a->sym[i];
            if (!av_madd(a->k[i++], m, b->k[j++], &k))
                return av_top();
        }
        if (k == 0)
            continue;
        if (r.nt == GCN_AV_TERMS)
            return av_top();
        r.sym[r.nt] = s;
        r.k[r.nt++] = k;
    }
    return r;
}

/* a + m * b, with cut fields put back together. */
static gcn_aval av_addmul(const gcn_aval *a, const gcn_aval *b, int64_t m)
{
    gcn_aval r = av_addmul_raw(a, b, m);
    if (r.known)
        av_merge(&r);
    return r;
}

static gcn_aval av_add(const gcn_aval *a, const gcn_aval *b)
{
    return av_addmul(a, b, 1);
}

static gcn_aval av_scale(const gcn_aval *a, int64_t m)
{
    gcn_aval z = av_const(0);
    return av_addmul(&z, a, m);
}

static bool av_isconst(const gcn_aval *a, int64_t *c)
{
    if (a->known && a->nt == 0) {
        *c = a->c;
        return true;
    }
    return false;
}

static gcn_aval av_mul(const gcn_aval *a, const gcn_aval *b)
{
    int64_t c;
    if (av_isconst(a, &c))
        return av_scale(b, c);
    if (av_isconst(b, &c))
        return av_scale(a, c);
    return av_top();
}

static gcn_aval av_shl(const gcn_aval *a, const gcn_aval *sh)
{
    int64_t c;
    if (!av_isconst(sh, &c))
        return av_top();
    return av_scale(a, (int64_t)1 << (c & 31));
}

/* Replace the lane-dependent symbols by their value at lane `lane`; false
 * when a symbol has no such value (the packed work-item ids). */
static bool av_at_lane(const gcn_aval *a, unsigned lane, gcn_aval *out)
{
    *out = *a;
    if (!a->known)
        return true;
    gcn_aval r = av_const(a->c);
    for (unsigned i = 0; i < a->nt; i++) {
        uint32_t s = a->sym[i];
        if (s == GCN_SYM_LANE)
            r.c += a->k[i] * lane;
        else if (gcn_sym_is_field(s) && gcn_sym_field_base(s) == GCN_SYM_LANE)
            r.c += a->k[i] * ((lane >> gcn_sym_field_lo(s)) &
                              ((1u << (gcn_sym_field_hi(s) - gcn_sym_field_lo(s))) - 1u));
        else if (s == GCN_SYM_MBLO)
            r.c += a->k[i] * (lane < 32 ? lane : 32);
        else if (gcn_sym_lane_varying(s))
            return false;
        else {
            r.sym[r.nt] = s;
            r.k[r.nt++] = a->k[i];
        }
    }
    *out = r;
    return true;
}

/* ---- bits of bounded forms ---------------------------------------------- */

typedef struct vctx {
    const gcn_cfg *cfg;
    unsigned nv;
    unsigned nwaves;
} vctx;

static unsigned bitlen(uint64_t x);

/* Largest value of a bounded symbol (smallest is 0); false if unbounded. */
static bool sym_max(const vctx *c, uint32_t s, int64_t *max)
{
    if (gcn_sym_is_field(s)) {
        int64_t bm;
        if (!sym_max(c, gcn_sym_field_base(s), &bm))
            return false;
        unsigned lo = gcn_sym_field_lo(s), hi = gcn_sym_field_hi(s);
        int64_t cap = ((int64_t)1 << (hi - lo)) - 1;
        *max = (bm >> lo) < cap ? (bm >> lo) : cap;
        return true;
    }
    if (gcn_sym_is_bound(s)) {
        *max = ((int64_t)1 << gcn_sym_bound_bits(s)) - 1;
        return true;
    }
    switch (s) {
    case GCN_SYM_LANE: *max = 63; return true;
    case GCN_SYM_WAVE: *max = (int64_t)c->nwaves - 1; return true;
    case GCN_SYM_MBLO: *max = 32; return true;
    case GCN_SYM_TIDX: case GCN_SYM_TIDY: case GCN_SYM_TIDZ: *max = 1023; return true;
    default: return false;
    }
}

/* The interval of a form whose symbols are all bounded. */
static bool av_range(const vctx *c, const gcn_aval *a, int64_t *lo, int64_t *hi)
{
    if (!a->known)
        return false;
    *lo = *hi = a->c;
    for (unsigned i = 0; i < a->nt; i++) {
        int64_t m;
        if (!sym_max(c, a->sym[i], &m))
            return false;
        if (!av_madd(a->k[i] > 0 ? *hi : *lo, a->k[i], m, a->k[i] > 0 ? hi : lo))
            return false;
    }
    return true;
}

static unsigned bitlen(uint64_t x)
{
    return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
}

/* The bits [lo, hi) a bounded symbol (or field) stands for, of its base. */
static bool sym_bits(uint32_t s, uint32_t *base, unsigned *lo, unsigned *hi)
{
    if (gcn_sym_is_field(s)) {
        *base = gcn_sym_field_base(s);
        *lo = gcn_sym_field_lo(s);
        *hi = gcn_sym_field_hi(s);
        return true;
    }
    if (!sym_width(s))
        return false;
    *base = s;
    *lo = 0;
    *hi = sym_width(s);
    return true;
}

static uint32_t mk_field(uint32_t base, unsigned lo, unsigned hi)
{
    if (lo == 0 && hi >= sym_width(base))
        return base;
    return gcn_sym_field(base, lo, hi);
}

/* Rewrite a so that every bounded term k * S whose coefficient is not a
 * multiple of 2^n is cut into the bits of S that land at or above bit n
 * (2^m * FIELD(S, lo+m, hi)) and the rest (FIELD(S, lo, lo+m)). */
static gcn_aval av_refine(const vctx *c, const gcn_aval *a, unsigned n)
{
    if (!a->known || n > 40)
        return *a;
    gcn_aval r = av_const(a->c);
    for (unsigned i = 0; i < a->nt; i++) {
        uint32_t base;
        unsigned lo, hi;
        int64_t k = a->k[i];
        unsigned tz = (unsigned)__builtin_ctzll((uint64_t)k);
        gcn_aval t;
        if (tz < n && sym_bits(a->sym[i], &base, &lo, &hi) && lo + (n - tz) < hi) {
            unsigned m = n - tz;
            int64_t km;
            if (!av_madd(0, k, (int64_t)1 << m, &km))
                return *a;
            gcn_aval h = av_sym(mk_field(base, lo + m, hi), km);
            gcn_aval l = av_sym(mk_field(base, lo, lo + m), k);
            t = av_addmul_raw(&h, &l, 1);
        } else {
            t = av_sym(a->sym[i], k);
        }
        gcn_aval r2 = av_addmul_raw(&r, &t, 1);
        if (!r2.known)
            return *a;
        r = r2;
    }
    return r;
}

/* Split a into hi (terms and constant part that are multiples of 2^n) and
 * lo (the rest); true when lo is known to lie in [0, 2^n), so that no carry
 * crosses bit n: then a >> n = hi / 2^n and a & (2^n - 1) = lo. */
static bool av_split(const vctx *c, const gcn_aval *a0, unsigned n, gcn_aval *hi, gcn_aval *lo)
{
    if (!a0->known || n > 62)
        return false;
    gcn_aval ar = av_refine(c, a0, n);
    const gcn_aval *a = &ar;
    int64_t p = (int64_t)1 << n;
    int64_t cl = ((a->c % p) + p) % p;
    *hi = av_const(a->c - cl);
    *lo = av_const(cl);
    for (unsigned i = 0; i < a->nt; i++) {
        gcn_aval *d = a->k[i] % p == 0 ? hi : lo;
        d->sym[d->nt] = a->sym[i];
        d->k[d->nt++] = a->k[i];
    }
    int64_t l, h;
    return av_range(c, lo, &l, &h) && l >= 0 && h < p;
}

/* The bits each part of a bounded, non-negative form may set; true when
 * those of different parts are disjoint (the form is then an OR of them).
 * masks[i] for term i, masks[nt] for the constant. */
static bool av_fields(const vctx *c, const gcn_aval *a, uint64_t *masks)
{
    if (!a->known || a->c < 0)
        return false;
    uint64_t all = (uint64_t)a->c;
    masks[a->nt] = (uint64_t)a->c;
    for (unsigned i = 0; i < a->nt; i++) {
        int64_t m;
        int64_t prod;
        if (!sym_max(c, a->sym[i], &m) || a->k[i] <= 0 || !av_madd(0, a->k[i], m, &prod))
            return false;
        uint64_t top = (uint64_t)prod;
        unsigned lo = (unsigned)__builtin_ctzll((uint64_t)a->k[i]), hi = bitlen(top);
        uint64_t mk = hi > lo ? (((hi >= 64 ? 0 : 1ull << hi)) - (1ull << lo)) : 0;
        if (mk & all)
            return false;
        all |= mk;
        masks[i] = mk;
    }
    return true;
}

static gcn_aval av_lshr(const vctx *c, const gcn_aval *a, unsigned n)
{
    gcn_aval hi, lo;
    if (!av_split(c, a, n, &hi, &lo))
        return av_top();
    gcn_aval r = av_const(hi.c >> n);
    for (unsigned i = 0; i < hi.nt; i++) {
        r.sym[r.nt] = hi.sym[i];
        r.k[r.nt++] = hi.k[i] >> n;
    }
    return r;
}

static gcn_aval av_and(const vctx *c, const gcn_aval *a, uint32_t m)
{
    if (m == 0xFFFFFFFFu)
        return *a;
    int64_t one;
    if (a->known && a->nt == 1 && a->c == 0 && sym_max(c, a->sym[0], &one) && one == 1) {
        /* k * b for a bit b: its 32-bit pattern is 0 or k's */
        uint32_t km = (uint32_t)a->k[0] & m;
        return km ? av_sym(a->sym[0], km) : av_const(0);
    }
    unsigned n = bitlen(m);
    gcn_aval hi, g;
    if (!av_split(c, a, n, &hi, &g))
        return av_top();
    int64_t lo, top;
    if (((uint64_t)m & ((uint64_t)m + 1)) == 0 && av_range(c, &g, &lo, &top) && lo >= 0 &&
        top <= (int64_t)m)
        return g;
    uint64_t masks[GCN_AV_TERMS + 1];
    for (unsigned b = 1; b < n; b++)          /* cut the terms where the mask changes */
        if (((m >> b) ^ (m >> (b - 1))) & 1u)
            g = av_refine(c, &g, b);
    if (!av_fields(c, &g, masks))
        return av_top();
    gcn_aval r = av_const((int64_t)((uint64_t)g.c & m));
    for (unsigned i = 0; i < g.nt; i++) {
        if ((masks[i] & m) == masks[i]) {
            r.sym[r.nt] = g.sym[i];
            r.k[r.nt++] = g.k[i];
        } else if (masks[i] & m) {
            return av_top();
        }
    }
    return r;
}

/* a | b (or a ^ b) where no bit can be set in both: a + b. */
static gcn_aval av_or_disjoint(const vctx *c, const gcn_aval *a, const gcn_aval *b)
{
    if (!a->known || !b->known)
        return av_top();
    uint64_t ma[GCN_AV_TERMS + 1], mb[GCN_AV_TERMS + 1];
    if (av_fields(c, a, ma) && av_fields(c, b, mb)) {
        uint64_t x = 0, y = 0;
        for (unsigned i = 0; i <= a->nt; i++) x |= ma[i];
        for (unsigned i = 0; i <= b->nt; i++) y |= mb[i];
        if (!(x & y))
            return av_add(a, b);
        return av_top();
    }
    /* an aligned part (every coefficient and the constant multiples of 2^n)
     * and a bounded part in [0, 2^n) */
    for (unsigned pass = 0; pass < 2; pass++) {
        const gcn_aval *al = pass ? b : a, *sm = pass ? a : b;
        int64_t lo, hi;
        if (!av_range(c, sm, &lo, &hi) || lo < 0)
            continue;
        unsigned n = bitlen((uint64_t)hi);
        int64_t p = (int64_t)1 << n;
        bool ok = al->c % p == 0;
        for (unsigned i = 0; i < al->nt && ok; i++)
            ok = al->k[i] % p == 0;
        if (ok)
            return av_add(a, b);
    }
    return av_top();
}

/* a ^ m for a constant m: a's parts have disjoint bits (av_fields); a field
 * term 2^j * f (f in [0, 2^w)) whose bits m covers becomes
 * 2^j * (2^w - 1 - f), one m misses stays, and the constant takes the bits
 * of m no term has.  A term m cuts across (after refining at m's edges) or
 * one that is not a whole field: unknown. */
static gcn_aval av_xorc(const vctx *c, const gcn_aval *a, uint32_t m)
{
    if (!m || !a->known)
        return m ? av_top() : *a;
    gcn_aval g = *a;
    unsigned n = bitlen(m);
    for (unsigned b = 1; b <= n; b++)     /* up to m's top edge: b = 32 when bit 31 is set */
        if ((((uint64_t)m >> b) ^ ((uint64_t)m >> (b - 1))) & 1u)
            g = av_refine(c, &g, b);
    uint64_t masks[GCN_AV_TERMS + 1], terms = 0;
    if (!av_fields(c, &g, masks))
        return av_top();
    gcn_aval r = av_const(0);
    for (unsigned i = 0; i < g.nt; i++) {
        int64_t k = g.k[i], mx;
        terms |= masks[i];
        if (!(masks[i] & m)) {
            r.sym[r.nt] = g.sym[i];
            r.k[r.nt++] = k;
            continue;
        }
        if ((masks[i] & m) != masks[i] || (k & (k - 1)) || !sym_max(c, g.sym[i], &mx) ||
            (uint64_t)(mx + 1) & (uint64_t)mx)
            return av_top();        /* not a whole field, or m covers part of it */
        r.c += k * mx;              /* k * (mx - f) */
        r.sym[r.nt] = g.sym[i];
        r.k[r.nt++] = -k;
    }
    r.c += (int64_t)((uint64_t)g.c ^ ((uint64_t)m & ~terms));
    return r;
}

void gcn_aval_format(const gcn_aval *v, gcn_strbuf *sb)
{
    if (!v->known) {
        gcn_sb_puts(sb, "?");
        return;
    }
    bool any = false;
    for (unsigned i = 0; i < v->nt; i++) {
        int64_t k = v->k[i];
        if (any)
            gcn_sb_puts(sb, k < 0 ? " - " : " + ");
        else if (k < 0)
            gcn_sb_puts(sb, "-");
        int64_t ak = k < 0 ? -k : k;
        if (ak != 1)
            gcn_sb_printf(sb, "%lld*", (long long)ak);
        uint32_t s = v->sym[i];
        switch (s) {
        case GCN_SYM_LANE: gcn_sb_puts(sb, "lane"); break;
        case GCN_SYM_WAVE: gcn_sb_puts(sb, "wave"); break;
        case GCN_SYM_MBLO: gcn_sb_puts(sb, "min(lane,32)"); break;
        case GCN_SYM_TIDX: gcn_sb_puts(sb, "tid_x"); break;
        case GCN_SYM_TIDY: gcn_sb_puts(sb, "tid_y"); break;
        case GCN_SYM_TIDZ: gcn_sb_puts(sb, "tid_z"); break;
        default:
            if (gcn_sym_is_bound(s)) {
                gcn_sb_printf(sb, "x%u[0,2^%u)", s & 0xFFFFFFu, gcn_sym_bound_bits(s));
            } else if (gcn_sym_is_field(s)) {
                static const char *const nm[] = {"?", "lane", "wave", "?", "tid_x", "tid_y",
                                                 "tid_z"};
                unsigned bs = gcn_sym_field_base(s);
                gcn_sb_printf(sb, "%s[%u:%u]", bs < 7 ? nm[bs] : "?",
                              gcn_sym_field_hi(s) - 1, gcn_sym_field_lo(s));
            } else if (s >= GCN_SYM_FRESH) {
                gcn_sb_printf(sb, "val@0x%llx", (unsigned long long)gcn_sym_fresh_addr(s));
                if (gcn_sym_fresh_dword(s))
                    gcn_sb_printf(sb, ".%u", gcn_sym_fresh_dword(s));
            } else {
                gcn_sb_printf(sb, "s%u@entry", s - GCN_SYM_SGPR0);
            }
            break;
        }
        any = true;
    }
    if (!any)
        gcn_sb_printf(sb, "%lld", (long long)v->c);
    else if (v->c)
        gcn_sb_printf(sb, " %s %lld", v->c < 0 ? "-" : "+", (long long)(v->c < 0 ? -v->c : v->c));
}

void gcn_ldsrange_format(const gcn_ldsrange *r, gcn_strbuf *sb)
{
    if (!r->known) {
        gcn_sb_puts(sb, "unknown LDS bytes");
        return;
    }
    gcn_sb_puts(sb, "LDS [");
    if (r->base.nt) {
        gcn_aval_format(&r->base, sb);
        gcn_sb_printf(sb, " + %lld, ", (long long)r->lo);
        gcn_aval_format(&r->base, sb);
        gcn_sb_printf(sb, " + %lld)", (long long)r->hi);
    } else {
        gcn_sb_printf(sb, "%lld, %lld)", (long long)r->lo, (long long)r->hi);
    }
}

void gcn_ldsrange_why(const gcn_cfg *cfg, const gcn_lint_opts *o, const gcn_ldsrange *r,
                      gcn_strbuf *sb)
{
    switch (r->unknown) {
    case GCN_LU_M0: gcn_sb_puts(sb, "M0 (the LDS-DMA address) is not known"); break;
    case GCN_LU_M0_LANE: gcn_sb_puts(sb, "M0 (the LDS-DMA address) depends on the lane"); break;
    case GCN_LU_ADDR: gcn_sb_printf(sb, "the address in v%u is not known", r->reg); break;
    default: gcn_sb_puts(sb, "the address is not known"); break;
    }
    uint32_t w = r->why & ~GCN_WHY_JOIN;
    if (!w || w - 1 >= cfg->ninsn) {
        if (r->unknown != GCN_LU_M0_LANE)
            gcn_sb_puts(sb, " at kernel entry");
        return;
    }
    unsigned i = w - 1;
    if (r->why & GCN_WHY_JOIN) {
        gcn_sb_puts(sb, ": paths that meet at ");
        gcn_lint_loc(o, cfg->insn[i].addr, sb);
        gcn_sb_puts(sb, " bring different values (a loop-carried or path-dependent address)");
    } else {
        gcn_sb_puts(sb, ": '");
        gcn_lint_insn_text(cfg, i, sb);
        gcn_sb_puts(sb, "' (");
        gcn_lint_loc(o, cfg->insn[i].addr, sb);
        gcn_sb_puts(sb, ") computes it in a way the value analysis does not follow");
    }
}

/* Split a range base into its part in the wave index (WAVE and its
 * fields) and the rest. */
static void wave_part(const gcn_aval *b, gcn_aval *wv, gcn_aval *rest)
{
    *rest = *b;
    *wv = *b;
    rest->nt = wv->nt = 0;
    rest->c = wv->c = 0;
    for (unsigned i = 0; i < b->nt; i++) {
        uint32_t s = b->sym[i];
        bool w = s == GCN_SYM_WAVE || (gcn_sym_is_field(s) && gcn_sym_field_base(s) == GCN_SYM_WAVE);
        gcn_aval *d = w ? wv : rest;
        d->sym[d->nt] = s;
        d->k[d->nt++] = b->k[i];
    }
}

/* The wave part at wave index w. */
static int64_t wave_at(const gcn_aval *wv, unsigned w)
{
    int64_t v = 0;
    for (unsigned i = 0; i < wv->nt; i++) {
        uint32_t s = wv->sym[i];
        int64_t x = w;
        if (gcn_sym_is_field(s))
            x = (w >> gcn_sym_field_lo(s)) &
                ((1u << (gcn_sym_field_hi(s) - gcn_sym_field_lo(s))) - 1u);
        v += wv->k[i] * x;
    }
    return v;
}

/* Piece i of range r: its exact pieces, or [lo, hi) as the one piece. */
static unsigned npieces(const gcn_ldsrange *r)
{
    return r->pat ? r->pat->n : 1;
}

static void piece_at(const gcn_ldsrange *r, unsigned i, int64_t *s, int64_t *e)
{
    *s = r->pat ? r->pat->piece[i][0] : r->lo;
    *e = r->pat ? r->pat->piece[i][1] : r->hi;
}

/* Is one of hull range h's windows (shifted by dh) inside exact range x's
 * bytes (shifted by dx)?  Then h's lane touches x's bytes whatever its
 * bounded value: a proven meet. */
static bool win_inside(const gcn_ldsrange *h, int64_t dh, const gcn_ldsrange *x, int64_t dx)
{
    if (!h->win || x->hull)
        return false;
    for (unsigned i = 0; i < h->win->n; i++) {
        int64_t ws = h->win->piece[i][0] + dh, we = h->win->piece[i][1] + dh;
        for (unsigned j = 0; j < npieces(x); j++) {
            int64_t s, e;
            piece_at(x, j, &s, &e);
            if (s + dx <= ws && we <= e + dx)
                return true;
        }
    }
    return false;
}

/* Do the bytes of a (shifted by da) and b (by db) meet?  Exact pieces where
 * a range has them, so one exact side is enough to see a gap. */
static bool pat_meet(const gcn_ldsrange *a, int64_t da, const gcn_ldsrange *b, int64_t db)
{
    unsigned i = 0, j = 0, na = npieces(a), nb = npieces(b);
    while (i < na && j < nb) {
        int64_t as, ae, bs, be;
        piece_at(a, i, &as, &ae);
        piece_at(b, j, &bs, &be);
        as += da; ae += da; bs += db; be += db;
        if (as < be && bs < ae)
            return true;
        if (ae <= be)
            i++;
        else
            j++;
    }
    return false;
}

/* a (shifted by da) against b (by db): 0 their bytes are apart, 1 they meet,
 * 2 only a hull meets the other range (a window inside the other's exact bytes
 * still proves a meet). */
static int meet3(const gcn_ldsrange *a, int64_t da, const gcn_ldsrange *b, int64_t db)
{
    if (!(a->lo + da < b->hi + db && b->lo + db < a->hi + da && pat_meet(a, da, b, db)))
        return 0;
    if ((!a->hull && !b->hull) || win_inside(a, da, b, db) || win_inside(b, db, a, da))
        return 1;
    return 2;
}

/* Overlap of a (in wave x) and b (in wave y) for the pairs of wave indexes
 * below nwaves that `same` selects (x == y, or x != y).  The pairs are taken
 * in the order of their larger index, so *minw (when not NULL) gets the
 * smallest wave count at which the bytes meet (1 + that index; 0 when they
 * do not). */
static int lds_overlap_waves(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves,
                             bool same, unsigned *minw, unsigned pair[2])
{
    if (minw)
        *minw = 0;
    if (!a->known || !b->known)
        return 2;
    gcn_aval wa, wb, ra, rb;
    wave_part(&a->base, &wa, &ra);
    wave_part(&b->base, &wb, &rb);
    if (!av_eq(&ra, &rb))
        return 2;
    /* across waves, the rest must mean the same value in both */
    for (unsigned i = 0; i < ra.nt && !same; i++)
        if (gcn_sym_wave_varying(ra.sym[i]))
            return 2;
    if (nwaves < 1)
        nwaves = 1;
    unsigned ma = a->waves, mb = b->waves;  /* a wave index >= 16 is taken as possible */
    int res = 0;
    for (unsigned m = 0; m < nwaves; m++)
        for (unsigned k = 0; k <= m; k++)
            for (unsigned t = 0; t < (k < m ? 2u : 1u); t++) {
                unsigned x = t ? k : m, y = t ? m : k;    /* (m, k), then (k, m) */
                if ((x == y) != same || (x < 16 && !((ma >> x) & 1u)) ||
                    (y < 16 && !((mb >> y) & 1u)))
                    continue;
                int r = meet3(a, wave_at(&wa, x), b, wave_at(&wb, y));
                if (r == 1) {
                    if (minw)
                        *minw = m + 1;
                    if (pair) {
                        pair[0] = x;
                        pair[1] = y;
                    }
                    return 1;
                }
                if (r)
                    res = 2;    /* the hulls meet; the bytes may not */
            }
    return res;
}

int gcn_lds_overlap3w(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves,
                      unsigned *minw)
{
    if (minw)
        *minw = 0;
    if (a->known && b->known && (!a->waves || !b->waves))
        return 0;                   /* no wave of the launch runs one of them */
    /* the same wave: when the bases agree, the wave index cancels */
    if (a->known && b->known && av_eq(&a->base, &b->base)) {
        int r = meet3(a, 0, b, 0);
        if (minw)
            *minw = r == 1;
        return r;
    }
    return lds_overlap_waves(a, b, nwaves ? nwaves : 16, true, minw, NULL);
}

int gcn_lds_overlap3(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves)
{
    return gcn_lds_overlap3w(a, b, nwaves, NULL);
}

bool gcn_lds_may_overlap(const gcn_ldsrange *a, const gcn_ldsrange *b)
{
    return gcn_lds_overlap3(a, b, 16) != 0;
}

int gcn_lds_cross_overlap3w(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves,
                            unsigned *minw)
{
    return lds_overlap_waves(a, b, nwaves, false, minw, NULL);
}

bool gcn_lds_cross_pair(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves,
                        unsigned *wa, unsigned *wb)
{
    unsigned pair[2];
    if (lds_overlap_waves(a, b, nwaves, false, NULL, pair) != 1)
        return false;
    *wa = pair[0];
    *wb = pair[1];
    return true;
}

int gcn_lds_cross_overlap3(const gcn_ldsrange *a, const gcn_ldsrange *b, unsigned nwaves)
{
    return lds_overlap_waves(a, b, nwaves, false, NULL, NULL);
}

bool gcn_lds_launch_only(const gcn_lint_opts *o, unsigned minw, bool same)
{
    if (!o || !o->declared_wg || !minw || o->nwaves < 8)
        return false;           /* (below 8 waves hosts launch the bound: the note is noise) */
    unsigned half = o->nwaves / 2, least = same ? 1u : 2u;
    return minw > (half > least ? half : least);
}

void gcn_lds_launch_note(const gcn_lint_opts *o, unsigned minw, gcn_strbuf *sb)
{
    gcn_sb_printf(sb, "; note: the bytes meet only when the work-group has %u or more waves "
                      "(its metadata allows %u: max_flat_workgroup_size %u); with at most %u "
                      "work-items they are apart: if the kernel is launched that way, "
                      "--workgroup-size checks that launch",
                  minw, o->nwaves, o->declared_wg, (minw - 1) * 64);
}

/* ---- the dataflow ------------------------------------------------------- */

/* A condition "f OP 0" that the active lanes (or the wave) satisfy. */
enum { VC_NONE = 0, VC_LT, VC_LE, VC_GT, VC_GE, VC_EQ, VC_NE };
typedef struct vcond {
    uint8_t op;
    gcn_aval f;
} vcond;

/* The registers of a state as one index space: the 128 scalar indices, then the nv
 * (at most 256) vector registers; a state's nz has a bit set for each register that may
 * hold something other than av_top() (every other one does). */
#define VS_NREG (128 + 256)
#define VS_NZW (VS_NREG / 64)

typedef struct vstate {
    gcn_aval *s;          /* 128 scalar indices */
    gcn_aval *v;          /* nv vector registers (s + 128) */
    uint64_t nz[VS_NZW];  /* the registers that may not be av_top(): the working state
                           * has every register written, a block's entry state only
                           * these (the others are av_top() without being written) */
    bool exec_full;
    bool seen;
    vcond guard;          /* the active lanes satisfy it (EXEC from a compare) */
    vcond wguard;         /* the wave satisfies it (a branch on a compare of uniform values) */
    vcond scc;            /* SCC = this condition (s_cmp_*) */
    uint8_t creg[2];      /* lane masks that hold a compare result: VCC and one other */
    vcond cmask[2];
    uint64_t full[2];     /* scalar registers (pairs) that hold the launch EXEC */
    uint64_t lanes;       /* the lanes that may be active (EXEC set from a constant) */
    uint16_t wmask;       /* the wave indexes (below 16) that may reach here: every branch
                           * on a wave-uniform compare since the entry narrows it, joins
                           * unite it (wguard keeps only the last such condition) */
} vstate;

static bool cond_eq(const vcond *a, const vcond *b)
{
    return a->op == b->op && (a->op == VC_NONE || av_eq(&a->f, &b->f));
}

static uint8_t cond_neg(uint8_t op)
{
    static const uint8_t n[] = {VC_NONE, VC_GE, VC_GT, VC_LE, VC_LT, VC_NE, VC_EQ};
    return n[op];
}

/* Can some value in [lo, hi] satisfy OP 0? */
static bool cond_sat(uint8_t op, int64_t lo, int64_t hi)
{
    switch (op) {
    case VC_LT: return lo < 0;
    case VC_LE: return lo <= 0;
    case VC_GT: return hi > 0;
    case VC_GE: return hi >= 0;
    case VC_EQ: return lo <= 0 && hi >= 0;
    case VC_NE: return !(lo == 0 && hi == 0);
    default: return true;
    }
}

static const vcond *mask_cond(const vstate *st, int reg)
{
    for (unsigned k = 0; k < 2; k++)
        if (reg >= 0 && st->creg[k] == reg && st->cmask[k].op)
            return &st->cmask[k];
    return NULL;
}

static bool full_has(const vstate *st, int reg)
{
    return reg >= 0 && reg < 128 && ((st->full[reg >> 6] >> (reg & 63)) & 1u);
}

static void full_set(vstate *st, int reg, bool on)
{
    if (reg < 0 || reg >= 128)
        return;
    if (on)
        st->full[reg >> 6] |= 1ull << (reg & 63);
    else
        st->full[reg >> 6] &= ~(1ull << (reg & 63));
}

static int scalar_index(const gcn_opnd *o)
{
    switch (o->kind) {
    case GCN_OPND_SGPR: return o->reg;
    case GCN_OPND_TTMP: return GCN_RS_TTMP0 + o->reg;
    case GCN_OPND_SPECIAL: return o->reg < 128 && o->reg != GCN_RS_SCC ? o->reg : -1;
    default: return -1;
    }
}

static gcn_aval opnd_val(const vctx *c, const vstate *st, const gcn_opnd *o)
{
    if (!o || (o->flags & (GCN_OPF_NEG | GCN_OPF_ABS)))
        return av_top();
    int si = scalar_index(o);
    if (si >= 0)
        return st->s[si];
    switch (o->kind) {
    case GCN_OPND_VGPR:
        return o->reg < c->nv ? st->v[o->reg] : av_top();
    case GCN_OPND_INLINE:
        if (o->reg >= 128 && o->reg <= 192)
            return av_const(o->reg - 128);
        if (o->reg >= 193 && o->reg <= 208)
            return av_const(-(int64_t)(o->reg - 192));
        return av_top();
    case GCN_OPND_LITERAL:
        return av_const((int32_t)(uint32_t)o->imm);
    case GCN_OPND_IMM:
        return av_const((int16_t)(uint16_t)o->imm);
    default:
        return av_top();
    }
}

/* A constant operand as the 32-bit pattern the hardware sees. */
static bool opnd_u32(const gcn_aval *v, uint32_t *u)
{
    int64_t c;
    if (!av_isconst(v, &c))
        return false;
    *u = (uint32_t)c;
    return true;
}

/* Register r (a scalar index, or 128 + a vector register) of the working state written. */
static inline void nz_set(vstate *st, unsigned r)
{
    st->nz[r >> 6] |= 1ull << (r & 63);
}

static void set_dst(const vctx *c, vstate *st, const gcn_opnd *d, gcn_aval v)
{
    if (!d)
        return;
    int si = scalar_index(d);
    if (si >= 0) {
        st->s[si] = v;
        nz_set(st, (unsigned)si);
        return;
    }
    if (d->kind == GCN_OPND_VGPR && d->reg < c->nv) {
        st->v[d->reg] = v;
        nz_set(st, 128 + d->reg);
    }
}

static const gcn_opnd *fld(const gcn_insn *in, gcn_field f)
{
    return gcn_insn_field(in, f);
}

/* The destination: the first operand written (vdst before a VOP3b carry-out;
 * v_readfirstlane_b32 names its SGPR destination sdst). */
static const gcn_opnd *first_dst(const gcn_insn *in)
{
    for (unsigned i = 0; i < in->nopnds && i < GCN_MAX_OPNDS; i++)
        if (in->op[i].flags & GCN_OPF_DST)
            return &in->op[i];
    return NULL;
}

static bool varying(const gcn_aval *v)
{
    if (!v->known)
        return true;
    for (unsigned i = 0; i < v->nt; i++)
        if (gcn_sym_wave_varying(v->sym[i]))
            return true;
    return false;
}

/* The scalar ALU result of operation `alu` on x, y (and the destination's
 * old value d for the K forms). */
static gcn_aval salu(const vctx *c, unsigned alu, const gcn_aval *x, const gcn_aval *y,
                     const gcn_aval *d, const gcn_insn *in)
{
    uint32_t u;
    gcn_aval t, k;
    switch (alu) {
    case GCN_LA_S_MOV: return *x;
    case GCN_LA_S_ADD: return av_add(x, y);
    case GCN_LA_S_SUB: return av_addmul(x, y, -1);
    case GCN_LA_S_LSHL: return av_shl(x, y);
    case GCN_LA_S_MUL: return av_mul(x, y);
    case GCN_LA_S_AND:
        if (opnd_u32(y, &u)) return av_and(c, x, u);
        if (opnd_u32(x, &u)) return av_and(c, y, u);
        return av_top();
    case GCN_LA_S_XOR:
        if (opnd_u32(y, &u)) return av_xorc(c, x, u);
        if (opnd_u32(x, &u)) return av_xorc(c, y, u);
        return av_or_disjoint(c, x, y);
    case GCN_LA_S_OR: return av_or_disjoint(c, x, y);
    case GCN_LA_S_LSHR: case GCN_LA_S_ASHR: {
        int64_t lo, hi;
        if (!opnd_u32(y, &u))
            return av_top();
        if (alu == GCN_LA_S_ASHR && !(av_range(c, x, &lo, &hi) && lo >= 0))
            return av_top();
        return av_lshr(c, x, u & 31);
    }
    case GCN_LA_S_BFE_U32: {
        if (!opnd_u32(y, &u))
            return av_top();
        unsigned off = u & 31, w = (u >> 16) & 127;
        if (w == 0)
            return av_const(0);
        t = av_lshr(c, x, off);
        return w >= 32 ? t : av_and(c, &t, (uint32_t)((1ull << w) - 1));
    }
    case GCN_LA_S_LSHL1_ADD: case GCN_LA_S_LSHL2_ADD: case GCN_LA_S_LSHL3_ADD:
    case GCN_LA_S_LSHL4_ADD:
        k = av_const(alu - GCN_LA_S_LSHL1_ADD + 1);
        t = av_shl(x, &k);
        return av_add(&t, y);
    case GCN_LA_S_MOVK: case GCN_LA_S_ADDK: case GCN_LA_S_MULK: {
        const gcn_opnd *im = fld(in, GCN_FLD_SIMM16);
        if (!im)
            return av_top();
        gcn_aval v = av_const((int16_t)(uint16_t)im->imm);
        if (alu == GCN_LA_S_MOVK) return v;
        if (alu == GCN_LA_S_ADDK) return av_add(d, &v);
        return av_mul(d, &v);
    }
    default:
        return av_top();
    }
}

static gcn_aval valu(const vctx *c, const vstate *st, unsigned alu, const gcn_aval *x,
                     const gcn_aval *y, const gcn_aval *z)
{
    uint32_t u;
    gcn_aval t;
    switch (alu) {
    case GCN_LA_V_MOV: return *x;
    case GCN_LA_V_ADD: return av_add(x, y);
    case GCN_LA_V_SUB: return av_addmul(x, y, -1);
    case GCN_LA_V_SUBREV: return av_addmul(y, x, -1);
    case GCN_LA_V_LSHLREV: return av_shl(y, x);
    case GCN_LA_V_LSHL_ADD: t = av_shl(x, y); return av_add(&t, z);
    case GCN_LA_V_ADD_LSHL: t = av_add(x, y); return av_shl(&t, z);
    case GCN_LA_V_MUL: return av_mul(x, y);
    case GCN_LA_V_MAD: t = av_mul(x, y); return av_add(&t, z);
    case GCN_LA_V_ADD3: t = av_add(x, y); return av_add(&t, z);
    case GCN_LA_V_READFIRSTLANE:
        if (!st->exec_full || !av_at_lane(x, 0, &t))
            return av_top();
        return t;
    case GCN_LA_V_READLANE:
        if (!opnd_u32(y, &u) || !av_at_lane(x, u & 63, &t))
            return av_top();
        return t;
    case GCN_LA_V_AND:
        if (opnd_u32(x, &u)) return av_and(c, y, u);
        if (opnd_u32(y, &u)) return av_and(c, x, u);
        return av_top();
    case GCN_LA_V_XOR:
        if (opnd_u32(x, &u)) return av_xorc(c, y, u);
        if (opnd_u32(y, &u)) return av_xorc(c, x, u);
        return av_or_disjoint(c, x, y);
    case GCN_LA_V_OR: return av_or_disjoint(c, x, y);
    case GCN_LA_V_OR3: t = av_or_disjoint(c, x, y); return av_or_disjoint(c, &t, z);
    case GCN_LA_V_LSHRREV: case GCN_LA_V_ASHRREV: {
        int64_t lo, hi;
        if (!opnd_u32(x, &u))
            return av_top();
        if (alu == GCN_LA_V_ASHRREV && !(av_range(c, y, &lo, &hi) && lo >= 0))
            return av_top();
        return av_lshr(c, y, u & 31);
    }
    case GCN_LA_V_BFE_U32: case GCN_LA_V_BFE_I32: {
        /* the unsigned field g; signed, its top bit counts -2^(w-1):
         * g = h + l with l in [0, 2^(w-1)) and h in {0, 2^(w-1)} gives l - h */
        uint32_t off, w;
        gcn_aval h, l;
        if (!opnd_u32(y, &off) || !opnd_u32(z, &w))
            return av_top();
        off &= 31;
        w &= 31;
        if (w == 0)
            return av_const(0);
        t = av_lshr(c, x, off);
        t = av_and(c, &t, (uint32_t)((1ull << w) - 1));
        if (alu == GCN_LA_V_BFE_U32)
            return t;
        if (!av_split(c, &t, w - 1, &h, &l))
            return av_top();
        return av_addmul(&l, &h, -1);
    }
    case GCN_LA_V_LSHL_OR: t = av_shl(x, y); return av_or_disjoint(c, &t, z);
    case GCN_LA_V_AND_OR:
        if (!opnd_u32(y, &u))
            return av_top();
        t = av_and(c, x, u);
        return av_or_disjoint(c, &t, z);
    case GCN_LA_V_MBCNT_LO:
        if (!opnd_u32(x, &u) || u != 0xFFFFFFFFu)
            return av_top();
        t = av_sym(GCN_SYM_MBLO, 1);
        return av_add(y, &t);
    case GCN_LA_V_CNDMASK:      /* per lane src0 or src1 (transfer() bounds the rest) */
        return x->known && av_eq(x, y) ? *x : av_top();
    case GCN_LA_V_MBCNT_HI: {
        if (!opnd_u32(x, &u) || u != 0xFFFFFFFFu || !y->known)
            return av_top();
        /* x + min(lane, 32) + max(lane - 32, 0) = x + lane */
        gcn_aval r = av_top();
        for (unsigned i = 0; i < y->nt; i++)
            if (y->sym[i] == GCN_SYM_MBLO && y->k[i] == 1) {
                gcn_aval m = av_sym(GCN_SYM_MBLO, 1), l = av_sym(GCN_SYM_LANE, 1);
                r = av_addmul(y, &m, -1);
                r = av_add(&r, &l);
            }
        return r;
    }
    default:
        return av_top();
    }
}

/* A value of the lane and wave ids alone (and constants): their symbols,
 * fields and the bounded values made from such values. */
static bool lane_fn(const gcn_aval *v)
{
    if (!v->known)
        return false;
    for (unsigned i = 0; i < v->nt; i++) {
        uint32_t s = v->sym[i];
        if (gcn_sym_is_lanefn(s))
            continue;
        if (gcn_sym_is_bound(s))
            return false;
        if (gcn_sym_is_field(s))
            s = gcn_sym_field_base(s);
        if (s != GCN_SYM_LANE && s != GCN_SYM_WAVE && s != GCN_SYM_MBLO)
            return false;
    }
    return true;
}

/* When a VALU result the forms cannot express still lies in [0, 2^n):
 * that n, else 0. */
static unsigned valu_bound(const vctx *c, unsigned alu, const gcn_aval *x, const gcn_aval *y,
                           const gcn_aval *z)
{
    uint32_t u, w;
    int64_t lo, hi, lo2, hi2;
    switch (alu) {
    case GCN_LA_V_AND:
        if (opnd_u32(x, &u) || opnd_u32(y, &u))
            return u < 0x80000000u ? (bitlen(u) ? bitlen(u) : 1) : 0;
        return 0;
    case GCN_LA_V_BFE_U32:
        return opnd_u32(z, &w) && (w & 31) ? (w & 31) : 0;
    case GCN_LA_V_LSHRREV:
        if (!opnd_u32(x, &u) || !(u & 31))
            return 0;
        if (av_range(c, y, &lo, &hi) && lo >= 0)
            return bitlen((uint64_t)(hi >> (u & 31))) ? bitlen((uint64_t)(hi >> (u & 31))) : 1;
        return 32 - (u & 31);
    case GCN_LA_V_OR: case GCN_LA_V_XOR:
        if (av_range(c, x, &lo, &hi) && av_range(c, y, &lo2, &hi2) && lo >= 0 && lo2 >= 0) {
            unsigned n = bitlen((uint64_t)(hi > hi2 ? hi : hi2));
            return n ? n : 1;
        }
        return 0;
    case GCN_LA_V_MBCNT_LO: case GCN_LA_V_MBCNT_HI:
        return opnd_u32(x, &u) && av_range(c, y, &lo, &hi) && lo >= 0 ? bitlen((uint64_t)hi + 64)
                                                                      : 0;
    default:
        return 0;
    }
}

/* A per-lane choice between x and y (v_cndmask_b32, its mask from data):
 * x + d * B when y = x + d (B a bounded 0/1 value of its own, so ranges stay
 * tight and a meet of its hull is "not proven"), else a value bounded by the
 * two ranges when both are non-negative, else unknown. */
static gcn_aval select_bound(const vctx *c, const gcn_aval *x, const gcn_aval *y, unsigned idx)
{
    if (!x->known || !y->known)
        return av_top();
    gcn_aval d = av_addmul(y, x, -1);
    int64_t k, lo, hi, lo2, hi2;
    if (av_isconst(&d, &k)) {
        gcn_aval b = av_sym(gcn_sym_bound(1, idx), k);
        return av_add(x, &b);
    }
    if (av_range(c, x, &lo, &hi) && av_range(c, y, &lo2, &hi2) && lo >= 0 && lo2 >= 0) {
        unsigned n = bitlen((uint64_t)(hi > hi2 ? hi : hi2));
        return av_sym(gcn_sym_bound(n ? n : 1, idx), 1);
    }
    return av_top();
}

static bool in_loop(const vctx *c, unsigned idx)
{
    unsigned b = c->cfg->block_of ? c->cfg->block_of[idx] : GCN_NOBLOCK;
    return b == GCN_NOBLOCK || c->cfg->blocks[b].loop != GCN_NOBLOCK || c->cfg->blocks[b].header;
}

static void transfer(const vctx *c, vstate *st, unsigned idx)
{
    const gcn_insn *in = &c->cfg->insn[idx];
    const gcn_lfacts *f = &c->cfg->facts[idx];
    gcn_aval r = av_top();
    bool have = false, uniform = false, vary = true;
    uint32_t in_why = 0;          /* an unknown input: the root of an unknown result */
    const gcn_opnd *dst = NULL;
    bool isvalu = f->alu >= GCN_LA_V_MOV && f->alu <= GCN_LA_V_READLANE;
    if (isvalu && (in->sub == GCN_SUB_DPP || in->sub == GCN_SUB_SDWA || in->m.clamp || in->m.omod))
        isvalu = false;
    if (f->alu >= GCN_LA_S_MOV && f->alu < GCN_LA_V_MOV && f->alu != GCN_LA_S_MOV64 &&
        f->alu != GCN_LA_S_ADDC && f->alu != GCN_LA_S_SUBB) {
        gcn_aval x = opnd_val(c, st, fld(in, GCN_FLD_SSRC0));
        gcn_aval y = opnd_val(c, st, fld(in, GCN_FLD_SSRC1));
        dst = first_dst(in);
        gcn_aval d = dst ? opnd_val(c, st, dst) : av_top();
        r = salu(c, f->alu, &x, &y, &d, in);
        have = uniform = true;
        in_why = !x.known && x.why ? x.why : !y.known && y.why ? y.why : 0;
        vary = varying(&x) || (f->alu != GCN_LA_S_MOV && f->alu != GCN_LA_S_MOVK &&
                               varying(&y)) ||
               ((f->alu == GCN_LA_S_ADDK || f->alu == GCN_LA_S_MULK) && varying(&d));
    } else if (isvalu) {
        gcn_aval x = opnd_val(c, st, fld(in, GCN_FLD_SRC0));
        gcn_aval y = opnd_val(c, st, fld(in, GCN_FLD_SRC1));
        gcn_aval z = opnd_val(c, st, fld(in, GCN_FLD_SRC2));
        dst = first_dst(in);
        r = valu(c, st, f->alu, &x, &y, &z);
        if (!r.known && f->alu == GCN_LA_V_CNDMASK)
            r = select_bound(c, &x, &y, idx);
        if (!r.known) {
            unsigned nb = valu_bound(c, f->alu, &x, &y, &z);
            if (nb) {
                bool lf = (!fld(in, GCN_FLD_SRC0) || lane_fn(&x)) &&
                          (!fld(in, GCN_FLD_SRC1) || lane_fn(&y)) &&
                          (!fld(in, GCN_FLD_SRC2) || lane_fn(&z));
                r = av_sym(lf ? gcn_sym_bound_lanefn(nb, idx) : gcn_sym_bound(nb, idx), 1);
            }
        }
        have = true;
        in_why = !x.known && x.why ? x.why : !y.known && y.why ? y.why
               : !z.known && z.why ? z.why : 0;
        uniform = f->alu == GCN_LA_V_READFIRSTLANE || f->alu == GCN_LA_V_READLANE;
    } else if (in->enc == GCN_FMT_SMEM && f->mem == GCN_LM_SMEM && !(f->lds)) {
        /* a scalar load: the same value in every wave when its address is */
        gcn_aval base = opnd_val(c, st, fld(in, GCN_FLD_SBASE));
        uniform = true;
        vary = varying(&base);
    }
    /* lane masks and SCC: read what they depend on before anything is clobbered */
    vcond newc = {0};
    int newc_reg = -1;
    bool vcmp = f->alu >= GCN_LA_V_CMP_LT && f->alu <= GCN_LA_V_CMP_NE &&
                in->sub != GCN_SUB_DPP && in->sub != GCN_SUB_SDWA;
    if (vcmp) {
        gcn_aval x = opnd_val(c, st, fld(in, GCN_FLD_SRC0));
        gcn_aval y = opnd_val(c, st, fld(in, GCN_FLD_SRC1));
        gcn_aval d = av_addmul(&x, &y, -1);
        const gcn_opnd *cd = first_dst(in);
        if (d.known && cd) {
            newc.op = (uint8_t)(VC_LT + (f->alu - GCN_LA_V_CMP_LT));
            newc.f = d;
            newc_reg = scalar_index(cd);
        }
    }
    vcond new_scc = {0};
    if (f->alu >= GCN_LA_S_CMP_LT && f->alu <= GCN_LA_S_CMP_NE) {
        gcn_aval x = opnd_val(c, st, fld(in, GCN_FLD_SSRC0));
        gcn_aval y = opnd_val(c, st, fld(in, GCN_FLD_SSRC1));
        gcn_aval d = av_addmul(&x, &y, -1);
        if (d.known) {
            new_scc.op = (uint8_t)(VC_LT + (f->alu - GCN_LA_S_CMP_LT));
            new_scc.f = d;
        }
    }
    const gcn_opnd *e0 = fld(in, GCN_FLD_SSRC0), *e1 = fld(in, GCN_FLD_SSRC1);
    int r0 = e0 ? scalar_index(e0) : -1, r1 = e1 ? scalar_index(e1) : -1;
    /* the mask operand of an EXEC update (the one that is not EXEC) */
    int mr = r0 == GCN_RS_EXEC ? r1 : r0;
    const vcond *mc0 = mask_cond(st, mr);
    vcond mcond = mc0 ? *mc0 : (vcond){0};
    bool mfull = full_has(st, mr) || (e0 && e0->kind == GCN_OPND_INLINE && e0->reg == 193 &&
                                      r1 < 0);
    bool was_full = st->exec_full;
    vcond was_guard = st->guard;
    uint64_t was_lanes = st->lanes, cmask = ~0ull;
    bool mconst = false;        /* the mask operand is a constant (cmask) */
    if (mr >= 0 && mr < 127) {
        int64_t lo, hi;
        if (av_isconst(&st->s[mr], &lo) && av_isconst(&st->s[mr + 1], &hi)) {
            cmask = (uint32_t)lo | (uint64_t)(uint32_t)hi << 32;
            mconst = true;
        }
    }

    /* all written registers become unknown, then the result is set */
    gcn_regset w = f->defs;
    gcn_rs_or(&w, &f->adefs);
    gcn_aval lost = av_lost(idx + 1);
    for (unsigned k = 0; k < 2; k++)          /* the set bits, not every index */
        for (uint64_t x = w.s[k]; x; x &= x - 1) {
            unsigned i = k * 64 + (unsigned)__builtin_ctzll(x);
            st->s[i] = lost;
            nz_set(st, i);
            full_set(st, (int)i, false);
            for (unsigned q = 0; q < 2; q++)
                if (st->creg[q] == i || st->creg[q] + 1u == i)
                    st->cmask[q].op = VC_NONE;
        }
    if (f->flags & GCN_F_WR_SCC)
        st->scc = new_scc;
    if (newc.op && newc_reg >= 0) {
        unsigned q = newc_reg == GCN_RS_VCC ? 0 : 1;
        st->creg[q] = (uint8_t)newc_reg;
        st->cmask[q] = newc;
    }
    for (unsigned k = 0; k < 8; k++)
        for (uint64_t x = w.v[k]; x; x &= x - 1) {
            unsigned i = k * 64 + (unsigned)__builtin_ctzll(x);
            if (i < c->nv) {
                st->v[i] = lost;
                nz_set(st, 128 + i);
            }
        }
    if (have && dst && dst->nregs <= 1 && r.known)
        set_dst(c, st, dst, r);
    else if (have && dst && in_why)
        set_dst(c, st, dst, av_lost(in_why));
    else if (uniform && !in_loop(c, idx)) {
        /* a scalar value computed once per wave: name it */
        if (!dst)
            dst = first_dst(in);
        if (dst && (dst->kind == GCN_OPND_SGPR || (dst->kind == GCN_OPND_SPECIAL &&
                                                   dst->reg == GCN_RS_M0))) {
            unsigned n = dst->nregs ? dst->nregs : 1;
            int si = scalar_index(dst);
            for (unsigned k = 0; k < n && k < 16 && si >= 0 && si + k < 128; k++) {
                st->s[si + k] = av_sym(gcn_sym_fresh(in->addr, k, vary), 1);
                nz_set(st, (unsigned)si + k);
            }
        }
    }
    const gcn_opnd *d0 = first_dst(in);
    int dr = d0 ? scalar_index(d0) : -1;
    if (f->alu == GCN_LA_S_AND_SAVEEXEC || (f->alu == GCN_LA_S_MOV64 && r0 == GCN_RS_EXEC)) {
        /* the old EXEC kept in an SGPR pair */
        full_set(st, dr, was_full);
        if (!was_full && was_guard.op && dr >= 0) {
            st->creg[1] = (uint8_t)dr;
            st->cmask[1] = was_guard;
        }
    }
    if (gcn_rs_has_s(&w, GCN_RS_EXEC)) {
        /* EXEC = -1 or a saved launch mask restores a full mask; EXEC from a
         * compare (or ANDed with one) keeps the lanes that satisfy it; any
         * other write may clear lane 0 */
        st->exec_full = false;
        st->guard.op = VC_NONE;
        st->lanes = ~0ull;
        switch (f->alu) {
        case GCN_LA_S_MOV64:
            if (mfull)
                st->exec_full = true;
            else if (mcond.op)
                st->guard = mcond;
            else if (mconst)
                st->lanes = cmask;
            break;
        case GCN_LA_S_AND_SAVEEXEC: case GCN_LA_S_AND64:
            if (mcond.op)
                st->guard = mcond;
            else if (!was_full)
                st->guard = was_guard;
            st->lanes = was_lanes & (mconst ? cmask : ~0ull);
            break;
        case GCN_LA_S_OR64:
            if (mfull)
                st->exec_full = true;
            break;
        default:
            if (vcmp && newc.op)
                st->guard = newc;
            break;
        }
    }
}

/* Give a block's entry state its registers (the contents come with its
 * first join). */
static int vstate_regs(const vctx *c, vstate *d)
{
    d->s = malloc(sizeof *d->s * (128 + c->nv));
    if (!d->s)
        return -1;
    d->v = d->s + 128;
    return 0;
}

/* For each run of set bits of m below n: d's registers there copied from s, or set to
 * av_top() (all bits zero) when s is NULL. */
static void regs_runs(gcn_aval *d, const gcn_aval *s, const uint64_t *m, unsigned n)
{
    unsigned i = 0;
    while (i < n) {
        unsigned w = i >> 6;
        uint64_t x = m[w] & (~0ull << (i & 63));
        while (!x) {
            if (++w >= VS_NZW)
                return;
            x = m[w];
        }
        unsigned a = w * 64 + (unsigned)__builtin_ctzll(x);
        if (a >= n)
            return;
        x = ~m[w] & (~0ull << (a & 63));
        while (!x && ++w < VS_NZW)
            x = ~m[w];
        unsigned b = x ? w * 64 + (unsigned)__builtin_ctzll(x) : VS_NREG;
        if (b > n)
            b = n;
        if (s)
            memcpy(d + a, s + a, sizeof *d * (b - a));
        else
            memset(d + a, 0, sizeof *d * (b - a));
        i = b;
    }
}

/* Copy a block's entry state into the working state: its registers that may not be
 * av_top(), and av_top() where the working state had something else. */
static void load_state(const vctx *c, vstate *d, const vstate *s)
{
    gcn_aval *ds = d->s, *dv = d->v;
    uint64_t clr[VS_NZW];
    for (unsigned w = 0; w < VS_NZW; w++)
        clr[w] = d->nz[w] & ~s->nz[w];
    *d = *s;
    d->s = ds;
    d->v = dv;
    regs_runs(d->s, NULL, clr, 128 + c->nv);
    regs_runs(d->s, s->s, s->nz, 128 + c->nv);
}

static bool join(const vctx *c, vstate *d, const vstate *s, unsigned at)
{
    if (!d->seen) {
        memcpy(d->nz, s->nz, sizeof d->nz);
        regs_runs(d->s, s->s, s->nz, 128 + c->nv);
        d->exec_full = s->exec_full;
        d->guard = s->guard;
        d->wguard = s->wguard;
        d->scc = s->scc;
        memcpy(d->creg, s->creg, sizeof d->creg);
        memcpy(d->cmask, s->cmask, sizeof d->cmask);
        memcpy(d->full, s->full, sizeof d->full);
        d->lanes = s->lanes;
        d->wmask = s->wmask;
        d->seen = true;
        return true;
    }
    bool ch = false;
    gcn_aval lost = av_lost((at + 1) | GCN_WHY_JOIN);
    /* (a register of d outside d->nz is av_top(): unknown, it stays) */
    for (unsigned w = 0; w < VS_NZW; w++)
        for (uint64_t x = d->nz[w]; x; x &= x - 1) {
            unsigned i = w * 64 + (unsigned)__builtin_ctzll(x);
            if (d->s[i].known && !av_eq(&d->s[i], &s->s[i])) {
                d->s[i] = s->s[i].known ? lost : s->s[i];
                ch = true;
            }
        }
    if (d->exec_full && !s->exec_full) {
        d->exec_full = false;
        ch = true;
    }
    vcond *dc[] = {&d->guard, &d->wguard, &d->scc, &d->cmask[0], &d->cmask[1]};
    const vcond *sc[] = {&s->guard, &s->wguard, &s->scc, &s->cmask[0], &s->cmask[1]};
    for (unsigned k = 0; k < 5; k++)
        if (dc[k]->op && (!cond_eq(dc[k], sc[k]) || (k >= 3 && d->creg[k - 3] != s->creg[k - 3]))) {
            dc[k]->op = VC_NONE;
            ch = true;
        }
    if (~d->lanes & s->lanes) {
        d->lanes |= s->lanes;
        ch = true;
    }
    if ((uint16_t)~d->wmask & s->wmask) {
        d->wmask |= s->wmask;
        ch = true;
    }
    for (unsigned k = 0; k < 2; k++)
        if (d->full[k] & ~s->full[k]) {
            d->full[k] &= s->full[k];
            ch = true;
        }
    return ch;
}

/* The wave indexes (below nwaves) in which some lane can satisfy g. */
static uint16_t cond_waves(const vctx *c, const vcond *g)
{
    if (!g->op)
        return 0xFFFF;
    gcn_aval wv, rest;
    wave_part(&g->f, &wv, &rest);
    rest.c = g->f.c;
    int64_t lo, hi;
    if (!av_range(c, &rest, &lo, &hi))
        return 0xFFFF;
    uint16_t m = 0;
    for (unsigned w = 0; w < c->nwaves && w < 16; w++) {
        int64_t v = wave_at(&wv, w);
        if (cond_sat(g->op, lo + v, hi + v))
            m |= (uint16_t)(1u << w);
    }
    return m;                  /* 0: no wave can satisfy it (dead code) */
}

static int cmp_piece(const void *x, const void *y)
{
    const int64_t *a = x, *b = y;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Sort the pieces and merge those that touch. */
static void pat_close(gcn_ldspat *p)
{
    qsort(p->piece, p->n, sizeof p->piece[0], cmp_piece);
    unsigned k = 0;
    for (unsigned i = 0; i < p->n; i++) {
        if (k && p->piece[i][0] <= p->piece[k - 1][1]) {
            if (p->piece[i][1] > p->piece[k - 1][1])
                p->piece[k - 1][1] = p->piece[i][1];
        } else {
            p->piece[k][0] = p->piece[i][0];
            p->piece[k][1] = p->piece[i][1];
            k++;
        }
    }
    p->n = k;
}

static void lds_range(const vctx *c, const vstate *st, unsigned idx, gcn_ldsrange *out,
                      gcn_ldspat **patp)
{
    const gcn_insn *in = &c->cfg->insn[idx];
    const gcn_lfacts *f = &c->cfg->facts[idx];
    memset(out, 0, sizeof *out);
    if (!f->lds)
        return;
    /* 0: no wave of this launch runs it with a lane active (it meets nothing) */
    out->waves = cond_waves(c, &st->guard) & cond_waves(c, &st->wguard) & st->wmask;
    int64_t bytes = f->lds_bytes ? f->lds_bytes : 16;
    if (f->lds & GCN_LL_DMA) {
        gcn_aval m0 = st->s[GCN_RS_M0];
        if (!m0.known) {
            out->unknown = GCN_LU_M0;
            out->why = m0.why;
            return;
        }
        for (unsigned i = 0; i < m0.nt; i++)
            if (gcn_sym_lane_varying(m0.sym[i])) {
                out->unknown = GCN_LU_M0_LANE;
                return;
            }
        int64_t off = in->m.offset;
        out->known = true;
        out->base = m0;
        out->base.c = 0;
        out->lo = m0.c + off;
        out->hi = m0.c + off + 64 * bytes;
        out->hull = ~st->lanes != 0;    /* until the pieces below exist */
        if (~st->lanes && (*patp = malloc(sizeof **patp)) != NULL) {
            /* lanes that may be inactive leave holes (active lanes only write) */
            gcn_ldspat *p = *patp;
            p->n = 0;
            for (unsigned l = 0; l < 64; l++)
                if ((st->lanes >> l) & 1u) {
                    p->piece[p->n][0] = out->lo + (int64_t)l * bytes;
                    p->piece[p->n++][1] = out->lo + (int64_t)(l + 1) * bytes;
                }
            pat_close(p);
            out->pat = p;
            out->hull = false;
        }
        return;
    }
    const gcn_opnd *a = fld(in, GCN_FLD_ADDR);
    gcn_aval v = a ? opnd_val(c, st, a) : av_top();
    if (!v.known) {
        out->unknown = GCN_LU_ADDR;
        out->reg = a ? a->reg : 0;
        out->why = v.why;
        return;
    }
    /* per-lane terms give [lo, hi] (the lane id and its fields taken
     * together over the lanes that may be active); the rest is the base */
    int64_t lo = v.c, hi = v.c;
    gcn_aval base = av_const(0), lanep = av_const(0);
    bool exact = true;          /* the per-lane part is the lane id alone */
    bool data = false;          /* ... or has a bounded value not of the lane and wave ids */
    for (unsigned i = 0; i < v.nt; i++) {
        int64_t m;
        uint32_t sy = v.sym[i];
        bool of_lane = sy == GCN_SYM_LANE || sy == GCN_SYM_MBLO ||
                       (gcn_sym_is_field(sy) && gcn_sym_field_base(sy) == GCN_SYM_LANE);
        if (of_lane) {
            lanep.sym[lanep.nt] = sy;
            lanep.k[lanep.nt++] = v.k[i];
        } else if (gcn_sym_lane_varying(sy)) {
            exact = false;
            data = data || !gcn_sym_is_lanefn(sy);
            if (!sym_max(c, sy, &m) ||
                !av_madd(v.k[i] > 0 ? hi : lo, v.k[i], m, v.k[i] > 0 ? &hi : &lo)) {
                out->unknown = GCN_LU_ADDR;
                out->reg = a->reg;
                return;
            }
        } else {
            base.sym[base.nt] = sy;
            base.k[base.nt++] = v.k[i];
        }
    }
    int64_t blo = lo - v.c, bhi = hi - v.c;   /* the bounded per-lane part's range */
    int64_t lv[64] = {0};       /* the lane part at each lane */
    if (lanep.nt) {
        int64_t pl = INT64_MAX, ph = INT64_MIN;
        for (unsigned l = 0; l < 64; l++) {
            if (!((st->lanes >> l) & 1u))
                continue;
            gcn_aval at;
            av_at_lane(&lanep, l, &at);
            lv[l] = at.c;
            if (at.c < pl) pl = at.c;
            if (at.c > ph) ph = at.c;
        }
        if (pl <= ph) {
            lo += pl;
            hi += ph;
        }
    }
    int64_t olo, ohi, po[2];
    unsigned npo = 1;
    if (f->fx & GCN_FX_TWO_ADDR) {
        int64_t unit = bytes * ((f->fx & GCN_FX_ST64) ? 64 : 1);
        int64_t o0 = in->m.offset0, o1 = in->m.offset1;
        olo = (o0 < o1 ? o0 : o1) * unit;
        ohi = (o0 > o1 ? o0 : o1) * unit + bytes;
        po[0] = o0 * unit;
        po[1] = o1 * unit;
        npo = 2;
    } else {
        olo = (uint16_t)in->m.offset;
        ohi = olo + bytes;
        po[0] = olo;
    }
    /* the exact bytes when the per-lane part is the lane id alone */
    bool pieces = lanep.nt || ~st->lanes || npo > 1;  /* [lo, hi) has gaps */
    /* a swizzle of the lane and wave ids is taken over its whole range (such
     * swizzles are permutations in practice): its interval is its bytes; a
     * bounded value from data is a hull, whose meets prove nothing */
    out->hull = (!exact && data) || (exact && pieces);   /* until the pieces below exist */
    /* exact: each lane's bytes; a hull from data: the window each lane's bytes
     * lie in whatever the bounded value (blo = bhi = 0 when exact) */
    if (((exact && pieces) || (!exact && data)) && (*patp = malloc(sizeof **patp)) != NULL) {
        gcn_ldspat *p = *patp;
        p->n = 0;
        for (unsigned l = 0; l < 64; l++) {
            if (!((st->lanes >> l) & 1u))
                continue;
            for (unsigned k = 0; k < npo; k++) {
                p->piece[p->n][0] = v.c + lv[l] + po[k] + blo;
                p->piece[p->n++][1] = v.c + lv[l] + po[k] + bhi + bytes;
            }
        }
        if (exact) {
            pat_close(p);
            out->pat = p;
            out->hull = false;
        } else {
            out->win = p;
        }
    }
    out->known = true;
    out->base = base;
    out->lo = lo + olo;
    out->hi = hi + ohi;
}

int gcn_values_run(const gcn_cfg *cfg, const gcn_entry_info *ei, gcn_values *out)
{
    memset(out, 0, sizeof *out);
    unsigned nwav = ei && ei->nwaves ? ei->nwaves : 16;
    vctx c = {cfg, cfg->max_vgpr, nwav};
    out->nwaves = nwav;
    unsigned nb = cfg->nblocks;
    out->n = cfg->ninsn;
    out->lds = calloc(cfg->ninsn ? cfg->ninsn : 1, sizeof *out->lds);
    out->pats = calloc(cfg->ninsn ? cfg->ninsn : 1, sizeof *out->pats);
    out->bwaves = calloc(nb ? nb : 1, sizeof *out->bwaves);
    /* the blocks' entry states get their registers when first reached (a
     * pool for all blocks at once was large enough to be mapped afresh, and
     * page-faulted in, on every run) */
    vstate *in = calloc(nb ? nb : 1, sizeof *in);
    gcn_aval *work = malloc(sizeof *work * (128 + c.nv));
    unsigned *wl = malloc(sizeof *wl * (nb + 1));
    bool *inwl = calloc(nb + 1, sizeof *inwl);
    /* with path facts: per edge (eoff[b] + s) the waves it carries, and per
     * block whether an edge into it decides its branch (thru) */
    const struct gcn_paths *P = ei ? ei->paths : NULL;
    unsigned *eoff = P ? malloc(sizeof *eoff * (nb + 1)) : NULL;
    uint16_t *ew = NULL;
    bool *thru = P ? calloc(nb + 1, sizeof *thru) : NULL;
    if (P && eoff && thru) {
        unsigned ne = 0;
        for (unsigned k = 0; k < nb; k++) {
            eoff[k] = ne;
            ne += cfg->blocks[k].nsucc;
            for (unsigned s = 0; s < cfg->blocks[k].nsucc; s++)
                if (gcn_paths_edge_thru(P, k, s))
                    thru[cfg->blocks[k].succ[s]] = true;
        }
        eoff[nb] = ne;
        ew = calloc(ne + 1, sizeof *ew);
    }
    if (!out->lds || !out->pats || !out->bwaves || !in || !work || !wl || !inwl ||
        (P && (!eoff || !thru || !ew))) {
        free(in); free(work); free(wl); free(inwl); free(eoff); free(thru); free(ew);
        gcn_values_free(out);
        return -1;
    }
    vstate st;
    memset(&st, 0, sizeof st);      /* no guards, no saved masks at entry */
    st.s = work;
    st.v = st.s + 128;
    int rc = 0;
    if (!nb)
        goto done;
    /* entry state */
    for (unsigned i = 0; i < 128; i++)
        st.s[i] = i <= 101 ? av_sym(GCN_SYM_SGPR0 + i, 1) : av_top();
    for (unsigned i = 0; i < c.nv; i++)
        st.v[i] = av_top();
    st.nz[0] = ~0ull;                          /* s0..s101: their symbols */
    st.nz[1] = (1ull << (102 - 64)) - 1;
    if (c.nv)
        nz_set(&st, 128);                       /* v0, which the entry may name */
    if (c.nv && ei && ei->packed_xyz) {
        gcn_aval x = av_sym(GCN_SYM_TIDX, 1), y = av_sym(GCN_SYM_TIDY, 1024),
                 z = av_sym(GCN_SYM_TIDZ, 1 << 20);
        st.v[0] = av_add(&x, &y);
        st.v[0] = av_add(&st.v[0], &z);
    } else if (c.nv && ei && ei->v0_is_x) {
        gcn_aval w = av_sym(GCN_SYM_WAVE, 64), l = av_sym(GCN_SYM_LANE, 1);
        st.v[0] = av_add(&w, &l);
    }
    st.exec_full = true;
    st.lanes = ~0ull;
    st.wmask = 0xFFFF;
    st.seen = true;
    if (vstate_regs(&c, &in[0]) < 0) {
        rc = -1;
        goto done;
    }
    join(&c, &in[0], &st, 0);
    unsigned nw = 0;
    wl[nw++] = 0;
    inwl[0] = true;
    while (nw) {
        unsigned k = wl[--nw];
        inwl[k] = false;
        load_state(&c, &st, &in[k]);
        const gcn_block *b = &cfg->blocks[k];
        for (unsigned i = b->first; i <= b->last; i++)
            transfer(&c, &st, i);
        /* a branch on SCC from a compare: each edge knows the outcome */
        const gcn_insn *li = &cfg->insn[b->last];
        const gcn_lfacts *lf = &cfg->facts[b->last];
        bool on_scc = lf->kind == GCN_LK_CBRANCH && st.scc.op && b->nsucc == 2 &&
                      (li->id == GCN_ID_S_CBRANCH_SCC0 || li->id == GCN_ID_S_CBRANCH_SCC1);
        vcond keep = st.wguard;
        uint16_t keepw0 = st.wmask;
        for (unsigned s = 0; s < b->nsucc; s++) {
            unsigned t = b->succ[s];
            uint16_t keepw = keepw0;
            if (P && thru[k]) {
                /* the waves of the edges into k that may go on to t */
                keepw = k == 0 ? 0xFFFF : 0;
                for (unsigned p = 0; p < b->npred; p++) {
                    unsigned q = b->pred[p];
                    const gcn_block *qb = &cfg->blocks[q];
                    bool twice = false;         /* a pred listed twice: once */
                    for (unsigned p2 = 0; p2 < p; p2++)
                        twice = twice || b->pred[p2] == q;
                    for (unsigned s1 = 0; s1 < qb->nsucc && !twice; s1++)
                        if (qb->succ[s1] == k && !(gcn_paths_edge_thru(P, q, s1) >> s & 1u))
                            keepw |= ew[eoff[q] + s1];
                }
            }
            st.wguard = keep;
            st.wmask = keepw;
            if (on_scc && b->succ[0] != b->succ[1]) {
                bool taken = cfg->insn[cfg->blocks[t].first].addr == (uint64_t)lf->target;
                bool holds = taken == (li->id == GCN_ID_S_CBRANCH_SCC1);
                st.wguard = st.scc;
                if (!holds)
                    st.wguard.op = cond_neg(st.scc.op);
                /* the waves that can take this edge (sound: cond_waves keeps a wave
                 * when some value of the condition's other terms lets it) */
                st.wmask = cond_waves(&c, &st.wguard) & keepw;   /* 0: no wave */
            }
            bool grew = false;
            if (P) {
                if (gcn_paths_edge_dead(P, k, s))
                    st.wmask = 0;               /* no run takes it */
                uint16_t *e = &ew[eoff[k] + s];
                grew = (uint16_t)~*e & st.wmask;
                *e |= st.wmask;
                /* a join whose successors depend on the edge: a wave new on
                 * this edge may go on where the block's set already had it */
                grew = grew && thru[t];
            }
            if (!in[t].s && vstate_regs(&c, &in[t]) < 0) {
                rc = -1;
                goto done;
            }
            if ((join(&c, &in[t], &st, cfg->blocks[t].first) || grew) && !inwl[t]) {
                wl[nw++] = t;
                inwl[t] = true;
            }
        }
    }
    for (unsigned k = 0; k < nb; k++) {
        if (!in[k].seen)
            continue;
        out->bwaves[k] = in[k].wmask;
        load_state(&c, &st, &in[k]);
        const gcn_block *b = &cfg->blocks[k];
        for (unsigned i = b->first; i <= b->last; i++) {
            lds_range(&c, &st, i, &out->lds[i], &out->pats[i]);
            transfer(&c, &st, i);
        }
    }
done:
    for (unsigned k = 0; k < nb; k++)
        free(in[k].s);
    free(in); free(work); free(wl); free(inwl); free(eoff); free(thru); free(ew);
    if (rc < 0)
        gcn_values_free(out);
    return rc;
}

void gcn_values_free(gcn_values *v)
{
    if (v->pats)
        for (unsigned i = 0; i < v->n; i++)
            free(v->pats[i]);
    free(v->pats);
    free(v->lds);
    free(v->bwaves);
    memset(v, 0, sizeof *v);
}
