/*
 * test_strbuf.c -- the printers' text building blocks: the inline
 * appenders of gcn_strbuf (gcn_decode.h), the cursor writers
 * (decode_int.h: registers, separators, hex, inline constants), and the
 * per-row once used for parsed SIGs, under several threads.
 *
 * Expected texts come from snprintf (numbers) or are spelled out where the
 * format is LLVM's register syntax; the decoder's text as a whole is
 * compared with LLVM 22 by tests/decode/sweep.py.
 */
#include <CUnit/Basic.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "decode_int.h"

static const uint64_t numbers[] = {
    0, 1, 9, 10, 11, 99, 100, 101, 255, 256, 999, 1000, 1001, 4095, 65535, 65536,
    9999, 10000, 99999, 100000, 4294967295u, 4294967296u, 1234567890123ull,
    9999999999999999999ull, 10000000000000000000ull, UINT64_MAX,
};

static void test_putu_puthex(void)
{
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    char want[64];
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        uint64_t v = numbers[i];
        gcn_sb_reset(&sb);
        gcn_sb_putu(&sb, v);
        snprintf(want, sizeof want, "%" PRIu64, v);
        CU_ASSERT_STRING_EQUAL(sb.buf, want);
        CU_ASSERT_EQUAL(sb.len, strlen(want));

        gcn_sb_reset(&sb);
        gcn_sb_put0x(&sb, v);
        snprintf(want, sizeof want, "0x%" PRIx64, v);
        CU_ASSERT_STRING_EQUAL(sb.buf, want);

        gcn_sb_reset(&sb);
        gcn_sb_puthex(&sb, v, 8);
        snprintf(want, sizeof want, "%08" PRIx64, v);
        CU_ASSERT_STRING_EQUAL(sb.buf, want);

        int64_t s = -(int64_t)(v & 0x7fffffffffffffffull);
        gcn_sb_reset(&sb);
        gcn_sb_puti(&sb, s);
        snprintf(want, sizeof want, "%" PRId64, s);
        CU_ASSERT_STRING_EQUAL(sb.buf, want);
    }
    gcn_sb_reset(&sb);
    gcn_sb_puti(&sb, INT64_MIN);
    snprintf(want, sizeof want, "%" PRId64, INT64_MIN);
    CU_ASSERT_STRING_EQUAL(sb.buf, want);
    gcn_sb_free(&sb);
}

/* Appends that cross the capacity many times keep every byte and the NUL. */
static void test_growth(void)
{
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    char want[16];
    size_t len = 0;
    for (unsigned i = 0; i < 20000; i++) {
        gcn_sb_putu(&sb, i);
        gcn_sb_putc(&sb, ',');
        gcn_sb_puts(&sb, "ab");
        len += (size_t)snprintf(want, sizeof want, "%u,ab", i);
    }
    CU_ASSERT_EQUAL(sb.len, len);
    CU_ASSERT_EQUAL(strlen(sb.buf), len);
    CU_ASSERT(strncmp(sb.buf, "0,ab1,ab2,ab", 12) == 0);
    CU_ASSERT(strcmp(sb.buf + len - 8, "19999,ab") == 0);
    gcn_sb_free(&sb);
}

/* Print through a cursor, then commit. */
static const char *cursor_text(gcn_strbuf *sb, unsigned kind, unsigned reg, unsigned nregs)
{
    gcn_sb_reset(sb);
    char *p = gcn_sb_room(sb, GCN_LINE_MAX);
    p = gcn_cur_reg(p, kind, reg, nregs);
    gcn_sb_commit(sb, p);
    return sb->buf;
}

static void test_cursor_writers(void)
{
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_VGPR, 0, 1), "v0");
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_VGPR, 255, 1), "v255");
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_VGPR, 254, 2), "v[254:255]");
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_VGPR, 250, 16), "v[250:265]");
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_SGPR, 5, 1), "s5");
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_SGPR, 100, 4), "s[100:103]");
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_AGPR, 9, 8), "a[9:16]");
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_TTMP, 12, 4), "ttmp[12:15]");
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_TTMP, 3, 1), "ttmp3");
    CU_ASSERT_STRING_EQUAL(cursor_text(&sb, GCN_OPND_VGPR, 1000, 2), "v[1000:1001]");

    /* the other writers, one line */
    gcn_sb_reset(&sb);
    char *p = gcn_sb_room(&sb, GCN_LINE_MAX);
    p = GCN_CUR_LIT(p, "op");
    p = gcn_cur_sep(p, 0);
    p = gcn_cur_inline_int(p, 128);             /* 0 */
    p = gcn_cur_sep(p, 1);
    p = gcn_cur_inline_int(p, 192);             /* 64 */
    p = gcn_cur_sep(p, 2);
    p = gcn_cur_inline_int(p, 193);             /* -1 */
    p = gcn_cur_sep(p, 3);
    p = gcn_cur_inline_int(p, 208);             /* -16 */
    p = gcn_cur_sep(p, 4);
    p = gcn_cur_hex(p, 0);
    p = gcn_cur_sep(p, 5);
    p = gcn_cur_hex(p, 0xdeadbeef);
    p = gcn_cur_sep(p, 6);
    p = gcn_cur_str(p, "vcc");
    gcn_sb_commit(&sb, p);
    CU_ASSERT_STRING_EQUAL(sb.buf, "op 0, 64, -1, -16, 0x0, 0xdeadbeef, vcc");
    CU_ASSERT_EQUAL(sb.len, strlen(sb.buf));
    gcn_sb_free(&sb);
}

/* gcn_once: many threads ask for the same rows; each row is built exactly
 * once and every thread sees it built. */
#define ONCE_ROWS 64
#define ONCE_THREADS 8
static gcn_once once_state[ONCE_ROWS];
static atomic_int once_builds[ONCE_ROWS];
static int once_value[ONCE_ROWS];

static void *once_worker(void *arg)
{
    int bad = 0;
    for (unsigned round = 0; round < 50; round++)
        for (unsigned k = 0; k < ONCE_ROWS; k++) {
            unsigned r = (k * 7 + (unsigned)(uintptr_t)arg + round) % ONCE_ROWS;
            if (!gcn_once_ready(&once_state[r]) && gcn_once_claim(&once_state[r])) {
                atomic_fetch_add(&once_builds[r], 1);
                once_value[r] = (int)r + 1000;
                gcn_once_done(&once_state[r]);
            }
            bad |= once_value[r] != (int)r + 1000;
        }
    return (void *)(uintptr_t)bad;
}

static void test_once_threads(void)
{
    pthread_t t[ONCE_THREADS];
    for (uintptr_t i = 0; i < ONCE_THREADS; i++)
        CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, once_worker, (void *)i), 0);
    for (int i = 0; i < ONCE_THREADS; i++) {
        void *bad;
        pthread_join(t[i], &bad);
        CU_ASSERT_PTR_NULL(bad);
    }
    for (int r = 0; r < ONCE_ROWS; r++) {
        CU_ASSERT_EQUAL(atomic_load(&once_builds[r]), 1);
        CU_ASSERT(gcn_once_ready(&once_state[r]));
    }
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("strbuf", NULL, NULL);
    CU_add_test(s, "decimal and hex appenders", test_putu_puthex);
    CU_add_test(s, "growth", test_growth);
    CU_add_test(s, "cursor writers", test_cursor_writers);
    CU_add_test(s, "per-row once under threads", test_once_threads);
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
