/*
 * values.c -- a forward value analysis that gives the LDS byte range of
 * every DS instruction and LDS-DMA load, so the linter can tell two buffers
 * of a double-buffered loop apart.
 *
 * Values are affine forms c + sum k*sym over a few symbols: the lane id
 * (0..63), the wave's base work-item id, and the value each SGPR held at
 * kernel entry.  At entry v0 = wave + lane when the kernel gets workitem_id_x
 * alone (rsrc2.ENABLE_VGPR_WORKITEM_ID = 0, AMDGPUUsage "Initial Kernel
 * Execution State"); this assumes a one-dimensional work-group, so that a
 * wave holds 64 consecutive x ids.  v_readfirstlane_b32 gives the value at
 * lane 0 while EXEC still has its launch value (lane 0 is active in every
 * launched wave).  Joins keep a value only when all paths agree.
 *
 * LDS ranges: a DS access covers ADDR + offset (+ offset0/offset1 * size
 * for the two-address forms, * 64 for st64) plus its data size, over lanes
 * 0..63.  An LDS-DMA load (buffer_load_* ... lds, global_load_lds_*)
 * writes M0 + inst_offset + lane * size (AMD CDNA3 ISA, "Buffer load to LDS";
 * LLVM SIISelLowering buffer_load_lds); the range is taken to include the
 * instruction offset either way.
 */
#include <stdlib.h>
#include <string.h>
#include "lint.h"

/* ---- affine arithmetic -------------------------------------------------- */

static gcn_aval av_top(void)
{
    gcn_aval v;
    memset(&v, 0, sizeof v);
    return v;
}

static gcn_aval av_const(int64_t c)
{
    gcn_aval v = av_top();
    v.known = 1;
    v.c = c;
    return v;
}

static gcn_aval av_sym(unsigned sym, int64_t k)
{
    gcn_aval v = av_const(0);
    v.nt = 1;
    v.sym[0] = (uint16_t)sym;
    v.k[0] = k;
    return v;
}

static bool av_eq(const gcn_aval *a, const gcn_aval *b)
{
    if (a->known != b->known)
        return false;
    if (!a->known)
        return true;
    if (a->c != b->c || a->nt != b->nt)
        return false;
    for (unsigned i = 0; i < a->nt; i++)
        if (a->sym[i] != b->sym[i] || a->k[i] != b->k[i])
            return false;
    return true;
}

/* a + m * b, terms kept sorted by symbol. */
static gcn_aval av_addmul(const gcn_aval *a, const gcn_aval *b, int64_t m)
{
    if (!a->known || !b->known)
        return av_top();
    gcn_aval r = av_const(a->c + m * b->c);
    unsigned i = 0, j = 0;
    while (i < a->nt || j < b->nt) {
        uint16_t s;
        int64_t k;
        if (j >= b->nt || (i < a->nt && a->sym[i] < b->sym[j])) {
            s = a->sym[i];
            k = a->k[i++];
        } else if (i >= a->nt || b->sym[j] < a->sym[i]) {
            s = b->sym[j];
            k = m * b->k[j++];
        } else {
            s = a->sym[i];
            k = a->k[i++] + m * b->k[j++];
        }
        if (k == 0)
            continue;
        if (r.nt == GCN_AV_TERMS)
            return av_top();
        r.sym[r.nt] = s;
        r.k[r.nt++] = k;
    }
    return r;
}

static gcn_aval av_scale(const gcn_aval *a, int64_t m)
{
    gcn_aval z = av_const(0);
    return av_addmul(&z, a, m);
}

static bool av_isconst(const gcn_aval *a, int64_t *c)
{
    if (a->known && a->nt == 0) {
        *c = a->c;
        return true;
    }
    return false;
}

static gcn_aval av_mul(const gcn_aval *a, const gcn_aval *b)
{
    int64_t c;
    if (av_isconst(a, &c))
        return av_scale(b, c);
    if (av_isconst(b, &c))
        return av_scale(a, c);
    return av_top();
}

