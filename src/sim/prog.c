/*
 * prog.c -- pre-decoding: turns decoded instructions (gcn_insn, operands in
 * LLVM print order tagged by field) into sim_insn records the inner loop runs
 * without further decoding: the body function, operands resolved by role
 * (destinations, src0..2, memory roles), constants expanded for their operand
 * type, the registers read and written (for the pending-load checks), the
 * instruction text and its source line.  Instructions are decoded lazily, the
 * first time the PC reaches them, and cached per 4-byte slot of .text.
 *
 * Inline constants take their operand type's bits from the decoder
 * (gcn_inline_value).  A 32-bit literal is the high half of an f64 operand and
 * zero-extended for 64-bit integer operands (as LLVM's disassembler reads it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"

/* AddressSanitizer: a block kept for the next program is poisoned until its entries are
 * filled again (sanitizer/asan_interface.h). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROG_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(PROG_ASAN)
#define PROG_ASAN 1
#endif
#ifdef PROG_ASAN
#include <sanitizer/asan_interface.h>
#define GCN_ASAN_POISON(a, n) ASAN_POISON_MEMORY_REGION(a, n)
#define GCN_ASAN_UNPOISON(a, n) ASAN_UNPOISON_MEMORY_REGION(a, n)
#else
#define GCN_ASAN_POISON(a, n) ((void)(a), (void)(n))
#define GCN_ASAN_UNPOISON(a, n) ((void)(a), (void)(n))
#endif

static uint64_t literal_value(uint32_t lit, unsigned dt)
{
    if (dt == GCN_DT_F64)
        return (uint64_t)lit << 32;
    if (dt == GCN_DT_V2F32 || dt == GCN_DT_V2B32)
        return (uint64_t)lit << 32 | lit;
    return lit;
}

static void set_bad(sim_insn *si, const char *fmt, unsigned a, unsigned b)
{
    if (si->bad)
        return;
    char buf[256];
    snprintf(buf, sizeof buf, fmt, a, b);
    si->bad = 1;
    si->badmsg = strdup(buf);
}

/* Resolve one decoded operand. */
static void resolve(sim_insn *si, const gcn_opnd *op, const gcn_insn *in, unsigned accum,
                    unsigned nvrows, sim_opnd *o)
{
    memset(o, 0, sizeof *o);
    o->n = op->nregs ? op->nregs : 1;
    o->dt = op->dtype;
    if (op->flags & GCN_OPF_NEG) o->mods |= OM_NEG;
    if (op->flags & GCN_OPF_ABS) o->mods |= OM_ABS;
    if (op->flags & GCN_OPF_SEXT) o->mods |= OM_SEXT;
    switch (op->kind) {
    case GCN_OPND_VGPR:
        /* Unified register file (gfx90a, gfx942, gfx950): one array of
         * next_free_vgpr rows; AGPR aN is row accum_offset + N (AMDGPUUsage,
         * compute_pgm_rsrc3 ACCUM_OFFSET: "offset of a first AccVGPR in the
         * unified register file"; LLVM getTotalNumVGPRs: total = align(arch,
         * 4) + acc).  Nothing bounds the arch names by accum_offset but the
         * allocation: vN with N >= accum_offset is that physical row, the
         * same as a(N - accum_offset).  Production kernels rely on it (AITER
         * attention: 256 rows, accum_offset 160, v0-v235, no AGPRs), and the
         * MI200/MI300 guides give 512 rows, at most 256 of each name. */
        o->kind = OK_V;
        o->r = op->reg;
        if ((unsigned)op->reg + o->n > nvrows)
            set_bad(si, "v%u is beyond the kernel's VGPRs (%u allocated, next_free_vgpr)",
                    op->reg + o->n - 1, nvrows);
        break;
    case GCN_OPND_AGPR:
        o->kind = OK_V;
        o->agpr = 1;
        o->r = (uint16_t)(accum + op->reg);
        if (accum + op->reg + o->n > nvrows)
            set_bad(si, "a%u is beyond the kernel's AGPRs (%u allocated)",
                    op->reg + o->n - 1, nvrows > accum ? nvrows - accum : 0);
        break;
    case GCN_OPND_SGPR:
        o->kind = OK_S;
        o->r = op->reg;
        break;
    case GCN_OPND_TTMP:
        o->kind = OK_S;
        o->r = (uint16_t)(SR_TTMP0 + op->reg);
        break;
    case GCN_OPND_SPECIAL:
        switch (op->reg) {
        case 251: o->kind = OK_VCCZ; break;
        case 252: o->kind = OK_EXECZ; break;
        case 253: o->kind = OK_SCC; break;
        case 254: o->kind = OK_LDSDIR; break;
        case 235: case 236: case 237: case 238: {
            uint64_t base = op->reg <= 236 ? SIM_SHARED_BASE : SIM_PRIVATE_BASE;
            uint64_t v = (op->reg & 1) ? base : base + 0xffffffffull;
            o->kind = OK_C;
            o->c = o->n >= 2 ? v : v >> 32;
            break;
        }
        case 239: o->kind = OK_C; o->c = 0; break;
        default:
            if (op->reg < 128) {
                o->kind = OK_S;
                o->r = op->reg;
            } else {
                o->kind = OK_BAD;
                set_bad(si, "operand encoding %u not simulated", op->reg, 0);
            }
        }
        break;
    case GCN_OPND_INLINE:
        o->kind = OK_C;
        o->c = gcn_inline_value(op->reg, op->dtype);
        break;
    case GCN_OPND_LITERAL:
        o->kind = OK_C;
        o->c = literal_value((uint32_t)op->imm, op->dtype);
        break;
    case GCN_OPND_IMM:
        o->kind = OK_IMM;
        o->c = (uint64_t)op->imm;
        break;
    case GCN_OPND_LABEL:
        o->kind = OK_IMM;
        o->c = (uint64_t)op->imm;
        break;
    default:
        o->kind = OK_NONE;
        break;
    }
    (void)in;
}

