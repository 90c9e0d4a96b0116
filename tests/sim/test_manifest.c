/*
 * test_manifest.c -- the manifest parser's contract on bad input
 * (docs/reliability.md, docs/manifest.md): the expression language refuses
 * overflow (INT64_MIN / -1 and % -1 included, which used to kill the process
 * with SIGFPE), deep nesting (which used to overflow the stack) and reals
 * outside int64; grid and block limits have messages that say the range; a
 * block larger than the kernel's launch bounds is refused; buffer names
 * cannot leave the dump directory; a buffer's "file" must be a readable
 * regular file.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim/manifest.h"

static char err[2048];

/* Parse a manifest from JSON text; returns 0 or -1 with err set. */
static int parse(const char *json, const char *const *sets, unsigned nsets, gcn_manifest **m)
{
    err[0] = 0;
    return gcn_mf_parse("t.json", "/nonexistent-dir", json, sets, nsets, m, err, sizeof err);
}

/* Evaluate an expression over params N=64, BIG=INT64_MAX. */
static int eval(const char *expr, int64_t *v)
{
    gcn_manifest *m = NULL;
    int rc = parse("{\"code\": \"k.s\", \"params\": {\"N\": 64, \"BIG\": 9223372036854775807},"
                   " \"grid\": [1], \"block\": [64]}", NULL, 0, &m);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    err[0] = 0;
    rc = gcn_mf_eval(m, expr, v, err, sizeof err);
    gcn_mf_free(m);
    return rc;
}

static void expect_eval(const char *expr, int64_t want)
{
    int64_t v = 0;
    int rc = eval(expr, &v);
    if (rc || v != want)
        printf("\n  %s: rc %d, value %lld (want %lld), %s\n", expr, rc, (long long)v,
               (long long)want, err);
    CU_ASSERT(rc == 0 && v == want);
}

static void expect_eval_error(const char *expr, const char *msg)
{
    int64_t v = 0;
    int rc = eval(expr, &v);
    if (rc == 0 || !strstr(err, msg))
        printf("\n  %.60s: rc %d, value %lld, message '%s' (want '%s')\n", expr, rc, (long long)v,
               err, msg);
    CU_ASSERT(rc != 0 && strstr(err, msg) != NULL);
}

static void test_expr_values(void)
{
    expect_eval("N*4 + 1", 257);
    expect_eval("-(N) % 5", -4);           /* C semantics: truncation toward zero */
    expect_eval("-7 / 2", -3);
    expect_eval("BIG", INT64_MAX);
    expect_eval("-BIG - 1", INT64_MIN);     /* INT64_MIN itself is reachable */
    expect_eval("0x10 * 2", 32);
    expect_eval("--3", 3);
}

static void test_expr_overflow(void)
{
    /* these two used to raise SIGFPE (x86 idiv) and kill the process */
    expect_eval_error("(-9223372036854775807-1)/-1", "integer overflow");
    expect_eval_error("(-9223372036854775807-1)%-1", "integer overflow");
    /* negating INT64_MIN is undefined in C */
    expect_eval_error("-(-9223372036854775807-1)", "integer overflow");
    expect_eval_error("BIG + 1", "integer overflow");
    expect_eval_error("-BIG - 2", "integer overflow");
    expect_eval_error("BIG * 2", "integer overflow");
    expect_eval_error("4294967296 * 4294967296", "integer overflow");
    expect_eval_error("9223372036854775808", "number out of range");
    expect_eval_error("N / (N - 64)", "division by zero");
    expect_eval_error("N % 0", "division by zero");
}

static void test_expr_depth(void)
{
    /* 44,000 parentheses used to overflow the stack; 64 levels are allowed */
    size_t n = 44000;
    char *s = malloc(2 * n + 2);
    CU_ASSERT_FATAL(s != NULL);
    for (size_t d = 1; d <= 65; d++) {
        memset(s, '(', d);
        s[d] = '1';
        memset(s + d + 1, ')', d);
        s[2 * d + 1] = 0;
        int64_t v = 0;
        int rc = eval(s, &v);
        if (d <= 63)
            CU_ASSERT(rc == 0 && v == 1);
        if (d == 65)
            CU_ASSERT(rc != 0 && strstr(err, "nested more than 64 levels") != NULL);
    }
    memset(s, '(', n);
    s[n] = '1';
    memset(s + n + 1, ')', n);
    s[2 * n + 1] = 0;
    expect_eval_error(s, "nested more than 64 levels");
    memset(s, '-', n);
    s[n] = '1';
    s[n + 1] = 0;
    expect_eval_error(s, "nested more than 64 levels");
    /* the message quotes a bounded part of the expression */
    CU_ASSERT(strlen(err) < 400);
    free(s);
}

