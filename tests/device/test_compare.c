/*
 * test_compare.c -- unit tests of the cross-check's comparison rules
 * (src/run/compare.c): ulp distances on the ordered float line, NaN /
 * infinity / signed zero handling, the first differing element and the
 * tolerance verdicts, element formatting, and the scan for approximate
 * instructions on kernels assembled with clang-22 (skipped without it).
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run/compare.h"
#include "sim/manifest.h"

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t d2u(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static void test_types(void)
{
    CU_ASSERT_EQUAL(gcn_cmp_type_from_name("f32"), GCN_CMP_F32);
    CU_ASSERT_EQUAL(gcn_cmp_type_from_name("bf16"), GCN_CMP_BF16);
    CU_ASSERT_EQUAL(gcn_cmp_type_from_name("u8"), GCN_CMP_U8);
    CU_ASSERT_EQUAL(gcn_cmp_type_from_name("f128"), -1);
    CU_ASSERT_EQUAL(gcn_cmp_type_size(GCN_CMP_F64), 8);
    CU_ASSERT_EQUAL(gcn_cmp_type_size(GCN_CMP_F16), 2);
    CU_ASSERT_STRING_EQUAL(gcn_cmp_type_name(GCN_CMP_U32), "u32");
    CU_ASSERT_TRUE(gcn_cmp_type_is_float(GCN_CMP_BF16));
    CU_ASSERT_FALSE(gcn_cmp_type_is_float(GCN_CMP_U64));
}

static void test_ulp_f32(void)
{
    /* neighbours are 1 ulp apart, also across a power of two and across zero */
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(1.0f), f2u(nextafterf(1.0f, 2.0f))), 1);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(1.0f), f2u(nextafterf(1.0f, 0.0f))), 1);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(2.0f), f2u(1.0f)), 0x800000);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(0.0f), f2u(-0.0f)), 0);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(0x1p-149f), f2u(-0x1p-149f)), 2);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(-1.0f), f2u(nextafterf(-1.0f, -2.0f))), 1);
    /* symmetric */
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(3.0f), f2u(-3.0f)),
                    gcn_cmp_ulp(GCN_CMP_F32, f2u(-3.0f), f2u(3.0f)));
    /* specials: NaNs agree whatever the payload; infinity is never "close" */
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, 0x7fc00000, 0xffc00001), 0);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, 0x7fc00000, f2u(1.0f)), UINT64_MAX);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(INFINITY), f2u(0x1.fffffep127f)), UINT64_MAX);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(INFINITY), f2u(-INFINITY)), UINT64_MAX);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(INFINITY), f2u(INFINITY)), 0);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F32, f2u(INFINITY), 0x7fc00000), UINT64_MAX);
}

static void test_ulp_other(void)
{
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F64, d2u(1.0), d2u(nextafter(1.0, 2.0))), 1);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F64, d2u(-1.0), d2u(1.0)), 2 * (d2u(1.0)));
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F16, 0x3c00, 0x3c01), 1);      /* 1.0, next */
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F16, 0x0001, 0x8001), 2);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_F16, 0x7c00, 0x7bff), UINT64_MAX); /* inf vs max */
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_BF16, 0x3f80, 0x3f7f), 1);
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_BF16, 0x7fc0, 0x7f81), 0);      /* two NaNs */
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_U32, 5, 6), UINT64_MAX);       /* integers: exact */
    CU_ASSERT_EQUAL(gcn_cmp_ulp(GCN_CMP_U32, 6, 6), 0);
}

