/*
 * manifest.h -- run manifests (docs/manifest.md): loading and resolving a
 * manifest (params, --set overrides, expressions), making the initial bytes
 * of its buffers, building the kernarg segment for a code object's kernel,
 * loading its code (assembling .s with clang-22), and writing run.json.
 *
 * This is library code shared by gcnsim and the on-device runner gcnrun, so
 * both run exactly the same dispatch.  Functions return 0 on success or -1
 * with a message in err that names the file and the problem.
 */
#ifndef GCN_MANIFEST_H
#define GCN_MANIFEST_H

#include <stddef.h>
#include <stdint.h>
#include "gcn_codeobj.h"

typedef enum gcn_mf_init {
    GCN_MF_INIT_ZERO = 0,
    GCN_MF_INIT_FILL,
    GCN_MF_INIT_FILE,
    GCN_MF_INIT_RANDOM,
} gcn_mf_init;

typedef enum gcn_mf_rtype {
    GCN_MF_R_F32 = 0, GCN_MF_R_F16, GCN_MF_R_BF16, GCN_MF_R_U32, GCN_MF_R_I32, GCN_MF_R_U8,
} gcn_mf_rtype;

typedef struct gcn_mf_buffer {
    char *name;
    uint64_t size;
    gcn_mf_init init;
    unsigned fill;               /* FILL: byte value */
    char *file;                  /* FILE: path (resolved against the manifest's directory) */
    uint64_t file_offset;        /* FILE: first byte of the file taken ("offset", default 0) */
    uint64_t file_bytes;         /* FILE: bytes taken ("bytes"), if file_has_bytes */
    int file_has_bytes;
    int file_prefix;             /* FILE: "prefix": true, a longer file fills the buffer with
                                  * its first bytes (from file_offset) */
    gcn_mf_rtype rtype;          /* RANDOM */
    uint64_t seed;
} gcn_mf_buffer;

typedef enum gcn_mf_argkind {
    GCN_MF_ARG_BUFFER = 0, GCN_MF_ARG_U32, GCN_MF_ARG_I32, GCN_MF_ARG_U64, GCN_MF_ARG_I64,
    GCN_MF_ARG_F32, GCN_MF_ARG_F64,
    GCN_MF_ARG_BYTES,            /* raw bytes: a by-value struct ({"bytes": [B, ...]}) */
} gcn_mf_argkind;

typedef struct gcn_mf_arg {
    gcn_mf_argkind kind;
    unsigned buf;                /* BUFFER: index into bufs */
    int64_t ival;                /* integer kinds */
    double fval;                 /* float kinds */
    uint8_t *bytes;              /* BYTES: the value, nbytes long (owned) */
    unsigned nbytes;
} gcn_mf_arg;

typedef struct gcn_mf_param {
    char *name;
    int64_t value;
} gcn_mf_param;

/* One entry of "test_sizes": a set of param overrides. */
typedef struct gcn_mf_size {
    gcn_mf_param *sets;
    unsigned nsets;
} gcn_mf_size;

typedef struct gcn_manifest {
    char *path;                  /* manifest file (or a name for built-in manifests) */
    char *dir;                   /* its directory */
    char *code;                  /* code path, resolved */
    char *kernel;                /* kernel name (NULL: the only kernel) */
    char **targets;
    unsigned ntargets;
    gcn_mf_param *params;        /* resolved, in manifest order, overrides applied */
    unsigned nparams;
    uint32_t grid[3], block[3];  /* workgroups, work-items per workgroup */
    uint32_t dynamic_lds;
    gcn_mf_buffer *bufs;
    unsigned nbufs;
    gcn_mf_arg *args;
    unsigned nargs;
    unsigned *outputs;           /* buffer indices */
    unsigned noutputs;
    char *reference;             /* reference program name or NULL */
    gcn_mf_size *sizes;          /* "test_sizes" */
    unsigned nsizes;
    int cli;                     /* made from command-line options (gcnsim --arg/--buffer), not
                                    a manifest file: messages say so */
} gcn_manifest;

/* Where a manifest's arguments come from, for messages: "the manifest" or
 * "the command line (--arg)". */
const char *gcn_mf_source(const gcn_manifest *m);

/* Load and resolve a manifest.  sets: "NAME=VALUE" overrides (--set). */
int gcn_mf_load(const char *path, const char *const *sets, unsigned nsets, gcn_manifest **out,
                char *err, size_t errlen);
/* Same from JSON text; name is used in messages, dir resolves relative paths. */
int gcn_mf_parse(const char *name, const char *dir, const char *json, const char *const *sets,
                 unsigned nsets, gcn_manifest **out, char *err, size_t errlen);
void gcn_mf_free(gcn_manifest *m);

/* Evaluate an integer expression over the manifest's params. */
int gcn_mf_eval(const gcn_manifest *m, const char *expr, int64_t *val, char *err, size_t errlen);

/* The fixed random generator of "random" buffers (xorshift64*). */
uint64_t gcn_mf_rng_next(uint64_t *state);
/* Fill dst (bufs[i].size bytes) with buffer i's initial bytes. */
int gcn_mf_fill(const gcn_manifest *m, unsigned i, uint8_t *dst, char *err, size_t errlen);
/* Index of a buffer by name, or -1. */
int gcn_mf_buffer_index(const gcn_manifest *m, const char *name);

/* Target to use: mcpu if given (must be one of targets when the manifest
 * lists them), else the first target, else the code object's. */
int gcn_mf_target(const gcn_manifest *m, const char *mcpu, const char **target, char *err,
                  size_t errlen);

