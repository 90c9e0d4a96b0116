/*
 * ops_mem.c -- semantics of the memory instructions: scalar memory (SMEM,
 * scalar atomics and probes), LDS (DS), buffer (MUBUF, typed MUBUF/MTBUF
 * formats through buffmt.c), and FLAT / GLOBAL / SCRATCH, including atomics
 * and the LDS-DMA loads (buffer_load_* ... lds, global_load_lds_*).
 *
 * Every memory instruction takes a ticket in the wait-counter FIFOs it
 * increments (fifo.c): loads compute their value now and the value lands in
 * registers (or LDS) when the ticket retires; stores and atomics change
 * memory now (a wave's memory operations are performed in issue order).
 *
 * Buffer resource (V#, gfx9; AMD CDNA3 ISA "Buffer resource constant"):
 * word0 base[31:0], word1 base[47:32] | stride[29:16] | cache_swizzle[30] |
 * swizzle_en[31], word2 num_records, word3 ... index_stride[22:21],
 * add_tid_enable[23].  Address = base + soffset + offset + stride * index,
 * offset = (offen ? vaddr[idxen] : 0) + inst_offset, index = (idxen ? vaddr[0]
 * : 0) + (add_tid ? lane : 0).  Range check: the buffer's kind comes from
 * IDXEN, ADD_TID and SWIZZLE_EN, never from the stride (CDNA3/CDNA4 ISA
 * 9.1.5.1 "Range Checking"; see buf_kind below): private (add_tid, no idxen)
 * no check; raw (no idxen) the byte offset against num_records (soffset not
 * included), whatever the stride; structured (idxen) index < num_records.
 * Out of range: loads return 0, stores and atomics do nothing.  Swizzled
 * buffers are refused (not simulated).
 * LDS-DMA writes LDS at M0 + inst_offset + lane * size (active lanes).
 * Flat addresses in the shared aperture go to LDS, in the private aperture to
 * the lane's scratch; anything else must lie in a device allocation.
 */
#include <math.h>
#include "valu_int.h"
#include "buffmt.h"

#define I (x->i)

/* The counters the instruction increments (TC_VM, TC_LGKM): gcn_insn_counters of its row,
 * the one source of that fact (FLAT rows carry both: they may go to LDS or to memory; a
 * FLAT access none of whose lanes went to LDS is then narrowed to TC_VM). */
static unsigned row_counters(const sim_x *x)
{
    uint64_t c = gcn_insn_counters(gcn_isa_row_of(I->id)->flags);
    return ((c & GCN_F_VMCNT) ? TC_VM : 0u) | ((c & GCN_F_LGKMCNT) ? TC_LGKM : 0u);
}
/* The counters of the current instruction: row_counters from the pre-decoded record's copy
 * of its row flags (sim_insn.flags, prog.c), one load instead of the row lookup. */
static inline unsigned insn_counters(const sim_x *x)
{
    uint64_t c = gcn_insn_counters(I->flags);
    return ((c & GCN_F_VMCNT) ? TC_VM : 0u) | ((c & GCN_F_LGKMCNT) ? TC_LGKM : 0u);
}

#define MOP(r) (&x->i->m[r])

static inline uint64_t rd_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    switch (n) {                 /* constant sizes: no byte loops */
    case 1: v = p[0]; break;
    case 2: { uint16_t h; memcpy(&h, p, 2); v = h; break; }
    case 4: { uint32_t w; memcpy(&w, p, 4); v = w; break; }
    case 8: memcpy(&v, p, 8); break;
    default: memcpy(&v, p, n); break;
    }
    return v;
}
static inline void wr_le(uint8_t *p, uint64_t v, unsigned n) { memcpy(p, &v, n); }

/* Store lane l's data from operand s at p: nbytes whole dwords, or a byte or
 * short (hi16: taken from the high half of the dword, the d16_hi stores). */
static inline void store_lane(sim_x *x, const sim_opnd *s, unsigned l, uint8_t *p,
                              unsigned nbytes, int hi16)
{
    if (nbytes >= 4) {
        for (unsigned k = 0; k < nbytes / 4; k++) {
            uint32_t v = rv32(x, s, l, k);
            memcpy(p + 4 * k, &v, 4);
        }
    } else {
        uint32_t v = rv32(x, s, l, 0);
        if (hi16)
            v >>= 16;
        wr_le(p, v, nbytes);
    }
}

static inline int glc_bit(const sim_x *x) { return I->mods.glc || I->mods.sc0; }

/* ---- atomics (shared by DS, buffer, flat/global) ---------------------------- */
enum { A_SWAP, A_CMPSWAP, A_ADD, A_SUB, A_RSUB, A_SMIN, A_UMIN, A_SMAX, A_UMAX, A_AND, A_OR,
       A_XOR, A_INC, A_DEC, A_FADD, A_FMIN, A_FMAX, A_MSKOR, A_PKADD_F16, A_PKADD_BF16,
       A_CMPST, A_CONDXCHG, A_CMPST_F, A_WRAP };

/* Apply an atomic to memory at p (size 4 or 8); returns the old value.
 * data2 is the compare value (cmpswap: data = {src, cmp}) or the mask. */
static uint64_t atomic_apply(int op, uint8_t *p, unsigned size, uint64_t data, uint64_t data2)
{
    uint64_t old = rd_le(p, size), r = old;
    uint64_t m = size == 8 ? ~0ull : 0xffffffffull;
    int64_t so = size == 8 ? (int64_t)old : (int64_t)(int32_t)old;
    int64_t sd = size == 8 ? (int64_t)data : (int64_t)(int32_t)data;
    switch (op) {
    case A_SWAP: r = data; break;
    case A_CMPSWAP: r = old == data2 ? data : old; break;     /* data = src, data2 = cmp */
    case A_CMPST: r = old == data ? data2 : old; break;       /* ds_cmpst: data0 cmp, data1 src */
    case A_CMPST_F:                                           /* the same, IEEE equality */
        if (size == 8) r = u2d(old) == u2d(data) ? data2 : old;
        else r = u2f((uint32_t)old) == u2f((uint32_t)data) ? data2 : old;
        break;
    case A_WRAP: r = old >= (data & m) ? old - data : old + data2; break;
    case A_ADD: r = old + data; break;
    case A_SUB: r = old - data; break;
    case A_RSUB: r = data - old; break;
    case A_SMIN: r = sd < so ? data : old; break;
    case A_UMIN: r = (data & m) < old ? data : old; break;
    case A_SMAX: r = sd > so ? data : old; break;
    case A_UMAX: r = (data & m) > old ? data : old; break;
    case A_AND: r = old & data; break;
    case A_OR: r = old | data; break;
    case A_XOR: r = old ^ data; break;
    case A_INC: r = old >= (data & m) ? 0 : old + 1; break;
    case A_DEC: r = (old == 0 || old > (data & m)) ? data : old - 1; break;
    case A_MSKOR: r = (old & ~data) | data2; break;           /* data = mask, data2 = src */
    case A_FADD:
        if (size == 8) r = d2u(u2d(old) + u2d(data));
        else r = f2u(u2f((uint32_t)old) + u2f((uint32_t)data));
        break;
    case A_FMIN:
        r = size == 8 ? fmin64(old, data) : fmin32((uint32_t)old, (uint32_t)data);
        break;
    case A_FMAX:
        r = size == 8 ? fmax64(old, data) : fmax32((uint32_t)old, (uint32_t)data);
        break;
    case A_PKADD_F16: {
        uint16_t lo = fp_f2h(fp_h2f((uint16_t)old) + fp_h2f((uint16_t)data), RM_NE);
        uint16_t hi = fp_f2h(fp_h2f((uint16_t)(old >> 16)) + fp_h2f((uint16_t)(data >> 16)), RM_NE);
        r = lo | (uint32_t)hi << 16;
        break;
    }
    case A_PKADD_BF16: {
        uint16_t lo = fp_f2bf(fp_bf2f((uint16_t)old) + fp_bf2f((uint16_t)data), RM_NE);
        uint16_t hi = fp_f2bf(fp_bf2f((uint16_t)(old >> 16)) + fp_bf2f((uint16_t)(data >> 16)), RM_NE);
        r = lo | (uint32_t)hi << 16;
        break;
    }
    default: break;
    }
    wr_le(p, r & m, size);
    return old & m;
}

/* ---- lanes <-> register rows ---------------------------------------------------- */
/* A memory access moves nd dwords per lane; registers hold them as rows (row k, lane l).
 * These move every lane's dwords between memory at base + off[l] and rows, four lanes at
 * a time through a 4 x 4 transpose (dwordx4), two dwords as one 64-bit word (dwordx2). */
typedef uint32_t v4u __attribute__((vector_size(16)));

static inline void tr4(v4u *a, v4u *b, v4u *c, v4u *d)
{
    v4u t0 = __builtin_shufflevector(*a, *b, 0, 4, 1, 5);
    v4u t1 = __builtin_shufflevector(*c, *d, 0, 4, 1, 5);
    v4u t2 = __builtin_shufflevector(*a, *b, 2, 6, 3, 7);
    v4u t3 = __builtin_shufflevector(*c, *d, 2, 6, 3, 7);
    *a = __builtin_shufflevector(t0, t1, 0, 1, 4, 5);
    *b = __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
    *c = __builtin_shufflevector(t2, t3, 0, 1, 4, 5);
    *d = __builtin_shufflevector(t2, t3, 2, 3, 6, 7);
}

/* rows[k * NL + l] = dword k of lane l, every lane (nd 2 or 4): lane l's bytes at base +
 * off32[l], or at base + off64[l] when off32 is NULL (callers pass a constant NULL, so
 * each gets its own copy of the loops). */
static inline __attribute__((always_inline)) void
rows_from_lanes(uint32_t *rows, unsigned nd, const uint8_t *base, const uint32_t *off32,
                const uint64_t *off64)
{
#define LANE_AT(l) (base + (off32 ? (uint64_t)off32[l] : off64[l]))
    if (nd == 4) {
        for (unsigned l = 0; l < NL; l += 4) {
            v4u a, b, c, d;
            memcpy(&a, LANE_AT(l), 16);
            memcpy(&b, LANE_AT(l + 1), 16);
            memcpy(&c, LANE_AT(l + 2), 16);
            memcpy(&d, LANE_AT(l + 3), 16);
            tr4(&a, &b, &c, &d);
            memcpy(&rows[l], &a, 16);
            memcpy(&rows[NL + l], &b, 16);
            memcpy(&rows[2 * NL + l], &c, 16);
            memcpy(&rows[3 * NL + l], &d, 16);
        }
        return;
    }
    for (unsigned l = 0; l < NL; l++) {
        uint64_t v;
        memcpy(&v, LANE_AT(l), 8);
        rows[l] = (uint32_t)v;
        rows[NL + l] = (uint32_t)(v >> 32);
    }
#undef LANE_AT
}

/* rows[k * NL + l] = dword k at base + off[l], every lane (nd 2 or 4). */
static void lanes_to_rows(uint32_t *rows, unsigned nd, const uint8_t *base, const uint32_t *off)
{
    rows_from_lanes(rows, nd, base, off, NULL);
}

/* The inverse for the active lanes of e, in lane order (a later lane's bytes win where
 * two overlap): dword k of lane l from row[k][l] to base + off[l] (nd 2 or 4). */
static void rows_to_lanes(uint8_t *base, const uint32_t *off, uint64_t e, unsigned nd,
                          const uint32_t *const *row)
{
    for (unsigned l = 0; l < NL; l += 4) {
        if (!(e >> l & 15))
            continue;
        v4u a, b, c = {0}, d = {0};
        memcpy(&a, &row[0][l], 16);
        memcpy(&b, &row[1][l], 16);
        if (nd == 4) {
            memcpy(&c, &row[2][l], 16);
            memcpy(&d, &row[3][l], 16);
        }
        tr4(&a, &b, &c, &d);                /* a..d: lanes l..l+3, dwords 0..3 */
        const v4u *q[4] = {&a, &b, &c, &d};
        for (unsigned j = 0; j < 4; j++)
            if (e >> (l + j) & 1) {
                if (nd == 4)
                    memcpy(base + off[l + j], q[j], 16);
                else
                    memcpy(base + off[l + j], q[j], 8);
            }
    }
}

/* ---- tickets for register results ------------------------------------------- */
static sim_ticket *vreg_ticket_nz(sim_x *x, const sim_opnd *dst, unsigned dn, unsigned counters)
{
    sim_ticket *t = sim_tk_new(x, TK_VREG, counters);
    t->dreg = dst->r;
    t->dn = (uint8_t)dn;
    return t;
}
/* (the payload zeroed: lanes a load does not write read as 0) */
static sim_ticket *vreg_ticket(sim_x *x, const sim_opnd *dst, unsigned dn, unsigned counters)
{
    sim_ticket *t = vreg_ticket_nz(x, dst, dn, counters);
    memset(t->data, 0, (size_t)dn * NL * 4);
    return t;
}

/* ---- SMEM --------------------------------------------------------------------- */
static uint32_t smem_offset(sim_x *x)
{
    uint32_t off = 0;
    const sim_opnd *so = MOP(MF_SOFFSET);
    if (so->kind == OK_S)
        off += x->w->s[so->r];
    else if (so->kind == OK_C || so->kind == OK_IMM)
        off += (uint32_t)so->c;
    off += (uint32_t)I->mods.offset;
    return off;
}

static void s_load(sim_x *x, int buffer)
{
    const sim_opnd *d = &I->d;
    unsigned n = d->n;
    sim_ticket *t = sim_tk_new(x, TK_SREG, row_counters(x));
    t->ooo = 1;
    t->dreg = d->r;
    t->dn = (uint8_t)n;
    const sim_opnd *sb = MOP(MF_SBASE);
    uint32_t off = smem_offset(x);
    if (!buffer) {
        uint64_t base = rs64(x, sb);
        uint64_t a = (base + (int64_t)(int32_t)off) & ~3ull;
        uint8_t *p = sim_gmem(x, a, 4 * n, 0);
        if (!p)
            return;
        memcpy(t->data, p, 4 * n);
    } else {
        uint32_t w0 = x->w->s[sb->r], w1 = x->w->s[(sb->r + 1) & 127], w2 = x->w->s[(sb->r + 2) & 127];
        uint64_t base = w0 | (uint64_t)(w1 & 0xffff) << 32;
        for (unsigned k = 0; k < n; k++) {
            uint32_t o = (off & ~3u) + 4 * k;
            t->data[k] = 0;
            if ((uint64_t)o + 4 <= w2) {
                uint8_t *p = sim_gmem(x, base + o, 4, 0);
                if (!p)
                    return;
                memcpy(&t->data[k], p, 4);
            }
        }
    }
    sim_tk_issue(x, t);
}
BODY(S_LOAD_DWORD) { s_load(x, 0); }
BODY(S_LOAD_DWORDX2) { s_load(x, 0); }
BODY(S_LOAD_DWORDX4) { s_load(x, 0); }
BODY(S_LOAD_DWORDX8) { s_load(x, 0); }
BODY(S_LOAD_DWORDX16) { s_load(x, 0); }
BODY(S_BUFFER_LOAD_DWORD) { s_load(x, 1); }
BODY(S_BUFFER_LOAD_DWORDX2) { s_load(x, 1); }
BODY(S_BUFFER_LOAD_DWORDX4) { s_load(x, 1); }
BODY(S_BUFFER_LOAD_DWORDX8) { s_load(x, 1); }
BODY(S_BUFFER_LOAD_DWORDX16) { s_load(x, 1); }
static void s_store(sim_x *x, int buffer)
{
    const sim_opnd *sd = MOP(MF_SDATA);
    unsigned n = sd->n;
    const sim_opnd *sb = MOP(MF_SBASE);
    uint32_t off = smem_offset(x);
    uint64_t a;
    if (!buffer) {
        a = (rs64(x, sb) + (int64_t)(int32_t)off) & ~3ull;
    } else {
        uint32_t w0 = x->w->s[sb->r], w1 = x->w->s[(sb->r + 1) & 127], w2 = x->w->s[(sb->r + 2) & 127];
        a = (w0 | (uint64_t)(w1 & 0xffff) << 32) + (off & ~3u);
        if ((uint64_t)(off & ~3u) + 4 * n > w2)
            goto ticket;
    }
    {
        uint8_t *p = sim_gmem(x, a, 4 * n, 0);
        if (!p)
            return;
        for (unsigned k = 0; k < n; k++)
            memcpy(p + 4 * k, &x->w->s[(sd->r + k) & 127], 4);
    }
ticket:;
    sim_ticket *t = sim_tk_new(x, TK_STORE, row_counters(x));
    t->ooo = 1;
    sim_tk_issue(x, t);
}
BODY(S_STORE_DWORD) { s_store(x, 0); }
BODY(S_STORE_DWORDX2) { s_store(x, 0); }
BODY(S_STORE_DWORDX4) { s_store(x, 0); }
BODY(S_BUFFER_STORE_DWORD) { s_store(x, 1); }
BODY(S_BUFFER_STORE_DWORDX2) { s_store(x, 1); }
BODY(S_BUFFER_STORE_DWORDX4) { s_store(x, 1); }
static void s_time(sim_x *x)
{
    sim_ticket *t = sim_tk_new(x, TK_SREG, row_counters(x));
    t->ooo = 1;
    t->dreg = I->d.r;
    t->dn = 2;
    uint64_t v = sim_clock(x);
    t->data[0] = (uint32_t)v;
    t->data[1] = (uint32_t)(v >> 32);
    sim_tk_issue(x, t);
}
BODY(S_MEMTIME) { s_time(x); }
BODY(S_MEMREALTIME) { s_time(x); }
static void s_cacheop(sim_x *x)
{
    sim_ticket *t = sim_tk_new(x, TK_STORE, row_counters(x));
    t->ooo = 1;
    sim_tk_issue(x, t);
}
BODY(S_DCACHE_INV) { s_cacheop(x); }
BODY(S_DCACHE_WB) { s_cacheop(x); }
BODY(S_DCACHE_INV_VOL) { s_cacheop(x); }
BODY(S_DCACHE_WB_VOL) { s_cacheop(x); }
BODY(S_DCACHE_DISCARD) { s_cacheop(x); }
BODY(S_DCACHE_DISCARD_X2) { s_cacheop(x); }

/* Scalar atomics (s_atomic_*: 64-bit address in sbase; s_buffer_atomic_*:
 * V# in sbase, the dword offset range-checked against num_records like
 * s_buffer_load, out of range: no memory change and 0 returned).  sdata
 * holds the data ({src, cmp} for cmpswap); with glc the pre-op value
 * returns to sdata (its first half for cmpswap) when the ticket retires
 * (Vega/CDNA3 ISA SMEM atomics; LLVM SMInstructions.td SM_Atomic_Pseudo).
 * Like every SMEM operation the ticket is counted in lgkmcnt, out of order. */
