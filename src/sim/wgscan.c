/*
 * wgscan.c -- whether the workgroups of a dispatch may run on threads (gcn_sim_opts.threads)
 * with the very results of running them one after another in dispatch order: a look at
 * every instruction the kernel can reach, before it runs.
 *
 * On threads, workgroups run in any order and at the same time; each keeps its findings
 * and its instruction count, which are merged in dispatch order afterwards (sim.c).  That
 * gives the serial results exactly when no workgroup can see what another one did or when
 * it did it.  Plain loads and stores of memory other workgroups write are outside that
 * promise (on the GPU such a program races too: docs/gcnsim.md, "Threads").  What the
 * simulator can name from the code alone makes the run serial:
 *   - an atomic on memory other workgroups reach: global, flat and buffer atomics, the
 *     scalar (s_atomic_*, s_buffer_atomic_*) ones, and anything with GDS; LDS (DS) and
 *     scratch atomics stay inside the workgroup.  Their returned values and the final
 *     memory depend on the order of the workgroups; in dispatch order they are those of
 *     the serial run (a valid serial order, the same on every run);
 *   - s_memtime and s_memrealtime: they read the run's wave-instruction count so far,
 *     which counts the workgroups before this one;
 *   - a row of the unified register file named both as vN and as aM (the vgpr-agpr-alias
 *     warning names the instruction that named it first, prog.c note_names, which depends
 *     on the order in which workgroups first reach them);
 *   - an indirect jump or call (s_setpc_b64, s_swappc_b64, s_call_b64): what it reaches is
 *     not known before the run, so none of the above can be ruled out.
 * Reachable: from the entry, the fall-through of every instruction but s_endpgm and
 * s_branch, and the targets of s_branch and s_cbranch_* (the generated facts' CTL column,
 * src/decode/isa/facts.def), each pc decoded once (a jump into the middle of an instruction
 * decodes what the simulator would run there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_facts.h"
#include "sim_int.h"

static const uint8_t ctl_of[GCN_ID_COUNT] = {
#define FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ) [GCN_ID_##ID] = GCN_LK_##CTL,
#include "isa/facts.def"
#undef FACT
};

/* The branch target of a direct branch (as prog.c sim_predecode computes it). */
static uint64_t branch_target(const gcn_insn *in)
{
    int64_t imm = 0;
    for (unsigned k = 0; k < in->nopnds && k < GCN_MAX_OPNDS; k++) {
        if (in->op[k].kind == GCN_OPND_LABEL)
            return in->addr + 4 + (uint64_t)((int64_t)in->op[k].imm * 4);
        if (in->op[k].kind == GCN_OPND_IMM)
            imm = (int16_t)in->op[k].imm;
    }
    return in->addr + 4 + (uint64_t)(imm * 4);
}

static int why_at(char *why, size_t n, const gcn_insn *in, const char *what)
{
    snprintf(why, n, "%s (%s at pc 0x%llx)", what, gcn_isa_row_of(in->id)->mnem,
             (unsigned long long)in->addr);
    return 0;
}

int sim_wg_scan(const gcn_codeobj *co, gcn_target t, uint64_t entry, unsigned accum,
                unsigned nvrows, char *why, size_t whylen)
{
    uint64_t base = co->text_addr, size = co->text_size;
    size_t slots = (size_t)(size / 4) + 1;
    uint8_t *seen = calloc(slots, 1);
    uint64_t *todo = malloc((slots + 1) * sizeof *todo);   /* the entry, then a target
                                                              * per instruction at most */
    /* rows at or above accum named as vN (bit 0) and as aM (bit 1) */
    uint8_t *named = nvrows > accum ? calloc(nvrows, 1) : NULL;
    int ok = 1;
    if (!seen || !todo || (nvrows > accum && !named)) {
        snprintf(why, whylen, "out of memory");
        ok = 0;
        goto out;
    }
    gcn_decoder dec = {.target = t};
    size_t nt = 0;
    todo[nt++] = entry;
    while (nt && ok) {
        uint64_t pc = todo[--nt];
        for (;;) {
            if (pc < base || pc >= base + size || (pc & 3))
                break;                              /* the simulator faults there */
            size_t slot = (size_t)((pc - base) / 4);
            if (seen[slot])
                break;
            seen[slot] = 1;
            gcn_insn in;
            gcn_decode_one(&dec, co->text + (pc - base), size - (pc - base), pc, &in);
            if (in.id == GCN_ID_INVALID)
                break;                              /* an illegal instruction: a fault */
            const gcn_isa_row *row = gcn_isa_row_of(in.id);
            if ((row->flags & GCN_F_ATOMIC) && in.enc != GCN_FMT_DS && in.enc != GCN_FMT_SCRATCH) {
                ok = why_at(why, whylen, &in, "an atomic on memory other workgroups reach");
                break;
            }
            if ((row->flags & GCN_F_GDS) || (in.enc == GCN_FMT_DS && in.m.gds)) {
                ok = why_at(why, whylen, &in, "global data share (GDS)");
                break;
            }
            if (in.id == GCN_ID_S_MEMTIME || in.id == GCN_ID_S_MEMREALTIME) {
                ok = why_at(why, whylen, &in, "a read of the run's instruction count");
                break;
            }
            for (unsigned k = 0; named && k < in.nopnds && k < GCN_MAX_OPNDS; k++) {
                const gcn_opnd *op = &in.op[k];
                unsigned n = op->nregs ? op->nregs : 1, r0, bit;
                if (op->kind == GCN_OPND_VGPR)
                    r0 = op->reg, bit = 1;
                else if (op->kind == GCN_OPND_AGPR)
                    r0 = accum + op->reg, bit = 2;
                else
                    continue;
                for (unsigned r = r0 < accum ? accum : r0; r < r0 + n && r < nvrows; r++) {
                    named[r] |= (uint8_t)bit;
                    if (named[r] == 3) {
                        char w[64];
                        snprintf(w, sizeof w, "register row %u named both as v%u and as a%u", r,
                                 r, r - accum);
                        ok = why_at(why, whylen, &in, w);
                        break;
                    }
                }
            }
            if (!ok)
                break;
            unsigned ctl = ctl_of[in.id];
            if (ctl == GCN_LK_SETPC || ctl == GCN_LK_SWAPPC || ctl == GCN_LK_CALL) {
                ok = why_at(why, whylen, &in, "an indirect jump or call");
                break;
            }
            if (ctl == GCN_LK_ENDPGM)
                break;
            if (ctl == GCN_LK_BRANCH || ctl == GCN_LK_CBRANCH) {
                uint64_t tg = branch_target(&in);
                if (tg >= base && tg < base + size && !(tg & 3) && !seen[(tg - base) / 4])
                    todo[nt++] = tg;
                if (ctl == GCN_LK_BRANCH)
                    break;
            }
            pc += in.size;
        }
    }
out:
    free(seen);
    free(todo);
    free(named);
    return ok;
}
