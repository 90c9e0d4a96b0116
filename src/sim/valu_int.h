/*
 * valu_int.h -- shorthands shared by the VALU body files (ops_valu.c,
 * ops_vcmp.c, ops_cvt.c, ops_vop3p.c): lane loops, host rounding-mode
 * switching for the MODE register, NaN fix-ups that give the GPU's results
 * (a NaN input is returned quieted; an invalid operation gives the positive
 * canonical qNaN 0x7fc00000, not x86's negative default NaN), and IEEE-mode
 * min/max.
 */
#ifndef GCN_SIM_VALU_INT_H
#define GCN_SIM_VALU_INT_H

/* The lane loops are written to be vectorized; GCC's -O2 cost model
 * ("very cheap") rejects most of them, so ask for the dynamic model here. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include <fenv.h>
#include <math.h>
#include "sim_body.h"
#include "fp.h"

#define LANES for (unsigned l = 0; l < NL; l++)
#define VD (&x->i->d)

/* Hot float bodies get an AVX2+FMA clone on x86-64 (FMA inline, wider loops). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(GCN_NO_CLONES)
#define GCN_HOT __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define GCN_HOT
#endif
/* A hot body kept out of line.  clang refuses noinline on a function with
 * target_clones (its clones are called through a resolver, never inlined). */
#if defined(__clang__) && defined(__x86_64__) && !defined(GCN_NO_CLONES)
#define GCN_HOT_NOINLINE GCN_HOT
#else
#define GCN_HOT_NOINLINE GCN_HOT __attribute__((noinline))
#endif
#define HBODY(ID) GCN_HOT static void b_##ID(sim_x *x)

