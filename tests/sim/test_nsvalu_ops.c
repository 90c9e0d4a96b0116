/*
 * test_nsvalu_ops.c -- semantics of the VALU bodies of src/sim/ops_gfx950.c
 * (gfx950 additions) and of the quad SADs (ops_valu.c) on a bare wave.  Expected values come from
 * the ISA pseudo-code restated here per bit/lane, or from other, independent
 * simulator bodies (v_cvt_f16_f32 under a MODE rounding mode as the oracle of
 * v_cvt_pk_f16_f32 and of the stochastic-rounding limits, the plain bitwise
 * ops as the oracle of v_bitop3); EXEC-off lanes must keep their values.
 * The conversions with scale and v_trig_preop_f64 are checked by
 * test_nsvalu.py against an exact reference and LLVM's constant folding.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "simtest.h"
#include "sim/fp.h"

static uint32_t rng_state = 12345;
static uint32_t rnd32(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}
static void fill(st_env *e, unsigned r)
{
    for (unsigned l = 0; l < NL; l++)
        e->w->v[r][l] = rnd32();
}

/* v_prng_b32: D = (S0 << 1) ^ (S0[31] ? 197 : 0); inactive lanes keep D */
static void test_prng(void)
{
    st_env *e = st_new(GCN_TARGET_GFX950);
    fill(e, 2);
    fill(e, 1);
    e->w->v[2][0] = 1;
    e->w->v[2][1] = 0x80000000u;
    e->w->v[2][2] = 0xffffffffu;
    e->w->v[2][3] = 0;
    uint32_t old[NL];
    memcpy(old, e->w->v[1], sizeof old);
    uint64_t ex = 0xfffffffffffffff7ull;       /* lane 3 off */
    sim_set_exec(e->w, ex);
    CU_ASSERT_FATAL(st_run(e, "v_prng_b32 v1, v2") == 0);
    CU_ASSERT_EQUAL(e->w->v[1][0], 2);
    CU_ASSERT_EQUAL(e->w->v[1][1], 0xc5);
    CU_ASSERT_EQUAL(e->w->v[1][2], 0xffffff3bu);
    CU_ASSERT_EQUAL(e->w->v[1][3], old[3]);
    for (unsigned l = 4; l < NL; l++) {
        uint32_t in = e->w->v[2][l];
        uint32_t want = (ex >> l & 1) ? (in << 1) ^ ((in & 0x80000000u) ? 197u : 0u) : old[l];
        CU_ASSERT_EQUAL(e->w->v[1][l], want);
    }
    st_free(e);
}

/* permlane swaps: both registers change (ISA pseudo-code) */
static void test_permlane(void)
{
    st_env *e = st_new(GCN_TARGET_GFX950);
    for (unsigned span = 16; span <= 32; span += 16) {
        for (unsigned l = 0; l < NL; l++) {
            e->w->v[1][l] = l;
            e->w->v[2][l] = 0x100 + l;
        }
        sim_set_exec(e->w, ~0ull);
        CU_ASSERT_FATAL(st_run(e, span == 16 ? "v_permlane16_swap_b32 v1, v2" : "v_permlane32_swap_b32 v1, v2") == 0);
        for (unsigned l = 0; l < NL; l++) {
            int odd = (l / span) & 1;
            /* vdst: odd blocks get vsrc's even blocks; vsrc: even blocks get vdst's odd ones */
            CU_ASSERT_EQUAL(e->w->v[1][l], odd ? 0x100 + l - span : l);
            CU_ASSERT_EQUAL(e->w->v[2][l], odd ? 0x100 + l : l + span);
        }
    }
    /* partial EXEC: lane 3 off; without fi its value is not fetched, so vdst lane 19 keeps
     * its value; with fi it is */
    for (int fi = 0; fi < 2; fi++) {
        for (unsigned l = 0; l < NL; l++) {
            e->w->v[1][l] = l;
            e->w->v[2][l] = 0x100 + l;
        }
        sim_set_exec(e->w, ~(1ull << 3));
        CU_ASSERT_FATAL(st_run(e, fi ? "v_permlane16_swap_b32 v1, v2 fi:1" : "v_permlane16_swap_b32 v1, v2") == 0);
        CU_ASSERT_EQUAL(e->w->v[1][19], fi ? 0x103u : 19u);
        CU_ASSERT_EQUAL(e->w->v[2][3], 0x103u);            /* lane 3 inactive: not written */
        CU_ASSERT_EQUAL(e->w->v[1][20], 0x104u);
        CU_ASSERT_EQUAL(e->w->v[2][4], 20u);
    }
    st_free(e);
}

