/*
 * test_memx.c -- semantics of the less common memory instructions on a bare
 * wave: typed buffer formats (buffer_*_format_*, tbuffer_*: conversions,
 * missing components, DST_SEL, out-of-range rules, d16 packing), scalar
 * atomics and scalar scratch, s_atc_probe, and the LDS extras (ds_append /
 * ds_consume, ds_condxchg32, ds_wrxchg2, ds_cmpst_f*, ds_wrap).  Expected
 * values follow the ISA definitions quoted beside each check; lanes whose
 * EXEC bit is clear must stay untouched.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "simtest.h"

static st_env *E;
#define V(r, l) (E->w->v[r][l])

static uint64_t alloc_buf(uint64_t size, const char *name, uint8_t **host)
{
    uint64_t a;
    CU_ASSERT_FATAL(gcn_sim_alloc(E->sim, size, name, &a) == 0);
    *host = gcn_sim_host(E->sim, a, size);
    memset(*host, 0, size);
    return a;
}

/* buffer descriptor in s[r..r+3] with word 3 given */
static void set_srd(unsigned r, uint64_t base, uint32_t num_records, uint32_t stride, uint32_t w3)
{
    E->w->s[r] = (uint32_t)base;
    E->w->s[r + 1] = ((uint32_t)(base >> 32) & 0xffff) | stride << 16;
    E->w->s[r + 2] = num_records;
    E->w->s[r + 3] = w3;
}
/* word 3: DST_SEL x,y,z,w [11:0], NUM_FORMAT [14:12], DATA_FORMAT [18:15] */
#define SEL_XYZW (4u | 5u << 3 | 6u << 6 | 7u << 9)
static uint32_t w3fmt(unsigned dfmt, unsigned nfmt, uint32_t sel)
{
    return sel | nfmt << 12 | dfmt << 15;
}
enum { D8 = 1, D16 = 2, D8_8 = 3, D32 = 4, D16_16 = 5, D10_11_11 = 6, D11_11_10 = 7,
       D10_10_10_2 = 8, D2_10_10_10 = 9, D8_8_8_8 = 10, D32_32 = 11, D16_16_16_16 = 12,
       D32_32_32 = 13, D32_32_32_32 = 14 };
enum { NUNORM, NSNORM, NUSCALED, NSSCALED, NUINT, NSINT, NRSVD, NFLOAT };

static uint32_t fu(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void waitall(void) { st_waitall(E); }
static void reset(void) { st_reset_mem(E); }

/* lane l's element offset in v2 (offen), data regs poisoned */
static void lanes_offen(unsigned esz)
{
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = l * esz;
        for (unsigned r = 10; r < 14; r++)
            V(r, l) = 0xdead0000u | r;
    }
}

static void test_fmt_unorm_snorm(void)
{
    reset();
    uint8_t *h;
    uint64_t a = alloc_buf(4096, "F1", &h);
    /* 8_8_8_8 UNORM: u / 255 (CDNA3 ISA numeric format UNORM) */
    for (unsigned l = 0; l < NL; l++) {
        h[4 * l] = 0; h[4 * l + 1] = 0xff; h[4 * l + 2] = (uint8_t)(0x80 + l); h[4 * l + 3] = 1;
    }
    set_srd(8, a, 4096, 0, w3fmt(D8_8_8_8, NUNORM, SEL_XYZW));
    lanes_offen(4);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_xyzw v[10:13], v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(V(10, 0) == (0xdead0000u | 10));          /* lands only at the wait */
    waitall();
    for (unsigned l = 0; l < NL; l++) {
        CU_ASSERT(V(10, l) == 0);
        CU_ASSERT(V(11, l) == fu(1.0f));
        CU_ASSERT(V(12, l) == fu((float)(0x80 + l) / 255.0f));
        CU_ASSERT(V(13, l) == fu(1.0f / 255.0f));
    }
    /* 16_16 SNORM: s / 32767, -32768 clamps to -1 */
    uint16_t *h16 = (uint16_t *)h;
    h16[0] = 0x8000; h16[1] = 0x7fff; h16[2] = 0xc000; h16[3] = 0x0001;
    set_srd(8, a, 4096, 0, w3fmt(D16_16, NSNORM, SEL_XYZW));
    lanes_offen(4);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_xyzw v[10:13], v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == fu(-1.0f));
    CU_ASSERT(V(11, 0) == fu(1.0f));
    CU_ASSERT(V(12, 0) == 0 && V(13, 0) == fu(1.0f));  /* missing z = 0, w = 1.0 */
    CU_ASSERT(V(10, 1) == fu(-16384.0f / 32767.0f));
    CU_ASSERT(V(11, 1) == fu(1.0f / 32767.0f));
    /* 8 SSCALED / USCALED: the integer as a float */
    h[0] = 0x80;
    set_srd(8, a, 4096, 0, w3fmt(D8, NSSCALED, SEL_XYZW));
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_x v10, v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == fu(-128.0f));
    set_srd(8, a, 4096, 0, w3fmt(D8, NUSCALED, SEL_XYZW));
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_x v10, v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == fu(128.0f));
}

