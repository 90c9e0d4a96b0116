/*
 * test_mfma_rows.c -- every MAI row of the ISA table on both targets, through the real
 * decoder: an encoding is built for each row (and each f8f6f4 format pair, and the
 * gfx950 128-bit scaled form), decoded with gcn_decode_one, and
 *   - gcn_mfma_info_get must accept it, with A/B/C/D register counts equal to the
 *     decoded operands' (the decoder derives them from LLVM 22, the simulator from the
 *     mnemonic's shape and types);
 *   - gcn_mfma_run must execute it on random register contents, deterministically,
 *     writing exactly regs_d registers, and gcn_mfma_exec must give the same D;
 *   - rows absent on a target must be refused there.
 * Also a few semantic facts that hold whatever the layout: gfx950 scaled MFMA with
 * scales of 2^0 equals the unscaled instruction; scales 2^a, 2^b multiply every D-C by
 * 2^(a+b); ABID[0] = 0 disables the scales; an E8M0 NaN scale gives NaN.
 * Exit 0 or 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcn_decode.h"
#include "sim/gcn_mfma.h"

static unsigned n_ok, n_fail;

#define CHECK(cond, ...) do { \
        if (cond) { n_ok++; } else { \
            if (n_fail++ < 30) { printf("FAIL "); printf(__VA_ARGS__); printf("\n"); } \
        } } while (0)

static uint32_t rnd_state = 12345;
static uint32_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 17;
    rnd_state ^= rnd_state << 5;
    return rnd_state;
}

static uint32_t A[64 * 64], B[64 * 64], C[64 * 64], D[64 * 64], D2[64 * 64], IDX[64],
    SA[64], SB[64];

/* MAI encoding (vop3p.def header): w0 vdst[7:0] cbsz[10:8] abid[14:11] acc_cd[15]
 * op[22:16] 0x1A7[31:23]; w1 src0[8:0] src1[17:9] src2[26:18] acc[28:27] blgp[31:29]. */
static void enc_mai(uint32_t *w, unsigned op, unsigned cbsz, unsigned abid, unsigned blgp)
{
    w[0] = (0x1A7u << 23) | (op << 16) | (abid << 11) | (cbsz << 8) | 0;
    w[1] = (blgp << 29) | ((256u + 128) << 18) | ((256u + 64) << 9) | (256u + 32);
}

static int decode_words(gcn_target t, const uint32_t *w, size_t nw, gcn_insn *in)
{
    gcn_decoder d;
    memset(&d, 0, sizeof d);
    d.target = t;
    uint8_t bytes[16];
    memcpy(bytes, w, nw * 4);
    size_t n = gcn_decode_one(&d, bytes, nw * 4, 0, in);
    return n == nw * 4 && in->id != GCN_ID_INVALID ? 0 : -1;
}

static void fill(uint32_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = rnd();
}