/* v_bitop3: D[i] = TTBL[{S0[i], S1[i], S2[i]}] */
static void test_bitop3(void)
{
    st_env *e = st_new(GCN_TARGET_GFX950);
    static const unsigned tt[] = {0x00, 0x01, 0x14, 0x40, 0x41, 0x54, 0x80, 0x96, 0xa5, 0xca, 0xe8, 0xea, 0xfe, 0xff, 0x3c, 0x1b};
    for (unsigned k = 0; k < sizeof tt / sizeof tt[0]; k++) {
        fill(e, 2);
        fill(e, 3);
        fill(e, 4);
        char a[128];
        snprintf(a, sizeof a, "v_bitop3_b32 v1, v2, v3, v4 bitop3:0x%x", tt[k]);
        CU_ASSERT_FATAL(st_run(e, a) == 0);
        for (unsigned l = 0; l < NL; l++) {
            uint32_t want = 0;
            for (unsigned b = 0; b < 32; b++) {
                unsigned idx = (e->w->v[2][l] >> b & 1) << 2 | (e->w->v[3][l] >> b & 1) << 1 | (e->w->v[4][l] >> b & 1);
                want |= (uint32_t)(tt[k] >> idx & 1) << b;
            }
            CU_ASSERT_EQUAL(e->w->v[1][l], want);
        }
        /* 16-bit form: high halves via op_sel, result in the high half */
        snprintf(a, sizeof a, "v_bitop3_b16 v5, v2, v3, v4 bitop3:0x%x op_sel:[1,0,1,1]", tt[k]);
        fill(e, 5);
        uint32_t old5 = e->w->v[5][7];
        CU_ASSERT_FATAL(st_run(e, a) == 0);
        uint32_t x0 = e->w->v[2][7] >> 16, x1 = e->w->v[3][7] & 0xffff, x2 = e->w->v[4][7] >> 16, want = 0;
        for (unsigned b = 0; b < 16; b++)
            want |= (uint32_t)(tt[k] >> ((x0 >> b & 1) << 2 | (x1 >> b & 1) << 1 | (x2 >> b & 1)) & 1) << b;
        CU_ASSERT_EQUAL(e->w->v[5][7], (old5 & 0xffff) | want << 16);
    }
    /* the ISA's equivalences, against the simulator's own bitwise bodies */
    static const struct { unsigned t; const char *op; } eq[] = {
        {0x40, "v_and_b32 v6, v2, v3"}, {0x54, "v_or_b32 v6, v2, v3"}, {0x14, "v_xor_b32 v6, v2, v3"},
        {0x41, "v_xnor_b32 v6, v2, v3"}, {0xea, "v_and_or_b32 v6, v2, v3, v4"}, {0xfe, "v_or3_b32 v6, v2, v3, v4"},
    };
    for (unsigned k = 0; k < sizeof eq / sizeof eq[0]; k++) {
        fill(e, 2);
        fill(e, 3);
        fill(e, 4);
        if (strncmp(eq[k].op, "v_and_or", 8) && strncmp(eq[k].op, "v_or3", 5))
            st_vset(e, 4, 0);
        char a[128];
        snprintf(a, sizeof a, "v_bitop3_b32 v1, v2, v3, v4 bitop3:0x%x", eq[k].t);
        CU_ASSERT_FATAL(st_run(e, a) == 0);
        CU_ASSERT_FATAL(st_run(e, eq[k].op) == 0);
        CU_ASSERT(memcmp(e->w->v[1], e->w->v[6], NL * 4) == 0);
    }
    st_free(e);
}

