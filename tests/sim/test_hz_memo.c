/*
 * test_hz_memo.c -- the hazard checks' memo (src/sim/hazard_sim.c): a check that found
 * nothing is skipped when the same instruction comes after the same GCN_HZ_WINDOW
 * instructions again.  Random kernels with a loop whose iterations take one of two paths
 * (a pseudo-random bit), made of instructions that produce and consume for the MFMA,
 * v_accvgpr, VALU-writes-SGPR, transcendental, VCC, EXEC and soft-clause rules, with
 * s_nops of random length between them, run on both targets with
 * sim_hz_memo_test.verify set: every skipped check is made all the same, and none may find
 * anything -- those the memo skips and those the look of the run loop's hook skips (an
 * instruction that consumes a group none of whose producers lies within the window).  The memo must be used (hits) and the kernels must have hazards (findings),
 * or the test proves nothing; a memo keyed on fewer predecessors (17 or fewer: the first
 * kernel) fails it.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>
#include "simtest.h"

#define KTAIL                                                                                    \
    ".rodata\n.p2align 6\n.amdhsa_kernel k\n"                                                    \
    "  .amdhsa_kernarg_size 8\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"                      \
    "  .amdhsa_next_free_vgpr 40\n  .amdhsa_next_free_sgpr 40\n  .amdhsa_accum_offset 32\n"      \
    ".end_amdhsa_kernel\n"                                                                       \
    ".amdgpu_metadata\n---\namdhsa.version: [1, 2]\namdhsa.kernels:\n"                           \
    "  - .name: k\n    .symbol: k.kd\n    .kernarg_segment_size: 8\n"                            \
    "    .kernarg_segment_align: 8\n    .group_segment_fixed_size: 0\n"                          \
    "    .private_segment_fixed_size: 0\n    .wavefront_size: 64\n"                              \
    "    .sgpr_count: 40\n    .vgpr_count: 40\n    .max_flat_workgroup_size: 1024\n"             \
    "    .args:\n"                                                                               \
    "      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}\n" \
    "...\n.end_amdgpu_metadata\n"

/* Producers and consumers of many rule groups, register operands only (nothing faults). */
static const char *const pool[] = {
    "v_mfma_f32_16x16x16_f16 v[20:23], v[10:11], v[12:13], v[20:23]",
    "v_mfma_f32_16x16x16_f16 v[24:27], v[10:11], v[12:13], v[20:23]",
    "v_mfma_f32_4x4x4_16b_f16 v[20:23], v[10:11], v[12:13], v[24:27]",
    "v_mfma_f32_16x16x16_f16 v[20:23], v[20:21], v[12:13], 0",
    "v_accvgpr_write_b32 a0, v1",
    "v_accvgpr_read_b32 v2, a0",
    "v_accvgpr_write_b32 a1, v21",
    "v_accvgpr_read_b32 v10, a1",
    "v_mov_b32 v3, v21",
    "v_add_f32 v22, v1, v2",
    "v_mov_b32 v11, v4",
    "v_readfirstlane_b32 s4, v1",
    "v_add_u32 v5, s4, v5",
    "v_readlane_b32 s5, v2, s4",
    "v_writelane_b32 v6, s5, 3",
    "v_exp_f32 v7, v6",
    "v_add_f32 v8, v7, v8",
    "v_cmp_gt_u32 vcc, v1, v2",
    "v_cndmask_b32 v9, v1, v2, vcc",
    "v_cmp_lt_u32 s[6:7], v3, v4",
    "s_mov_b64 exec, -1",
    "v_mov_b32 v12, v9",
    "s_load_dword s12, s[10:11], 0x0",
    "s_load_dword s13, s[10:11], 0x4",
    "s_waitcnt lgkmcnt(0)",
    "s_add_u32 s14, s12, s13",
    "s_nop 0",
    "s_nop 1",
    "s_nop 3",
};
#define NPOOL (sizeof pool / sizeof pool[0])

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* n random instructions; with mfma, the first is one of the MFMAs (the producers with the
 * longest windows, so that the paths differ far back) */
static void block(char *src, size_t cap, unsigned n, int mfma)
{
    for (unsigned i = 0; i < n; i++) {
        size_t l = strlen(src);
        snprintf(src + l, cap - l, "  %s\n", pool[!i && mfma ? rnd(4) : rnd(NPOOL)]);
    }
}

