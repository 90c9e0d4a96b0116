/*
 * test_mem.c -- semantics of memory instructions on a bare wave: buffer
 * resources (raw out-of-bounds loads give 0, stores dropped, offen/idxen/
 * soffset/offset), LDS-DMA at M0 + lane*size, DS reads/writes/permutes,
 * atomics with and without return, flat accesses through the LDS and
 * private apertures, global loads and stores of every lane pattern against a
 * lane-by-lane model, faults for unmapped addresses, and the ticket model:
 * loaded values reach registers and LDS only when s_waitcnt retires them,
 * with findings for early reads.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "simtest.h"

static st_env *E;
#define V(r, l) (E->w->v[r][l])

static uint64_t alloc_buf(uint64_t size, const char *name, uint32_t **host)
{
    uint64_t a;
    CU_ASSERT_FATAL(gcn_sim_alloc(E->sim, size, name, &a) == 0);
    *host = (uint32_t *)gcn_sim_host(E->sim, a, size);
    return a;
}

/* raw buffer descriptor in s[r..r+3] */
static void set_srd(unsigned r, uint64_t base, uint32_t num_records, uint32_t stride)
{
    E->w->s[r] = (uint32_t)base;
    E->w->s[r + 1] = (uint32_t)(base >> 32) & 0xffff;
    E->w->s[r + 1] |= stride << 16;
    E->w->s[r + 2] = num_records;
    E->w->s[r + 3] = 0x00020000u;
}

static void waitall(void) { st_waitall(E); }
static void reset(void) { st_reset_mem(E); }

static unsigned nfind(gcn_sim_finding_kind k)
{
    unsigned n = 0;
    for (unsigned i = 0; i < E->sim->nfinds; i++)
        if (E->sim->finds[i].kind == k)
            n++;
    return n;
}

/* occurrences of findings of kind k (sites merge the same kind, pc and producer) */
static uint64_t noccur(gcn_sim_finding_kind k)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < E->sim->nfinds; i++)
        if (E->sim->finds[i].kind == k)
            n += E->sim->finds[i].count;
    return n;
}

static void test_buffer_oob(void)
{
    reset();
    uint32_t *h;
    uint64_t a = alloc_buf(1024, "A", &h);
    for (unsigned i = 0; i < 256; i++)
        h[i] = 0x1000 + i;
    set_srd(8, a, 40 * 4, 0);                  /* 40 elements in range */
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = l * 4;
        V(1, l) = 0xdeadu;
    }
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, v2, s[8:11], 0 offen") == 0);
    /* not landed yet */
    CU_ASSERT(V(1, 3) == 0xdeadu);
    CU_ASSERT(E->w->vm.n == 1);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (l < 40 ? 0x1000 + l : 0));
    /* soffset and instruction offset */
    E->w->s[3] = 8;
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, v2, s[8:11], s3 offen offset:4") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (l * 4 + 4 + 4 <= 160 ? 0x1000 + l + 3 : 0));
    /* stores past num_records are dropped */
    for (unsigned l = 0; l < NL; l++)
        V(5, l) = 0xabc00000u | l;
    CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v5, v2, s[8:11], 0 offen") == 0);
    for (unsigned i = 0; i < 64; i++)
        CU_ASSERT(h[i] == (i < 40 ? (0xabc00000u | i) : 0x1000 + i));
    /* structured: idxen with stride 8, index range check */
    set_srd(8, a, 10, 8);
    for (unsigned l = 0; l < NL; l++)
        V(2, l) = l;
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, v2, s[8:11], 0 idxen offset:4") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == (l < 10 ? h[2 * l + 1] : 0));
    /* byte and short loads with extension */
    h[0] = 0x8081ff7fu;
    set_srd(8, a, 1024, 0);
    st_vset(E, 2, 1);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_sbyte v1, v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(1, 0) == 0xffffffffu);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_ushort v1, v2, s[8:11], 0 offen offset:1") == 0);
    waitall();
    CU_ASSERT(V(1, 0) == 0x8081);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_sshort v1, v2, s[8:11], 0 offen offset:1") == 0);
    waitall();
    CU_ASSERT(V(1, 0) == 0xffff8081u);
    st_vset(E, 2, 0);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_sbyte v1, v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(1, 0) == 0x7f);  /* byte 0 (0x7f) is positive: no extension */
}