/* v_ashr_pk_i8_i32 / v_ashr_pk_u8_i32 */
static void test_ashr_pk(void)
{
    st_env *e = st_new(GCN_TARGET_GFX950);
    fill(e, 2);
    fill(e, 3);
    fill(e, 4);
    e->w->v[2][0] = 0x7fffffff; e->w->v[3][0] = 0x80000000u; e->w->v[4][0] = 24;
    e->w->v[2][1] = (uint32_t)-300; e->w->v[3][1] = 300; e->w->v[4][1] = 33;   /* shift 1 */
    for (int sgn = 0; sgn < 2; sgn++) {
        for (int hi = 0; hi < 2; hi++) {
            fill(e, 1);
            uint32_t old[NL];
            memcpy(old, e->w->v[1], sizeof old);
            char a[128];
            snprintf(a, sizeof a, "v_ashr_pk_%s_i32 v1, v2, v3, v4%s", sgn ? "i8" : "u8", hi ? " op_sel:[0,0,0,1]" : "");
            CU_ASSERT_FATAL(st_run(e, a) == 0);
            for (unsigned l = 0; l < NL; l++) {
                unsigned sh = e->w->v[4][l] & 31;
                int32_t v0 = (int32_t)e->w->v[2][l] >> sh, v1 = (int32_t)e->w->v[3][l] >> sh;
                uint32_t b0, b1;
                if (sgn) {
                    b0 = v0 <= -128 ? 0x80 : v0 >= 127 ? 0x7f : (uint32_t)v0 & 0xff;
                    b1 = v1 <= -128 ? 0x80 : v1 >= 127 ? 0x7f : (uint32_t)v1 & 0xff;
                } else {
                    b0 = v0 <= 0 ? 0 : v0 >= 255 ? 0xff : (uint32_t)v0;
                    b1 = v1 <= 0 ? 0 : v1 >= 255 ? 0xff : (uint32_t)v1;
                }
                uint32_t p = b0 | b1 << 8;
                CU_ASSERT_EQUAL(e->w->v[1][l], hi ? (old[l] & 0xffff) | p << 16 : p);
            }
            if (sgn) {
                CU_ASSERT_EQUAL(e->w->v[1][0] >> (hi ? 16 : 0) & 0xffff, 0x807f);
                CU_ASSERT_EQUAL(e->w->v[1][1] >> (hi ? 16 : 0) & 0xffff, 0x7f80);
            }
        }
    }
    st_free(e);
}

