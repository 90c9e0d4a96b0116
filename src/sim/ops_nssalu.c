/*
 * ops_nssalu.c -- scalar branch rows that had no body before: the debugger
 * branches S_CBRANCH_CDBG* and the fork/join stack S_CBRANCH_G_FORK,
 * S_CBRANCH_I_FORK, S_CBRANCH_JOIN.
 *
 * Semantics: AMD CDNA4 ISA reference (also CDNA3), "SOP1/SOP2/SOPK/SOPP
 * Instructions" pseudo-code.
 * - S_CBRANCH_CDBG*: branch on STATUS.COND_DBG_USER (bit 20) /
 *   COND_DBG_SYS (bit 21).  The simulator has no debugger attached, so
 *   both bits are 0 (STATUS starts at 0 and s_setreg cannot set them) and
 *   the branches fall through; the bits are read all the same.
 * - Fork/join: MODE.CSP (bits 31:29) indexes a stack of 128-bit entries in
 *   SGPRs: entry k is s[4k..4k+3] = { mask (s[4k], s[4k+1]), PC (s[4k+2],
 *   s[4k+3]) }.  A fork runs the side with fewer lanes first (EXEC = that
 *   mask) and pushes the other side; JOIN with a saved CSP different from
 *   the current one pops an entry into { PC, EXEC }, else falls through.
 */
#include "sim_int.h"

#define COND_DBG_USER (1u << 20)
#define COND_DBG_SYS (1u << 21)

static inline void take(sim_x *x, uint64_t pc)
{
    x->branch_taken = 1;
    x->branch_pc = pc;
}
BODY(S_CBRANCH_CDBGSYS) { if (x->w->hw_status & COND_DBG_SYS) take(x, x->i->target); }
BODY(S_CBRANCH_CDBGUSER) { if (x->w->hw_status & COND_DBG_USER) take(x, x->i->target); }
BODY(S_CBRANCH_CDBGSYS_OR_USER)
{
    if (x->w->hw_status & (COND_DBG_SYS | COND_DBG_USER))
        take(x, x->i->target);
}
BODY(S_CBRANCH_CDBGSYS_AND_USER)
{
    if ((x->w->hw_status & (COND_DBG_SYS | COND_DBG_USER)) == (COND_DBG_SYS | COND_DBG_USER))
        take(x, x->i->target);
}

static inline unsigned csp(const sim_x *x) { return x->w->hw_mode >> 29; }
static inline void set_csp(sim_x *x, unsigned v)
{
    x->w->hw_mode = (x->w->hw_mode & 0x1fffffffu) | (v & 7u) << 29;
}
static void push(sim_x *x, uint64_t mask, uint64_t pc)
{
    unsigned k = csp(x) * 4;
    sim_wave *w = x->w;
    w->s[k] = (uint32_t)mask;
    w->s[k + 1] = (uint32_t)(mask >> 32);
    w->s[k + 2] = (uint32_t)pc;
    w->s[k + 3] = (uint32_t)(pc >> 32);
    set_csp(x, csp(x) + 1);
}
static void fork_br(sim_x *x, uint64_t cond, uint64_t target)
{
    uint64_t exec = sim_exec(x->w), pass = cond & exec, fail = ~cond & exec;
    uint64_t next = x->i->pc + x->i->size;
    if (pass == exec) {
        take(x, target);
    } else if (fail == exec) {
        /* fall through */
    } else if (__builtin_popcountll(fail) < __builtin_popcountll(pass)) {
        sim_set_exec(x->w, fail);
        push(x, pass, target);
    } else {
        sim_set_exec(x->w, pass);
        push(x, fail, next);
        take(x, target);
    }
}
BODY(S_CBRANCH_G_FORK) { fork_br(x, rs64(x, &x->i->s[0]), rs64(x, &x->i->s[1])); }
BODY(S_CBRANCH_I_FORK)
{
    const sim_opnd *m = x->i->d.kind != OK_NONE ? &x->i->d : &x->i->s[0];
    fork_br(x, rs64(x, m), x->i->target);
}
BODY(S_CBRANCH_JOIN)
{
    unsigned saved = rs32(x, &x->i->s[0]);
    if (csp(x) == (saved & 7))
        return;
    set_csp(x, csp(x) - 1);
    unsigned k = csp(x) * 4;
    sim_wave *w = x->w;
    sim_set_exec(w, (uint64_t)w->s[k] | (uint64_t)w->s[k + 1] << 32);
    take(x, (uint64_t)w->s[k + 2] | (uint64_t)w->s[k + 3] << 32);
}

const sim_body_ent sim_bodies_nssalu[] = {
    B(S_CBRANCH_CDBGSYS), B(S_CBRANCH_CDBGUSER), B(S_CBRANCH_CDBGSYS_OR_USER),
    B(S_CBRANCH_CDBGSYS_AND_USER), B(S_CBRANCH_G_FORK), B(S_CBRANCH_I_FORK), B(S_CBRANCH_JOIN),
    {NULL, NULL}
};
