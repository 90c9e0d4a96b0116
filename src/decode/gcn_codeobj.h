/*
 * gcn_codeobj.h -- reading AMDGPU code objects (.hsaco): ELF via libelf, the
 * target from e_flags, symbols, kernel descriptors, the NT_AMDGPU_METADATA
 * msgpack note, .debug_line (libdw), and clang offload bundles.
 *
 * Facts from LLVM's AMDGPUUsage.rst ("Code Object", "Kernel Descriptor",
 * "Code Object V5 Metadata") and llvm/include/llvm/Support/AMDHSAKernelDescriptor.h.
 * Every function returns 0 on success or a negative GCN_CO_E* code with a
 * message in the caller's gcn_co_err (naming the file and the problem).
 */
#ifndef GCN_CODEOBJ_H
#define GCN_CODEOBJ_H

#include <stddef.h>
#include <stdint.h>
#include "gcn_isa.h"

enum {
    GCN_CO_OK = 0,
    GCN_CO_EIO = -1,        /* cannot open/read */
    GCN_CO_EFORMAT = -2,    /* not an ELF / not AMDGPU / corrupt */
    GCN_CO_ETARGET = -3,    /* AMDGPU but a target we do not support */
    GCN_CO_ENOMEM = -4,
};

typedef struct gcn_co_err {
    char msg[512];
} gcn_co_err;

/* Kernel descriptor (64 bytes), decoded into named fields. */
typedef struct gcn_kd {
    uint32_t group_segment_fixed_size;
    uint32_t private_segment_fixed_size;
    uint32_t kernarg_size;
    int64_t kernel_code_entry_byte_offset;   /* relative to the descriptor's address */
    uint32_t compute_pgm_rsrc1, compute_pgm_rsrc2, compute_pgm_rsrc3;
    uint16_t kernel_code_properties;
    uint16_t kernarg_preload;                /* raw word at offset 0x3A */
    /* derived */
    unsigned vgpr_granules, sgpr_granules;   /* rsrc1 fields */
    unsigned next_free_vgpr;                 /* (granules+1)*8 on gfx90a+ (arch VGPR + AGPR) */
    unsigned accum_offset;                   /* rsrc3[5:0]: (value+1)*4 */
    unsigned user_sgpr_count;                /* rsrc2 */
    unsigned enable_sgpr_workgroup_id[3];    /* rsrc2 */
    unsigned enable_sgpr_workgroup_info;
    unsigned enable_vgpr_workitem_id;        /* 0: x, 1: x,y, 2: x,y,z */
    unsigned enable_private_segment;         /* rsrc2 bit 0 */
    unsigned float_round_mode_32, float_round_mode_16_64;
    unsigned float_denorm_mode_32, float_denorm_mode_16_64;
    unsigned ieee_mode, dx10_clamp, tg_split;
    /* kernel_code_properties bits */
    unsigned user_sgpr_private_segment_buffer, user_sgpr_dispatch_ptr, user_sgpr_queue_ptr,
             user_sgpr_kernarg_segment_ptr, user_sgpr_dispatch_id, user_sgpr_flat_scratch_init,
             user_sgpr_private_segment_size, enable_wavefront_size32, uses_dynamic_stack;
    unsigned kernarg_preload_length, kernarg_preload_offset;
} gcn_kd;

/* Value kinds of kernel arguments (metadata .value_kind). */
typedef struct gcn_kernarg {
    char *name;          /* may be NULL */
    char *value_kind;    /* "by_value", "global_buffer", "hidden_block_count_x", ... */
    char *address_space; /* may be NULL */
    uint32_t offset, size;
} gcn_kernarg;

typedef struct gcn_kernel {
    char *name;                  /* symbol name without ".kd" */
    uint64_t kd_addr;            /* address of the descriptor symbol */
    uint64_t entry_addr;         /* kd_addr + kernel_code_entry_byte_offset */
    uint64_t code_size;          /* size of the function symbol if known, else 0 */
    gcn_kd kd;
    /* from the metadata note (0/NULL when absent) */
    gcn_kernarg *args;
    unsigned nargs;
    uint32_t md_kernarg_segment_size, md_group_segment_fixed_size,
             md_private_segment_fixed_size, md_kernarg_segment_align,
             md_wavefront_size, md_sgpr_count, md_vgpr_count, md_agpr_count,
             md_max_flat_workgroup_size;
    int has_metadata;
} gcn_kernel;

typedef struct gcn_symbol {
    char *name;
    uint64_t value, size;
    unsigned type;               /* STT_* */
} gcn_symbol;

typedef struct gcn_line {
    uint64_t addr;
    const char *file;            /* interned in the code object */
    unsigned line;
} gcn_line;

typedef struct gcn_codeobj {
    char *path;
    gcn_target target;
    unsigned abi_version;        /* e_ident[EI_ABIVERSION]: 2,3,4 = code object v4,v5,v6 */
    unsigned code_object_version;/* 4, 5 or 6 */
    int xnack, sramecc;          /* -1 any/unsupported, 0 off, 1 on */
    uint32_t e_flags;
    const uint8_t *text;         /* .text bytes (owned) */
    uint64_t text_addr, text_size;
    gcn_symbol *syms;
    unsigned nsyms;
    gcn_kernel *kernels;
    unsigned nkernels;
    gcn_line *lines;             /* sorted by addr; NULL when no .debug_line */
    unsigned nlines;
    char *metadata_yaml;         /* not used: metadata is parsed, see kernels */
    void *priv;                  /* implementation data */
} gcn_codeobj;

/* Open a code object from a file or memory (the bytes are copied). */
int gcn_co_open(const char *path, gcn_codeobj **out, gcn_co_err *err);
int gcn_co_open_mem(const char *name, const void *data, size_t len, gcn_codeobj **out,
                    gcn_co_err *err);
void gcn_co_close(gcn_codeobj *co);

/* Kernel by name (NULL if absent). */
const gcn_kernel *gcn_co_kernel(const gcn_codeobj *co, const char *name);

/* Source line of an address (NULL when unknown). */
const gcn_line *gcn_co_line(const gcn_codeobj *co, uint64_t addr);

/* Symbol containing/at addr, for labels (NULL when none). */
const gcn_symbol *gcn_co_symbol_at(const gcn_codeobj *co, uint64_t addr);

/* Clang offload bundles ("__CLANG_OFFLOAD_BUNDLE__"). */
typedef struct gcn_bundle_entry {
    char *triple;                /* e.g. "hipv4-amdgcn-amd-amdhsa--gfx942" */
    uint64_t offset, size;       /* within the bundle file */
} gcn_bundle_entry;

int gcn_bundle_is(const void *data, size_t len);
int gcn_bundle_list(const char *name, const void *data, size_t len,
                    gcn_bundle_entry **entries, unsigned *n, gcn_co_err *err);
void gcn_bundle_free(gcn_bundle_entry *entries, unsigned n);

#endif