static void test_lds_dma(void)
{
    reset();
    uint32_t *h;
    uint64_t a = alloc_buf(512, "B", &h);
    for (unsigned i = 0; i < 128; i++)
        h[i] = 0x5000 + i;
    set_srd(12, a, 100 * 4, 0);
    E->w->s[SR_M0] = 256;
    for (unsigned l = 0; l < NL; l++) {
        V(1, l) = (l + 64) * 4;                 /* elements 64..127: 36 in range */
        V(3, l) = 256 + 4 * l;
    }
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, s[12:15], 0 offen lds") == 0);
    uint32_t *lds = (uint32_t *)E->g.lds;
    CU_ASSERT(lds[64] == 0);                    /* not landed */
    /* reading those bytes before the wait is a finding */
    unsigned before = nfind(GCN_FIND_LDS_DMA_PENDING);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v4, v3") == 0);
    CU_ASSERT(nfind(GCN_FIND_LDS_DMA_PENDING) == before + 1);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(lds[64 + l] == (l + 64 < 100 ? 0x5000 + 64 + l : 0));
    CU_ASSERT(V(4, 0) == 0);                    /* the early read saw the old bytes */
    /* one block of all lanes reaching past num_records at every cut (the block path's
     * prefix copy and zeros), with and without an instruction offset */
    static const uint32_t nrs[] = {0, 3, 256, 258, 259, 260, 300, 401, 511, 512};
    for (unsigned i = 0; i < sizeof nrs / sizeof nrs[0]; i++)
        for (unsigned o = 0; o < 2; o++) {
            set_srd(12, a, nrs[i], 0);
            E->w->s[SR_M0] = 2048;
            for (unsigned l = 0; l < NL; l++)
                V(1, l) = 4 * (l + 1) + (o ? 0 : 8);
            CU_ASSERT_FATAL(st_run(E, o ? "buffer_load_dword v1, s[12:15], 0 offen offset:8 lds"
                                        : "buffer_load_dword v1, s[12:15], 0 offen lds") == 0);
            waitall();
            for (unsigned l = 0; l < NL; l++) {
                uint32_t off = 4 * (l + 1) + 8;
                /* (the instruction offset moves the LDS address too: M0 + offset + 4 * lane) */
                CU_ASSERT(lds[2048 / 4 + 2 * o + l] == (off + 4 <= nrs[i] ? 0x5000 + off / 4 : 0));
            }
        }
    set_srd(12, a, 100 * 4, 0);
    /* global_load_lds_dword: only active lanes write */
    sim_set_exec(E->w, 0xffull);
    E->w->s[SR_M0] = 1024;
    E->w->s[20] = (uint32_t)a;
    E->w->s[21] = (uint32_t)(a >> 32);
    for (unsigned l = 0; l < NL; l++)
        V(6, l) = 4 * l;
    CU_ASSERT_FATAL(st_run(E, "global_load_lds_dword v6, s[20:21] offset:8") == 0);
    waitall();
    for (unsigned l = 0; l < 16; l++)
        CU_ASSERT(lds[1024 / 4 + 2 + l] == (l < 8 ? 0x5000 + l + 2 : 0));
    sim_set_exec(E->w, ~0ull);
    /* the last active lane's dword past the 64 KiB of LDS: a fault naming
     * the range, for the ordinary buffer load (through its fast window and
     * its per-lane path for bytes) */
    E->w->s[SR_M0] = 65536 - 63 * 4;
    CU_ASSERT(st_run(E, "buffer_load_dword v1, s[12:15], 0 offen lds") != 0);
    CU_ASSERT(strstr(E->sim->fault, "LDS-DMA writes LDS [0xff04, 0x10004)") != NULL);
    reset();
    set_srd(12, a, 100 * 4, 0);
    E->w->s[SR_M0] = 65536 - 63 * 4;
    st_vset(E, 1, 0);
    CU_ASSERT(st_run(E, "buffer_load_ubyte v1, s[12:15], 0 offen lds") != 0);
    CU_ASSERT(strstr(E->sim->fault, "LDS-DMA writes LDS [0xff04, 0x10004)") != NULL);
    reset();
    sim_set_exec(E->w, 1);                      /* one lane: it fits */
    set_srd(12, a, 100 * 4, 0);
    E->w->s[SR_M0] = 65536 - 63 * 4;
    st_vset(E, 1, 0);
    CU_ASSERT(st_run(E, "buffer_load_dword v1, s[12:15], 0 offen lds") == 0);
    waitall();
    sim_set_exec(E->w, ~0ull);
}

static void test_ds(void)
{
    reset();
    for (unsigned l = 0; l < NL; l++) {
        V(1, l) = 8 * l;
        V(2, l) = 100 + l;
        V(3, l) = 200 + l;
    }
    CU_ASSERT_FATAL(st_run(E, "ds_write2_b32 v1, v2, v3 offset1:1") == 0);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b64 v[4:5], v1") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(4, l) == 100 + l && V(5, l) == 200 + l);
    CU_ASSERT_FATAL(st_run(E, "ds_read2st64_b32 v[4:5], v1 offset1:1") == 0 || 1);
    /* bpermute: lane l pulls from lane (l + 1) % 64 */
    for (unsigned l = 0; l < NL; l++)
        V(6, l) = ((l + 1) & 63) * 4;
    CU_ASSERT_FATAL(st_run(E, "ds_bpermute_b32 v7, v6, v2") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(7, l) == 100 + ((l + 1) & 63));
    /* swizzle: quad permute reverse */
    CU_ASSERT_FATAL(st_run(E, "ds_swizzle_b32 v7, v2 offset:swizzle(QUAD_PERM,3,2,1,0)") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(7, l) == 100 + ((l & ~3u) + 3 - (l & 3)));
    /* atomics: every lane adds 1 to one address, returning the old value */
    st_vset(E, 8, 4096);
    st_vset(E, 9, 1);
    CU_ASSERT_FATAL(st_run(E, "ds_add_rtn_u32 v10, v8, v9") == 0);
    waitall();
    CU_ASSERT(((uint32_t *)E->g.lds)[1024] == 64);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(10, l) == l);
    /* out of range is a fault */
    st_vset(E, 8, 70000);
    CU_ASSERT(st_run(E, "ds_read_b32 v10, v8") != 0);
    CU_ASSERT(strstr(E->sim->fault, "LDS access out of range") != NULL);
}