static void test_fmt_int_float_sel_oob(void)
{
    reset();
    uint8_t *h;
    uint64_t a = alloc_buf(4096, "F2", &h);
    uint32_t *h32 = (uint32_t *)h;
    for (unsigned i = 0; i < 1024; i++)
        h32[i] = 0x80000000u | i;
    /* 32 UINT: x from memory, y z 0, w integer 1 */
    set_srd(8, a, 40 * 4, 0, w3fmt(D32, NUINT, SEL_XYZW));
    lanes_offen(4);
    sim_set_exec(E->w, ~0ull & ~(1ull << 5));
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_xyzw v[10:13], v2, s[8:11], 0 offen") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++) {
        if (l == 5) {           /* EXEC off: untouched */
            for (unsigned r = 10; r < 14; r++)
                CU_ASSERT(V(r, l) == (0xdead0000u | r));
            continue;
        }
        int in = l < 40;        /* raw buffer: offset + 4 <= num_records */
        CU_ASSERT(V(10, l) == (in ? 0x80000000u | l : 0));
        CU_ASSERT(V(11, l) == 0 && V(12, l) == 0);
        CU_ASSERT(V(13, l) == (in ? 1u : 0));    /* out of range: every component 0 */
    }
    sim_set_exec(E->w, ~0ull);
    /* SINT sign-extends; DST_SEL: x <- w (1), y <- 1, z <- 0, w <- x */
    h[0] = 0xfe;                /* 8 SINT -2 */
    set_srd(8, a, 1, 0, w3fmt(D8, NSINT, 7u | 1u << 3 | 0u << 6 | 4u << 9));
    lanes_offen(4);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_xyzw v[10:13], v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == 1 && V(11, 0) == 1 && V(12, 0) == 0 && V(13, 0) == 0xfffffffeu);
    /* lane 1 is out of range (num_records 1): 0 except the component selecting 1 */
    CU_ASSERT(V(10, 1) == 0 && V(11, 1) == 1 && V(12, 1) == 0 && V(13, 1) == 0);
    /* 16 FLOAT: half -> f32; 32_32 FLOAT kept bit for bit (NaN payload too) */
    h32[0] = 0x0000bc00u;       /* -1.0 half */
    set_srd(8, a, 4096, 0, w3fmt(D16, NFLOAT, SEL_XYZW));
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_x v10, v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == fu(-1.0f));
    h32[0] = 0x7fa00001u; h32[1] = 0x3f800000u;
    set_srd(8, a, 4096, 0, w3fmt(D32_32, NFLOAT, SEL_XYZW));
    lanes_offen(8);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_xyz v[10:12], v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == 0x7fa00001u && V(11, 0) == 0x3f800000u && V(12, 0) == 0);
    CU_ASSERT(V(13, 0) == (0xdead0000u | 13));  /* xyz writes three registers */
    /* structured (stride 16, idxen): the index is range-checked */
    set_srd(8, a, 3, 16, w3fmt(D32_32_32_32, NUINT, SEL_XYZW));
    for (unsigned l = 0; l < NL; l++)
        V(2, l) = l;
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_xyzw v[10:13], v2, s[8:11], 0 idxen offset:4") == 0);
    waitall();
    for (unsigned l = 0; l < 5; l++)
        for (unsigned c = 0; c < 4; c++)
            CU_ASSERT(V(10 + c, l) == (l < 3 ? h32[4 * l + 1 + c] : 0));
    /* V# DATA_FORMAT INVALID is an unbound resource (ISA 9.1.4): loads 0 in
     * every component (even DST_SEL 1), stores dropped */
    set_srd(8, a, 4096, 0, w3fmt(0, NUINT, 4u | 1u << 3 | 6u << 6 | 7u << 9));
    lanes_offen(4);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_xyzw v[10:13], v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(10, 3) == 0 && V(11, 3) == 0 && V(12, 3) == 0 && V(13, 3) == 0);
    uint32_t keep = h32[3];
    CU_ASSERT_FATAL(st_run(E, "buffer_store_format_x v10, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(h32[3] == keep);
    /* raw range check is all or nothing on the start offset (ISA 9.1.5.1):
     * an element starting below num_records is read whole */
    h32[0] = 0xa1b2c3d4u;
    set_srd(8, a, 2, 0, w3fmt(D32, NUINT, SEL_XYZW));
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_x v10, v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == 0xa1b2c3d4u && V(10, 1) == 0);
    /* private buffer (ADD_TID, no IDXEN): no range check; index = lane */
    set_srd(8, a, 0, 4, w3fmt(D32, NUINT, SEL_XYZW) | 1u << 23);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_x v10, off, s[8:11], 0") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(10, l) == h32[l]);
    /* a numeric format the data format does not have: a fault naming it */
    set_srd(8, a, 4096, 0, w3fmt(D32, NUNORM, SEL_XYZW));   /* 32-bit UNORM does not exist */
    CU_ASSERT(st_run(E, "buffer_store_format_x v10, v2, s[8:11], 0 offen") != 0);
    CU_ASSERT(strstr(E->sim->fault, "BUF_NUM_FORMAT_UNORM") != NULL);
}

