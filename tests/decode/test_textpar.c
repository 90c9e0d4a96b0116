/*
 * test_textpar.c -- the threaded one-instruction-per-line printers
 * (src/decode/textpar.c) print exactly what one thread prints.
 *
 * usage: test_textpar [CODE_OBJECT...]
 * Raw streams built here: random dwords (every size mixed), a stream where
 * a chain started a dword off never meets the right one (every instruction
 * 8 bytes: the fall-back to one thread), literal-heavy runs (12 bytes), and
 * long lines that fill a text block before two chains meet.  Prefixes of
 * every length cut the stream at every dword up to 2 KiB, so a guessing
 * thread starts inside instructions as well as on them; with 2 and 3
 * threads the threads keep their text in the smallest blocks.  Each code
 * object named on the command line is printed with 2..9 threads and parts
 * down to 4 bytes (cut points inside instructions, inside symbols, in data
 * regions), with odd thread counts in the smallest blocks (the caller
 * writes many blocks per thread while the thread goes on).  All three raw
 * modes are compared.  Some runs take work over from other threads at once
 * instead of waiting for them (stolen chunks); one crew of 3 threads
 * serves text after text.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gcn_codeobj.h"

static char **objs;
static int nobjs;
static gcn_text_crew *crew;     /* 3 threads, used for text after text */

/* Text of a raw stream printed with opts (NULL: one thread); caller frees. */
static char *raw_text(gcn_target t, const uint8_t *b, size_t len, int mode,
                      const gcn_text_opts *o, size_t *n)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(gcn_raw_print_opt(t, b, len, mode, f, o), 0);
    fclose(f);
    return buf;
}

static char *co_text(const gcn_codeobj *co, const gcn_text_opts *o, size_t *n)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(gcn_co_print_llvm_text_opt(co, f, o), 0);
    fclose(f);
    return buf;
}

static uint32_t rng = 12345;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* Compare one thread with several for every prefix length of the stream
 * from 4 bytes up to max (step 4: the cut of two parts moves by a dword
 * at a time).  Returns the number of differing cases. */
static int compare_prefixes(const uint8_t *b, size_t max, int mode, const char *what)
{
    int bad = 0;
    for (size_t len = 4; len <= max; len += 4) {
        size_t n1, n2;
        char *one = raw_text(GCN_TARGET_GFX942, b, len, mode, NULL, &n1);
        for (unsigned jobs = 2; jobs <= 5; jobs++) {
            /* 2 and 3 threads: the smallest text blocks; "5": the crew's
             * 3 threads, the block size changing from text to text */
            gcn_text_opts o = {.jobs = jobs, .min_part = 4, .block = jobs < 4};
            /* every third length: a thread takes another's chunk over at
             * once, without waiting for it */
            if (len % 12 == 0)
                o.steal_ns = -1;
            if (jobs == 5) {
                o.crew = crew;
                o.block = len % 8 ? 1 : 0;
            }
            char *many = raw_text(GCN_TARGET_GFX942, b, len, mode, &o, &n2);
            if (n1 != n2 || memcmp(one, many, n1)) {
                if (bad++ < 3)
                    fprintf(stderr, "test_textpar: %s, %zu bytes, mode %d, %u threads: text "
                                    "differs from one thread's\n", what, len, mode, jobs);
            }
            free(many);
        }
        free(one);
    }
    return bad;
}

static void fill_random(uint8_t *b, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i += 4) {
        uint32_t w = next_rand();
        memcpy(b + i, &w, 4);
    }
}

static void test_raw_random(void)
{
    enum { N = 2048 + 64 };
    uint8_t b[N];
    fill_random(b, N);
    for (int mode = 0; mode <= 2; mode++)
        CU_ASSERT_EQUAL(compare_prefixes(b, N, mode, "random dwords"), 0);
}

/* 0xd1de3a5d repeated: "v_div_fixup_f32 v93, s93, -|v29|, -ttmp11 mul:4"
 * (VOP3, 8 bytes) at either phase, so a chain that starts a dword off never
 * meets the right one.  The test checks that it is such a stream. */
static void test_raw_never_meets(void)
{
    enum { N = 2048 };
    static uint8_t b[N];
    uint32_t w = 0xd1de3a5du;
    for (size_t i = 0; i < N; i += 4)
        memcpy(b + i, &w, 4);
    size_t n;
    char *t = raw_text(GCN_TARGET_GFX942, b, 16, 2, NULL, &n);
    CU_ASSERT_STRING_EQUAL(t, "0\t8\tv_div_fixup_f32 v93, s93, -|v29|, -ttmp11 mul:4\n"
                              "8\t8\tv_div_fixup_f32 v93, s93, -|v29|, -ttmp11 mul:4\n");
    free(t);
    CU_ASSERT_EQUAL(compare_prefixes(b, N, 1, "8-byte stream"), 0);
    CU_ASSERT_EQUAL(compare_prefixes(b, N, 2, "8-byte stream"), 0);
}