/* fp8/bf8/f16.. random but finite-ish: keep exponents moderate by masking bit 30/6.. */
static void check_row(unsigned id, gcn_target t, const gcn_insn *in)
{
    const char *mn = gcn_isa_row_of(id)->mnem;
    const char *tn = gcn_target_name(t);
    gcn_mfma_info I;
    char err[160];
    if (gcn_mfma_info_get(in, t, &I, err, sizeof err)) {
        CHECK(0, "%s %s cbsz=%u blgp=%u: %s", mn, tn, in->m.cbsz, in->m.blgp, err);
        return;
    }
    const gcn_opnd *vd = gcn_insn_field(in, GCN_FLD_VDST), *s0 = gcn_insn_field(in, GCN_FLD_SRC0),
                   *s1 = gcn_insn_field(in, GCN_FLD_SRC1), *s2 = gcn_insn_field(in, GCN_FLD_SRC2);
    CHECK(vd && s0 && s1 && s2 && vd->nregs == I.regs_d && s0->nregs == I.regs_a &&
          s1->nregs == I.regs_b && s2->nregs == (I.sparse ? 1u : I.regs_c),
          "%s %s cbsz=%u blgp=%u: registers ours D%u A%u B%u C%u, decoder D%u A%u B%u C%u",
          mn, tn, in->m.cbsz, in->m.blgp, I.regs_d, I.regs_a, I.regs_b, I.regs_c,
          vd ? vd->nregs : 0, s0 ? s0->nregs : 0, s1 ? s1->nregs : 0, s2 ? s2->nregs : 0);
    fill(A, sizeof A / 4);
    fill(B, sizeof B / 4);
    fill(C, sizeof C / 4);
    fill(IDX, 64);
    for (unsigned l = 0; l < 64; l++) {
        SA[l] = 0x7f7f7f7f;
        SB[l] = 0x7f7f7f7f;
    }
    memset(D, 0xa5, sizeof D);
    gcn_mfma_operands ops = {A, B, C, IDX, SA, SB, D};
    int rc = gcn_mfma_run(in, t, &ops, err, sizeof err);
    CHECK(rc == 0, "%s %s: run: %s", mn, tn, err);
    int untouched = 1;
    for (size_t i = (size_t)I.regs_d * 64; i < sizeof D / 4; i++)
        untouched &= D[i] == 0xa5a5a5a5u;
    CHECK(untouched, "%s %s: wrote past regs_d", mn, tn);
    memcpy(D2, C, sizeof D2);
    if (!I.scaled) {
        if (I.sparse)
            rc = gcn_mfma_exec(in, t, A, B, IDX, D2, 0);
        else
            rc = gcn_mfma_exec(in, t, A, B, C, D2, 0);
        CHECK(rc == 0 && !memcmp(D, D2, (size_t)I.regs_d * 64 * 4),
              "%s %s: gcn_mfma_exec differs from gcn_mfma_run", mn, tn);
    }
}

/* Scaled-MFMA semantics on gfx950 (layout-independent). */
static void check_scales(unsigned id_mfma, unsigned op_mfma, unsigned op_ld)
{
    const char *mn = gcn_isa_row_of(id_mfma)->mnem;
    uint32_t w[4];
    gcn_insn in, plain;
    /* v_mfma_ld_scale_b32 v64, v65 (src0/src1 VGPRs) + MFMA with ABID=1, fp8 x fp8 */
    w[0] = (0x1A7u << 23) | (op_ld << 16);
    w[1] = ((256u + 65) << 9) | (256u + 64);
    enc_mai(&w[2], op_mfma, 0, 1, 0);
    if (decode_words(GCN_TARGET_GFX950, w, 4, &in)) {
        CHECK(0, "%s: the scaled pair does not decode", mn);
        return;
    }
    enc_mai(w, op_mfma, 0, 0, 0);
    if (decode_words(GCN_TARGET_GFX950, w, 2, &plain)) {
        CHECK(0, "%s: the plain f8f6f4 MFMA does not decode", mn);
        return;
    }
    gcn_mfma_info I;
    gcn_mfma_info_get(&in, GCN_TARGET_GFX950, &I, NULL, 0);
    /* moderate finite fp8 values: exponent field 6..9 (OCP e4m3, bias 7) */
    for (size_t i = 0; i < sizeof A / 4; i++) {
        uint32_t v = 0;
        for (int b = 0; b < 4; b++)
            v |= (uint32_t)((rnd() & 0x87) | ((6 + rnd() % 4) << 3)) << (8 * b);
        A[i] = v;
        B[i] = v ^ 0x80808080u ^ (rnd() & 0x07070707u);
    }
    for (size_t i = 0; i < sizeof C / 4; i++)
        C[i] = 0;
    static uint32_t Dref[64 * 64], Ds[64 * 64];
    gcn_mfma_operands p = {A, B, C, NULL, NULL, NULL, Dref};
    gcn_mfma_run(&plain, GCN_TARGET_GFX950, &p, NULL, 0);
    for (unsigned l = 0; l < 64; l++) {
        SA[l] = 127;
        SB[l] = 127;
    }
    gcn_mfma_operands s = {A, B, C, NULL, SA, SB, Ds};
    gcn_mfma_run(&in, GCN_TARGET_GFX950, &s, NULL, 0);
    CHECK(!memcmp(Ds, Dref, I.regs_d * 256), "%s: scales 2^0 differ from the plain MFMA", mn);
    for (unsigned l = 0; l < 64; l++) {
        SA[l] = 127 + 3;
        SB[l] = 127 - 5;
    }
    gcn_mfma_run(&in, GCN_TARGET_GFX950, &s, NULL, 0);
    int ok = 1;
    for (unsigned i = 0; i < I.regs_d * 64; i++) {
        float x, y;
        memcpy(&x, &Ds[i], 4);
        memcpy(&y, &Dref[i], 4);
        ok &= x == ldexpf(y, -2);
    }
    CHECK(ok, "%s: scales 2^3 * 2^-5 do not scale D by 2^-2", mn);
    gcn_insn off = in;
    off.m.abid = 0;
    gcn_mfma_run(&off, GCN_TARGET_GFX950, &s, NULL, 0);
    CHECK(!memcmp(Ds, Dref, I.regs_d * 256), "%s: ABID[0]=0 must disable the scales", mn);
    SA[5] = 0xff;
    gcn_mfma_run(&in, GCN_TARGET_GFX950, &s, NULL, 0);
    int nan = 0;
    for (unsigned i = 0; i < I.regs_d * 64; i++)
        nan += (Ds[i] & 0x7fffffffu) > 0x7f800000u;
    CHECK(nan > 0, "%s: an E8M0 NaN scale must give NaN results", mn);
}

