/*
 * dev_sim.c -- gcnrun backends without a GPU:
 *   "sim"  the gcnsim simulator as the device: buffers are gcn_sim
 *          allocations (the very addresses gcnsim gives them, in the same
 *          order), the launch is gcn_sim_run.  It checks gcnrun's own
 *          pipeline (dumps, run.json, kernarg) against gcnsim on machines
 *          without a GPU; it is never a device cross-check.
 *   "none" the same addresses and no execution: --print-kernarg without a
 *          device.
 * Wait-counter findings of the simulator are not reported here (gcnsim does
 * that); a simulator fault is a kernel fault (exit 3).  The workgroups run on one
 * thread per CPU, as gcnsim's default -j does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_decode.h"
#include "config.h"
#include "run/gcn_run.h"
#include "sim/gcn_sim.h"

typedef struct simdev {
    int execute;                 /* "sim" (1) or "none" (0) */
    gcn_sim *sim;
    gcn_target target;
} simdev;


static int sd_list(void *self, FILE *f, char *err, size_t errlen)
{
    simdev *d = self;
    for (int i = 0; i < 2; i++)
        fprintf(f, "%s: %s (%s) gcnsim simulator, %s\n", d->execute ? "sim" : "none",
                i ? "gfx950" : "gfx942", i ? "gfx950" : "gfx942",
                d->execute ? "self-test backend, not a GPU" : "addresses only, no execution");
    return GCN_RUN_OK;
}

static int sd_open(void *self, int index, const char *const *targets, unsigned ntargets,
                   gcn_run_devinfo *info, char *err, size_t errlen)
{
    simdev *d = self;
    const char *t = ntargets ? targets[0] : "gfx942";
    d->target = gcn_target_from_name(t);
    if (d->target != GCN_TARGET_GFX942 && d->target != GCN_TARGET_GFX950) {
        gcn_seterr(err, errlen, "no gfx942/gfx950 device: the simulator has no %s", t);
        return GCN_RUN_NODEV;
    }
    /* the workgroups on every CPU: the results are those of one thread (docs/gcnsim.md,
     * "Threads") */
    gcn_sim_opts o = {.target = d->target, .threads = gcn_sim_cpus()};
    d->sim = gcn_sim_new(&o);
    if (!d->sim) {
        gcn_seterr(err, errlen, "out of memory");
        return GCN_RUN_ERUNTIME;
    }
    memset(info, 0, sizeof *info);
    info->index = -1;
    snprintf(info->name, sizeof info->name, "%s",
             d->execute ? "gcnsim simulator (self-test backend)" : "none (addresses only)");
    snprintf(info->arch, sizeof info->arch, "%s", gcn_target_name(d->target));
    snprintf(info->target, sizeof info->target, "%s", gcn_target_name(d->target));
    snprintf(info->runtime, sizeof info->runtime, "gcnsim %s", PACKAGE_VERSION);
    return GCN_RUN_OK;
}

static int sd_alloc(void *self, uint64_t size, const char *name, uint64_t *addr, char *err,
                    size_t errlen)
{
    simdev *d = self;
    if (gcn_sim_alloc(d->sim, size, name, addr)) {
        gcn_seterr(err, errlen, "cannot allocate %llu bytes", (unsigned long long)size);
        return GCN_RUN_ERUNTIME;
    }
    return GCN_RUN_OK;
}

static int sd_upload(void *self, uint64_t addr, const void *src, uint64_t size, char *err,
                     size_t errlen)
{
    simdev *d = self;
    uint8_t *h = gcn_sim_host(d->sim, addr, size);
    if (!h) {
        gcn_seterr(err, errlen, "0x%llx: not allocated", (unsigned long long)addr);
        return GCN_RUN_ERUNTIME;
    }
    memcpy(h, src, size);
    return GCN_RUN_OK;
}

static int sd_download(void *self, void *dst, uint64_t addr, uint64_t size, char *err,
                       size_t errlen)
{
    simdev *d = self;
    uint8_t *h = gcn_sim_host(d->sim, addr, size);
    if (!h) {
        gcn_seterr(err, errlen, "0x%llx: not allocated", (unsigned long long)addr);
        return GCN_RUN_ERUNTIME;
    }
    memcpy(dst, h, size);
    return GCN_RUN_OK;
}

static int sd_launch(void *self, const uint8_t *elf, size_t elf_len, const gcn_codeobj *co,
                     const gcn_kernel *k, const uint32_t grid[3], const uint32_t block[3],
                     uint32_t dynamic_lds, const uint8_t *kernarg, size_t kernarg_len,
                     unsigned timeout_s, char *err, size_t errlen)
{
    simdev *d = self;
    if (!d->execute) {
        gcn_seterr(err, errlen, "the \"none\" backend does not execute kernels");
        return GCN_RUN_ERUNTIME;
    }
    gcn_dispatch dp = {.co = co, .kernel = k, .kernarg = kernarg, .kernarg_size = kernarg_len,
                       .dynamic_lds = dynamic_lds};
    memcpy(dp.grid, grid, sizeof dp.grid);
    memcpy(dp.block, block, sizeof dp.block);
    gcn_sim_result r;
    int st = gcn_sim_run(d->sim, &dp, &r);
    if (st == GCN_SIM_EINPUT) {
        gcn_seterr(err, errlen, "%s", r.msg);
        return GCN_RUN_EINPUT;
    }
    if (st != GCN_SIM_OK) {
        gcn_seterr(err, errlen, "kernel fault (simulator): %s", r.msg);
        return GCN_RUN_FAULT;
    }
    return GCN_RUN_OK;
}

static void sd_close(void *self)
{
    simdev *d = self;
    gcn_sim_free(d->sim);
    d->sim = NULL;
}

static gcn_run_backend *make(int execute)
{
    gcn_run_backend *b = calloc(1, sizeof *b);
    simdev *d = calloc(1, sizeof *d);
    if (!b || !d) {
        free(b);
        free(d);
        return NULL;
    }
    d->execute = execute;
    b->name = execute ? "sim" : "none";
    b->self = d;
    b->list = sd_list;
    b->open = sd_open;
    b->alloc = sd_alloc;
    b->upload = sd_upload;
    b->download = sd_download;
    b->launch = sd_launch;
    b->close = sd_close;
    return b;
}

gcn_run_backend *gcn_run_sim_backend(void)
{
    return make(1);
}

gcn_run_backend *gcn_run_none_backend(void)
{
    return make(0);
}

void gcn_run_backend_free(gcn_run_backend *b)
{
    if (!b)
        return;
    free(b->self);
    free(b);
}