static int mem_role(unsigned field)
{
    switch (field) {
    case GCN_FLD_VADDR: return MF_VADDR;
    case GCN_FLD_VDATA: return MF_VDATA;
    case GCN_FLD_SRSRC: return MF_SRSRC;
    case GCN_FLD_SOFFSET: return MF_SOFFSET;
    case GCN_FLD_SADDR: return MF_SADDR;
    case GCN_FLD_SBASE: return MF_SBASE;
    case GCN_FLD_SDATA: return MF_SDATA;
    case GCN_FLD_DATA0: return MF_DATA0;
    case GCN_FLD_DATA1: return MF_DATA1;
    case GCN_FLD_ADDR: return MF_ADDR;
    default: return -1;
    }
}

static void add_ref(sim_insn *si, int write, const sim_opnd *o)
{
    sim_rref r;
    if (o->kind == OK_V)
        r.file = 1;
    else if (o->kind == OK_S)
        r.file = 2;
    else
        return;
    r.r = o->r;
    r.n = o->n;
    if (write) {
        if (si->nwr < sizeof si->wr / sizeof si->wr[0])
            si->wr[si->nwr++] = r;
    } else {
        if (si->nrd < sizeof si->rd / sizeof si->rd[0])
            si->rd[si->nrd++] = r;
    }
}

/* wave->s[] is indexed by the scalar encoding, as the decoder's register sets are */
_Static_assert(SR_VCC_LO == GCN_RS_VCC && SR_M0 == GCN_RS_M0 && SR_EXEC_LO == GCN_RS_EXEC,
               "scalar register numbering");

static void add_sref(sim_insn *si, int write, unsigned reg, unsigned n)
{
    sim_opnd o = {.kind = OK_S, .r = (uint16_t)reg, .n = (uint8_t)n};
    add_ref(si, write, &o);
}

/* A chunk of a program's strings. */
typedef struct sim_strchunk {
    struct sim_strchunk *next;
    char s[];
} sim_strchunk;
#define SIM_STRCHUNK 16384

