/*
 * mxfp.c -- the small-float codec of mxfp.h.  Format facts: OCP 8-bit
 * floating point specification (E4M3FN, E5M2), OCP Microscaling Formats (MX)
 * v1.0 (E2M3, E3M2, E2M1 element formats, E8M0 scale), LLVM's AMDGPU FNUZ
 * formats for gfx942 (E4M3 bias 8, E5M2 bias 16, 0x80 NaN).
 */
#include <math.h>
#include "mxfp.h"

const gcn_mxfmt GCN_MX_E4M3FN = {4, 3, MX_FN, 7};
const gcn_mxfmt GCN_MX_E5M2 = {5, 2, MX_IEEE, 15};
const gcn_mxfmt GCN_MX_E4M3FNUZ = {4, 3, MX_FNUZ, 8};
const gcn_mxfmt GCN_MX_E5M2FNUZ = {5, 2, MX_FNUZ, 16};
const gcn_mxfmt GCN_MX_E2M3 = {2, 3, MX_FINITE, 1};
const gcn_mxfmt GCN_MX_E3M2 = {3, 2, MX_FINITE, 3};
const gcn_mxfmt GCN_MX_E2M1 = {2, 1, MX_FINITE, 1};
const gcn_mxfmt GCN_MX_F16 = {5, 10, MX_IEEE, 15};
const gcn_mxfmt GCN_MX_BF16 = {8, 7, MX_IEEE, 127};

static int emax_of(const gcn_mxfmt *F)
{
    int top = (1 << F->ebits) - 1;
    return (F->kind == MX_IEEE ? top - 1 : top) - F->bias;
}

double gcn_mx_max(const gcn_mxfmt *F)
{
    /* MX_FN: the all-ones mantissa of the top binade is NaN */
    int drop = F->kind == MX_FN ? 1 : 0;
    double m = 2.0 - ldexp(1.0, drop - F->mbits);
    return ldexp(m, emax_of(F));
}

double gcn_mx_decode(uint32_t c, const gcn_mxfmt *F)
{
    unsigned w = 1u + F->ebits + F->mbits;
    c &= (1u << w) - 1;
    int s = (int)(c >> (w - 1));
    unsigned e = (c >> F->mbits) & ((1u << F->ebits) - 1), m = c & ((1u << F->mbits) - 1);
    unsigned etop = (1u << F->ebits) - 1;
    switch (F->kind) {
    case MX_FNUZ:
        if (c == 1u << (w - 1))
            return NAN;
        break;
    case MX_IEEE:
        if (e == etop)
            return m ? NAN : (s ? -INFINITY : INFINITY);
        break;
    case MX_FN:
        if (e == etop && m == (1u << F->mbits) - 1)
            return NAN;
        break;
    default:
        break;
    }
    double v = e ? ldexp((double)(m | 1u << F->mbits), (int)e - F->bias - F->mbits)
                 : ldexp((double)m, 1 - F->bias - F->mbits);
    return s ? -v : v;
}

uint32_t gcn_mx_encode(double v, const gcn_mxfmt *F, int sr, uint32_t rnd, int sat)
{
    unsigned w = 1u + F->ebits + F->mbits;
    uint32_t sb = signbit(v) ? 1u << (w - 1) : 0;
    uint32_t etop = (1u << F->ebits) - 1;
    uint32_t maxc = F->kind == MX_IEEE ? ((etop - 1) << F->mbits) | ((1u << F->mbits) - 1)
                  : F->kind == MX_FN ? (etop << F->mbits) | ((1u << F->mbits) - 2)
                  : (etop << F->mbits) | ((1u << F->mbits) - 1);
    uint32_t nanc = F->kind == MX_FNUZ ? 1u << (w - 1)
                  : F->kind == MX_FN ? sb | (etop << F->mbits) | ((1u << F->mbits) - 1)
                  : F->kind == MX_IEEE ? sb | (etop << F->mbits) | ((1u << F->mbits) - 1)
                  : sb | maxc;
    uint32_t ovf = sat ? sb | maxc
                 : F->kind == MX_IEEE ? sb | etop << F->mbits
                 : F->kind == MX_FINITE ? sb | maxc : nanc;
    if (isnan(v))                    /* the sign of a NaN is not kept */
        return nanc & ~(F->kind == MX_FNUZ ? 0u : sb);
    if (isinf(v))
        return ovf;
    double a = fabs(v);
    if (a == 0.0)
        return F->kind == MX_FNUZ ? 0 : sb;
    int minexp = 1 - F->bias, ex;
    if (sr) {
        /* add the top 23-mbits random bits below the f32 mantissa's last kept bit */
        unsigned d = 23u - F->mbits;
        frexp(a, &ex);
        int e_in = ex - 1 < -126 ? -126 : ex - 1;
        a += ldexp((double)(rnd >> (32 - d)), e_in - 23);
    }
    frexp(a, &ex);
    int e = ex - 1 < minexp ? minexp : ex - 1;
    double m = ldexp(a, F->mbits - e);       /* a in units of the quantum at e */
    double mr = floor(m);
    if (!sr) {
        double fr = m - mr;
        if (fr > 0.5 || (fr == 0.5 && fmod(mr, 2.0) != 0.0))
            mr += 1.0;
    }
    double r = ldexp(mr, e - F->mbits);
    if (r > gcn_mx_max(F))
        return ovf;
    if (r == 0.0)
        return F->kind == MX_FNUZ ? 0 : sb;
    /* re-normalise (rounding may have reached the next binade) */
    frexp(r, &ex);
    e = ex - 1;
    uint32_t code;
    if (e < minexp) {
        code = (uint32_t)ldexp(r, F->mbits - minexp);
    } else {
        uint32_t mant = (uint32_t)ldexp(r, F->mbits - e) - (1u << F->mbits);
        code = (uint32_t)(e + F->bias) << F->mbits | mant;
    }
    return sb | code;
}