/* v_cvt_f32_bf16: D = { S0.b16, 16'0 } */
static void test_cvt_f32_bf16(void)
{
    st_env *e = st_new(GCN_TARGET_GFX950);
    fill(e, 2);
    CU_ASSERT_FATAL(st_run(e, "v_cvt_f32_bf16 v1, v2") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT_EQUAL(e->w->v[1][l], e->w->v[2][l] << 16);
    CU_ASSERT_FATAL(st_run(e, "v_cvt_f32_bf16_sdwa v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT_EQUAL(e->w->v[1][l], e->w->v[2][l] & 0xffff0000u);
    CU_ASSERT_FATAL(st_run(e, "v_cvt_f32_bf16_e64 v1, -v2") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT_EQUAL(e->w->v[1][l], (e->w->v[2][l] << 16) ^ 0x80000000u);
    st_free(e);
}

/* IEEE 754-2019 minimum / maximum: NaN propagates (quieted), -0 < +0 */
static void test_minimum3(void)
{
    st_env *e = st_new(GCN_TARGET_GFX950);
    static const uint32_t c[][5] = {   /* a, b, c, minimum3, maximum3 */
        {0x3f800000, 0x7fc00000, 0x40000000, 0x7fc00000, 0x7fc00000},
        {0x7f800001, 0x3f800000, 0xff800000, 0x7fc00001, 0x7fc00001},
        {0x80000000, 0x00000000, 0x3f800000, 0x80000000, 0x3f800000},
        {0x00000000, 0x80000000, 0xbf800000, 0xbf800000, 0x00000000},
        {0x00000000, 0x80000000, 0x00000000, 0x80000000, 0x00000000},
        {0xff800000, 0x7f800000, 0x00000001, 0xff800000, 0x7f800000},
        {0x40400000, 0x40000000, 0xffc00005, 0xffc00005, 0xffc00005},
    };
    unsigned n = sizeof c / sizeof c[0];
    for (unsigned l = 0; l < NL; l++) {
        e->w->v[2][l] = c[l % n][0];
        e->w->v[3][l] = c[l % n][1];
        e->w->v[4][l] = c[l % n][2];
    }
    CU_ASSERT_FATAL(st_run(e, "v_minimum3_f32 v1, v2, v3, v4") == 0);
    CU_ASSERT_FATAL(st_run(e, "v_maximum3_f32 v5, v2, v3, v4") == 0);
    for (unsigned l = 0; l < NL; l++) {
        CU_ASSERT_EQUAL(e->w->v[1][l], c[l % n][3]);
        CU_ASSERT_EQUAL(e->w->v[5][l], c[l % n][4]);
    }
    /* packed f16: halves from op_sel / op_sel_hi, neg_lo / neg_hi */
    static const uint16_t h[][5] = {
        {0x3c00, 0x7e00, 0x4000, 0x7e00, 0x7e00},
        {0x8000, 0x0000, 0x3c00, 0x8000, 0x3c00},
        {0x7c01, 0x3c00, 0xfc00, 0x7e01, 0x7e01},
        {0xc000, 0x4000, 0x0001, 0xc000, 0x4000},
    };
    unsigned m = sizeof h / sizeof h[0];
    for (unsigned l = 0; l < NL; l++) {
        unsigned a = l % m, b = (l + 1) % m;
        e->w->v[2][l] = h[a][0] | (uint32_t)h[b][0] << 16;
        e->w->v[3][l] = h[a][1] | (uint32_t)h[b][1] << 16;
        e->w->v[4][l] = h[a][2] | (uint32_t)h[b][2] << 16;
    }
    CU_ASSERT_FATAL(st_run(e, "v_pk_minimum3_f16 v1, v2, v3, v4") == 0);
    CU_ASSERT_FATAL(st_run(e, "v_pk_maximum3_f16 v5, v2, v3, v4") == 0);
    for (unsigned l = 0; l < NL; l++) {
        unsigned a = l % m, b = (l + 1) % m;
        CU_ASSERT_EQUAL(e->w->v[1][l], h[a][3] | (uint32_t)h[b][3] << 16);
        CU_ASSERT_EQUAL(e->w->v[5][l], h[a][4] | (uint32_t)h[b][4] << 16);
    }
    /* op_sel_hi:[0,0,0]: the high result from the low halves too */
    CU_ASSERT_FATAL(st_run(e, "v_pk_minimum3_f16 v1, v2, v3, v4 op_sel_hi:[0,0,0]") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT_EQUAL(e->w->v[1][l], h[l % m][3] | (uint32_t)h[l % m][3] << 16);
    st_free(e);
}

/* v_cvt_pk_f16_f32 rounds to nearest even whatever MODE says: oracle
 * v_cvt_f16_f32 in MODE round-to-nearest.  v_cvt_sr_f16_f32 with random 0 is
 * truncation (oracle: v_cvt_f16_f32 in round-toward-zero), with random ~0 it
 * rounds every inexact positive value up (oracle: round toward +inf). */
static void test_cvt_f16(void)
{
    st_env *e = st_new(GCN_TARGET_GFX950);
    for (unsigned l = 0; l < NL; l++) {
        uint32_t u = rnd32();
        e->w->v[2][l] = (u & 0x87ffffffu) | ((100u + u % 50u) << 23);   /* exponents 100..149 */
        e->w->v[3][l] = rnd32() & 0x7fffffffu;
        if (l < 4)
            e->w->v[3][l] = (uint32_t[]){0x7fc00000, 0x7f800000, 0x477fefff, 0x33000001}[l];
    }
    uint32_t mode0 = e->w->hw_mode;
    e->w->hw_mode = mode0 | 3u << 2;                         /* f16 round toward zero */
    CU_ASSERT_FATAL(st_run(e, "v_cvt_pk_f16_f32 v1, v2, v3") == 0);
    e->w->hw_mode = mode0;
    CU_ASSERT_FATAL(st_run(e, "v_cvt_f16_f32 v5, v2") == 0);
    CU_ASSERT_FATAL(st_run(e, "v_cvt_f16_f32 v6, v3") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT_EQUAL(e->w->v[1][l], (e->w->v[5][l] & 0xffff) | e->w->v[6][l] << 16);
    /* stochastic rounding limits, positive inputs with normal f16 results (below 2^-14 the
     * random bits, added at the input's own exponent, cover less than an f16 ulp) */
    for (unsigned l = 0; l < NL; l++) {
        uint32_t u = rnd32();
        e->w->v[2][l] = (u & 0x007fffffu) | ((113u + u % 29u) << 23);   /* 2^-14 .. 2^14: normal f16 */
    }
    for (int k = 0; k < 2; k++) {
        st_vset(e, 4, k ? 0xffffffffu : 0);
        fill(e, 1);
        uint32_t old[NL];
        memcpy(old, e->w->v[1], sizeof old);
        CU_ASSERT_FATAL(st_run(e, "v_cvt_sr_f16_f32 v1, v2, v4 op_sel:[0,0,1]") == 0);
        e->w->hw_mode = mode0 | (k ? 1u : 3u) << 2;
        CU_ASSERT_FATAL(st_run(e, "v_cvt_f16_f32 v5, v2") == 0);
        e->w->hw_mode = mode0;
        for (unsigned l = 0; l < NL; l++)
            CU_ASSERT_EQUAL(e->w->v[1][l], (old[l] & 0xffff) | e->w->v[5][l] << 16);
    }
    /* bf16: random 0 truncates */
    st_vset(e, 4, 0);
    CU_ASSERT_FATAL(st_run(e, "v_cvt_sr_bf16_f32 v1, v2, v4") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT_EQUAL(e->w->v[1][l] & 0xffff, e->w->v[2][l] >> 16);
    /* EXEC-off lanes keep their value */
    fill(e, 1);
    uint32_t keep = e->w->v[1][5];
    sim_set_exec(e->w, ~(1ull << 5));
    CU_ASSERT_FATAL(st_run(e, "v_cvt_sr_bf16_f32 v1, v2, v4") == 0);
    CU_ASSERT_EQUAL(e->w->v[1][5], keep);
    st_free(e);
}

/* quad SADs, from the ISA pseudo-code */
static uint32_t sad_u8(uint32_t a, uint32_t b, uint32_t acc, int masked)
{
    for (unsigned k = 0; k < 4; k++) {
        int x = (int)(a >> (8 * k) & 0xff), y = (int)(b >> (8 * k) & 0xff);
        if (!masked || y)
            acc += (uint32_t)abs(x - y);
    }
    return acc;
}
static void test_qsad(void)
{
    st_env *e = st_new(GCN_TARGET_GFX942);
    for (unsigned r = 2; r <= 9; r++)
        fill(e, r);
    for (unsigned l = 0; l < NL; l += 3)
        e->w->v[4][l] &= 0xff00ff00u;                 /* zero reference bytes */
    for (int m = 0; m < 3; m++) {
        const char *a = m == 0 ? "v_qsad_pk_u16_u8 v[10:11], v[2:3], v4, v[6:7]"
                      : m == 1 ? "v_mqsad_pk_u16_u8 v[10:11], v[2:3], v4, v[6:7]"
                               : "v_mqsad_u32_u8 v[12:15], v[2:3], v4, v[6:9]";
        CU_ASSERT_FATAL(st_run(e, a) == 0);
        for (unsigned l = 0; l < NL; l++) {
            uint64_t s0 = e->w->v[2][l] | (uint64_t)e->w->v[3][l] << 32;
            uint64_t s2 = e->w->v[6][l] | (uint64_t)e->w->v[7][l] << 32;
            for (unsigned k = 0; k < 4; k++) {
                uint32_t win = (uint32_t)(s0 >> (8 * k));
                if (m < 2) {
                    uint32_t want = sad_u8(win, e->w->v[4][l], (uint32_t)(s2 >> (16 * k)) & 0xffff, m) & 0xffff;
                    uint64_t d = e->w->v[10][l] | (uint64_t)e->w->v[11][l] << 32;
                    CU_ASSERT_EQUAL((uint32_t)(d >> (16 * k)) & 0xffff, want);
                } else {
                    CU_ASSERT_EQUAL(e->w->v[12 + k][l], sad_u8(win, e->w->v[4][l], e->w->v[6 + k][l], 1));
                }
            }
        }
    }
    st_free(e);
}

/* cube-map instructions, values worked out by hand from the ISA pseudo-code */
static void test_cube(void)
{
    st_env *e = st_new(GCN_TARGET_GFX942);
    static const float c[][7] = {   /* x, y, z, id, sc, tc, ma */
        {1, 2, 3, 4, 1, -2, 6},   {1, 2, -3, 5, -1, -2, -6}, {1, -3, 2, 3, 1, -2, -6},
        {1, 3, 2, 2, 1, 2, 6},    {-3, 1, 2, 1, 2, -1, -6},  {3, 1, 2, 0, -2, -1, 6},
        {2, 1, 2, 4, 2, -1, 4},   {1, 2, 2, 4, 1, -2, 4},    {2, 2, 1, 2, 2, 1, 4},
    };
    unsigned n = sizeof c / sizeof c[0];
    for (unsigned l = 0; l < NL; l++) {
        e->w->v[2][l] = f2u(c[l % n][0]);
        e->w->v[3][l] = f2u(c[l % n][1]);
        e->w->v[4][l] = f2u(c[l % n][2]);
    }
    static const char *ops[] = {"v_cubeid_f32 v1, v2, v3, v4", "v_cubesc_f32 v1, v2, v3, v4",
                                "v_cubetc_f32 v1, v2, v3, v4", "v_cubema_f32 v1, v2, v3, v4"};
    for (unsigned k = 0; k < 4; k++) {
        CU_ASSERT_FATAL(st_run(e, ops[k]) == 0);
        for (unsigned l = 0; l < NL; l++)
            CU_ASSERT_EQUAL(e->w->v[1][l], f2u(c[l % n][3 + k]));
    }
    st_free(e);
}

/* fork/join stack and the debugger branches in a kernel: both sides of each fork
 * run (the smaller side first), the joins reunite them; no debugger: the
 * s_cbranch_cdbg* branches fall through */
static const char fj_src[] =
    ".amdhsa_code_object_version 5\n.text\n.globl fj\n.p2align 8\n.type fj,@function\nfj:\n"
    "  s_load_dwordx2 s[10:11], s[0:1], 0x0\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  s_mov_b64 s[12:13], exec\n"
    "  v_mov_b32 v1, 0\n"
    "  s_mov_b32 s22, 0\n"
    "  v_cmp_gt_u32 vcc, 40, v0\n"
    "  s_getreg_b32 s20, hwreg(HW_REG_MODE, 29, 3)\n"
    "  s_cbranch_i_fork vcc, .Lpass\n"
    "  v_mov_b32 v1, 2\n"
    "  s_lshl_b32 s22, s22, 2\n  s_or_b32 s22, s22, 1\n"
    "  s_branch .Ljoin\n"
    ".Lpass:\n"
    "  v_mov_b32 v1, 1\n"
    "  s_lshl_b32 s22, s22, 2\n  s_or_b32 s22, s22, 2\n"
    ".Ljoin:\n"
    "  s_cbranch_join s20\n"
    "  s_mov_b64 exec, s[12:13]\n"
    "  v_cmp_gt_u32 s[16:17], 10, v0\n"
    "  s_getpc_b64 s[14:15]\n"
    ".Lpc:\n"
    "  s_add_u32 s14, s14, .Lpass2-.Lpc\n"
    "  s_addc_u32 s15, s15, 0\n"
    "  s_cbranch_g_fork s[16:17], s[14:15]\n"
    "  v_add_u32 v1, 20, v1\n"
    "  s_lshl_b32 s22, s22, 2\n  s_or_b32 s22, s22, 1\n"
    "  s_branch .Ljoin2\n"
    ".Lpass2:\n"
    "  v_add_u32 v1, 10, v1\n"
    "  s_lshl_b32 s22, s22, 2\n  s_or_b32 s22, s22, 2\n"
    ".Ljoin2:\n"
    "  s_cbranch_join s20\n"
    "  s_mov_b64 exec, s[12:13]\n"
    "  s_cbranch_cdbgsys_or_user .Lbad\n"
    "  s_cbranch_cdbguser .Lbad\n"
    "  s_branch .Lstore\n"
    ".Lbad:\n"
    "  v_mov_b32 v1, 99\n"
    ".Lstore:\n"
    "  s_getreg_b32 s21, hwreg(HW_REG_MODE, 29, 3)\n"
    "  v_mov_b32 v4, v1\n"
    "  s_lshl_b32 s21, s21, 16\n  s_or_b32 s21, s21, s22\n"
    "  v_mov_b32 v5, s21\n"
    "  v_lshlrev_b32 v2, 3, v0\n"
    "  global_store_dwordx2 v2, v[4:5], s[10:11]\n"
    "  s_endpgm\n"
    ".rodata\n.p2align 6\n.amdhsa_kernel fj\n"
    "  .amdhsa_kernarg_size 8\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
    "  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 32\n  .amdhsa_accum_offset 8\n"
    ".end_amdhsa_kernel\n"
    ".amdgpu_metadata\n---\namdhsa.version: [1, 2]\namdhsa.kernels:\n"
    "  - .name: fj\n    .symbol: fj.kd\n    .kernarg_segment_size: 8\n    .kernarg_segment_align: 8\n"
    "    .group_segment_fixed_size: 0\n    .private_segment_fixed_size: 0\n    .wavefront_size: 64\n"
    "    .sgpr_count: 32\n    .vgpr_count: 8\n    .max_flat_workgroup_size: 1024\n    .args:\n"
    "      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}\n"
    "...\n.end_amdgpu_metadata\n";

static void test_fork_join(void)
{
    for (int t = 0; t < 2; t++) {
        uint32_t out[128];
        memset(out, 0xee, sizeof out);
        st_kbuf b = {"A", sizeof out, out};
        gcn_sim_result res;
        memset(&res, 0, sizeof res);
        char msg[4096];
        int rc = st_kernel(t ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942, fj_src, 1, 64, &b, 1, NULL, 0, &res,
                           msg, sizeof msg);
        if (rc)
            fprintf(stderr, "fork/join kernel: rc %d: %s\n", rc, msg);
        CU_ASSERT_FATAL(rc == 0);
        for (unsigned l = 0; l < 64; l++) {
            uint32_t want = (l < 40 ? 1u : 2u) + (l < 10 ? 10u : 20u);
            CU_ASSERT_EQUAL(out[2 * l], want);
            /* MODE.CSP back at 0 (bits 18:16); path order: fork 1 runs its 24 failing
             * lanes first (1) then the 40 passing ones (2), fork 2 its 10 passing
             * lanes first (2) then the others (1): history 1,2,2,1 */
            CU_ASSERT_EQUAL(out[2 * l + 1], 0x69);
        }
    }
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("nsvalu", NULL, NULL);
    CU_add_test(s, "v_prng_b32 (ISA LFSR), EXEC-off lanes", test_prng);
    CU_add_test(s, "v_permlane16/32_swap_b32 write both operands", test_permlane);
    CU_add_test(s, "v_bitop3 truth tables and the ISA equivalences", test_bitop3);
    CU_add_test(s, "v_ashr_pk_i8/u8_i32 saturation, op_sel", test_ashr_pk);
    CU_add_test(s, "v_cvt_f32_bf16 (VOP1, SDWA, VOP3 neg)", test_cvt_f32_bf16);
    CU_add_test(s, "v_minimum3/maximum3 f32, v_pk_minimum3/maximum3 f16", test_minimum3);
    CU_add_test(s, "v_cvt_pk_f16_f32 RNE, v_cvt_sr_f16/bf16_f32 limits", test_cvt_f16);
    CU_add_test(s, "v_qsad_pk_u16_u8, v_mqsad_*", test_qsad);
    CU_add_test(s, "v_cubeid/sc/tc/ma_f32", test_cube);
    CU_add_test(s, "s_cbranch_i_fork/g_fork/join, s_cbranch_cdbg*", test_fork_join);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
