/*
 * simtest.c -- helpers of the simulator's unit tests (see simtest.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "simtest.h"
#include "../mcbytes.h"
#include "sim/manifest.h"

int st_assemble(gcn_target t, const char *asm_text, uint8_t *bytes, size_t *n)
{
    return mc_bytes(gcn_target_name(t), asm_text, 1, bytes, 16, n, stderr) > 0 ? 0 : -1;
}

st_env *st_new(gcn_target t)
{
    /* (the workgroup's pending-range table is inline; sim_x is 64-byte aligned) */
    st_env *e = aligned_alloc(_Alignof(st_env), (sizeof *e + 63) & ~(size_t)63);
    if (e)
        memset(e, 0, sizeof *e);
    gcn_sim_opts o = {.target = t};
    e->target = t;
    e->sim = gcn_sim_new(&o);
    e->w = sim_wave_new(256, 192);
    e->g.lds_size = 65536;
    e->g.lds = calloc(1, 65536);
    e->g.waves[0] = e->w;
    e->g.nwaves = 1;
    e->w->wg = &e->g;
    for (unsigned k = 0; k < SIM_NTICKETS; k++)
        e->w->tk[k].gid = (uint16_t)(k + 1);
    sim_set_exec(e->w, ~0ull);
    e->w->hw_mode = 0xf0 | 1u << 8 | 1u << 9;   /* denormals kept, DX10_CLAMP, IEEE */
    return e;
}

void st_free(st_env *e)
{
    if (!e)
        return;
    free(e->si.text);
    free(e->si.badmsg);
    free(e->g.lds);
    sim_wave_free(e->w);
    gcn_sim_free(e->sim);
    free(e);
}

int st_insn(st_env *e, const char *asm_text)
{
    uint8_t b[16];
    size_t n;
    if (st_assemble(e->target, asm_text, b, &n)) {
        fprintf(stderr, "cannot assemble: %s\n", asm_text);
        return -1;
    }
    gcn_decoder d = {.target = e->target};
    gcn_insn in;
    gcn_decode_one(&d, b, n, 0, &in);
    free(e->si.text);
    free(e->si.badmsg);
    sim_predecode(&e->si, &in, &d, e->w->accum, e->w->nvrows);
    snprintf(e->text, sizeof e->text, "%s", asm_text);
    if (in.id == GCN_ID_INVALID) {
        fprintf(stderr, "decoder rejects: %s\n", asm_text);
        return -1;
    }
    return 0;
}

int st_exec(st_env *e)
{
    e->sim->faulted = 0;
    e->sim->fault[0] = 0;
    int rc = sim_exec_one(e->sim, e->w, &e->g, &e->si, &e->x);
    if (rc)
        fprintf(stderr, "fault in '%s': %s\n", e->text, e->sim->fault);
    return rc;
}

/* cache of assembled instructions: text -> bytes (llvm-mc runs once per text) */
typedef struct st_cached {
    char *text;
    gcn_target t;
    uint8_t b[16];
    size_t n;
} st_cached;
static st_cached *cache;
static unsigned ncache, capcache;

int st_run(st_env *e, const char *asm_text)
{
    st_cached *c = NULL;
    for (unsigned i = 0; i < ncache; i++)
        if (cache[i].t == e->target && !strcmp(cache[i].text, asm_text))
            c = &cache[i];
    if (!c) {
        if (ncache == capcache) {
            capcache = capcache ? 2 * capcache : 64;
            cache = realloc(cache, capcache * sizeof *cache);
        }
        c = &cache[ncache];
        if (st_assemble(e->target, asm_text, c->b, &c->n)) {
            fprintf(stderr, "cannot assemble: %s\n", asm_text);
            return -1;
        }
        c->text = strdup(asm_text);
        c->t = e->target;
        ncache++;
    }
    gcn_decoder d = {.target = e->target};
    gcn_insn in;
    gcn_decode_one(&d, c->b, c->n, 0, &in);
    free(e->si.text);
    free(e->si.badmsg);
    sim_predecode(&e->si, &in, &d, e->w->accum, e->w->nvrows);
    snprintf(e->text, sizeof e->text, "%s", asm_text);
    if (in.id == GCN_ID_INVALID) {
        fprintf(stderr, "decoder rejects: %s\n", asm_text);
        return -1;
    }
    return st_exec(e);
}