static gcn_aval av_shl(const gcn_aval *a, const gcn_aval *sh)
{
    int64_t c;
    if (!av_isconst(sh, &c) || c < 0 || c > 31)
        return av_top();
    return av_scale(a, (int64_t)1 << c);
}

/* Substitute lane = 0. */
static gcn_aval av_lane0(const gcn_aval *a)
{
    if (!a->known)
        return *a;
    gcn_aval r = av_const(a->c);
    for (unsigned i = 0; i < a->nt; i++)
        if (a->sym[i] != GCN_SYM_LANE) {
            r.sym[r.nt] = a->sym[i];
            r.k[r.nt++] = a->k[i];
        }
    return r;
}

void gcn_aval_format(const gcn_aval *v, gcn_strbuf *sb)
{
    if (!v->known) {
        gcn_sb_puts(sb, "?");
        return;
    }
    bool any = false;
    for (unsigned i = 0; i < v->nt; i++) {
        int64_t k = v->k[i];
        if (any)
            gcn_sb_puts(sb, k < 0 ? " - " : " + ");
        else if (k < 0)
            gcn_sb_puts(sb, "-");
        int64_t ak = k < 0 ? -k : k;
        if (ak != 1)
            gcn_sb_printf(sb, "%lld*", (long long)ak);
        unsigned s = v->sym[i];
        if (s == GCN_SYM_LANE)
            gcn_sb_puts(sb, "lane");
        else if (s == GCN_SYM_WAVE)
            gcn_sb_puts(sb, "wave_base_id");
        else
            gcn_sb_printf(sb, "s%u@entry", s - GCN_SYM_SGPR0);
        any = true;
    }
    if (!any)
        gcn_sb_printf(sb, "%lld", (long long)v->c);
    else if (v->c)
        gcn_sb_printf(sb, " %s %lld", v->c < 0 ? "-" : "+", (long long)(v->c < 0 ? -v->c : v->c));
}

void gcn_ldsrange_format(const gcn_ldsrange *r, gcn_strbuf *sb)
{
    if (!r->known) {
        gcn_sb_puts(sb, "unknown LDS bytes");
        return;
    }
    gcn_sb_puts(sb, "LDS [");
    if (r->base.nt) {
        gcn_aval_format(&r->base, sb);
        gcn_sb_printf(sb, " + %lld, ", (long long)r->lo);
        gcn_aval_format(&r->base, sb);
        gcn_sb_printf(sb, " + %lld)", (long long)r->hi);
    } else {
        gcn_sb_printf(sb, "%lld, %lld)", (long long)r->lo, (long long)r->hi);
    }
}

bool gcn_lds_may_overlap(const gcn_ldsrange *a, const gcn_ldsrange *b)
{
    if (!a->known || !b->known || !av_eq(&a->base, &b->base))
        return true;
    return a->lo < b->hi && b->lo < a->hi;
}

/* ---- the dataflow ------------------------------------------------------- */

typedef struct vstate {
    gcn_aval *s;          /* 128 scalar indices */
    gcn_aval *v;          /* nv vector registers */
    bool exec_full;
    bool seen;
} vstate;

typedef struct vctx {
    const gcn_cfg *cfg;
    unsigned nv;
} vctx;

static int scalar_index(const gcn_opnd *o)
{
    switch (o->kind) {
    case GCN_OPND_SGPR: return o->reg;
    case GCN_OPND_TTMP: return GCN_RS_TTMP0 + o->reg;
    case GCN_OPND_SPECIAL: return o->reg < 128 && o->reg != GCN_RS_SCC ? o->reg : -1;
    default: return -1;
    }
}

static gcn_aval opnd_val(const vctx *c, const vstate *st, const gcn_opnd *o)
{
    if (!o || (o->flags & (GCN_OPF_NEG | GCN_OPF_ABS)))
        return av_top();
    int si = scalar_index(o);
    if (si >= 0)
        return st->s[si];
    switch (o->kind) {
    case GCN_OPND_VGPR:
        return o->reg < c->nv ? st->v[o->reg] : av_top();
    case GCN_OPND_INLINE:
        if (o->reg >= 128 && o->reg <= 192)
            return av_const(o->reg - 128);
        if (o->reg >= 193 && o->reg <= 208)
            return av_const(-(int64_t)(o->reg - 192));
        return av_top();
    case GCN_OPND_LITERAL:
        return av_const((int32_t)(uint32_t)o->imm);
    default:
        return av_top();
    }
}