/* A copy of the n bytes at s and a 0 in p's chunks (freed with the program: one allocation
 * per chunk instead of one per string, four strings per instruction), or NULL when out of
 * memory. */
static char *prog_str(sim_prog *p, const char *s, size_t n)
{
    if (n + 1 > p->str_left) {
        size_t size = n + 1 > SIM_STRCHUNK / 4 ? n + 1 : SIM_STRCHUNK;
        sim_strchunk *c = malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->next = p->strs;
        p->strs = c;
        if (size != SIM_STRCHUNK) {     /* a long string: a chunk of its own */
            memcpy(c->s, s, n);
            c->s[n] = 0;
            return c->s;
        }
        p->str_cur = c->s;
        p->str_left = size;
    }
    char *r = p->str_cur;
    memcpy(r, s, n);
    r[n] = 0;
    p->str_cur += n + 1;
    p->str_left -= n + 1;
    return r;
}

static void predecode(sim_insn *si, const gcn_insn *in, const gcn_decoder *d, unsigned accum,
                      unsigned nvrows, gcn_strbuf *sb, sim_prog *strs);

void sim_predecode_sb(sim_insn *si, const gcn_insn *in, const gcn_decoder *d, unsigned accum,
                      unsigned nvrows, gcn_strbuf *sb)
{
    predecode(si, in, d, accum, nvrows, sb, NULL);
    sim_hz_groups(si, 0);       /* (no program: none of its groups; sim_prog_at's own below) */
}