void st_vset(st_env *e, unsigned r, uint32_t v)
{
    for (unsigned l = 0; l < NL; l++)
        e->w->v[r][l] = v;
}

void st_vsetf(st_env *e, unsigned r, float f)
{
    st_vset(e, r, f2u(f));
}

int st_kernel(gcn_target t, const char *src, unsigned grid, unsigned block, st_kbuf *bufs,
              unsigned nbufs, const uint32_t *scalars, unsigned nscalars, gcn_sim_result *res,
              char *msg, size_t msglen)
{
    char path[] = "/tmp/simtest-XXXXXX.s";
    int fd = mkstemps(path, 2);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    fputs(src, f);
    fclose(f);
    char err[2048];
    msg[0] = 0;
    gcn_codeobj *co = NULL;
    int rc = -1;
    gcn_sim *sim = NULL;
    if (gcn_mf_load_code(path, gcn_target_name(t), &co, err, sizeof err)) {
        snprintf(msg, msglen, "%s", err);
        unlink(path);
        return -1;
    }
    unlink(path);
    if (co->nkernels < 1) {
        snprintf(msg, msglen, "no kernel");
        gcn_co_close(co);
        return -1;
    }
    gcn_sim_opts o = {.target = t, .max_insns = 10000000};
    sim = gcn_sim_new(&o);
    uint64_t addr[16];
    size_t kalen = 8 * nbufs + 4 * nscalars;
    uint8_t *ka = calloc(1, kalen + 8);
    for (unsigned i = 0; i < nbufs; i++) {
        gcn_sim_alloc(sim, bufs[i].size, bufs[i].name, &addr[i]);
        memcpy(gcn_sim_host(sim, addr[i], bufs[i].size), bufs[i].data, bufs[i].size);
        memcpy(ka + 8 * i, &addr[i], 8);
    }
    memcpy(ka + 8 * nbufs, scalars, 4 * nscalars);
    gcn_dispatch d = {.co = co, .kernel = &co->kernels[0], .grid = {grid, 1, 1},
                      .block = {block, 1, 1}, .kernarg = ka, .kernarg_size = kalen};
    int st = gcn_sim_run(sim, &d, res);
    char *buf = NULL;
    size_t blen = 0;
    FILE *mf = open_memstream(&buf, &blen);
    if (res->nfindings)
        gcn_sim_print_findings(mf, res, 50);
    if (st)
        fprintf(mf, "FAULT: %s\n", res->msg);
    fclose(mf);
    snprintf(msg, msglen, "%s", buf ? buf : "");
    free(buf);
    for (unsigned i = 0; i < nbufs; i++)
        memcpy(bufs[i].data, gcn_sim_host(sim, addr[i], bufs[i].size), bufs[i].size);
    rc = st == GCN_SIM_FAULT ? 3 : st ? -1 : res->nfindings ? 4 : 0;
    res->findings = NULL;
    free(ka);
    gcn_sim_free(sim);
    gcn_co_close(co);
    return rc;
}

void st_waitall(st_env *e)
{
    e->x.i = &e->si;
    sim_waitcnt(&e->x, 0, 0);
}

void st_reset_mem(st_env *e)
{
    sim_wave_reset(e->w);
    sim_set_exec(e->w, ~0ull);
    e->w->hw_mode = 0xf0 | 3u << 8;
    for (unsigned k = 0; k < SIM_NTICKETS; k++)
        e->w->tk[k].gid = (uint16_t)(k + 1);
    memset(e->g.lds, 0, e->g.lds_size);
    e->g.nlr = 0;
}
