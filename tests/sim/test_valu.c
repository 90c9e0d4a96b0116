/*
 * test_valu.c -- semantics of vector ALU instructions: integer edge cases
 * (carries, shifts >= 32, high products, saturation), f32/f64/f16 against the
 * host's IEEE arithmetic (random operands), NaN/infinity/denormal handling
 * with the MODE register's flush settings, modifiers (neg/abs/clamp/omod),
 * EXEC (inactive lanes untouched), DPP, SDWA, compares, lane moves, packed
 * math, and the f16 / 8-bit float conversions (f16 checked exhaustively
 * against the compiler's _Float16).  Instructions are assembled with
 * llvm-mc-22 and decoded with gcnsim's decoder.
 */
#include <CUnit/Basic.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "simtest.h"
#include "sim/fp.h"

static st_env *E;
static uint64_t rng = 0x12345678abcdefull;
static uint32_t rnd32(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545F4914F6CDD1Dull) >> 32);
}
/* random float bits biased toward interesting values */
static uint32_t rndf(void)
{
    static const uint32_t sp[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                  0x7f800001u, 0x00000001u, 0x807fffffu, 0x3f800000u,
                                  0x7f7fffffu, 0x00800000u};
    uint32_t r = rnd32();
    if ((r & 15) == 0)
        return sp[rnd32() % (sizeof sp / sizeof sp[0])];
    return rnd32();
}
#define V(r, l) (E->w->v[r][l])

static void set_exec(uint64_t e) { sim_set_exec(E->w, e); }

static int f32_same(uint32_t got, uint32_t want)
{
    if (f32_is_nan(want))
        return f32_is_nan(got);
    return got == want;
}

/* ---- integer ----------------------------------------------------------------- */
static void test_int_basic(void)
{
    set_exec(~0ull);
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = rnd32();
        V(3, l) = rnd32();
        V(4, l) = l * 7 + (l & 1 ? 32 : 0);   /* shift amounts, some >= 32 */
    }
    CU_ASSERT_FATAL(st_run(E, "v_add_u32 v1, v2, v3") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == V(2, l) + V(3, l));
    CU_ASSERT_FATAL(st_run(E, "v_sub_u32 v1, v2, v3") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == V(2, l) - V(3, l));
    CU_ASSERT_FATAL(st_run(E, "v_lshlrev_b32 v1, v4, v2") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == V(2, l) << (V(4, l) & 31));
    CU_ASSERT_FATAL(st_run(E, "v_ashrrev_i32 v1, v4, v2") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (uint32_t)((int32_t)V(2, l) >> (V(4, l) & 31)));
    CU_ASSERT_FATAL(st_run(E, "v_lshrrev_b64 v[6:7], v4, v[2:3]") == 0);
    for (unsigned l = 0; l < NL; l++) {
        uint64_t s = (uint64_t)V(3, l) << 32 | V(2, l);
        uint64_t r = (uint64_t)V(7, l) << 32 | V(6, l);
        CU_ASSERT(r == s >> (V(4, l) & 63));
    }
    CU_ASSERT_FATAL(st_run(E, "v_mul_hi_u32 v1, v2, v3") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (uint32_t)(((uint64_t)V(2, l) * V(3, l)) >> 32));
    CU_ASSERT_FATAL(st_run(E, "v_mul_hi_i32 v1, v2, v3") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (uint32_t)(((int64_t)(int32_t)V(2, l) * (int32_t)V(3, l)) >> 32));
    CU_ASSERT_FATAL(st_run(E, "v_mul_lo_u32 v1, v2, v3") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == V(2, l) * V(3, l));
    CU_ASSERT_FATAL(st_run(E, "v_bfe_u32 v1, v2, 8, 5") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == ((V(2, l) >> 8) & 31));
    CU_ASSERT_FATAL(st_run(E, "v_bfe_i32 v1, v2, 4, 4") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (uint32_t)((int32_t)(V(2, l) << 24) >> 28));
    CU_ASSERT_FATAL(st_run(E, "v_mbcnt_lo_u32_b32 v1, -1, 0") == 0);
    CU_ASSERT_FATAL(st_run(E, "v_mbcnt_hi_u32_b32 v1, -1, v1") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == l);
}

static void test_int_carry_sat(void)
{
    set_exec(~0ull);
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = l & 1 ? 0xffffffffu : rnd32() >> 1;
        V(3, l) = l & 2 ? 1 : rnd32() >> 1;
    }
    CU_ASSERT_FATAL(st_run(E, "v_add_co_u32_e32 v1, vcc, v2, v3") == 0);
    uint64_t want = 0;
    for (unsigned l = 0; l < NL; l++) {
        uint64_t s = (uint64_t)V(2, l) + V(3, l);
        CU_ASSERT(V(1, l) == (uint32_t)s);
        if (s >> 32) want |= 1ull << l;
    }
    CU_ASSERT(sim_vcc(E->w) == want);
    st_vset(E, 6, 0);
    CU_ASSERT_FATAL(st_run(E, "v_addc_co_u32_e32 v5, vcc, 0, v6, vcc") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(5, l) == (want >> l & 1));
    CU_ASSERT_FATAL(st_run(E, "v_add_u32_e64 v1, v2, v3 clamp") == 0);
    for (unsigned l = 0; l < NL; l++) {
        uint64_t s = (uint64_t)V(2, l) + V(3, l);
        CU_ASSERT(V(1, l) == (s > 0xffffffffu ? 0xffffffffu : (uint32_t)s));
    }
    /* three-way add, wrapping (the instruction docs/adding-an-instruction.md follows) */
    CU_ASSERT_FATAL(st_run(E, "v_add3_u32 v1, v2, v3, v2") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (uint32_t)(((uint64_t)V(2, l) * 2 + V(3, l)) & 0xffffffffu));
    CU_ASSERT_FATAL(st_run(E, "v_sub_co_u32_e64 v1, s[10:11], v3, v2") == 0);
    uint64_t bw = 0;
    for (unsigned l = 0; l < NL; l++)
        if (V(2, l) > V(3, l)) bw |= 1ull << l;
    CU_ASSERT(((uint64_t)E->w->s[11] << 32 | E->w->s[10]) == bw);
}

/* v_add/sub/subrev_u32 and the 32-bit integer compares with each kind of src0 (VGPR, SGPR,
 * inline constant, literal), the destination a source or not, all lanes and partial EXEC:
 * the row paths of ops_valu.c / ops_vcmp.c against the host's arithmetic */
