/*
 * dev_hip.c -- gcnrun's "hip" backend: a gfx942/gfx950 GPU through the HIP
 * runtime (libamdhip64, C API).  Buffers are hipMalloc allocations; the code
 * object's ELF bytes are loaded with hipModuleLoadData and the kernel is
 * launched with hipModuleLaunchKernel, its kernarg segment passed whole as
 * HIP_LAUNCH_PARAM_BUFFER_POINTER (the runtime copies the explicit arguments
 * from their metadata offsets and fills the hidden ones itself), then the
 * stream is polled until the kernel finishes or the timeout passes.
 * Compiled only when configure finds the HIP runtime (HAVE_HIP).
 */
#include <hip/hip_runtime_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gcn_decode.h"
#include "run/gcn_run.h"

typedef struct hipdev {
    int index;
    void **allocs;
    unsigned nallocs, cap;
    hipModule_t mod;
    hipStream_t stream;
    int hung;                    /* the kernel did not finish: leave everything as it is */
} hipdev;


static void hip_msg(char *err, size_t errlen, const char *what, hipError_t e)
{
    gcn_seterr(err, errlen, "%s: %s (%d): %s", what, hipGetErrorName(e), (int)e, hipGetErrorString(e));
}

/* The version integers of hipRuntimeGetVersion / hipDriverGetVersion:
 * major * 10000000 + minor * 100000 + patch. */
static void fmt_version(int v, char *out, size_t n)
{
    snprintf(out, n, "%d.%d.%d", v / 10000000, (v / 100000) % 100, v % 100000);
}

static int is_cdna3(const char *processor)
{
    return !strcmp(processor, "gfx942") || !strcmp(processor, "gfx950");
}

static int device_count(int *n, char *err, size_t errlen)
{
    *n = 0;
    hipError_t e = hipGetDeviceCount(n);
    if (e == hipErrorNoDevice || (e == hipSuccess && *n == 0)) {
        gcn_seterr(err, errlen, "no gfx942/gfx950 device: the HIP runtime sees no AMD GPU "
               "(hipGetDeviceCount: %s)", e == hipSuccess ? "0 devices" : hipGetErrorName(e));
        return GCN_RUN_NODEV;
    }
    if (e != hipSuccess) {
        /* no kernel driver (/dev/kfd), no permission, ...: still "no usable device" */
        gcn_seterr(err, errlen, "no gfx942/gfx950 device: hipGetDeviceCount failed: %s (%d): %s",
               hipGetErrorName(e), (int)e, hipGetErrorString(e));
        return GCN_RUN_NODEV;
    }
    return GCN_RUN_OK;
}

static int props(int i, gcn_run_devinfo *info, char *err, size_t errlen)
{
    hipDeviceProp_t p;
    memset(&p, 0, sizeof p);
    hipError_t e = hipGetDeviceProperties(&p, i);
    if (e != hipSuccess) {
        hip_msg(err, errlen, "hipGetDeviceProperties", e);
        return GCN_RUN_ERUNTIME;
    }
    memset(info, 0, sizeof *info);
    info->index = i;
    snprintf(info->name, sizeof info->name, "%s", p.name);
    snprintf(info->arch, sizeof info->arch, "%s", p.gcnArchName);
    gcn_run_processor(info->arch, info->target, sizeof info->target);
    snprintf(info->pci, sizeof info->pci, "%04x:%02x:%02x.0", (unsigned)p.pciDomainID,
             (unsigned)p.pciBusID, (unsigned)p.pciDeviceID);
    int rv = 0, dv = 0;
    if (hipRuntimeGetVersion(&rv) != hipSuccess)
        rv = 0;
    if (hipDriverGetVersion(&dv) != hipSuccess)
        dv = 0;
    info->runtime_version = rv;
    info->driver_version = dv;
    char a[32], b[32];
    fmt_version(rv, a, sizeof a);
    fmt_version(dv, b, sizeof b);
    snprintf(info->runtime, sizeof info->runtime, "HIP runtime %s, driver %s (headers %d.%d.%d)", a,
             b, HIP_VERSION_MAJOR, HIP_VERSION_MINOR, HIP_VERSION_PATCH);
    return GCN_RUN_OK;
}

