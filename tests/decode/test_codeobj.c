/*
 * test_codeobj.c -- CUnit tests of the code-object reader (src/decode/codeobj.c,
 * bundle.c, dwarf.c) on code objects built by test_codeobj.sh with clang-22.
 *
 * usage: test_codeobj MANIFEST
 * MANIFEST lines (written by test_codeobj.sh):
 *   good FILE EXPECT          FILE must open; every fact in EXPECT (written by
 *                             test_codeobj_oracle.py from llvm-readelf-22 and
 *                             llvm-objdump-22 output) must match the reader
 *   bundle FILE ARCH EXPECT   FILE is an offload bundle; opened with
 *                             --offload-arch ARCH it must match EXPECT (the
 *                             oracle's view of the entry that
 *                             clang-offload-bundler-22 extracted)
 *   bad FILE                  FILE must be refused with a message naming it
 * Besides, every good file is truncated at every length and corrupted byte by
 * byte in memory: the reader must refuse or accept, never crash (run under
 * ASan/valgrind by the fuzz and valgrind parts of the suite), and every
 * accepted object must print.
 */
#include <CUnit/Basic.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include "gcn_codeobj.h"

static const char *manifest;
static FILE *devnull;

/* ---- small helpers ------------------------------------------------------ */

static int report(const char *file, const char *what, const char *key, const char *want,
                  unsigned long long got)
{
    fprintf(stderr, "test_codeobj: %s: %s %s: oracle says %s, reader says %llu\n", file, what,
            key, want, got);
    return 1;
}

static const char *type_name(unsigned t)
{
    switch (t) {
    case STT_NOTYPE: return "NOTYPE";
    case STT_OBJECT: return "OBJECT";
    case STT_FUNC: return "FUNC";
    case STT_SECTION: return "SECTION";
    case STT_FILE: return "FILE";
    case STT_COMMON: return "COMMON";
    case STT_TLS: return "TLS";
    default: return "?";
    }
}

/* Descriptor field by the name of its .amdhsa_ directive; -1 if unknown. */
static long long kd_field(const gcn_kd *kd, const char *k)
{
    static const char *const exc[7] = {
        "exception_fp_ieee_invalid_op", "exception_fp_denorm_src", "exception_fp_ieee_div_zero",
        "exception_fp_ieee_overflow", "exception_fp_ieee_underflow", "exception_fp_ieee_inexact",
        "exception_int_div_zero"};
    for (int i = 0; i < 7; i++)
        if (!strcmp(k, exc[i]))
            return (kd->exception_mask >> i) & 1;
#define F(name, expr) if (!strcmp(k, name)) return (long long)(expr)
    F("group_segment_fixed_size", kd->group_segment_fixed_size);
    F("private_segment_fixed_size", kd->private_segment_fixed_size);
    F("kernarg_size", kd->kernarg_size);
    F("accum_offset", kd->accum_offset);
    F("tg_split", kd->tg_split);
    F("next_free_vgpr", kd->next_free_vgpr);
    F("next_free_sgpr", kd->next_free_sgpr);
    F("float_round_mode_32", kd->float_round_mode_32);
    F("float_round_mode_16_64", kd->float_round_mode_16_64);
    F("float_denorm_mode_32", kd->float_denorm_mode_32);
    F("float_denorm_mode_16_64", kd->float_denorm_mode_16_64);
    F("dx10_clamp", kd->dx10_clamp);
    F("ieee_mode", kd->ieee_mode);
    F("fp16_overflow", kd->fp16_overflow);
    F("enable_private_segment", kd->enable_private_segment);
    F("system_sgpr_workgroup_id_x", kd->enable_sgpr_workgroup_id[0]);
    F("system_sgpr_workgroup_id_y", kd->enable_sgpr_workgroup_id[1]);
    F("system_sgpr_workgroup_id_z", kd->enable_sgpr_workgroup_id[2]);
    F("system_sgpr_workgroup_info", kd->enable_sgpr_workgroup_info);
    F("system_vgpr_workitem_id", kd->enable_vgpr_workitem_id);
    F("user_sgpr_count", kd->user_sgpr_count);
    F("user_sgpr_private_segment_buffer", kd->user_sgpr_private_segment_buffer);
    F("user_sgpr_dispatch_ptr", kd->user_sgpr_dispatch_ptr);
    F("user_sgpr_queue_ptr", kd->user_sgpr_queue_ptr);
    F("user_sgpr_kernarg_segment_ptr", kd->user_sgpr_kernarg_segment_ptr);
    F("user_sgpr_dispatch_id", kd->user_sgpr_dispatch_id);
    F("user_sgpr_flat_scratch_init", kd->user_sgpr_flat_scratch_init);
    F("user_sgpr_private_segment_size", kd->user_sgpr_private_segment_size);
    F("wavefront_size32", kd->enable_wavefront_size32);
    F("uses_dynamic_stack", kd->uses_dynamic_stack);
    F("user_sgpr_kernarg_preload_length", kd->kernarg_preload_length);
    F("user_sgpr_kernarg_preload_offset", kd->kernarg_preload_offset);
    /* Not descriptor fields: llvm-objdump prints them as 0 after folding
     * them into next_free_sgpr. */
    F("reserve_vcc", 0);
    F("reserve_xnack_mask", 0);
    F("reserve_flat_scratch", 0);
#undef F
    return -1;
}