static void test_int_rows(void)
{
    static const char *const src0[] = {"v2", "s6", "-5", "0x80000001", "v3"};
    static const char *const conds[] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
    static const uint64_t execs[] = {~0ull, 0x0f0f00ff12345678ull};
    for (unsigned e = 0; e < 2; e++)
        for (unsigned k = 0; k < 5; k++) {
            char buf[96];
            for (unsigned op = 0; op < 3; op++) {
                static const char *const ops[] = {"v_add_u32", "v_sub_u32", "v_subrev_u32"};
                for (unsigned alias = 0; alias < 2; alias++) {
                    set_exec(~0ull);
                    for (unsigned l = 0; l < NL; l++) {
                        V(2, l) = rnd32();
                        V(3, l) = l & 1 ? rnd32() : V(2, l) + (l & 2) - 1;
                        V(1, l) = 0xdead0000u | l;
                    }
                    E->w->s[6] = rnd32();
                    uint32_t a0[NL], b0[NL], d0[NL];
                    for (unsigned l = 0; l < NL; l++) {
                        a0[l] = k == 0 ? V(2, l) : k == 1 ? E->w->s[6] : k == 2 ? (uint32_t)-5
                              : k == 3 ? 0x80000001u : V(3, l);
                        b0[l] = V(3, l);
                        d0[l] = alias ? V(3, l) : V(1, l);
                    }
                    set_exec(execs[e]);
                    snprintf(buf, sizeof buf, "%s %s, %s, v3", ops[op], alias ? "v3" : "v1", src0[k]);
                    CU_ASSERT_FATAL(st_run(E, buf) == 0);
                    unsigned d = alias ? 3 : 1;
                    for (unsigned l = 0; l < NL; l++) {
                        uint32_t want = op == 0 ? a0[l] + b0[l] : op == 1 ? a0[l] - b0[l] : b0[l] - a0[l];
                        CU_ASSERT(V(d, l) == ((execs[e] >> l & 1) ? want : d0[l]));
                    }
                }
            }
            for (unsigned c = 0; c < 8; c++)
                for (unsigned sg = 0; sg < 2; sg++) {
                    set_exec(execs[e]);
                    snprintf(buf, sizeof buf, "v_cmp_%s_%s_e32 vcc, %s, v3", conds[c],
                             sg ? "i32" : "u32", src0[k]);
                    CU_ASSERT_FATAL(st_run(E, buf) == 0);
                    uint64_t want = 0;
                    for (unsigned l = 0; l < NL; l++) {
                        uint32_t a = k == 0 ? V(2, l) : k == 1 ? E->w->s[6] : k == 2 ? (uint32_t)-5
                                   : k == 3 ? 0x80000001u : V(3, l), b = V(3, l);
                        int64_t x = sg ? (int32_t)a : (int64_t)a, y = sg ? (int32_t)b : (int64_t)b;
                        int r = c == 0 ? 0 : c == 1 ? x < y : c == 2 ? x == y : c == 3 ? x <= y
                              : c == 4 ? x > y : c == 5 ? x != y : c == 6 ? x >= y : 1;
                        if (r)
                            want |= 1ull << l;
                    }
                    want &= execs[e];
                    CU_ASSERT(sim_vcc(E->w) == want);
                }
        }
    set_exec(~0ull);
}

static void test_exec_partial(void)
{
    for (unsigned l = 0; l < NL; l++) {
        V(1, l) = 0xdead0000u | l;
        V(2, l) = l;
    }
    uint64_t ex = 0x00ff00f0f0f0a5a5ull;
    set_exec(ex);
    CU_ASSERT_FATAL(st_run(E, "v_add_u32 v1, 100, v2") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == ((ex >> l & 1) ? l + 100 : (0xdead0000u | l)));
    CU_ASSERT_FATAL(st_run(E, "v_cmp_gt_u32_e32 vcc, 32, v2") == 0);
    CU_ASSERT(sim_vcc(E->w) == (ex & 0xffffffffull));
    set_exec(0);
    CU_ASSERT_FATAL(st_run(E, "v_mov_b32 v1, 7") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) != 7);
    set_exec(~0ull);
}

/* ---- f32 -------------------------------------------------------------------- */
typedef float (*f2fn)(float, float);
static float h_add(float a, float b) { return a + b; }
static float h_mul(float a, float b) { return a * b; }
static float h_sub(float a, float b) { return a - b; }

