/*
 * test_idxmode.c -- VGPR index mode (s_set_gpr_idx_on/idx/mode/off) and VSKIP
 * (s_setvskip) in a kernel on both targets: the indexed operands read and
 * write VGPR n + M0[7:0] as the mask in M0[15:12] selects (src0, src1, src2,
 * dst), other operands are untouched, the mode ends with s_set_gpr_idx_off,
 * vector instructions are not issued while MODE.VSKIP is set, and an index
 * that leaves the kernel's VGPRs is a fault naming the register; AGPR operands
 * (v_accvgpr_read/write) are indexed the same way.  gcn_sim_reset: one device
 * runs the index-mode kernel, then (reset) the faulting one with other
 * options, then (reset) the first again, and its results, addresses and
 * predecoded program (with the index-mode variants) are a fresh device's.
 * Expected values are worked out here from the ISA's definitions.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "simtest.h"
#include "sim/manifest.h"

#define KTAIL(NV) KTAIL_ACC(NV, NV)
/* NV unified VGPRs, the AGPRs from ACC on (gfx90a and later: a0 is row ACC) */
#define KTAIL_ACC(NV, ACC)                                                                       \
    ".rodata\n.p2align 6\n.amdhsa_kernel k\n"                                                    \
    "  .amdhsa_kernarg_size 8\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"                      \
    "  .amdhsa_next_free_vgpr " NV "\n  .amdhsa_next_free_sgpr 32\n  .amdhsa_accum_offset " ACC   \
    "\n.end_amdhsa_kernel\n"                                                                     \
    ".amdgpu_metadata\n---\namdhsa.version: [1, 2]\namdhsa.kernels:\n"                           \
    "  - .name: k\n    .symbol: k.kd\n    .kernarg_segment_size: 8\n"                            \
    "    .kernarg_segment_align: 8\n    .group_segment_fixed_size: 0\n"                          \
    "    .private_segment_fixed_size: 0\n    .wavefront_size: 64\n"                              \
    "    .sgpr_count: 32\n    .vgpr_count: " NV "\n    .max_flat_workgroup_size: 1024\n"          \
    "    .args:\n"                                                                               \
    "      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}\n" \
    "...\n.end_amdgpu_metadata\n"

#define KHEAD                                                                                    \
    ".amdhsa_code_object_version 5\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n"       \
    "  s_load_dwordx2 s[10:11], s[0:1], 0x0\n"                                                   \
    "  s_waitcnt lgkmcnt(0)\n"                                                                   \
    "  v_lshlrev_b32 v1, 4, v0\n"          /* v[1+k] = lane * 16 + k, k = 0..7 */              \
    "  v_add_u32 v2, 1, v1\n  v_add_u32 v3, 2, v1\n  v_add_u32 v4, 3, v1\n"                      \
    "  v_add_u32 v5, 4, v1\n  v_add_u32 v6, 5, v1\n  v_add_u32 v7, 6, v1\n"                      \
    "  v_add_u32 v8, 7, v1\n  v_mov_b32 v15, 9\n"