static long long md_field(const gcn_kernel *k, const char *key)
{
#define F(name, field) if (!strcmp(key, name)) return (long long)k->field
    F(".kernarg_segment_size", md_kernarg_segment_size);
    F(".group_segment_fixed_size", md_group_segment_fixed_size);
    F(".private_segment_fixed_size", md_private_segment_fixed_size);
    F(".kernarg_segment_align", md_kernarg_segment_align);
    F(".wavefront_size", md_wavefront_size);
    F(".sgpr_count", md_sgpr_count);
    F(".vgpr_count", md_vgpr_count);
    F(".agpr_count", md_agpr_count);
    F(".max_flat_workgroup_size", md_max_flat_workgroup_size);
#undef F
    return -1;
}

static const char *str_or_empty(const char *s) { return s ? s : ""; }

/* Compare a code object with its oracle file; returns the number of mismatches. */
static int check_expect(const gcn_codeobj *co, const char *file, const char *expect)
{
    FILE *f = fopen(expect, "r");
    if (!f) {
        fprintf(stderr, "test_codeobj: cannot open %s\n", expect);
        return 1;
    }
    char line[4096];
    int bad = 0, nkern = 0, nsym = 0, nline = 0, nkd = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char a[1024], b[1024], c[1024], d[1024], e[1024];
        if (sscanf(line, "header abi %1023s", a) == 1) {
            if (strtoul(a, NULL, 10) != co->abi_version)
                bad += report(file, "header", "abi", a, co->abi_version);
        } else if (sscanf(line, "header flags %1023s", a) == 1) {
            if (strtoul(a, NULL, 0) != co->e_flags)
                bad += report(file, "header", "flags", a, co->e_flags);
        } else if (sscanf(line, "header mach %1023s", a) == 1) {
            if (strcmp(a, gcn_co_mach_name(co->mach)) || strcmp(a, gcn_target_name(co->target)))
                bad += report(file, "header", "mach", a, co->mach);
        } else if (sscanf(line, "header type %1023s", a) == 1) {
            unsigned want = !strcmp(a, "DYN") ? ET_DYN : !strcmp(a, "REL") ? ET_REL : 0;
            if (want != co->elf_type)
                bad += report(file, "header", "type", a, co->elf_type);
        } else if (sscanf(line, "sym %1023s %1023s %1023s %1023s", a, b, c, d) == 4) {
            /* The reader keeps the table in file order: find the entry. */
            int found = 0;
            for (unsigned i = 0; i < co->nsyms && !found; i++) {
                const gcn_symbol *s = &co->syms[i];
                if (!strcmp(s->name, a) && s->value == strtoull(b, NULL, 0) &&
                    s->size == strtoull(c, NULL, 0) && !strcmp(type_name(s->type), d))
                    found = 1;
            }
            if (!found) {
                fprintf(stderr, "test_codeobj: %s: symbol %s %s %s %s not read\n", file, a, b, c,
                        d);
                bad++;
            }
            nsym++;
        } else if (sscanf(line, "kernel %1023s", a) == 1) {
            const gcn_kernel *k = gcn_co_kernel(co, a);
            if (!k || !k->has_metadata) {
                fprintf(stderr, "test_codeobj: %s: kernel %s %s\n", file, a,
                        k ? "has no metadata" : "missing");
                bad++;
            }
            nkern++;
        } else if (sscanf(line, "kd %1023s %1023s %1023s", a, b, c) == 3) {
            const gcn_kernel *k = gcn_co_kernel(co, a);
            long long v = k ? kd_field(&k->kd, b) : -2;
            if (v == -1) {
                fprintf(stderr, "test_codeobj: %s: descriptor directive .amdhsa_%s not mapped "
                                "to a reader field\n", file, b);
                bad++;
            } else if (v != strtoll(c, NULL, 0)) {
                bad += report(file, a, b, c, (unsigned long long)v);
            }
            nkd++;
        } else if (sscanf(line, "md %1023s %1023s %1023s", a, b, c) == 3) {
            const gcn_kernel *k = gcn_co_kernel(co, a);
            if (!k) {
                bad++;
                continue;
            }
            long long v = md_field(k, b);
            if (v >= 0 && v != strtoll(c, NULL, 0))
                bad += report(file, a, b, c, (unsigned long long)v);
        } else if (sscanf(line, "nargs %1023s %1023s", a, b) == 2) {
            const gcn_kernel *k = gcn_co_kernel(co, a);
            if (!k || k->nargs != strtoul(b, NULL, 10))
                bad += report(file, a, "nargs", b, k ? k->nargs : 0);
        } else if (sscanf(line, "arg %1023s %1023s %1023s %1023[^\n]", a, b, c, d) == 4) {
            const gcn_kernel *k = gcn_co_kernel(co, a);
            unsigned i = (unsigned)strtoul(b, NULL, 10);
            if (!k || i >= k->nargs) {
                bad++;
                continue;
            }
            const gcn_kernarg *g = &k->args[i];
            int ok = 1;
            if (!strcmp(c, ".offset"))
                ok = g->offset == strtoul(d, NULL, 0);
            else if (!strcmp(c, ".size"))
                ok = g->size == strtoul(d, NULL, 0);
            else if (!strcmp(c, ".name"))
                ok = !strcmp(str_or_empty(g->name), d);
            else if (!strcmp(c, ".value_kind"))
                ok = !strcmp(str_or_empty(g->value_kind), d);
            else if (!strcmp(c, ".address_space"))
                ok = !strcmp(str_or_empty(g->address_space), d);
            if (!ok) {
                fprintf(stderr, "test_codeobj: %s: kernel %s arg %u %s: oracle says %s\n", file,
                        a, i, c, d);
                bad++;
            }
        } else if (sscanf(line, "line %1023s %1023s %1023[^\n]", a, b, e) == 3) {
            const gcn_line *l = gcn_co_line(co, strtoull(a, NULL, 0));
            if (!l || l->line != strtoul(b, NULL, 10) || strcmp(l->file, e)) {
                fprintf(stderr, "test_codeobj: %s: line at %s: oracle says %s:%s, reader says "
                                "%s:%u\n", file, a, e, b, l ? l->file : "(none)",
                        l ? l->line : 0);
                bad++;
            }
            nline++;
        }
    }
    fclose(f);
    if ((unsigned)nkern != co->nkernels) {
        fprintf(stderr, "test_codeobj: %s: oracle lists %d kernels, reader %u\n", file, nkern,
                co->nkernels);
        bad++;
    }
    if (nkern && !nkd) {
        fprintf(stderr, "test_codeobj: %s: oracle printed no descriptor\n", file);
        bad++;
    }
    if (!nsym) {
        fprintf(stderr, "test_codeobj: %s: oracle printed no symbols\n", file);
        bad++;
    }
    (void)nline;
    return bad;
}

