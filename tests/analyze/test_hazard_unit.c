/*
 * test_hazard_unit.c -- unit tests of the hazard engine's mechanics on small
 * instruction sequences assembled by llvm-mc-22 and decoded by gcnsim:
 * s_nop counting ("just enough" vs "one short"), the nearest producer hiding
 * older ones, joins and multi-histories (and their expiry), soft clauses (xnack, a0), the strict
 * window, and the rule table.  The wait-state numbers themselves are checked
 * against LLVM by test_hazard_oracle.sh; here they come from the table.
 * "provenance" checks the classification of the cases where LLVM asks for
 * more than the ISA guide and rocRoller (the llvm-conservative rows: silent
 * by default, reported with GCN_HZ_LLVM) and the rows LLVM lacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/Basic.h>
#include "gcn_decode.h"
#include "analyze/gcn_hazard.h"
#include "../mcbytes.h"

#define MAXI 64

typedef struct seq {
    gcn_decoder d;
    unsigned n;
    gcn_insn in[MAXI];
    gcn_hz_insn hi[MAXI];
} seq;

/* Assemble `text` (lines separated by '\n') for cpu; decode into *s. */
static int assemble(const char *cpu, const char *text, seq *s)
{
    uint8_t bytes[MAXI * 16];
    size_t nb;
    if (mc_bytes(cpu, text, MAXI, bytes, sizeof bytes, &nb, stderr) < 0)
        return -1;
    memset(s, 0, sizeof *s);
    s->d.target = gcn_target_from_name(cpu);
    for (size_t off = 0; off < nb && s->n < MAXI;) {
        size_t sz = gcn_decode_one(&s->d, bytes + off, nb - off, off, &s->in[s->n]);
        gcn_hz_analyze(&s->d, &s->in[s->n], &s->hi[s->n]);
        s->n++;
        off += sz ? sz : 4;
    }
    return nb ? 0 : -1;
}

/* Run the sequence; findings of its last instruction. */
static unsigned run_last(seq *s, unsigned flags, gcn_hz_finding *f, unsigned max)
{
    gcn_hz_state st;
    gcn_hz_reset(&st, s->d.target, flags);
    for (unsigned i = 0; i + 1 < s->n; i++)
        gcn_hz_push(&st, &s->hi[i]);
    return gcn_hz_check(&st, &s->hi[s->n - 1], f, max);
}

static int rule_index(const char *name)
{
    for (unsigned i = 0; i < gcn_hz_rule_count(); i++)
        if (!strcmp(gcn_hz_rule_get(i)->name, name))
            return (int)i;
    return -1;
}

static void test_nop_counting(void)
{
    /* 2-pass XDL result read by a VALU: passes + 3 = 5 wait states */
    int w = gcn_hz_rule_wait((unsigned)rule_index("XDL_VALU_READ"), GCN_TARGET_GFX942, 2);
    CU_ASSERT_EQUAL(w, 5);
    for (int nop = 2; nop <= 5; nop++) {
        char text[512];
        snprintf(text, sizeof text,
                 "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[6:7], v[0:3]\n"
                 "s_nop %d\n"
                 "v_add_u32_e32 v8, v1, v9\n", nop);
        seq s;
        CU_ASSERT_EQUAL_FATAL(assemble("gfx942", text, &s), 0);
        CU_ASSERT_EQUAL_FATAL(s.n, 3);
        CU_ASSERT_EQUAL(s.hi[1].ws, nop + 1);
        gcn_hz_finding f[8];
        unsigned n = run_last(&s, 0, f, 8);
        if (nop + 1 >= w) {
            CU_ASSERT_EQUAL(n, 0);          /* just enough */
        } else {
            CU_ASSERT_EQUAL_FATAL(n, 1);    /* short */
            CU_ASSERT_EQUAL(f[0].rule, (unsigned)rule_index("XDL_VALU_READ"));
            CU_ASSERT_EQUAL(f[0].required, 5);
            CU_ASSERT_EQUAL(f[0].present, nop + 1);
            CU_ASSERT_EQUAL(f[0].prod_pc, 0);
            CU_ASSERT_EQUAL(f[0].cons_pc, s.in[2].addr);
            CU_ASSERT_EQUAL(f[0].unit, (int)GCN_HZ_UNIT_VGPR + 1);
        }
    }
}