static void test_global_flat(void)
{
    reset();
    uint32_t *h;
    uint64_t a = alloc_buf(256, "G", &h);
    for (unsigned i = 0; i < 64; i++)
        h[i] = 7 * i;
    E->w->s[20] = (uint32_t)a;
    E->w->s[21] = (uint32_t)(a >> 32);
    for (unsigned l = 0; l < NL; l++)
        V(1, l) = 4 * l;
    CU_ASSERT_FATAL(st_run(E, "global_load_dword v2, v1, s[20:21]") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(2, l) == 7 * l);
    /* one lane past the allocation: a fault naming the lane and the address */
    V(1, 63) = 256;
    CU_ASSERT(st_run(E, "global_load_dword v2, v1, s[20:21]") != 0);
    CU_ASSERT(strstr(E->sim->fault, "lane 63") != NULL);
    CU_ASSERT(strstr(E->sim->fault, "offset 256 of allocation 'G'") != NULL);
    reset();
    /* atomics with return */
    E->w->s[20] = (uint32_t)a;
    E->w->s[21] = (uint32_t)(a >> 32);
    st_vset(E, 1, 0);
    st_vset(E, 3, 2);
    h[0] = 10;
    CU_ASSERT_FATAL(st_run(E, "global_atomic_add v4, v1, v3, s[20:21] sc0") == 0);
    waitall();
    CU_ASSERT(h[0] == 10 + 128);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(4, l) == 10 + 2 * l);
    /* flat through the shared aperture reaches LDS */
    for (unsigned l = 0; l < NL; l++) {
        V(6, l) = 16 * l;
        V(7, l) = (uint32_t)(SIM_SHARED_BASE >> 32);
        V(8, l) = 0xf00 + l;
    }
    CU_ASSERT_FATAL(st_run(E, "flat_store_dword v[6:7], v8") == 0);
    CU_ASSERT(((uint32_t *)E->g.lds)[4 * 5] == 0xf05);
    CU_ASSERT(E->w->vm.n == 1 && E->w->lgkm.n == 1);   /* FLAT counts in both */
    waitall();
}

/* FLAT / GLOBAL loads and stores of whole dwords (the whole-row path of ops_mem.c,
 * flat_hull) against a lane-by-lane model: 64-bit VGPR and SGPR + VGPR offset addresses,
 * instruction offsets, 1-4 dwords, lanes contiguous, strided, reversed, scattered, split
 * over two allocations, with all, some or one lane active (inactive lanes pointing
 * anywhere, even outside every allocation, change nothing); overlapping stores keep the
 * last lane's bytes. */
static uint64_t flat_rng = 0x2545f4914f6cdd1dull;
static uint32_t flat_rnd(void)
{
    flat_rng ^= flat_rng << 13;
    flat_rng ^= flat_rng >> 7;
    flat_rng ^= flat_rng << 17;
    return (uint32_t)(flat_rng >> 11);
}