static void test_fmt_tbuffer_packed(void)
{
    reset();
    uint8_t *h;
    uint64_t a = alloc_buf(4096, "F3", &h);
    uint32_t *h32 = (uint32_t *)h;
    /* 2_10_10_10 UINT: x[9:0] y[19:10] z[29:20] w[31:30] */
    h32[0] = 1u | 2u << 10 | 1023u << 20 | 3u << 30;
    /* the descriptor's format is ignored by tbuffer (and its DST_SEL used) */
    set_srd(8, a, 4096, 0, w3fmt(D8, NUNORM, SEL_XYZW));
    lanes_offen(4);
    CU_ASSERT_FATAL(st_run(E, "tbuffer_load_format_xyzw v[10:13], v2, s[8:11], 0 "
                              "format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_UINT] offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == 1 && V(11, 0) == 2 && V(12, 0) == 1023 && V(13, 0) == 3);
    /* 10_10_10_2 SNORM: x is the 2-bit field at the bottom: 0b10 = -2 -> -1 (clamped) */
    h32[0] = 2u | 511u << 2 | 0x200u << 12 | 1u << 22;
    CU_ASSERT_FATAL(st_run(E, "tbuffer_load_format_xyzw v[10:13], v2, s[8:11], 0 "
                              "format:[BUF_DATA_FORMAT_10_10_10_2,BUF_NUM_FORMAT_SNORM] offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == fu(-1.0f));
    CU_ASSERT(V(11, 0) == fu(1.0f));
    CU_ASSERT(V(12, 0) == fu(-1.0f));            /* -512 / 511 clamps */
    CU_ASSERT(V(13, 0) == fu(1.0f / 511.0f));
    /* 10_11_11 FLOAT: x 11 bits (e5 m6), y 11 bits, z 10 bits (e5 m5), unsigned */
    h32[0] = (15u << 6) | (31u << 6) << 11 | (1u) << 22;   /* 1.0, +inf, smallest denormal */
    CU_ASSERT_FATAL(st_run(E, "tbuffer_load_format_xyzw v[10:13], v2, s[8:11], 0 "
                              "format:[BUF_DATA_FORMAT_10_11_11,BUF_NUM_FORMAT_FLOAT] offen") == 0);
    waitall();
    CU_ASSERT(V(10, 0) == fu(1.0f));
    CU_ASSERT(V(11, 0) == 0x7f800000u);
    CU_ASSERT(V(12, 0) == fu(ldexpf(1.0f, -19)));  /* 1 * 2^(-14-5) */
    CU_ASSERT(V(13, 0) == 0);          /* tbuffer: identity DST_SEL XYZ0 (ISA Table 43) */
    /* tbuffer with format 0 (INVALID in the instruction): a fault naming it */
    CU_ASSERT(st_run(E, "tbuffer_load_format_x v10, v2, s[8:11], 0 "
                        "format:[BUF_DATA_FORMAT_INVALID,BUF_NUM_FORMAT_UINT] offen") != 0);
    CU_ASSERT(strstr(E->sim->fault, "BUF_DATA_FORMAT_INVALID") != NULL);
    /* tbuffer store, 8_8 UINT clamps (300 -> 255), y written, memory beyond untouched */
    h32[0] = 0xaabbccddu;
    st_vset(E, 20, 300);
    st_vset(E, 21, 7);
    CU_ASSERT_FATAL(st_run(E, "tbuffer_store_format_xy v[20:21], v2, s[8:11], 0 "
                              "format:[BUF_DATA_FORMAT_8_8,BUF_NUM_FORMAT_UINT] offen") == 0);
    CU_ASSERT(h32[0] == 0xaabb07ffu);
}

static void test_fmt_store(void)
{
    reset();
    uint8_t *h;
    uint64_t a = alloc_buf(4096, "F4", &h);
    uint32_t *h32 = (uint32_t *)h;
    /* 8_8_8_8 UNORM: clamp to [0,1], * 255, nearest even: 0.5 -> 127.5 -> 128 */
    set_srd(8, a, 8, 0, w3fmt(D8_8_8_8, NUNORM, 0));   /* stores ignore DST_SEL */
    lanes_offen(4);
    st_vset(E, 10, fu(0.5f));
    st_vset(E, 11, fu(-1.0f));
    st_vset(E, 12, fu(2.0f));
    st_vset(E, 13, 0x7fc00000u);                       /* NaN -> 0 */
    memset(h, 0x55, 64);
    sim_set_exec(E->w, ~0ull & ~1ull);                 /* lane 0 off */
    CU_ASSERT_FATAL(st_run(E, "buffer_store_format_xyzw v[10:13], v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(h32[0] == 0x55555555u);                  /* EXEC off: not written */
    CU_ASSERT(h32[1] == (128u | 0u << 8 | 255u << 16 | 0u << 24));
    CU_ASSERT(h32[2] == 0x55555555u);                  /* out of range: dropped */
    sim_set_exec(E->w, ~0ull);
    /* store_format_x into a 4-component format writes x only */
    h32[0] = 0x11223344u;
    CU_ASSERT_FATAL(st_run(E, "buffer_store_format_x v12, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(h32[0] == 0x112233ffu);
    /* 16_16 SNORM: 0.5 * 32767 = 16383.5 -> 16384; -2 clamps to -1 -> -32767 */
    set_srd(8, a, 4096, 0, w3fmt(D16_16, NSNORM, 0));
    st_vset(E, 10, fu(0.5f));
    st_vset(E, 11, fu(-2.0f));
    CU_ASSERT_FATAL(st_run(E, "buffer_store_format_xy v[10:11], v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(h32[0] == (16384u | 0x8001u << 16));
    /* 16 SINT clamps; 2_10_10_10 USCALED rounds to nearest even and clamps */
    set_srd(8, a, 4096, 0, w3fmt(D16, NSINT, 0));
    st_vset(E, 10, (uint32_t)-40000);
    h32[0] = 0;
    CU_ASSERT_FATAL(st_run(E, "buffer_store_format_x v10, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(h32[0] == 0x8000u);
    set_srd(8, a, 4096, 0, w3fmt(D2_10_10_10, NUSCALED, 0));
    st_vset(E, 10, fu(2.5f));
    st_vset(E, 11, fu(5000.0f));
    st_vset(E, 12, fu(-3.0f));
    st_vset(E, 13, fu(3.5f));
    CU_ASSERT_FATAL(st_run(E, "buffer_store_format_xyzw v[10:13], v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(h32[0] == (2u | 1023u << 10 | 0u << 20 | 3u << 30));
    /* 11_11_10 FLOAT: x is 10 bits (e5 m5); 1.5 -> e15 m16; negative -> 0; y 65536 -> inf */
    set_srd(8, a, 4096, 0, w3fmt(D11_11_10, NFLOAT, 0));
    st_vset(E, 10, fu(1.5f));
    st_vset(E, 11, fu(65536.0f));
    st_vset(E, 12, fu(-1.0f));
    CU_ASSERT_FATAL(st_run(E, "buffer_store_format_xyz v[10:12], v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(h32[0] == ((15u << 5 | 16u) | (31u << 6) << 10 | 0u << 21));
    /* 16 FLOAT: f32 -> half, nearest even */
    set_srd(8, a, 4096, 0, w3fmt(D16, NFLOAT, 0));
    st_vset(E, 10, fu(1.0f + ldexpf(1.0f, -11)));     /* halfway: rounds to even 1.0 */
    h32[0] = 0;
    CU_ASSERT_FATAL(st_run(E, "buffer_store_format_x v10, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(h32[0] == 0x3c00u);
}

static void test_fmt_d16(void)
{
    reset();
    uint8_t *h;
    uint64_t a = alloc_buf(4096, "F5", &h);
    uint16_t *h16 = (uint16_t *)h;
    /* 16_16_16_16 FLOAT, d16: halves packed two per register, x low */
    for (unsigned l = 0; l < NL; l++) {
        h16[4 * l] = 0x3c00; h16[4 * l + 1] = 0xc000; h16[4 * l + 2] = (uint16_t)l;
        h16[4 * l + 3] = 0x7bff;
    }
    set_srd(8, a, 4096, 0, w3fmt(D16_16_16_16, NFLOAT, SEL_XYZW));
    lanes_offen(8);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_d16_xyzw v[10:11], v2, s[8:11], 0 offen") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++) {
        CU_ASSERT(V(10, l) == 0xc0003c00u);
        CU_ASSERT(V(11, l) == (0x7bff0000u | l));
    }
    /* d16_x keeps the high half; d16_hi_x keeps the low half; d16_xyz keeps the
     * high half of its second register (gfx9 d16 loads preserve unused bits) */
    lanes_offen(8);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_d16_x v10, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_d16_hi_x v11, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_d16_xyz v[12:13], v2, s[8:11], 0 offen") == 0);
    waitall();
    CU_ASSERT(V(10, 3) == 0xdead3c00u);
    CU_ASSERT(V(11, 3) == 0x3c00000bu);
    CU_ASSERT(V(12, 3) == 0xc0003c00u);
    CU_ASSERT(V(13, 3) == 0xdead0003u);
    /* 8 UNORM as d16: 0x80 / 255 rounded to half once; W default 1.0 half */
    h[0] = 0x80;
    set_srd(8, a, 4096, 0, w3fmt(D8, NUNORM, SEL_XYZW));
    lanes_offen(4);
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_d16_xyzw v[10:11], v2, s[8:11], 0 offen") == 0);
    waitall();
    /* 128/255 = 0.50196...: half 0x3804 (0.5 + 4 * 2^-11 = 0.501953) */
    CU_ASSERT(V(10, 0) == 0x00003804u);
    CU_ASSERT(V(11, 0) == 0x3c000000u);
    /* d16 stores: tbuffer 16_16 FLOAT takes the halves as they are */
    st_vset(E, 20, 0x4000bc00u);
    uint32_t *h32 = (uint32_t *)h;
    CU_ASSERT_FATAL(st_run(E, "tbuffer_store_format_d16_xy v20, v2, s[8:11], 0 "
                              "format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offen") == 0);
    CU_ASSERT(h32[0] == 0x4000bc00u);
    /* d16_hi_x store: the high half, 8 UNORM: half 1.0 -> 255 */
    set_srd(8, a, 4096, 0, w3fmt(D8, NUNORM, 0));
    st_vset(E, 20, 0x3c000000u);
    h32[0] = 0;
    CU_ASSERT_FATAL(st_run(E, "buffer_store_format_d16_hi_x v20, v2, s[8:11], 0 offen") == 0);
    CU_ASSERT(h32[0] == 0xffu);
}

static void test_fmt_lds_dma(void)
{
    reset();
    uint8_t *h;
    uint64_t a = alloc_buf(4096, "F6", &h);
    for (unsigned l = 0; l < NL; l++)
        h[l] = (uint8_t)l;
    set_srd(8, a, 32, 0, w3fmt(D8, NUINT, SEL_XYZW));
    for (unsigned l = 0; l < NL; l++)
        V(1, l) = l;
    E->w->s[SR_M0] = 512;
    CU_ASSERT_FATAL(st_run(E, "buffer_load_format_x v1, s[8:11], 0 offen lds") == 0);
    uint32_t *lds = (uint32_t *)E->g.lds;
    CU_ASSERT(lds[128 + 5] == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(lds[128 + l] == (l < 32 ? l : 0));
    /* the last lane's dword past the 64 KiB of LDS: a fault naming the range */
    E->w->s[SR_M0] = 65536 - 63 * 4;
    CU_ASSERT(st_run(E, "buffer_load_format_x v1, s[8:11], 0 offen lds") != 0);
    CU_ASSERT(strstr(E->sim->fault, "LDS-DMA writes LDS [0xff04, 0x10004)") != NULL);
}

static void test_scalar_atomics(void)
{
    reset();
    uint8_t *h;
    uint64_t a = alloc_buf(256, "S1", &h);
    uint32_t *h32 = (uint32_t *)h;
    uint64_t *h64 = (uint64_t *)h;
    E->w->s[2] = (uint32_t)a;
    E->w->s[3] = (uint32_t)(a >> 32);
    /* add with glc: memory += data, the old value returns at the wait */
    h32[2] = 40;
    E->w->s[5] = 2;
    CU_ASSERT_FATAL(st_run(E, "s_atomic_add s5, s[2:3], 0x8 glc") == 0);
    CU_ASSERT(h32[2] == 42);
    CU_ASSERT(E->w->s[5] == 2);          /* not landed yet */
    CU_ASSERT(E->w->lgkm.n == 1);
    waitall();
    CU_ASSERT(E->w->s[5] == 40);
    /* without glc sdata is only read */
    CU_ASSERT_FATAL(st_run(E, "s_atomic_sub s5, s[2:3], 0x8") == 0);
    waitall();
    CU_ASSERT(h32[2] == 2 && E->w->s[5] == 40);
    /* cmpswap: data = {src, cmp}; swaps only when memory == cmp */
    E->w->s[6] = 77; E->w->s[7] = 3;
    CU_ASSERT_FATAL(st_run(E, "s_atomic_cmpswap s[6:7], s[2:3], 0x8 glc") == 0);
    waitall();
    CU_ASSERT(h32[2] == 2 && E->w->s[6] == 2 && E->w->s[7] == 3);
    E->w->s[6] = 77; E->w->s[7] = 2;
    CU_ASSERT_FATAL(st_run(E, "s_atomic_cmpswap s[6:7], s[2:3], 0x8 glc") == 0);
    waitall();
    CU_ASSERT(h32[2] == 77 && E->w->s[6] == 2 && E->w->s[7] == 2);
    /* 64-bit: smin on signed values, inc wraps at the data, dec */
    h64[2] = (uint64_t)-5;
    E->w->s[8] = 3; E->w->s[9] = 0;
    CU_ASSERT_FATAL(st_run(E, "s_atomic_smin_x2 s[8:9], s[2:3], 0x10 glc") == 0);
    waitall();
    CU_ASSERT(h64[2] == (uint64_t)-5 && E->w->s[8] == (uint32_t)-5 && E->w->s[9] == 0xffffffffu);
    h64[2] = 7;
    E->w->s[8] = 7; E->w->s[9] = 0;
    CU_ASSERT_FATAL(st_run(E, "s_atomic_inc_x2 s[8:9], s[2:3], 0x10") == 0);
    CU_ASSERT(h64[2] == 0);              /* old >= data: wraps to 0 */
    CU_ASSERT_FATAL(st_run(E, "s_atomic_dec_x2 s[8:9], s[2:3], 0x10") == 0);
    CU_ASSERT(h64[2] == 7);              /* old == 0: becomes data */
    /* cmpswap_x2: {src[1:0], cmp[3:2]} */
    h64[3] = 0x1234567890ull;
    E->w->s[12] = 1; E->w->s[13] = 2; E->w->s[14] = 0x34567890u; E->w->s[15] = 0x12;
    CU_ASSERT_FATAL(st_run(E, "s_atomic_cmpswap_x2 s[12:15], s[2:3], 0x18 glc") == 0);
    waitall();
    CU_ASSERT(h64[3] == 0x200000001ull);
    CU_ASSERT(E->w->s[12] == 0x34567890u && E->w->s[13] == 0x12 && E->w->s[14] == 0x34567890u);
    /* buffer form: range-checked against num_records; out of range returns 0 */
    E->w->s[16] = (uint32_t)a; E->w->s[17] = (uint32_t)(a >> 32) & 0xffff;
    E->w->s[18] = 16; E->w->s[19] = 0;
    h32[3] = 0xf0;
    E->w->s[20] = 0x0f;
    CU_ASSERT_FATAL(st_run(E, "s_buffer_atomic_or s20, s[16:19], 0xc glc") == 0);
    waitall();
    CU_ASSERT(h32[3] == 0xff && E->w->s[20] == 0xf0);
    h32[4] = 5;
    E->w->s[20] = 1;
    CU_ASSERT_FATAL(st_run(E, "s_buffer_atomic_add s20, s[16:19], 0x10 glc") == 0);
    waitall();
    CU_ASSERT(h32[4] == 5 && E->w->s[20] == 0);
    /* an unmapped address is a fault */
    E->w->s[2] = 0x1000; E->w->s[3] = 0;
    CU_ASSERT(st_run(E, "s_atomic_swap s5, s[2:3], 0x0 glc") != 0);
}

static void test_atc_probe(void)
{
    reset();
    /* a probe of an unmapped address: no fault, no register or memory change,
     * one out-of-order lgkmcnt ticket that s_waitcnt retires */
    E->w->s[2] = 0x1000; E->w->s[3] = 0;
    uint32_t before[128];
    memcpy(before, E->w->s, sizeof before);
    CU_ASSERT_FATAL(st_run(E, "s_atc_probe 7, s[2:3], 0x8") == 0);
    CU_ASSERT(E->w->lgkm.n == 1);
    CU_ASSERT(memcmp(before, E->w->s, sizeof before) == 0);
    CU_ASSERT_FATAL(st_run(E, "s_atc_probe_buffer 7, s[4:7], 0x8") == 0);
    CU_ASSERT(E->w->lgkm.n == 2);
    waitall();
    CU_ASSERT(E->w->lgkm.n == 0);
    CU_ASSERT(memcmp(before, E->w->s, sizeof before) == 0);
    /* the row is counted in lgkmcnt for the linter too */
    CU_ASSERT(E->si.flags & GCN_F_LGKMCNT);
}

static uint32_t *L32(void) { return (uint32_t *)E->g.lds; }

static void test_ds_extras(void)
{
    reset();
    uint32_t *lds = L32();
    /* ds_append: counter at M0 + offset gains popcount(EXEC); each active
     * lane gets the pre-op value; inactive lanes untouched */
    lds[100] = 7;
    E->w->s[SR_M0] = 392;
    st_vset(E, 1, 0xdeadu);
    sim_set_exec(E->w, 0xf0f0ull);
    CU_ASSERT_FATAL(st_run(E, "ds_append v1 offset:8") == 0);
    CU_ASSERT(lds[100] == 7 + 8);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(1, l) == ((0xf0f0ull >> l & 1) ? 7u : 0xdeadu));
    sim_set_exec(E->w, ~0ull);
    CU_ASSERT_FATAL(st_run(E, "ds_consume v1 offset:8") == 0);
    waitall();
    CU_ASSERT(lds[100] == 15u - 64u && V(1, 63) == 15);
    /* ds_wrxchg2_rtn_b32: old values of both addresses, then both stored */
    for (unsigned l = 0; l < NL; l++) {
        V(2, l) = 16 * l;                  /* addresses */
        V(3, l) = 0x100 + l;
        V(4, l) = 0x200 + l;
        lds[4 * l] = 0xa00 + l;
        lds[4 * l + 2] = 0xb00 + l;
    }
    CU_ASSERT_FATAL(st_run(E, "ds_wrxchg2_rtn_b32 v[6:7], v2, v3, v4 offset1:2") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++) {
        CU_ASSERT(V(6, l) == 0xa00 + l && V(7, l) == 0xb00 + l);
        CU_ASSERT(lds[4 * l] == 0x100 + l && lds[4 * l + 2] == 0x200 + l);
    }
    /* st64 b64 form: offsets in units of 64 qwords (512 bytes) */
    st_vset(E, 2, 0);
    st_vset(E, 4, 1); st_vset(E, 5, 2); st_vset(E, 6, 3); st_vset(E, 7, 4);
    lds[128] = 11; lds[129] = 12;
    sim_set_exec(E->w, 1);
    CU_ASSERT_FATAL(st_run(E, "ds_wrxchg2st64_rtn_b64 v[8:11], v2, v[4:5], v[6:7] offset0:1 offset1:2") == 0);
    waitall();
    CU_ASSERT(V(8, 0) == 11 && V(9, 0) == 12);
    CU_ASSERT(lds[128] == 1 && lds[129] == 2 && lds[256] == 3 && lds[257] == 4);
    sim_set_exec(E->w, ~0ull);
    /* ds_condxchg32_rtn_b64: address & 0xfff8; a half is stored (bit 31
     * cleared) only when its bit 31 is set */
    lds[1024] = 0x11111111u; lds[1025] = 0x22222222u;
    st_vset(E, 2, 4096 + 5);               /* rounded down to 4096 */
    st_vset(E, 12, 0x80000005u);
    st_vset(E, 13, 0x00000009u);
    sim_set_exec(E->w, 1);
    CU_ASSERT_FATAL(st_run(E, "ds_condxchg32_rtn_b64 v[14:15], v2, v[12:13]") == 0);
    waitall();
    CU_ASSERT(V(14, 0) == 0x11111111u && V(15, 0) == 0x22222222u);
    CU_ASSERT(lds[1024] == 5 && lds[1025] == 0x22222222u);
    sim_set_exec(E->w, ~0ull);
    /* ds_cmpst_f32: IEEE equality: -0 matches +0, NaN never matches */
    lds[600] = 0x80000000u;                /* -0.0 */
    st_vset(E, 2, 2400);
    st_vset(E, 3, 0);                      /* cmp +0.0 */
    st_vset(E, 4, fu(3.0f));
    sim_set_exec(E->w, 1);
    CU_ASSERT_FATAL(st_run(E, "ds_cmpst_rtn_f32 v5, v2, v3, v4") == 0);
    waitall();
    CU_ASSERT(V(5, 0) == 0x80000000u && lds[600] == fu(3.0f));
    lds[600] = 0x7fc00000u;
    st_vset(E, 3, 0x7fc00000u);
    CU_ASSERT_FATAL(st_run(E, "ds_cmpst_f32 v2, v3, v4") == 0);
    waitall();
    CU_ASSERT(lds[600] == 0x7fc00000u);    /* NaN != NaN: unchanged */
    /* f64 */
    uint64_t m0 = 0x8000000000000000ull, three;
    double d3 = 3.0;
    memcpy(&three, &d3, 8);
    memcpy(&lds[602], &m0, 8);
    st_vset(E, 2, 2408);
    st_vset(E, 6, 0); st_vset(E, 7, 0);                      /* cmp +0.0 */
    st_vset(E, 8, (uint32_t)three); st_vset(E, 9, (uint32_t)(three >> 32));
    CU_ASSERT_FATAL(st_run(E, "ds_cmpst_rtn_f64 v[10:11], v2, v[6:7], v[8:9]") == 0);
    waitall();
    CU_ASSERT(V(11, 0) == 0x80000000u && V(10, 0) == 0);
    CU_ASSERT(lds[602] == (uint32_t)three && lds[603] == (uint32_t)(three >> 32));
    /* ds_wrap_rtn_b32: tmp >= DATA ? tmp - DATA : tmp + DATA2 */
    lds[700] = 10;
    st_vset(E, 2, 2800);
    st_vset(E, 3, 4);
    st_vset(E, 4, 100);
    CU_ASSERT_FATAL(st_run(E, "ds_wrap_rtn_b32 v5, v2, v3, v4") == 0);
    waitall();
    CU_ASSERT(V(5, 0) == 10 && lds[700] == 6);
    lds[700] = 3;
    CU_ASSERT_FATAL(st_run(E, "ds_wrap_rtn_b32 v5, v2, v3, v4") == 0);
    waitall();
    CU_ASSERT(V(5, 0) == 3 && lds[700] == 103);
    sim_set_exec(E->w, ~0ull);
    /* a DS instruction that returns data is one lgkmcnt operation:
     * lgkmcnt(1) after two of them retires exactly the older one */
    CU_ASSERT(E->w->lgkm.n == 0);
    st_vset(E, 2, 3200);
    st_vset(E, 3, 1);
    st_vset(E, 10, 0xdead);
    st_vset(E, 6, 0xdead);
    CU_ASSERT_FATAL(st_run(E, "ds_add_rtn_u32 v10, v2, v3") == 0);
    CU_ASSERT(E->w->lgkm.n == 1);
    CU_ASSERT_FATAL(st_run(E, "ds_wrxchg2_rtn_b32 v[6:7], v2, v3, v3 offset1:1") == 0);
    CU_ASSERT(E->w->lgkm.n == 2);
    E->x.i = &E->si;
    sim_waitcnt(&E->x, SIM_VM_MAX, 1);
    CU_ASSERT(E->w->lgkm.n == 1);
    CU_ASSERT(V(10, 0) == 0 && V(6, 0) == 0xdead);
    waitall();
    CU_ASSERT(V(6, 0) == 64 && V(7, 0) == 0);
}

/* ds_swizzle FFT and rotate modes, checked against the CDNA4 ISA's worked
 * examples (inputs 1..0x20 in a group of 32 lanes) */
static void test_swizzle_modes(void)
{
    reset();
    for (unsigned l = 0; l < NL; l++)
        V(2, l) = (l & 31) + 1;
    static const uint32_t fft0[32] = {1, 0x11, 9, 0x19, 5, 0x15, 0xd, 0x1d, 3, 0x13, 0xb, 0x1b, 7,
                                      0x17, 0xf, 0x1f, 2, 0x12, 0xa, 0x1a, 6, 0x16, 0xe, 0x1e, 4,
                                      0x14, 0xc, 0x1c, 8, 0x18, 0x10, 0x20};
    static const uint32_t fft10[32] = {1, 9, 5, 0xd, 3, 0xb, 7, 0xf, 2, 0xa, 6, 0xe, 4, 0xc, 8,
                                       0x10, 0x11, 0x19, 0x15, 0x1d, 0x13, 0x1b, 0x17, 0x1f, 0x12,
                                       0x1a, 0x16, 0x1e, 0x14, 0x1c, 0x18, 0x20};
    CU_ASSERT_FATAL(st_run(E, "ds_swizzle_b32 v3, v2 offset:swizzle(FFT,0)") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(3, l) == fft0[l & 31]);
    CU_ASSERT_FATAL(st_run(E, "ds_swizzle_b32 v3, v2 offset:swizzle(FFT,16)") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(3, l) == fft10[l & 31]);
    CU_ASSERT_FATAL(st_run(E, "ds_swizzle_b32 v3, v2 offset:swizzle(FFT,31)") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(3, l) == (l & 31) + 1);
    /* rotate by 1, mask 0: left {2,3,...,0x20,1}, right {0x20,1,2,...} */
    CU_ASSERT_FATAL(st_run(E, "ds_swizzle_b32 v3, v2 offset:0xc020") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(3, l) == ((l + 1) & 31) + 1);
    CU_ASSERT_FATAL(st_run(E, "ds_swizzle_b32 v3, v2 offset:0xc420") == 0);
    waitall();
    for (unsigned l = 0; l < NL; l++)
        CU_ASSERT(V(3, l) == ((l + 31) & 31) + 1);
    /* rotate left by 1 with mask 1: {1,4,3,6,5,...,0x20,0x1f,2} */
    CU_ASSERT_FATAL(st_run(E, "ds_swizzle_b32 v3, v2 offset:0xc021") == 0);
    waitall();
    CU_ASSERT(V(3, 0) == 1 && V(3, 1) == 4 && V(3, 2) == 3 && V(3, 3) == 6);
    CU_ASSERT(V(3, 30) == 0x1f && V(3, 31) == 2 && V(3, 63) == 2);
    /* reading a lane whose EXEC bit is clear gives 0 */
    sim_set_exec(E->w, ~0ull & ~2ull);
    CU_ASSERT_FATAL(st_run(E, "ds_swizzle_b32 v3, v2 offset:0xc020") == 0);
    waitall();
    CU_ASSERT(V(3, 0) == 0 && V(3, 2) == 4);
    sim_set_exec(E->w, ~0ull);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    E = st_new(GCN_TARGET_GFX950);
    CU_pSuite s = CU_add_suite("memx", NULL, NULL);
    CU_add_test(s, "format: UNORM/SNORM/SCALED loads, missing components", test_fmt_unorm_snorm);
    CU_add_test(s, "format: UINT/SINT/FLOAT, DST_SEL, out of range, structured, bad formats",
                test_fmt_int_float_sel_oob);
    CU_add_test(s, "tbuffer: instruction format, packed 10/11-bit fields", test_fmt_tbuffer_packed);
    CU_add_test(s, "format stores: clamping and rounding, partial components", test_fmt_store);
    CU_add_test(s, "format d16: packing, preserved halves", test_fmt_d16);
    CU_add_test(s, "format LDS-DMA", test_fmt_lds_dma);
    CU_add_test(s, "scalar atomics: glc return at the wait, cmpswap, x2, buffer range",
                test_scalar_atomics);
    CU_add_test(s, "s_atc_probe: only an lgkmcnt ticket", test_atc_probe);
    CU_add_test(s, "DS: append/consume, wrxchg2, condxchg32, cmpst_f, wrap", test_ds_extras);
    CU_add_test(s, "ds_swizzle: FFT and rotate modes", test_swizzle_modes);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    st_free(E);
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