/* Print every way gcndis can; output goes to /dev/null. */
static void print_all(const gcn_codeobj *co)
{
    CU_ASSERT_EQUAL(gcn_co_print_llvm_text(co, devnull), 0);
    CU_ASSERT_EQUAL(gcn_co_print_listing(co, NULL, devnull), 0);
    for (unsigned i = 0; i < co->nkernels; i++)
        CU_ASSERT_EQUAL(gcn_co_print_listing(co, co->kernels[i].name, devnull), 0);
}

static int read_all(const char *path, uint8_t **data, size_t *len)
{
    gcn_co_err err;
    if (gcn_co_read_file(path, data, len, &err)) {
        fprintf(stderr, "test_codeobj: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Iterate the manifest: fn(kind, fields...) for each line. */
typedef void (*line_fn)(char *kind, char **fld, int n);

static void each_line(line_fn fn)
{
    FILE *f = fopen(manifest, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char *fld[8];
        int n = 0;
        for (char *t = strtok(line, " \t\n"); t && n < 8; t = strtok(NULL, " \t\n"))
            fld[n++] = t;
        if (n)
            fn(fld[0], fld + 1, n - 1);
    }
    fclose(f);
}

/* ---- tests -------------------------------------------------------------- */

static int ngood, nbad, nbundle;

static void good_line(char *kind, char **fld, int n)
{
    if (strcmp(kind, "good") || n != 2)
        return;
    gcn_codeobj *co;
    gcn_co_err err;
    int rc = gcn_co_open(fld[0], &co, &err);
    if (rc) {
        fprintf(stderr, "test_codeobj: cannot read %s: %s\n", fld[0], err.msg);
        CU_FAIL("a good code object was refused");
        return;
    }
    ngood++;
    CU_ASSERT_EQUAL(check_expect(co, fld[0], fld[1]), 0);
    CU_ASSERT(co->target == GCN_TARGET_GFX942 || co->target == GCN_TARGET_GFX950);
    CU_ASSERT(co->code_object_version >= 4 && co->code_object_version <= 6);
    CU_ASSERT(co->text_size > 0 && co->nregions > 0);
    /* Regions tile .text exactly. */
    uint64_t a = co->text_addr;
    for (unsigned i = 0; i < co->nregions; i++) {
        CU_ASSERT_EQUAL(co->regions[i].start, a);
        CU_ASSERT(co->regions[i].end > co->regions[i].start);
        a = co->regions[i].end;
    }
    CU_ASSERT_EQUAL(a, co->text_addr + co->text_size);
    for (unsigned i = 0; i < co->nkernels; i++) {
        const gcn_kernel *k = &co->kernels[i];
        CU_ASSERT(k->entry_addr >= co->text_addr && k->entry_addr < co->text_addr + co->text_size);
        const gcn_symbol *s = gcn_co_symbol_at(co, k->entry_addr);
        CU_ASSERT_PTR_NOT_NULL(s);
        if (s)
            CU_ASSERT_STRING_EQUAL(s->name, k->name);
    }
    /* the symbols that can name a .text address answer as all of them, at every address
     * (gcnsim's lookup per pre-decoded instruction) */
    uint32_t idx[64];
    unsigned nsym = gcn_co_symbols_in(co, co->text_addr, co->text_addr + co->text_size, idx, 64);
    CU_ASSERT(nsym <= 64);
    for (uint64_t pc = co->text_addr; nsym <= 64 && pc < co->text_addr + co->text_size; pc += 4)
        CU_ASSERT_PTR_EQUAL(gcn_co_symbol_at_in(co, idx, nsym, pc), gcn_co_symbol_at(co, pc));
    print_all(co);
    gcn_co_close(co);
}

static void test_good(void)
{
    ngood = 0;
    each_line(good_line);
    CU_ASSERT(ngood >= 4);
}

static void bundle_line(char *kind, char **fld, int n)
{
    if (strcmp(kind, "bundle") || n != 3)
        return;
    gcn_codeobj *co;
    gcn_co_err err;
    if (gcn_co_open_arch(fld[0], fld[1], &co, &err)) {
        fprintf(stderr, "test_codeobj: cannot read %s for %s: %s\n", fld[0], fld[1], err.msg);
        CU_FAIL("a good bundle was refused");
        return;
    }
    nbundle++;
    CU_ASSERT_PTR_NOT_NULL(co->bundle_triple);
    CU_ASSERT_STRING_EQUAL(gcn_target_name(co->target), fld[1]);
    CU_ASSERT_EQUAL(check_expect(co, fld[0], fld[2]), 0);
    print_all(co);
    gcn_co_close(co);

    /* The default choice is a supported GPU entry. */
    CU_ASSERT_EQUAL_FATAL(gcn_co_open(fld[0], &co, &err), 0);
    CU_ASSERT(co->target == GCN_TARGET_GFX942 || co->target == GCN_TARGET_GFX950);
    gcn_co_close(co);
    /* An absent arch is refused by name. */
    CU_ASSERT_EQUAL(gcn_co_open_arch(fld[0], "gfx90a", &co, &err), GCN_CO_ETARGET);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, fld[0]));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "gfx90a"));
}