/* VOP2 with a literal (src0 = 255): 12-byte instructions between 4- and
 * 8-byte ones. */
static void test_raw_literals(void)
{
    enum { N = 2048 };
    static uint8_t b[N];
    for (size_t i = 0; i < N; i += 4) {
        uint32_t r = next_rand(), w;
        switch (r % 4) {
        case 0: w = 0x020000ffu | (r & 0x01fe0000u); break;   /* v_add_f32 vX, lit, vY */
        case 1: w = 0x7e0202ffu; break;                        /* v_mov_b32 v1, lit */
        case 2: w = 0xd1010000u | (r & 0xff); break;           /* VOP3 first dword */
        default: w = r; break;
        }
        memcpy(b + i, &w, 4);
    }
    CU_ASSERT_EQUAL(compare_prefixes(b, N, 1, "literal stream"), 0);
    CU_ASSERT_EQUAL(compare_prefixes(b, N, 0, "literal stream"), 0);
}

/* Long lines (an MFMA with invalid-register notes, about 230 bytes, 8
 * bytes at either phase) and then 4-byte s_nops where the two phases fall
 * into step: with the smallest blocks, a chain that started a dword off
 * meets the right one only after its text has filled a block or more, so
 * the text to drop ends inside a later block. */
static void test_raw_long_lines(void)
{
    enum { NX = 150, N = 2048 + 128 };
    static uint8_t b[N];
    for (size_t i = 0; i < N; i += 4) {
        uint32_t w = i / 4 < NX ? 0xd3e02303u : 0xbf800000u;
        memcpy(b + i, &w, 4);
    }
    size_t n;
    char *t = raw_text(GCN_TARGET_GFX942, b, 8, 1, NULL, &n);
    CU_ASSERT(n > 200);                 /* the line is long */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "Invalid register"));
    free(t);
    CU_ASSERT_EQUAL(compare_prefixes(b, N, 1, "long lines"), 0);
}

/* The line formats of modes 0 (gcndis --raw: "OFFSET: WORDS  TEXT", the
 * words padded to 28 columns) and 2 (--with-offsets: "OFFSET<TAB>SIZE<TAB>
 * TEXT"), byte for byte: a 4-byte, a 12-byte (literal) and a 2-byte tail. */
static void test_raw_line_formats(void)
{
    static const uint8_t b[] = {
        0x00, 0x00, 0x80, 0xbf,                         /* s_nop 0 */
        0xff, 0x02, 0x02, 0x7e, 0x78, 0x56, 0x34, 0x12, /* v_mov_b32_e32 v1, 0x12345678 */
        0x01, 0x02,                                     /* 2 bytes left */
    };
    size_t n;
    char *t = raw_text(GCN_TARGET_GFX942, b, sizeof b, 0, NULL, &n);
    CU_ASSERT_STRING_EQUAL(t, "00000000: bf800000                    s_nop 0\n"
                              "00000004: 7e0202ff 12345678           v_mov_b32_e32 v1, 0x12345678\n"
                              "0000000c:                             .byte 0x01, 0x02\n");
    free(t);
    t = raw_text(GCN_TARGET_GFX942, b, sizeof b, 2, NULL, &n);
    CU_ASSERT_STRING_EQUAL(t, "0\t4\ts_nop 0\n"
                              "4\t8\tv_mov_b32_e32 v1, 0x12345678\n"
                              "12\t2\t.byte 0x01, 0x02\n");
    free(t);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif

/* Virtual size of this process in KiB (/proc/self/status), -1 if unknown. */
static long vm_size_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmSize:", 7))
            v = atol(line + 7);
    if (f)
        fclose(f);
    return v;
}

/* One crew, text after text, its block size alternating between the
 * smallest and the default: every switch used to leave the blocks of the
 * other size unused in regions kept until the crew ended (about 0.5 MB
 * more per text, 200 MB over these 400).  The memory must stay flat.  (Not
 * under a sanitizer: its allocator keeps freed memory in quarantine.) */