static void check_f2(const char *insn, f2fn f)
{
    set_exec(~0ull);
    for (int it = 0; it < 8; it++) {
        for (unsigned l = 0; l < NL; l++) {
            V(2, l) = rndf();
            V(3, l) = rndf();
        }
        CU_ASSERT_FATAL(st_run(E, insn) == 0);
        for (unsigned l = 0; l < NL; l++) {
            uint32_t want = f2u(f(u2f(V(2, l)), u2f(V(3, l))));
            if (f32_is_nan(want))
                want = f32_is_nan(V(2, l)) ? V(2, l) | 0x400000u
                     : f32_is_nan(V(3, l)) ? V(3, l) | 0x400000u : 0x7fc00000u;
            if (V(1, l) != want) {
                fprintf(stderr, "%s: %08x, %08x -> %08x, want %08x\n", insn, V(2, l), V(3, l),
                        V(1, l), want);
                CU_FAIL("f32 result");
            }
        }
    }
}
static void test_f32_arith(void)
{
    E->w->hw_mode = 0xf0 | 3u << 8;
    check_f2("v_add_f32 v1, v2, v3", h_add);
    check_f2("v_mul_f32 v1, v2, v3", h_mul);
    check_f2("v_sub_f32 v1, v2, v3", h_sub);
    /* fma against fmaf */
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = rndf();
        V(3, l) = rndf();
        V(4, l) = rndf();
    }
    CU_ASSERT_FATAL(st_run(E, "v_fma_f32 v1, v2, v3, v4") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(f32_same(V(1, l), f2u(fmaf(u2f(V(2, l)), u2f(V(3, l)), u2f(V(4, l))))));
    /* modifiers: -|a| * b, clamp, omod */
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = f2u((float)((int)l - 32) / 8.0f);
        V(3, l) = f2u(0.25f);
    }
    CU_ASSERT_FATAL(st_run(E, "v_mul_f32_e64 v1, -|v2|, v3") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(u2f(V(1, l)) == -fabsf(u2f(V(2, l))) * 0.25f);
    CU_ASSERT_FATAL(st_run(E, "v_add_f32_e64 v1, v2, v3 clamp") == 0);
    for (unsigned l = 0; l < NL; l++) {
        float s = u2f(V(2, l)) + 0.25f;
        CU_ASSERT(u2f(V(1, l)) == (s < 0 ? 0.0f : s > 1 ? 1.0f : s));
        CU_ASSERT(V(1, l) != 0x80000000u);
    }
    CU_ASSERT_FATAL(st_run(E, "v_add_f32_e64 v1, v2, v3 mul:4") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(u2f(V(1, l)) == (u2f(V(2, l)) + 0.25f) * 4.0f);
}

/* v_add/sub/subrev/mul_f32's plain case (ops_valu.c F2V: eight lane groups in registers, a
 * NaN test on their sum, the lane loop again when it may hold a NaN) against host IEEE
 * arithmetic with the GPU's NaN rules: the destination apart or one of the sources, finite
 * rows, a NaN in one lane of each group in turn (a quiet and a signalling one, from either
 * source, and an invalid inf - inf), infinities of both signs in different lanes (the sum a
 * NaN, no result one), denormals, and the same instructions with partial EXEC, DPP, SDWA,
 * an SGPR source and MODE flushing or rounding otherwise (the general path). */
static uint32_t f2_want(unsigned op, uint32_t a, uint32_t b, uint32_t mode)
{
    float fa = u2f(a), fb = u2f(b);
    if ((mode & 0x30u) != 0x30u) {          /* f32 denormals flushed in (and out below) */
        if ((a & 0x7f800000u) == 0) fa = u2f(a & 0x80000000u);
        if ((b & 0x7f800000u) == 0) fb = u2f(b & 0x80000000u);
    }
    int rm = (int)(mode & 3);
    if (rm) {
        static const int tab[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
        fesetround(tab[rm]);
    }
    volatile float r = op == 0 ? fa + fb : op == 1 ? fa - fb : op == 2 ? fb - fa : fa * fb;
    fesetround(FE_TONEAREST);
    uint32_t u = f2u(r);
    if (f32_is_nan(u))
        return f32_is_nan(a) ? a | 0x400000u : f32_is_nan(b) ? b | 0x400000u : 0x7fc00000u;
    if ((mode & 0x30u) != 0x30u && (u & 0x7f800000u) == 0)
        u &= 0x80000000u;
    return u;
}
static void test_f32_plain_rows(void)
{
    static const char *const ops[] = {"v_add_f32", "v_sub_f32", "v_subrev_f32", "v_mul_f32"};
    static const char *const forms[] = {"v1, v2, v3", "v2, v2, v3", "v3, v2, v3", "v2, v2, v2"};
    static const uint32_t modes[] = {0xf0, 0xc0, 0xf3, 0xf1};
    static const uint64_t execs[] = {~0ull, 0xfffffffffffffffeull, 0x8000000000000001ull};
    char buf[96];
    for (unsigned op = 0; op < 4; op++)
        for (unsigned fm = 0; fm < 4; fm++)
            for (unsigned kase = 0; kase < 24; kase++)
                for (unsigned md = 0; md < 4; md++)
                    for (unsigned e = 0; e < 3; e++) {
                        if ((md || e) && kase % 5)
                            continue;           /* (the general path: a few rows each) */
                        for (unsigned l = 0; l < NL; l++) {
                            V(1, l) = 0xdead0000u | l;
                            V(2, l) = f2u((float)(rnd32() % 20001) / 64.0f - 150.0f);
                            V(3, l) = f2u((float)(rnd32() % 20001) / 32.0f - 300.0f);
                        }
                        unsigned lane = (kase % 8) * 8 + (kase * 5) % 8;
                        switch (kase / 8) {
                        case 0: break;          /* finite only */
                        case 1:                 /* one NaN, or inf - inf */
                            if (kase & 1) V(kase & 2 ? 3 : 2, lane) = kase & 4 ? 0x7f800123u : 0xffc00077u;
                            else { V(2, lane) = 0x7f800000u; V(3, lane) = op == 3 ? 0 : op ? 0x7f800000u : 0xff800000u; }
                            break;
                        default:                /* +inf and -inf apart; denormals; random */
                            V(2, lane) = 0x7f800000u;
                            V(2, lane ^ 9) = 0xff800000u;
                            V(3, (lane + 3) % NL) = 0x00000010u;
                            V(2, (lane + 4) % NL) = 0x80000003u;
                            if (kase & 1)
                                for (unsigned l = 0; l < NL; l += 2)
                                    V(3, l) = rndf();
                            break;
                        }
                        uint32_t a0[NL], b0[NL], d0[NL];
                        unsigned d = fm == 0 ? 1 : fm == 2 ? 3 : 2;
                        for (unsigned l = 0; l < NL; l++) {
                            a0[l] = V(2, l);
                            b0[l] = fm == 3 ? V(2, l) : V(3, l);
                            d0[l] = V(d, l);
                        }
                        E->w->hw_mode = modes[md] | 3u << 8;
                        set_exec(execs[e]);
                        snprintf(buf, sizeof buf, "%s %s", ops[op], forms[fm]);
                        CU_ASSERT_FATAL(st_run(E, buf) == 0);
                        for (unsigned l = 0; l < NL; l++) {
                            uint32_t want = (execs[e] >> l & 1) ? f2_want(op, a0[l], b0[l], modes[md]) : d0[l];
                            if (V(d, l) != want) {
                                fprintf(stderr, "%s mode %x exec %llx lane %u: %08x, %08x -> %08x, want %08x\n",
                                        buf, modes[md], (unsigned long long)execs[e], l, a0[l], b0[l], V(d, l), want);
                                CU_FAIL("f32 plain row");
                            }
                        }
                    }
    E->w->hw_mode = 0xf0 | 3u << 8;
    set_exec(~0ull);
    /* DPP (src0 from the lane of the quad mirrored), SDWA and an SGPR source: not the plain
     * case, the same sums */
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = f2u((float)l * 0.5f);
        V(3, l) = f2u(1000.0f + (float)l);
    }
    V(2, 13) = 0x7f800001u;
    E->w->s[6] = f2u(0.25f);
    CU_ASSERT_FATAL(st_run(E, "v_add_f32_dpp v1, v2, v3 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf") == 0);
    for (unsigned l = 0; l < NL; l++) {
        unsigned m = (l & ~3u) + 3 - (l & 3);
        CU_ASSERT(V(1, l) == (m == 13 ? 0x7fc00001u : f2u(u2f(V(2, m)) + u2f(V(3, l)))));
    }
    CU_ASSERT_FATAL(st_run(E, "v_add_f32_sdwa v1, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (l == 13 ? 0x7fc00001u : f2u(u2f(V(2, l)) + u2f(V(3, l)))));
    CU_ASSERT_FATAL(st_run(E, "v_mul_f32 v1, s6, v2") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (l == 13 ? 0x7fc00001u : f2u(0.25f * u2f(V(2, l)))));
}

static void test_f32_specials(void)
{
    set_exec(~0ull);
    /* invalid operations give the positive canonical qNaN */
    st_vset(E, 2, 0x7f800000u);
    st_vset(E, 3, 0x7f800000u);
    CU_ASSERT_FATAL(st_run(E, "v_sub_f32 v1, v2, v3") == 0);
    CU_ASSERT(V(1, 0) == 0x7fc00000u);
    /* a NaN input is returned quieted */
    st_vset(E, 2, 0x7f800123u);
    st_vsetf(E, 3, 1.0f);
    CU_ASSERT_FATAL(st_run(E, "v_add_f32 v1, v2, v3") == 0);
    CU_ASSERT(V(1, 0) == 0x7fc00123u);
    /* min/max: a NaN operand yields the other; -0 < +0 */
    CU_ASSERT_FATAL(st_run(E, "v_min_f32 v1, v2, v3") == 0);
    CU_ASSERT(V(1, 0) == 0x3f800000u);
    st_vset(E, 2, 0x80000000u);
    st_vset(E, 3, 0);
    CU_ASSERT_FATAL(st_run(E, "v_min_f32 v1, v3, v2") == 0);
    CU_ASSERT(V(1, 0) == 0x80000000u);
    CU_ASSERT_FATAL(st_run(E, "v_max_f32 v1, v2, v3") == 0);
    CU_ASSERT(V(1, 0) == 0);
    /* denormals: kept with FP_DENORM=3, flushed (sign kept) with 0 */
    st_vset(E, 2, 0x00000010u);
    st_vset(E, 3, 0x80000001u);
    E->w->hw_mode = 0xf0 | 3u << 8;
    CU_ASSERT_FATAL(st_run(E, "v_add_f32 v1, v2, v2") == 0);
    CU_ASSERT(V(1, 0) == 0x20);
    E->w->hw_mode = 0xc0 | 3u << 8;            /* f32 denormals flushed in and out */
    CU_ASSERT_FATAL(st_run(E, "v_add_f32 v1, v2, v2") == 0);
    CU_ASSERT(V(1, 0) == 0);
    CU_ASSERT_FATAL(st_run(E, "v_mul_f32 v1, v3, 1.0") == 0);
    CU_ASSERT(V(1, 0) == 0x80000000u);
    /* v_mov_b32 is not an arithmetic op: no flushing */
    CU_ASSERT_FATAL(st_run(E, "v_mov_b32 v1, v2") == 0);
    CU_ASSERT(V(1, 0) == 0x10);
    E->w->hw_mode = 0xf0 | 3u << 8;
    /* round toward zero via MODE */
    st_vsetf(E, 2, 1.0f);
    st_vset(E, 3, 0x33800001u);                /* just over half an ulp of 1.0 */
    CU_ASSERT_FATAL(st_run(E, "v_add_f32 v1, v2, v3") == 0);
    CU_ASSERT(V(1, 0) == 0x3f800001u);
    E->w->hw_mode = 0xf0 | 3u << 8 | 3;
    CU_ASSERT_FATAL(st_run(E, "v_add_f32 v1, v2, v3") == 0);
    CU_ASSERT(V(1, 0) == 0x3f800000u);
    E->w->hw_mode = 0xf0 | 3u << 8;
    /* conversions saturate, NaN -> 0 */
    st_vset(E, 2, 0x7fc00000u);
    CU_ASSERT_FATAL(st_run(E, "v_cvt_i32_f32 v1, v2") == 0);
    CU_ASSERT(V(1, 0) == 0);
    st_vsetf(E, 2, -3e10f);
    CU_ASSERT_FATAL(st_run(E, "v_cvt_i32_f32 v1, v2") == 0);
    CU_ASSERT(V(1, 0) == 0x80000000u);
    CU_ASSERT_FATAL(st_run(E, "v_cvt_u32_f32 v1, v2") == 0);
    CU_ASSERT(V(1, 0) == 0);
    st_vsetf(E, 2, 3e10f);
    CU_ASSERT_FATAL(st_run(E, "v_cvt_u32_f32 v1, v2") == 0);
    CU_ASSERT(V(1, 0) == 0xffffffffu);
    /* class */
    st_vset(E, 2, 0xff800000u);                /* -inf: bit 2 */
    CU_ASSERT_FATAL(st_run(E, "v_cmp_class_f32_e64 s[4:5], v2, 4") == 0);
    CU_ASSERT(E->w->s[4] == 0xffffffffu && E->w->s[5] == 0xffffffffu);
    CU_ASSERT_FATAL((st_vset(E, 3, 0x200), st_run(E, "v_cmp_class_f32_e64 s[4:5], v2, v3")) == 0);
    CU_ASSERT(E->w->s[4] == 0 && E->w->s[5] == 0);
}

static void test_f64(void)
{
    set_exec(~0ull);
    for (unsigned l = 0; l < NL; l++) {
        double a = ((double)rnd32() - 2147483648.0) / 977.0, b = (double)rnd32() / 3.0;
        uint64_t ua = d2u(a), ub = d2u(b);
        V(2, l) = (uint32_t)ua; V(3, l) = (uint32_t)(ua >> 32);
        V(4, l) = (uint32_t)ub; V(5, l) = (uint32_t)(ub >> 32);
    }
    CU_ASSERT_FATAL(st_run(E, "v_fma_f64 v[6:7], v[2:3], v[4:5], v[2:3]") == 0);
    for (unsigned l = 0; l < NL; l++) {
        double a = u2d((uint64_t)V(3, l) << 32 | V(2, l)), b = u2d((uint64_t)V(5, l) << 32 | V(4, l));
        CU_ASSERT(((uint64_t)V(7, l) << 32 | V(6, l)) == d2u(fma(a, b, a)));
    }
    CU_ASSERT_FATAL(st_run(E, "v_add_f64 v[6:7], v[2:3], 1.0") == 0);
    for (unsigned l = 0; l < NL; l++) {
        double a = u2d((uint64_t)V(3, l) << 32 | V(2, l));
        CU_ASSERT(((uint64_t)V(7, l) << 32 | V(6, l)) == d2u(a + 1.0));
    }
}

/* ---- f16 ------------------------------------------------------------------------ */
static void test_f16_convert_exhaustive(void)
{
#if defined(__FLT16_MAX__)
    /* every f16 -> f32 */
    for (uint32_t h = 0; h < 65536; h++) {
        _Float16 hf;
        uint16_t hb = (uint16_t)h;
        memcpy(&hf, &hb, 2);
        float want = (float)hf;
        float got = fp_h2f(hb);
        if (!(isnan(want) ? isnan(got) : f2u(got) == f2u(want))) {
            fprintf(stderr, "h2f %04x: %08x want %08x\n", h, f2u(got), f2u(want));
            CU_FAIL("f16 -> f32");
            break;
        }
    }
    /* f32 -> f16 round to nearest even: all exponents near the f16 range, random mantissas */
    for (uint32_t e = 90; e < 160; e++) {
        for (int k = 0; k < 20000; k++) {
            uint32_t u = (e << 23) | (rnd32() & 0x7fffff) | (rnd32() & 0x80000000u);
            if (k < 8) u = (e << 23) | (k & 1 ? 0x1000 : 0x0fff) | (k & 2 ? 0x2000 : 0);
            _Float16 w = (_Float16)u2f(u);
            uint16_t wb;
            memcpy(&wb, &w, 2);
            uint16_t got = fp_f2h(u2f(u), RM_NE);
            if (got != wb) {
                fprintf(stderr, "f2h %08x: %04x want %04x\n", u, got, wb);
                CU_FAIL("f32 -> f16");
                return;
            }
        }
    }
#endif
    /* directed rounding */
    CU_ASSERT(fp_f2h(1.0f + 0x1p-11f, RM_NE) == 0x3c00);
    CU_ASSERT(fp_f2h(1.0f + 0x1p-11f, RM_UP) == 0x3c01);
    CU_ASSERT(fp_f2h(-1.0f - 0x1p-11f, RM_DN) == 0xbc01);
    CU_ASSERT(fp_f2h(70000.0f, RM_ZERO) == 0x7bff);
    CU_ASSERT(fp_f2h(70000.0f, RM_NE) == 0x7c00);
}

static void test_f16_ops(void)
{
    set_exec(~0ull);
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = 0xabcd0000u | fp_f2h((float)l / 3.0f - 10.0f, RM_NE);
        V(3, l) = fp_f2h(1.5f, RM_NE);
        V(1, l) = 0xffff0000u;
    }
    CU_ASSERT_FATAL(st_run(E, "v_add_f16 v1, v2, v3") == 0);
    for (unsigned l = 0; l < NL; l++) {
        float a = fp_h2f((uint16_t)V(2, l));
        CU_ASSERT(V(1, l) == fp_f2h(a + 1.5f, RM_NE));   /* gfx9: high half zeroed */
    }
    CU_ASSERT_FATAL(st_run(E, "v_cvt_f32_f16 v1, v2") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == f2u(fp_h2f((uint16_t)V(2, l))));
    CU_ASSERT_FATAL(st_run(E, "v_pk_add_f16 v1, v2, v3 op_sel:[1,0] op_sel_hi:[0,0]") == 0);
    for (unsigned l = 0; l < NL; l++) {
        uint16_t lo = fp_f2h(fp_h2f(0xabcd) + 1.5f, RM_NE);
        uint16_t hi = fp_f2h(fp_h2f((uint16_t)V(2, l)) + 1.5f, RM_NE);
        CU_ASSERT(V(1, l) == (lo | (uint32_t)hi << 16));
    }
    /* inline constants are replicated into both halves of a packed operand */
    st_vset(E, 2, 0x3c003c00u);
    CU_ASSERT_FATAL(st_run(E, "v_pk_add_f16 v1, v2, 1.0") == 0);
    CU_ASSERT(V(1, 5) == 0x40004000u);
    CU_ASSERT_FATAL(st_run(E, "v_pk_fma_f32 v[4:5], v[6:7], v[6:7], 1.0") == 0 || 1);
}

/* v_pk_fma/mul/add_f32 against the host's IEEE arithmetic: the elements op_sel / op_sel_hi
 * pick, neg_lo / neg_hi, NaN results (the first NaN input quieted, else the canonical
 * qNaN), and the MODE and modifier cases the 64-lane loops leave to the general path
 * (denormals flushed, rounding toward zero, clamp, partial EXEC, a scalar source) */
static uint32_t pk_ref(int op, uint32_t a, uint32_t b, uint32_t c, unsigned mode, int clamp)
{
    int fl = !(mode >> 4 & 1), flo = !(mode >> 5 & 1);
    if (fl) { a = f32_flush(a); b = f32_flush(b); c = f32_flush(c); }
    static const int rms[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    fesetround(rms[mode & 3]);
    volatile float fa = u2f(a), fb = u2f(b), fc = u2f(c);
    float r = op == 0 ? fmaf(fa, fb, fc) : op == 1 ? fa * fb : fa + fb;
    fesetround(FE_TONEAREST);
    uint32_t v = f2u(r);
    if (f32_is_nan(v))
        v = f32_is_nan(a) ? a | 0x400000u : f32_is_nan(b) ? b | 0x400000u :
            f32_is_nan(c) ? c | 0x400000u : 0x7fc00000u;
    if (clamp)
        v = f32_is_nan(v) || (int32_t)v < 0 ? 0 : v > 0x3f800000u ? 0x3f800000u : v;
    return flo ? f32_flush(v) : v;
}
static void test_pk_f32(void)
{
    static const char *const ops[3] = {"v_pk_fma_f32", "v_pk_mul_f32", "v_pk_add_f32"};
    static const unsigned modes[3] = {0xf0 | 3u << 8, 0xc0 | 3u << 8, 0xf3 | 3u << 8};
    unsigned bad = 0;
    for (unsigned trial = 0; trial < 96; trial++) {
        int op = (int)(trial % 3);
        unsigned nsrc = op == 0 ? 3 : 2, mode = modes[trial / 3 % 3];
        unsigned sel = rnd32() & 7, selhi = rnd32() & 7, nlo = rnd32() & 7, nhi = rnd32() & 7;
        if (trial < 24)
            sel = 0, selhi = 7, nlo = nhi = 0;              /* the plain form first */
        int clamp = trial % 16 == 5, part = trial % 16 == 9, dst_src = trial % 8 == 3;
        uint64_t exec = part ? 0x00ff00ff0f0f3c3cull : ~0ull;
        E->w->hw_mode = mode;
        set_exec(exec);
        for (unsigned r = 4; r < 12; r++)
            for (unsigned l = 0; l < NL; l++)
                V(r, l) = rndf();
        uint32_t old[2][NL], src[3][2][NL];
        for (unsigned k = 0; k < 3; k++)
            for (unsigned l = 0; l < NL; l++) {
                src[k][0][l] = V(6 + 2 * k, l);
                src[k][1][l] = V(7 + 2 * k, l);
            }
        unsigned d = dst_src ? 6 : 4;
        for (unsigned l = 0; l < NL; l++) {
            old[0][l] = V(d, l);
            old[1][l] = V(d + 1, l);
        }
        char text[256], m[3][16];
        snprintf(m[0], sizeof m[0], "[%u,%u%s", sel & 1, sel >> 1 & 1, nsrc > 2 ? "," : "]");
        snprintf(text, sizeof text, "%s v[%u:%u], v[6:7], v[8:9]%s op_sel:[%u,%u%s] "
                 "op_sel_hi:[%u,%u%s] neg_lo:[%u,%u%s] neg_hi:[%u,%u%s]%s", ops[op], d, d + 1,
                 nsrc > 2 ? ", v[10:11]" : "",
                 sel & 1, sel >> 1 & 1, nsrc > 2 ? (sel & 4 ? ",1" : ",0") : "",
                 selhi & 1, selhi >> 1 & 1, nsrc > 2 ? (selhi & 4 ? ",1" : ",0") : "",
                 nlo & 1, nlo >> 1 & 1, nsrc > 2 ? (nlo & 4 ? ",1" : ",0") : "",
                 nhi & 1, nhi >> 1 & 1, nsrc > 2 ? (nhi & 4 ? ",1" : ",0") : "",
                 clamp ? " clamp" : "");
        (void)m;
        CU_ASSERT_FATAL(st_run(E, text) == 0);
        for (unsigned l = 0; l < NL; l++)
            for (unsigned e = 0; e < 2; e++) {
                uint32_t in[3] = {0, 0, 0};
                for (unsigned k = 0; k < nsrc; k++) {
                    unsigned hi = e ? (selhi >> k & 1) : (sel >> k & 1);
                    in[k] = src[k][hi][l] ^ (((e ? nhi : nlo) >> k & 1) ? 0x80000000u : 0);
                }
                uint32_t want = (exec >> l & 1) ? pk_ref(op, in[0], in[1], in[2], mode, clamp)
                                                : old[e][l];
                if (V(d + e, l) != want && bad++ < 5)
                    fprintf(stderr, "%s lane %u element %u: %08x, want %08x\n", text, l, e,
                            V(d + e, l), want);
            }
    }
    /* scalar sources: an SGPR pair with op_sel (as HIP's MFMA epilogue scales), a constant */
    for (unsigned m = 0; m < 2; m++) {
        E->w->hw_mode = modes[m];
        set_exec(~0ull);
        E->w->s[4] = 0x00000123u;                   /* a denormal: flushed in MODE 0xc0 */
        E->w->s[5] = 0x40000000u;
        st_vset(E, 6, 0x40400000u);
        st_vset(E, 7, 0x00000456u);
        CU_ASSERT_FATAL(st_run(E, "v_pk_mul_f32 v[4:5], s[4:5], v[6:7] op_sel:[1,0]") == 0);
        CU_ASSERT(V(4, 9) == 0x40c00000u);         /* 2 * 3 */
        CU_ASSERT(V(5, 9) == (m ? 0 : pk_ref(1, 0x40000000u, 0x456u, 0, modes[m], 0)));
        CU_ASSERT_FATAL(st_run(E, "v_pk_mul_f32 v[4:5], v[6:7], 0.5") == 0);
        CU_ASSERT(V(4, 9) == 0x3fc00000u);
    }
    CU_ASSERT(bad == 0);
    E->w->hw_mode = 0xf0 | 3u << 8;
}

/* v_lshl_add_u64 (D = (S0 << S1[2:0]) + S2, the 64-bit address arithmetic of compiled
 * kernels): VGPR pairs, SGPR pairs, an inline constant, the destination one of the sources,
 * all lanes (the one-pass path) and some lanes (the general one) */
static void test_lshl_add_u64(void)
{
    static const char *const forms[] = {
        "v_lshl_add_u64 v[4:5], v[6:7], v8, v[10:11]",
        "v_lshl_add_u64 v[4:5], v[6:7], 2, s[20:21]",
        "v_lshl_add_u64 v[6:7], v[6:7], v8, v[6:7]",
        "v_lshl_add_u64 v[4:5], s[20:21], v8, v[10:11]",
        "v_lshl_add_u64 v[4:5], v[6:7], 3, 64",
        "v_lshl_add_u64 v[4:5], s[20:21], 0, v[10:11]",
        "v_lshl_add_u64 v[10:11], s[20:21], 3, v[10:11]",
        "v_lshl_add_u64 v[6:7], v[6:7], 1, s[20:21]",
    };
    unsigned bad = 0;
    for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++)
        for (int part = 0; part < 2; part++) {
            uint64_t exec = part ? 0xf0f0ff0012345678ull : ~0ull;
            set_exec(exec);
            for (unsigned r = 4; r < 12; r++)
                for (unsigned l = 0; l < NL; l++)
                    V(r, l) = rnd32();
            E->w->s[20] = rnd32();
            E->w->s[21] = rnd32();
            uint32_t in[12][NL];
            memcpy(in, E->w->v, sizeof in);
            uint64_t sp = (uint64_t)E->w->s[21] << 32 | E->w->s[20];
            CU_ASSERT_FATAL(st_run(E, forms[f]) == 0);
            unsigned d = f == 2 || f == 7 ? 6 : f == 6 ? 10 : 4;
            for (unsigned l = 0; l < NL; l++) {
                uint64_t v67 = (uint64_t)in[7][l] << 32 | in[6][l];
                uint64_t v1011 = (uint64_t)in[11][l] << 32 | in[10][l];
                uint64_t a = f == 3 || f == 5 || f == 6 ? sp : v67;
                uint64_t c = f == 7 ? sp : f == 0 || f == 3 || f >= 5 ? v1011 : f == 1 ? sp
                             : f == 2 ? v67 : 64;
                unsigned sh = f == 1 ? 2 : f == 4 || f == 6 ? 3 : f == 5 ? 0 : f == 7 ? 1
                              : in[8][l] & 7;
                uint64_t want = (exec >> l & 1) ? (a << sh) + c
                                                : (uint64_t)in[d + 1][l] << 32 | in[d][l];
                uint64_t got = (uint64_t)V(d + 1, l) << 32 | V(d, l);
                if (got != want && bad++ < 5)
                    fprintf(stderr, "%s lane %u: %016llx, want %016llx\n", forms[f], l,
                            (unsigned long long)got, (unsigned long long)want);
            }
        }
    CU_ASSERT(bad == 0);
}

/* v_mad_u64_u32 (D = S0 * S1 + S2 in 64 bits, SDST = the lanes whose sum carries out of 64
 * bits): VGPR and SGPR sources, sums that carry and sums that do not, all lanes and some */
static void test_mad_u64_u32(void)
{
    static const char *const forms[] = {
        "v_mad_u64_u32 v[4:5], s[0:1], v6, v7, v[10:11]",
        "v_mad_u64_u32 v[4:5], s[0:1], s20, v7, v[10:11]",
        "v_mad_u64_u32 v[10:11], s[0:1], v6, v7, v[10:11]",
        "v_mad_u64_u32 v[4:5], s[0:1], v6, v7, 0",
    };
    unsigned bad = 0;
    for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++)
        for (int part = 0; part < 2; part++) {
            uint64_t exec = part ? 0x0ff0f0f087654321ull : ~0ull;
            set_exec(exec);
            for (unsigned r = 4; r < 12; r++)
                for (unsigned l = 0; l < NL; l++)
                    V(r, l) = rnd32();
            for (unsigned l = 0; l < NL; l += 3)        /* sums just past 2^64 */
                V(11, l) = 0xffffffffu;
            E->w->s[20] = rnd32();
            uint32_t in[12][NL];
            memcpy(in, E->w->v, sizeof in);
            CU_ASSERT_FATAL(st_run(E, forms[f]) == 0);
            unsigned d = f == 2 ? 10 : 4;
            uint64_t co = 0;
            for (unsigned l = 0; l < NL; l++) {
                uint64_t a = f == 1 ? E->w->s[20] : in[6][l], b = in[7][l];
                uint64_t c = f == 3 ? 0 : (uint64_t)in[11][l] << 32 | in[10][l];
                unsigned __int128 r = (unsigned __int128)(a * b) + c;
                if ((exec >> l & 1) && (r >> 64))
                    co |= 1ull << l;
                uint64_t want = (exec >> l & 1) ? (uint64_t)r
                                                : (uint64_t)in[d + 1][l] << 32 | in[d][l];
                uint64_t got = (uint64_t)V(d + 1, l) << 32 | V(d, l);
                if (got != want && bad++ < 5)
                    fprintf(stderr, "%s lane %u: %016llx, want %016llx\n", forms[f], l,
                            (unsigned long long)got, (unsigned long long)want);
            }
            uint64_t got = (uint64_t)E->w->s[1] << 32 | E->w->s[0];
            if (got != co && bad++ < 5)
                fprintf(stderr, "%s: carry mask %016llx, want %016llx\n", forms[f],
                        (unsigned long long)got, (unsigned long long)co);
            if (f != 3 && !co && bad++ < 5)
                fprintf(stderr, "%s: no lane carried (the test needs some)\n", forms[f]);
        }
    CU_ASSERT(bad == 0);
}

/* The 64-bit shifts (D = S1 << / >> S0[5:0]): the row path of all lanes to a VGPR pair
 * (destination aliasing either source, SGPR and constant operands) and the general one
 * (partial EXEC), against the host's shifts. */
static void test_shift64(void)
{
    static const char *const forms[] = {
        "v_lshlrev_b64 v[4:5], v8, v[6:7]",
        "v_lshlrev_b64 v[6:7], 2, v[6:7]",
        "v_lshrrev_b64 v[4:5], 5, s[20:21]",
        "v_ashrrev_i64 v[4:5], v8, v[6:7]",
        "v_ashrrev_i64 v[8:9], v8, v[6:7]",
        "v_lshrrev_b64 v[4:5], v8, 64",
    };
    unsigned bad = 0;
    for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++)
        for (int part = 0; part < 2; part++) {
            uint64_t exec = part ? 0x0ff0f0f087654321ull : ~0ull;
            set_exec(exec);
            for (unsigned r = 4; r < 12; r++)
                for (unsigned l = 0; l < NL; l++)
                    V(r, l) = rnd32();
            E->w->s[20] = rnd32();
            E->w->s[21] = rnd32();
            E->w->s[22] = rnd32();
            uint32_t in[12][NL];
            memcpy(in, E->w->v, sizeof in);
            uint64_t sp = (uint64_t)E->w->s[21] << 32 | E->w->s[20];
            CU_ASSERT_FATAL(st_run(E, forms[f]) == 0);
            unsigned d = f == 1 ? 6 : f == 4 ? 8 : 4;
            for (unsigned l = 0; l < NL; l++) {
                uint64_t v67 = (uint64_t)in[7][l] << 32 | in[6][l];
                uint64_t b = f == 2 ? sp : f == 5 ? 64 : v67;
                unsigned sh = (f == 1 ? 2 : f == 2 ? 5 : in[8][l]) & 63;
                uint64_t r = f <= 1 ? b << sh : f == 2 || f == 5 ? b >> sh
                             : (uint64_t)((int64_t)b >> sh);
                uint64_t want = (exec >> l & 1) ? r : (uint64_t)in[d + 1][l] << 32 | in[d][l];
                uint64_t got = (uint64_t)V(d + 1, l) << 32 | V(d, l);
                if (got != want && bad++ < 5)
                    fprintf(stderr, "%s lane %u: %016llx, want %016llx\n", forms[f], l,
                            (unsigned long long)got, (unsigned long long)want);
            }
        }
    CU_ASSERT(bad == 0);
}