static void test_bundle(void)
{
    nbundle = 0;
    each_line(bundle_line);
    CU_ASSERT(nbundle >= 1);
}

static void bad_line(char *kind, char **fld, int n)
{
    if (strcmp(kind, "bad") || n < 1)
        return;
    gcn_codeobj *co = (gcn_codeobj *)1;
    gcn_co_err err = {{0}};
    int rc = gcn_co_open(fld[0], &co, &err);
    nbad++;
    if (rc == 0) {
        fprintf(stderr, "test_codeobj: %s was accepted, should be refused\n", fld[0]);
        CU_FAIL("a bad code object was accepted");
        gcn_co_close(co);
        return;
    }
    CU_ASSERT_PTR_NULL(co);
    CU_ASSERT(rc == GCN_CO_EIO || rc == GCN_CO_EFORMAT || rc == GCN_CO_ETARGET);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, fld[0]));
    /* The message says what is wrong (more than the file name). */
    CU_ASSERT(strlen(err.msg) > strlen(fld[0]) + 8);
    for (int i = 1; i < n; i++)       /* words the message must contain */
        if (!strstr(err.msg, fld[i])) {
            fprintf(stderr, "test_codeobj: message for %s lacks '%s': %s\n", fld[0], fld[i],
                    err.msg);
            CU_FAIL("message lacks an expected word");
        }
}

