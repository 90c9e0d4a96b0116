/*
 * test_vop3p.c -- checks of the VOP3P decoder's records that the simulator's
 * MFMA implementation relies on: operand kinds (VGPR/AGPR), register counts
 * of A/B/C/D, field tags, cbsz/abid/blgp/acc_cd, shapes and passes.
 *
 * Oracles: LLVM 22 itself.  Encodings come from llvm-mc ($LLVM_MC, default
 * llvm-mc-22) assembling the lines below; the decoded text must equal what
 * llvm-mc prints, and the decoded operands must be the registers of that
 * text.  Pass counts are compared with llvm-mca (same directory as llvm-mc),
 * whose reciprocal throughput of an MAI instruction is its pass count
 * (SISchedule.td).  Shapes are checked against register counts for every
 * MFMA/SMFMAC row of the table (D = M*N*blocks/64 elements per lane, A/B =
 * M*K*blocks/64 resp. N*K*blocks/64 elements, SMFMAC A half of that).
 */
#include <CUnit/Basic.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_decode.h"

static const char *llvm_mc(void)
{
    const char *p = getenv("LLVM_MC");
    return p && *p ? p : "llvm-mc-22";
}

/* Assemble one line; returns the number of encoding bytes (0 on failure)
 * and the canonical text llvm-mc prints for it. */
static size_t assemble(const char *cpu, const char *line, uint8_t *bytes, char *text, size_t tlen)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "printf '%%s\\n' '%s' | %s -triple=amdgcn-amd-amdhsa -mcpu=%s --show-encoding 2>/dev/null",
             line, llvm_mc(), cpu);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char buf[2048];
    size_t n = 0;
    while (fgets(buf, sizeof buf, p)) {
        char *e = strstr(buf, "; encoding: [");
        if (!e)
            continue;
        char *t = buf;
        while (*t == ' ' || *t == '\t')
            t++;
        size_t l = (size_t)(e - t);
        while (l && (t[l - 1] == ' ' || t[l - 1] == '\t'))
            l--;
        snprintf(text, tlen, "%.*s", (int)l, t);
        for (char *q = e + 13; *q && *q != ']' && n < 16;) {
            bytes[n++] = (uint8_t)strtoul(q, &q, 16);
            if (*q == ',')
                q++;
        }
    }
    pclose(p);
    return n;
}

/* Passes of an MAI line from llvm-mca (reciprocal throughput), -1 if none. */
static int mca_passes(const char *cpu, const char *line)
{
    char mca[512], cmd[1024];
    const char *mc = llvm_mc();
    const char *s = strstr(mc, "llvm-mc");
    if (!s)
        return -1;
    snprintf(mca, sizeof mca, "%.*sllvm-mca%s", (int)(s - mc), mc, s + 7);
    snprintf(cmd, sizeof cmd,
             "printf '%%s\\n' '%s' | %s -mtriple=amdgcn-amd-amdhsa -mcpu=%s --instruction-info "
             "--iterations=1 2>/dev/null", line, mca, cpu);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char buf[2048];
    int in_info = 0, r = -1;
    while (fgets(buf, sizeof buf, p)) {
        if (strstr(buf, "Instructions:") && strstr(buf, "[1]"))
            in_info = 1;
        else if (in_info && r < 0) {
            int uops, lat;
            double tp;
            if (sscanf(buf, " %d %d %lf", &uops, &lat, &tp) == 3)
                r = (int)(tp + 0.5);
        }
    }
    pclose(p);
    return r;
}

/* Expected operand from a printed register: "a[0:15]", "v3", "s[2:3]". */
static int parse_reg(const char *tok, gcn_opnd_kind *kind, unsigned *reg, unsigned *n)
{
    if (tok[0] == 'v')
        *kind = GCN_OPND_VGPR;
    else if (tok[0] == 'a')
        *kind = GCN_OPND_AGPR;
    else if (tok[0] == 's')
        *kind = GCN_OPND_SGPR;
    else
        return 0;
    unsigned lo, hi;
    if (sscanf(tok + 1, "[%u:%u]", &lo, &hi) == 2) {
        *reg = lo;
        *n = hi - lo + 1;
        return 1;
    }
    if (isdigit((unsigned char)tok[1])) {
        *reg = (unsigned)atoi(tok + 1);
        *n = 1;
        return 1;
    }
    return 0;
}