/* sim_predecode_sb, the text in strs's chunks when strs is not NULL (else strdup) */
static void predecode(sim_insn *si, const gcn_insn *in, const gcn_decoder *d, unsigned accum,
                      unsigned nvrows, gcn_strbuf *sb, sim_prog *strs)
{
    memset(si, 0, sizeof *si);
    si->raw = *in;
    gcn_hz_analyze(d, in, &si->hz);
    gcn_hz_roles(&si->hz, &si->hz_cons, &si->hz_prod);
    si->hz_ws = si->hz.ws;
    si->id = in->id;
    si->enc = in->enc;
    si->sub = in->sub;
    si->size = in->size;
    si->pc = in->addr;
    si->mods = in->m;
    si->nsi = NULL;
    si->tsi = NULL;
    si->idx = SIM_NO_IDX;       /* (sim_prog_at sets a program instruction's) */
    const gcn_isa_row *row = gcn_isa_row_of(in->id);
    si->flags = row->flags;
    int ndst = 0;
    for (unsigned k = 0; k < in->nopnds && k < GCN_MAX_OPNDS; k++) {
        const gcn_opnd *op = &in->op[k];
        sim_opnd o;
        resolve(si, op, in, accum, nvrows, &o);
        int role = mem_role(op->field);
        if (role >= 0)
            si->m[role] = o;
        if (op->kind == GCN_OPND_LABEL) {
            si->imm = op->imm;
            si->target = in->addr + 4 + (uint64_t)((int64_t)op->imm * 4);
            continue;
        }
        if (op->flags & GCN_OPF_DST) {
            if (ndst == 0)
                si->d = o;
            else if (ndst == 1)
                si->d2 = o;
            ndst++;
            add_ref(si, 1, &o);
        }
        if (op->flags & GCN_OPF_SRC) {
            add_ref(si, 0, &o);
            int slot = -1;
            switch (op->field) {
            case GCN_FLD_SRC0: case GCN_FLD_SSRC0: slot = 0; break;
            case GCN_FLD_SRC1: case GCN_FLD_SSRC1: slot = 1; break;
            case GCN_FLD_SRC2: slot = 2; break;
            case GCN_FLD_VCC_IMPLICIT: slot = 2; break;
            default:
                if (role < 0 && op->kind != GCN_OPND_IMM) {
                    for (int q = 0; q < 3; q++)
                        if (si->s[q].kind == OK_NONE) { slot = q; break; }
                }
            }
            if (slot >= 0 && si->s[slot].kind == OK_NONE)
                si->s[slot] = o;
        }
        if (op->kind == GCN_OPND_IMM && !(op->flags & (GCN_OPF_DST)) && role < 0)
            si->imm = op->imm;
        else if (op->kind == GCN_OPND_IMM && op->field == GCN_FLD_SIMM16)
            si->imm = op->imm;
    }
    if (in->enc == GCN_FMT_SOPP && si->target == 0 && (row->flags & GCN_F_BRANCH)) {
        /* branches whose label the decoder gave as an immediate */
        si->target = in->addr + 4 + (uint64_t)((int64_t)(int16_t)si->imm * 4);
    }
    /* implicit registers */
    if (row->flags & GCN_F_RD_DST)      /* vdst is read too: SMFMAC's accumulator C,
                                         * v_fmac/v_mac/v_dot*c's tied src2 */
        add_ref(si, 0, &si->d);
    if (row->flags & GCN_F_WR_SRC0)     /* swaps: the source register is written too */
        add_ref(si, 1, &si->s[0]);
    /* EXEC, VCC, M0 read or written without an operand (the decoder's expansion, as the
     * linter's; SCC is no SGPR and no load writes it: not tracked here) */
    gcn_implicit imp[GCN_IMPLICIT_MAX];
    unsigned nimp = gcn_insn_implicit(in, gcn_insn_flags(in), imp);
    for (unsigned k = 0; k < nimp; k++)
        if (imp[k].reg != GCN_RS_SCC)
            add_sref(si, imp[k].write, imp[k].reg, imp[k].n);

    /* fast-path bits for the VALU write-back and fetch */
    if (in->sub != GCN_SUB_DPP && in->sub != GCN_SUB_SDWA &&
        (in->enc == GCN_FMT_VOP1 || in->enc == GCN_FMT_VOP2 || in->enc == GCN_FMT_VOPC ||
         in->enc == GCN_FMT_VOP3 || in->enc == GCN_FMT_VOP3P)) {
        int opsel16 = in->enc == GCN_FMT_VOP3 && in->m.op_sel;
        for (int k = 0; k < 3; k++)
            if (si->s[k].kind == OK_V && !si->s[k].mods && !opsel16)
                si->vfast |= (uint8_t)(1u << k);
        if (si->d.kind == OK_V && !in->m.omod && !in->m.clamp && !opsel16)
            si->vfast |= VF_DST;
        int alias = 0;
        for (int k = 0; k < 3; k++) {
            const sim_opnd *o = &si->s[k];
            if (o->kind == OK_V && o->r < si->d.r + si->d.n && si->d.r < o->r + o->n)
                alias = 1;
        }
        if (si->d.kind == OK_V && !alias)
            si->vfast |= VF_NOALIAS;
    }
    if (in->id == GCN_ID_INVALID) {
        si->bad = 1;
        char buf[96];
        snprintf(buf, sizeof buf, "illegal instruction (word 0x%08x)", in->words[0]);
        si->badmsg = strdup(buf);
    }
    si->fn = si->bad ? sim_body_bad : sim_body_of(in->id);
    if (!si->bad && in->sub == GCN_SUB_DPP && si->fn != sim_body_unsimulated) {
        si->fn2 = si->fn;
        si->fn = sim_dpp_body;
    }

    /* the text printed into the caller's buffer, kept from instruction to instruction (a
     * buffer made, grown and freed for each was two of its three allocations) */
    sb->len = 0;
    if (d)
        gcn_print_insn(d, in, sb);
    const char *text = sb->len ? sb->buf : "";
    si->text = strs ? prog_str(strs, text, strlen(text)) : strdup(text);
}

void sim_predecode(sim_insn *si, const gcn_insn *in, const gcn_decoder *d, unsigned accum,
                   unsigned nvrows)
{
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    sim_predecode_sb(si, in, d, accum, nvrows, &sb);
    gcn_sb_free(&sb);
}

