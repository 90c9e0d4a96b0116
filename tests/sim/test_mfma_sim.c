/*
 * test_mfma_sim.c -- the matrix-core instructions inside the simulator: MFMA / SMFMAC /
 * gfx950 scaled MFMA bodies (src/sim/ops_mfma.c) executed through the simulator's
 * narrow state interface (an instruction assembled by llvm-mc-22, decoded and
 * pre-decoded, run on a bare wave whose register file is 192 VGPRs + 64 AGPRs), and
 * compared with the C model (gcn_mfma_exec / gcn_mfma_run on copies of the operands):
 *   - A/B/C/D in VGPRs or AGPRs (AGPR aN = row accum_offset + N of the unified file),
 *     inline-constant C (f32, f64, i32), CBSZ/ABID/BLGP, f64 negation, SMFMAC index
 *     and accumulator, gfx950 dense 16-bit / f8f6f4 / scaled forms, D overlapping A;
 *   - only D's rows change, all 64 lanes whatever EXEC is;
 *   - independently of mfma.c: v_mfma_f32_32x32x8_bf16 on small integers placed by the
 *     documented layout (docs/mfma.md) gives the exact integer product;
 *   - an SMFMAC reads its vdst (the tied accumulator): a load pending there is found;
 *   - a lone v_mfma_ld_scale_b32 faults as "not simulated", and the sim's registry
 *     has a body for every other MAI row.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "simtest.h"
#include "sim/gcn_mfma.h"

#define ROWS 256
#define ACCUM 192

static st_env *E942, *E950;
static uint32_t before[ROWS][NL], expect[ROWS][NL];

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Random register contents: each 16-bit half a moderate f16 (|x| in [2^-3, 2^3)), so
 * 16-bit, 32-bit (as the high half's exponent) and 64-bit reads are finite numbers;
 * 8/6/4-bit and integer reads see varied bits. */
static void fill(st_env *e)
{
    for (unsigned r = 0; r < ROWS; r++)
        for (unsigned l = 0; l < NL; l++) {
            uint32_t w = 0;
            for (int h = 0; h < 2; h++) {
                uint32_t x = rnd32();
                uint32_t half = (x & 0x8000) | ((12 + (x >> 16) % 6) << 10) | (x & 0x3ff);
                w |= half << (16 * h);
            }
            e->w->v[r][l] = w;
        }
}

/* Register operand rows of the record's operand `op` (in the saved copy). */
static const uint32_t *rows_of(const gcn_opnd *op)
{
    if (op->kind == GCN_OPND_VGPR)
        return before[op->reg];
    if (op->kind == GCN_OPND_AGPR)
        return before[ACCUM + op->reg];
    return NULL;
}

static uint32_t cbuf[16 * NL];

/* Run one instruction on e (EXEC = exec) and compare with the C model.  cconst: the
 * value of a constant C in every lane (lo, hi words for f64), when src2 is one. */