static void set_dst(const vctx *c, vstate *st, const gcn_opnd *d, gcn_aval v)
{
    if (!d)
        return;
    int si = scalar_index(d);
    if (si >= 0) {
        st->s[si] = v;
        return;
    }
    if (d->kind == GCN_OPND_VGPR && d->reg < c->nv)
        st->v[d->reg] = v;
}

static const gcn_opnd *fld(const gcn_insn *in, gcn_field f)
{
    return gcn_insn_field(in, f);
}

/* The destination: the first operand written (vdst before a VOP3b carry-out;
 * v_readfirstlane_b32 names its SGPR destination sdst). */
static const gcn_opnd *first_dst(const gcn_insn *in)
{
    for (unsigned i = 0; i < in->nopnds && i < GCN_MAX_OPNDS; i++)
        if (in->op[i].flags & GCN_OPF_DST)
            return &in->op[i];
    return NULL;
}

static void transfer(const vctx *c, vstate *st, const gcn_insn *in, const gcn_lfacts *f)
{
    gcn_aval r = av_top();
    bool have = false;
    const gcn_opnd *dst = NULL;
    bool valu = f->alu >= GCN_LA_V_MOV;
    if (valu && (in->sub == GCN_SUB_DPP || in->sub == GCN_SUB_SDWA || in->m.clamp || in->m.omod))
        valu = false;
    if (f->alu >= GCN_LA_S_MOV && f->alu <= GCN_LA_S_MUL) {
        const gcn_opnd *a = fld(in, GCN_FLD_SSRC0), *b = fld(in, GCN_FLD_SSRC1);
        gcn_aval x = opnd_val(c, st, a), y = opnd_val(c, st, b);
        dst = first_dst(in);
        have = true;
        switch (f->alu) {
        case GCN_LA_S_MOV: r = x; break;
        case GCN_LA_S_ADD: r = av_addmul(&x, &y, 1); break;
        case GCN_LA_S_SUB: r = av_addmul(&x, &y, -1); break;
        case GCN_LA_S_LSHL: r = av_shl(&x, &y); break;
        case GCN_LA_S_MUL: r = av_mul(&x, &y); break;
        default: have = false; break;
        }
    } else if (valu) {
        gcn_aval x = opnd_val(c, st, fld(in, GCN_FLD_SRC0));
        gcn_aval y = opnd_val(c, st, fld(in, GCN_FLD_SRC1));
        gcn_aval z = opnd_val(c, st, fld(in, GCN_FLD_SRC2));
        dst = first_dst(in);
        have = true;
        gcn_aval t;
        switch (f->alu) {
        case GCN_LA_V_MOV: r = x; break;
        case GCN_LA_V_ADD: r = av_addmul(&x, &y, 1); break;
        case GCN_LA_V_SUB: r = av_addmul(&x, &y, -1); break;
        case GCN_LA_V_SUBREV: r = av_addmul(&y, &x, -1); break;
        case GCN_LA_V_LSHLREV: r = av_shl(&y, &x); break;
        case GCN_LA_V_LSHL_ADD: t = av_shl(&x, &y); r = av_addmul(&t, &z, 1); break;
        case GCN_LA_V_ADD_LSHL: t = av_addmul(&x, &y, 1); r = av_shl(&t, &z); break;
        case GCN_LA_V_MUL: r = av_mul(&x, &y); break;
        case GCN_LA_V_MAD: t = av_mul(&x, &y); r = av_addmul(&t, &z, 1); break;
        case GCN_LA_V_ADD3: t = av_addmul(&x, &y, 1); r = av_addmul(&t, &z, 1); break;
        case GCN_LA_V_READFIRSTLANE: r = st->exec_full ? av_lane0(&x) : av_top(); break;
        default: have = false; break;
        }
    }
    /* all written registers become unknown, then the result is set */
    gcn_regset w = f->defs;
    gcn_rs_or(&w, &f->adefs);
    for (unsigned k = 0; k < 2; k++)          /* the set bits, not every index */
        for (uint64_t x = w.s[k]; x; x &= x - 1)
            st->s[k * 64 + (unsigned)__builtin_ctzll(x)] = av_top();
    for (unsigned k = 0; k < 8; k++)
        for (uint64_t x = w.v[k]; x; x &= x - 1) {
            unsigned i = k * 64 + (unsigned)__builtin_ctzll(x);
            if (i < c->nv)
                st->v[i] = av_top();
        }
    if (have && dst && (dst->nregs <= 1))
        set_dst(c, st, dst, r);
    if (gcn_rs_has_s(&w, GCN_RS_EXEC)) {
        /* s_mov_b64 exec, -1 restores a full mask; any other write may clear lane 0 */
        const gcn_opnd *s0 = fld(in, GCN_FLD_SSRC0);
        st->exec_full = f->alu == GCN_LA_S_MOV64 && s0 && s0->kind == GCN_OPND_INLINE &&
                        s0->reg == 193;
    }
}