static void test_flat_lanes(void)
{
    reset();
    enum { SZ = 8192 };
    uint32_t *h[2];
    uint64_t base[2] = {alloc_buf(SZ, "FL0", &h[0]), alloc_buf(SZ, "FL1", &h[1])};
    static const char *const form[2][2] = {
        {"global_load_dword%s v[10:%u], v[2:3], off offset:%d",
         "global_store_dword%s v[2:3], v[10:%u], off offset:%d"},
        {"global_load_dword%s v[10:%u], v1, s[20:21] offset:%d",
         "global_store_dword%s v1, v[10:%u], s[20:21] offset:%d"}};
    static const char *const sfx[] = {"", "x2", "x3", "x4"};
    static const int offs[] = {0, 16, -8};
    unsigned checked = 0;
    for (int iter = 0; iter < 240; iter++) {
        unsigned nd = 1 + iter % 4, sa = (iter / 4) % 2, pat = (iter / 8) % 6;
        int off = offs[(iter / 48) % 3], st = (iter / 144) % 2 || iter % 5 == 0;
        uint64_t exec = iter % 3 == 0 ? ~0ull : iter % 3 == 1
                        ? ((uint64_t)flat_rnd() << 32 | flat_rnd()) : 1ull << (flat_rnd() % 64);
        if (!exec)
            exec = 1;
        if (sa && pat == 4)
            pat = 0;                    /* one SGPR base: one allocation */
        unsigned bytes = 4 * nd;
        uint64_t la[64];
        for (unsigned l = 0; l < NL; l++) {
            unsigned k = l;                        /* element index */
            int which = 0;
            switch (pat) {
            case 1: k = 3 * l; break;
            case 2: k = 63 - l; break;
            case 3: case 5: k = flat_rnd() % (SZ / bytes - 8); break;
            case 4: which = l & 1; k = flat_rnd() % (SZ / bytes - 8); break;
            default: break;
            }
            la[l] = base[which] + 32 + (uint64_t)k * bytes;
            if (pat == 5 && !(exec >> l & 1))      /* inactive: far outside */
                la[l] = 0x123400000000ull + 4 * l;
        }
        E->w->s[20] = (uint32_t)base[0];             /* + an unsigned 32-bit VGPR offset */
        E->w->s[21] = (uint32_t)(base[0] >> 32);
        for (unsigned l = 0; l < NL; l++) {
            uint64_t ea = la[l] - (uint64_t)(int64_t)off;   /* register part */
            V(2, l) = (uint32_t)ea;
            V(3, l) = (uint32_t)(ea >> 32);
            V(1, l) = (uint32_t)(ea - base[0]);
            for (unsigned k = 0; k < nd; k++)
                V(10 + k, l) = flat_rnd();
        }
        for (int b = 0; b < 2; b++)
            for (unsigned i = 0; i < SZ / 4; i++)
                h[b][i] = flat_rnd();
        char text[128];
        snprintf(text, sizeof text, form[sa][st], sfx[nd - 1], 9 + nd, off);
        uint32_t before[4][64], want[2][SZ / 4];
        memcpy(before, &V(10, 0), sizeof before);
        memcpy(want[0], h[0], SZ);
        memcpy(want[1], h[1], SZ);
        for (unsigned l = 0; l < NL && st; l++)
            if (exec >> l & 1) {
                int b = la[l] >= base[1];
                for (unsigned k = 0; k < nd; k++)
                    memcpy((uint8_t *)want[b] + (la[l] - base[b]) + 4 * k, &before[k][l], 4);
            }
        sim_set_exec(E->w, exec);
        if (st_run(E, text) != 0) {
            CU_FAIL("flat access faulted");
            printf("\n%s: %s\n", text, E->sim->fault);
            break;
        }
        waitall();
        sim_set_exec(E->w, ~0ull);
        int ok = 1;
        if (st) {
            ok = !memcmp(want[0], h[0], SZ) && !memcmp(want[1], h[1], SZ);
        } else {
            for (unsigned l = 0; l < NL; l++)
                for (unsigned k = 0; k < nd; k++) {
                    uint32_t w = before[k][l];
                    if (exec >> l & 1) {
                        int b = la[l] >= base[1];
                        memcpy(&w, (uint8_t *)h[b] + (la[l] - base[b]) + 4 * k, 4);
                    }
                    ok &= V(10 + k, l) == w;
                }
        }
        CU_ASSERT(ok);
        if (!ok) {
            printf("\n%s (pattern %u, exec %016llx): wrong %s\n", text, pat,
                   (unsigned long long)exec, st ? "memory" : "registers");
            break;
        }
        checked++;
    }
    CU_ASSERT(checked == 240);
}

/* DS reads and writes of 2 and 4 dwords and buffer loads of 2 and 4 dwords (the transposing
 * paths of ops_mem.c, lanes_to_rows / rows_to_lanes) against a lane-by-lane model:
 * contiguous, strided, scattered and overlapping lanes (a later lane's write wins), all or
 * some lanes active; the dwords of buffer lanes past num_records read 0 (one lane's
 * dwords straddling it). */
static void test_wide_lanes(void)
{
    reset();
    enum { SZ = 8192 };
    uint32_t *h;
    uint64_t a = alloc_buf(SZ, "W", &h);
    static const char *const sfx[] = {"", "", "b64", "", "b128"};
    unsigned checked = 0;
    for (int iter = 0; iter < 180; iter++) {
        unsigned nd = iter % 2 ? 4 : 2, kind = (iter / 2) % 3, pat = (iter / 6) % 5;
        uint64_t exec = iter % 7 == 3 ? ((uint64_t)flat_rnd() << 32 | flat_rnd()) : ~0ull;
        if (!exec)
            exec = ~0ull;
        uint32_t la[64], nr = SZ - 64;
        for (unsigned l = 0; l < NL; l++) {
            switch (pat) {
            case 0: la[l] = 4 * nd * l; break;                       /* contiguous */
            case 1: la[l] = 80 * (l / 4) + 16 * (l % 4); break;       /* rows of 4 lanes */
            case 2: la[l] = 4 * (flat_rnd() % (SZ / 4 - 64)); break;  /* scattered */
            case 3: la[l] = 4 * (flat_rnd() % 8); break;              /* overlapping */
            default: la[l] = 4 * (flat_rnd() % (SZ / 4 - 8)); break;  /* straddling nr */
            }
            la[l] &= kind == 2 ? ~3u : 0xffffu & ~3u;                  /* 64 KiB LDS */
        }
        if (kind == 2 && pat == 4) {     /* the highest lane straddles num_records */
            uint32_t mx = 0;
            for (unsigned l = 0; l < NL; l++)
                mx = la[l] > mx ? la[l] : mx;
            nr = mx + 4 * (1 + flat_rnd() % (nd - 1));
        }
        uint32_t before[4][64], want_reg[4][64];
        for (unsigned l = 0; l < NL; l++) {
            V(1, l) = la[l];
            for (unsigned k = 0; k < 4; k++)
                V(10 + k, l) = before[k][l] = flat_rnd();
        }
        uint8_t *mem = kind == 2 ? (uint8_t *)h : E->g.lds;
        for (unsigned i = 0; i < SZ; i++)
            mem[i] = (uint8_t)flat_rnd();
        uint8_t want_mem[SZ];
        memcpy(want_mem, mem, SZ);
        char text[96];
        if (kind == 0) {            /* ds_write: lane order */
            snprintf(text, sizeof text, "ds_write_%s v1, v[10:%u]", sfx[nd], 9 + nd);
            for (unsigned l = 0; l < NL; l++)
                if (exec >> l & 1)
                    for (unsigned k = 0; k < nd; k++)
                        memcpy(want_mem + la[l] + 4 * k, &before[k][l], 4);
        } else {
            if (kind == 1)
                snprintf(text, sizeof text, "ds_read_%s v[10:%u], v1", sfx[nd], 9 + nd);
            else
                snprintf(text, sizeof text, "buffer_load_dwordx%u v[10:%u], v1, s[8:11], 0 offen",
                         nd, 9 + nd);
            for (unsigned l = 0; l < NL; l++)
                for (unsigned k = 0; k < nd; k++) {
                    uint32_t w = before[k][l];
                    if (exec >> l & 1) {
                        w = 0;
                        if (kind == 1 || la[l] + 4 * k + 4 <= nr)
                            memcpy(&w, mem + la[l] + 4 * k, 4);
                    }
                    want_reg[k][l] = w;
                }
        }
        set_srd(8, a, nr, 0);
        sim_set_exec(E->w, exec);
        int rc = st_run(E, text);
        waitall();
        sim_set_exec(E->w, ~0ull);
        CU_ASSERT(rc == 0);
        int ok = rc == 0;
        if (kind == 0) {
            ok &= !memcmp(want_mem, mem, SZ);
        } else {
            for (unsigned l = 0; l < NL; l++)
                for (unsigned k = 0; k < nd; k++)
                    ok &= V(10 + k, l) == want_reg[k][l];
        }
        CU_ASSERT(ok);
        if (!ok) {
            printf("\n%s (pattern %u, exec %016llx): wrong\n", text, pat,
                   (unsigned long long)exec);
            break;
        }
        checked++;
    }
    CU_ASSERT(checked == 180);
}