static void check(st_env *e, const char *text, uint64_t exec, uint32_t clo, uint32_t chi)
{
    CU_ASSERT_FATAL(st_insn(e, text) == 0);
    fill(e);
    sim_set_exec(e->w, exec);
    memcpy(before, e->w->v, sizeof before);
    const gcn_insn *in = &e->si.raw;
    gcn_mfma_info I;
    CU_ASSERT_FATAL(gcn_mfma_info_get(in, e->target, &I, NULL, 0) == 0);
    const gcn_opnd *od = gcn_insn_field(in, GCN_FLD_VDST);
    const gcn_opnd *o0 = gcn_insn_field(in, GCN_FLD_SRC0);
    const gcn_opnd *o1 = gcn_insn_field(in, GCN_FLD_SRC1);
    const gcn_opnd *o2 = gcn_insn_field(in, GCN_FLD_SRC2);
    CU_ASSERT_FATAL(od && o0 && o1 && o2);
    unsigned drow = od->kind == GCN_OPND_AGPR ? ACCUM + od->reg : od->reg;
    const uint32_t *c = rows_of(o2);
    if (!c) {
        for (unsigned r = 0; r < I.regs_c; r++)
            for (unsigned l = 0; l < NL; l++)
                cbuf[r * NL + l] = (r & 1) && I.tc == GCN_MT_F64 ? chi : clo;
        c = cbuf;
    }
    memcpy(expect, before, sizeof expect);
    static uint32_t d[16 * NL];
    if (I.scaled) {
        const gcn_opnd *s0 = gcn_insn_field(in, GCN_FLD_SCALE_SRC0);
        const gcn_opnd *s1 = gcn_insn_field(in, GCN_FLD_SCALE_SRC1);
        CU_ASSERT_FATAL(s0 && s1);
        gcn_mfma_operands ops = {rows_of(o0), rows_of(o1), c, NULL, rows_of(s0), rows_of(s1),
                                 d};
        CU_ASSERT_FATAL(gcn_mfma_run(in, e->target, &ops, NULL, 0) == 0);
    } else if (I.sparse) {
        memcpy(d, before[drow], I.regs_d * NL * 4);
        CU_ASSERT_FATAL(gcn_mfma_exec(in, e->target, rows_of(o0), rows_of(o1), rows_of(o2), d,
                                      ~0ull) == 0);
    } else {
        CU_ASSERT_FATAL(gcn_mfma_exec(in, e->target, rows_of(o0), rows_of(o1), c, d, ~0ull) ==
                        0);
    }
    memcpy(expect[drow], d, I.regs_d * NL * 4);
    if (st_exec(e)) {
        CU_FAIL("the simulator faulted");
        return;
    }
    unsigned bad = 0, changed = 0;
    for (unsigned r = 0; r < ROWS; r++)
        for (unsigned l = 0; l < NL; l++) {
            if (e->w->v[r][l] != expect[r][l] && bad++ < 3)
                printf("\n  %s: row %u lane %u: sim %08x, model %08x", text, r, l,
                       e->w->v[r][l], expect[r][l]);
            if (r >= drow && r < drow + I.regs_d && expect[r][l] != before[r][l])
                changed++;
        }
    CU_ASSERT(bad == 0);
    /* D really was written (most elements change), in every lane */
    CU_ASSERT(changed > I.regs_d * NL / 2);
}

#define ALL ~0ull
#define SOME 0x00ff00ff0000f00full

static void test_gfx942(void)
{
    st_env *e = E942;
    check(e, "v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]", ALL, 0, 0);
    check(e, "v_mfma_f32_32x32x8_f16 v[16:31], v[0:1], v[2:3], v[16:31]", SOME, 0, 0);
    check(e, "v_mfma_f32_32x32x8_f16 a[16:31], a[0:1], a[2:3], a[32:47]", ALL, 0, 0);
    check(e, "v_mfma_f32_16x16x16_f16 a[0:3], a[4:5], a[6:7], 1.0", 0, 0x3f800000u, 0);
    check(e, "v_mfma_f32_16x16x16_bf16 v[8:11], v[0:1], a[6:7], 0", SOME, 0, 0);
    check(e, "v_mfma_f32_4x4x1_16b_f32 v[0:3], v0, v1, v[0:3]", ALL, 0, 0);   /* D over A */
    check(e, "v_mfma_f32_32x32x2_f32 a[0:15], v0, v1, a[0:15] blgp:3", ALL, 0, 0);
    check(e, "v_mfma_f32_32x32x4_2b_bf16 v[32:63], v[0:1], v[2:3], v[32:63] cbsz:1 abid:1 blgp:2",
          ALL, 0, 0);
    check(e, "v_mfma_f32_16x16x4_4b_f16 a[0:15], v[0:1], v[2:3], a[0:15] cbsz:2 abid:3", SOME, 0,
          0);
    check(e, "v_mfma_f64_16x16x4_f64 v[16:23], v[0:1], v[2:3], v[16:23] neg:[1,1,0]", ALL, 0, 0);
    check(e, "v_mfma_f64_4x4x4_4b_f64 a[0:1], v[0:1], v[2:3], 1.0", ALL, 0, 0x3ff00000u);
    check(e, "v_mfma_i32_32x32x16_i8 a[0:15], v[0:1], v[2:3], 7", ALL, 7, 0);
    check(e, "v_mfma_i32_16x16x32_i8 v[4:7], a[0:1], a[2:3], v[4:7]", ALL, 0, 0);
    check(e, "v_mfma_f32_16x16x8_xf32 v[4:7], v[0:1], v[2:3], v[4:7]", ALL, 0, 0);
    check(e, "v_mfma_f32_32x32x16_fp8_bf8 a[0:15], v[0:1], v[2:3], a[0:15]", ALL, 0, 0);
    check(e, "v_smfmac_f32_16x16x32_f16 v[16:19], v[0:1], v[2:5], v6 abid:1", SOME, 0, 0);
    check(e, "v_smfmac_f32_32x32x16_bf16 a[0:15], v[0:1], v[2:5], v6", ALL, 0, 0);
    check(e, "v_smfmac_i32_16x16x64_i8 v[16:19], v[0:1], v[2:5], v6 cbsz:1 abid:0", ALL, 0, 0);
    check(e, "v_smfmac_f32_32x32x32_fp8_fp8 a[16:31], v[0:1], v[2:5], v6 abid:1", ALL, 0, 0);
}