static unsigned mod_value(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    return p ? (unsigned)atoi(p + strlen(name)) : 0;
}

typedef struct mai_case {
    const char *cpu;
    const char *line;
} mai_case;

static const mai_case CASES[] = {
    {"gfx942", "v_mfma_f32_32x32x8_f16 a[0:15], v[2:3], a[4:5], a[16:31] cbsz:1 abid:2 blgp:3"},
    {"gfx942", "v_mfma_f32_16x16x16_f16 v[0:3], a[2:3], v[4:5], v[0:3]"},
    {"gfx942", "v_mfma_f32_32x32x1_2b_f32 a[0:31], v1, v2, a[0:31] cbsz:2 abid:1"},
    {"gfx942", "v_mfma_f32_4x4x1_16b_f32 v[4:7], v1, a2, 1.0 blgp:7"},
    {"gfx942", "v_mfma_i32_16x16x32_i8 a[0:3], v[0:1], v[2:3], a[4:7]"},
    {"gfx942", "v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7]"},
    {"gfx942", "v_mfma_f32_16x16x8_xf32 a[0:3], v[0:1], v[2:3], a[0:3]"},
    {"gfx942", "v_mfma_f32_32x32x16_fp8_bf8 a[0:15], v[0:1], v[2:3], a[0:15]"},
    {"gfx942", "v_smfmac_f32_16x16x32_f16 a[0:3], v[0:1], v[2:5], v6 cbsz:1 abid:3"},
    {"gfx942", "v_accvgpr_write_b32 a5, v7"},
    {"gfx942", "v_accvgpr_read_b32 v5, a7"},
    {"gfx950", "v_mfma_f32_16x16x32_bf16 a[0:3], v[0:3], v[4:7], a[0:3]"},
    {"gfx950", "v_mfma_f32_32x32x16_f16 v[0:15], a[0:3], a[4:7], v[16:31]"},
    {"gfx950", "v_mfma_f64_16x16x4_f64 a[0:7], v[8:9], v[10:11], a[0:7]"},
    {"gfx950", "v_mfma_f32_16x16x128_f8f6f4 a[0:3], v[0:7], v[8:15], a[0:3]"},
    {"gfx950", "v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[20:25], v[0:15] cbsz:4 blgp:2"},
    {"gfx950", "v_mfma_f32_16x16x128_f8f6f4 a[0:3], v[0:3], v[8:11], a[0:3] cbsz:4 blgp:4"},
    {"gfx950", "v_smfmac_f32_32x32x64_fp8_fp8 v[0:15], v[16:19], v[20:27], v28"},
    {"gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[20:23], v24, v25"},
    {"gfx950", "v_mfma_scale_f32_32x32x64_f8f6f4 a[0:15], v[16:21], v[24:27], a[0:15], v1, v2 op_sel:[1,0,0] op_sel_hi:[0,1,0] cbsz:2 blgp:4"},
};

static gcn_target target_of(const char *cpu)
{
    return gcn_target_from_name(cpu);
}

/* Split "mnem a, b, c mods" into operand tokens. */
static int split_ops(const char *text, char ops[8][48])
{
    const char *p = strchr(text, ' ');
    int n = 0;
    while (p && *p && n < 8) {
        p++;
        size_t l = strcspn(p, ", ");
        snprintf(ops[n++], 48, "%.*s", (int)l, p);
        p += l;
        if (*p != ',')
            break;
        p++;
    }
    return n;
}