static const char src_ok[] = KHEAD
    "  s_mov_b32 m0, 0xffff0f00\n"          /* bits outside [15:12], [7:0] must survive */
    "  s_mov_b32 s20, 0x103\n"              /* index 3 (only bits 7:0 count) */
    "  s_set_gpr_idx_on s20, gpr_idx(SRC0)\n"
    "  v_mov_b32 v10, v1\n"                 /* v10 = v4 */
    "  s_set_gpr_idx_off\n"
    "  s_mov_b32 s21, 2\n"
    "  s_set_gpr_idx_on s21, gpr_idx(DST)\n"
    "  v_mov_b32 v1, 0x309\n"               /* v3 = 777 */
    "  s_set_gpr_idx_off\n"
    "  v_mov_b32 v11, v3\n"                 /* not indexed: 777 */
    "  s_set_gpr_idx_on s20, gpr_idx(SRC0,SRC1)\n"
    "  v_add_u32 v12, v1, v2\n"             /* v4 + v5 */
    "  s_set_gpr_idx_idx s21\n"
    "  v_add_u32 v13, v1, v2\n"             /* v3 + v4 */
    "  s_set_gpr_idx_mode gpr_idx(DST)\n"
    "  v_mov_b32 v12, v2\n"                 /* v14 = v2 */
    "  s_set_gpr_idx_off\n"
    "  s_mov_b32 s22, 2\n"
    "  s_setvskip s22, 1\n"                 /* bit 1 of 2: VSKIP on */
    "  v_mov_b32 v15, 5\n"                  /* not issued */
    "  s_setvskip s22, 0\n"                 /* bit 0 of 2: off */
    "  s_mov_b32 s23, m0\n"
    "  v_mov_b32 v16, s23\n"
    "  v_lshlrev_b32 v20, 5, v0\n"
    "  global_store_dwordx4 v20, v[10:13], s[10:11]\n"
    "  global_store_dwordx3 v20, v[14:16], s[10:11] offset:16\n"
    "  s_endpgm\n" KTAIL("24");

static const char src_fault[] = KHEAD
    "  s_mov_b32 s20, 30\n"
    "  s_set_gpr_idx_on s20, gpr_idx(SRC0)\n"
    "  v_mov_b32 v10, v1\n"                 /* v31: beyond the 24 VGPRs */
    "  s_set_gpr_idx_off\n"
    "  s_endpgm\n" KTAIL("24");

/* AGPR operands are indexed too: v_accvgpr_read_b32 v, aN reads a(N + idx) under
 * gpr_idx(SRC0), v_accvgpr_write_b32 aN, v writes a(N + idx) under gpr_idx(DST).  AITER's
 * gfx950 f4gemm_bf16_per1x32Fp4_noBpreShuffle_256x256 walks its 64 accumulator tiles this way
 * (s_set_gpr_idx_on s92, gpr_idx(SRC0) around v_accvgpr_read_b32 v12, a0 ..., s92 += 4 per
 * 16-row block); with only VGPRs indexed every block stored tile 0 (docs/gcnsim.md). */
static const char src_agpr[] = KHEAD
    "  v_accvgpr_write_b32 a0, v1\n  v_accvgpr_write_b32 a1, v2\n"
    "  v_accvgpr_write_b32 a2, v3\n  v_accvgpr_write_b32 a3, v4\n"
    "  s_mov_b32 s20, 2\n"
    "  s_set_gpr_idx_on s20, gpr_idx(SRC0)\n"
    "  v_accvgpr_read_b32 v10, a0\n"       /* a2 = lane*16 + 2 */
    "  s_set_gpr_idx_off\n"
    "  s_set_gpr_idx_on s20, gpr_idx(DST)\n"
    "  v_accvgpr_write_b32 a1, v8\n"       /* a3 = lane*16 + 7 */
    "  s_set_gpr_idx_off\n"
    "  s_nop 1\n"
    "  v_accvgpr_read_b32 v11, a3\n"       /* lane*16 + 7 */
    "  v_accvgpr_read_b32 v12, a1\n"       /* untouched: lane*16 + 1 */
    "  v_mov_b32 v13, 0\n"
    "  v_lshlrev_b32 v20, 4, v0\n"
    "  global_store_dwordx4 v20, v[10:13], s[10:11]\n"
    "  s_endpgm\n" KTAIL_ACC("32", "24");

static const char src_agpr_fault[] = KHEAD
    "  s_mov_b32 s20, 6\n"
    "  s_set_gpr_idx_on s20, gpr_idx(SRC0)\n"
    "  v_accvgpr_read_b32 v10, a3\n"       /* a9: beyond the 8 AGPRs */
    "  s_set_gpr_idx_off\n"
    "  s_endpgm\n" KTAIL_ACC("32", "24");