static void test_tickets(void)
{
    reset();
    uint32_t *h;
    uint64_t a = alloc_buf(256, "T", &h);
    set_srd(8, a, 256, 0);
    for (unsigned l = 0; l < NL; l++)
        V(2, l) = 0;
    h[0] = 42;
    st_vset(E, 1, 1);
    unsigned before = nfind(GCN_FIND_READ_PENDING);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT_FATAL(st_run(E, "v_add_u32 v3, v1, v1") == 0);
    CU_ASSERT(nfind(GCN_FIND_READ_PENDING) == before + 1);
    CU_ASSERT(V(3, 0) == 2);                    /* the old value was read */
    before = nfind(GCN_FIND_WRITE_PENDING);
    CU_ASSERT_FATAL(st_run(E, "v_mov_b32 v1, 5") == 0);
    CU_ASSERT(nfind(GCN_FIND_WRITE_PENDING) == before + 1);
    waitall();
    CU_ASSERT(V(1, 0) == 42);                   /* the load landed last */
    /* vmcnt(N) retires oldest first */
    st_vset(E, 1, 0);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v10, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v11, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v12, v2, s[8:11], 0 offen") == 0);
    E->x.i = &E->si;
    sim_waitcnt(&E->x, 1, 15);
    CU_ASSERT(V(10, 0) == 42 && V(11, 0) == 42 && V(12, 0) != 42);
    waitall();
    CU_ASSERT(V(12, 0) == 42);
    /* a full vmcnt FIFO retires the oldest on issue (the hardware stalls) */
    for (int i = 0; i < 70; i++)
        CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v2, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(E->w->vm.n == SIM_VM_MAX);
    waitall();
}

/* The one-pass paths of the coalesced dword buffer block (ops_mem.c dma_block, store_block):
 * the window's host address kept per instruction slot must follow the descriptor (the same
 * instruction on other buffers, a shorter window, a window moved within its allocation), and
 * the LDS-DMA reads its VGPR offsets after taking its ticket (a full vmcnt FIFO retires the
 * oldest load there, which may write the offset row) while the store reads its data before. */