static void test_crew_block_switch(void)
{
    static uint8_t b[4096];
    for (size_t i = 0; i < sizeof b; i++)
        b[i] = (uint8_t)(i * 7 + 3);
    FILE *f = fopen("/dev/null", "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    long before = 0;
    for (int i = 0; i < 410; i++) {
        if (i == 10)
            before = vm_size_kb();  /* after the threads' first texts of each size */
        gcn_text_opts o = {.crew = crew, .min_part = 4, .block = (i & 1) ? 1 : 0};
        CU_ASSERT_EQUAL(gcn_raw_print_opt(GCN_TARGET_GFX942, b, sizeof b, 1, f, &o), 0);
    }
    long after = vm_size_kb();
    fclose(f);
#ifndef SANITIZED
    if (before > 0 && after > 0)
        CU_ASSERT(after - before < 32 * 1024);
#endif
    (void)before;
    (void)after;
}

/* A crew whose idle threads sleep at once (gcn_text_crew_start_opt, spin
 * 0), kept for texts of three sizes in turn (three sizes of text block,
 * the smallest too), each in modes 0, 1 and 2: every text must be one
 * thread's, and the memory must stay flat once the threads have made the
 * largest blocks (memory made for larger blocks serves smaller ones). */
static void test_crew_sleeping(void)
{
    gcn_text_crew *c = gcn_text_crew_start_opt(3, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    static uint8_t b[4096];
    for (size_t i = 0; i < sizeof b; i++)
        b[i] = (uint8_t)next_rand();
    static const size_t lens[] = {4096, 520, 1500};
    long before = 0;
    int bad = 0;
    for (int i = 0; i < 300; i++) {
        if (i == 12)
            before = vm_size_kb();
        size_t len = lens[i % 3], n1, n3;
        int mode = i / 3 % 3;
        gcn_text_opts o = {.crew = c, .min_part = 4, .block = (i / 9) & 1,
                           .steal_ns = (i / 18) & 1 ? -1 : 0};
        char *one = raw_text(GCN_TARGET_GFX942, b, len, mode, NULL, &n1);
        char *par = raw_text(GCN_TARGET_GFX942, b, len, mode, &o, &n3);
        bad += n1 != n3 || memcmp(one, par, n1) != 0;
        free(one);
        free(par);
    }
    long after = vm_size_kb();
    CU_ASSERT_EQUAL(bad, 0);
#ifndef SANITIZED
    if (before > 0 && after > 0)
        CU_ASSERT(after - before < 32 * 1024);
#endif
    (void)before;
    (void)after;
    gcn_text_crew_end(c);
}

static void test_code_objects(void)
{
    static const size_t parts[] = {4, 8, 12, 20, 64, 260, 4096};
    for (int i = 0; i < nobjs; i++) {
        gcn_codeobj *co;
        gcn_co_err err;
        if (gcn_co_open(objs[i], &co, &err)) {
            fprintf(stderr, "test_textpar: %s\n", err.msg);
            CU_FAIL("code object does not open");
            continue;
        }
        size_t n1, n2;
        char *one = co_text(co, NULL, &n1);
        int bad = 0;
        for (unsigned jobs = 2; jobs <= 10; jobs++)
            for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
                /* odd thread counts: the smallest text blocks (many per
                 * thread, written while the thread goes on); "10": the
                 * crew's 3 threads */
                gcn_text_opts o = {.jobs = jobs, .min_part = parts[p], .block = jobs % 2,
                                   .steal_ns = p % 3 == 1 ? -1 : 0};
                if (jobs == 10) {
                    o.crew = crew;
                    o.block = p % 2;
                }
                char *many = co_text(co, &o, &n2);
                if ((n1 != n2 || memcmp(one, many, n1)) && bad++ < 3)
                    fprintf(stderr, "test_textpar: %s: %u threads, parts >= %zu bytes: text "
                                    "differs from one thread's\n", objs[i], jobs, parts[p]);
                free(many);
            }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT(n1 > 0);
        free(one);
        gcn_co_close(co);
    }
}

/* A code object's text handed to the crew while the object is opened
 * (gcn_co_open_hooks): printed, it is one thread's text; opened and closed
 * without printing (cancelled), nothing breaks; with the metadata note
 * corrupted, the open fails after the text was handed out and cancels it
 * before the object is freed (ThreadSanitizer and ASan runs watch the
 * threads). */
static int early_cancels;

static void cancel_counted(void *opts)
{
    early_cancels++;
    gcn_text_crew_cancel(opts);
}

static void test_early(void)
{
    static const size_t parts[] = {4, 12, 64, 4096};
    int bad = 0, failed_opens = 0, corrupted_files = 0;
    for (int i = 0; i < nobjs; i++) {
        gcn_codeobj *co;
        gcn_co_err err;
        if (gcn_co_open(objs[i], &co, &err)) {
            CU_FAIL("code object does not open");
            continue;
        }
        size_t n1, n2;
        char *one = co_text(co, NULL, &n1);
        gcn_co_close(co);
        for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
            gcn_text_opts o = {.crew = crew, .min_part = parts[p], .block = p % 2,
                               .steal_ns = p == 1 ? -1 : 0};
            gcn_co_hooks h = {gcn_text_crew_ready, gcn_text_crew_cancel, &o};
            CU_ASSERT_EQUAL_FATAL(gcn_co_open_hooks(objs[i], NULL, &h, &co, &err), 0);
            if (p == 2) {               /* opened, never printed */
                gcn_text_crew_cancel(&o);
                gcn_co_close(co);
                continue;
            }
            char *many = co_text(co, &o, &n2);
            if ((n1 != n2 || memcmp(one, many, n1)) && bad++ < 3)
                fprintf(stderr, "test_textpar: %s: text handed out early, chunks >= %zu bytes: "
                                "differs from one thread's\n", objs[i], parts[p]);
            free(many);
            gcn_co_close(co);
        }
        free(one);
        /* the metadata note's msgpack made invalid (0xc1 is no msgpack
         * byte): the open fails after the text is handed out */
        FILE *f = fopen(objs[i], "rb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        static uint8_t img[8 << 20];
        size_t len = fread(img, 1, sizeof img, f);
        fclose(f);
        uint64_t shoff;
        uint16_t shentsize, shnum;
        memcpy(&shoff, img + 0x28, 8);
        memcpy(&shentsize, img + 0x3a, 2);
        memcpy(&shnum, img + 0x3c, 2);
        int corrupted = 0;
        for (unsigned k = 0; k < shnum && shoff + (uint64_t)(k + 1) * shentsize <= len; k++) {
            const uint8_t *sh = img + shoff + (uint64_t)k * shentsize;
            uint32_t type;
            uint64_t off, size;
            memcpy(&type, sh + 4, 4);
            memcpy(&off, sh + 0x18, 8);
            memcpy(&size, sh + 0x20, 8);
            /* SHT_NOTE holding "AMDGPU" (namesz 7, type 32 NT_AMDGPU_METADATA) */
            if (type == 7 && size > 20 && off + 20 < len && !memcmp(img + off + 12, "AMDGPU", 6)) {
                img[off + 20] = 0xc1;
                corrupted = 1;
                break;
            }
        }
        if (!corrupted)
            continue;                   /* (no metadata note) */
        corrupted_files++;
        char tmp[] = "/tmp/test_textpar_XXXXXX";
        int fd = mkstemp(tmp);
        CU_ASSERT_FATAL(fd >= 0);
        CU_ASSERT_EQUAL_FATAL(write(fd, img, len), (ssize_t)len);
        close(fd);
        gcn_text_opts o = {.crew = crew, .min_part = 4};
        gcn_co_hooks h = {gcn_text_crew_ready, cancel_counted, &o};
        int cancels = early_cancels;
        if (gcn_co_open_hooks(tmp, NULL, &h, &co, &err) == 0) {
            gcn_text_crew_cancel(&o);
            gcn_co_close(co);
        } else {
            failed_opens++;
            CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "NT_AMDGPU_METADATA"));
            CU_ASSERT_EQUAL(early_cancels, cancels + 1);    /* before co was freed */
        }
        unlink(tmp);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(failed_opens, corrupted_files);
}

int main(int argc, char **argv)
{
    objs = argv + 1;
    nobjs = argc - 1;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    crew = gcn_text_crew_start(3);
    if (!crew) {
        fprintf(stderr, "test_textpar: no threads\n");
        return 1;
    }
    CU_pSuite s = CU_add_suite("textpar", NULL, NULL);
    CU_add_test(s, "raw random dwords", test_raw_random);
    CU_add_test(s, "raw stream whose chains never meet", test_raw_never_meets);
    CU_add_test(s, "raw stream with literals", test_raw_literals);
    CU_add_test(s, "raw stream of long lines, small blocks", test_raw_long_lines);
    CU_add_test(s, "raw line formats (modes 0 and 2)", test_raw_line_formats);
    CU_add_test(s, "a kept crew whose block size alternates keeps its memory", test_crew_block_switch);
    CU_add_test(s, "a crew whose idle threads sleep at once, texts of three sizes", test_crew_sleeping);
    CU_add_test(s, "code objects", test_code_objects);
    CU_add_test(s, "code objects handed out while opened", test_early);
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    gcn_text_crew_end(crew);
    return fails ? 1 : 0;
}