static void s_atomic(sim_x *x, int buffer, int op, unsigned size)
{
    const sim_opnd *sd = MOP(MF_SDATA)->kind == OK_S ? MOP(MF_SDATA) : &I->d;
    const sim_opnd *sb = MOP(MF_SBASE);
    unsigned nd = size / 4;
    uint32_t off = smem_offset(x);
    uint64_t d0 = x->w->s[sd->r & 127], d1 = 0;
    if (size == 8)
        d0 |= (uint64_t)x->w->s[(sd->r + 1) & 127] << 32;
    if (op == A_CMPSWAP) {
        d1 = x->w->s[(sd->r + nd) & 127];
        if (size == 8)
            d1 |= (uint64_t)x->w->s[(sd->r + nd + 1) & 127] << 32;
    }
    uint64_t old = 0;
    uint8_t *p = NULL;
    if (!buffer) {
        uint64_t a = (rs64(x, sb) + (int64_t)(int32_t)off) & ~3ull;
        if (!(p = sim_gmem(x, a, size, 0)))
            return;
    } else {
        uint32_t w0 = x->w->s[sb->r], w1 = x->w->s[(sb->r + 1) & 127], w2 = x->w->s[(sb->r + 2) & 127];
        uint64_t base = w0 | (uint64_t)(w1 & 0xffff) << 32;
        uint32_t o = off & ~3u;
        if ((uint64_t)o + size <= w2 && !(p = sim_gmem(x, base + o, size, 0)))
            return;
    }
    if (p)
        old = atomic_apply(op, p, size, d0, d1);
    sim_ticket *t;
    if (glc_bit(x)) {
        t = sim_tk_new(x, TK_SREG, row_counters(x));
        t->dreg = sd->r;
        t->dn = (uint8_t)nd;
        t->data[0] = (uint32_t)old;
        if (size == 8)
            t->data[1] = (uint32_t)(old >> 32);
    } else {
        t = sim_tk_new(x, TK_STORE, row_counters(x));
    }
    t->ooo = 1;
    sim_tk_issue(x, t);
}
#define SA(NAME, OP) \
    BODY(S_ATOMIC_##NAME) { s_atomic(x, 0, OP, 4); } BODY(S_ATOMIC_##NAME##_X2) { s_atomic(x, 0, OP, 8); } \
    BODY(S_BUFFER_ATOMIC_##NAME) { s_atomic(x, 1, OP, 4); } \
    BODY(S_BUFFER_ATOMIC_##NAME##_X2) { s_atomic(x, 1, OP, 8); }
#define SAE(NAME) B(S_ATOMIC_##NAME), B(S_ATOMIC_##NAME##_X2), B(S_BUFFER_ATOMIC_##NAME), \
    B(S_BUFFER_ATOMIC_##NAME##_X2)
SA(SWAP, A_SWAP) SA(CMPSWAP, A_CMPSWAP) SA(ADD, A_ADD) SA(SUB, A_SUB) SA(SMIN, A_SMIN)
SA(UMIN, A_UMIN) SA(SMAX, A_SMAX) SA(UMAX, A_UMAX) SA(AND, A_AND) SA(OR, A_OR) SA(XOR, A_XOR)
SA(INC, A_INC) SA(DEC, A_DEC)
/* s_atc_probe / s_atc_probe_buffer: an address-translation prefetch hint.
 * Nothing architectural changes (no register, no memory, no fault: the
 * address is not checked); the only effect modelled is the instruction's
 * out-of-order lgkmcnt ticket, which s_waitcnt lgkmcnt retires like any
 * SMEM operation. */
BODY(S_ATC_PROBE) { s_cacheop(x); }
BODY(S_ATC_PROBE_BUFFER) { s_cacheop(x); }

/* ---- LDS (DS) ----------------------------------------------------------------- */
static uint8_t *lds_ptr(sim_x *x, uint32_t a, unsigned n, unsigned lane)
{
    sim_wg *g = x->g;
    if (!g || (uint64_t)a + n > g->lds_size) {
        sim_fault(x, "LDS access out of range: lane %u accesses %u bytes at LDS address 0x%x; "
                  "the workgroup has %u bytes of LDS", lane, n, a, g ? g->lds_size : 0);
        return NULL;
    }
    return g->lds + a;
}

static inline uint32_t ds_addr(const sim_x *x, unsigned l)
{
    const sim_opnd *a = MOP(MF_ADDR);
    return (a->kind == OK_V ? x->w->v[a->r][l] : 0);
}

/* Lane addresses of a DS instruction (addr VGPR + off); the bounding box of
 * the active lanes' bytes in [*lo, *hi).  Faults (returns -1) when an active
 * lane's access leaves the workgroup's LDS. */
GCN_HOT static int ds_lanes(sim_x *x, uint32_t off, unsigned nbytes, uint32_t *addr, uint32_t *lo,
                    uint32_t *hi)
{
    const sim_opnd *ad = MOP(MF_ADDR);
    uint64_t e = x->exec;
    uint32_t mn = UINT32_MAX, mx = 0;
    if (ad->kind == OK_V) {
        const uint32_t *av = x->w->v[ad->r];
        for (unsigned l = 0; l < NL; l++)
            addr[l] = av[l] + off;
    } else {
        for (unsigned l = 0; l < NL; l++)
            addr[l] = off;
    }
    if (e == ~0ull) {                   /* all lanes: a loop that vectorizes */
        for (unsigned l = 0; l < NL; l++) {
            mn = addr[l] < mn ? addr[l] : mn;
            mx = addr[l] > mx ? addr[l] : mx;
        }
    } else {
        for (unsigned l = 0; l < NL; l++) {
            if (e >> l & 1) {
                mn = addr[l] < mn ? addr[l] : mn;
                mx = addr[l] > mx ? addr[l] : mx;
            }
        }
    }
    *lo = mn;
    *hi = mx + nbytes;
    if (e && (uint64_t)mx + nbytes > (x->g ? x->g->lds_size : 0)) {
        for (unsigned l = 0; l < NL; l++)
            if ((e >> l & 1) && (uint64_t)addr[l] + nbytes > (x->g ? x->g->lds_size : 0)) {
                lds_ptr(x, addr[l], nbytes, l);     /* raises the fault */
                return -1;
            }
    }
    return 0;
}

/* Are the lane addresses one contiguous run, lane l at addr[0] + step * l
 * (the coalesced access of most kernels)?  Then per-lane work on LDS becomes
 * whole-block work. */
/* The bits in which the 64 lanes of row v differ from a0 + step * l: eight lanes at a time,
 * unrolled (the lane loop kept its induction and loop overhead per group). */
static inline __attribute__((always_inline)) uint32_t row_seq_diff(const uint32_t *v, uint32_t a0,
                                                                   uint32_t step)
{
    typedef uint32_t u32x8 __attribute__((vector_size(32), aligned(4)));
    u32x8 e = {a0, a0 + step, a0 + 2 * step, a0 + 3 * step, a0 + 4 * step, a0 + 5 * step,
               a0 + 6 * step, a0 + 7 * step}, acc = {0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t s8 = 8 * step;
    u32x8 inc = {s8, s8, s8, s8, s8, s8, s8, s8};
#pragma GCC unroll 8
    for (unsigned g = 0; g < NL; g += 8) {
        u32x8 a;
        memcpy(&a, v + g, sizeof a);
        acc |= a ^ e;
        e += inc;
    }
    /* (folded in halves: the lane-by-lane OR took 16 extractions) */
    typedef uint32_t u32x4 __attribute__((vector_size(16)));
    u32x4 h = __builtin_shufflevector(acc, acc, 0, 1, 2, 3) |
              __builtin_shufflevector(acc, acc, 4, 5, 6, 7);
    h |= __builtin_shufflevector(h, h, 2, 3, 0, 1);
    h |= __builtin_shufflevector(h, h, 1, 0, 3, 2);
    return h[0];
}

static inline int lanes_contig(const uint32_t *addr, uint32_t step)
{
    return row_seq_diff(addr, addr[0], step) == 0;
}

void sim_lds_rflush(sim_wg *g)
{
    for (unsigned i = 0; i < g->nrdefer; i++) {
        uint32_t *rtag = g->lds_rtag + g->rdefer[i].d0, v = g->rdefer[i].v, ep = v & 0xffff0000u;
        for (unsigned l = 0; l < NL; l++) {
            uint32_t rt = rtag[l];
            rtag[l] = ((rt & 0xffff0000u) == ep ? rt : ep) | v;
        }
    }
    g->nrdefer = 0;
}

/* The reads of all 64 lanes, one aligned block of 64 dwords at LDS address a0 ([lo, hi)),
 * in a workgroup of several waves with no pending writer in the way and no atomic tags of
 * this epoch: the tag loops vectorize. */
static inline __attribute__((always_inline)) void ds_check_contig(sim_x *x, uint32_t a0,
                                                                 uint32_t lo, uint32_t hi)
{
    sim_wg *g = x->g;
    uint32_t me = x->w->idx + 1, epoch = g->epoch, ep = (epoch & 0xffff) << 16;
    uint32_t bit = 1u << (me - 1);
    uint32_t *tag = g->lds_tag + (a0 >> 2);
    uint64_t hit = 0;
    uint32_t any = 0;
    /* (else no tag is of this epoch, or none of another wave in these blocks) */
    if (g->tag_epoch == epoch + 1 &&
        (hi - lo == 4 * NL ? sim_lds_bany_nl(g->lds_bw, ep, 0xffffu & ~bit, lo)
                           : sim_lds_bany(g->lds_bw, ep, 0xffffu & ~bit, lo, hi)))
        for (unsigned l = 0; l < NL; l++) { /* is any lane hit? (almost never: one pass) */
            uint32_t t = tag[l];
            any |= (uint32_t)((t != 0) & ((t & 31) != me) & ((t >> 5) == epoch));
        }
    if (any)
        for (unsigned l = 0; l < NL; l++) {
            uint32_t t = tag[l];
            hit |= (uint64_t)((t != 0) & ((t & 31) != me) & ((t >> 5) == epoch)) << l;
        }
    /* the reader tags: none to add when this wave's tags of this epoch cover the block (the
     * read is block b, whole, and lds_bfr says so); else deferred, unless deferred already */
    uint32_t b = a0 >> SIM_LDS_BLK_SHIFT, fr = g->lds_bfr[b];
    int whole = !(a0 & ((1u << SIM_LDS_BLK_SHIFT) - 1));
    if (!whole || (fr & 0xffff0000u) != ep || !(fr & bit)) {
        unsigned i, nd = g->nrdefer;
        for (i = 0; i < nd; i++)        /* this block's reader tag deferred already? */
            if (g->rdefer[i].d0 == a0 >> 2 && g->rdefer[i].v == (ep | bit))
                break;
        if (i == nd) {
            if (nd == sizeof g->rdefer / sizeof g->rdefer[0]) {
                sim_lds_rflush(g);
                nd = 0;
            }
            g->rdefer[nd].d0 = a0 >> 2;
            g->rdefer[nd].v = ep | bit;
            g->nrdefer = nd + 1;
            sim_lds_bmark(g->lds_br, ep, bit, lo, hi);  /* (an entry there: marked when added) */
        }
        if (whole)
            g->lds_bfr[b] = ((fr & 0xffff0000u) == ep ? fr : ep) | bit;
    }
    if (hit && !x->race_war) {
        unsigned hl = 63 - (unsigned)__builtin_clzll(hit);    /* the last lane, as below */
        x->race_lanes |= hit;
        x->race_w = g->waves[(tag[hl] & 31) - 1];
        x->race_addr = a0 + 4 * hl;
    }
    sim_lds_rnote(x, lo, hi);
    if (x->race_lanes)
        sim_lds_check_done(x);
}

/* check the reads of the active lanes against pending LDS writers and, in
 * workgroups of several waves, against other waves' writes of this epoch */
GCN_HOT static void ds_check_reads(sim_x *x, const uint32_t *addr, unsigned nbytes, uint32_t lo,
                                   uint32_t hi)
{
    sim_wg *g = x->g;
    if (!g || !x->exec)
        return;
    int pend = g->nlr && sim_lds_overlap(g, lo, hi);
    int race = g->nwaves > 1;
    if (!pend && !race)
        return;
    /* the inline tag loops below know no atomic tags: while another wave's LDS atomics of
     * this epoch may be tagged, the general per-lane check runs */
    int atom = g->atom_epoch == g->epoch + 1;
    if (g->nrdefer && !(!pend && !atom && nbytes == 4 && g->lds_tag && x->exec == ~0ull &&
                        !(addr[0] & 3) && lanes_contig(addr, 4)))
        sim_lds_rflush(g);          /* (the paths below read lds_rtag; ds_check_contig not) */
    if (!pend && !atom && nbytes == 4 && g->lds_tag && x->exec == ~0ull && !(addr[0] & 3) &&
        lanes_contig(addr, 4)) {
        /* all lanes, one aligned block of 64 dwords: the tag loops vectorize */
        ds_check_contig(x, addr[0], lo, hi);
        return;
    }
    if (!pend && !atom && nbytes == 4 && g->lds_tag) {
        /* the common case, dword per lane: tags inline */
        uint32_t me = x->w->idx + 1, epoch = g->epoch, ep = (epoch & 0xffff) << 16;
        uint32_t bit = 1u << (me - 1), *tag = g->lds_tag, *rtag = g->lds_rtag;
        uint64_t e = x->exec, hit = 0;
        uint32_t haddr = 0, htag = 0;
        for (unsigned l = 0; l < NL; l++) {
            if (!(e >> l & 1) || (addr[l] & 3))
                continue;
            uint32_t d = addr[l] >> 2, t = tag[d], rt = rtag[d];
            if (t && (t & 31) != me && (t >> 5) == epoch) {
                hit |= 1ull << l;
                haddr = d * 4;
                htag = t;
            }
            rtag[d] = ((rt & 0xffff0000u) == ep ? rt : ep) | bit;
        }
        sim_lds_bmark(g->lds_br, ep, bit, lo, hi);
        for (unsigned l = 0; l < NL; l++)         /* unaligned lanes: the general check */
            if ((e >> l & 1) && (addr[l] & 3))
                sim_lds_rcheck(x, addr[l], nbytes, l);
        if (hit && !x->race_war) {
            x->race_lanes |= hit;
            x->race_w = g->waves[(htag & 31) - 1];
            x->race_addr = haddr;
        }
        sim_lds_rnote(x, lo, hi);
        if (x->race_lanes)
            sim_lds_check_done(x);
        return;
    }
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        if (pend)
            sim_lds_check_read(x, addr[l], nbytes, l);
        if (race)
            sim_lds_rcheck(x, addr[l], nbytes, l);
    }
    if (race)
        sim_lds_rnote(x, lo, hi);
    sim_lds_check_done(x);
}

/* The writes of all 64 lanes, one aligned block of 64 dwords from dword d0, in a workgroup
 * of several waves with no atomic tags of this epoch (the caller checks both): when no reader
 * tag of another wave of this epoch lies in the block, the per-lane loop of ds_note_writes
 * below would find nothing and only write the writer tags; this does that in passes that
 * vectorize and returns 1.  Else it changes nothing and returns 0 (that loop runs).  The
 * deferred reader tags (sim_wg.rdefer) stay deferred unless one of another wave of this
 * epoch meets the block: the others cannot make a hit here (an entry of this wave adds only
 * its own bit; one of an older epoch is older than the next epoch's tags, and every tag
 * written to lds_rtag is older than every entry), and written later they give the same
 * lds_rtag (the writer tags are another array). */
static inline __attribute__((always_inline)) int note_block(sim_x *x, uint32_t d0)
{
    sim_wg *g = x->g;
    uint32_t me = x->w->idx + 1, epoch = g->epoch, ep = (epoch & 0xffff) << 16;
    uint32_t others = 0xffffu & ~(1u << (me - 1)), tagv = epoch << 5 | me;
    if (sim_lds_bany_nl(g->lds_br, ep, others, d0 * 4)) {
        for (unsigned i = 0; i < g->nrdefer; i++) {
            uint32_t v = g->rdefer[i].v, e0 = g->rdefer[i].d0;
            if ((v & 0xffff0000u) == ep && (v & others) && e0 < d0 + NL && d0 < e0 + NL)
                return 0;
        }
        const uint32_t *rtag = g->lds_rtag + d0;
        uint32_t any = 0;
        for (unsigned l = 0; l < NL; l++) {
            uint32_t rt = rtag[l];
            any |= (uint32_t)(((rt & 0xffff0000u) == ep) & ((rt & others) != 0));
        }
        if (any)
            return 0;
    }
    /* a block whose 64 writer tags are this one already (sim_wg.lds_bfw): nothing to
     * write (tag_epoch was set with them) */
    uint32_t b = d0 >> (SIM_LDS_BLK_SHIFT - 2), whole = !(d0 & (NL - 1));
    if (whole && g->lds_bfw[b] == tagv && g->lds_bw[b] == (ep | 1u << (me - 1)))
        return 1;
    sim_lds_bmark_nl(g->lds_bw, ep, 1u << (me - 1), d0 * 4);
    uint32_t *tag = g->lds_tag + d0;
#pragma GCC unroll 64
    for (unsigned l = 0; l < NL; l++)
        tag[l] = tagv;
    if (whole)
        g->lds_bfw[b] = tagv;
    else
        sim_lds_bfw_clear(g, d0 * 4, d0 * 4 + 4 * NL);
    g->tag_epoch = epoch + 1;
    return 1;
}
GCN_HOT static int ds_note_block(sim_x *x, uint32_t d0)
{
    return note_block(x, d0);
}

/* note the LDS writes of the active lanes (cross-wave race detection) */
static void ds_note_writes(sim_x *x, const uint32_t *addr, unsigned nbytes, uint32_t lo, uint32_t hi)
{
    sim_wg *g = x->g;
    if (!g || g->nwaves < 2 || !x->exec)
        return;
    if (nbytes == 4 && x->exec == ~0ull && g->lds_tag && g->atom_epoch != g->epoch + 1 &&
        !(addr[0] & 3) && lanes_contig(addr, 4) && ds_note_block(x, addr[0] >> 2)) {
        sim_lds_wnote(x, lo, hi);
        if (x->race_lanes)
            sim_lds_check_done(x);
        return;
    }
    if (g->nrdefer)
        sim_lds_rflush(g);
    if (nbytes == 4 && g->lds_tag && g->atom_epoch != g->epoch + 1) {
        uint32_t me = x->w->idx + 1, epoch = g->epoch, ep = (epoch & 0xffff) << 16;
        uint32_t tagv = epoch << 5 | me, others = 0xffffu & ~(1u << (me - 1));
        uint32_t *tag = g->lds_tag, *rtag = g->lds_rtag, haddr = 0, hr = 0;
        uint64_t e = x->exec, hit = 0;
        g->tag_epoch = epoch + 1;
        for (unsigned l = 0; l < NL; l++) {
            if (!(e >> l & 1) || (addr[l] & 3))
                continue;
            uint32_t d = addr[l] >> 2, rt = rtag[d];
            if ((rt & 0xffff0000u) == ep && (rt & others)) {
                hit |= 1ull << l;
                haddr = d * 4;
                hr = rt & others;
            }
            tag[d] = tagv;
        }
        sim_lds_bmark(g->lds_bw, ep, 1u << (me - 1), lo, hi);
        sim_lds_bfw_clear(g, lo, hi);
        for (unsigned l = 0; l < NL; l++)
            if ((e >> l & 1) && (addr[l] & 3))
                sim_lds_wmark(x, addr[l], nbytes, l);
        if (hit && !x->race_lanes) {
            x->race_lanes = hit;
            x->race_w = g->waves[__builtin_ctz(hr)];
            x->race_addr = haddr;
            x->race_war = 1;
        }
    } else {
        for (unsigned l = 0; l < NL; l++)
            if (x->exec >> l & 1)
                sim_lds_wmark(x, addr[l], nbytes, l);
    }
    sim_lds_wnote(x, lo, hi);
    if (x->race_lanes)
        sim_lds_check_done(x);
}

/* An LDS atomic (read-modify-write in one LDS operation: ds_add_u32 ..., the exchanges,
 * ds_append): the active lanes' bytes are checked against pending writers like a read
 * (an unretired LDS-DMA block, or another wave's write left pending at its s_barrier, unless
 * that write is itself an atomic), and against other waves' plain reads and writes of this
 * barrier epoch (sim_lds_amark).  Atomics of several waves on the same bytes are not a race:
 * each is indivisible in the LDS, and the order in which they apply is the program's choice
 * to leave open (a histogram, a counter).  Plain accesses of other waves are: an atomic is
 * atomic only against other atomics. */
static void ds_atomic_access(sim_x *x, const uint32_t *addr, unsigned nbytes, uint32_t lo,
                             uint32_t hi)
{
    sim_wg *g = x->g;
    if (!g || !x->exec)
        return;
    if (g->nlr && sim_lds_overlap(g, lo, hi)) {
        x->atomic = 1;
        for (unsigned l = 0; l < NL; l++)
            if (x->exec >> l & 1)
                sim_lds_check_read(x, addr[l], nbytes, l);
        x->atomic = 0;
        sim_lds_check_done(x);
    }
    if (g->nwaves < 2 || !g->lds_tag)
        return;
    for (unsigned l = 0; l < NL; l++)
        if (x->exec >> l & 1)
            sim_lds_amark(x, addr[l], nbytes, l);
    x->atomic = 1;
    sim_lds_wnote(x, lo, hi);
    x->atomic = 0;
    if (x->race_lanes)
        sim_lds_check_done(x);
}

/* single-address read of n bytes per lane into dn dwords (ext: 0 zero, 1 sign) */
/* A loaded value of nbytes (1, 2 or 4) as it reaches a VGPR: sign-extended
 * for the signed byte/short loads, and for the d16 forms kept in the low
 * half (d16 == 1) or moved to the high half (d16 == 2). */
static inline uint32_t load_value(uint32_t v, unsigned nbytes, int sext, int d16)
{
    if (sext && nbytes < 4)
        v = nbytes == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
    if (d16 == 1)
        v &= 0xffff;
    else if (d16 == 2)
        v = (v & 0xffff) << 16;
    return v;
}

GCN_HOT_NOINLINE static void ds_read(sim_x *x, unsigned nbytes, int sext, int d16)
{
    const sim_opnd *d = &I->d;
    unsigned dn = nbytes <= 4 ? 1 : nbytes / 4;
    uint32_t addr[NL], lo, hi;
    if (ds_lanes(x, (uint16_t)I->mods.offset, nbytes, addr, &lo, &hi))
        return;
    ds_check_reads(x, addr, nbytes, lo, hi);
    const uint8_t *lds = x->g->lds;
    uint64_t e = x->exec;
    if (nbytes == 4 && e == ~0ull && lanes_contig(addr, 4)) {
        sim_ticket *t = vreg_ticket_nz(x, d, dn, row_counters(x));
        memcpy(t->data, lds + addr[0], NL * 4);          /* one block, every lane */
        sim_tk_issue(x, t);
        return;
    }
    sim_ticket *t = vreg_ticket(x, d, dn, row_counters(x));
    t->wmask_mode = (uint8_t)d16;
    if (nbytes == 4) {
        for (unsigned l = 0; l < NL; l++)
            if (e >> l & 1)
                memcpy(&t->data[l], lds + addr[l], 4);
    } else if ((nbytes == 8 || nbytes == 16) && e == ~0ull) {
        lanes_to_rows(t->data, dn, lds, addr);
    } else if (nbytes > 4) {
        for (unsigned l = 0; l < NL; l++)
            if (e >> l & 1)
                for (unsigned k = 0; k < dn; k++)
                    memcpy(&t->data[k * NL + l], lds + addr[l] + 4 * k, 4);
    } else {
        for (unsigned l = 0; l < NL; l++) {
            if (!(e >> l & 1))
                continue;
            t->data[l] = load_value((uint32_t)rd_le(lds + addr[l], nbytes), nbytes, sext, d16);
        }
    }
    sim_tk_issue(x, t);
}
/* The coalesced ds_read_b32 of all lanes at LDS address a0 (4-aligned, inside the LDS, no
 * pending writer in the way) in a workgroup of several waves with no atomic tags of this
 * epoch, when its block's summaries do not show it clean: the tag checks and the ticket
 * (out of line: the clean read in DS_READ_B32 keeps fewer values live). */
static __attribute__((noinline)) void ds_read_contig(sim_x *x, uint32_t a0)
{
    ds_check_contig(x, a0, a0, a0 + 4 * NL);
    sim_tk_row(x, I->d.r, insn_counters(x), x->g->lds + a0);
}
/* ds_read_b32: the coalesced read of most kernels first, all lanes, lane l at a0 + 4 * l
 * inside the LDS: what ds_lanes, ds_check_reads and the block copy of ds_read do, from the
 * address row in one pass (anything else, e.g. a pending writer in the way, takes ds_read) */
HBODY(DS_READ_B32)
{
    sim_wg *g = x->g;
    if (x->exec == ~0ull && g && MOP(MF_ADDR)->kind == OK_V) {
        const uint32_t *av = x->w->v[MOP(MF_ADDR)->r];
        uint32_t v0 = av[0], diff = row_seq_diff(av, v0, 4), a0 = v0 + (uint16_t)I->mods.offset;
        if (!diff && (uint64_t)a0 + 4 * NL <= g->lds_size && !sim_lds_overlap_nl(g, a0)) {
            if (g->nwaves < 2) {
                sim_tk_row(x, I->d.r, insn_counters(x), g->lds + a0);
                return;
            }
            uint32_t epoch = g->epoch;
            if (g->atom_epoch != epoch + 1 && g->lds_tag && !(a0 & 3)) {
                /* a whole block whose reader tags of this epoch hold this wave already and
                 * whose writer tags of this epoch are none or this wave's: no tag to check
                 * or add (ds_check_contig would find no hit and defer nothing) */
                uint32_t b = a0 >> SIM_LDS_BLK_SHIFT, ep = (epoch & 0xffff) << 16;
                uint32_t bit = 1u << x->w->idx, fr = g->lds_bfr[b] ^ ep, bw = g->lds_bw[b] ^ ep;
                if (!(a0 & ((1u << SIM_LDS_BLK_SHIFT) - 1)) && fr < 0x10000u && (fr & bit) &&
                    (bw >= 0x10000u || !(bw & ~bit) || g->tag_epoch != epoch + 1)) {
                    sim_lds_rnote(x, a0, a0 + 4 * NL);
                    if (__builtin_expect(x->race_lanes != 0, 0))
                        sim_lds_check_done(x);
                    sim_tk_row(x, I->d.r, insn_counters(x), g->lds + a0);
                    return;
                }
                ds_read_contig(x, a0);
                return;
            }
        }
    }
    ds_read(x, 4, 0, 0);
}
BODY(DS_READ_B64) { ds_read(x, 8, 0, 0); }
BODY(DS_READ_B96) { ds_read(x, 12, 0, 0); }
BODY(DS_READ_B128) { ds_read(x, 16, 0, 0); }
BODY(DS_READ_U8) { ds_read(x, 1, 0, 0); }
BODY(DS_READ_I8) { ds_read(x, 1, 1, 0); }
BODY(DS_READ_U16) { ds_read(x, 2, 0, 0); }
BODY(DS_READ_I16) { ds_read(x, 2, 1, 0); }
BODY(DS_READ_U8_D16) { ds_read(x, 1, 0, 1); }
BODY(DS_READ_U8_D16_HI) { ds_read(x, 1, 0, 2); }
BODY(DS_READ_I8_D16) { ds_read(x, 1, 1, 1); }
BODY(DS_READ_I8_D16_HI) { ds_read(x, 1, 1, 2); }
BODY(DS_READ_U16_D16) { ds_read(x, 2, 0, 1); }
BODY(DS_READ_U16_D16_HI) { ds_read(x, 2, 0, 2); }

/* gfx950 transposing LDS reads (CDNA4) ds_read_b64_tr_b4/_b8/_b16 and
 * ds_read_b96_tr_b6: every lane gives the address of LB bits (64, or 96 for
 * b6) = E elements of `bits` bits (E = LB / bits: 16, 8, 4; 16 for b6) that
 * are consecutive along one matrix dimension ("M"), and the bits each lane
 * receives are re-dealt within each group of 16 lanes so that lane i holds
 * element (M = i, K = 0..E-1) of the 16 x E block the group read:
 *     dst[16g + i].elem[j] = src[16g + j * (16 / E) + i / E].elem[i % E]
 * (src[l] = the LB bits at lane l's address; element e = bits [e * bits,
 * (e + 1) * bits) of the little-endian value).  For E = 16 (b4, b6) this is
 * the plain 16 x 16 transpose dst[16g + i].elem[j] = src[16g + j].elem[i].
 * The CDNA4 guide shows only the resulting MFMA operand layouts; the mapping
 * is the one the public compilers program against:
 *   - b8/b16: Triton's AMD backend (lib/Dialect/TritonGPU/IR/
 *     LinearLayoutConversions.cpp, chooseLLDsReadB64TrLayout: "works on 64
 *     bits per lane and in groups of 16 lanes", the M x K = 16 x 4 base unit
 *     for 16-bit with T0 at M0-3 K0, T1 at M4-7 K0, T4 at M0-3 K1 ..., and
 *     lane i receiving M_i, K[0-3]; for 8 bits the same rotation of log2(64/8)
 *     register and 4 lane bases);
 *   - b4: Triton's chooseDotDsReadB64TrLayout (same file): the fp4 tile in LDS
 *     is packed along the non-K dimension (its i8 register bases {1,0} {2,0}
 *     {4,0} are 16 fp4 of M, its 16 lane bases {0,1}..{0,8} are 16 values of
 *     K), and the result is bitcast straight into the K-packed f8f6f4 MFMA
 *     operand (low nibble = lower K);
 *   - b4 and b6: MLIR's amdgpu.transpose_load (mlir/include/mlir/Dialect/
 *     AMDGPU/IR/AMDGPU.td: "each thread reads a vector of the col-major matrix
 *     ... and the thread's read result is a vector of the corresponding row
 *     of the transposed matrix"), lowered for vector<16xi4> / vector<16xi6> to
 *     rocdl.ds.read.tr4.b64 / tr6.b96 with a bitcast from vector<2xi32> /
 *     vector<3xi32> (AMDGPUToROCDL.cpp): element e at bits [w e, w e + w),
 *     contiguous across the dwords, as the f8f6f4 MFMA operands pack them.
 * Checked by tests/sim/test_real_rules.sh, whose MFMA results match a
 * reference only under this mapping.  A group of 16 lanes must be all active
 * or all inactive (a partial group is a fault: which bytes an inactive lane
 * would supply is not documented). */
static uint32_t tr_field(const uint32_t *w, unsigned bit, unsigned width)
{
    uint64_t v = w[bit / 32];
    if (bit % 32 + width > 32)
        v |= (uint64_t)w[bit / 32 + 1] << 32;
    return (uint32_t)(v >> (bit % 32)) & ((1u << width) - 1);
}

static void ds_read_tr(sim_x *x, unsigned bits)
{
    const sim_opnd *d = &I->d;
    unsigned nd = bits == 6 ? 3 : 2, nbytes = 4 * nd;      /* dwords / bytes per lane */
    uint32_t addr[NL], lo, hi;
    if (ds_lanes(x, (uint16_t)I->mods.offset, nbytes, addr, &lo, &hi))
        return;
    uint64_t e = x->exec;
    for (unsigned g = 0; g < NL / 16; g++) {
        uint64_t gm = (e >> (16 * g)) & 0xffff;
        if (gm && gm != 0xffff) {
            sim_fault(x, "%s: lanes %u-%u are partly active (EXEC 0x%04llx): the transposing "
                      "read deals data across 16 lanes and what an inactive lane supplies is "
                      "not documented", I->text, 16 * g, 16 * g + 15, (unsigned long long)gm);
            return;
        }
    }
    ds_check_reads(x, addr, nbytes, lo, hi);
    const uint8_t *lds = x->g->lds;
    unsigned E = 32 * nd / bits, per = 16 / E;
    uint32_t src[NL][3];
    for (unsigned l = 0; l < NL; l++)
        for (unsigned k = 0; k < 3; k++)
            src[l][k] = (e >> l & 1) && k < nd ? (uint32_t)rd_le(lds + addr[l] + 4 * k, 4) : 0;
    sim_ticket *t = vreg_ticket(x, d, nd, row_counters(x));
    for (unsigned l = 0; l < NL; l++) {
        if (!(e >> l & 1))
            continue;
        unsigned g = l & ~15u, i = l & 15;
        uint32_t v[3] = {0, 0, 0};
        for (unsigned j = 0; j < E; j++) {
            uint64_t s = tr_field(src[g + j * per + i / E], bits * (i % E), bits);
            unsigned at = bits * j;
            v[at / 32] |= (uint32_t)(s << (at % 32));
            if (at % 32 + bits > 32)
                v[at / 32 + 1] |= (uint32_t)(s >> (32 - at % 32));
        }
        for (unsigned k = 0; k < nd; k++)
            t->data[k * NL + l] = v[k];
    }
    sim_tk_issue(x, t);
}
BODY(DS_READ_B64_TR_B4) { ds_read_tr(x, 4); }
BODY(DS_READ_B96_TR_B6) { ds_read_tr(x, 6); }
BODY(DS_READ_B64_TR_B8) { ds_read_tr(x, 8); }
BODY(DS_READ_B64_TR_B16) { ds_read_tr(x, 16); }

/* two-address read: offsets offset0/offset1 in units of the element size (x64 for st64) */
static void ds_read2(sim_x *x, unsigned esz, unsigned scale)
{
    const sim_opnd *d = &I->d;
    unsigned per = esz / 4;
    uint32_t o0 = I->mods.offset0 * esz * scale, o1 = I->mods.offset1 * esz * scale;
    uint32_t a0[NL], a1[NL], lo0, hi0, lo1, hi1;
    if (ds_lanes(x, o0, esz, a0, &lo0, &hi0) || ds_lanes(x, o1, esz, a1, &lo1, &hi1))
        return;
    ds_check_reads(x, a0, esz, lo0, hi0);
    ds_check_reads(x, a1, esz, lo1, hi1);
    sim_ticket *t = vreg_ticket(x, d, 2 * per, row_counters(x));
    const uint8_t *lds = x->g->lds;
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        for (unsigned k = 0; k < per; k++) {
            memcpy(&t->data[k * NL + l], lds + a0[l] + 4 * k, 4);
            memcpy(&t->data[(per + k) * NL + l], lds + a1[l] + 4 * k, 4);
        }
    }
    sim_tk_issue(x, t);
}
BODY(DS_READ2_B32) { ds_read2(x, 4, 1); }
BODY(DS_READ2_B64) { ds_read2(x, 8, 1); }
BODY(DS_READ2ST64_B32) { ds_read2(x, 4, 64); }
BODY(DS_READ2ST64_B64) { ds_read2(x, 8, 64); }

static sim_ticket *lds_write_ticket(sim_x *x, unsigned naddr, unsigned bytes)
{
    sim_ticket *t = sim_tk_new(x, TK_LDS_WRITE, row_counters(x));
    t->naddr = (uint8_t)naddr;
    t->lane_bytes = (uint8_t)bytes;
    return t;
}
/* A DS instruction that returns data and writes LDS (atomics with return,
 * exchanges, append) is one lgkmcnt operation: its register ticket also
 * carries the LDS write (naddr > 0), for the barrier-with-pending-write
 * checks of fifo.c, instead of a second ticket. */
static sim_ticket *rtn_lds_write(sim_ticket *r, unsigned naddr, unsigned bytes)
{
    r->naddr = (uint8_t)naddr;
    r->lane_bytes = (uint8_t)bytes;
    return r;
}

GCN_HOT static void ds_write(sim_x *x, unsigned nbytes, int hi16)
{
    const sim_opnd *s = MOP(MF_DATA0);
    uint32_t addr[NL], lo, hi;
    if (ds_lanes(x, (uint16_t)I->mods.offset, nbytes, addr, &lo, &hi))
        return;
    sim_ticket *t = lds_write_ticket(x, 1, nbytes);
    uint8_t *lds = x->g->lds;
    uint64_t e = x->exec;
    if (nbytes == 4 && s->kind == OK_V) {
        const uint32_t *sv = x->w->v[s->r];
        for (unsigned l = 0; l < NL; l++)
            if (e >> l & 1)
                memcpy(lds + addr[l], &sv[l], 4);
    } else if ((nbytes == 8 || nbytes == 16) && s->kind == OK_V &&
               (unsigned)s->r + nbytes / 4 <= x->w->nvrows) {
        const uint32_t *rows[4];
        for (unsigned k = 0; k < nbytes / 4; k++)
            rows[k] = x->w->v[s->r + k];
        rows_to_lanes(lds, addr, e, nbytes / 4, rows);
    } else {
        for (unsigned l = 0; l < NL; l++) {
            if (!(e >> l & 1))
                continue;
            store_lane(x, s, l, lds + addr[l], nbytes, hi16);
        }
    }
    memcpy(t->lane_addr, addr, sizeof addr);
    if (e) {
        t->lds_base = lo;
        t->lds_len = hi - lo;
    }
    ds_note_writes(x, addr, nbytes, lo, hi);
    sim_tk_issue(x, t);
}
BODY(DS_WRITE_B32) { ds_write(x, 4, 0); }
BODY(DS_WRITE_B64) { ds_write(x, 8, 0); }
BODY(DS_WRITE_B96) { ds_write(x, 12, 0); }
BODY(DS_WRITE_B128) { ds_write(x, 16, 0); }
BODY(DS_WRITE_B8) { ds_write(x, 1, 0); }
BODY(DS_WRITE_B16) { ds_write(x, 2, 0); }
BODY(DS_WRITE_B8_D16_HI) { ds_write(x, 1, 1); }
BODY(DS_WRITE_B16_D16_HI) { ds_write(x, 2, 1); }

/* ds_write2[st64]_b32/b64 and, with rtn, ds_wrxchg2[st64]_rtn_b32/b64:
 * two addresses (addr1 = base + offset0 * esz [* 64], addr2 likewise); the
 * exchanges read both old values (vdst = {tmp1, tmp2}) before writing both
 * new ones, in one lgkmcnt ticket. */
static void ds_write2(sim_x *x, unsigned esz, unsigned scale, int rtn)
{
    const sim_opnd *s0 = MOP(MF_DATA0), *s1 = MOP(MF_DATA1);
    uint32_t o0 = I->mods.offset0 * esz * scale, o1 = I->mods.offset1 * esz * scale;
    uint32_t a0[NL], a1[NL], lo0, hi0, lo1, hi1;
    if (ds_lanes(x, o0, esz, a0, &lo0, &hi0) || ds_lanes(x, o1, esz, a1, &lo1, &hi1))
        return;
    unsigned per = esz / 4;
    sim_ticket *r = NULL, *t;
    if (rtn) {
        ds_atomic_access(x, a0, esz, lo0, hi0);
        ds_atomic_access(x, a1, esz, lo1, hi1);
        r = vreg_ticket(x, &I->d, 2 * per, row_counters(x));
        t = rtn_lds_write(r, 2, esz);
        t->atomic = 1;
    } else {
        t = lds_write_ticket(x, 2, esz);
    }
    uint8_t *lds = x->g->lds;
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        for (unsigned k = 0; r && k < per; k++) {
            memcpy(&r->data[k * NL + l], lds + a0[l] + 4 * k, 4);
            memcpy(&r->data[(per + k) * NL + l], lds + a1[l] + 4 * k, 4);
        }
        for (unsigned k = 0; k < per; k++) {
            uint32_t v0 = rv32(x, s0, l, k), v1 = rv32(x, s1, l, k);
            memcpy(lds + a0[l] + 4 * k, &v0, 4);
            memcpy(lds + a1[l] + 4 * k, &v1, 4);
        }
    }
    memcpy(t->lane_addr, a0, sizeof a0);
    memcpy(t->lane_addr + NL, a1, sizeof a1);
    if (x->exec) {
        t->lds_base = lo0 < lo1 ? lo0 : lo1;
        t->lds_len = (hi0 > hi1 ? hi0 : hi1) - t->lds_base;
    }
    if (!rtn) {
        ds_note_writes(x, a0, esz, lo0, hi0);
        ds_note_writes(x, a1, esz, lo1, hi1);
    }
    sim_tk_issue(x, t);
}
BODY(DS_WRITE2_B32) { ds_write2(x, 4, 1, 0); }
BODY(DS_WRITE2_B64) { ds_write2(x, 8, 1, 0); }
BODY(DS_WRITE2ST64_B32) { ds_write2(x, 4, 64, 0); }
BODY(DS_WRITE2ST64_B64) { ds_write2(x, 8, 64, 0); }

/* DS atomics: rtn = returns the old value to vdst */
static void ds_atomic(sim_x *x, int op, unsigned size, int rtn)
{
    const sim_opnd *s0 = MOP(MF_DATA0), *s1 = MOP(MF_DATA1);
    uint32_t addr[NL], lo, hi;
    if (ds_lanes(x, (uint16_t)I->mods.offset, size, addr, &lo, &hi))
        return;
    ds_atomic_access(x, addr, size, lo, hi);
    sim_ticket *r = rtn ? vreg_ticket(x, &I->d, size / 4, row_counters(x)) : NULL;
    sim_ticket *t = rtn ? rtn_lds_write(r, 1, size) : lds_write_ticket(x, 1, size);
    t->atomic = 1;
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        uint8_t *p = x->g->lds + addr[l];
        uint64_t d0 = rv32(x, s0, l, 0), d1 = 0;
        if (size == 8)
            d0 |= (uint64_t)rv32(x, s0, l, 1) << 32;
        if (s1->kind != OK_NONE) {
            d1 = rv32(x, s1, l, 0);
            if (size == 8)
                d1 |= (uint64_t)rv32(x, s1, l, 1) << 32;
        }
        uint64_t old = atomic_apply(op, p, size, d0, d1);
        if (r) {
            r->data[l] = (uint32_t)old;
            if (size == 8)
                r->data[NL + l] = (uint32_t)(old >> 32);
        }
    }
    memcpy(t->lane_addr, addr, sizeof addr);
    if (x->exec) {
        t->lds_base = lo;
        t->lds_len = hi - lo;
    }
    sim_tk_issue(x, t);
}

#define DSA(NAME, OP) \
    BODY(DS_##NAME##_U32) { ds_atomic(x, OP, 4, 0); } BODY(DS_##NAME##_RTN_U32) { ds_atomic(x, OP, 4, 1); } \
    BODY(DS_##NAME##_U64) { ds_atomic(x, OP, 8, 0); } BODY(DS_##NAME##_RTN_U64) { ds_atomic(x, OP, 8, 1); }
#define DSAE(NAME) B(DS_##NAME##_U32), B(DS_##NAME##_RTN_U32), B(DS_##NAME##_U64), B(DS_##NAME##_RTN_U64)
DSA(ADD, A_ADD)
DSA(SUB, A_SUB)
DSA(RSUB, A_RSUB)
DSA(INC, A_INC)
DSA(DEC, A_DEC)
DSA(MIN, A_UMIN)
DSA(MAX, A_UMAX)
#define DSB(NAME, OP) \
    BODY(DS_##NAME##_B32) { ds_atomic(x, OP, 4, 0); } BODY(DS_##NAME##_RTN_B32) { ds_atomic(x, OP, 4, 1); } \
    BODY(DS_##NAME##_B64) { ds_atomic(x, OP, 8, 0); } BODY(DS_##NAME##_RTN_B64) { ds_atomic(x, OP, 8, 1); }
#define DSBE(NAME) B(DS_##NAME##_B32), B(DS_##NAME##_RTN_B32), B(DS_##NAME##_B64), B(DS_##NAME##_RTN_B64)
DSB(AND, A_AND)
DSB(OR, A_OR)
DSB(XOR, A_XOR)
DSB(MSKOR, A_MSKOR)
DSB(CMPST, A_CMPST)
BODY(DS_MIN_I32) { ds_atomic(x, A_SMIN, 4, 0); }
BODY(DS_MIN_RTN_I32) { ds_atomic(x, A_SMIN, 4, 1); }
BODY(DS_MAX_I32) { ds_atomic(x, A_SMAX, 4, 0); }
BODY(DS_MAX_RTN_I32) { ds_atomic(x, A_SMAX, 4, 1); }
BODY(DS_MIN_I64) { ds_atomic(x, A_SMIN, 8, 0); }
BODY(DS_MIN_RTN_I64) { ds_atomic(x, A_SMIN, 8, 1); }
BODY(DS_MAX_I64) { ds_atomic(x, A_SMAX, 8, 0); }
BODY(DS_MAX_RTN_I64) { ds_atomic(x, A_SMAX, 8, 1); }
BODY(DS_WRXCHG_RTN_B32) { ds_atomic(x, A_SWAP, 4, 1); }
BODY(DS_WRXCHG_RTN_B64) { ds_atomic(x, A_SWAP, 8, 1); }
BODY(DS_ADD_F32) { ds_atomic(x, A_FADD, 4, 0); }
BODY(DS_ADD_RTN_F32) { ds_atomic(x, A_FADD, 4, 1); }
BODY(DS_MIN_F32) { ds_atomic(x, A_FMIN, 4, 0); }
BODY(DS_MIN_RTN_F32) { ds_atomic(x, A_FMIN, 4, 1); }
BODY(DS_MAX_F32) { ds_atomic(x, A_FMAX, 4, 0); }
BODY(DS_MAX_RTN_F32) { ds_atomic(x, A_FMAX, 4, 1); }
BODY(DS_MIN_F64) { ds_atomic(x, A_FMIN, 8, 0); }
BODY(DS_MIN_RTN_F64) { ds_atomic(x, A_FMIN, 8, 1); }
BODY(DS_MAX_F64) { ds_atomic(x, A_FMAX, 8, 0); }
BODY(DS_MAX_RTN_F64) { ds_atomic(x, A_FMAX, 8, 1); }
BODY(DS_ADD_F64) { ds_atomic(x, A_FADD, 8, 0); }
BODY(DS_ADD_RTN_F64) { ds_atomic(x, A_FADD, 8, 1); }
BODY(DS_PK_ADD_F16) { ds_atomic(x, A_PKADD_F16, 4, 0); }
BODY(DS_PK_ADD_RTN_F16) { ds_atomic(x, A_PKADD_F16, 4, 1); }
BODY(DS_PK_ADD_BF16) { ds_atomic(x, A_PKADD_BF16, 4, 0); }
BODY(DS_PK_ADD_RTN_BF16) { ds_atomic(x, A_PKADD_BF16, 4, 1); }
BODY(DS_NOP) { (void)x; }

/* ---- LDS extras (CDNA4 ISA 12.12 "LDS Instructions" pseudocode) ---- */
/* ds_cmpst_f32/f64: compare-store with IEEE equality (-0 == +0, NaN never
 * equal); data0 is the compare value, data1 the new value. */
BODY(DS_CMPST_F32) { ds_atomic(x, A_CMPST_F, 4, 0); }
BODY(DS_CMPST_RTN_F32) { ds_atomic(x, A_CMPST_F, 4, 1); }
BODY(DS_CMPST_F64) { ds_atomic(x, A_CMPST_F, 8, 0); }
BODY(DS_CMPST_RTN_F64) { ds_atomic(x, A_CMPST_F, 8, 1); }
/* ds_wrap_rtn_b32: tmp >= DATA ? tmp - DATA : tmp + DATA2 */
BODY(DS_WRAP_RTN_B32) { ds_atomic(x, A_WRAP, 4, 1); }

BODY(DS_WRXCHG2_RTN_B32) { ds_write2(x, 4, 1, 1); }
BODY(DS_WRXCHG2ST64_RTN_B32) { ds_write2(x, 4, 64, 1); }
BODY(DS_WRXCHG2_RTN_B64) { ds_write2(x, 8, 1, 1); }
BODY(DS_WRXCHG2ST64_RTN_B64) { ds_write2(x, 8, 64, 1); }

/* ds_condxchg32_rtn_b64: ADDR0 = (ADDR + {offset1, offset0}) & 0xfff8,
 * ADDR1 = ADDR0 + 4; each half returns the old dword and, when bit 31 of
 * the data half is set, stores that half with bit 31 cleared. */
BODY(DS_CONDXCHG32_RTN_B64)
{
    const sim_opnd *s0 = MOP(MF_DATA0);
    uint32_t addr[NL], lo = UINT32_MAX, hi = 0;
    uint32_t off = (uint16_t)I->mods.offset;
    for (unsigned l = 0; l < NL; l++) {
        addr[l] = (ds_addr(x, l) + off) & 0xfff8u;
        if (!(x->exec >> l & 1))
            continue;
        if (!lds_ptr(x, addr[l], 8, l))
            return;
        lo = addr[l] < lo ? addr[l] : lo;
        hi = addr[l] + 8 > hi ? addr[l] + 8 : hi;
    }
    ds_atomic_access(x, addr, 8, lo, hi);
    sim_ticket *r = vreg_ticket(x, &I->d, 2, row_counters(x));
    sim_ticket *t = rtn_lds_write(r, 1, 8);
    t->atomic = 1;
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        uint8_t *p = x->g->lds + addr[l];
        for (unsigned k = 0; k < 2; k++) {
            uint32_t v = rv32(x, s0, l, k);
            memcpy(&r->data[k * NL + l], p + 4 * k, 4);
            if (v >> 31) {
                v &= 0x7fffffffu;
                memcpy(p + 4 * k, &v, 4);
            }
        }
    }
    memcpy(t->lane_addr, addr, sizeof addr);
    if (x->exec) {
        t->lds_base = lo;
        t->lds_len = hi - lo;
    }
    sim_tk_issue(x, t);
}

/* ds_append / ds_consume (LDS form): the dword counter at M0 + offset gains
 * (loses) the number of active lanes; every active lane receives the value
 * from before the operation.  Address: the Vega ISA says "M0.base +
 * instr_offset" and LLVM's SelectDSAppendConsume puts the LDS pointer in M0
 * (the CDNA4 guide's text names only instr_offset for LDS).  The GDS form is
 * not modelled. */
static void ds_append(sim_x *x, int sign)
{
    if (I->mods.gds) {
        sim_fault(x, "GDS (global data share) is not modelled: ds_append/ds_consume with gds");
        return;
    }
    uint32_t a = x->w->s[SR_M0] + (uint16_t)I->mods.offset;
    uint8_t *p = lds_ptr(x, a, 4, 0);
    if (!p)
        return;
    uint32_t addr[NL];
    for (unsigned l = 0; l < NL; l++)
        addr[l] = a;
    ds_atomic_access(x, addr, 4, a, a + 4);
    uint32_t old;
    memcpy(&old, p, 4);
    uint32_t n = (uint32_t)__builtin_popcountll(x->exec), v = sign > 0 ? old + n : old - n;
    memcpy(p, &v, 4);
    sim_ticket *r = vreg_ticket(x, &I->d, 1, row_counters(x));
    for (unsigned l = 0; l < NL; l++)
        r->data[l] = old;
    sim_ticket *t = rtn_lds_write(r, 1, 4);
    t->atomic = 1;
    memcpy(t->lane_addr, addr, sizeof addr);
    if (x->exec) {
        t->lds_base = a;
        t->lds_len = 4;
    }
    sim_tk_issue(x, t);
}
BODY(DS_APPEND) { ds_append(x, 1); }
BODY(DS_CONSUME) { ds_append(x, -1); }

/* cross-lane: ds_permute (push to lane addr/4), ds_bpermute (pull from lane
 * addr/4), ds_swizzle (offset patterns: FFT >= 0xe000, rotate >= 0xc000, quad
 * permute, bitmask; CDNA4 ISA "DS_SWIZZLE_B32" pseudocode).  They
 * return through lgkmcnt like a DS read. */
static void ds_perm(sim_x *x, int back)
{
    const sim_opnd *s = MOP(MF_DATA0);
    sim_ticket *t = vreg_ticket(x, &I->d, 1, row_counters(x));
    uint32_t off = (uint16_t)I->mods.offset;
    uint32_t src[NL];
    for (unsigned l = 0; l < NL; l++)
        src[l] = rv32(x, s, l, 0);
    uint64_t e = x->exec;
    for (unsigned l = 0; l < NL; l++) {
        if (!(e >> l & 1))
            continue;
        unsigned k = ((ds_addr(x, l) + off) >> 2) & 63;
        if (back)
            t->data[l] = (e >> k & 1) ? src[k] : 0;
        else
            t->data[k] = src[l];   /* pushes from active lanes; later lanes win */
    }
    if (!back) {
        /* lanes that receive nothing read 0 */
        uint32_t got[NL] = {0};
        for (unsigned l = 0; l < NL; l++)
            if (e >> l & 1)
                got[((ds_addr(x, l) + off) >> 2) & 63] = 1;
        for (unsigned l = 0; l < NL; l++)
            if (!got[l])
                t->data[l] = 0;
    }
    sim_tk_issue(x, t);
}
BODY(DS_PERMUTE_B32) { ds_perm(x, 0); }
BODY(DS_BPERMUTE_B32) { ds_perm(x, 1); }
BODY(DS_SWIZZLE_B32)
{
    /* the data register is encoded in the ADDR field */
    const sim_opnd *s = MOP(MF_DATA0)->kind != OK_NONE ? MOP(MF_DATA0) : MOP(MF_ADDR);
    sim_ticket *t = vreg_ticket(x, &I->d, 1, row_counters(x));
    uint32_t off = (uint16_t)I->mods.offset;
    uint64_t e = x->exec;
    for (unsigned l = 0; l < NL; l++) {
        if (!(e >> l & 1))
            continue;
        unsigned src;
        if (off >= 0xe000) {                       /* FFT (CDNA4 ISA DS_SWIZZLE_B32) */
            unsigned mask = off & 31, i = l & 31, r = 0;
            for (unsigned b = 0; b < 5; b++)
                r |= ((i >> b) & 1) << (4 - b);
            src = (r >> __builtin_popcount(mask)) | (i & mask) | (l & 32);
        } else if (off >= 0xc000) {                /* rotate within 32 lanes */
            unsigned mask = off & 31, rot = (off >> 5) & 31;
            if (off & 0x400)
                rot = (32 - rot) & 31;
            src = (((l & mask) | ((l + rot) & ~mask)) & 31) | (l & 32);
        } else if (off & 0x8000) {                 /* quad permute */
            src = (l & ~3u) + ((off >> (2 * (l & 3))) & 3);
        } else {                                   /* bitmask mode within 32 lanes */
            unsigned and_m = off & 31, or_m = (off >> 5) & 31, xor_m = (off >> 10) & 31;
            src = (l & 32) | ((((l & 31) & and_m) | or_m) ^ xor_m);
        }
        t->data[l] = (e >> src & 1) ? rv32(x, s, src, 0) : 0;
    }
    sim_tk_issue(x, t);
}
BODY(DS_READ_ADDTID_B32)
{
    sim_ticket *t = vreg_ticket(x, &I->d, 1, row_counters(x));
    uint32_t base = x->w->s[SR_M0] + (uint16_t)I->mods.offset;
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        uint8_t *p = lds_ptr(x, base + 4 * l, 4, l);
        if (!p)
            return;
        sim_lds_check_read(x, base + 4 * l, 4, l);
        memcpy(&t->data[l], p, 4);
    }
    sim_lds_check_done(x);
    sim_tk_issue(x, t);
}
BODY(DS_WRITE_ADDTID_B32)
{
    const sim_opnd *s = MOP(MF_DATA0);
    uint32_t base = x->w->s[SR_M0] + (uint16_t)I->mods.offset;
    sim_ticket *t = lds_write_ticket(x, 1, 4);
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        uint8_t *p = lds_ptr(x, base + 4 * l, 4, l);
        if (!p)
            return;
        uint32_t v = rv32(x, s, l, 0);
        memcpy(p, &v, 4);
        t->lane_addr[l] = base + 4 * l;
    }
    t->lds_base = base;
    t->lds_len = 4 * NL;
    sim_tk_issue(x, t);
}

/* LDS-DMA writes count as the issuing wave's writes from the moment of issue */
static void dma_note_writes(sim_x *x, const sim_ticket *t)
{
    if (!x->g || x->g->nwaves < 2 || !x->exec)
        return;
    if (t->lane_bytes == 4 && !(t->lds_base & 3)) {
        uint32_t addr[NL];
        for (unsigned l = 0; l < NL; l++)
            addr[l] = t->lds_base + 4 * l;
        ds_note_writes(x, addr, 4, t->lds_base, t->lds_base + t->lds_len);
        return;
    }
    for (unsigned l = 0; l < NL; l++)
        if (x->exec >> l & 1)
            sim_lds_wmark(x, t->lds_base + l * t->lane_bytes, t->lane_bytes, l);
    sim_lds_wnote(x, t->lds_base, t->lds_base + t->lds_len);
    if (x->race_lanes)
        sim_lds_check_done(x);
}

/* The writer notes of dma_block's LDS-DMA t of all lanes at LDS address lbase, 4 bytes
 * each, in a workgroup of several waves (what dma_issue does after the pending range) */
static __attribute__((noinline)) void dma_note_slow(sim_x *x, sim_ticket *t, uint32_t lbase)
{
    sim_wg *g = x->g;
    if (!(lbase & 3) && g->lds_tag && g->atom_epoch != g->epoch + 1 && note_block(x, lbase >> 2)) {
        sim_lds_wnote(x, lbase, lbase + 4 * NL);
        if (x->race_lanes)
            sim_lds_check_done(x);
    } else {
        dma_note_writes(x, t);
    }
}
/* the same; inline the clean block: at a block's start, no atomic tags of this epoch, its
 * 64 writer tags this wave's of this epoch already (sim_wg.lds_bfw, lds_bw) and no reader of
 * another wave in it this epoch (lds_br): note_block would find nothing and write nothing */
static inline __attribute__((always_inline)) void dma_note_nl(sim_x *x, sim_ticket *t,
                                                              uint32_t lbase)
{
    sim_wg *g = x->g;
    uint32_t epoch = g->epoch, me = x->w->idx + 1, ep = (epoch & 0xffff) << 16;
    uint32_t bit = 1u << (me - 1), b = lbase >> SIM_LDS_BLK_SHIFT, br = g->lds_br[b] ^ ep;
    if (!(lbase & ((1u << SIM_LDS_BLK_SHIFT) - 1)) && g->atom_epoch != epoch + 1 && g->lds_tag &&
        g->lds_bfw[b] == (epoch << 5 | me) && g->lds_bw[b] == (ep | bit) &&
        (br >= 0x10000u || !(br & ~bit))) {
        sim_lds_wnote(x, lbase, lbase + 4 * NL);
        if (__builtin_expect(x->race_lanes != 0, 0))
            sim_lds_check_done(x);
        return;
    }
    dma_note_slow(x, t, lbase);
}

/* Issue an LDS-DMA ticket: its bytes pending for the wave's own reads, its writes noted
 * for the other waves' (every LDS-DMA path issues through here). */
GCN_HOT static void dma_issue(sim_x *x, sim_ticket *t)
{
    sim_lds_pend_dma(x, t);
    sim_wg *g = x->g;
    if (g && g->nwaves > 1 && x->exec == ~0ull && t->lane_bytes == 4 && !(t->lds_base & 3) &&
        g->lds_tag && g->atom_epoch != g->epoch + 1 && ds_note_block(x, t->lds_base >> 2)) {
        /* (the coalesced DMA of all lanes: what ds_note_writes does, by blocks) */
        sim_lds_wnote(x, t->lds_base, t->lds_base + t->lds_len);
        if (x->race_lanes)
            sim_lds_check_done(x);
    } else {
        dma_note_writes(x, t);
    }
    sim_tk_issue(x, t);
}

/* ---- buffer (MUBUF) ------------------------------------------------------------- */
typedef struct bufdesc {
    uint64_t base;
    uint32_t stride, num_records;
    uint32_t stride_u;           /* the stride of the untyped (non-format) accesses */
    int swizzle, add_tid;
} bufdesc;

/* The buffer's kind, which decides the range check (AMD CDNA3 and CDNA4 ISA
 * 9.1.5.1 "Range Checking"; the same three rows in the Vega and MI200 guides):
 *   private    ADD_TID && !IDXEN              no range check;
 *   raw        !ADD_TID && !SWIZZLE_EN && !IDXEN
 *              out of range when inst_offset + (offen ? vgpr_offset : 0) >= num_records;
 *   structured !ADD_TID && STRIDE != 0 && IDXEN
 *              out of range when index >= num_records.
 * The stride plays no part in choosing raw: a raw access has index 0 and
 * num_records counts bytes (Table 45: num_records is in bytes for raw buffers,
 * in strides for structured ones).  Production code relies on it: AITER's
 * bf16 GEMMs on MI300 build raw descriptors with stride 4 and shrink the byte
 * num_records as the base advances, so that tail rows read 0 and their
 * stores are dropped.  LLVM (AMDGPUUsage, "Buffer Fat Pointer") asks its own
 * raw descriptors for stride 0, a compiler convention, not the hardware rule.
 * Cases the guide's table leaves out, modelled as the nearest row
 * (assumptions, docs/gcnsim.md): IDXEN with stride 0 or with ADD_TID is
 * structured (the index, lane id included, against num_records, Table 45
 * ties num_records' unit to IDXEN); SWIZZLE_EN is refused before this. */
enum { BUF_RAW, BUF_STRUCT, BUF_PRIVATE };
static inline int buf_kind(const bufdesc *b, int idxen)
{
    if (b->add_tid && !idxen)
        return BUF_PRIVATE;
    return idxen ? BUF_STRUCT : BUF_RAW;
}
static const char *const buf_kind_name[] = {"raw", "structured", "private"};

static __attribute__((noinline, cold)) int desc_fault(sim_x *x, int swizzle)
{
    if (!swizzle)
        sim_fault(x, "buffer resource operand is not an SGPR quad");
    else
        sim_fault(x, "swizzled buffer resource (V# word1 bit 31 set) is not simulated: the "
                  "swizzle equation (CDNA3/CDNA4 ISA 9.1.5.2) needs const_element_size, which "
                  "the gfx9 V# does not encode");
    return -1;
}

static inline __attribute__((always_inline)) int get_desc(sim_x *x, bufdesc *b)
{
    const sim_opnd *r = MOP(MF_SRSRC);
    if (r->kind != OK_S)
        return desc_fault(x, 0);
    uint32_t w0 = x->w->s[r->r], w1 = x->w->s[(r->r + 1) & 127], w2 = x->w->s[(r->r + 2) & 127],
             w3 = x->w->s[(r->r + 3) & 127];
    b->base = w0 | (uint64_t)(w1 & 0xffff) << 32;
    b->stride = (w1 >> 16) & 0x3fff;
    b->num_records = w2;
    b->swizzle = (int)(w1 >> 31);
    b->add_tid = (int)(w3 >> 23 & 1);
    /* ISA Table 45: with ADD_TID the non-format MUBUF accesses take an 18-bit
     * stride, DATA_FORMAT (word 3 [18:15]) as stride[17:14] (scratch buffers) */
    b->stride_u = b->stride | (b->add_tid ? ((w3 >> 15) & 15u) << 14 : 0);
    if (b->swizzle)
        return desc_fault(x, 1);
    return 0;
}

static uint32_t buf_soffset(sim_x *x)
{
    const sim_opnd *so = MOP(MF_SOFFSET);
    if (so->kind == OK_S) return x->w->s[so->r];
    if (so->kind == OK_C || so->kind == OK_IMM) return (uint32_t)so->c;
    return 0;
}

/* Lane l's index (lane id included) and offset (inst_offset included,
 * soffset not) of the current buffer instruction. */
static void buf_lane_io(sim_x *x, const bufdesc *b, unsigned l, uint32_t *idx, uint64_t *off)
{
    const sim_opnd *va = MOP(MF_VADDR);
    const gcn_mods *m = &I->mods;
    uint32_t vi = 0, vo = 0;
    if (va->kind == OK_V) {
        if (m->idxen) {
            vi = x->w->v[va->r][l];
            if (m->offen)
                vo = x->w->v[(unsigned)va->r + 1 < x->w->nvrows ? va->r + 1u : va->r][l];
        } else if (m->offen) {
            vo = x->w->v[va->r][l];
        }
    }
    *idx = vi + (b->add_tid ? l : 0);
    *off = (uint64_t)vo + (uint32_t)m->offset;
}

/* Lane l's element k (esz bytes at addr) passed the range check but is not
 * in simulated memory: a fault that names the rule that let it through, with
 * the V# decoded, so that a user can tell a descriptor that admits too much
 * (a kernel or launch bug) from a simulator limit. */
static void buf_fault(sim_x *x, const bufdesc *b, uint32_t soff, unsigned l, unsigned k,
                      unsigned esz, uint64_t addr, int typed)
{
    uint32_t idx;
    uint64_t off;
    buf_lane_io(x, b, l, &idx, &off);
    off += (uint64_t)esz * k;
    int kind = buf_kind(b, I->mods.idxen);
    uint32_t stride = typed ? b->stride : b->stride_u;
    char where[256], rule[200];
    sim_describe_addr(x->sim, addr, where, sizeof where);
    if (kind == BUF_RAW)
        snprintf(rule, sizeof rule, "offset %llu < num_records %u (bytes), so in range",
                 (unsigned long long)off, b->num_records);
    else if (kind == BUF_STRUCT)
        snprintf(rule, sizeof rule, "index %u < num_records %u (records of stride %u), so in "
                 "range; offset %llu is not checked", idx, b->num_records, stride,
                 (unsigned long long)off);
    else
        snprintf(rule, sizeof rule, "no range check (index %u = lane, offset %llu)", idx,
                 (unsigned long long)off);
    sim_fault(x, "memory fault: lane %u accesses %u bytes at 0x%llx%s\n  buffer range rule "
              "(CDNA3/CDNA4 ISA 9.1.5.1), %s buffer (idxen %d, offen %d, add_tid %d): %s\n"
              "  address = base 0x%llx + soffset %u + offset %llu + stride %u * index %u; V#: "
              "base 0x%llx stride %u num_records %u add_tid %d swizzle_en %d -- the descriptor "
              "admits bytes the allocation does not hold", l, esz, (unsigned long long)addr,
              where, buf_kind_name[kind], I->mods.idxen, I->mods.offen, b->add_tid, rule,
              (unsigned long long)b->base, soff, (unsigned long long)off, stride, idx,
              (unsigned long long)b->base, stride, b->num_records, b->add_tid, b->swizzle);
}

/* Per-lane addresses of a buffer access of nd elements of esz bytes (nd > 1
 * only for dwords): the device address of each active lane's first element,
 * the lanes whose element k is in range (inr[k]), and one host pointer for
 * the bounding box of the in-range bytes (per-lane lookups only when the box
 * is not inside one allocation).  Returns -1 after a memory fault. */
typedef struct buf_lanes {
    uint64_t addr[NL];
    uint64_t inr[4];
    uint64_t lo;
    uint8_t *h0;
    int perlane;
} buf_lanes;

static int buf_lanes_get(sim_x *x, const bufdesc *b, uint32_t soff, unsigned esz, unsigned nd,
                         buf_lanes *bl)
{
    const sim_opnd *va = MOP(MF_VADDR);
    const gcn_mods *m = &I->mods;
    const uint32_t *vi = NULL, *vo = NULL;
    if (va->kind == OK_V) {
        if (m->idxen) {
            vi = x->w->v[va->r];
            if (m->offen)
                vo = x->w->v[(unsigned)va->r + 1 < x->w->nvrows ? va->r + 1u : va->r];
        } else if (m->offen) {
            vo = x->w->v[va->r];
        }
    }
    uint64_t e = x->exec, lo = UINT64_MAX, hi = 0;
    uint32_t ioff = (uint32_t)m->offset;
    for (unsigned k = 0; k < 4; k++)
        bl->inr[k] = 0;
    bl->perlane = 0;
    bl->h0 = NULL;
    int kind = buf_kind(b, m->idxen);
    if (kind == BUF_RAW && nd == 1) {
        /* the common raw-buffer case (index 0: the stride drops out), as
         * branch-free lane loops */
        uint64_t base = b->base + soff, nr = b->num_records, in = 0;
        uint32_t voff[NL];
        if (vo)
            memcpy(voff, vo, sizeof voff);
        else
            memset(voff, 0, sizeof voff);
        for (unsigned l = 0; l < NL; l++) {
            uint64_t off = (uint64_t)voff[l] + ioff;
            bl->addr[l] = base + off;
            in |= (uint64_t)(off + esz <= nr) << l;
        }
        in &= e;
        bl->inr[0] = in;
        if (!in)
            return 0;
        for (unsigned l = 0; l < NL; l++) {
            uint64_t a = bl->addr[l];
            int on = (int)(in >> l & 1);
            lo = on && a < lo ? a : lo;
            hi = on && a + esz > hi ? a + esz : hi;
        }
    } else for (unsigned l = 0; l < NL; l++) {
        if (!(e >> l & 1))
            continue;
        uint32_t idx = (vi ? vi[l] : 0) + (b->add_tid ? l : 0);
        uint64_t off = (uint64_t)(vo ? vo[l] : 0) + ioff;
        uint64_t a = b->base + soff + off + (uint64_t)b->stride_u * idx;
        bl->addr[l] = a;
        unsigned nin = 0;
        if (kind == BUF_RAW) {
            /* each dword (or the sub-dword element) alone (9.1.5.1 note 4) */
            for (unsigned k = 0; k < nd; k++)
                if (off + (uint64_t)esz * (k + 1) <= b->num_records) {
                    bl->inr[k] |= 1ull << l;
                    nin = k + 1;
                }
        } else if (kind == BUF_PRIVATE || idx < b->num_records) {
            for (unsigned k = 0; k < nd; k++)
                bl->inr[k] |= 1ull << l;
            nin = nd;
        }
        if (nin) {
            lo = a < lo ? a : lo;
            hi = a + (uint64_t)esz * nin > hi ? a + (uint64_t)esz * nin : hi;
        }
    }
    if (lo >= hi)
        return 0;                         /* nothing in range */
    bl->lo = lo;
    bl->h0 = sim_mem(x->sim, lo, hi - lo);
    if (bl->h0)
        return 0;
    /* the box is not inside one allocation: every lane alone (faults name it) */
    for (unsigned k = 0; k < nd; k++)
        for (unsigned l = 0; l < NL; l++) {
            uint64_t a = bl->addr[l] + (uint64_t)esz * k;
            if ((bl->inr[k] >> l & 1) && !sim_mem(x->sim, a, esz)) {
                buf_fault(x, b, soff, l, k, esz, a, 0);
                return -1;
            }
        }
    bl->perlane = 1;
    return 0;
}

static inline uint8_t *bl_ptr(sim_x *x, const buf_lanes *bl, unsigned l, unsigned k, unsigned esz)
{
    uint64_t a = bl->addr[l] + (uint64_t)esz * k;
    if (!bl->perlane)
        return bl->h0 + (a - bl->lo);
    return sim_mem(x->sim, a, esz);
}

/* Fast path for raw buffers (no index, any stride): when the whole in-range
 * window [base + soffset, + num_records) lies in one allocation, every
 * in-range element does, and lane l's element k is at host + off + esz*k.
 * Returns the host pointer of base + soffset, or NULL (use buf_lanes_get). */
static uint8_t *buf_window(sim_x *x, const bufdesc *b, uint32_t soff)
{
    if (buf_kind(b, I->mods.idxen) != BUF_RAW || !b->num_records)
        return NULL;
    return sim_mem(x->sim, b->base + soff, b->num_records);
}

/* The dword offsets vo[l] + ioff of a raw buffer access are one contiguous
 * run, all of it inside the window of nr bytes (then the access is one
 * block copy). */
static inline __attribute__((always_inline)) int buf_contig(const uint32_t *vo, uint64_t ioff,
                                                            uint64_t nr)
{
    uint32_t v0 = vo[0];
    return v0 <= UINT32_MAX - 4 * NL && (uint64_t)v0 + ioff + 4 * NL <= nr && lanes_contig(vo, 4);
}

/* A wave's slot per instruction (its pc's dword, modulo 64): what the instruction's last
 * block access was (stream_prefetch) and the window sim_mem gave it (raw_offen_win below). */
typedef __typeof__(((sim_wave *)0)->pf[0]) pf_slot;

static inline pf_slot *insn_slot(sim_x *x)
{
    return &x->w->pf[(I->pc >> 2) & 63];
}

/* A block access of 256 bytes at host address p, with the instruction's slot e: when the
 * same instruction of this wave moved by a fixed step since its last access, ask the host to
 * fetch the block one step further (a loop's next iteration) into the cache.  Only the
 * host's cache is concerned, never the simulated machine. */
static inline __attribute__((always_inline)) void slot_prefetch(sim_x *x, pf_slot *e,
                                                                const uint8_t *p, int write)
{
    uint64_t pc = I->pc;
    uint32_t gen = x->w->pf_gen;
    if (e->pc == pc && e->gen == gen) {
        ptrdiff_t d = p - e->last;
        if (d != 0 && d > -(1 << 26) && d < (1 << 26)) {
            const uint8_t *q = p + d;
#pragma GCC unroll 4
            for (unsigned i = 0; i < NL * 4; i += 64) {
                if (write)
                    __builtin_prefetch(q + i, 1);
                else
                    __builtin_prefetch(q + i, 0);
            }
        }
    }
    e->pc = pc;
    e->last = p;
    e->gen = gen;
}

static inline void stream_prefetch(sim_x *x, const uint8_t *p, int write)
{
    slot_prefetch(x, insn_slot(x), p, write);
}

static inline const uint32_t *buf_voff(sim_x *x, uint32_t *zeros)
{
    const sim_opnd *va = MOP(MF_VADDR);
    if (I->mods.offen && va->kind == OK_V)
        return x->w->v[va->r];
    memset(zeros, 0, NL * 4);
    return zeros;
}

/* An LDS-DMA ticket: each active lane writes lsz bytes at M0 + inst_offset
 * + lane * lsz.  NULL (after a fault) when the last active lane's bytes lie
 * beyond the workgroup's LDS.  (The ticket is taken first: a full vmcnt
 * FIFO retires its oldest entry here, fault or not.) */
static sim_ticket *lds_dma_ticket(sim_x *x, unsigned lsz)
{
    sim_ticket *t = sim_tk_new(x, TK_LDS_DMA, row_counters(x));
    uint32_t lbase = x->w->s[SR_M0] + (uint32_t)I->mods.offset;
    t->lds_base = lbase;
    t->lds_len = lsz * NL;
    t->lane_bytes = (uint8_t)lsz;
    if (x->exec) {
        unsigned last = 63 - (unsigned)__builtin_clzll(x->exec);
        uint64_t end = (uint64_t)lbase + (uint64_t)lsz * (last + 1);
        if (!x->g || end > x->g->lds_size) {
            sim_fault(x, "LDS-DMA writes LDS [0x%x, 0x%llx) (M0 0x%x) beyond the workgroup's %u "
                      "bytes of LDS", lbase, (unsigned long long)end, x->w->s[SR_M0],
                      x->g ? x->g->lds_size : 0);
            return NULL;
        }
    }
    return t;
}

/* The host address of the window [base + soffset, + num_records) of the current instruction's
 * V# when it is a raw buffer (no swizzle, no ADD_TID, num_records not 0), the instruction is
 * `offen` without `idxen` and the window lies in one allocation (its num_records in *nr);
 * else NULL (the general paths decide, and fault where they must; nothing has been changed).
 * sim_mem's answer is kept in the instruction's slot e with the V# words and the soffset
 * that gave it (the allocations do not change while a wave runs): the same words and soffset
 * again give the same window. */
static inline __attribute__((always_inline)) uint8_t *raw_offen_win(sim_x *x, pf_slot *e,
                                                                   uint32_t *nr)
{
    const sim_opnd *r = MOP(MF_SRSRC);
    if (r->kind != OK_S || MOP(MF_VADDR)->kind != OK_V || !I->mods.offen || I->mods.idxen)
        return NULL;
    unsigned rr = r->r;
    if (rr > 124)
        return NULL;                /* (a quad that wraps: get_desc's reads) */
    const uint32_t *q = x->w->s + rr;
    uint32_t soff = buf_soffset(x), gen = x->w->pf_gen;
    if (e->wgen == gen && !memcmp(e->wq, q, sizeof e->wq) && e->wsoff == soff) {
        *nr = q[2];
        return e->win;              /* (the words passed the tests below when kept) */
    }
    uint32_t w1 = q[1], w3 = q[3];
    if ((w1 >> 31) | (w3 >> 23 & 1) || !q[2])
        return NULL;
    uint8_t *win = sim_mem(x->sim, (q[0] | (uint64_t)(w1 & 0xffff) << 32) + soff, q[2]);
    if (win) {
        memcpy(e->wq, q, sizeof e->wq);
        e->wsoff = soff;
        e->win = win;
        e->wgen = gen;
    }
    *nr = q[2];
    return win;
}

/* The payload of an LDS-DMA of the window path (buf_load) that is not one block in range:
 * one block reaching past num_records, or lane by lane. */
static __attribute__((noinline)) void dma_window_lanes(sim_x *x, sim_ticket *t, const uint8_t *win, const uint32_t *vo,
                             uint64_t nr, unsigned nd, unsigned lsz)
{
    uint8_t *dst = (uint8_t *)t->data;
    uint64_t e = x->exec, ioff = (uint32_t)I->mods.offset;
    if (nd == 1 && e == ~0ull && vo[0] <= UINT32_MAX - 4 * NL && !row_seq_diff(vo, vo[0], 4)) {
        /* one block reaching past num_records (a loop's prefetch past the end): the
         * lanes in range are a prefix, the rest read 0, as in the lane loop below */
        uint64_t a = (uint64_t)vo[0] + ioff;
        unsigned nin = a + 4 <= nr ? (unsigned)((nr - a) / 4) : 0;    /* < NL here */
        memcpy(dst, win + a, (size_t)nin * 4);
        memset(dst + (size_t)nin * 4, 0, (size_t)(NL - nin) * 4);
        return;
    }
    for (unsigned l = 0; l < NL; l++)
        for (unsigned k = 0; k < nd; k++) {
            uint64_t off = (uint64_t)vo[l] + ioff + 4 * k;
            uint32_t v = 0;
            if ((e >> l & 1) && off + 4 <= nr)
                memcpy(&v, win + off, 4);
            memcpy(dst + (size_t)l * lsz + 4 * k, &v, 4);
        }
}

/* buffer_load_dword ... offen lds of all lanes from a raw buffer's window (raw_offen_win) into
 * LDS inside the workgroup's: what buf_load's window path and dma_issue do, in the same
 * order (the VGPR offsets read after the ticket is taken: taking it may retire a load), with
 * the tests made once.  Returns 0, having changed nothing, when the access is not of that
 * form. */
static inline __attribute__((always_inline)) int dma_block(sim_x *x)
{
    sim_wg *g = x->g;
    if (!g)
        return 0;
    uint32_t lbase = x->w->s[SR_M0] + (uint32_t)I->mods.offset, nr;
    if ((uint64_t)lbase + 4 * NL > g->lds_size)
        return 0;
    if (x->exec != ~0ull || insn_counters(x) != TC_VM)
        return 0;                   /* (the ticket's counters below are TC_VM) */
    pf_slot *e = insn_slot(x);
    const uint8_t *win = raw_offen_win(x, e, &nr);
    if (!win)
        return 0;
    sim_ticket *t = sim_tk_take(x, TK_LDS_DMA, TC_VM);
    t->lds_base = lbase;
    t->lds_len = 4 * NL;
    t->lane_bytes = 4;
    const uint32_t *vo = x->w->v[MOP(MF_VADDR)->r];
    if (!buf_contig(vo, (uint32_t)I->mods.offset, nr)) {
        dma_window_lanes(x, t, win, vo, nr, 1, 4);
        dma_issue(x, t);
        return 1;
    }
    const uint8_t *src = win + vo[0] + (uint32_t)I->mods.offset;
    slot_prefetch(x, e, src, 0);
    sim_row_copy(t->data, src);
    /* dma_issue, its tests made (all lanes, 4 bytes each) */
    sim_lds_pend_nl(g, x->w, t, lbase);
    if (g->nwaves > 1)
        dma_note_nl(x, t, lbase);
    sim_tk_push_in(x, t, TC_VM);
    return 1;
}

/* buffer load of nd dwords (or an 8/16-bit element) per lane */
GCN_HOT static void buf_load(sim_x *x, unsigned nbytes, int sext, int d16)
{
    bufdesc b;
    if (get_desc(x, &b))
        return;
    uint32_t soff = buf_soffset(x);
    unsigned esz = nbytes < 4 ? nbytes : 4, nd = nbytes < 4 ? 1 : nbytes / 4;
    uint8_t *win = nbytes >= 4 ? buf_window(x, &b, soff) : NULL;
    if (win) {
        uint32_t zeros[NL];
        const uint32_t *vo = buf_voff(x, zeros);
        uint64_t e = x->exec, nr = b.num_records, ioff = (uint32_t)I->mods.offset;
        if (I->mods.lds) {
            unsigned lsz = nbytes;
            sim_ticket *t = lds_dma_ticket(x, lsz);
            if (!t)
                return;
            uint8_t *dst = (uint8_t *)t->data;
            if (nd == 1 && e == ~0ull && buf_contig(vo, ioff, nr)) {
                stream_prefetch(x, win + vo[0] + ioff, 0);
                memcpy(dst, win + vo[0] + ioff, NL * 4);      /* one block */
                dma_issue(x, t);
                return;
            }
            dma_window_lanes(x, t, win, vo, nr, nd, lsz);
            dma_issue(x, t);
            return;
        }
        const sim_opnd *d = I->d.kind == OK_V ? &I->d : MOP(MF_VDATA);
        if (nd == 1 && e == ~0ull && buf_contig(vo, ioff, nr)) {
            sim_ticket *t = vreg_ticket_nz(x, d, nd, row_counters(x));
            stream_prefetch(x, win + vo[0] + ioff, 0);
            memcpy(t->data, win + vo[0] + ioff, NL * 4);      /* one block, every lane */
            sim_tk_issue(x, t);
            return;
        }
        if (e == ~0ull && (nd == 2 || nd == 4)) {
            uint32_t mx = 0;
            for (unsigned l = 0; l < NL; l++)
                mx = vo[l] > mx ? vo[l] : mx;
            if ((uint64_t)mx + ioff + 4 * nd <= nr) {          /* every lane in range */
                sim_ticket *t = vreg_ticket_nz(x, d, nd, row_counters(x));
                lanes_to_rows(t->data, nd, win + ioff, vo);
                sim_tk_issue(x, t);
                return;
            }
        }
        sim_ticket *t = vreg_ticket(x, d, nd, row_counters(x));
        for (unsigned k = 0; k < nd; k++) {
            uint32_t *out = t->data + k * NL;
            for (unsigned l = 0; l < NL; l++) {
                uint64_t off = (uint64_t)vo[l] + ioff + 4 * k;
                if ((e >> l & 1) && off + 4 <= nr)
                    memcpy(&out[l], win + off, 4);
            }
        }
        sim_tk_issue(x, t);
        return;
    }
    buf_lanes bl;
    if (buf_lanes_get(x, &b, soff, esz, nd, &bl))
        return;
    if (I->mods.lds) {
        /* LDS-DMA: M0 + inst_offset + lane * size */
        unsigned lsz = nbytes < 4 ? 4 : nbytes;
        sim_ticket *t = lds_dma_ticket(x, lsz);
        if (!t)
            return;
        uint8_t *dst = (uint8_t *)t->data;
        memset(dst, 0, (size_t)lsz * NL);
        if (esz == 4 && !bl.perlane) {
            for (unsigned k = 0; k < nd; k++) {
                uint64_t in = bl.inr[k];
                for (unsigned l = 0; l < NL; l++)
                    if (in >> l & 1)
                        memcpy(dst + (size_t)l * lsz + 4 * k, bl.h0 + (bl.addr[l] + 4 * k - bl.lo), 4);
            }
        } else {
            for (unsigned k = 0; k < nd; k++)
                for (unsigned l = 0; l < NL; l++) {
                    if (!(bl.inr[k] >> l & 1))
                        continue;
                    uint32_t v = (uint32_t)rd_le(bl_ptr(x, &bl, l, k, esz), esz);
                    v = load_value(v, nbytes, sext, 0);
                    memcpy(dst + (size_t)l * lsz + 4 * k, &v, 4);
                }
        }
        dma_issue(x, t);
        return;
    }
    const sim_opnd *d = I->d.kind == OK_V ? &I->d : MOP(MF_VDATA);
    sim_ticket *t = vreg_ticket(x, d, nd, row_counters(x));
    t->wmask_mode = (uint8_t)d16;
    if (nbytes >= 4) {
        for (unsigned k = 0; k < nd; k++) {
            uint32_t *out = t->data + k * NL;
            uint64_t in = bl.inr[k];
            if (!bl.perlane) {
                for (unsigned l = 0; l < NL; l++)
                    if (in >> l & 1)
                        memcpy(&out[l], bl.h0 + (bl.addr[l] + 4 * k - bl.lo), 4);
            } else {
                for (unsigned l = 0; l < NL; l++)
                    if (in >> l & 1)
                        memcpy(&out[l], bl_ptr(x, &bl, l, k, 4), 4);
            }
        }
    } else {
        for (unsigned l = 0; l < NL; l++) {
            if (!(x->exec >> l & 1))
                continue;
            uint32_t v = 0;                 /* out of range: 0 */
            if (bl.inr[0] >> l & 1)
                v = (uint32_t)rd_le(bl_ptr(x, &bl, l, 0, esz), nbytes);
            t->data[l] = load_value(v, nbytes, sext, d16);
        }
    }
    sim_tk_issue(x, t);
}
BODY(BUFFER_LOAD_UBYTE) { buf_load(x, 1, 0, 0); }
BODY(BUFFER_LOAD_SBYTE) { buf_load(x, 1, 1, 0); }
BODY(BUFFER_LOAD_USHORT) { buf_load(x, 2, 0, 0); }
BODY(BUFFER_LOAD_SSHORT) { buf_load(x, 2, 1, 0); }
/* (a hot body: dma_block inline in its clones) */
HBODY(BUFFER_LOAD_DWORD) { if (!I->mods.lds || !dma_block(x)) buf_load(x, 4, 0, 0); }
BODY(BUFFER_LOAD_DWORDX2) { buf_load(x, 8, 0, 0); }
BODY(BUFFER_LOAD_DWORDX3) { buf_load(x, 12, 0, 0); }
BODY(BUFFER_LOAD_DWORDX4) { buf_load(x, 16, 0, 0); }
BODY(BUFFER_LOAD_UBYTE_D16) { buf_load(x, 1, 0, 1); }
BODY(BUFFER_LOAD_UBYTE_D16_HI) { buf_load(x, 1, 0, 2); }
BODY(BUFFER_LOAD_SBYTE_D16) { buf_load(x, 1, 1, 1); }
BODY(BUFFER_LOAD_SBYTE_D16_HI) { buf_load(x, 1, 1, 2); }
BODY(BUFFER_LOAD_SHORT_D16) { buf_load(x, 2, 0, 1); }
BODY(BUFFER_LOAD_SHORT_D16_HI) { buf_load(x, 2, 0, 2); }

/* buffer_store_dword ... offen of the coalesced block (buf_block) from a VGPR: what
 * buf_store's window path does for it, with the tests made once.  Returns 0, having changed
 * nothing, when the access is not of that form. */
static inline __attribute__((always_inline)) int store_block(sim_x *x)
{
    const sim_opnd *s = MOP(MF_VDATA);
    uint32_t nr;
    if (s->kind != OK_V || x->exec != ~0ull || insn_counters(x) != TC_VM)
        return 0;                   /* (the ticket's counters below are TC_VM) */
    pf_slot *e = insn_slot(x);
    uint8_t *win = raw_offen_win(x, e, &nr);
    if (!win)
        return 0;
    const uint32_t *vo = x->w->v[MOP(MF_VADDR)->r];
    if (!buf_contig(vo, (uint32_t)I->mods.offset, nr))
        return 0;
    uint8_t *dst = win + vo[0] + (uint32_t)I->mods.offset;
    slot_prefetch(x, e, dst, 1);
    sim_row_copy(dst, x->w->v[s->r]);
    sim_tk_push_in(x, sim_tk_take(x, TK_STORE, TC_VM), TC_VM);
    return 1;
}

GCN_HOT static void buf_store(sim_x *x, unsigned nbytes, int hi16)
{
    bufdesc b;
    if (get_desc(x, &b))
        return;
    uint32_t soff = buf_soffset(x);
    unsigned esz = nbytes < 4 ? nbytes : 4, nd = nbytes < 4 ? 1 : nbytes / 4;
    const sim_opnd *s = MOP(MF_VDATA);
    uint8_t *win = nbytes >= 4 && s->kind == OK_V ? buf_window(x, &b, soff) : NULL;
    if (win) {
        uint32_t zeros[NL];
        const uint32_t *vo = buf_voff(x, zeros);
        uint64_t e = x->exec, nr = b.num_records, ioff = (uint32_t)I->mods.offset;
        if (nd == 1 && e == ~0ull && buf_contig(vo, ioff, nr)) {
            stream_prefetch(x, win + vo[0] + ioff, 1);
            memcpy(win + vo[0] + ioff, x->w->v[s->r], NL * 4);    /* one block */
            sim_tk_issue(x, sim_tk_new(x, TK_STORE, row_counters(x)));
            return;
        }
        for (unsigned k = 0; k < nd; k++) {
            const uint32_t *sv = x->w->v[(unsigned)s->r + k < x->w->nvrows ? s->r + k : s->r];
            for (unsigned l = 0; l < NL; l++) {
                uint64_t off = (uint64_t)vo[l] + ioff + 4 * k;
                if ((e >> l & 1) && off + 4 <= nr)
                    memcpy(win + off, &sv[l], 4);
            }
        }
        sim_tk_issue(x, sim_tk_new(x, TK_STORE, row_counters(x)));
        return;
    }
    buf_lanes bl;
    if (buf_lanes_get(x, &b, soff, esz, nd, &bl))
        return;
    for (unsigned k = 0; k < nd; k++) {
        uint64_t in = bl.inr[k];
        if (!in)
            continue;
        if (nbytes >= 4 && s->kind == OK_V && !bl.perlane) {
            const uint32_t *sv = x->w->v[(unsigned)s->r + k < x->w->nvrows ? s->r + k : s->r];
            for (unsigned l = 0; l < NL; l++)
                if (in >> l & 1)
                    memcpy(bl.h0 + (bl.addr[l] + 4 * k - bl.lo), &sv[l], 4);
            continue;
        }
        for (unsigned l = 0; l < NL; l++) {
            if (!(in >> l & 1))
                continue;
            uint32_t v = rv32(x, s, l, k);
            if (hi16)
                v >>= 16;
            wr_le(bl_ptr(x, &bl, l, k, esz), v, esz);
        }
    }
    sim_ticket *t = sim_tk_new(x, TK_STORE, row_counters(x));
    sim_tk_issue(x, t);
}
BODY(BUFFER_STORE_BYTE) { buf_store(x, 1, 0); }
BODY(BUFFER_STORE_SHORT) { buf_store(x, 2, 0); }
BODY(BUFFER_STORE_BYTE_D16_HI) { buf_store(x, 1, 1); }
BODY(BUFFER_STORE_SHORT_D16_HI) { buf_store(x, 2, 1); }
/* (a hot body: store_block inline in its clones) */
HBODY(BUFFER_STORE_DWORD) { if (!store_block(x)) buf_store(x, 4, 0); }
BODY(BUFFER_STORE_DWORDX2) { buf_store(x, 8, 0); }
BODY(BUFFER_STORE_DWORDX3) { buf_store(x, 12, 0); }
BODY(BUFFER_STORE_DWORDX4) { buf_store(x, 16, 0); }

static void buf_atomic(sim_x *x, int op, unsigned size)
{
    bufdesc b;
    if (get_desc(x, &b))
        return;
    uint32_t soff = buf_soffset(x);
    buf_lanes bl;
    if (buf_lanes_get(x, &b, soff, size, 1, &bl))
        return;
    const sim_opnd *s = MOP(MF_VDATA);
    int rtn = glc_bit(x);
    int cmp = op == A_CMPSWAP;
    unsigned nd = size / 4;
    sim_ticket *r = rtn ? vreg_ticket(x, s, nd, row_counters(x)) : NULL;
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        uint64_t d0 = rv32(x, s, l, 0), d1 = 0;
        if (size == 8)
            d0 |= (uint64_t)rv32(x, s, l, 1) << 32;
        if (cmp) {
            d1 = rv32(x, s, l, nd);
            if (size == 8)
                d1 |= (uint64_t)rv32(x, s, l, nd + 1) << 32;
        }
        uint64_t old = 0;
        if (bl.inr[0] >> l & 1)
            old = atomic_apply(op, bl_ptr(x, &bl, l, 0, size), size, d0, d1);
        if (r) {
            r->data[l] = (uint32_t)old;
            if (size == 8)
                r->data[NL + l] = (uint32_t)(old >> 32);
        }
    }
    if (r)
        sim_tk_issue(x, r);
    else
        sim_tk_issue(x, sim_tk_new(x, TK_STORE, row_counters(x)));
}
#define BA(NAME, OP) BODY(BUFFER_ATOMIC_##NAME) { buf_atomic(x, OP, 4); } \
                     BODY(BUFFER_ATOMIC_##NAME##_X2) { buf_atomic(x, OP, 8); }
#define BAE(NAME) B(BUFFER_ATOMIC_##NAME), B(BUFFER_ATOMIC_##NAME##_X2)
BA(SWAP, A_SWAP) BA(CMPSWAP, A_CMPSWAP) BA(ADD, A_ADD) BA(SUB, A_SUB) BA(SMIN, A_SMIN)
BA(UMIN, A_UMIN) BA(SMAX, A_SMAX) BA(UMAX, A_UMAX) BA(AND, A_AND) BA(OR, A_OR) BA(XOR, A_XOR)
BA(INC, A_INC) BA(DEC, A_DEC)
BODY(BUFFER_ATOMIC_ADD_F32) { buf_atomic(x, A_FADD, 4); }
BODY(BUFFER_ATOMIC_PK_ADD_F16) { buf_atomic(x, A_PKADD_F16, 4); }
BODY(BUFFER_ATOMIC_PK_ADD_BF16) { buf_atomic(x, A_PKADD_BF16, 4); }
BODY(BUFFER_ATOMIC_ADD_F64) { buf_atomic(x, A_FADD, 8); }
BODY(BUFFER_ATOMIC_MIN_F64) { buf_atomic(x, A_FMIN, 8); }
BODY(BUFFER_ATOMIC_MAX_F64) { buf_atomic(x, A_FMAX, 8); }
/* cache maintenance: counted in vmcnt, no data */
static void vm_nop(sim_x *x) { sim_tk_issue(x, sim_tk_new(x, TK_STORE, row_counters(x))); }
BODY(BUFFER_WBL2) { vm_nop(x); }
BODY(BUFFER_INV) { vm_nop(x); }

/* ---- FLAT / GLOBAL / SCRATCH ------------------------------------------------------ */
enum { SP_GLOBAL, SP_LDS, SP_SCRATCH };

/* Per-lane address: global/flat 64-bit, scratch a private offset. */
static uint64_t flat_addr(sim_x *x, unsigned l)
{
    const sim_opnd *va = MOP(MF_VADDR), *sa = MOP(MF_SADDR);
    int64_t off = I->mods.offset;
    if (I->enc == GCN_FMT_SCRATCH) {
        uint32_t a = 0;
        if (sa->kind == OK_S) a = x->w->s[sa->r];
        else if (va->kind == OK_V) a = x->w->v[va->r][l];
        return (uint32_t)(a + (uint32_t)off);
    }
    if (sa->kind == OK_S)
        return rs64(x, sa) + (va->kind == OK_V ? x->w->v[va->r][l] : 0) + (uint64_t)off;
    if (va->kind == OK_V) {
        uint64_t lo = x->w->v[va->r][l];
        uint64_t hi = va->n >= 2 || I->enc != GCN_FMT_SCRATCH ?
                      x->w->v[(unsigned)va->r + 1 < x->w->nvrows ? va->r + 1u : va->r][l] : 0;
        return (lo | hi << 32) + (uint64_t)off;
    }
    return (uint64_t)off;
}

static uint8_t *scratch_ptr(sim_x *x, uint32_t off, unsigned n, unsigned l)
{
    sim_wave *w = x->w;
    if ((uint64_t)off + n > w->priv_size) {
        sim_fault(x, "scratch access out of range: lane %u accesses %u bytes at private offset 0x%x; "
                  "the kernel has %u bytes of scratch per work-item", l, n, off, w->priv_size);
        return NULL;
    }
    return w->priv + (size_t)l * w->priv_size + off;
}

static uint8_t *flat_ptr(sim_x *x, uint64_t a, unsigned n, unsigned l, int *space)
{
    if (I->enc == GCN_FMT_SCRATCH) {
        *space = SP_SCRATCH;
        return scratch_ptr(x, (uint32_t)a, n, l);
    }
    if (I->enc == GCN_FMT_FLAT) {
        if ((a >> 32) == (SIM_SHARED_BASE >> 32)) {
            *space = SP_LDS;
            return lds_ptr(x, (uint32_t)a, n, l);
        }
        if ((a >> 32) == (SIM_PRIVATE_BASE >> 32)) {
            *space = SP_SCRATCH;
            return scratch_ptr(x, (uint32_t)a, n, l);
        }
    }
    *space = SP_GLOBAL;
    return sim_gmem(x, a, n, l);
}

/* The fast path of FLAT and GLOBAL accesses (not SCRATCH): every lane's address into
 * addr[] (the same sum as flat_addr, in whole-row loops), and when the n bytes of every
 * active lane lie in one device allocation (the hull of the active lanes' ranges does),
 * the host address of the lowest into *h and that address into *lo.  Returns 0 then; -1
 * when the lanes need the per-lane path: no active lane, a range outside or across
 * allocations (whose faults the per-lane path reports, as ever), or odd operands.  An
 * allocation lies in the heap, below both apertures (SIM_HEAP_BASE + its size), so a
 * hull inside one holds no LDS or private address. */
GCN_HOT static int flat_hull(sim_x *x, unsigned n, uint64_t *addr, uint8_t **h, uint64_t *lo,
                             int *blk)
{
    const sim_opnd *va = MOP(MF_VADDR), *sa = MOP(MF_SADDR);
    uint64_t e = x->exec, off = (uint64_t)(int64_t)I->mods.offset;
    *blk = 0;
    if (I->enc == GCN_FMT_SCRATCH || !e)
        return -1;
    if (e == ~0ull && va->kind == OK_V && (sa->kind == OK_S || (unsigned)va->r + 1 < x->w->nvrows)) {
        /* the coalesced case straight from the register rows: every lane's low address
         * dword is lane 0's plus l * n with no carry out of it (lane 0's at most
         * 2^32 - 64n) and, for a VGPR pair, the high dwords are all lane 0's; then
         * addr[l] = addr[0] + l * n, the hull is [addr[0], addr[0] + 64n) -- what the
         * row loops below give, when addr[0] + 64n does not wrap (else they take it) --
         * and the caller needs no addr[] (one block) */
        const uint32_t *vl = x->w->v[va->r];
        uint32_t v0 = vl[0], d = 0;
        /* (lane 1 first: a gather's tells at once that the lanes are no block) */
        if (v0 <= UINT32_MAX - 64 * n && vl[1] == v0 + n) {
            for (unsigned l = 0; l < NL; l++)
                d |= vl[l] ^ (v0 + n * l);
            uint64_t a0;
            if (sa->kind == OK_S) {
                a0 = rs64(x, sa) + off + v0;
            } else {
                const uint32_t *vh = x->w->v[va->r + 1];
                uint32_t h0 = vh[0];
                for (unsigned l = 0; l < NL; l++)
                    d |= vh[l] ^ h0;
                a0 = ((uint64_t)v0 | (uint64_t)h0 << 32) + off;
            }
            if (!d && a0 + 64ull * n > a0 && a0 + 64ull * n <= SIM_SHARED_BASE) {
                uint8_t *p = sim_mem(x->sim, a0, 64ull * n);
                if (!p)
                    return -1;
                *h = p;
                *lo = a0;
                *blk = 1;
                return 0;
            }
        }
    }
    if (sa->kind == OK_S) {
        uint64_t base = rs64(x, sa) + off;
        if (va->kind == OK_V) {
            const uint32_t *v = x->w->v[va->r];
            for (unsigned l = 0; l < NL; l++)
                addr[l] = base + v[l];
        } else {
            for (unsigned l = 0; l < NL; l++)
                addr[l] = base;
        }
    } else if (va->kind == OK_V && (unsigned)va->r + 1 < x->w->nvrows) {
        const uint32_t *vl = x->w->v[va->r], *vh = x->w->v[va->r + 1];
        for (unsigned l = 0; l < NL; l++)
            addr[l] = ((uint64_t)vl[l] | (uint64_t)vh[l] << 32) + off;
    } else {
        return -1;
    }
    uint64_t mn = UINT64_MAX, mx = 0, diff = 1;
    if (e == ~0ull && addr[1] == addr[0] + n) {
        /* the hull, and whether every lane's address is the first one's plus l * n (one
         * block), in one pass; lane 1 tells a gather at once (below) */
        uint64_t a0 = addr[0];
        diff = 0;
        for (unsigned l = 0; l < NL; l++) {
            mn = addr[l] < mn ? addr[l] : mn;
            mx = addr[l] > mx ? addr[l] : mx;
            diff |= addr[l] ^ (a0 + (uint64_t)n * l);
        }
    } else if (e == ~0ull) {
        for (unsigned l = 0; l < NL; l++) {
            mn = addr[l] < mn ? addr[l] : mn;
            mx = addr[l] > mx ? addr[l] : mx;
        }
    } else {
        for (unsigned l = 0; l < NL; l++) {
            uint64_t m = 0 - (e >> l & 1), a = addr[l];
            mn = (a | ~m) < mn ? (a | ~m) : mn;
            mx = (a & m) > mx ? (a & m) : mx;
        }
    }
    if (mx + n < mx || mx + n > SIM_SHARED_BASE)
        return -1;
    uint8_t *p = sim_mem(x->sim, mn, mx + n - mn);
    if (!p)
        return -1;
    *h = p;
    *lo = mn;
    *blk = e == ~0ull && diff == 0;
    return 0;
}

static void flat_load_lds(sim_x *x, unsigned nbytes, int sext)
{
    /* global_load_lds_*: LDS-DMA to M0 + inst_offset + lane * size */
    unsigned esz = nbytes < 4 ? 4 : nbytes;
    sim_ticket *t = sim_tk_new(x, TK_LDS_DMA, row_counters(x));
    uint32_t lbase = x->w->s[SR_M0] + (uint32_t)I->mods.offset;
    t->lds_base = lbase;
    t->lds_len = esz * NL;
    t->lane_bytes = (uint8_t)esz;
    uint8_t *dst = (uint8_t *)t->data;
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        if (!x->g || (uint64_t)lbase + (uint64_t)esz * (l + 1) > x->g->lds_size) {
            sim_fault(x, "LDS-DMA writes LDS at 0x%x (M0 0x%x, lane %u) beyond the workgroup's "
                      "%u bytes of LDS", lbase + l * esz, x->w->s[SR_M0], l, x->g ? x->g->lds_size : 0);
            return;
        }
        int sp;
        uint8_t *p = flat_ptr(x, flat_addr(x, l), nbytes, l, &sp);
        if (!p)
            return;
        uint32_t v[4] = {0, 0, 0, 0};
        memcpy(v, p, nbytes);
        if (nbytes < 4 && sext)
            v[0] = nbytes == 1 ? (uint32_t)(int32_t)(int8_t)v[0] : (uint32_t)(int32_t)(int16_t)v[0];
        memcpy(dst + (size_t)l * esz, v, esz);
    }
    dma_issue(x, t);
}

/* A gathered load (every lane, 8 or 16 bytes each, not one block: rows of a matrix):
 * lanes_to_rows with lane l's bytes at h + (addr[l] - lo), inside the hull flat_hull
 * checked (rows[k * NL + l] = dword k of lane l; nd 2 or 4). */
GCN_HOT static void gather_rows(uint32_t *rows, unsigned nd, const uint8_t *h,
                                const uint64_t *addr, uint64_t lo)
{
    rows_from_lanes(rows, nd, h - lo, NULL, addr);
}

/* The host-cache prefetch of a gathered load (stream_prefetch's for blocks): when this
 * instruction of this wave moved its lowest address by a small step d since its last
 * access (a loop walking the rows), every lane's next cache line in that direction (or
 * its address d further, for a step of a line or more) is fetched for the next
 * iterations, when that line moved for the lowest lane.  Only the host's cache is
 * concerned, never the simulated machine. */
static inline void gather_prefetch(sim_x *x, const uint8_t *h, const uint64_t *addr,
                                   uint64_t lo)
{
    sim_wave *w = x->w;
    unsigned k = (unsigned)(I->pc >> 2) & 63;
    if (w->pf[k].pc == I->pc && w->pf[k].gen == w->pf_gen) {
        ptrdiff_t d = h - w->pf[k].last;
        if (d != 0 && d > -(1 << 20) && d < (1 << 20)) {
            ptrdiff_t ahead = d > 0 ? (d < 64 ? 64 : d) : (d > -64 ? -64 : d);
            const uint8_t *b = h - lo + ahead;
            /* only when the lowest lane's line ahead changed since the last access: with a
             * step under a line the lanes (rows walked alike) would fetch the same lines
             * again, four times for a 16-byte step */
            if (((uintptr_t)(h + ahead) ^ (uintptr_t)(w->pf[k].last + ahead)) >> 6)
                for (unsigned l = 0; l < NL; l++)
                    __builtin_prefetch(b + addr[l], 0);
        }
    }
    w->pf[k].pc = I->pc;
    w->pf[k].last = h;
    w->pf[k].gen = w->pf_gen;
}

static void flat_load(sim_x *x, unsigned nbytes, int sext, int d16)
{
    if (I->mods.lds) {
        flat_load_lds(x, nbytes, sext);
        return;
    }
    unsigned dn = nbytes <= 4 ? 1 : nbytes / 4;
    uint64_t addr[NL], lo;
    uint8_t *h;
    int blk;
    if (nbytes >= 4 && !flat_hull(x, nbytes, addr, &h, &lo, &blk)) {
        uint64_t e = x->exec;
        /* (blk from flat_hull: a gather is not one block; gather_rows takes the
         * lanes' 64-bit addresses, so no offset limit) */
        if (!blk && e == ~0ull && (dn == 2 || dn == 4)) {
            /* all lanes, 8 or 16 bytes each, not one block (a gather: rows of a matrix):
             * straight from the lanes' addresses, four lanes at a time through the
             * transpose of the buffer loads for 16 bytes */
            gather_prefetch(x, h, addr, lo);
            sim_ticket *t = vreg_ticket_nz(x, &I->d, dn, row_counters(x));
            gather_rows(t->data, dn, h, addr, lo);
            if (I->enc == GCN_FMT_FLAT) {
                t->ooo = 1;
                t->need = TC_VM;
                sim_lds_check_done(x);
            }
            sim_tk_issue(x, t);
            return;
        }
        sim_ticket *t = blk ? vreg_ticket_nz(x, &I->d, dn, row_counters(x))
                            : vreg_ticket(x, &I->d, dn, row_counters(x));
        if (blk && dn == 1) {
            memcpy(t->data, h, NL * 4);                         /* one block */
        } else if (blk) {
            for (unsigned l = 0; l < NL; l++)
                for (unsigned k = 0; k < dn; k++)
                    memcpy(&t->data[k * NL + l], h + (size_t)nbytes * l + 4 * k, 4);
        } else {
            for (unsigned l = 0; l < NL; l++)
                if (e >> l & 1)
                    for (unsigned k = 0; k < dn; k++)
                        memcpy(&t->data[k * NL + l], h + (addr[l] - lo) + 4 * k, 4);
        }
        if (I->enc == GCN_FMT_FLAT) {
            t->ooo = 1;
            t->need = TC_VM;
            sim_lds_check_done(x);
        }
        sim_tk_issue(x, t);
        return;
    }
    sim_ticket *t = vreg_ticket(x, &I->d, dn, row_counters(x));
    t->wmask_mode = (uint8_t)d16;
    int any_lds = 0;
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        int sp;
        uint64_t a = flat_addr(x, l);
        uint8_t *p = flat_ptr(x, a, nbytes, l, &sp);
        if (!p)
            return;
        if (sp == SP_LDS) {
            any_lds = 1;
            sim_lds_check_read(x, (uint32_t)a, nbytes, l);
            sim_lds_rcheck(x, (uint32_t)a, nbytes, l);
        }
        uint32_t v = 0;
        if (nbytes >= 4) {
            for (unsigned k = 0; k < dn; k++)
                memcpy(&t->data[k * NL + l], p + 4 * k, 4);
            continue;
        }
        v = (uint32_t)rd_le(p, nbytes);
        t->data[l] = load_value(v, nbytes, sext, d16);
    }
    if (I->enc == GCN_FMT_FLAT) {
        t->ooo = 1;
        t->need = any_lds ? (TC_VM | TC_LGKM) : TC_VM;
        sim_lds_check_done(x);
    }
    sim_tk_issue(x, t);
}
static void flat_store(sim_x *x, unsigned nbytes, int hi16)
{
    const sim_opnd *s = MOP(MF_VDATA);
    uint64_t addr[NL], lo;
    uint8_t *h;
    int blk;
    if (nbytes >= 4 && s->kind == OK_V && (unsigned)s->r + nbytes / 4 <= x->w->nvrows &&
        !flat_hull(x, nbytes, addr, &h, &lo, &blk)) {
        uint64_t e = x->exec;
        unsigned dn = nbytes / 4;
        if (blk && dn == 1) {
            memcpy(h, x->w->v[s->r], NL * 4);                  /* one block */
        } else if (dn == 1 && e == ~0ull) {
            /* every lane a dword of its own address (rows of a matrix), in lane order */
            const uint32_t *v = x->w->v[s->r];
            uint8_t *b = h - lo;
            for (unsigned l = 0; l < NL; l++)
                memcpy(b + addr[l], &v[l], 4);
        } else {
            /* lane order, as the per-lane path: the last lane writing a byte wins */
            for (unsigned l = 0; l < NL; l++)
                if (e >> l & 1)
                    for (unsigned k = 0; k < dn; k++)
                        memcpy(h + (blk ? (uint64_t)nbytes * l : addr[l] - lo) + 4 * k,
                               &x->w->v[s->r + k][l], 4);
        }
        sim_ticket *t = sim_tk_new(x, TK_STORE, row_counters(x));
        if (I->enc == GCN_FMT_FLAT)
            t->ooo = 1;
        sim_tk_issue(x, t);
        return;
    }
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        int sp;
        uint64_t a = flat_addr(x, l);
        uint8_t *p = flat_ptr(x, a, nbytes, l, &sp);
        if (!p)
            return;
        store_lane(x, s, l, p, nbytes, hi16);
    }
    sim_ticket *t = sim_tk_new(x, TK_STORE, row_counters(x));
    if (I->enc == GCN_FMT_FLAT)
        t->ooo = 1;
    sim_tk_issue(x, t);
}
static void flat_atomic(sim_x *x, int op, unsigned size)
{
    const sim_opnd *s = MOP(MF_VDATA);
    int rtn = glc_bit(x);
    int cmp = op == A_CMPSWAP;
    unsigned nd = size / 4;
    sim_ticket *r = rtn && I->d.kind == OK_V ? vreg_ticket(x, &I->d, nd, row_counters(x)) : NULL;
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        int sp;
        uint64_t a = flat_addr(x, l);
        uint8_t *p = flat_ptr(x, a, size, l, &sp);
        if (!p)
            return;
        if (sp == SP_LDS)           /* an LDS atomic through FLAT (fifo.c race rules) */
            sim_lds_amark(x, (uint32_t)a, size, l);
        uint64_t d0 = rv32(x, s, l, 0), d1 = 0;
        if (size == 8)
            d0 |= (uint64_t)rv32(x, s, l, 1) << 32;
        if (cmp) {
            d1 = rv32(x, s, l, nd);
            if (size == 8)
                d1 |= (uint64_t)rv32(x, s, l, nd + 1) << 32;
        }
        uint64_t old = atomic_apply(op, p, size, d0, d1);
        if (r) {
            r->data[l] = (uint32_t)old;
            if (size == 8)
                r->data[NL + l] = (uint32_t)(old >> 32);
        }
    }
    if (x->race_lanes)
        sim_lds_check_done(x);
    sim_ticket *t = r ? r : sim_tk_new(x, TK_STORE, row_counters(x));
    if (I->enc == GCN_FMT_FLAT) {
        t->ooo = 1;
        t->need = TC_VM;
    }
    sim_tk_issue(x, t);
}