static void test_gfx950(void)
{
    st_env *e = E950;
    check(e, "v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]", ALL, 0, 0);
    check(e, "v_mfma_f32_16x16x32_bf16 a[0:3], v[0:3], v[4:7], a[0:3]", SOME, 0, 0);
    check(e, "v_mfma_f32_16x16x32_f16 v[8:11], a[0:3], v[4:7], 2.0", ALL, 0x40000000u, 0);
    check(e, "v_mfma_f32_32x32x16_bf16 v[16:31], v[0:3], v[4:7], v[16:31]", ALL, 0, 0);
    check(e, "v_mfma_i32_32x32x32_i8 a[0:15], v[0:3], v[4:7], a[0:15]", ALL, 0, 0);
    check(e, "v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:21], v[24:27], v[0:15] cbsz:2 blgp:4", ALL,
          0, 0);
    check(e, "v_mfma_f32_16x16x128_f8f6f4 a[0:3], v[16:23], v[24:31], a[0:3] cbsz:1", ALL, 0, 0);
    check(e, "v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3], v20, v21 "
          "op_sel:[1,0,0] op_sel_hi:[0,1,0]", SOME, 0, 0);
    check(e, "v_mfma_scale_f32_32x32x64_f8f6f4 a[0:15], v[4:11], v[12:19], a[0:15], v20, v21",
          ALL, 0, 0);
    check(e, "v_smfmac_f32_16x16x64_bf16 v[16:19], v[0:3], v[4:11], v12", ALL, 0, 0);
    check(e, "v_smfmac_f32_32x32x64_fp8_bf8 a[0:15], v[0:3], v[4:11], v12", ALL, 0, 0);
    check(e, "v_mfma_f64_16x16x4_f64 a[0:7], v[0:1], v[2:3], a[0:7]", ALL, 0, 0);
}

static uint16_t bf16_of_int(int v)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);   /* small integers: exact */
}

/* Independent of mfma.c: D = A*B + C for small integers, operands placed by the
 * documented v_mfma_f32_32x32x8_bf16 layout: A[i][k] in lane i + 32*(k/4), element k%4
 * of the lane's register pair (16 bits each); B[k][j] in lane j + 32*(k/4) alike;
 * C/D[i][j] in lane j + 32*((i/4)%2), register i%4 + 4*(i/8) (docs/mfma.md). */
static void test_layout_integers(void)
{
    for (int t = 0; t < 2; t++) {
        st_env *e = t ? E950 : E942;
        fill(e);
        int Am[32][8], Bm[8][32], Cm[32][32];
        for (int i = 0; i < 32; i++)
            for (int k = 0; k < 8; k++)
                Am[i][k] = (i * 3 + k * 5) % 7 - 3;
        for (int k = 0; k < 8; k++)
            for (int j = 0; j < 32; j++)
                Bm[k][j] = (k * 11 + j * 2) % 5 - 2;
        for (int i = 0; i < 32; i++)
            for (int j = 0; j < 32; j++)
                Cm[i][j] = i - 2 * j;
        /* A in v[4:5], B in a[6:7], C/D in a[16:31] */
        for (int i = 0; i < 32; i++)
            for (int k = 0; k < 8; k++) {
                uint32_t *w = &e->w->v[4 + (k % 4) / 2][i + 32 * (k / 4)];
                int sh = 16 * (k % 2);
                *w = (*w & ~(0xffffu << sh)) | (uint32_t)bf16_of_int(Am[i][k]) << sh;
            }
        for (int k = 0; k < 8; k++)
            for (int j = 0; j < 32; j++) {
                uint32_t *w = &e->w->v[ACCUM + 6 + (k % 4) / 2][j + 32 * (k / 4)];
                int sh = 16 * (k % 2);
                *w = (*w & ~(0xffffu << sh)) | (uint32_t)bf16_of_int(Bm[k][j]) << sh;
            }
        for (int i = 0; i < 32; i++)
            for (int j = 0; j < 32; j++) {
                float f = (float)Cm[i][j];
                memcpy(&e->w->v[ACCUM + 16 + i % 4 + 4 * (i / 8)][j + 32 * ((i / 4) % 2)], &f, 4);
            }
        sim_set_exec(e->w, 1);
        CU_ASSERT_FATAL(st_run(e, "v_mfma_f32_32x32x8_bf16 a[16:31], v[4:5], a[6:7], a[16:31]") ==
                        0);
        unsigned bad = 0;
        for (int i = 0; i < 32; i++)
            for (int j = 0; j < 32; j++) {
                int want = Cm[i][j];
                for (int k = 0; k < 8; k++)
                    want += Am[i][k] * Bm[k][j];
                float got;
                memcpy(&got, &e->w->v[ACCUM + 16 + i % 4 + 4 * (i / 8)][j + 32 * ((i / 4) % 2)],
                       4);
                if (got != (float)want && bad++ < 3)
                    printf("\n  D[%d][%d] = %g, want %d", i, j, got, want);
            }
        CU_ASSERT(bad == 0);
    }
}