int main(void)
{
    unsigned rows[2] = {0, 0};
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        const gcn_isa_row *r = gcn_isa_row_of(id);
        if (!(r->flags & GCN_F_MFMA) || r->fmt != GCN_FMT_VOP3P)
            continue;
        for (int ti = 0; ti < 2; ti++) {
            gcn_target t = ti ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942;
            unsigned op = r->op[ti];
            gcn_insn in;
            uint32_t w[2];
            if (op == NONE) {
                /* absent: refused by the simulator (the opcode may decode as another row) */
                memset(&in, 0, sizeof in);
                in.id = (uint16_t)id;
                CHECK(gcn_mfma_info_get(&in, t, &(gcn_mfma_info){0}, NULL, 0) != 0,
                      "%s accepted on %s where it does not exist", r->mnem, gcn_target_name(t));
                continue;
            }
            rows[ti]++;
            int f8f6f4 = strstr(r->mnem, "f8f6f4") != NULL;
            for (unsigned fa = 0; fa < (f8f6f4 ? 5u : 1u); fa++)
                for (unsigned fb = 0; fb < (f8f6f4 ? 5u : 1u); fb++) {
                    enc_mai(w, op, fa, 0, fb);
                    if (decode_words(t, w, 2, &in) || in.id != id) {
                        CHECK(0, "%s %s: encoding does not decode to the row", r->mnem,
                              gcn_target_name(t));
                        continue;
                    }
                    check_row(id, t, &in);
                }
        }
    }
    /* gfx950 128-bit scaled forms */
    unsigned ld = gcn_isa_row_of(GCN_ID_V_MFMA_LD_SCALE_B32)->op[1];
    unsigned sc[2] = {GCN_ID_V_MFMA_SCALE_F32_16X16X128_F8F6F4,
                      GCN_ID_V_MFMA_SCALE_F32_32X32X64_F8F6F4};
    for (int i = 0; i < 2; i++) {
        unsigned op = gcn_isa_row_of(sc[i])->op[1];
        for (unsigned fa = 0; fa < 5; fa++)
            for (unsigned fb = 0; fb < 5; fb++) {
                uint32_t w[4];
                gcn_insn in;
                w[0] = (0x1A7u << 23) | (ld << 16);
                w[1] = ((256u + 65) << 9) | (256u + 64);
                enc_mai(&w[2], op, fa, 1, fb);
                if (decode_words(GCN_TARGET_GFX950, w, 4, &in) || in.id != sc[i]) {
                    CHECK(0, "%s: the 128-bit form does not decode", gcn_isa_row_of(sc[i])->mnem);
                    continue;
                }
                rows[1] += fa == 0 && fb == 0;
                check_row(sc[i], GCN_TARGET_GFX950, &in);
            }
        check_scales(sc[i], op, ld);
    }
    printf("MAI rows: %u on gfx942, %u on gfx950; %u checks passed, %u failed\n", rows[0],
           rows[1], n_ok, n_fail);
    return n_fail ? 1 : 0;
}
