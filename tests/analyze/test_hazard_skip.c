/*
 * test_hazard_skip.c -- the simulator's shortcut through the hazard engine
 * (src/sim/hazard_sim.c) gives exactly the findings of the full history.
 *
 * The simulator checks an instruction only when it consumes a rule group
 * with a producer entry inside the group's window (or a soft clause is
 * running), and gives a history entry only
 * to instructions that can be the producer of a group an instruction decoded
 * so far consumes (gcn_hz_roles); the others advance the clock
 * (gcn_hz_skip).  When a newly decoded instruction consumes new groups, the
 * history is rebuilt from the ring of the last SIM_HZ_RING instructions.
 * This test runs that policy (the same steps as hazard_sim.c) side by side
 * with a full history (every instruction pushed, every instruction checked;
 * the filtered side checks only the groups that can find, gcn_hz_check_groups)
 * over random sequences drawn from a pool of instructions that produce and
 * consume every group of hazards.def (assembled by llvm-mc-22), on gfx942
 * and gfx950, with and without xnack, the a0 lookahead and the strict
 * window, and requires identical findings at every step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_decode.h"
#include "analyze/gcn_hazard.h"
#include "../mcbytes.h"

#define MAXP 160
#define RING 32            /* SIM_HZ_RING of src/sim/sim_int.h */

typedef struct pool {
    gcn_decoder d;
    unsigned n;
    gcn_insn in[MAXP];
    gcn_hz_insn hi[MAXP];
    uint64_t cons[MAXP], prod[MAXP];
} pool;

/* Instructions of every producer and consumer class (lines a target does not
 * have are dropped by llvm-mc with an error, which is fine). */
static const char *const common_src =
    "v_add_f32 v1, v2, v3\n"
    "v_fma_f32 v2, v2, v6, v1\n"
    "v_add_u32 v4, s4, v4\n"
    "v_add_u32_e64 v5, s8, v5\n"
    "v_cndmask_b32 v1, v2, v3, vcc\n"
    "v_add_co_u32 v1, vcc, v2, v3\n"
    "v_addc_co_u32 v2, vcc, v3, v4, vcc\n"
    "v_cmp_eq_u32 vcc, v1, v2\n"
    "v_cmp_gt_u32 s[4:5], s8, v1\n"
    "v_cmpx_eq_u32 v0, v1\n"
    "v_readfirstlane_b32 s6, v3\n"
    "v_readlane_b32 s7, v4, s8\n"
    "v_writelane_b32 v5, s9, s8\n"
    "v_exp_f32 v5, v6\n"
    "v_rcp_f32 v1, v2\n"
    "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
    "v_add_f32_dpp v3, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf\n"
    "v_mov_b32_sdwa v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD\n"
    "v_add_f16 v1, v2, v3 op_sel:[0,0,1]\n"
    "v_pk_add_f16 v4, v5, v6\n"
    "v_div_fmas_f32 v1, v2, v3, v4\n"
    "v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]\n"
    "v_dot2_f32_f16 v1, v2, v3, v4\n"
    "v_dot2c_f32_f16 v1, v2, v3\n"
    "v_mfma_f32_4x4x1f32 v[0:3], v1, v2, v[0:3]\n"
    "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]\n"
    "v_mfma_f32_16x16x16f16 v[4:7], v[0:1], v[2:3], v[4:7]\n"
    "v_mfma_f32_32x32x2f32 v[0:31], v1, v2, v[0:31]\n"
    "v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7]\n"
    "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[2:3], v[4:5], v[0:1]\n"
    "v_smfmac_f32_16x16x32_f16 v[0:3], v[10:11], v[4:7], v8\n"
    "v_accvgpr_read_b32 v1, a0\n"
    "v_accvgpr_write_b32 a1, v2\n"
    "v_cvt_sr_fp8_f32 v1, v2, v3 op_sel:[0,0,1,1]\n"
    "buffer_load_dword v1, v2, s[4:7], 0 offen\n"
    "buffer_load_dword v2, s[8:11], 0 offen lds\n"
    "buffer_store_dwordx4 v[6:9], v2, s[8:11], 0 offen\n"
    "buffer_store_dword v4, v1, s[4:7], s8 offen\n"
    "global_load_dword v3, v[4:5], off\n"
    "global_load_dwordx2 v[2:3], v1, s[4:5]\n"
    "global_store_dwordx4 v[4:5], v[6:9], off\n"
    "global_store_dword v1, v2, s[6:7]\n"
    "flat_load_dword v1, v[2:3]\n"
    "scratch_store_dwordx3 off, v[1:3], s4\n"
    "s_load_dword s10, s[2:3], 0x0\n"
    "s_load_dwordx2 s[4:5], s[6:7], 0x8\n"
    "s_load_dwordx4 s[8:11], s[0:1], 0x10\n"
    "ds_read_b32 v1, v2\n"
    "ds_write_b32 v2, v3\n"
    "ds_read_addtid_b32 v1\n"
    "s_mov_b32 m0, s1\n"
    "s_mov_b32 s8, 1\n"
    "s_add_u32 s4, s4, 1\n"
    "s_mov_b64 vcc, s[4:5]\n"
    "s_mov_b64 exec, s[6:7]\n"
    "s_and_saveexec_b64 s[2:3], vcc\n"
    "s_movrels_b32 s1, s2\n"
    "s_sendmsg sendmsg(MSG_INTERRUPT)\n"
    "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s1\n"
    "s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0\n"
    "s_getreg_b32 s2, hwreg(HW_REG_MODE)\n"
    "s_rfe_b64 s[4:5]\n"
    "s_cbranch_vccz 1\n"
    "s_waitcnt vmcnt(0)\n"
    "s_nop 0\n"
    "s_nop 1\n"
    "s_nop 3\n";