static void test_mai_vs_llvm_mc(void)
{
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        uint8_t bytes[16];
        char text[512];
        size_t n = assemble(CASES[c].cpu, CASES[c].line, bytes, text, sizeof text);
        if (!n) {
            fprintf(stderr, "llvm-mc could not assemble '%s' for %s\n", CASES[c].line, CASES[c].cpu);
            CU_FAIL("assemble");
            continue;
        }
        gcn_decoder d = {.target = target_of(CASES[c].cpu)};
        gcn_insn in;
        CU_ASSERT_EQUAL(gcn_decode_one(&d, bytes, n, 0, &in), n);
        CU_ASSERT_EQUAL(in.size, n);
        gcn_strbuf sb;
        gcn_sb_init(&sb);
        gcn_print_insn(&d, &in, &sb);
        if (strcmp(sb.buf, text)) {
            fprintf(stderr, "\n  llvm: %s\n  ours: %s\n", text, sb.buf);
            CU_FAIL("text differs from llvm-mc");
        }
        gcn_sb_free(&sb);
        /* operands: the registers of the printed text, in order, with fields */
        char ops[8][48];
        int nops = split_ops(text, ops);
        CU_ASSERT_EQUAL(in.nopnds, nops);
        const gcn_isa_row *r = gcn_isa_row_of(in.id);
        static const gcn_field fields[] = {GCN_FLD_VDST, GCN_FLD_SRC0, GCN_FLD_SRC1, GCN_FLD_SRC2,
                                           GCN_FLD_SCALE_SRC0, GCN_FLD_SCALE_SRC1};
        for (int i = 0; i < nops && i < in.nopnds; i++) {
            gcn_opnd_kind k;
            unsigned reg, nr;
            CU_ASSERT_EQUAL(in.op[i].field, fields[i]);
            if (parse_reg(ops[i], &k, &reg, &nr)) {
                CU_ASSERT_EQUAL(in.op[i].kind, k);
                CU_ASSERT_EQUAL(in.op[i].reg, reg);
                CU_ASSERT_EQUAL(in.op[i].nregs, nr);
            } else {
                CU_ASSERT(in.op[i].kind == GCN_OPND_INLINE || in.op[i].kind == GCN_OPND_LITERAL);
            }
        }
        if (r->flags & GCN_F_MFMA) {
            CU_ASSERT_EQUAL(in.m.cbsz, mod_value(text, "cbsz:"));
            CU_ASSERT_EQUAL(in.m.abid, strstr(r->mnem, "scale") ? 1 : mod_value(text, "abid:"));
            if (!strstr(r->mnem, "_f64"))
                CU_ASSERT_EQUAL(in.m.blgp, mod_value(text, "blgp:"));
            CU_ASSERT_EQUAL(in.m.acc_cd, ops[0][0] == 'a');
            CU_ASSERT(r->unit == GCN_UNIT_MFMA);
        }
    }
}

static void test_passes_vs_mca(void)
{
    int checked = 0;
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        uint8_t bytes[16];
        char text[512];
        size_t n = assemble(CASES[c].cpu, CASES[c].line, bytes, text, sizeof text);
        gcn_decoder d = {.target = target_of(CASES[c].cpu)};
        gcn_insn in;
        if (!n || gcn_decode_one(&d, bytes, n, 0, &in) != n)
            continue;
        const gcn_isa_row *r = gcn_isa_row_of(in.id);
        if (!(r->flags & GCN_F_MFMA)) {
            CU_ASSERT_EQUAL(gcn_mfma_passes(&d, &in), 0);
            continue;
        }
        int p = mca_passes(CASES[c].cpu, CASES[c].line);
        if (p < 0)
            continue;                               /* no llvm-mca: nothing to compare */
        unsigned ours = gcn_mfma_passes(&d, &in);
        /* llvm-mca does not resolve the f8f6f4 SchedWriteVariant (it takes
         * the non-fp8 default); LLVM's hazard recognizer does: fp8/bf8 in
         * either matrix (cbsz or blgp <= 1) doubles the passes. */
        if (strstr(r->mnem, "f8f6f4") && (in.m.cbsz <= 1 || in.m.blgp <= 1))
            p *= 2;
        if ((int)ours != p)
            fprintf(stderr, "\n  %s: passes %u, llvm-mca %d\n", CASES[c].line, ours, p);
        CU_ASSERT_EQUAL((int)ours, p);
        checked++;
    }
    if (!checked)
        fprintf(stderr, "(llvm-mca not found: passes not compared) ");
}

/* Element bits of an MFMA operand type from the mnemonic (for A/B). */
static unsigned elem_bits(const char *mnem, int which, unsigned fmt)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", mnem);
    /* the type part after the shape: ..._MxNxK[_Nb]_T or _T1_T2 */
    const char *x = strstr(buf, "x");
    x = x ? strchr(x + 1, '_') : NULL;
    if (x && x[1] >= '0' && x[1] <= '9')               /* _2b blocks */
        x = strchr(x + 1, '_');
    const char *t = x ? x + 1 : "";
    if (!strcmp(t, "f8f6f4"))
        return fmt <= 1 ? 8 : fmt <= 3 ? 6 : fmt == 4 ? 4 : 8;
    if (strchr(t, '_')) {                              /* fp8_bf8 */
        if (which == 1)
            t = strchr(t, '_') + 1;
    }
    if (!strncmp(t, "f64", 3)) return 64;
    if (!strncmp(t, "f32", 3) || !strncmp(t, "xf32", 4)) return 32;
    if (!strncmp(t, "f16", 3) || !strncmp(t, "bf16", 4)) return 16;
    return 8;                                          /* i8 fp8 bf8 */
}

