/*
 * mfma_num_driver.c -- a line-oriented front end to the matrix-core code, for the
 * Python tests (tests/sim/test_mfma_num.py, test_mfma_mmasim.py).  One request per
 * input line, one answer line (hex words) per request:
 *
 *   dot TA TB GFX950 N C A0..A(N-1) B0..B(N-1) [S0..S(N-1)]
 *       gcn_mfma_num_dot: one output element; TA/TB type names (f32 xf32 f16 bf16 i8
 *       fp8 bf8 fp6 bf6 fp4), C f32/i32 bits, S = per-product scale exponents (decimal,
 *       "nan" for a NaN scale).  Answer: the result bits.
 *   dot64 N C A.. B..   (f64, 64-bit hex words)
 *   insn MNEMONIC TARGET CBSZ ABID BLGP A.. B.. C..
 *       gcn_mfma_run on a whole instruction: A[b][i][k], B[b][k][j], C[b][i][j] raw
 *       element bits (row-major per block; f64 as 64-bit words) placed in registers
 *       through gcn_mfma_layout.  Answer: D[b][i][j].
 * Exit status 0; a request it cannot do answers "error MESSAGE".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcn_decode.h"
#include "sim/gcn_mfma.h"

static gcn_mfma_type tname(const char *s)
{
    for (int t = 1; t <= GCN_MT_FP4; t++)
        if (!strcmp(gcn_mfma_type_name((gcn_mfma_type)t), s))
            return (gcn_mfma_type)t;
    return GCN_MT_NONE;
}

static char *tok(char **save)
{
    return strtok_r(NULL, " \t\n", save);
}

static uint64_t hex(char **save)
{
    char *t = tok(save);
    return t ? strtoull(t, NULL, 16) : 0;
}

static uint32_t A[64 * 64], B[64 * 64], C[64 * 64], D[64 * 64];

static void put(uint32_t *x, const gcn_mfma_place *p, uint64_t v)
{
    if (p->width == 64) {
        x[p->reg * 64 + p->lane] = (uint32_t)v;
        x[(p->reg + 1) * 64 + p->lane] = (uint32_t)(v >> 32);
        return;
    }
    uint64_t w = x[p->reg * 64 + p->lane];
    if (p->reg + 1 < 64)
        w |= (uint64_t)x[(p->reg + 1) * 64 + p->lane] << 32;
    uint64_t mask = ((1ull << p->width) - 1) << p->bit;
    w = (w & ~mask) | ((v << p->bit) & mask);
    x[p->reg * 64 + p->lane] = (uint32_t)w;
    if (p->bit + p->width > 32)
        x[(p->reg + 1) * 64 + p->lane] = (uint32_t)(w >> 32);
}

static void do_insn(char **save)
{
    char *mn = tok(save), *tg = tok(save);
    unsigned id = 0;
    for (unsigned i = 1; mn && i < GCN_ID_COUNT; i++)
        if (!strcmp(gcn_isa_row_of(i)->mnem, mn))
            id = i;
    gcn_insn in;
    memset(&in, 0, sizeof in);
    in.id = (uint16_t)id;
    in.m.cbsz = (uint8_t)hex(save);
    in.m.abid = (uint8_t)hex(save);
    in.m.blgp = (uint8_t)hex(save);
    gcn_target t = gcn_target_from_name(tg ? tg : "");
    gcn_mfma_info I;
    char err[128];
    if (gcn_mfma_info_get(&in, t, &I, err, sizeof err) || I.sparse) {
        printf("error %s\n", I.sparse ? "sparse not supported here" : err);
        return;
    }
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    memset(C, 0, sizeof C);
    gcn_mfma_place p;
    for (unsigned b = 0; b < I.blocks; b++)
        for (unsigned i = 0; i < I.m; i++)
            for (unsigned k = 0; k < I.k; k++) {
                uint64_t v = hex(save);
                gcn_mfma_layout(&in, t, 'A', b, i, k, &p);
                if (!(I.cbsz_ok && in.m.cbsz))
                    put(A, &p, v);
            }
    for (unsigned b = 0; b < I.blocks; b++)
        for (unsigned k = 0; k < I.k; k++)
            for (unsigned j = 0; j < I.n; j++) {
                uint64_t v = hex(save);
                gcn_mfma_layout(&in, t, 'B', b, k, j, &p);
                put(B, &p, v);
            }
    for (unsigned b = 0; b < I.blocks; b++)
        for (unsigned i = 0; i < I.m; i++)
            for (unsigned j = 0; j < I.n; j++) {
                uint64_t v = hex(save);
                gcn_mfma_layout(&in, t, 'C', b, i, j, &p);
                put(C, &p, v);
            }
    gcn_mfma_operands ops = {A, B, C, NULL, NULL, NULL, D};
    if (gcn_mfma_run(&in, t, &ops, err, sizeof err)) {
        printf("error %s\n", err);
        return;
    }
    for (unsigned b = 0; b < I.blocks; b++)
        for (unsigned i = 0; i < I.m; i++)
            for (unsigned j = 0; j < I.n; j++) {
                gcn_mfma_layout(&in, t, 'D', b, i, j, &p);
                uint64_t v = D[p.reg * 64 + p.lane];
                if (p.width == 64)
                    v |= (uint64_t)D[(p.reg + 1) * 64 + p.lane] << 32;
                printf("%s%llx", b + i + j ? " " : "", (unsigned long long)v);
            }
    printf("\n");
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    static uint32_t a[256], b[256];
    static uint64_t a64[256], b64[256];
    static int32_t s[256];
    while (getline(&line, &cap, stdin) > 0) {
        char *save = NULL;
        char *cmd = strtok_r(line, " \t\n", &save);
        if (!cmd)
            continue;
        if (!strcmp(cmd, "dot")) {
            gcn_mfma_num nm;
            char *ta = tok(&save), *tb = tok(&save);
            int gfx950 = (int)hex(&save);
            size_t n = (size_t)hex(&save);
            uint32_t c = (uint32_t)hex(&save);
            if (!ta || !tb || n > 256 || tname(ta) == GCN_MT_NONE || tname(tb) == GCN_MT_NONE) {
                printf("error bad dot request\n");
                continue;
            }
            gcn_mfma_type tc = tname(ta) == GCN_MT_I8 ? GCN_MT_I32 : GCN_MT_F32;
            gcn_mfma_num_init(&nm, tname(ta), tname(tb), tc, gfx950);
            for (size_t i = 0; i < n; i++)
                a[i] = (uint32_t)hex(&save);
            for (size_t i = 0; i < n; i++)
                b[i] = (uint32_t)hex(&save);
            int have_s = 0;
            for (size_t i = 0; i < n; i++) {
                char *t = tok(&save);
                if (!t)
                    break;
                have_s = 1;
                s[i] = !strcmp(t, "nan") ? GCN_MFMA_SCALE_NAN : atoi(t);
            }
            printf("%x\n", gcn_mfma_num_dot(&nm, a, b, n, c, have_s ? s : NULL));
        } else if (!strcmp(cmd, "dot64")) {
            size_t n = (size_t)hex(&save);
            uint64_t c = hex(&save);
            if (n > 256) {
                printf("error bad dot64 request\n");
                continue;
            }
            for (size_t i = 0; i < n; i++)
                a64[i] = hex(&save);
            for (size_t i = 0; i < n; i++)
                b64[i] = hex(&save);
            printf("%llx\n", (unsigned long long)gcn_mfma_num_dot64(a64, b64, n, c));
        } else if (!strcmp(cmd, "insn")) {
            do_insn(&save);
        } else {
            printf("error unknown request %s\n", cmd);
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