static const char *const gfx950_src =
    "v_permlane16_swap_b32 v1, v2\n"
    "v_permlane32_swap_b32 v3, v4\n"
    "v_cvt_scalef32_sr_pk_fp4_f32 v1, v[2:3], v4, v5\n"
    "v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]\n";

static int assemble(const char *cpu, pool *p)
{
    static char text[8192];
    int len = snprintf(text, sizeof text, "%s%s", common_src, !strcmp(cpu, "gfx950") ? gfx950_src : "");
    if (len < 0 || (size_t)len >= sizeof text)
        return -1;
    static uint8_t bytes[MAXP * 16];
    size_t nb;
    if (mc_bytes(cpu, text, MAXP, bytes, sizeof bytes, &nb, NULL) < 0)
        return -1;
    memset(p, 0, sizeof *p);
    p->d.target = gcn_target_from_name(cpu);
    for (size_t off = 0; off < nb && p->n < MAXP;) {
        size_t sz = gcn_decode_one(&p->d, bytes + off, nb - off, 0x1000 + off, &p->in[p->n]);
        gcn_hz_analyze(&p->d, &p->in[p->n], &p->hi[p->n]);
        gcn_hz_roles(&p->hi[p->n], &p->cons[p->n], &p->prod[p->n]);
        p->n++;
        off += sz ? sz : 4;
    }
    return p->n > 20 ? 0 : -1;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static int same(const gcn_hz_finding *a, unsigned na, const gcn_hz_finding *b, unsigned nb)
{
    if (na != nb)
        return 0;
    for (unsigned i = 0; i < na && i < 16; i++)
        if (a[i].rule != b[i].rule || a[i].prod_pc != b[i].prod_pc ||
            a[i].cons_pc != b[i].cons_pc || a[i].required != b[i].required ||
            a[i].present != b[i].present || a[i].unit != b[i].unit ||
            a[i].raw != b[i].raw || a[i].reg.lo != b[i].reg.lo || a[i].reg.n != b[i].reg.n)
            return 0;
    return 1;
}

/* The simulator's policy (hazard_sim.c). */
typedef struct simhz {
    gcn_hz_state st;
    uint64_t cons;                /* program consumer mask the history was built for */
    unsigned rn;
    unsigned ring[RING];
    int32_t last[64];             /* per group: clock after its latest producer entry */
    uint8_t win[64];
} simhz;

static void sim_push(simhz *h, const pool *p, unsigned i)
{
    gcn_hz_push_fast(&h->st, &p->hi[i]);        /* the simulator's inline push */
    for (uint64_t m = p->prod[i] & h->cons; m; m &= m - 1)
        h->last[__builtin_ctzll(m)] = h->st.clock;
}

/* the groups whose check can find anything (0: the engine is skipped) */
static uint64_t sim_may_find(const simhz *h, const pool *p, unsigned i)
{
    uint64_t r = 0;
    for (uint64_t m = p->cons[i] & h->st.gprod_union; m; m &= m - 1) {
        unsigned g = (unsigned)__builtin_ctzll(m);
        if (h->win[g] ? h->st.clock - h->last[g] < (int32_t)h->win[g] : h->st.clause.count != 0)
            r |= 1ull << g;
    }
    return r;
}

static void sim_rebuild(simhz *h, const pool *p, uint64_t prog, unsigned flags)
{
    gcn_hz_reset(&h->st, p->d.target, flags);
    h->cons = prog;
    for (unsigned g = 0; g < 64; g++)
        h->last[g] = INT32_MIN / 2;
    unsigned n = h->rn < RING ? h->rn : RING;
    for (unsigned k = h->rn - n; k != h->rn; k++) {
        unsigned i = h->ring[k % RING];
        if (p->prod[i] & h->cons)
            sim_push(h, p, i);
        else
            gcn_hz_skip(&h->st, p->hi[i].ws);
    }
}

int main(void)
{
    static const char *const cpus[] = { "gfx942", "gfx950" };
    static const unsigned flagsets[] = { 0, GCN_HZ_XNACK, GCN_HZ_XNACK | GCN_HZ_AGPR0,
                                         GCN_HZ_XNACK | GCN_HZ_STRICT };
    static pool p;
    unsigned long steps = 0, checks = 0, skipped_checks = 0, pushes = 0, findings = 0;
    int fail = 0;
    for (unsigned ci = 0; ci < 2; ci++) {
        if (assemble(cpus[ci], &p)) {
            fprintf(stderr, "test_hazard_skip: cannot assemble the pool for %s (llvm-mc-22?)\n",
                    cpus[ci]);
            return 77;
        }
        for (unsigned fi = 0; fi < sizeof flagsets / sizeof flagsets[0]; fi++) {
            for (unsigned trial = 0; trial < 300 && !fail; trial++) {
                unsigned flags = flagsets[fi];
                gcn_hz_state full;
                static simhz h;
                gcn_hz_reset(&full, p.d.target, flags);
                gcn_hz_reset(&h.st, p.d.target, flags);
                h.cons = 0;
                h.rn = 0;
                for (unsigned g = 0; g < 64; g++) {
                    h.last[g] = INT32_MIN / 2;
                    h.win[g] = (uint8_t)gcn_hz_group_window(g, flags);
                }
                uint64_t prog = 0;
                uint8_t decoded[MAXP] = { 0 };
                /* a sub-pool per trial, so that programs differ in what they consume */
                unsigned sub[24], nsub = 4 + rnd(20);
                for (unsigned k = 0; k < nsub; k++)
                    sub[k] = rnd(p.n);
                unsigned len = 50 + rnd(400);
                for (unsigned step = 0; step < len; step++) {
                    unsigned i = sub[rnd(nsub)];
                    if (!decoded[i]) {          /* decoded the first time it runs */
                        decoded[i] = 1;
                        prog |= p.cons[i];
                    }
                    if (h.cons != prog)
                        sim_rebuild(&h, &p, prog, flags);
                    gcn_hz_finding ff[16], fs[16];
                    unsigned nf = gcn_hz_check(&full, &p.hi[i], ff, 16), ns = 0;
                    uint64_t groups = sim_may_find(&h, &p, i);
                    if (groups) {
                        /* only those groups (gcn_hz_check_groups), as the simulator asks */
                        ns = gcn_hz_check_groups(&h.st, &p.hi[i], groups, fs, 16);
                        checks++;
                    } else {
                        skipped_checks++;
                    }
                    findings += nf;
                    steps++;
                    if (!same(ff, nf, fs, ns)) {
                        gcn_strbuf sb;
                        gcn_sb_init(&sb);
                        for (unsigned k = 0; k < nf && k < 16; k++) {
                            gcn_hz_format(&ff[k], &sb);
                            gcn_sb_printf(&sb, "\n");
                        }
                        fprintf(stderr, "%s flags %u trial %u step %u: full history %u findings, "
                                "filtered %u\n%s", cpus[ci], flags, trial, step, nf, ns,
                                sb.buf ? sb.buf : "");
                        gcn_sb_free(&sb);
                        fail = 1;
                        break;
                    }
                    gcn_hz_push(&full, &p.hi[i]);
                    h.ring[h.rn++ % RING] = i;
                    if (p.prod[i] & h.cons) {
                        sim_push(&h, &p, i);
                        pushes++;
                    } else {
                        gcn_hz_skip(&h.st, p.hi[i].ws);
                    }
                }
            }
        }
    }
    printf("test_hazard_skip: %lu steps, %lu findings; filtered: %lu checks, %lu skipped, "
           "%lu history entries%s\n", steps, findings, checks, skipped_checks, pushes,
           fail ? ": MISMATCH" : ": identical");
    if (!fail && (findings < steps / 10 || skipped_checks < steps / 10 || pushes == steps)) {
        fprintf(stderr, "test_hazard_skip: the pool no longer exercises the shortcut\n");
        fail = 1;
    }
    return fail;
}