static void expect_parse_error(const char *json, const char *msg)
{
    gcn_manifest *m = NULL;
    int rc = parse(json, NULL, 0, &m);
    if (rc == 0 || !strstr(err, msg))
        printf("\n  %s: rc %d, message '%s' (want '%s')\n", json, rc, err, msg);
    CU_ASSERT(rc != 0 && strstr(err, msg) != NULL);
    CU_ASSERT(m == NULL);
    gcn_mf_free(m);
}

static void test_reals(void)
{
    /* a real that is no int64 used to be converted anyway (undefined in C) */
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [1e30], \"block\": [64]}",
                       "not a whole number in the 64-bit signed range");
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [-1e300], \"block\": [64]}",
                       "not a whole number in the 64-bit signed range");
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [9223372036854775808.0], \"block\": [64]}",
                       "not a whole number in the 64-bit signed range");
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [1.5], \"block\": [64]}",
                       "not a whole number");
    gcn_manifest *m = NULL;
    CU_ASSERT(parse("{\"code\": \"k.s\", \"grid\": [2.0], \"block\": [64.0]}", NULL, 0, &m) == 0);
    if (m)
        CU_ASSERT(m->grid[0] == 2 && m->block[0] == 64);
    gcn_mf_free(m);
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [1], \"block\": [64], \"args\": [{\"f32\": 1e39}]}",
                       "does not fit f32");
}

static void test_dims(void)
{
    /* 2^31 used to be refused with "must be >= 1" */
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [2147483648], \"block\": [64]}",
                       "grid[0] = 2147483648 is out of range (1 .. 2147483647)");
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [0], \"block\": [64]}",
                       "grid[0] = 0 is out of range (1 .. 2147483647)");
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [1, 1, 1, 1], \"block\": [64]}",
                       "1 to 3 dimensions");
    /* the packet's grid size (work-items) is 32 bits */
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [2147483647], \"block\": [4]}",
                       "grid[0] * block[0] = 8589934588 work-items");
    expect_parse_error("{\"code\": \"k.s\", \"grid\": [1], \"block\": [64, 4, 8]}",
                       "block 64x4x8 is a workgroup of 2048 work-items, larger than 1024");
    gcn_manifest *m = NULL;
    CU_ASSERT(parse("{\"code\": \"k.s\", \"grid\": [4194303, 2147483647], \"block\": [1024, 1]}",
                    NULL, 0, &m) == 0);
    gcn_mf_free(m);
}

static void test_launch_bounds(void)
{
    gcn_manifest *m = NULL;
    CU_ASSERT_FATAL(parse("{\"code\": \"k.s\", \"grid\": [1], \"block\": [16, 16, 2]}", NULL, 0,
                          &m) == 0);
    gcn_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "kern";
    k.has_metadata = 1;
    k.md_max_flat_workgroup_size = 256;
    err[0] = 0;
    CU_ASSERT(gcn_mf_check_block(m, &k, err, sizeof err) != 0);
    CU_ASSERT(strstr(err, "512 work-items") && strstr(err, "maximum flat workgroup size, 256"));
    k.md_max_flat_workgroup_size = 512;
    CU_ASSERT(gcn_mf_check_block(m, &k, err, sizeof err) == 0);
    k.has_metadata = 0;          /* no metadata: no launch bounds to check */
    k.md_max_flat_workgroup_size = 64;
    CU_ASSERT(gcn_mf_check_block(m, &k, err, sizeof err) == 0);
    gcn_mf_free(m);
}

static void test_sets(void)
{
    const char *sets[] = {"N=(-9223372036854775807-1)/-1"};
    gcn_manifest *m = NULL;
    int rc = parse("{\"code\": \"k.s\", \"params\": {\"N\": 1}, \"grid\": [1], \"block\": [64]}",
                   sets, 1, &m);
    CU_ASSERT(rc != 0 && strstr(err, "--set N=") && strstr(err, "integer overflow"));
    gcn_mf_free(m);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("manifest", NULL, NULL);
    CU_add_test(s, "expressions: values", test_expr_values);
    CU_add_test(s, "expressions: overflow is an error, not SIGFPE or UB", test_expr_overflow);
    CU_add_test(s, "expressions: nesting is bounded", test_expr_depth);
    CU_add_test(s, "reals outside int64 are refused", test_reals);
    CU_add_test(s, "grid and block ranges", test_dims);
    CU_add_test(s, "block beyond the kernel's launch bounds", test_launch_bounds);
    CU_add_test(s, "--set values are checked the same way", test_sets);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