static bool join(const vctx *c, vstate *d, const vstate *s)
{
    if (!d->seen) {
        memcpy(d->s, s->s, sizeof *d->s * 128);
        memcpy(d->v, s->v, sizeof *d->v * c->nv);
        d->exec_full = s->exec_full;
        d->seen = true;
        return true;
    }
    bool ch = false;
    for (unsigned i = 0; i < 128; i++)
        if (d->s[i].known && !av_eq(&d->s[i], &s->s[i])) {
            d->s[i] = av_top();
            ch = true;
        }
    for (unsigned i = 0; i < c->nv; i++)
        if (d->v[i].known && !av_eq(&d->v[i], &s->v[i])) {
            d->v[i] = av_top();
            ch = true;
        }
    if (d->exec_full && !s->exec_full) {
        d->exec_full = false;
        ch = true;
    }
    return ch;
}

static bool is_two_addr(const char *m)
{
    return strstr(m, "read2") || strstr(m, "write2") || strstr(m, "xchg2");
}

static void lds_range(const vctx *c, const vstate *st, const gcn_insn *in, const gcn_lfacts *f,
                      gcn_ldsrange *out)
{
    memset(out, 0, sizeof *out);
    if (!f->lds)
        return;
    int64_t bytes = f->lds_bytes ? f->lds_bytes : 16;
    if (f->lds & GCN_LL_DMA) {
        gcn_aval m0 = st->s[GCN_RS_M0];
        if (!m0.known)
            return;
        for (unsigned i = 0; i < m0.nt; i++)
            if (m0.sym[i] == GCN_SYM_LANE)
                return;
        int64_t off = in->m.offset;
        out->known = true;
        out->base = m0;
        out->base.c = 0;
        out->lo = m0.c + (off < 0 ? off : 0);
        out->hi = m0.c + (off > 0 ? off : 0) + 64 * bytes;
        return;
    }
    const gcn_opnd *a = fld(in, GCN_FLD_ADDR);
    gcn_aval v = a ? opnd_val(c, st, a) : av_top();
    if (!v.known)
        return;
    int64_t kl = 0;
    gcn_aval base = av_const(0);
    for (unsigned i = 0; i < v.nt; i++) {
        if (v.sym[i] == GCN_SYM_LANE) {
            kl = v.k[i];
        } else {
            base.sym[base.nt] = v.sym[i];
            base.k[base.nt++] = v.k[i];
        }
    }
    int64_t lo = v.c + (kl < 0 ? 63 * kl : 0);
    int64_t hi = v.c + (kl > 0 ? 63 * kl : 0);
    int64_t olo, ohi;
    if (is_two_addr(f->mnem)) {
        int64_t unit = bytes * (strstr(f->mnem, "st64") ? 64 : 1);
        int64_t o0 = in->m.offset0, o1 = in->m.offset1;
        olo = (o0 < o1 ? o0 : o1) * unit;
        ohi = (o0 > o1 ? o0 : o1) * unit + bytes;
    } else {
        olo = (uint16_t)in->m.offset;
        ohi = olo + bytes;
    }
    out->known = true;
    out->base = base;
    out->lo = lo + olo;
    out->hi = hi + ohi;
}