static void test_bad(void)
{
    nbad = 0;
    each_line(bad_line);
    CU_ASSERT(nbad >= 6);
}

/* Every prefix of every good file, and a deterministic set of byte
 * corruptions: never a crash; accepted objects print. */
static unsigned long ntrunc, ncorrupt, naccepted;

static void robust_line(char *kind, char **fld, int n)
{
    /* One assembled and one compiled object per target, and the bundle. */
    if (strcmp(kind, "bundle") && !(strcmp(kind, "good") == 0 &&
                                    (strstr(fld[0], "asm_gfx942_v5") || strstr(fld[0], "hip_gfx950_v6"))))
        return;
    (void)n;
    uint8_t *data;
    size_t len;
    if (read_all(fld[0], &data, &len))
        return;
    gcn_codeobj *co;
    gcn_co_err err;
    size_t step = len / 1500 + 1;
    for (size_t l = 0; l < len; l += step) {
        ntrunc++;
        if (gcn_co_open_mem(fld[0], data, l, &co, &err) == 0) {
            naccepted++;
            CU_ASSERT_EQUAL(gcn_co_print_llvm_text(co, devnull), 0);
            gcn_co_close(co);
        } else {
            CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, fld[0]));
        }
    }
    uint8_t *m = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    uint32_t x = 12345;
    static const uint8_t vals[] = {0x00, 0xff, 0x7f, 0x80, 0x01, 0x40};
    for (size_t pos = 0; pos < len; pos += step) {
        memcpy(m, data, len);
        x = x * 1103515245u + 12345u;
        m[pos] = (x >> 16) & 1 ? vals[(x >> 17) % 6] : (uint8_t)(m[pos] ^ (1u << ((x >> 20) & 7)));
        ncorrupt++;
        if (gcn_co_open_mem(fld[0], m, len, &co, &err) == 0) {
            naccepted++;
            print_all(co);
            gcn_co_close(co);
        } else {
            CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, fld[0]));
        }
    }
    free(m);
    free(data);
}

static void test_robust(void)
{
    ntrunc = ncorrupt = naccepted = 0;
    each_line(robust_line);
    fprintf(stderr, "test_codeobj: %lu truncations, %lu corruptions, %lu accepted\n", ntrunc,
            ncorrupt, naccepted);
    CU_ASSERT(ntrunc > 1000);
}