static void test_any_instruction_counts(void)
{
    /* every instruction is one wait state, whatever it is */
    seq s;
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[6:7], v[0:3]\n"
        "s_mov_b32 s0, 0\n"
        "s_waitcnt vmcnt(0)\n"
        "v_mov_b32_e32 v20, 0\n"
        "s_nop 0\n"
        "v_add_u32_e32 v8, v1, v9\n", &s), 0);
    gcn_hz_finding f[4];
    CU_ASSERT_EQUAL_FATAL(run_last(&s, 0, f, 4), 1);
    CU_ASSERT_EQUAL(f[0].present, 4);
    gcn_hz_state st;
    gcn_hz_reset(&st, s.d.target, 0);
    for (unsigned i = 0; i + 1 < s.n; i++)
        gcn_hz_push(&st, &s.hi[i]);
    CU_ASSERT_EQUAL(gcn_hz_required(&st, &s.hi[s.n - 1]), 5);
}

static void test_nearest_hides_older(void)
{
    /* a 16-pass XDL writes v[0:31]; a 2-pass XDL then rewrites v[0:3]: LLVM
     * considers only the nearest MFMA writing the register read */
    seq s;
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "v_mfma_f32_32x32x4_2b_f16 v[0:31], v[40:41], v[42:43], v[0:31]\n"
        "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[44:45], v[46:47], v[0:3]\n"
        "s_nop 4\n"
        "v_add_u32_e32 v50, v1, v51\n", &s), 0);
    gcn_hz_finding f[4];
    CU_ASSERT_EQUAL(run_last(&s, 0, f, 4), 0);
    /* v5 was only written by the 16-pass one: 19 needed, 6 present */
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "v_mfma_f32_32x32x4_2b_f16 v[0:31], v[40:41], v[42:43], v[0:31]\n"
        "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[44:45], v[46:47], v[0:3]\n"
        "s_nop 4\n"
        "v_add_u32_e32 v50, v5, v51\n", &s), 0);
    CU_ASSERT_EQUAL_FATAL(run_last(&s, 0, f, 4), 1);
    CU_ASSERT_EQUAL(f[0].required, 19);
    CU_ASSERT_EQUAL(f[0].present, 6);
}

static void test_join(void)
{
    seq s;
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]\n"   /* 0: 4-pass XDL */
        "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[6:7], v[0:3]\n"  /* 1: 2-pass XDL */
        "s_nop 1\n"                                                   /* 2 */
        "v_mov_b32_e32 v20, 0\n"                                      /* 3 */
        "v_add_u32_e32 v8, v1, v9\n", &s), 0);                        /* 4 */
    gcn_hz_state a, b;
    gcn_hz_reset(&a, s.d.target, 0);
    gcn_hz_reset(&b, s.d.target, 0);
    /* path a: both MFMAs, then the nop; path b: only the v_mov */
    gcn_hz_push(&a, &s.hi[0]);
    gcn_hz_push(&a, &s.hi[1]);
    gcn_hz_push(&a, &s.hi[2]);
    gcn_hz_push(&b, &s.hi[3]);
    gcn_hz_finding f[8];
    /* on path a the 2-pass MFMA is 2 back: needs 5, short by 3; the 4-pass one is hidden */
    unsigned n = gcn_hz_check(&a, &s.hi[4], f, 8);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(f[0].prod_pc, s.in[1].addr);
    CU_ASSERT_EQUAL(f[0].present, 2);
    CU_ASSERT_EQUAL(gcn_hz_check(&b, &s.hi[4], f, 8), 0);
    /* join: the producers of path a are "maybe" and no longer hide older
     * ones (conservative), the distance is kept */
    gcn_hz_state j = a;
    gcn_hz_join(&j, &b);
    n = gcn_hz_check(&j, &s.hi[4], f, 8);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_EQUAL(gcn_hz_required(&j, &s.hi[4]), 7);
    /* the multi-state keeps both paths apart and reports exactly path a */
    gcn_hz_multi ma, mb;
    gcn_hz_multi_init(&ma, &a);
    gcn_hz_multi_init(&mb, &b);
    gcn_hz_multi_join(&ma, &mb);
    CU_ASSERT_EQUAL(ma.n, 2);
    n = gcn_hz_multi_check(&ma, &s.hi[4], f, 8);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(f[0].prod_pc, s.in[1].addr);
    CU_ASSERT_EQUAL(f[0].required - f[0].present, 3);
    /* joins are idempotent and commutative on the multi-state */
    gcn_hz_multi mc = ma;
    gcn_hz_multi_join(&mc, &mb);
    CU_ASSERT(gcn_hz_multi_same(&mc, &ma));
    gcn_hz_multi md;
    gcn_hz_multi_init(&md, &b);
    gcn_hz_multi_init(&mc, &a);
    gcn_hz_multi_join(&md, &mc);
    CU_ASSERT(gcn_hz_multi_same(&md, &ma));
    /* minimum distance: the same producer at two distances */
    gcn_hz_state c = a;
    gcn_hz_push(&c, &s.hi[3]);
    gcn_hz_state j2 = c;
    gcn_hz_join(&j2, &a);
    n = gcn_hz_check(&j2, &s.hi[4], f, 8);
    CU_ASSERT(n >= 1);
    int min_present = 99;
    for (unsigned i = 0; i < n; i++)
        if (f[i].prod_pc == s.in[1].addr && f[i].present < min_present)
            min_present = f[i].present;
    CU_ASSERT_EQUAL(min_present, 2);
    CU_ASSERT(gcn_hz_same(&j2, &j2));
}