static int hd_list(void *self, FILE *f, char *err, size_t errlen)
{
    int n, rc = device_count(&n, err, errlen);
    if (rc)
        return rc;
    int good = 0;
    for (int i = 0; i < n; i++) {
        gcn_run_devinfo d;
        if ((rc = props(i, &d, err, errlen)))
            return rc;
        int ok = is_cdna3(d.target);
        good += ok;
        /* "INDEX: TARGET (TARGET ID) NAME, pci ..., RUNTIME"; TARGET is "-" when unusable */
        fprintf(f, "%d: %s (%s) %s, pci %s, %s%s\n", i, ok ? d.target : "-", d.arch, d.name, d.pci,
                d.runtime, ok ? "" : " [not gfx942/gfx950: not usable]");
    }
    if (!good) {
        gcn_seterr(err, errlen, "no gfx942/gfx950 device among the %d AMD GPU%s", n, n == 1 ? "" : "s");
        return GCN_RUN_NODEV;
    }
    return GCN_RUN_OK;
}

static int wanted(const char *processor, const char *const *targets, unsigned ntargets)
{
    if (!is_cdna3(processor))
        return 0;
    if (!ntargets)
        return 1;
    for (unsigned i = 0; i < ntargets; i++)
        if (!strcmp(targets[i], processor))
            return 1;
    return 0;
}

static void targets_text(const char *const *targets, unsigned ntargets, char *out, size_t n)
{
    snprintf(out, n, "%s", ntargets ? "" : "gfx942/gfx950");
    for (unsigned i = 0; i < ntargets; i++) {
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s%s", i ? "/" : "", targets[i]);
    }
}

static int hd_open(void *self, int index, const char *const *targets, unsigned ntargets,
                   gcn_run_devinfo *info, char *err, size_t errlen)
{
    hipdev *d = self;
    int n, rc = device_count(&n, err, errlen);
    if (rc)
        return rc;
    char want[64];
    targets_text(targets, ntargets, want, sizeof want);
    int pick = -1;
    char seen[512] = "";
    for (int i = 0; i < n; i++) {
        if (index >= 0 && i != index)
            continue;
        gcn_run_devinfo di;
        if ((rc = props(i, &di, err, errlen)))
            return rc;
        size_t l = strlen(seen);
        snprintf(seen + l, sizeof seen - l, "%s%d: %s", l ? ", " : "", i, di.arch);
        if (wanted(di.target, targets, ntargets)) {
            pick = i;
            *info = di;
            break;
        }
    }
    if (pick < 0) {
        if (index >= n)
            gcn_seterr(err, errlen, "no gfx942/gfx950 device: --device %d, but the HIP runtime sees "
                   "%d device%s", index, n, n == 1 ? "" : "s");
        else
            gcn_seterr(err, errlen, "no gfx942/gfx950 device for target %s (devices: %s)", want, seen);
        return GCN_RUN_NODEV;
    }
    hipError_t e = hipSetDevice(pick);
    if (e != hipSuccess) {
        hip_msg(err, errlen, "hipSetDevice", e);
        return GCN_RUN_ERUNTIME;
    }
    d->index = pick;
    return GCN_RUN_OK;
}

static int hd_alloc(void *self, uint64_t size, const char *name, uint64_t *addr, char *err,
                    size_t errlen)
{
    hipdev *d = self;
    if (d->nallocs == d->cap) {
        unsigned nc = d->cap ? 2 * d->cap : 16;
        void **na = realloc(d->allocs, nc * sizeof *na);
        if (!na) {
            gcn_seterr(err, errlen, "out of memory");
            return GCN_RUN_ERUNTIME;
        }
        d->allocs = na;
        d->cap = nc;
    }
    void *p = NULL;
    hipError_t e = hipMalloc(&p, size ? size : 1);
    if (e != hipSuccess) {
        hip_msg(err, errlen, "hipMalloc", e);
        return GCN_RUN_ERUNTIME;
    }
    d->allocs[d->nallocs++] = p;
    *addr = (uint64_t)(uintptr_t)p;
    return GCN_RUN_OK;
}