static void test_block_paths(void)
{
    reset();
    uint32_t *ha, *hb;
    uint64_t a = alloc_buf(4096, "A", &ha), b = alloc_buf(4096, "B", &hb);
    for (unsigned i = 0; i < 1024; i++) {
        ha[i] = 0xa0000 + i;
        hb[i] = 0xb0000 + i;
    }
    uint32_t *lds = (uint32_t *)E->g.lds;
    /* the same LDS-DMA instruction on A, B, A at 16 bytes in, A with a window too short for
     * the block (lanes past num_records read 0), A again */
    static const struct { int buf; uint32_t shift, nr; } cases[] = {
        {0, 0, 4096}, {1, 0, 4096}, {0, 16, 4080}, {0, 0, 200}, {0, 0, 4096}, {1, 64, 1024}};
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint64_t base = (cases[c].buf ? b : a) + cases[c].shift;
        const uint32_t *h = cases[c].buf ? hb : ha;
        set_srd(12, base, cases[c].nr, 0);
        E->w->s[SR_M0] = 512;
        for (unsigned l = 0; l < NL; l++)
            V(1, l) = 32 + 4 * l;
        CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, s[12:15], 0 offen offset:4 lds") == 0);
        waitall();
        for (unsigned l = 0; l < NL; l++) {
            uint32_t off = 36 + 4 * l;
            CU_ASSERT(lds[(512 + 4) / 4 + l] ==
                      (off + 4 <= cases[c].nr ? h[(cases[c].shift + off) / 4] : 0));
        }
    }
    /* the same store instruction on A, then on B (A keeps the first data) */
    for (unsigned l = 0; l < NL; l++) {
        V(1, l) = 4 * l;
        V(5, l) = 0x5000 + l;
    }
    set_srd(8, a, 4096, 0);
    CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v5, v1, s[8:11], 0 offen offset:8") == 0);
    for (unsigned l = 0; l < NL; l++)
        V(5, l) = 0x6000 + l;
    set_srd(8, b, 4096, 0);
    CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v5, v1, s[8:11], 0 offen offset:8") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(ha[2 + l] == 0x5000 + l && hb[2 + l] == 0x6000 + l);
    /* a full vmcnt FIFO whose oldest entry loads the DMA's offset row: the DMA takes the
     * loaded offsets (lane l: 256 + 4l), not the old ones (4l) */
    for (unsigned i = 0; i < 128; i++)
        ha[i] = 256 + 4 * (i % NL);
    set_srd(8, a, 4096, 0);
    set_srd(12, b, 4096, 0);
    for (unsigned l = 0; l < NL; l++) {
        V(1, l) = 4 * l;
        V(2, l) = 4 * l;
        V(5, l) = 0x7000 + l;
    }
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, v2, s[8:11], 0 offen") == 0);
    for (unsigned i = 1; i < SIM_VM_MAX; i++)
        CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v5, v2, s[8:11], 0 offen offset:1024") == 0);
    CU_ASSERT(E->w->vm.n == SIM_VM_MAX);
    E->w->s[SR_M0] = 0;
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, s[12:15], 0 offen lds") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(lds[l] == hb[(256 + 4 * l) / 4]);
    /* the same for a store whose data row the oldest load writes: the store takes the old
     * data (read before the ticket, as buf_store does) */
    for (unsigned l = 0; l < NL; l++) {
        V(5, l) = 0x8000 + l;
        V(2, l) = 4 * l;
    }
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v5, v2, s[8:11], 0 offen") == 0);
    for (unsigned i = 1; i < SIM_VM_MAX; i++)
        CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v2, v2, s[8:11], 0 offen offset:2048") == 0);
    CU_ASSERT(E->w->vm.n == SIM_VM_MAX);
    CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v5, v2, s[12:15], 0 offen offset:512") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++) {
        CU_ASSERT(hb[128 + l] == 0x8000 + l);
        CU_ASSERT(V(5, l) == 256 + 4 * l);
    }
}

/* The inline ticket paths (sim_tk_take/sim_tk_push of dma_block and store_block, the inline
 * sim_tk_row of the coalesced ds_read_b32, the one-row landing, the wait's retire of several
 * entries at once): a full lgkmcnt FIFO at a read's issue lands the oldest read there; a
 * partial EXEC leaves the block paths; a row overwritten before its read lands, and a row
 * two reads write, land in age order with the right pending counts; a wait on vmcnt and
 * lgkmcnt together retires each FIFO to its count; a FLAT load in both FIFOs lands only
 * when each counter it needs has retired it. */