static void test_soft_clause(void)
{
    seq s;
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "global_load_dword v0, v[2:3], off\n"
        "global_load_dword v1, v[0:1], off\n", &s), 0);
    gcn_hz_finding f[4];
    CU_ASSERT_EQUAL(run_last(&s, 0, f, 4), 0);                 /* xnack off */
    CU_ASSERT_EQUAL_FATAL(run_last(&s, GCN_HZ_XNACK, f, 4), 1);
    CU_ASSERT_EQUAL(f[0].rule, (unsigned)rule_index("VMEM_SOFT_CLAUSE"));
    /* a store after loads in a clause, and an s_nop ending the clause */
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "global_load_dword v0, v[2:3], off\n"
        "global_store_dword v[4:5], v6, off\n", &s), 0);
    CU_ASSERT_EQUAL(run_last(&s, GCN_HZ_XNACK, f, 4), 1);
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "global_load_dword v0, v[2:3], off\n"
        "s_nop 0\n"
        "global_store_dword v[4:5], v6, off\n", &s), 0);
    CU_ASSERT_EQUAL(run_last(&s, GCN_HZ_XNACK, f, 4), 0);
    /* LLVM remembers 5 instructions, 19 when the function uses a0 */
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "global_load_dword v100, v[2:3], off\n"
        "global_load_dword v20, v[10:11], off\n"
        "global_load_dword v21, v[10:11], off\n"
        "global_load_dword v22, v[10:11], off\n"
        "global_load_dword v23, v[10:11], off\n"
        "global_load_dword v24, v[10:11], off\n"
        "global_load_dword v2, v[10:11], off\n", &s), 0);
    CU_ASSERT_EQUAL(run_last(&s, GCN_HZ_XNACK, f, 4), 0);
    CU_ASSERT_EQUAL(run_last(&s, GCN_HZ_XNACK | GCN_HZ_AGPR0, f, 4), 1);
}

static void test_strict_window(void)
{
    /* gfx950: 16-pass XDL result read as srcA 19 wait states later: LLVM
     * looks only 19 back (not a finding), strict mode needs 20 */
    char text[2048] = "v_mfma_f32_32x32x4_2b_f16 v[0:31], v[40:41], v[42:43], v[0:31]\n"
                      "s_nop 15\ns_nop 2\n";
    strcat(text, "v_mfma_f32_32x32x4_2b_f16 a[0:31], v[2:3], v[42:43], a[0:31]\n");
    seq s;
    CU_ASSERT_EQUAL_FATAL(assemble("gfx950", text, &s), 0);
    gcn_hz_finding f[4];
    CU_ASSERT_EQUAL(run_last(&s, 0, f, 4), 0);
    CU_ASSERT_EQUAL_FATAL(run_last(&s, GCN_HZ_STRICT, f, 4), 1);
    CU_ASSERT_EQUAL(f[0].required, 20);
    CU_ASSERT_EQUAL(f[0].present, 19);
}