static void test_bytes(void)
{
    float a[8], b[8];
    for (int i = 0; i < 8; i++)
        a[i] = b[i] = (float)i * 0.25f - 1.0f;
    gcn_cmp_result r;
    gcn_cmp_bytes((uint8_t *)a, (uint8_t *)b, sizeof a, GCN_CMP_F32, 0, &r);
    CU_ASSERT_EQUAL(r.verdict, GCN_CMP_SAME);
    CU_ASSERT_EQUAL(r.nelems, 8);
    CU_ASSERT_EQUAL(r.ndiff, 0);
    CU_ASSERT_FALSE(r.has_first);
    /* one ulp off at 3, three ulps off at 5 */
    b[3] = nextafterf(b[3], 10.0f);
    b[5] = nextafterf(nextafterf(nextafterf(b[5], 10.0f), 10.0f), 10.0f);
    gcn_cmp_bytes((uint8_t *)a, (uint8_t *)b, sizeof a, GCN_CMP_F32, 0, &r);
    CU_ASSERT_EQUAL(r.verdict, GCN_CMP_DIFF);
    CU_ASSERT_EQUAL(r.ndiff, 2);
    CU_ASSERT_EQUAL(r.nbeyond, 2);
    CU_ASSERT_EQUAL(r.first_index, 3);
    CU_ASSERT_EQUAL(r.first_a, f2u(a[3]));
    CU_ASSERT_EQUAL(r.first_b, f2u(b[3]));
    CU_ASSERT_EQUAL(r.max_ulp, 3);
    /* tolerance 1: only element 5 is beyond, and it is the one reported */
    gcn_cmp_bytes((uint8_t *)a, (uint8_t *)b, sizeof a, GCN_CMP_F32, 1, &r);
    CU_ASSERT_EQUAL(r.verdict, GCN_CMP_DIFF);
    CU_ASSERT_EQUAL(r.ndiff, 2);
    CU_ASSERT_EQUAL(r.nbeyond, 1);
    CU_ASSERT_EQUAL(r.first_index, 5);
    CU_ASSERT_EQUAL(r.first_ulp, 3);
    /* tolerance 3: within */
    gcn_cmp_bytes((uint8_t *)a, (uint8_t *)b, sizeof a, GCN_CMP_F32, 3, &r);
    CU_ASSERT_EQUAL(r.verdict, GCN_CMP_WITHIN);
    CU_ASSERT_EQUAL(r.first_index, 3);
    /* as u32 words every difference is beyond */
    gcn_cmp_bytes((uint8_t *)a, (uint8_t *)b, sizeof a, GCN_CMP_U32, 0, &r);
    CU_ASSERT_EQUAL(r.nbeyond, 2);
    /* a trailing partial element is compared as bytes and always counts */
    uint8_t x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {1, 2, 3, 4, 5, 7};
    gcn_cmp_bytes(x, y, 6, GCN_CMP_F32, 1000, &r);
    CU_ASSERT_EQUAL(r.nelems, 2);
    CU_ASSERT_EQUAL(r.verdict, GCN_CMP_DIFF);
    CU_ASSERT_EQUAL(r.first_index, 1);
    CU_ASSERT_EQUAL(r.first_a, 0x0605);
    CU_ASSERT_EQUAL(r.first_b, 0x0705);
    /* the last byte of a buffer is seen */
    uint8_t p[64] = {0}, q[64] = {0};
    q[63] = 0x80;
    gcn_cmp_bytes(p, q, 64, GCN_CMP_U8, 0, &r);
    CU_ASSERT_EQUAL(r.first_index, 63);
    CU_ASSERT_EQUAL(r.ndiff, 1);
}

static void test_format(void)
{
    char s[96];
    gcn_cmp_format(GCN_CMP_F32, 0x3f800000, s, sizeof s);
    CU_ASSERT_STRING_EQUAL(s, "0x3f800000 (1)");
    gcn_cmp_format(GCN_CMP_U32, 42, s, sizeof s);
    CU_ASSERT_STRING_EQUAL(s, "0x0000002a (42)");
    gcn_cmp_format(GCN_CMP_F16, 0xbc00, s, sizeof s);
    CU_ASSERT_STRING_EQUAL(s, "0xbc00 (-1)");
    gcn_cmp_format(GCN_CMP_U8, 0xff, s, sizeof s);
    CU_ASSERT_STRING_EQUAL(s, "0xff (255)");
    gcn_cmp_format(GCN_CMP_F64, d2u(0.5), s, sizeof s);
    CU_ASSERT_STRING_EQUAL(s, "0x3fe0000000000000 (0.5)");
}