static void test_fast_tickets(void)
{
    reset();
    uint32_t *h, *lds = (uint32_t *)E->g.lds;
    uint64_t a = alloc_buf(4096, "T", &h);
    for (unsigned i = 0; i < 1024; i++)
        h[i] = 0x10000 + i;
    for (unsigned i = 0; i < 1024; i++)
        lds[i] = 0x20000 + i;
    for (unsigned l = 0; l < NL; l++)
        V(1, l) = 4 * l;
    /* a full lgkm FIFO: the 16th read's ticket lands the first read (v10) at its issue */
    char buf[96];
    for (unsigned k = 0; k < SIM_LGKM_MAX; k++) {
        st_vset(E, 10 + k, 0xdead);
        snprintf(buf, sizeof buf, "ds_read_b32 v%u, v1 offset:%u", 10 + k, 256 * k);
        CU_ASSERT_FATAL(st_run(E, buf) == 0);
    }
    CU_ASSERT(E->w->lgkm.n == SIM_LGKM_MAX);
    st_vset(E, 30, 0xdead);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v30, v1 offset:3840") == 0);
    CU_ASSERT(E->w->lgkm.n == SIM_LGKM_MAX);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(10, l) == 0x20000 + l && V(11, l) == 0xdead && V(30, l) == 0xdead);
    CU_ASSERT(!E->w->vpend[10] && E->w->vpend[11] == 1 && !(E->w->vpend_m >> 10 & 1) &&
              (E->w->vpend_m >> 11 & 1));
    /* lgkmcnt(3) retires the 13 oldest at once, in age order */
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt lgkmcnt(3)") == 0);
    CU_ASSERT(E->w->lgkm.n == 3);
    for (unsigned l = 0; l < NL; l++) {
        CU_ASSERT(V(22, l) == 0x20000 + 12 * 64 + l);
        CU_ASSERT(V(23, l) == 0xdead && V(24, l) == 0xdead && V(30, l) == 0xdead);
    }
    CU_ASSERT(E->w->vpend[22] == 0 && E->w->vpend[23] == 1);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(23, l) == 0x20000 + 13 * 64 + l && V(24, l) == 0x20000 + 14 * 64 + l &&
                  V(30, l) == 0x20000 + 15 * 64 + l);
    CU_ASSERT(E->w->npend == 0 && E->w->vpend_m == 0 && E->w->ntk_free == SIM_NTICKETS);

    /* a row overwritten before its read lands: a finding, then the read clobbers it */
    uint64_t before = noccur(GCN_FIND_WRITE_PENDING);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v4, v1") == 0);
    CU_ASSERT_FATAL(st_run(E, "v_mov_b32 v4, 7") == 0);
    CU_ASSERT(noccur(GCN_FIND_WRITE_PENDING) == before + 1);
    CU_ASSERT(V(4, 5) == 7);
    waitall();
    CU_ASSERT(V(4, 5) == 0x20000 + 5);
    /* two reads into one row: the first lands at lgkmcnt(1), the row stays pending (a read
     * of it is a finding), the second lands last */
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v4, v1 offset:256") == 0);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v4, v1 offset:512") == 0);
    CU_ASSERT(E->w->vpend[4] == 2);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt lgkmcnt(1)") == 0);
    CU_ASSERT(V(4, 0) == 0x20000 + 64 && E->w->vpend[4] == 1 && (E->w->vpend_m >> 4 & 1));
    before = noccur(GCN_FIND_READ_PENDING);
    CU_ASSERT_FATAL(st_run(E, "v_mov_b32 v5, v4") == 0);
    CU_ASSERT(noccur(GCN_FIND_READ_PENDING) == before + 1);
    waitall();
    CU_ASSERT(V(4, 0) == 0x20000 + 128 && !E->w->vpend[4] && !(E->w->vpend_m >> 4 & 1));
    /* three reads into one row retired by one wait: they land in age order (the last wins) */
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v4, v1 offset:512") == 0);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v4, v1 offset:768") == 0);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v4, v1 offset:256") == 0);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt lgkmcnt(0)") == 0);
    CU_ASSERT(V(4, 9) == 0x20000 + 64 + 9 && !E->w->vpend[4] && !(E->w->vpend_m >> 4 & 1));

    /* partial EXEC: the LDS-DMA and the store leave the block paths; only EXEC's lanes */
    set_srd(12, a, 4096, 0);
    E->w->s[SR_M0] = 1024;
    uint64_t ex = 0x00ff00ff0f0f0f0full;
    sim_set_exec(E->w, ex);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, s[12:15], 0 offen lds") == 0);
    CU_ASSERT(lds[256] == 0x20000 + 256);           /* not landed */
    for (unsigned l = 0; l < NL; l++)
        V(6, l) = 0x30000 + l;
    CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v6, v1, s[12:15], 0 offen offset:2048") == 0);
    sim_set_exec(E->w, ~0ull);
    CU_ASSERT(E->w->vm.n == 2);
    waitall();
    for (unsigned l = 0; l < NL; l++) {
        CU_ASSERT(lds[256 + l] == (ex >> l & 1 ? 0x10000 + l : 0x20000 + 256 + l));
        CU_ASSERT(h[512 + l] == (ex >> l & 1 ? 0x30000 + l : 0x10000 + 512 + l));
    }

    /* vmcnt and lgkmcnt pending together: LDS-DMA, read, store, read; vmcnt(1) lgkmcnt(1)
     * lands the DMA and the first read only */
    for (unsigned l = 0; l < NL; l++)
        V(2, l) = 4 * l + 768;
    E->w->s[SR_M0] = 0;
    st_vset(E, 7, 0xdead);
    st_vset(E, 8, 0xdead);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v2, s[12:15], 0 offen lds") == 0);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v7, v1 offset:512") == 0);
    CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v6, v1, s[12:15], 0 offen offset:3072") == 0);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v8, v1 offset:768") == 0);
    CU_ASSERT(E->w->vm.n == 2 && E->w->lgkm.n == 2);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt vmcnt(1) lgkmcnt(1)") == 0);
    CU_ASSERT(E->w->vm.n == 1 && E->w->lgkm.n == 1);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(lds[l] == 0x10000 + 192 + l && V(7, l) == 0x20000 + 128 + l &&
                  V(8, l) == 0xdead && h[768 + l] == 0x30000 + l);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt vmcnt(0) lgkmcnt(0)") == 0);
    CU_ASSERT(E->w->vm.n == 0 && E->w->lgkm.n == 0 && E->w->ntk_free == SIM_NTICKETS);
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(8, l) == 0x20000 + 192 + l);

    /* the block paths' window memo (raw_offen_win) is keyed on the V# words and soffset too:
     * the same instructions and V#, soffset 0 then 256, then a V# whose only change is its
     * swizzle bit (the general path's fault) */
    for (unsigned l = 0; l < NL; l++)
        V(1, l) = 4 * l;
    for (unsigned so = 0; so <= 256; so += 256) {
        E->w->s[3] = so;
        E->w->s[SR_M0] = 2048;
        for (unsigned l = 0; l < NL; l++)
            V(6, l) = 0x40000 + so + l;
        CU_ASSERT_FATAL(st_run(E, "buffer_store_dword v6, v1, s[12:15], s3 offen offset:1024") == 0);
        CU_ASSERT_FATAL(st_run(E, "buffer_load_dword v1, s[12:15], s3 offen offset:512 lds") == 0);
        waitall();
        for (unsigned l = 0; l < NL; l++) {
            CU_ASSERT(h[(1024 + so) / 4 + l] == 0x40000 + so + l);
            CU_ASSERT(lds[(2048 + 512) / 4 + l] == h[(512 + so) / 4 + l]);
        }
    }
    E->w->s[13] |= 1u << 31;
    CU_ASSERT(st_run(E, "buffer_store_dword v6, v1, s[12:15], s3 offen offset:1024") != 0);
    E->w->s[13] &= ~(1u << 31);
    E->w->s[3] = 0;

    /* a FLAT load of LDS counts in both FIFOs and needs both: vmcnt(0) retires it from
     * vmcnt only (not landed), lgkmcnt(0) lands it */
    for (unsigned l = 0; l < NL; l++) {
        V(12, l) = 4 * l;
        V(13, l) = (uint32_t)(SIM_SHARED_BASE >> 32);
    }
    st_vset(E, 9, 0xdead);
    CU_ASSERT_FATAL(st_run(E, "flat_load_dword v9, v[12:13]") == 0);
    CU_ASSERT(E->w->vm.n == 1 && E->w->lgkm.n == 1);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt vmcnt(0)") == 0);
    CU_ASSERT(E->w->vm.n == 0 && E->w->lgkm.n == 1 && V(9, 3) == 0xdead);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt lgkmcnt(0)") == 0);
    CU_ASSERT(E->w->lgkm.n == 0 && V(9, 3) == lds[3] && E->w->ntk_free == SIM_NTICKETS);

    /* s_waitcnt's quick path leaves registers marked out of order to the general one:
     * lgkmcnt(1) retires an SMEM load with a DS read after it (s20 marked: a read of it is a
     * finding), lgkmcnt(0) then clears the marks (no finding after it) */
    E->w->s[30] = (uint32_t)a;
    E->w->s[31] = (uint32_t)(a >> 32);
    CU_ASSERT_FATAL(st_run(E, "s_load_dword s20, s[30:31], 0x0") == 0);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v4, v1") == 0);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt lgkmcnt(1)") == 0);
    CU_ASSERT(E->w->nooo == 1 && E->w->sooo[20] && E->w->s[20] == h[0]);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt lgkmcnt(0)") == 0);
    CU_ASSERT(E->w->nooo == 0 && !E->w->sooo[20]);
    before = noccur(GCN_FIND_SMEM_OOO);
    CU_ASSERT_FATAL(st_run(E, "s_mov_b32 s21, s20") == 0);
    CU_ASSERT(noccur(GCN_FIND_SMEM_OOO) == before);
    /* the same with the marks read before the lgkmcnt(0): a finding */
    CU_ASSERT_FATAL(st_run(E, "s_load_dword s20, s[30:31], 0x0") == 0);
    CU_ASSERT_FATAL(st_run(E, "ds_read_b32 v4, v1") == 0);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt lgkmcnt(1)") == 0);
    CU_ASSERT_FATAL(st_run(E, "s_waitcnt vmcnt(0)") == 0);
    CU_ASSERT(E->w->nooo == 1);
    CU_ASSERT_FATAL(st_run(E, "s_mov_b32 s21, s20") == 0);
    CU_ASSERT(noccur(GCN_FIND_SMEM_OOO) == before + 1);
    waitall();
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    E = st_new(GCN_TARGET_GFX942);
    /* the memory decoder must be there */
    if (st_insn(E, "ds_read_b32 v1, v2")) {
        printf("memory instructions not decodable yet: skipped\n");
        st_free(E);
        CU_cleanup_registry();
        return 77;
    }
    CU_pSuite s = CU_add_suite("mem", NULL, NULL);
    CU_add_test(s, "buffer: raw/structured ranges, OOB loads 0, stores dropped", test_buffer_oob);
    CU_add_test(s, "LDS-DMA: M0 + lane*4, lands at the wait, early reads found", test_lds_dma);
    CU_add_test(s, "DS: read/write, permutes, atomics, range fault", test_ds);
    CU_add_test(s, "global/flat: faults, atomics, shared aperture", test_global_flat);
    CU_add_test(s, "global: whole-row addresses against a lane-by-lane model", test_flat_lanes);
    CU_add_test(s, "DS b64/b128 and buffer x2/x4 against a lane-by-lane model", test_wide_lanes);
    CU_add_test(s, "tickets: values land at s_waitcnt, findings", test_tickets);
    CU_add_test(s, "buffer blocks: window memo, ticket order of DMA and store", test_block_paths);
    CU_add_test(s, "inline tickets: full FIFO, partial EXEC, overwrite, both counters", test_fast_tickets);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    st_free(E);
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