static void test_names(void)
{
    CU_ASSERT_STRING_EQUAL(gcn_co_mach_name(0x3f), "gfx90a");
    CU_ASSERT_STRING_EQUAL(gcn_co_mach_name(0x4c), "gfx942");
    CU_ASSERT_STRING_EQUAL(gcn_co_mach_name(0x4f), "gfx950");
    CU_ASSERT_PTR_NULL(gcn_co_mach_name(0xfe));
    char p[64];
    gcn_bundle_processor("hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", p, sizeof p);
    CU_ASSERT_STRING_EQUAL(p, "gfx942");
    gcn_bundle_processor("host-x86_64-unknown-linux-gnu-", p, sizeof p);
    CU_ASSERT_STRING_EQUAL(p, "");
    gcn_bundle_processor("hipv4-amdgcn-amd", p, sizeof p);
    CU_ASSERT_STRING_EQUAL(p, "");
    gcn_bundle_entry e[3] = {{"host-x86_64-unknown-linux-gnu-", 0, 0},
                             {"hipv4-amdgcn-amd-amdhsa--gfx950", 0, 0},
                             {"hipv4-amdgcn-amd-amdhsa--gfx942:xnack-", 0, 0}};
    gcn_co_err err;
    CU_ASSERT_EQUAL(gcn_bundle_select("b", e, 3, NULL, &err), 1);
    CU_ASSERT_EQUAL(gcn_bundle_select("b", e, 3, "gfx942", &err), 2);
    CU_ASSERT_EQUAL(gcn_bundle_select("b", e, 3, "gfx942:xnack-", &err), 2);
    CU_ASSERT_EQUAL(gcn_bundle_select("b", e, 3, "0", &err), 0);
    CU_ASSERT(gcn_bundle_select("b", e, 3, "gfx1100", &err) < 0);
    CU_ASSERT(gcn_bundle_select("b", e, 1, NULL, &err) < 0);

    /* Bundle headers that lie. */
    uint8_t buf[200];
    memset(buf, 0, sizeof buf);
    memcpy(buf, "__CLANG_OFFLOAD_BUNDLE__", 24);
    gcn_bundle_entry *be;
    unsigned bn;
    CU_ASSERT_EQUAL(gcn_bundle_list("b", buf, 24, &be, &bn, &err), GCN_CO_EFORMAT);
    buf[24] = 0xff; buf[31] = 0x7f;                     /* absurd count */
    CU_ASSERT_EQUAL(gcn_bundle_list("b", buf, sizeof buf, &be, &bn, &err), GCN_CO_EFORMAT);
    buf[24] = 1; buf[31] = 0;
    buf[32] = 100; buf[40] = 200; buf[48] = 4;          /* entry past the end */
    memcpy(buf + 56, "abcd", 4);
    CU_ASSERT_EQUAL(gcn_bundle_list("b", buf, sizeof buf, &be, &bn, &err), GCN_CO_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "outside"));
    buf[40] = 50;                                       /* now it fits */
    CU_ASSERT_EQUAL(gcn_bundle_list("b", buf, sizeof buf, &be, &bn, &err), 0);
    if (bn == 1)
        CU_ASSERT_STRING_EQUAL(be[0].triple, "abcd");
    gcn_bundle_free(be, bn);
    buf[48] = 0xff;                                     /* triple longer than the file */
    CU_ASSERT_EQUAL(gcn_bundle_list("b", buf, sizeof buf, &be, &bn, &err), GCN_CO_EFORMAT);

    /* Not-ELF and empty inputs. */
    gcn_codeobj *co;
    CU_ASSERT_EQUAL(gcn_co_open_mem("m", "", 0, &co, &err), GCN_CO_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "empty"));
    CU_ASSERT_EQUAL(gcn_co_open_mem("m", "hello world", 11, &co, &err), GCN_CO_EFORMAT);
    CU_ASSERT_EQUAL(gcn_co_open_mem("m", "\177ELF", 4, &co, &err), GCN_CO_EFORMAT);
    CU_ASSERT_EQUAL(gcn_co_open_mem("m", "CCOB\1\0\0\0", 8, &co, &err), GCN_CO_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "compressed"));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_codeobj MANIFEST\n");
        return 2;
    }
    manifest = argv[1];
    devnull = fopen("/dev/null", "w");
    if (!devnull || CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite("codeobj", NULL, NULL);
    CU_add_test(s, "names and bundle headers", test_names);
    CU_add_test(s, "good code objects match llvm-readelf/llvm-objdump", test_good);
    CU_add_test(s, "offload bundles", test_bundle);
    CU_add_test(s, "corrupt inputs are refused by name", test_bad);
    CU_add_test(s, "truncations and corruptions", test_robust);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    fclose(devnull);
    return fails ? 1 : 0;
}