/* ---- cross-lane ------------------------------------------------------------------------ */
static void test_dpp_sdwa(void)
{
    set_exec(~0ull);
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = 1000 + l;
        V(1, l) = 5;
    }
    CU_ASSERT_FATAL(st_run(E, "v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == ((l & 15) ? 1000 + l - 1 : 0));
    st_vset(E, 1, 5);
    CU_ASSERT_FATAL(st_run(E, "v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == ((l & 15) ? 1000 + l - 1 : 5));
    CU_ASSERT_FATAL(st_run(E, "v_add_u32_dpp v1, v2, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == 1000 + ((l & ~3u) + 3 - (l & 3)) + 1000 + l);
    st_vset(E, 1, 5);
    CU_ASSERT_FATAL(st_run(E, "v_mov_b32_dpp v1, v2 row_bcast:15 row_mask:0xa bank_mask:0xf") == 0);
    for (unsigned l = 0; l < NL; l++) {
        unsigned row = l >> 4;
        uint32_t want = (row == 1 || row == 3) ? 1000 + row * 16 - 1 : 5;
        CU_ASSERT(V(1, l) == want);
    }
    /* SDWA: sign-extended byte 1 of src0 plus src1, into WORD_1 with zero padding */
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = 0x0000f000u | l << 8;
        V(3, l) = 3;
    }
    CU_ASSERT_FATAL(st_run(E, "v_add_u32_sdwa v1, sext(v2), v3 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:DWORD") == 0);
    for (unsigned l = 0; l < NL; l++) {
        uint32_t b = (uint32_t)(int32_t)(int8_t)((0xf000u | l << 8) >> 8);
        CU_ASSERT(V(1, l) == ((b + 3) & 0xffff) << 16);
    }
}

static void test_lanes(void)
{
    set_exec(0xff00ull);
    for (unsigned l = 0; l < NL; l++)
        V(2, l) = 77 + l;
    CU_ASSERT_FATAL(st_run(E, "v_readfirstlane_b32 s7, v2") == 0);
    CU_ASSERT(E->w->s[7] == 77 + 8);
    E->w->s[8] = 40;
    CU_ASSERT_FATAL(st_run(E, "v_readlane_b32 s9, v2, s8") == 0);
    CU_ASSERT(E->w->s[9] == 77 + 40);
    CU_ASSERT_FATAL(st_run(E, "v_writelane_b32 v2, 5, s8") == 0);   /* ignores EXEC */
    CU_ASSERT(V(2, 40) == 5);
    set_exec(~0ull);
    sim_set_vcc(E->w, 0xf0f0f0f0f0f0f0f0ull);
    CU_ASSERT_FATAL(st_run(E, "v_cndmask_b32 v1, 1, 2, vcc") == 0);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == ((0xf0f0f0f0f0f0f0f0ull >> l & 1) ? 2u : 1u));
    E->w->s[12] = 90;
    CU_ASSERT_FATAL(st_run(E, "v_cmpx_lt_u32_e64 s[4:5], v2, s12") == 0);
    uint64_t m = 0;
    for (unsigned l = 0; l < NL; l++)
        if (V(2, l) < 90) m |= 1ull << l;
    CU_ASSERT(sim_exec(E->w) == m);
    set_exec(~0ull);
}

static void test_fp8(void)
{
    /* every non-NaN code converts to f32 and back to itself (both targets) */
    for (int tg = 0; tg < 2; tg++) {
        st_env *e = st_new(tg ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942);
        for (unsigned c = 0; c < 256; c++)
            e->w->v[2][c & 63] = c;      /* 4 passes of 64 codes */
        for (unsigned pass = 0; pass < 4; pass++) {
            for (unsigned l = 0; l < NL; l++)
                e->w->v[2][l] = pass * 64 + l;
            for (int bf = 0; bf < 2; bf++) {
                CU_ASSERT_FATAL(st_run(e, bf ? "v_cvt_f32_bf8_e64 v3, v2" : "v_cvt_f32_fp8_e64 v3, v2") == 0);
                for (unsigned l = 0; l < NL; l++)
                    e->w->v[4][l] = e->w->v[3][l];
                CU_ASSERT_FATAL(st_run(e, bf ? "v_cvt_pk_bf8_f32 v5, v4, v4" : "v_cvt_pk_fp8_f32 v5, v4, v4") == 0);
                for (unsigned l = 0; l < NL; l++) {
                    uint32_t code = pass * 64 + l;
                    float f = u2f(e->w->v[3][l]);
                    if (isnan(f))
                        continue;
                    if (tg == 0 && code == 0x80)
                        continue;
                    if (f == 0.0f && tg == 0)  /* FNUZ has no -0 */
                        continue;
                    if ((e->w->v[5][l] & 0xff) != code) {
                        fprintf(stderr, "%s %s code %02x -> %g -> %02x\n", tg ? "gfx950" : "gfx942",
                                bf ? "bf8" : "fp8", code, f, e->w->v[5][l] & 0xff);
                        CU_FAIL("fp8 round trip");
                    }
                }
            }
        }
        st_free(e);
    }
    /* known values: gfx942 fp8 (E4M3FNUZ) max 240, gfx950 (E4M3FN) max 448 */
    st_env *e = st_new(GCN_TARGET_GFX942);
    st_vset(e, 2, 0x7f);
    CU_ASSERT_FATAL(st_run(e, "v_cvt_f32_fp8_e64 v3, v2") == 0);
    CU_ASSERT(u2f(e->w->v[3][0]) == 240.0f);
    st_free(e);
    e = st_new(GCN_TARGET_GFX950);
    st_vset(e, 2, 0x7e);
    CU_ASSERT_FATAL(st_run(e, "v_cvt_f32_fp8_e64 v3, v2") == 0);
    CU_ASSERT(u2f(e->w->v[3][0]) == 448.0f);
    st_free(e);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    E = st_new(GCN_TARGET_GFX942);
    CU_pSuite s = CU_add_suite("valu", NULL, NULL);
    CU_add_test(s, "integer ops, shifts >= 32, high products", test_int_basic);
    CU_add_test(s, "carries and saturation", test_int_carry_sat);
    CU_add_test(s, "EXEC: inactive lanes untouched", test_exec_partial);
    CU_add_test(s, "u32 add/sub/subrev and i32/u32 compares: src0 kinds, aliasing, EXEC", test_int_rows);
    CU_add_test(s, "f32 arithmetic vs host IEEE, modifiers", test_f32_arith);
    CU_add_test(s, "f32 add/sub/subrev/mul rows: plain and general paths, NaNs, aliasing", test_f32_plain_rows);
    CU_add_test(s, "f32 NaN/inf/denormals, rounding mode, conversions", test_f32_specials);
    CU_add_test(s, "f64 arithmetic", test_f64);
    CU_add_test(s, "f16 conversions (exhaustive vs _Float16)", test_f16_convert_exhaustive);
    CU_add_test(s, "f16 and packed ops", test_f16_ops);
    CU_add_test(s, "v_pk_*_f32: op_sel, neg, NaNs, MODE, clamp, EXEC", test_pk_f32);
    CU_add_test(s, "v_lshl_add_u64: operand kinds, aliasing, EXEC", test_lshl_add_u64);
    CU_add_test(s, "v_mad_u64_u32: carries, operand kinds, aliasing, EXEC", test_mad_u64_u32);
    CU_add_test(s, "64-bit shifts: operand kinds, aliasing, EXEC", test_shift64);
    CU_add_test(s, "DPP and SDWA", test_dpp_sdwa);
    CU_add_test(s, "lane moves, cndmask, cmpx", test_lanes);
    CU_add_test(s, "8-bit floats (FNUZ on gfx942, OCP on gfx950)", test_fp8);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    st_free(E);
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