int gcn_values_run(const gcn_cfg *cfg, const gcn_entry_info *ei, gcn_values *out)
{
    memset(out, 0, sizeof *out);
    vctx c = {cfg, cfg->max_vgpr};
    unsigned nb = cfg->nblocks;
    out->n = cfg->ninsn;
    out->lds = calloc(cfg->ninsn ? cfg->ninsn : 1, sizeof *out->lds);
    vstate *in = calloc(nb ? nb : 1, sizeof *in);
    gcn_aval *pool = calloc((size_t)(nb + 1) * (128 + c.nv), sizeof *pool);
    unsigned *wl = malloc(sizeof *wl * (nb + 1));
    bool *inwl = calloc(nb + 1, sizeof *inwl);
    if (!out->lds || !in || !pool || !wl || !inwl) {
        free(in); free(pool); free(wl); free(inwl);
        gcn_values_free(out);
        return -1;
    }
    for (unsigned k = 0; k <= nb; k++) {
        vstate *v = k < nb ? &in[k] : NULL;
        if (v) {
            v->s = pool + (size_t)k * (128 + c.nv);
            v->v = v->s + 128;
        }
    }
    vstate st;
    st.s = pool + (size_t)nb * (128 + c.nv);
    st.v = st.s + 128;
    if (!nb) {
        free(in); free(pool); free(wl); free(inwl);
        return 0;
    }
    /* entry state */
    for (unsigned i = 0; i < 128; i++)
        st.s[i] = i <= 101 ? av_sym(GCN_SYM_SGPR0 + i, 1) : av_top();
    for (unsigned i = 0; i < c.nv; i++)
        st.v[i] = av_top();
    if (c.nv && ei && ei->v0_is_x) {
        gcn_aval w = av_sym(GCN_SYM_WAVE, 1), l = av_sym(GCN_SYM_LANE, 1);
        st.v[0] = av_addmul(&w, &l, 1);
    }
    st.exec_full = true;
    st.seen = true;
    join(&c, &in[0], &st);
    unsigned nw = 0;
    wl[nw++] = 0;
    inwl[0] = true;
    while (nw) {
        unsigned k = wl[--nw];
        inwl[k] = false;
        memcpy(st.s, in[k].s, sizeof *st.s * (128 + c.nv));
        st.exec_full = in[k].exec_full;
        const gcn_block *b = &cfg->blocks[k];
        for (unsigned i = b->first; i <= b->last; i++)
            transfer(&c, &st, &cfg->insn[i], &cfg->facts[i]);
        for (unsigned s = 0; s < b->nsucc; s++) {
            unsigned t = b->succ[s];
            if (join(&c, &in[t], &st) && !inwl[t]) {
                wl[nw++] = t;
                inwl[t] = true;
            }
        }
    }
    for (unsigned k = 0; k < nb; k++) {
        if (!in[k].seen)
            continue;
        memcpy(st.s, in[k].s, sizeof *st.s * (128 + c.nv));
        st.exec_full = in[k].exec_full;
        const gcn_block *b = &cfg->blocks[k];
        for (unsigned i = b->first; i <= b->last; i++) {
            lds_range(&c, &st, &cfg->insn[i], &cfg->facts[i], &out->lds[i]);
            transfer(&c, &st, &cfg->insn[i], &cfg->facts[i]);
        }
    }
    free(in); free(pool); free(wl); free(inwl);
    return 0;
}

void gcn_values_free(gcn_values *v)
{
    free(v->lds);
    memset(v, 0, sizeof *v);
}