static inline int rm_begin(const sim_x *x, int sh)
{
    int rm = (int)((x->w->hw_mode >> sh) & 3);
    if (rm) {
        static const int tab[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
        fesetround(tab[rm]);
    }
    return rm;
}
static inline void rm_end(int rm)
{
    if (rm)
        fesetround(FE_TONEAREST);
}
#define RM32(x) rm_begin(x, 0)
#define RM64(x) rm_begin(x, 2)

/* canonical NaN results */
#define QNAN32 0x7fc00000u
#define QNAN16 0x7e00u
#define QNAN64 0x7ff8000000000000ull

static inline uint32_t nan_fix32(uint32_t r, uint32_t a, uint32_t b, uint32_t c)
{
    if (!f32_is_nan(r))
        return r;
    if (f32_is_nan(a)) return f32_quiet(a);
    if (f32_is_nan(b)) return f32_quiet(b);
    if (f32_is_nan(c)) return f32_quiet(c);
    return QNAN32;
}
static inline uint64_t nan_fix64(uint64_t r, uint64_t a, uint64_t b, uint64_t c)
{
    if (!f64_is_nan(r))
        return r;
    if (f64_is_nan(a)) return f64_quiet(a);
    if (f64_is_nan(b)) return f64_quiet(b);
    if (f64_is_nan(c)) return f64_quiet(c);
    return QNAN64;
}
static inline uint16_t nan_fix16(uint16_t r, uint16_t a, uint16_t b, uint16_t c)
{
    if (!f16_is_nan(r))
        return r;
    if (f16_is_nan(a)) return f16_quiet(a);
    if (f16_is_nan(b)) return f16_quiet(b);
    if (f16_is_nan(c)) return f16_quiet(c);
    return QNAN16;
}

static inline void nan_fix_vec(uint32_t *R, const uint32_t *A, const uint32_t *B, const uint32_t *C)
{
    for (unsigned l = 0; l < NL; l++)
        R[l] = nan_fix32(R[l], A[l], B ? B[l] : 0, C ? C[l] : 0);
}

/* Inline fast paths of operand fetch and write-back (the common case: plain
 * VGPR operands, no DPP/SDWA, no modifiers, full EXEC); everything else
 * goes through vfetch.c. */
static inline __attribute__((always_inline)) const uint32_t *vsrc(sim_x *x, unsigned k)
{
    const sim_insn *i = x->i;
    if (__builtin_expect(i->vfast >> k & 1, 1))
        return x->w->v[i->s[k].r];
    const sim_opnd *o = &i->s[k];
    if ((o->kind == OK_S || o->kind == OK_C || o->kind == OK_IMM) && i->sub != GCN_SUB_SDWA &&
        !(k == 0 && i->sub == GCN_SUB_DPP)) {
        /* an SGPR or a constant: sim_vsrc's broadcast, inline */
        uint32_t c = o->kind == OK_S ? x->w->s[o->r] : (uint32_t)o->c, *t = x->t[k][0];
        for (unsigned l = 0; l < NL; l++)
            t[l] = c;
        return t;
    }
    return sim_vsrc(x, k);
}
/* Whether src k is an SGPR or a constant that vsrc() would broadcast to all lanes (then
 * its value in *c): bodies use it as a scalar instead of a broadcast row. */
static inline __attribute__((always_inline)) int vsrc_scalar(const sim_x *x, unsigned k,
                                                            uint32_t *c)
{
    const sim_insn *i = x->i;
    const sim_opnd *o = &i->s[k];
    if ((i->vfast >> k & 1) || !(o->kind == OK_S || o->kind == OK_C || o->kind == OK_IMM) ||
        i->sub == GCN_SUB_SDWA || (k == 0 && i->sub == GCN_SUB_DPP))
        return 0;
    *c = o->kind == OK_S ? x->w->s[o->r] : (uint32_t)o->c;
    return 1;
}
static inline __attribute__((always_inline)) const uint32_t *vsrc_f32(sim_x *x, unsigned k)
{
    const sim_insn *i = x->i;
    if (__builtin_expect((i->vfast >> k & 1) &&
                         !((i->flags & GCN_F_RD_MODE) && !(x->w->hw_mode >> 4 & 1)), 1))
        return x->w->v[i->s[k].r];
    return sim_vsrc_f32(x, k);
}
/* The plain f32 case of a body: the sources in `srcs` (bit k: src k) and the
 * destination are plain VGPRs, every lane is written, and MODE rounds f32 to
 * nearest and keeps f32 denormals (bits 1:0 = 0, 5:4 = 3) when the row
 * reads MODE. */
static inline __attribute__((always_inline)) int f32_plain(const sim_x *x, unsigned srcs)
{
    const sim_insn *i = x->i;
    unsigned need = srcs | VF_DST;
    return __builtin_expect((i->vfast & need) == need && x->wmask == ~0ull &&
                            (!(i->flags & GCN_F_RD_MODE) || (x->w->hw_mode & 0x33u) == 0x30u), 1);
}
/* Where a body should put its 64 results: straight into the destination row
 * when the write needs no EXEC blend and the row is no source of the
 * instruction, else a scratch row that vdst*() copies from. */
static inline __attribute__((always_inline)) uint32_t *vout(sim_x *x)
{
    const sim_insn *i = x->i;
    if ((i->vfast & (VF_DST | VF_NOALIAS)) == (VF_DST | VF_NOALIAS) && x->wmask == ~0ull)
        return x->w->v[i->d.r];
    return x->r[0];
}
static inline __attribute__((always_inline)) void vdst(sim_x *x, const uint32_t *r)
{
    const sim_insn *i = x->i;
    if (__builtin_expect((i->vfast & VF_DST) && x->wmask == ~0ull, 1)) {
        uint32_t *d = x->w->v[i->d.r];
        if (d != r)
            memcpy(d, r, NL * 4);
    } else {
        sim_vdst(x, r);
    }
}
static inline __attribute__((always_inline)) void vdst_f32(sim_x *x, const uint32_t *r)
{
    const sim_insn *i = x->i;
    if (__builtin_expect((i->vfast & VF_DST) && x->wmask == ~0ull &&
                         !((i->flags & GCN_F_RD_MODE) && !(x->w->hw_mode >> 5 & 1)), 1)) {
        uint32_t *d = x->w->v[i->d.r];
        if (d != r)
            memcpy(d, r, NL * 4);
    } else {
        sim_vdst_f32(x, r);
    }
}

/* IEEE-mode min/max (AMD ISA: a NaN operand yields the other operand; both
 * NaN give a quiet NaN; -0 < +0). */
static inline uint32_t fmin32(uint32_t a, uint32_t b)
{
    int na = f32_is_nan(a), nb = f32_is_nan(b);
    if (na || nb)
        return na && nb ? f32_quiet(a) : na ? b : a;
    float fa = u2f(a), fb = u2f(b);
    if (fa < fb) return a;
    if (fb < fa) return b;
    return (a & 0x80000000u) ? a : b;
}
static inline uint32_t fmax32(uint32_t a, uint32_t b)
{
    int na = f32_is_nan(a), nb = f32_is_nan(b);
    if (na || nb)
        return na && nb ? f32_quiet(a) : na ? b : a;
    float fa = u2f(a), fb = u2f(b);
    if (fa > fb) return a;
    if (fb > fa) return b;
    return (a & 0x80000000u) ? b : a;
}
static inline uint64_t fmin64(uint64_t a, uint64_t b)
{
    int na = f64_is_nan(a), nb = f64_is_nan(b);
    if (na || nb)
        return na && nb ? f64_quiet(a) : na ? b : a;
    double fa = u2d(a), fb = u2d(b);
    if (fa < fb) return a;
    if (fb < fa) return b;
    return (a >> 63) ? a : b;
}
static inline uint64_t fmax64(uint64_t a, uint64_t b)
{
    int na = f64_is_nan(a), nb = f64_is_nan(b);
    if (na || nb)
        return na && nb ? f64_quiet(a) : na ? b : a;
    double fa = u2d(a), fb = u2d(b);
    if (fa > fb) return a;
    if (fb > fa) return b;
    return (a >> 63) ? b : a;
}
static inline uint16_t fmin16(uint16_t a, uint16_t b)
{
    int na = f16_is_nan(a), nb = f16_is_nan(b);
    if (na || nb)
        return na && nb ? f16_quiet(a) : na ? b : a;
    float fa = fp_h2f(a), fb = fp_h2f(b);
    if (fa < fb) return a;
    if (fb < fa) return b;
    return (a & 0x8000) ? a : b;
}
static inline uint16_t fmax16(uint16_t a, uint16_t b)
{
    int na = f16_is_nan(a), nb = f16_is_nan(b);
    if (na || nb)
        return na && nb ? f16_quiet(a) : na ? b : a;
    float fa = fp_h2f(a), fb = fp_h2f(b);
    if (fa > fb) return a;
    if (fb > fa) return b;
    return (a & 0x8000) ? b : a;
}

/* f16 rounding mode (MODE bits 3:2) */
static inline int rm16(const sim_x *x) { return (int)((x->w->hw_mode >> 2) & 3); }

#endif
