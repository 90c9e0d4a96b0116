/*
 * gcn_run.h -- gcnrun, the on-device runner: one dispatch of a run manifest
 * (docs/manifest.md) on a real gfx942/gfx950 GPU through a device backend,
 * with the same buffers, the same kernarg bytes (gcn_kernarg_build) and the
 * same dump files as gcnsim, so the two can be compared bit for bit
 * (docs/gcnrun.md).
 *
 * The pipeline (run.c) knows nothing of HIP: it talks to a gcn_run_backend.
 * Backends: "hip" (dev_hip.c, only built when configure finds the HIP
 * runtime; dev_nohip.c stands in otherwise), "sim" (dev_sim.c: the gcnsim
 * simulator as the device -- a self-test of the pipeline, never a device
 * cross-check) and "none" (dev_sim.c: the simulator's buffer addresses and
 * no execution, for --print-kernarg without a GPU).
 *
 * Functions return GCN_RUN_OK or one of the codes below (gcnrun's exit
 * codes) with a message in err.
 */
#ifndef GCN_RUN_H
#define GCN_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "sim/manifest.h"

/* Exit codes of gcnrun; 0-3 mean what they mean for gcnsim and gcndis. */
enum {
    GCN_RUN_OK = 0,
    GCN_RUN_USAGE = 1,        /* bad command line */
    GCN_RUN_EINPUT = 2,       /* bad manifest, missing file, assembler error, code object */
    GCN_RUN_FAULT = 3,        /* the kernel faulted on the device or did not finish */
    GCN_RUN_NODEV = 5,        /* no gfx942/gfx950 device (or none for the manifest's targets) */
    GCN_RUN_ERUNTIME = 6,     /* the GPU runtime failed (allocation, copy, module load, launch) */
};

/* What a backend says about the device it opened. */
typedef struct gcn_run_devinfo {
    int index;                /* device ordinal, -1 for the simulator */
    char name[256];           /* "AMD Instinct MI300X" */
    char arch[256];           /* full target ID, "gfx942:sramecc+:xnack-" */
    char target[32];          /* processor, "gfx942" */
    char runtime[128];        /* "HIP 6.2.41133" */
    int runtime_version;      /* hipRuntimeGetVersion, 0 if none */
    int driver_version;       /* hipDriverGetVersion, 0 if none */
    char pci[64];             /* "0000:0c:00.0" or "" */
} gcn_run_devinfo;

/* A device.  Each function returns GCN_RUN_OK or an exit code with a message. */
typedef struct gcn_run_backend {
    const char *name;         /* "hip", "sim", "none" */
    void *self;
    /* List the devices (one line each on f), GCN_RUN_NODEV when none is a
     * gfx942/gfx950. */
    int (*list)(void *self, FILE *f, char *err, size_t errlen);
    /* Open device `index` (-1: the first gfx942/gfx950 device whose processor
     * is among targets[0..ntargets), all of them when ntargets is 0). */
    int (*open)(void *self, int index, const char *const *targets, unsigned ntargets,
                gcn_run_devinfo *info, char *err, size_t errlen);
    int (*alloc)(void *self, uint64_t size, const char *name, uint64_t *addr, char *err,
                 size_t errlen);
    int (*upload)(void *self, uint64_t addr, const void *src, uint64_t size, char *err,
                  size_t errlen);
    int (*download)(void *self, void *dst, uint64_t addr, uint64_t size, char *err,
                    size_t errlen);
    /* Load the code object (ELF bytes; co is the same, parsed) and launch
     * kernel k over grid workgroups of block work-items with the kernarg
     * bytes; wait at most timeout_s seconds for it to finish. */
    int (*launch)(void *self, const uint8_t *elf, size_t elf_len, const gcn_codeobj *co,
                  const gcn_kernel *k, const uint32_t grid[3], const uint32_t block[3],
                  uint32_t dynamic_lds, const uint8_t *kernarg, size_t kernarg_len,
                  unsigned timeout_s, char *err, size_t errlen);
    void (*close)(void *self);
} gcn_run_backend;

/* Backends.  gcn_run_hip_backend() is defined by dev_hip.c (or dev_nohip.c). */
gcn_run_backend *gcn_run_hip_backend(void);
gcn_run_backend *gcn_run_sim_backend(void);      /* executes on the simulator */
gcn_run_backend *gcn_run_none_backend(void);     /* addresses only, no execution */
void gcn_run_backend_free(gcn_run_backend *b);

typedef struct gcn_run_opts {
    const char *manifest;     /* run manifest path */
    const char *const *sets;  /* --set NAME=VALUE */
    unsigned nsets;
    const char *mcpu;         /* --mcpu, or NULL */
    int device;               /* --device N, or -1 */
    const char *dump_dir;     /* --dump-dir, or NULL */
    int print_kernarg;        /* print the kernarg bytes on kernarg_out and stop */
    FILE *kernarg_out;
    unsigned timeout_s;       /* 0: 60 */
} gcn_run_opts;

typedef struct gcn_run_result {
    gcn_run_devinfo dev;
    char target[32];
    char kernel[256];
    double seconds;           /* launch to completion, host clock */
} gcn_run_result;

/* The whole dispatch: manifest, device, code, buffers, kernarg, launch,
 * dumps.  Returns an exit code; err holds the message. */
int gcn_run_dispatch(const gcn_run_opts *o, gcn_run_backend *be, gcn_run_result *res, char *err,
                     size_t errlen);

/* Print kernarg bytes in the format of --print-kernarg:
 *   kernarg KERNEL TARGET SIZE
 *   buffer NAME 0xADDRESS           (one per buffer, in manifest order)
 *   0000: xx xx ... (16 bytes a line) */
void gcn_run_print_kernarg(FILE *f, const gcn_manifest *m, const char *kernel, const char *target,
                           const uint64_t *addr, const uint8_t *ka, size_t kalen);

/* Write a file atomically (temporary name in the same directory + rename). */
int gcn_run_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Processor name of a target ID: "gfx942:sramecc+:xnack-" -> "gfx942". */
void gcn_run_processor(const char *arch, char *out, size_t outlen);

#endif