#define FL(P) \
    BODY(P##_LOAD_UBYTE) { flat_load(x, 1, 0, 0); } BODY(P##_LOAD_SBYTE) { flat_load(x, 1, 1, 0); } \
    BODY(P##_LOAD_USHORT) { flat_load(x, 2, 0, 0); } BODY(P##_LOAD_SSHORT) { flat_load(x, 2, 1, 0); } \
    BODY(P##_LOAD_DWORD) { flat_load(x, 4, 0, 0); } BODY(P##_LOAD_DWORDX2) { flat_load(x, 8, 0, 0); } \
    BODY(P##_LOAD_DWORDX3) { flat_load(x, 12, 0, 0); } BODY(P##_LOAD_DWORDX4) { flat_load(x, 16, 0, 0); } \
    BODY(P##_LOAD_UBYTE_D16) { flat_load(x, 1, 0, 1); } BODY(P##_LOAD_UBYTE_D16_HI) { flat_load(x, 1, 0, 2); } \
    BODY(P##_LOAD_SBYTE_D16) { flat_load(x, 1, 1, 1); } BODY(P##_LOAD_SBYTE_D16_HI) { flat_load(x, 1, 1, 2); } \
    BODY(P##_LOAD_SHORT_D16) { flat_load(x, 2, 0, 1); } BODY(P##_LOAD_SHORT_D16_HI) { flat_load(x, 2, 0, 2); } \
    BODY(P##_STORE_BYTE) { flat_store(x, 1, 0); } BODY(P##_STORE_SHORT) { flat_store(x, 2, 0); } \
    BODY(P##_STORE_BYTE_D16_HI) { flat_store(x, 1, 1); } BODY(P##_STORE_SHORT_D16_HI) { flat_store(x, 2, 1); } \
    BODY(P##_STORE_DWORD) { flat_store(x, 4, 0); } BODY(P##_STORE_DWORDX2) { flat_store(x, 8, 0); } \
    BODY(P##_STORE_DWORDX3) { flat_store(x, 12, 0); } BODY(P##_STORE_DWORDX4) { flat_store(x, 16, 0); }
#define FLE(P) B(P##_LOAD_UBYTE), B(P##_LOAD_SBYTE), B(P##_LOAD_USHORT), B(P##_LOAD_SSHORT), \
    B(P##_LOAD_DWORD), B(P##_LOAD_DWORDX2), B(P##_LOAD_DWORDX3), B(P##_LOAD_DWORDX4), \
    B(P##_LOAD_UBYTE_D16), B(P##_LOAD_UBYTE_D16_HI), B(P##_LOAD_SBYTE_D16), B(P##_LOAD_SBYTE_D16_HI), \
    B(P##_LOAD_SHORT_D16), B(P##_LOAD_SHORT_D16_HI), B(P##_STORE_BYTE), B(P##_STORE_SHORT), \
    B(P##_STORE_BYTE_D16_HI), B(P##_STORE_SHORT_D16_HI), B(P##_STORE_DWORD), B(P##_STORE_DWORDX2), \
    B(P##_STORE_DWORDX3), B(P##_STORE_DWORDX4)
FL(FLAT)
FL(GLOBAL)
FL(SCRATCH)
BODY(GLOBAL_LOAD_LDS_UBYTE) { flat_load_lds(x, 1, 0); }
BODY(GLOBAL_LOAD_LDS_SBYTE) { flat_load_lds(x, 1, 1); }
BODY(GLOBAL_LOAD_LDS_USHORT) { flat_load_lds(x, 2, 0); }
BODY(GLOBAL_LOAD_LDS_SSHORT) { flat_load_lds(x, 2, 1); }
BODY(GLOBAL_LOAD_LDS_DWORD) { flat_load_lds(x, 4, 0); }
BODY(GLOBAL_LOAD_LDS_DWORDX3) { flat_load_lds(x, 12, 0); }
BODY(GLOBAL_LOAD_LDS_DWORDX4) { flat_load_lds(x, 16, 0); }
BODY(SCRATCH_LOAD_LDS_UBYTE) { flat_load_lds(x, 1, 0); }
BODY(SCRATCH_LOAD_LDS_SBYTE) { flat_load_lds(x, 1, 1); }
BODY(SCRATCH_LOAD_LDS_USHORT) { flat_load_lds(x, 2, 0); }
BODY(SCRATCH_LOAD_LDS_SSHORT) { flat_load_lds(x, 2, 1); }
BODY(SCRATCH_LOAD_LDS_DWORD) { flat_load_lds(x, 4, 0); }

#define FA(P, NAME, OP) BODY(P##_ATOMIC_##NAME) { flat_atomic(x, OP, 4); } \
                        BODY(P##_ATOMIC_##NAME##_X2) { flat_atomic(x, OP, 8); }
#define FAS(P) FA(P, SWAP, A_SWAP) FA(P, CMPSWAP, A_CMPSWAP) FA(P, ADD, A_ADD) FA(P, SUB, A_SUB) \
    FA(P, SMIN, A_SMIN) FA(P, UMIN, A_UMIN) FA(P, SMAX, A_SMAX) FA(P, UMAX, A_UMAX) FA(P, AND, A_AND) \
    FA(P, OR, A_OR) FA(P, XOR, A_XOR) FA(P, INC, A_INC) FA(P, DEC, A_DEC) \
    BODY(P##_ATOMIC_ADD_F32) { flat_atomic(x, A_FADD, 4); } \
    BODY(P##_ATOMIC_PK_ADD_F16) { flat_atomic(x, A_PKADD_F16, 4); } \
    BODY(P##_ATOMIC_PK_ADD_BF16) { flat_atomic(x, A_PKADD_BF16, 4); } \
    BODY(P##_ATOMIC_ADD_F64) { flat_atomic(x, A_FADD, 8); } \
    BODY(P##_ATOMIC_MIN_F64) { flat_atomic(x, A_FMIN, 8); } \
    BODY(P##_ATOMIC_MAX_F64) { flat_atomic(x, A_FMAX, 8); }
#define FAE1(P, NAME) B(P##_ATOMIC_##NAME), B(P##_ATOMIC_##NAME##_X2)
#define FAE(P) FAE1(P, SWAP), FAE1(P, CMPSWAP), FAE1(P, ADD), FAE1(P, SUB), FAE1(P, SMIN), \
    FAE1(P, UMIN), FAE1(P, SMAX), FAE1(P, UMAX), FAE1(P, AND), FAE1(P, OR), FAE1(P, XOR), \
    FAE1(P, INC), FAE1(P, DEC), B(P##_ATOMIC_ADD_F32), B(P##_ATOMIC_PK_ADD_F16), \
    B(P##_ATOMIC_PK_ADD_BF16), B(P##_ATOMIC_ADD_F64), B(P##_ATOMIC_MIN_F64), B(P##_ATOMIC_MAX_F64)
FAS(FLAT)
FAS(GLOBAL)

/* ---- typed buffer formats (buffer_*_format_*, tbuffer_*) ----------------------------- */
/* CDNA4 ISA 9.1.4 "Buffer Data" (Table 43): MTBUF takes DFMT/NFMT from the
 * instruction and uses the identity DST_SEL (X000, XY00, XYZ0, XYZW by the
 * format's component count); MUBUF *_format take V# word 3 NUM_FORMAT[14:12],
 * DATA_FORMAT[18:15] and DST_SEL_X/Y/Z/W [2:0] [5:3] [8:6] [11:9] (0 -> 0,
 * 1 -> 1, 4..7 -> x..w; Table 48).  A V# DATA_FORMAT of INVALID marks an
 * unbound resource: loads return 0, stores are dropped (9.1.4 note, 9.1.8).
 * For the resource DST_SEL a selected component the format does not store
 * reads 0 (x, y, z) or 1 (w) -- modelling assumption (texture-unit
 * convention; the guide does not say).  Range check (9.1.5.1), all or
 * nothing for format instructions: private (ADD_TID && !IDXEN) never out of
 * range; structured (IDXEN) index >= num_records; raw offset >= num_records.
 * Out of range: every component reads 0 except DST_SEL 1 (-> 1); stores are
 * dropped.  Stores write the components the instruction supplies.  d16
 * (d16 == 1): 16-bit components packed two per VGPR, x low; d16_hi_x
 * (d16 == 2): the high half of the VGPR.  Conversions: buffmt.c. */
static int buf_format_of(sim_x *x, sim_bfmt *f, uint32_t *w3, int *unbound)
{
    const sim_opnd *r = MOP(MF_SRSRC);
    int mt = I->enc == GCN_FMT_MTBUF;
    *w3 = r->kind == OK_S ? x->w->s[(r->r + 3) & 127] : 0;
    unsigned dfmt = mt ? I->mods.dfmt : (*w3 >> 15) & 15;
    unsigned nfmt = mt ? I->mods.nfmt : (*w3 >> 12) & 7;
    *unbound = !mt && dfmt == 0;
    if (*unbound)
        return 0;
    char msg[160];
    if (sim_bfmt_get(dfmt, nfmt, f, msg, sizeof msg)) {
        sim_fault(x, "%s (%s)", msg, mt ? "the instruction's format" : "V# word 3 of the resource");
        return -1;
    }
    return 0;
}

/* lane l's element address; 1 when it is in range (buf_kind: all or nothing,
 * 9.1.5.1 note 3: a raw element is in when its start offset < num_records) */
static int buf_fmt_addr(sim_x *x, const bufdesc *b, uint32_t soff, unsigned l, uint64_t *addr)
{
    uint32_t idx;
    uint64_t off;
    buf_lane_io(x, b, l, &idx, &off);
    *addr = b->base + soff + off + (uint64_t)b->stride * idx;
    switch (buf_kind(b, I->mods.idxen)) {
    case BUF_PRIVATE: return 1;
    case BUF_STRUCT: return idx < b->num_records;
    default: return off < b->num_records;
    }
}

/* the host bytes of a typed element the range check let through, or NULL after a fault */
static uint8_t *buf_fmt_mem(sim_x *x, const bufdesc *b, uint32_t soff, unsigned l, uint64_t a,
                            unsigned n)
{
    uint8_t *p = sim_mem(x->sim, a, n);
    if (!p)
        buf_fault(x, b, soff, l, 0, n, a, 1);
    return p;
}

static void buf_fmt_load(sim_x *x, unsigned nc, int d16)
{
    bufdesc b;
    sim_bfmt f;
    uint32_t w3;
    int unbound;
    if (get_desc(x, &b) || buf_format_of(x, &f, &w3, &unbound))
        return;
    uint32_t soff = buf_soffset(x), one = unbound ? 0 : sim_bfmt_one(&f, d16 != 0);
    unsigned sel[4];
    for (unsigned c = 0; c < 4; c++)
        sel[c] = I->enc == GCN_FMT_MTBUF ? (c < f.nc ? 4 + c : 0) : (w3 >> (3 * c)) & 7;
    int lds = I->mods.lds;
    sim_ticket *t;
    if (lds) {
        /* LDS-DMA (buffer_load_format_x ... lds): x as a dword at M0 + inst_offset + 4 * lane */
        t = lds_dma_ticket(x, 4);
        if (!t)
            return;
        memset(t->data, 0, 4 * NL);
    } else {
        const sim_opnd *d = I->d.kind == OK_V ? &I->d : MOP(MF_VDATA);
        unsigned dn = d16 ? (nc + 1) / 2 : nc;
        t = vreg_ticket(x, d, dn, row_counters(x));
        t->wmask_mode = (uint8_t)(d16 == 2 ? 2 : d16 && nc == 1 ? 1 : d16 && nc == 3 ? 3 : 0);
    }
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->exec >> l & 1))
            continue;
        uint64_t a;
        uint32_t rgba[4] = {0, 0, 0, 0}, out[4];
        if (!unbound && buf_fmt_addr(x, &b, soff, l, &a)) {
            const uint8_t *p = buf_fmt_mem(x, &b, soff, l, a, f.bytes);
            if (!p)
                return;
            sim_bfmt_load(&f, p, d16 != 0, rgba);
        }
        for (unsigned c = 0; c < 4; c++)
            out[c] = sel[c] >= 4 ? rgba[sel[c] - 4] : sel[c] == 1 ? one : 0;
        if (lds)
            t->data[l] = out[0];
        else if (d16 == 2)
            t->data[l] = out[0] << 16;
        else if (d16)
            for (unsigned c = 0; c < nc; c += 2)
                t->data[(c / 2) * NL + l] = out[c] | (c + 1 < nc ? out[c + 1] << 16 : 0);
        else
            for (unsigned c = 0; c < nc; c++)
                t->data[c * NL + l] = out[c];
    }
    if (lds)
        dma_issue(x, t);
    else
        sim_tk_issue(x, t);
}

static void buf_fmt_store(sim_x *x, unsigned nc, int d16)
{
    bufdesc b;
    sim_bfmt f;
    uint32_t w3;
    int unbound;
    if (get_desc(x, &b) || buf_format_of(x, &f, &w3, &unbound))
        return;
    uint32_t soff = buf_soffset(x);
    const sim_opnd *s = MOP(MF_VDATA);
    for (unsigned l = 0; l < NL && !unbound; l++) {
        if (!(x->exec >> l & 1))
            continue;
        uint64_t a;
        if (!buf_fmt_addr(x, &b, soff, l, &a))
            continue;                           /* out of range: dropped */
        uint8_t *p = buf_fmt_mem(x, &b, soff, l, a, f.bytes);
        if (!p)
            return;
        uint32_t in[4];
        for (unsigned c = 0; c < nc; c++) {
            if (d16 == 2)
                in[c] = rv32(x, s, l, 0) >> 16;
            else if (d16)
                in[c] = (rv32(x, s, l, c / 2) >> (16 * (c & 1))) & 0xffff;
            else
                in[c] = rv32(x, s, l, c);
        }
        sim_bfmt_store(&f, in, nc, d16 != 0, p);
    }
    sim_tk_issue(x, sim_tk_new(x, TK_STORE, row_counters(x)));
}
#define BFMT(P, S, N) \
    BODY(P##_LOAD_FORMAT_##S) { buf_fmt_load(x, N, 0); } \
    BODY(P##_STORE_FORMAT_##S) { buf_fmt_store(x, N, 0); } \
    BODY(P##_LOAD_FORMAT_D16_##S) { buf_fmt_load(x, N, 1); } \
    BODY(P##_STORE_FORMAT_D16_##S) { buf_fmt_store(x, N, 1); }
#define BFMTE(P, S) B(P##_LOAD_FORMAT_##S), B(P##_STORE_FORMAT_##S), B(P##_LOAD_FORMAT_D16_##S), \
    B(P##_STORE_FORMAT_D16_##S)
BFMT(BUFFER, X, 1) BFMT(BUFFER, XY, 2) BFMT(BUFFER, XYZ, 3) BFMT(BUFFER, XYZW, 4)
BFMT(TBUFFER, X, 1) BFMT(TBUFFER, XY, 2) BFMT(TBUFFER, XYZ, 3) BFMT(TBUFFER, XYZW, 4)
BODY(BUFFER_LOAD_FORMAT_D16_HI_X) { buf_fmt_load(x, 1, 2); }
BODY(BUFFER_STORE_FORMAT_D16_HI_X) { buf_fmt_store(x, 1, 2); }

const sim_body_ent sim_bodies_mem[] = {
    B(S_LOAD_DWORD), B(S_LOAD_DWORDX2), B(S_LOAD_DWORDX4), B(S_LOAD_DWORDX8), B(S_LOAD_DWORDX16),
    B(S_BUFFER_LOAD_DWORD), B(S_BUFFER_LOAD_DWORDX2), B(S_BUFFER_LOAD_DWORDX4),
    B(S_BUFFER_LOAD_DWORDX8), B(S_BUFFER_LOAD_DWORDX16), B(S_STORE_DWORD), B(S_STORE_DWORDX2),
    B(S_STORE_DWORDX4), B(S_BUFFER_STORE_DWORD), B(S_BUFFER_STORE_DWORDX2),
    B(S_BUFFER_STORE_DWORDX4), B(S_MEMTIME), B(S_MEMREALTIME), B(S_DCACHE_INV), B(S_DCACHE_WB),
    B(S_DCACHE_INV_VOL), B(S_DCACHE_WB_VOL), B(S_DCACHE_DISCARD), B(S_DCACHE_DISCARD_X2),
    SAE(SWAP), SAE(CMPSWAP), SAE(ADD), SAE(SUB), SAE(SMIN), SAE(UMIN), SAE(SMAX), SAE(UMAX),
    SAE(AND), SAE(OR), SAE(XOR), SAE(INC), SAE(DEC), B(S_ATC_PROBE), B(S_ATC_PROBE_BUFFER),
    B(DS_READ_B32), B(DS_READ_B64), B(DS_READ_B96), B(DS_READ_B128), B(DS_READ_U8), B(DS_READ_I8),
    B(DS_READ_B64_TR_B4), B(DS_READ_B96_TR_B6), B(DS_READ_B64_TR_B8), B(DS_READ_B64_TR_B16),
    B(DS_READ_U16), B(DS_READ_I16), B(DS_READ_U8_D16), B(DS_READ_U8_D16_HI), B(DS_READ_I8_D16),
    B(DS_READ_I8_D16_HI), B(DS_READ_U16_D16), B(DS_READ_U16_D16_HI), B(DS_READ2_B32),
    B(DS_READ2_B64), B(DS_READ2ST64_B32), B(DS_READ2ST64_B64), B(DS_WRITE_B32), B(DS_WRITE_B64),
    B(DS_WRITE_B96), B(DS_WRITE_B128), B(DS_WRITE_B8), B(DS_WRITE_B16), B(DS_WRITE_B8_D16_HI),
    B(DS_WRITE_B16_D16_HI), B(DS_WRITE2_B32), B(DS_WRITE2_B64), B(DS_WRITE2ST64_B32),
    B(DS_WRITE2ST64_B64),
    DSAE(ADD), DSAE(SUB), DSAE(RSUB), DSAE(INC), DSAE(DEC), DSAE(MIN), DSAE(MAX),
    DSBE(AND), DSBE(OR), DSBE(XOR), DSBE(MSKOR), DSBE(CMPST),
    B(DS_MIN_I32), B(DS_MIN_RTN_I32), B(DS_MAX_I32), B(DS_MAX_RTN_I32), B(DS_MIN_I64),
    B(DS_MIN_RTN_I64), B(DS_MAX_I64), B(DS_MAX_RTN_I64), B(DS_WRXCHG_RTN_B32), B(DS_WRXCHG_RTN_B64),
    B(DS_ADD_F32), B(DS_ADD_RTN_F32), B(DS_MIN_F32), B(DS_MIN_RTN_F32), B(DS_MAX_F32),
    B(DS_MAX_RTN_F32), B(DS_MIN_F64), B(DS_MIN_RTN_F64), B(DS_MAX_F64), B(DS_MAX_RTN_F64),
    B(DS_ADD_F64), B(DS_ADD_RTN_F64), B(DS_PK_ADD_F16), B(DS_PK_ADD_RTN_F16), B(DS_PK_ADD_BF16),
    B(DS_PK_ADD_RTN_BF16), B(DS_NOP),
    B(DS_CMPST_F32), B(DS_CMPST_RTN_F32), B(DS_CMPST_F64), B(DS_CMPST_RTN_F64), B(DS_WRAP_RTN_B32),
    B(DS_WRXCHG2_RTN_B32), B(DS_WRXCHG2ST64_RTN_B32), B(DS_WRXCHG2_RTN_B64),
    B(DS_WRXCHG2ST64_RTN_B64), B(DS_CONDXCHG32_RTN_B64), B(DS_APPEND), B(DS_CONSUME), B(DS_PERMUTE_B32), B(DS_BPERMUTE_B32), B(DS_SWIZZLE_B32),
    B(DS_READ_ADDTID_B32), B(DS_WRITE_ADDTID_B32),
    B(BUFFER_LOAD_UBYTE), B(BUFFER_LOAD_SBYTE), B(BUFFER_LOAD_USHORT), B(BUFFER_LOAD_SSHORT),
    B(BUFFER_LOAD_DWORD), B(BUFFER_LOAD_DWORDX2), B(BUFFER_LOAD_DWORDX3), B(BUFFER_LOAD_DWORDX4),
    B(BUFFER_LOAD_UBYTE_D16), B(BUFFER_LOAD_UBYTE_D16_HI), B(BUFFER_LOAD_SBYTE_D16),
    B(BUFFER_LOAD_SBYTE_D16_HI), B(BUFFER_LOAD_SHORT_D16), B(BUFFER_LOAD_SHORT_D16_HI),
    B(BUFFER_STORE_BYTE), B(BUFFER_STORE_SHORT), B(BUFFER_STORE_BYTE_D16_HI),
    B(BUFFER_STORE_SHORT_D16_HI), B(BUFFER_STORE_DWORD), B(BUFFER_STORE_DWORDX2),
    B(BUFFER_STORE_DWORDX3), B(BUFFER_STORE_DWORDX4),
    BAE(SWAP), BAE(CMPSWAP), BAE(ADD), BAE(SUB), BAE(SMIN), BAE(UMIN), BAE(SMAX), BAE(UMAX),
    BAE(AND), BAE(OR), BAE(XOR), BAE(INC), BAE(DEC), B(BUFFER_ATOMIC_ADD_F32),
    B(BUFFER_ATOMIC_PK_ADD_F16), B(BUFFER_ATOMIC_PK_ADD_BF16), B(BUFFER_ATOMIC_ADD_F64),
    B(BUFFER_ATOMIC_MIN_F64), B(BUFFER_ATOMIC_MAX_F64), B(BUFFER_WBL2), B(BUFFER_INV),
    FLE(FLAT), FLE(GLOBAL), FLE(SCRATCH),
    B(GLOBAL_LOAD_LDS_UBYTE), B(GLOBAL_LOAD_LDS_SBYTE), B(GLOBAL_LOAD_LDS_USHORT),
    B(GLOBAL_LOAD_LDS_SSHORT), B(GLOBAL_LOAD_LDS_DWORD), B(GLOBAL_LOAD_LDS_DWORDX3),
    B(GLOBAL_LOAD_LDS_DWORDX4), B(SCRATCH_LOAD_LDS_UBYTE), B(SCRATCH_LOAD_LDS_SBYTE),
    B(SCRATCH_LOAD_LDS_USHORT), B(SCRATCH_LOAD_LDS_SSHORT), B(SCRATCH_LOAD_LDS_DWORD),
    FAE(FLAT), FAE(GLOBAL),
    /* typed buffer formats */
    BFMTE(BUFFER, X), BFMTE(BUFFER, XY), BFMTE(BUFFER, XYZ), BFMTE(BUFFER, XYZW),
    BFMTE(TBUFFER, X), BFMTE(TBUFFER, XY), BFMTE(TBUFFER, XYZ), BFMTE(TBUFFER, XYZW),
    B(BUFFER_LOAD_FORMAT_D16_HI_X), B(BUFFER_STORE_FORMAT_D16_HI_X),
    {NULL, NULL, 0}
};