static void test_decoded_forms(void)
{
    /* SDWA dst_sel (partial dst write) then a VALU reading it: 1 wait state */
    seq s;
    gcn_hz_finding f[4];
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD\n"
        "v_add_u32_e32 v2, v0, v3\n", &s), 0);
    CU_ASSERT_EQUAL_FATAL(run_last(&s, 0, f, 4), 1);
    CU_ASSERT_EQUAL(f[0].rule, (unsigned)rule_index("DSTSEL_VALU"));
    /* SMFMAC: srcC is the tied vdst, the index is read like srcA/B */
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "v_smfmac_f32_16x16x32_f16 v[0:3], v[10:11], v[4:7], v8\n"
        "v_smfmac_f32_16x16x32_f16 v[0:3], v[10:11], v[4:7], v9\n", &s), 0);
    CU_ASSERT_EQUAL(run_last(&s, 0, f, 4), 0);
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "v_smfmac_f32_16x16x32_f16 v[0:3], v[10:11], v[4:7], v8\n"
        "v_smfmac_f32_16x16x32_f16 v[20:23], v[10:11], v[4:7], v0\n", &s), 0);
    CU_ASSERT_EQUAL_FATAL(run_last(&s, 0, f, 4), 1);
    CU_ASSERT_EQUAL(f[0].rule, (unsigned)rule_index("XDL_SRCAB"));
    CU_ASSERT_EQUAL(f[0].required, 7);
    /* v_cmpx writes EXEC: v_readlane needs 4 */
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "v_cmpx_eq_u32_e32 v0, v1\n"
        "v_readlane_b32 s4, v2, s5\n", &s), 0);
    CU_ASSERT_EQUAL_FATAL(run_last(&s, 0, f, 4), 1);
    CU_ASSERT_EQUAL(f[0].rule, (unsigned)rule_index("VALU_EXEC_RWLANE"));
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_hz_format(&f[0], &sb);
    CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "VALU_EXEC_RWLANE: v_cmpx_eq_u32"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "needs 4 wait states, has 0"));
    gcn_sb_free(&sb);
}