/* Load the code object for a target: .hsaco / ELF, clang offload bundle (the
 * entry for the target), or .s assembled with clang-22 (GCN_CLANG overrides). */
int gcn_mf_load_code(const char *path, const char *target, gcn_codeobj **co, char *err,
                     size_t errlen);
/* The same, also returning a malloc'ed copy of the code object's ELF bytes
 * (the bundle entry, or the assembled file) in *image: what gcnrun hands to
 * the GPU runtime, so the device runs exactly the code the simulator reads. */
int gcn_mf_load_code_image(const char *path, const char *target, gcn_codeobj **co,
                           uint8_t **image, size_t *image_len, char *err, size_t errlen);

/* Load the manifest's code for the target it is to run on, and say which
 * (*target, a static name): --mcpu when given (one of the manifest's
 * targets, if it lists them); else the manifest's only target; else the
 * target the code states (an ELF object's e_flags, the first gfx942/gfx950
 * entry of a bundle, the .amdgcn_target of assembly source), which must be
 * among the manifest's targets when it lists them; assembly source that
 * states none is assembled for the manifest's first target. */
int gcn_mf_load_code_for(const gcn_manifest *m, const char *mcpu, gcn_codeobj **co,
                         const char **target, char *err, size_t errlen);

/* Find the kernel the manifest names (or the only one), and check that the
 * manifest's block fits it (gcn_mf_check_block). */
int gcn_mf_kernel(const gcn_manifest *m, const gcn_codeobj *co, const gcn_kernel **k, char *err,
                  size_t errlen);

/* Whether the manifest's block fits kernel k's launch bounds (its metadata's
 * .max_flat_workgroup_size); -1 with a message when it does not. */
int gcn_mf_check_block(const gcn_manifest *m, const gcn_kernel *k, char *err, size_t errlen);

/* The largest kernarg segment gcn_kernarg_build makes: 1 MiB, a sanity bound
 * far above any real kernel's (HIP kernels take a few hundred bytes). */
#define GCN_KERNARG_MAX (1u << 20)

/* Build the kernarg segment: explicit arguments at the offsets of the kernel's
 * metadata, hidden arguments as the HIP runtime fills them.  buf_addr[i] is
 * the device address of bufs[i].  *out is malloc'ed. */
int gcn_kernarg_build(const gcn_manifest *m, const gcn_kernel *k, const uint64_t *buf_addr,
                      uint8_t **out, size_t *outlen, char *err, size_t errlen);

/* ---- a kernel's arguments as the metadata describes them (argtmpl.c) ---- */

/* Whether a metadata argument is hidden (value kind hidden_*): filled by the runtime. */
int gcn_kernarg_is_hidden(const gcn_kernarg *a);
/* The manifest argument kind that fits a metadata argument: "buffer" (a global
 * pointer), "u32" (an LDS pointer: its offset), "i32", "u32", "i64", "u64",
 * "f32", "f64" (from .type_name where the metadata has one, else from the
 * size), or "bytes" (a by-value struct, or any other size). */
const char *gcn_kernarg_suggest(const gcn_kernarg *a);
/* A table of kernel k's arguments (index, offset, size, value kind, address
 * space and access of pointers, type, name; hidden arguments marked, with the
 * value gcnsim gives them), one line each, every line starting with indent;
 * malloc'ed in *text.  Returns 0 or -1 (out of memory). */
int gcn_kernarg_table(const gcn_kernel *k, const char *indent, char **text);

/* A manifest for kernel k of a code object, made from its metadata: a buffer
 * per global pointer (named by the metadata's .name, else "argI"), a scalar
 * arg per by-value argument ({"bytes": [...]} for a struct), an LDS offset
 * per dynamic LDS pointer (with dynamic_lds), grid 1 and block from
 * .reqd_workgroup_size when the metadata has one, else 64 work-items.
 * Template (what --manifest-template writes): buffers of "N*ELEM" bytes
 * (ELEM from .type_name, else 4) with a param N = 1024, zero-filled,
 * scalars 0, outputs the buffers not const or read_only (all when every one
 * is).  Defaults (what --default-args runs): buffers of buf_size bytes,
 * zero or random (u32 seeded by the argument's index), every scalar =
 * scalar, structs zero.  code: the "code" path to write.  *json is malloc'ed
 * JSON text that gcn_mf_parse accepts. */
typedef struct gcn_mf_tmpl {
    int defaults;                /* 0: template, 1: defaults to run */
    const char *init;            /* defaults: "zero" or "random" */
    uint64_t buf_size;           /* defaults: bytes per buffer */
    int64_t scalar;              /* defaults: the value of every scalar */
    const char *target;          /* "targets": [target] (NULL: none) */
} gcn_mf_tmpl;
int gcn_mf_template(const gcn_kernel *k, const char *code, const gcn_mf_tmpl *o, char **json,
                    char *err, size_t errlen);

/* For a code file given in place of the manifest's "code" (gcnsim --code): whether
 * kernel k's explicit arguments (its metadata) are the manifest's args -- the same
 * count, and each at the size and offset the manifest's kinds give in order (each
 * aligned to its size), pointers where the manifest gives buffers.  file names the
 * code in messages. */
int gcn_mf_check_args(const gcn_manifest *m, const gcn_kernel *k, const char *file, char *err,
                      size_t errlen);

/* run.json of a dump directory: resolved params, grid, block, target, args. */
int gcn_mf_run_json(const gcn_manifest *m, const char *target, char **json, char *err,
                    size_t errlen);

#endif