static void test_memo(void)
{
    static char src[16384];
    uint32_t buf[64] = {0};
    unsigned long long findings = 0, runs = 0;
    sim_hz_memo_test.verify = 1;
    sim_hz_memo_test.hits = sim_hz_memo_test.wrong = 0;
    sim_hz_memo_test.skips = sim_hz_memo_test.wrong_skips = 0;
    for (unsigned k = 0; k < 40; k++) {
        snprintf(src, sizeof src,
                 ".amdhsa_code_object_version 5\n.text\n.globl k\n.p2align 8\n.type k,@function\n"
                 "k:\n  s_load_dwordx2 s[10:11], s[0:1], 0x0\n  s_waitcnt lgkmcnt(0)\n"
                 "  v_mov_b32 v1, v0\n  v_add_u32 v2, 7, v0\n  v_mov_b32 v10, v0\n"
                 "  v_mov_b32 v11, v2\n  v_mov_b32 v12, v1\n  v_mov_b32 v13, v2\n"
                 "  s_mov_b32 s30, %u\n  s_mov_b32 s29, %u\n"
                 "L:\n", 12 + rnd(20), rnd(1u << 30));
        if (k)
            block(src, sizeof src, 2 + rnd(10), 0);
        size_t l = strlen(src);
        /* a pseudo-random bit of an LCG picks the path */
        snprintf(src + l, sizeof src - l,
                 "  s_mul_i32 s29, s29, 1103515245\n  s_add_u32 s29, s29, 12345\n"
                 "  s_bitcmp1_b32 s29, %u\n  s_cbranch_scc1 J\n", 16 + rnd(12));
        if (k) {
            block(src, sizeof src, 1 + rnd(8), rnd(2));
            l = strlen(src);
            snprintf(src + l, sizeof src - l, "J:\n");
            block(src, sizeof src, 1 + rnd(6), 0);
        } else {
            /* the first kernel: v_mov reads the 16-pass MFMA's v21 18 instructions later
             * on one path (a hazard, SMFMA_VALU_READ: 18 wait states are needed, 17 are
             * there), and on the
             * other the same 17 instructions come before it (v_exp, a transcendental
             * producer, makes it check) */
            l = strlen(src);
            snprintf(src + l, sizeof src - l,
                     "  v_mfma_f32_32x32x2_f32 v[16:31], v10, v12, v[16:31]\n"
                     "J:\n");
            for (unsigned i = 0; i < 16; i++) {
                l = strlen(src);
                snprintf(src + l, sizeof src - l, "  v_add_f32 v%u, v1, v%u\n", 4 + i % 6,
                         4 + i % 6);
            }
            l = strlen(src);
            snprintf(src + l, sizeof src - l, "  v_exp_f32 v3, v2\n  v_mov_b32 v3, v21\n");
        }
        l = strlen(src);
        snprintf(src + l, sizeof src - l,
                 "  s_sub_u32 s30, s30, 1\n  s_cmp_lg_u32 s30, 0\n  s_cbranch_scc1 L\n"
                 "  s_endpgm\n" KTAIL);
        for (int t = 0; t < 2; t++) {
            gcn_target tg = t ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942;
            st_kbuf b = {"A", sizeof buf, buf};
            gcn_sim_result res;
            char msg[8192];
            int rc = st_kernel(tg, src, 2, 128, &b, 1, NULL, 0, &res, msg, sizeof msg);
            if (rc != 0 && rc != 4) {
                fprintf(stderr, "kernel %u (%s): rc %d: %s\n%s", k, gcn_target_name(tg), rc, msg,
                        src);
                CU_FAIL("kernel did not run");
                continue;
            }
            findings += res.nfindings;
            runs++;
        }
    }
    sim_hz_memo_test.verify = 0;
    printf("\n  %llu runs, %llu hazard findings (sites), %llu checks skipped by the memo, "
           "%llu of them wrong; %llu skipped by the look, %llu of them wrong\n", runs, findings,
           sim_hz_memo_test.hits, sim_hz_memo_test.wrong, sim_hz_memo_test.skips,
           sim_hz_memo_test.wrong_skips);
    CU_ASSERT_EQUAL(runs, 80);
    CU_ASSERT(findings > 0);
    CU_ASSERT(sim_hz_memo_test.hits > 1000);
    CU_ASSERT_EQUAL(sim_hz_memo_test.wrong, 0);
    CU_ASSERT(sim_hz_memo_test.skips > 1000);
    CU_ASSERT_EQUAL(sim_hz_memo_test.wrong_skips, 0);
}

/* The memo's window (sim_int.h sim_hz_memo_win) as the run loop's hook (sim_hz_post) fills
 * the ring's slots: after each instruction, the idx of the last GCN_HZ_WINDOW, oldest first,
 * also where they wrap around the slots' end (and n: how many are the wave's) -- from a
 * wave's start, and across the 32-bit wrap of the instruction count. */
static void test_memo_window(void)
{
    static struct sim_hz h;
    static sim_insn si[4 * SIM_HZ_SLOTS];
    for (unsigned k = 0; k < 4 * SIM_HZ_SLOTS; k++) {
        si[k].idx = 1000 + k;
        si[k].hz_ws = 1;
        si[k].hz_pg[0] = si[k].hz_pg[1] = 64;
    }
    static const unsigned starts[] = {0, 0xffffffffu - 2 * SIM_HZ_SLOTS + 7};
    unsigned bad = 0, wrapped = 0;
    for (unsigned t = 0; t < 2; t++) {
        memset(&h, 0, sizeof h);
        h.rn = starts[t];
        for (unsigned k = 0; k < 4 * SIM_HZ_SLOTS; k++) {
            sim_hz_post(NULL, NULL, &h, &si[k], 1);
            unsigned n;
            uint32_t buf[2 * GCN_HZ_WINDOW];
            const uint32_t *w = sim_hz_memo_win(&h, &n, buf);
            wrapped += w >= buf && w < buf + 2 * GCN_HZ_WINDOW;
            bad += n != (h.rn < GCN_HZ_WINDOW ? h.rn : GCN_HZ_WINDOW);
            for (unsigned i = 0; i < GCN_HZ_WINDOW; i++) {
                unsigned back = GCN_HZ_WINDOW - 1 - i;      /* (instructions before the newest) */
                if (back <= k && w[i] != 1000 + k - back)
                    bad++;
            }
        }
    }
    CU_ASSERT(wrapped > 0);
    CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("hz_memo", NULL, NULL);
    CU_add_test(s, "memo skips only checks that find nothing", test_memo);
    CU_add_test(s, "the memo's window in the ring's slots", test_memo_window);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned f = CU_get_number_of_failures();
    CU_cleanup_registry();
    return f ? 1 : 0;
}