static void test_rule_table(void)
{
    unsigned n = gcn_hz_rule_count();
    CU_ASSERT(n > 40);
    for (unsigned i = 0; i < n; i++) {
        const gcn_hz_rule *r = gcn_hz_rule_get(i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT(r->name && r->group && r->func && r->desc);
        CU_ASSERT(r->targets & 3);
        CU_ASSERT(r->limit >= 1 && r->limit <= 19);
        for (unsigned p = 2; p <= 16; p *= 2) {
            int w942 = gcn_hz_rule_wait(i, GCN_TARGET_GFX942, p);
            int w950 = gcn_hz_rule_wait(i, GCN_TARGET_GFX950, p);
            CU_ASSERT(w942 >= 0 && w942 <= 20);
            CU_ASSERT(w950 >= w942 && w950 <= w942 + 8);
        }
    }
    /* a few numbers as LLVM states them (GCNHazardRecognizer.cpp tables) */
    CU_ASSERT_EQUAL(gcn_hz_rule_wait((unsigned)rule_index("XDL_SRCAB"), GCN_TARGET_GFX950, 16), 20);
    CU_ASSERT_EQUAL(gcn_hz_rule_wait((unsigned)rule_index("XDL_SRCAB"), GCN_TARGET_GFX950, 2), 5);
    CU_ASSERT_EQUAL(gcn_hz_rule_wait((unsigned)rule_index("XDL_XDL_SRCC"), GCN_TARGET_GFX950, 2), 4);
    CU_ASSERT_EQUAL(gcn_hz_rule_wait((unsigned)rule_index("XDL_SRCC_VALU_WAR"), GCN_TARGET_GFX942, 16), 15);
    CU_ASSERT_EQUAL(gcn_hz_rule_wait((unsigned)rule_index("DGEMM16_VALU_READ"), GCN_TARGET_GFX950, 16), 19);
    CU_ASSERT_EQUAL(rule_index("NO_SUCH_RULE"), -1);
    CU_ASSERT_PTR_NULL(gcn_hz_rule_get(n));
}

/* The findings of the last instruction of `text` (gfx942, xnack on) with
 * flags: exactly one, of rule `rule` (NULL: none), `need` wait states and
 * `llvm` (llvm-conservative). */
static void expect1(const char *text, unsigned flags, const char *rule, int need, int llvm)
{
    seq s;
    gcn_hz_finding f[8];
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942", text, &s), 0);
    unsigned n = run_last(&s, flags | GCN_HZ_XNACK, f, 8);
    if (!rule) {
        if (n)
            fprintf(stderr, "\nunexpected %s (flags %#x) after:\n%s\n",
                    gcn_hz_rule_get(f[0].rule)->name, flags, text);
        CU_ASSERT_EQUAL(n, 0);
        return;
    }
    if (n != 1 || f[0].rule != (unsigned)rule_index(rule))
        fprintf(stderr, "\nexpected %s (flags %#x), got %u finding(s)%s%s after:\n%s\n", rule,
                flags, n, n ? ", first " : "", n ? gcn_hz_rule_get(f[0].rule)->name : "", text);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(f[0].rule, (unsigned)rule_index(rule));
    CU_ASSERT_EQUAL(f[0].required, need);
    CU_ASSERT_EQUAL(f[0].llvm, llvm);
    CU_ASSERT_EQUAL(gcn_hz_rule_get(f[0].rule)->llvm_only, llvm);
}

/* Each case where LLVM waits longer than the ISA guide / rocRoller require:
 * nothing (or the required wait) by default, LLVM's wait with GCN_HZ_LLVM. */
static void test_provenance(void)
{
    /* carry-in read (ISA 4.5: 0; rocRoller: none; LLVM: 2) */
    const char *carry2 = "v_add_co_u32_e32 v0, vcc, v1, v2\n"
                         "v_addc_co_u32_e32 v3, vcc, v4, v5, vcc\n";
    expect1(carry2, 0, NULL, 0, 0);
    expect1(carry2, GCN_HZ_LLVM, "VALU_SGPR_CARRY", 2, 1);
    const char *carry3 = "v_add_co_u32_e64 v0, s[4:5], v1, v2\n"
                         "v_addc_co_u32_e64 v3, s[6:7], v4, v5, s[4:5]\n";
    expect1(carry3, 0, NULL, 0, 0);
    expect1(carry3, GCN_HZ_LLVM, "VALU_SGPR_CARRY", 2, 1);
    expect1("v_sub_co_u32_e64 v0, s[4:5], v1, v2\n"
            "v_subb_co_u32_e64 v3, s[6:7], v4, v5, s[4:5]\n", 0, NULL, 0, 0);
    /* the same carry-out read as a v_cndmask mask (rocRoller: a constant, 2) */
    const char *mask = "v_add_co_u32_e64 v0, s[4:5], v1, v2\n"
                       "s_nop 0\n"
                       "v_cndmask_b32_e64 v3, v4, v5, s[4:5]\n";
    expect1(mask, 0, "VALU_SGPR_VALU", 2, 0);
    expect1(mask, GCN_HZ_LLVM, "VALU_SGPR_VALU", 2, 0);
    /* VCC read as a constant / mask: ISA and rocRoller 1, LLVM 2 */
    const char *vcc0 = "v_cmp_lt_u32_e32 vcc, v0, v1\n"
                       "v_cndmask_b32_e32 v3, v4, v5, vcc\n";
    expect1(vcc0, 0, "VALU_VCC_VALU", 1, 0);
    const char *vcc1 = "v_cmp_lt_u32_e32 vcc, v0, v1\n"
                       "s_nop 0\n"
                       "v_cndmask_b32_e32 v3, v4, v5, vcc\n";
    expect1(vcc1, 0, NULL, 0, 0);
    expect1(vcc1, GCN_HZ_LLVM, "VALU_VCC_VALU_LLVM", 2, 1);
    {   /* both at once with no wait: the error and LLVM's warning */
        seq s;
        gcn_hz_finding f[8];
        CU_ASSERT_EQUAL_FATAL(assemble("gfx942", vcc0, &s), 0);
        CU_ASSERT_EQUAL(run_last(&s, GCN_HZ_LLVM, f, 8), 2);
    }
    /* v_readlane result read as a plain operand: ISA 4.5 2 */
    expect1("v_readlane_b32 s4, v0, 3\n"
            "s_nop 0\n"
            "v_mul_lo_u32 v1, s4, v2\n", 0, "VALU_SGPR_VALU", 2, 0);
    /* packed math writes its whole destination (LLVM reads op_sel_hi as dst select) */
    const char *pk = "v_pk_mul_f32 v[2:3], v[4:5], v[6:7]\n"
                     "v_add_u32_e32 v8, v2, v5\n";
    expect1(pk, 0, NULL, 0, 0);
    expect1(pk, GCN_HZ_LLVM, "VOP3P_OPSEL_VALU", 1, 1);
    /* a real partial write (op_sel dst): read = required, overwritten = LLVM only */
    expect1("v_cvt_pk_fp8_f32 v2, v1, v3 op_sel:[0,0,1]\n"
            "v_add_u32_e32 v4, v2, v5\n", 0, "DSTSEL_VALU", 1, 0);
    const char *waw = "v_cvt_pk_fp8_f32 v2, v1, v3 op_sel:[0,0,1]\n"
                      "v_mov_b32_e32 v2, 0\n";
    expect1(waw, 0, NULL, 0, 0);
    expect1(waw, GCN_HZ_LLVM, "DSTSEL_VALU_WAW", 1, 1);
    /* DPP: the swizzled src0 (required), src1 and the old value, non-VALU writers */
    expect1("v_mov_b32_e32 v7, 0\n"
            "v_mov_b32_dpp v8, v7 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n",
            0, "VGPR_DPP", 2, 0);
    const char *src1 = "v_mov_b32_e32 v7, 0\n"
                       "v_add_u32_dpp v8, v9, v7 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n";
    expect1(src1, 0, NULL, 0, 0);
    expect1(src1, GCN_HZ_LLVM, "VGPR_DPP_OPERAND", 2, 1);
    const char *old = "v_mov_b32_e32 v8, 0\n"
                      "v_mov_b32_dpp v8, v7 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n";
    expect1(old, 0, NULL, 0, 0);
    expect1(old, GCN_HZ_LLVM, "VGPR_DPP_OPERAND", 2, 1);
    /* src0 and src1 the same VGPR: the error covers LLVM's warning (one finding) */
    expect1("v_max3_f32 v96, v56, v57, v96\n"
            "v_max_f32_dpp v97, v96, v96 quad_perm:[1,2,3,0] row_mask:0xf bank_mask:0xf\n",
            GCN_HZ_LLVM, "VGPR_DPP", 2, 0);
    const char *load = "global_load_dword v7, v[2:3], off\n"
                       "v_mov_b32_dpp v8, v7 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n";
    expect1(load, 0, NULL, 0, 0);
    expect1(load, GCN_HZ_LLVM, "NONVALU_VGPR_DPP", 2, 1);
    /* soft clause (xnack): an LDS DMA load is no store for the clause */
    const char *dma = "global_load_dword v0, v[2:3], off\n"
                      "buffer_load_dword v1, s[0:3], 0 offen lds\n";
    expect1(dma, 0, NULL, 0, 0);
    expect1(dma, GCN_HZ_LLVM, "VMEM_CLAUSE_LDS_DMA", 1, 1);
    expect1("global_load_dword v0, v[2:3], off\n"          /* its offset overwritten: required */
            "buffer_load_dword v0, s[0:3], 0 offen lds\n", 0, "VMEM_SOFT_CLAUSE", 1, 0);
    expect1("global_load_dword v0, v[2:3], off\n"          /* a real store: required */
            "global_store_dword v[4:5], v6, off\n", 0, "VMEM_SOFT_CLAUSE", 1, 0);
    /* EXEC read implicitly by VMEM after v_cmpx (LLVM only); an SGPR: required */
    const char *vx = "v_cmpx_eq_u32_e32 vcc, v0, v1\n"
                     "global_load_dword v3, v[4:5], off\n";
    expect1(vx, 0, NULL, 0, 0);
    expect1(vx, GCN_HZ_LLVM, "VALU_EXEC_VMEM", 5, 1);
    expect1("v_readfirstlane_b32 s4, v0\n"
            "global_load_dword v1, v2, s[4:5]\n", 0, "VALU_SGPR_VMEM", 5, 0);
    /* a dot result read by an MFMA: ISA 7.5 and rocRoller 3, LLVM none */
    expect1("v_dot2_f32_f16 v0, v1, v2, v3\n"
            "v_mfma_f32_4x4x1_16b_f32 a[0:3], v0, v9, a[0:3]\n", 0, "DOT_MFMA_READ", 3, 0);
    /* DGEMM before v_fma_f64 without a register relation: LLVM only */
    const char *fma = "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[2:3], v[4:5], v[0:1]\n"
                      "v_fma_f64 v[10:11], v[12:13], v[14:15], v[16:17]\n";
    expect1(fma, 0, NULL, 0, 0);
    expect1(fma, GCN_HZ_LLVM, "DGEMM_FMA64", 2, 1);
    /* table: every row has a source; llvm-conservative rows are LLVM's alone */
    for (unsigned i = 0; i < gcn_hz_rule_count(); i++) {
        const gcn_hz_rule *r = gcn_hz_rule_get(i);
        CU_ASSERT(r->src != 0);
        CU_ASSERT(r->cite && strlen(r->cite) > 10);
        if (r->llvm_only)
            CU_ASSERT_EQUAL(r->src, GCN_HZ_SRC_LLVM);
        char b[1024];
        gcn_hz_rule_source(i, b, sizeof b);
        CU_ASSERT_EQUAL(strstr(b, "LLVM GCNHazardRecognizer") != NULL,
                        (r->src & GCN_HZ_SRC_LLVM) != 0);
    }
}

/* Histories of a multi-state hold no entry GCN_HZ_WINDOW or more wait states
 * old: two paths that differ only in such an entry are one history (before,
 * they stayed apart until more than GCN_HZ_MAXALT piled up in a loop and were
 * merged, which lost the nearest-producer rule). */
static void test_multi_expiry(void)
{
    seq s;
    CU_ASSERT_EQUAL_FATAL(assemble("gfx942",
        "v_mov_b32_e32 v10, 0\n"      /* 0: only on path a */
        "v_mov_b32_e32 v11, 0\n"      /* 1: only on path b */
        "s_nop 0\n", &s), 0);          /* 2: one wait state, no entry */
    for (unsigned nops = GCN_HZ_WINDOW - 1; nops <= GCN_HZ_WINDOW; nops++) {
        gcn_hz_state init;
        gcn_hz_reset(&init, s.d.target, 0);
        gcn_hz_multi a, b;
        gcn_hz_multi_init(&a, &init);
        gcn_hz_multi_init(&b, &init);
        gcn_hz_multi_push(&a, &s.hi[0]);
        gcn_hz_multi_push(&b, &s.hi[1]);
        for (unsigned k = 0; k < nops; k++) {
            gcn_hz_multi_push(&a, &s.hi[2]);
            gcn_hz_multi_push(&b, &s.hi[2]);
        }
        gcn_hz_multi_join(&a, &b);
        /* 20 wait states back the producers still count: two histories */
        CU_ASSERT_EQUAL(a.n, nops < GCN_HZ_WINDOW ? 2u : 1u);
        CU_ASSERT_EQUAL(a.alt[0].n, nops < GCN_HZ_WINDOW ? 1u : 0u);
        gcn_hz_multi c;
        gcn_hz_multi_copy(&c, &a);
        CU_ASSERT(gcn_hz_multi_same(&c, &a));
    }
}

/* the compiled per-row class tables agree with the row-by-row derivation, for every row */
static void test_class_tables(void)
{
    CU_ASSERT_EQUAL(gcn_hz_check_classes(stderr), 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("hazard", NULL, NULL);
    CU_add_test(s, "s_nop counting", test_nop_counting);
    CU_add_test(s, "every instruction counts", test_any_instruction_counts);
    CU_add_test(s, "nearest producer hides older", test_nearest_hides_older);
    CU_add_test(s, "join and multi-state", test_join);
    CU_add_test(s, "multi-state drops expired entries", test_multi_expiry);
    CU_add_test(s, "soft clauses", test_soft_clause);
    CU_add_test(s, "strict window", test_strict_window);
    CU_add_test(s, "decoded forms", test_decoded_forms);
    CU_add_test(s, "rule table", test_rule_table);
    CU_add_test(s, "provenance", test_provenance);
    CU_add_test(s, "class tables", test_class_tables);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