static int hd_upload(void *self, uint64_t addr, const void *src, uint64_t size, char *err,
                     size_t errlen)
{
    hipError_t e = hipMemcpy((void *)(uintptr_t)addr, src, size, hipMemcpyHostToDevice);
    if (e != hipSuccess) {
        hip_msg(err, errlen, "hipMemcpy (host to device)", e);
        return GCN_RUN_ERUNTIME;
    }
    return GCN_RUN_OK;
}

static int hd_download(void *self, void *dst, uint64_t addr, uint64_t size, char *err,
                       size_t errlen)
{
    hipError_t e = hipMemcpy(dst, (const void *)(uintptr_t)addr, size, hipMemcpyDeviceToHost);
    if (e != hipSuccess) {
        hip_msg(err, errlen, "hipMemcpy (device to host)", e);
        return GCN_RUN_ERUNTIME;
    }
    return GCN_RUN_OK;
}

static int hd_launch(void *self, const uint8_t *elf, size_t elf_len, const gcn_codeobj *co,
                     const gcn_kernel *k, const uint32_t grid[3], const uint32_t block[3],
                     uint32_t dynamic_lds, const uint8_t *kernarg, size_t kernarg_len,
                     unsigned timeout_s, char *err, size_t errlen)
{
    hipdev *d = self;
    (void)elf_len;
    (void)co;
    hipError_t e = hipModuleLoadData(&d->mod, elf);
    if (e != hipSuccess) {
        d->mod = NULL;
        hip_msg(err, errlen, "hipModuleLoadData (is the runtime new enough for this target?)", e);
        return GCN_RUN_ERUNTIME;
    }
    hipFunction_t fn;
    e = hipModuleGetFunction(&fn, d->mod, k->name);
    if (e != hipSuccess) {
        hip_msg(err, errlen, "hipModuleGetFunction", e);
        return GCN_RUN_ERUNTIME;
    }
    e = hipStreamCreate(&d->stream);
    if (e != hipSuccess) {
        d->stream = NULL;
        hip_msg(err, errlen, "hipStreamCreate", e);
        return GCN_RUN_ERUNTIME;
    }
    size_t size = kernarg_len;
    void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, (void *)(uintptr_t)kernarg,
                     HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
    e = hipModuleLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                              dynamic_lds, d->stream, NULL, extra);
    if (e != hipSuccess) {
        hip_msg(err, errlen, "hipModuleLaunchKernel", e);
        return GCN_RUN_ERUNTIME;
    }
    struct timespec t0, t1, nap = {0, 1000000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        e = hipStreamQuery(d->stream);
        if (e != hipErrorNotReady)
            break;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (t1.tv_sec - t0.tv_sec >= (time_t)timeout_s) {
            gcn_seterr(err, errlen, "the kernel did not finish within %u s (a hang; the GPU queue is "
                   "torn down when gcnrun exits)", timeout_s);
            d->hung = 1;
            return GCN_RUN_FAULT;
        }
        nanosleep(&nap, NULL);
    }
    if (e != hipSuccess) {
        hip_msg(err, errlen, "kernel execution", e);
        return GCN_RUN_FAULT;
    }
    return GCN_RUN_OK;
}

static void hd_close(void *self)
{
    hipdev *d = self;
    /* destroying the stream or freeing memory of a running kernel would wait for it */
    if (d->hung)
        return;
    if (d->stream)
        hipStreamDestroy(d->stream);
    if (d->mod)
        hipModuleUnload(d->mod);
    for (unsigned i = 0; i < d->nallocs; i++)
        hipFree(d->allocs[i]);
    free(d->allocs);
    d->allocs = NULL;
    d->nallocs = d->cap = 0;
    d->stream = NULL;
    d->mod = NULL;
}

gcn_run_backend *gcn_run_hip_backend(void)
{
    gcn_run_backend *b = calloc(1, sizeof *b);
    hipdev *d = calloc(1, sizeof *d);
    if (!b || !d) {
        free(b);
        free(d);
        return NULL;
    }
    b->name = "hip";
    b->self = d;
    b->list = hd_list;
    b->open = hd_open;
    b->alloc = hd_alloc;
    b->upload = hd_upload;
    b->download = hd_download;
    b->launch = hd_launch;
    b->close = hd_close;
    return b;
}