static unsigned nfind(st_env *e, gcn_sim_finding_kind kind)
{
    unsigned n = 0;
    for (unsigned i = 0; i < e->sim->nfinds; i++)
        n += e->sim->finds[i].kind == kind;
    return n;
}

/* An SMFMAC reads its vdst (the accumulator C, tied): a load still pending into it is a
 * read-before-retire finding (prog.c adds vdst to the registers an SMFMAC reads). */
static void test_smfmac_reads_vdst(void)
{
    st_env *e = E942;
    uint64_t a;
    CU_ASSERT_FATAL(gcn_sim_alloc(e->sim, 256, "T", &a) == 0);
    e->w->s[8] = (uint32_t)a;
    e->w->s[9] = (uint32_t)(a >> 32) & 0xffff;
    e->w->s[10] = 256;
    e->w->s[11] = 0x00020000u;
    st_vset(e, 40, 0);
    sim_set_exec(e->w, ~0ull);
    unsigned n0 = nfind(e, GCN_FIND_READ_PENDING);
    CU_ASSERT_FATAL(st_run(e, "buffer_load_dword v17, v40, s[8:11], 0 offen") == 0);
    CU_ASSERT_FATAL(st_run(e, "v_smfmac_f32_16x16x32_f16 v[16:19], v[0:1], v[2:5], v6") == 0);
    CU_ASSERT(nfind(e, GCN_FIND_READ_PENDING) == n0 + 1);
    e->x.i = &e->si;
    sim_waitcnt(&e->x, 0, 0);
}

static void test_ld_scale_alone(void)
{
    st_env *e = E950;
    CU_ASSERT_FATAL(st_insn(e, "v_mfma_ld_scale_b32 v20, v21") == 0);
    CU_ASSERT(e->si.id == GCN_ID_V_MFMA_LD_SCALE_B32);
    CU_ASSERT(st_exec(e) != 0);
    CU_ASSERT(strstr(e->sim->fault, "not simulated") != NULL);
    /* every other MAI row has a body */
    unsigned rows = 0, missing = 0;
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        if (!(gcn_isa_row_of(id)->flags & GCN_F_MFMA))
            continue;
        rows++;
        if (gcn_sim_not_simulated(id)) {
            missing++;
            printf("\n  %s: %s", gcn_isa_row_of(id)->id_name, gcn_sim_not_simulated(id));
        }
    }
    CU_ASSERT(rows == 70);
    CU_ASSERT(missing == 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    E942 = st_new(GCN_TARGET_GFX942);
    E950 = st_new(GCN_TARGET_GFX950);
    if (E942->w->accum != ACCUM || E942->w->nvrows != ROWS) {
        printf("unexpected bare-wave register file\n");
        return 99;
    }
    CU_pSuite s = CU_add_suite("mfma_sim", NULL, NULL);
    CU_add_test(s, "gfx942: MFMA/SMFMAC bodies equal the C model", test_gfx942);
    CU_add_test(s, "gfx950: dense, f8f6f4, scaled, SMFMAC bodies equal the C model", test_gfx950);
    CU_add_test(s, "32x32x8 bf16 on small integers by the documented layout", test_layout_integers);
    CU_add_test(s, "SMFMAC reads its vdst: a pending load there is found", test_smfmac_reads_vdst);
    CU_add_test(s, "lone v_mfma_ld_scale_b32 is not simulated; all MAI rows have bodies",
                test_ld_scale_alone);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    st_free(E942);
    st_free(E950);
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