static void test_index_agpr(void)
{
    for (int t = 0; t < 2; t++) {
        uint32_t out[64 * 4];
        memset(out, 0xee, sizeof out);
        st_kbuf b = {"A", sizeof out, out};
        gcn_sim_result res;
        memset(&res, 0, sizeof res);
        char msg[4096];
        int rc = st_kernel(t ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942, src_agpr, 1, 64, &b, 1, NULL,
                           0, &res, msg, sizeof msg);
        if (rc)
            fprintf(stderr, "AGPR index-mode kernel: rc %d: %s\n", rc, msg);
        CU_ASSERT_FATAL(rc == 0);
        for (unsigned l = 0; l < 64; l++) {
            uint32_t v1 = l * 16, *o = &out[4 * l];
            CU_ASSERT_EQUAL(o[0], v1 + 2);
            CU_ASSERT_EQUAL(o[1], v1 + 7);
            CU_ASSERT_EQUAL(o[2], v1 + 1);
        }
    }
    uint32_t out[64 * 4];
    st_kbuf b = {"A", sizeof out, out};
    gcn_sim_result res;
    memset(&res, 0, sizeof res);
    char msg[4096] = "";
    int rc = st_kernel(GCN_TARGET_GFX942, src_agpr_fault, 1, 64, &b, 1, NULL, 0, &res, msg,
                       sizeof msg);
    CU_ASSERT_EQUAL(rc, 3);
    if (rc != 3)
        fprintf(stderr, "AGPR fault kernel: rc %d: %s\n", rc, msg);
    else
        fprintf(stderr, "AGPR fault kernel: %s\n", msg);
}

static void test_index_mode(void)
{
    for (int t = 0; t < 2; t++) {
        uint32_t out[64 * 8];
        memset(out, 0xee, sizeof out);
        st_kbuf b = {"A", sizeof out, out};
        gcn_sim_result res;
        memset(&res, 0, sizeof res);
        char msg[4096];
        int rc = st_kernel(t ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942, src_ok, 1, 64, &b, 1, NULL,
                           0, &res, msg, sizeof msg);
        if (rc)
            fprintf(stderr, "index-mode kernel: rc %d: %s\n", rc, msg);
        CU_ASSERT_FATAL(rc == 0);
        for (unsigned l = 0; l < 64; l++) {
            uint32_t v1 = l * 16, *o = &out[8 * l];
            CU_ASSERT_EQUAL(o[0], v1 + 3);
            CU_ASSERT_EQUAL(o[1], 777u);
            CU_ASSERT_EQUAL(o[2], (v1 + 3) + (v1 + 4));
            CU_ASSERT_EQUAL(o[3], 777u + v1 + 3);
            CU_ASSERT_EQUAL(o[4], v1 + 1);
            CU_ASSERT_EQUAL(o[5], 9u);
            /* M0: 0xffff0f00 with [7:0] = 2 and [15:12] = DST (8) */
            CU_ASSERT_EQUAL(o[6], 0xffff8f02u);
        }
    }
}

static void test_index_fault(void)
{
    uint32_t out[64 * 8];
    st_kbuf b = {"A", sizeof out, out};
    gcn_sim_result res;
    memset(&res, 0, sizeof res);
    char msg[4096] = "";
    int rc = st_kernel(GCN_TARGET_GFX942, src_fault, 1, 64, &b, 1, NULL, 0, &res, msg, sizeof msg);
    CU_ASSERT_EQUAL(rc, 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "v31"));
    if (rc != 3 || !strstr(msg, "v31"))
        fprintf(stderr, "fault kernel: rc %d: %s\n", rc, msg);
}

/* One run of SRC's kernel on S with options O (S reset to them first unless fresh): the
 * status, instructions, findings, fault message and the 64 x 8 words of its buffer, whose
 * address must be ADDR0 (a reset device allocates as a new one does). */
typedef struct run_out {
    int st;
    uint64_t insns, addr;
    unsigned nfind;
    char msg[1024];
    uint32_t out[64 * 8];
} run_out;