int sim_prog_init(sim_prog *p, const gcn_codeobj *co, gcn_target t, unsigned accum,
                  unsigned nvrows, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->co = co;
    p->dec.target = t;
    p->text_addr = co->text_addr;
    p->text_size = co->text_size;
    p->accum = accum;
    p->nvrows = nvrows;
    size_t slots = (size_t)(co->text_size / 4) + 1;
    p->at = malloc(slots * sizeof *p->at);
    if (!p->at) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memset(p->at, 0xff, slots * sizeof *p->at);
    p->nsym = gcn_co_symbols_in(co, co->text_addr, co->text_addr + co->text_size, p->sym_idx,
                                SIM_PROG_SYMS);
    return 0;
}

static void insn_strings_free(sim_insn *si)
{
    free(si->text);
    free(si->where);
    free(si->file);
    free(si->sym);
    free(si->badmsg);
}

/* The blocks of a pool freed (the device's end). */
void sim_blkpool_free(sim_blkpool *bp)
{
    while (bp->n) {
        sim_insn *b = bp->b[--bp->n];
        GCN_ASAN_UNPOISON(b, SIM_PROG_BLK * sizeof(sim_insn));
        free(b);
    }
}

void sim_prog_free(sim_prog *p)
{
    /* the variants of instructions under VGPR index mode or VSKIP (idxmode.c) */
    for (uint32_t i = 0; i < p->nix; i++) {
        insn_strings_free(p->ix[i].v);
        free(p->ix[i].v);
    }
    free(p->ix);
    free(p->vname_first);
    free(p->aname_first);
    for (uint32_t i = 0; i < p->n; i++)        /* (their other strings are in p->strs) */
        free(sim_prog_insn(p, i)->badmsg);
    while (p->strs) {
        sim_strchunk *c = p->strs;
        p->strs = c->next;
        free(c);
    }
    for (uint32_t b = 0; b < p->cap / SIM_PROG_BLK; b++) {
        if (p->pool && p->pool->n < SIM_BLKPOOL_MAX) {
            /* kept for the next program; poisoned until an entry is filled again, so that
             * AddressSanitizer still sees a read of an entry no program filled */
            GCN_ASAN_POISON(p->blk[b], SIM_PROG_BLK * sizeof(sim_insn));
            p->pool->b[p->pool->n++] = p->blk[b];
        } else {
            free(p->blk[b]);
        }
    }
    free(p->blk);
    free(p->at);
    gcn_sb_free(&p->sb);
    memset(p, 0, sizeof *p);
}

/* Unified register file: record the rows at or above accum_offset that
 * instruction idx names as vN or as aM; when another instruction named one of
 * them the other way, idx runs under sim_alias_body, which reports it (the
 * program is legal; the finding is a warning that two names meet). */
static void note_names(sim_prog *p, sim_insn *si, const gcn_insn *in, uint32_t idx)
{
    si->alias_prod = -1;
    if (p->accum >= p->nvrows || si->bad)
        return;
    for (unsigned k = 0; k < in->nopnds && k < GCN_MAX_OPNDS; k++) {
        const gcn_opnd *op = &in->op[k];
        unsigned n = op->nregs ? op->nregs : 1, r0;
        if (op->kind == GCN_OPND_VGPR)
            r0 = op->reg;
        else if (op->kind == GCN_OPND_AGPR)
            r0 = p->accum + op->reg;
        else
            continue;
        int isv = op->kind == GCN_OPND_VGPR;
        for (unsigned r = r0; r < r0 + n && r < p->nvrows; r++) {
            if (r < p->accum)
                continue;
            if (!p->vname_first) {
                p->vname_first = calloc(p->nvrows, sizeof *p->vname_first);
                p->aname_first = calloc(p->nvrows, sizeof *p->aname_first);
                if (!p->vname_first || !p->aname_first)
                    return;
            }
            uint32_t *mine = isv ? p->vname_first : p->aname_first;
            uint32_t *other = isv ? p->aname_first : p->vname_first;
            if (!mine[r])
                mine[r] = idx + 1;
            if (other[r] && si->alias_prod < 0 && other[r] != idx + 1) {
                si->alias_prod = (int32_t)(other[r] - 1);
                si->alias_row = (uint16_t)r;
            }
        }
    }
    if (si->alias_prod >= 0) {
        si->fn_alias = si->fn;
        si->fn = sim_alias_body;
    }
}