/* ---- approximate instructions in assembled kernels ---------------------------------- */
static const char *kernel_src =
    ".amdhsa_code_object_version 5\n"
    ".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n"
    "    v_mov_b32 v1, v0\n"
    "%s"
    "    s_endpgm\n"
    ".Lk_end:\n.size k, .Lk_end - k\n"
    ".rodata\n.p2align 6\n.amdhsa_kernel k\n"
    "    .amdhsa_next_free_vgpr 8\n    .amdhsa_next_free_sgpr 8\n    .amdhsa_accum_offset 8\n"
    ".end_amdhsa_kernel\n"
    ".amdgpu_metadata\n---\namdhsa.version: [1, 2]\namdhsa.kernels:\n"
    "  - .name: k\n    .symbol: k.kd\n    .kernarg_segment_size: 0\n"
    "    .kernarg_segment_align: 8\n    .group_segment_fixed_size: 0\n"
    "    .private_segment_fixed_size: 0\n    .wavefront_size: 64\n    .sgpr_count: 8\n"
    "    .vgpr_count: 8\n    .max_flat_workgroup_size: 256\n...\n.end_amdgpu_metadata\n";

static int have_clang(void)
{
    const char *cc = getenv("CLANG22");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --version >/dev/null 2>&1", cc && *cc ? cc : "clang-22");
    return system(cmd) == 0;
}

static void scan(const char *body, const char *target, const char *expect)
{
    char path[] = "/tmp/gcnrun_test_compare_XXXXXX.s";
    int fd = mkstemps(path, 2);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, kernel_src, body);
    fclose(f);
    const char *cc = getenv("CLANG22");
    if (cc && *cc)
        setenv("GCN_CLANG", cc, 1);
    gcn_codeobj *co = NULL;
    char err[2048];
    int rc = gcn_mf_load_code(path, target, &co, err, sizeof err);
    unlink(path);
    if (rc)
        fprintf(stderr, "%s\n", err);
    CU_ASSERT_FATAL(rc == 0);
    const gcn_kernel *k = gcn_co_kernel(co, "k");
    CU_ASSERT_FATAL(k != NULL);
    char out[512];
    unsigned n = gcn_cmp_approx_insns(co, k, out, sizeof out);
    if (strcmp(out, expect))
        fprintf(stderr, "\n%s: expected \"%s\", got \"%s\"\n", target, expect, out);
    CU_ASSERT_STRING_EQUAL(out, expect);
    unsigned words = *expect ? 1 : 0;
    for (const char *c = expect; *c; c++)
        words += *c == ' ';
    CU_ASSERT_EQUAL(n, words);
    gcn_co_close(co);
}

static void test_approx(void)
{
    if (!have_clang()) {
        fprintf(stderr, "(clang-22 not found: approximate-instruction scan not tested) ");
        return;
    }
    scan("    v_add_f32 v2, v1, v1\n    v_fma_f32 v3, v1, v2, v1\n", "gfx942", "");
    scan("    v_exp_f32 v2, v1\n    v_sqrt_f64 v[4:5], v[2:3]\n    v_exp_f32 v3, v1\n", "gfx942",
         "v_exp_f32 v_sqrt_f64");
    scan("    v_rcp_f32_e64 v2, -v1\n    v_sin_f16 v3, v1\n    v_rsq_f32 v4, v1\n", "gfx950",
         "v_rcp_f32 v_rsq_f32 v_sin_f16");
    scan("    v_log_f32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n", "gfx942",
         "v_log_f32");
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("compare", NULL, NULL);
    CU_add_test(s, "types", test_types);
    CU_add_test(s, "ulp f32", test_ulp_f32);
    CU_add_test(s, "ulp f64/f16/bf16/int", test_ulp_other);
    CU_add_test(s, "bytes: verdicts and first difference", test_bytes);
    CU_add_test(s, "format", test_format);
    CU_add_test(s, "approximate instructions", test_approx);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