static gcn_codeobj *load(const char *src)
{
    char path[] = "/tmp/simtest-XXXXXX.s", err[2048];
    int fd = mkstemps(path, 2);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    fputs(src, f);
    fclose(f);
    gcn_codeobj *co = NULL;
    if (gcn_mf_load_code(path, "gfx942", &co, err, sizeof err))
        fprintf(stderr, "%s\n", err);
    unlink(path);
    return co;
}

static void run_on(gcn_sim *s, const gcn_codeobj *co, run_out *r)
{
    memset(r, 0, sizeof *r);
    memset(r->out, 0xee, sizeof r->out);
    CU_ASSERT_FATAL(gcn_sim_alloc(s, sizeof r->out, "A", &r->addr) == 0);
    memcpy(gcn_sim_host(s, r->addr, sizeof r->out), r->out, sizeof r->out);
    uint8_t ka[8];
    memcpy(ka, &r->addr, 8);
    gcn_dispatch d = {.co = co, .kernel = &co->kernels[0], .grid = {1, 1, 1},
                      .block = {64, 1, 1}, .kernarg = ka, .kernarg_size = sizeof ka};
    gcn_sim_result res;
    r->st = gcn_sim_run(s, &d, &res);
    r->insns = res.insns;
    r->nfind = res.nfindings;
    snprintf(r->msg, sizeof r->msg, "%s", res.msg);
    memcpy(r->out, gcn_sim_host(s, r->addr, sizeof r->out), sizeof r->out);
}

static void test_reset(void)
{
    gcn_codeobj *ok = load(src_ok), *bad = load(src_fault);
    CU_ASSERT_FATAL(ok && bad);
    gcn_sim_opts o = {.target = GCN_TARGET_GFX942, .max_insns = 100000};
    gcn_sim_opts o2 = {.target = GCN_TARGET_GFX942, .max_insns = 100000,
                       .hazard_effect = GCN_SIM_HZ_OFF, .quantum = 3};
    static run_out fresh, first, other, again;
    gcn_sim *f = gcn_sim_new(&o), *s = gcn_sim_new(&o);
    CU_ASSERT_FATAL(f && s);
    run_on(f, ok, &fresh);
    run_on(s, ok, &first);
    gcn_sim_reset(s, &o2);
    run_on(s, bad, &other);
    gcn_sim_reset(s, &o);
    run_on(s, ok, &again);
    CU_ASSERT_EQUAL(fresh.st, GCN_SIM_OK);
    CU_ASSERT_EQUAL(other.st, GCN_SIM_FAULT);
    CU_ASSERT_PTR_NOT_NULL(strstr(other.msg, "v31"));
    CU_ASSERT_EQUAL(first.addr, fresh.addr);
    CU_ASSERT_EQUAL(other.addr, fresh.addr);       /* the allocations went with the reset */
    CU_ASSERT_EQUAL(again.addr, fresh.addr);
    const run_out *cmp[2] = {&first, &again};
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(cmp[i]->st, fresh.st);
        CU_ASSERT_EQUAL(cmp[i]->insns, fresh.insns);
        CU_ASSERT_EQUAL(cmp[i]->nfind, fresh.nfind);   /* (findings do not pile up) */
        CU_ASSERT_STRING_EQUAL(cmp[i]->msg, fresh.msg);
        CU_ASSERT(memcmp(cmp[i]->out, fresh.out, sizeof fresh.out) == 0);
    }
    CU_ASSERT_EQUAL(fresh.out[6], 0xffff8f02u);       /* (test_index_mode's values) */
    gcn_sim_free(f);
    gcn_sim_free(s);
    gcn_co_close(ok);
    gcn_co_close(bad);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("idxmode", NULL, NULL);
    CU_add_test(s, "s_set_gpr_idx_on/idx/mode/off, s_setvskip", test_index_mode);
    CU_add_test(s, "an index beyond the VGPRs faults", test_index_fault);
    CU_add_test(s, "AGPR operands are indexed (v_accvgpr_read/write)", test_index_agpr);
    CU_add_test(s, "gcn_sim_reset: a reset device runs as a new one", test_reset);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