/* Decode a canonical encoding of row id (acc_cd = 1, A = v16, B = v32,
 * C = a64 or SMFMAC index v64) and check shape against register counts. */
static void check_shape(unsigned id, gcn_target tg, unsigned op, unsigned cbsz, unsigned blgp)
{
    const gcn_isa_row *r = gcn_isa_row_of(id);
    uint32_t w[4];
    if (r->fmt == GCN_FMT_VOP3PX2) {
        w[0] = 0xD3800000u | (0x2Cu << 16);
        w[1] = 280 | (281u << 9);
        w[2] = 0xD3800000u | (op << 16) | (1u << 11) | 0x8000 | (cbsz << 8);
        w[3] = 272 | (288u << 9) | (320u << 18) | (blgp << 29);
    } else {
        w[0] = 0xD3800000u | (op << 16) | 0x8000 | (cbsz << 8);
        w[1] = 272 | (288u << 9) | (320u << 18) | (blgp << 29);
        w[2] = w[3] = 0xBF800000u;
    }
    uint8_t bytes[16];
    for (int i = 0; i < 16; i++)
        bytes[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
    gcn_decoder d = {.target = tg};
    gcn_insn in;
    size_t n = gcn_decode_one(&d, bytes, sizeof bytes, 0, &in);
    if (in.id != id) {
        fprintf(stderr, "\n  %s on %s: decoded as id %u\n", r->mnem, gcn_target_name(tg), in.id);
        CU_FAIL("canonical MAI encoding does not decode");
        return;
    }
    CU_ASSERT_EQUAL(n, r->fmt == GCN_FMT_VOP3PX2 ? 16u : 8u);
    unsigned M, N, K, B;
    CU_ASSERT_EQUAL_FATAL(gcn_mfma_shape(&in, &M, &N, &K, &B), 0);
    const gcn_opnd *D = gcn_insn_field(&in, GCN_FLD_VDST);
    const gcn_opnd *A = gcn_insn_field(&in, GCN_FLD_SRC0);
    const gcn_opnd *Bo = gcn_insn_field(&in, GCN_FLD_SRC1);
    const gcn_opnd *C = gcn_insn_field(&in, GCN_FLD_SRC2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(D);
    CU_ASSERT_PTR_NOT_NULL_FATAL(A);
    CU_ASSERT_PTR_NOT_NULL_FATAL(Bo);
    CU_ASSERT_PTR_NOT_NULL_FATAL(C);
    unsigned dbits = strstr(r->mnem, "_f64_") ? 64 : 32;
    unsigned nd = M * N * B / 64 * dbits / 32;
    unsigned na = M * K * B / 64 * elem_bits(r->mnem, 0, cbsz) / 32;
    unsigned nb = N * K * B / 64 * elem_bits(r->mnem, 1, blgp) / 32;
    if (r->flags & GCN_F_SMFMAC)
        na /= 2;                                        /* 4:2 structured sparsity */
    if (D->nregs != nd || A->nregs != na || Bo->nregs != nb)
        fprintf(stderr, "\n  %s cbsz %u blgp %u: D %u/%u A %u/%u B %u/%u\n", r->mnem, cbsz,
                blgp, D->nregs, nd, A->nregs, na, Bo->nregs, nb);
    CU_ASSERT_EQUAL(D->nregs, nd);
    CU_ASSERT_EQUAL(A->nregs, na);
    CU_ASSERT_EQUAL(Bo->nregs, nb);
    CU_ASSERT_EQUAL(D->kind, GCN_OPND_AGPR);
    CU_ASSERT_EQUAL(A->kind, GCN_OPND_VGPR);
    CU_ASSERT_EQUAL(in.m.cbsz, cbsz);
    CU_ASSERT_EQUAL(in.m.blgp, blgp);
    CU_ASSERT(r->passes > 0);
    if (r->flags & GCN_F_SMFMAC) {
        CU_ASSERT(C->kind == GCN_OPND_VGPR && C->nregs == 1 && C->reg == 64);
    } else {
        CU_ASSERT(C->kind == GCN_OPND_AGPR && C->nregs == nd && C->reg == 64);
    }
}

static void test_shapes_all_rows(void)
{
    static const gcn_target tg[2] = {GCN_TARGET_GFX942, GCN_TARGET_GFX950};
    int rows = 0;
    for (int ti = 0; ti < 2; ti++) {
        for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
            const gcn_isa_row *r = gcn_isa_row_of(id);
            if (!(r->flags & GCN_F_MFMA) || r->op[ti] == NONE)
                continue;
            /* f8f6f4: every A/B format pair (cbsz, blgp) */
            unsigned nfmt = strstr(r->mnem, "f8f6f4") ? 64 : 1;
            for (unsigned f = 0; f < nfmt; f++)
                check_shape(id, tg[ti], r->op[ti], f & 7, f >> 3);
            rows++;
        }
    }
    CU_ASSERT(rows > 60);
}

static void test_flags(void)
{
    /* LLVM GCNHazardRecognizer isXDL/isDGEMM with VOP3PInstructions.td
     * is_gfx940_xdl / is_dgemm. */
    gcn_decoder d = {.target = GCN_TARGET_GFX942};
    struct { uint32_t op; uint64_t set, clear; } t[] = {
        {0x44, GCN_F_MFMA, GCN_F_XDL | GCN_F_DGEMM},             /* 32x32x2 f32: not XDL */
        {0x4d, GCN_F_MFMA | GCN_F_XDL, GCN_F_DGEMM},             /* 16x16x16 f16 */
        {0x6e, GCN_F_MFMA | GCN_F_DGEMM, GCN_F_XDL},             /* f64 */
        {0x62, GCN_F_MFMA | GCN_F_XDL | GCN_F_SMFMAC, GCN_F_DGEMM},
        {0x58, GCN_F_ACCVGPR, GCN_F_MFMA},
        {0x30, GCN_F_RD_MODE, GCN_F_MFMA},                       /* v_pk_fma_f32 */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        unsigned id = gcn_isa_lookup(d.target, GCN_FMT_VOP3P, t[i].op);
        const gcn_isa_row *r = gcn_isa_row_of(id);
        CU_ASSERT_EQUAL(r->flags & t[i].set, t[i].set);
        CU_ASSERT_EQUAL(r->flags & t[i].clear, 0);
    }
}

static void test_truncated(void)
{
    /* never read past the given length: an MFMA cut to 4 bytes is invalid,
     * a v_mfma_ld_scale_b32 with only 8 of 16 bytes decodes alone */
    static const uint8_t mfma[8] = {0x00, 0x80, 0xcd, 0xd3, 0x10, 0x41, 0x02, 0x04};
    gcn_decoder d = {.target = GCN_TARGET_GFX942};
    gcn_insn in;
    CU_ASSERT_EQUAL(gcn_decode_one(&d, mfma, 4, 0, &in), 4);
    CU_ASSERT_EQUAL(in.id, GCN_ID_INVALID);
    CU_ASSERT_EQUAL(gcn_decode_one(&d, mfma, 8, 0, &in), 8);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_MFMA_F32_16X16X16_F16);
    static const uint8_t pair[16] = {0x00, 0x00, 0xac, 0xd3, 0x18, 0x33, 0x02, 0x00,
                                     0x00, 0x08, 0xad, 0xd3, 0x04, 0x19, 0x52, 0x04};
    d.target = GCN_TARGET_GFX950;
    CU_ASSERT_EQUAL(gcn_decode_one(&d, pair, 16, 0, &in), 16);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_MFMA_SCALE_F32_16X16X128_F8F6F4);
    CU_ASSERT_EQUAL(gcn_decode_one(&d, pair, 12, 0, &in), 8);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_MFMA_LD_SCALE_B32);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("vop3p", NULL, NULL);
    CU_add_test(s, "MAI records vs llvm-mc", test_mai_vs_llvm_mc);
    CU_add_test(s, "MAI passes vs llvm-mca", test_passes_vs_mca);
    CU_add_test(s, "MFMA shapes vs register counts (all rows)", test_shapes_all_rows);
    CU_add_test(s, "MAI flags", test_flags);
    CU_add_test(s, "truncated input", test_truncated);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