/* "NAME+0xOFF" into buf, as snprintf's "%s+0x%llx" (truncated alike), without the
 * formatter: it was most of the host instructions of pre-decoding an instruction. */
static void sym_offset(char *buf, size_t size, const char *name, uint64_t off)
{
    size_t n = strlen(name);
    char hex[16];
    unsigned nh = 0;
    for (uint64_t v = off; nh == 0 || v; v >>= 4)
        hex[nh++] = "0123456789abcdef"[v & 15];
    if (n + 3 + nh >= size) {               /* (a long name: cut as ever) */
        snprintf(buf, size, "%s+0x%llx", name, (unsigned long long)off);
        return;
    }
    memcpy(buf, name, n);
    memcpy(buf + n, "+0x", 3);
    for (unsigned i = 0; i < nh; i++)
        buf[n + 3 + i] = hex[nh - 1 - i];
    buf[n + 3 + nh] = 0;
}

int32_t sim_prog_at(sim_prog *p, uint64_t pc, char *err, size_t errlen)
{
    if (pc < p->text_addr || pc >= p->text_addr + p->text_size || (pc & 3)) {
        snprintf(err, errlen, "PC 0x%llx is outside the kernel's code (.text 0x%llx..0x%llx)%s",
                 (unsigned long long)pc, (unsigned long long)p->text_addr,
                 (unsigned long long)(p->text_addr + p->text_size),
                 (pc & 3) ? " or misaligned" : "");
        return -1;
    }
    uint64_t slot = (pc - p->text_addr) >> 2;
    if (p->at[slot] >= 0)
        return p->at[slot];
    if (p->n == p->cap) {           /* blocks never move: tickets point at insns */
        uint32_t nb = p->cap / SIM_PROG_BLK;
        sim_insn **nblk = realloc(p->blk, (size_t)(nb + 1) * sizeof *nblk);
        if (!nblk) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        p->blk = nblk;
        /* not zeroed: sim_predecode clears each entry it fills (a block is
         * 206 KB; zeroing it all was most of predecoding a short run) */
        if (p->pool && p->pool->n)
            p->blk[nb] = p->pool->b[--p->pool->n];
        else
            p->blk[nb] = malloc(SIM_PROG_BLK * sizeof(sim_insn));
        if (!p->blk[nb]) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        p->cap += SIM_PROG_BLK;
    }
    gcn_insn in;
    uint64_t off = pc - p->text_addr;
    gcn_decode_one(&p->dec, p->co->text + off, p->text_size - off, pc, &in);
    sim_insn *si = sim_prog_insn(p, p->n);
    GCN_ASAN_UNPOISON(si, sizeof *si);         /* (a block from the pool) */
    predecode(si, &in, &p->dec, p->accum, p->nvrows, &p->sb, p);
    si->idx = p->n;
    sim_hz_groups(si, p->hz_pgcons);
    p->hz_cons |= si->hz_cons;          /* (run_wave regroups when this grew it) */
    note_names(p, si, &in, p->n);
    const gcn_line *ln = gcn_co_line(p->co, pc);
    if (ln && ln->file) {
        const char *base = strrchr(ln->file, '/');
        base = base ? base + 1 : ln->file;
        char buf[512];
        int n = snprintf(buf, sizeof buf, "%s:%u", base, ln->line);
        si->where = prog_str(p, buf, n < 0 ? 0 : n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
        si->file = prog_str(p, ln->file, strlen(ln->file));
        si->line = ln->line;
    }
    const gcn_symbol *sy = p->nsym <= SIM_PROG_SYMS
                               ? gcn_co_symbol_at_in(p->co, p->sym_idx, p->nsym, pc)
                               : gcn_co_symbol_at(p->co, pc);
    if (sy && sy->name && pc >= sy->value) {
        char buf[512];
        sym_offset(buf, sizeof buf, sy->name, pc - sy->value);
        si->sym = prog_str(p, buf, strlen(buf));
    }
    p->at[slot] = (int32_t)p->n;
    return (int32_t)p->n++;
}
