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
#include <stdio.h>
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
    /* added by the reader (same sources) */
    unsigned next_free_sgpr;                 /* (sgpr_granules+1)*8 as llvm-objdump prints it */
    unsigned priority, priv, debug_mode, fp16_overflow;   /* rsrc1 */
    unsigned enable_trap_handler, granulated_lds_size;  /* rsrc2 */
    unsigned exception_mask;                 /* rsrc2 bits 24..30, LSB = fp_ieee_invalid_op */
} gcn_kd;

/* Value kinds of kernel arguments (metadata .value_kind). */
typedef struct gcn_kernarg {
    char *name;          /* may be NULL */
    char *value_kind;    /* "by_value", "global_buffer", "hidden_block_count_x", ... */
    char *address_space; /* may be NULL */
    uint32_t offset, size;
    char *type_name;     /* .type_name ("float*", "int"; OpenCL, -cl-kernel-arg-info), or NULL */
    char *access;        /* .actual_access, else .access ("read_only", ...), or NULL */
    int is_const;        /* .is_const: true */
    uint32_t pointee_align; /* .pointee_align (dynamic_shared_pointer), 0 when absent */
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
    uint32_t md_reqd_workgroup_size[3]; /* .reqd_workgroup_size, zeros when absent */
    int has_metadata;
} gcn_kernel;

typedef struct gcn_symbol {
    char *name;                  /* in one block with the symbol array (not freed alone) */
    uint64_t value, size;
    unsigned type;               /* STT_* */
    unsigned shndx;              /* st_shndx: its section (SHN_ABS, SHN_UNDEF, ...) */
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
    /* added by the reader */
    unsigned elf_type;           /* ET_DYN (loadable) or ET_REL (object file) */
    unsigned mach;               /* e_flags & EF_AMDGPU_MACH */
    unsigned xnack_mode, sramecc_mode;  /* GCN_CO_FEAT_* */
    char target_id[64];          /* "gfx942", "gfx942:sramecc+:xnack-" (AMDGPUUsage "Target ID") */
    char *bundle_triple;         /* entry used when read from an offload bundle, else NULL */
    unsigned bundle_gpu_entries; /* supported-GPU entries in that bundle */
    char warning[256];           /* non-fatal problem (e.g. unreadable .debug_line), or "" */
    unsigned text_index;         /* ELF section index of .text */
    struct gcn_text_region *regions;  /* .text cut at its symbols, see below */
    unsigned nregions;
} gcn_codeobj;

/* llvm-objdump disassembles a section symbol by symbol: it starts decoding
 * afresh at every symbol address (an instruction may run past the next
 * symbol; decoding restarts there anyway), and a chunk whose symbols are all
 * STT_OBJECT is dumped as data, not instructions.  The regions cover .text in
 * address order (llvm-objdump.cpp, disassembleObject). */
typedef struct gcn_text_region {
    uint64_t start, end;         /* addresses, end exclusive */
    const char *label;           /* symbol name printed at start (the section name if none) */
    int is_data;                 /* all symbols here are STT_OBJECT/STT_COMMON */
} gcn_text_region;

/* xnack / sramecc settings, code object v4+ (AMDGPUUsage "ELF Header"). */
enum { GCN_CO_FEAT_UNSUPPORTED = 0, GCN_CO_FEAT_ANY = 1, GCN_CO_FEAT_OFF = 2, GCN_CO_FEAT_ON = 3 };

/* Open a code object from a file or memory (the bytes are copied).  A clang
 * offload bundle is accepted too: its gfx942/gfx950 entry is used (the first
 * one in file order when it has both).  The _arch forms choose the entry by
 * processor ("gfx950") or target ID ("gfx942:xnack-"); NULL = default. */
int gcn_co_open(const char *path, gcn_codeobj **out, gcn_co_err *err);
int gcn_co_open_mem(const char *name, const void *data, size_t len, gcn_codeobj **out,
                    gcn_co_err *err);
int gcn_co_open_arch(const char *path, const char *offload_arch, gcn_codeobj **out,
                     gcn_co_err *err);
int gcn_co_open_mem_arch(const char *name, const void *data, size_t len,
                         const char *offload_arch, gcn_codeobj **out, gcn_co_err *err);
void gcn_co_close(gcn_codeobj *co);

/* gcn_co_open_arch() that tells the caller when the code is read:
 * text_ready(co, ctx) is called once the object's .text, symbols and text
 * regions are read, before its kernel descriptors, metadata note and line
 * table are (co has only those fields yet, and they stay as they are), so
 * that the caller can start decoding the text on other threads meanwhile
 * (gcn_text_crew_ready).  When the open then fails, cancel(ctx) is called
 * before the object is freed: whatever uses co must stop. */
typedef struct gcn_co_hooks {
    void (*text_ready)(const gcn_codeobj *co, void *ctx);
    void (*cancel)(void *ctx);
    void *ctx;
} gcn_co_hooks;
int gcn_co_open_hooks(const char *path, const char *offload_arch, const gcn_co_hooks *h,
                      gcn_codeobj **out, gcn_co_err *err);

/* Read a whole file (regular files only) into malloc'ed memory. */
int gcn_co_read_file(const char *path, uint8_t **data, size_t *len, gcn_co_err *err);

/* Name of an EF_AMDGPU_MACH value ("gfx942"), NULL when unknown. */
const char *gcn_co_mach_name(unsigned mach);
/* "unsupported", "any", "off", "on". */
const char *gcn_co_feat_name(unsigned mode);

/* Kernel by name (NULL if absent). */
const gcn_kernel *gcn_co_kernel(const gcn_codeobj *co, const char *name);

/* Source line of an address (NULL when unknown). */
const gcn_line *gcn_co_line(const gcn_codeobj *co, uint64_t addr);

/* Symbol containing/at addr, for labels (NULL when none). */
const gcn_symbol *gcn_co_symbol_at(const gcn_codeobj *co, uint64_t addr);
/* The indices of the symbols gcn_co_symbol_at() can answer for an address in [lo, hi), in
 * table order, into idx: their number, or max + 1 when there are more than max.  Then
 * gcn_co_symbol_at_in(co, idx, n, addr) for addr in [lo, hi) answers as gcn_co_symbol_at()
 * (a lookup per instruction over the few symbols of a kernel's code). */
unsigned gcn_co_symbols_in(const gcn_codeobj *co, uint64_t lo, uint64_t hi, uint32_t *idx,
                           unsigned max);
const gcn_symbol *gcn_co_symbol_at_in(const gcn_codeobj *co, const uint32_t *idx, unsigned n,
                                      uint64_t addr);

/* Branch-target symbolizer for gcn_decoder.label_name (ctx = the code
 * object): the STT_NOTYPE symbol of .text at exactly that address, as
 * llvm-objdump's AMDGPUSymbolizer prints it (the first by name when
 * several; it sees only the symbols of the section being disassembled, so
 * not an absolute symbol of that value). */
const char *gcn_co_label_name(void *ctx, uint64_t target);

/* Clang offload bundles ("__CLANG_OFFLOAD_BUNDLE__"). */
typedef struct gcn_bundle_entry {
    char *triple;                /* e.g. "hipv4-amdgcn-amd-amdhsa--gfx942" */
    uint64_t offset, size;       /* within the bundle file */
} gcn_bundle_entry;

int gcn_bundle_is(const void *data, size_t len);
int gcn_bundle_list(const char *name, const void *data, size_t len,
                    gcn_bundle_entry **entries, unsigned *n, gcn_co_err *err);
void gcn_bundle_free(gcn_bundle_entry *entries, unsigned n);

/* "__CLANG_OFFLOAD_BUNDLE__" compressed form ("CCOB"): recognised, not read. */
int gcn_bundle_is_compressed(const void *data, size_t len);

/* Processor of an entry's triple ("gfx942" from "hipv4-amdgcn-amd-amdhsa--gfx942:xnack-"),
 * copied into buf; "" for host and other entries. */
void gcn_bundle_processor(const char *triple, char *buf, size_t bufsz);

/* Choose an entry: arch NULL = the first gfx942/gfx950 entry; else an entry whose
 * processor or whole target ID equals arch, or whose index or triple is arch.
 * Returns the index, or a negative GCN_CO_E* with a message. */
int gcn_bundle_select(const char *name, const gcn_bundle_entry *e, unsigned n,
                      const char *arch, gcn_co_err *err);

/* ---- listings (colist.c, textpar.c) ------------------------------------- */

/* Threads for the one-instruction-per-line printers below, started ahead
 * of the text: a program that knows it will print a long text starts them
 * before it reads the code object, so that they are running when the text
 * is ready (textpar.c).  jobs: threads with the caller's (0 = one per CPU
 * this process may run on); NULL when that is one, or no thread starts.
 * Waiting for a text, the threads spin for up to 5 ms (yielding the CPU
 * to any thread that wants it), then sleep. */
typedef struct gcn_text_crew gcn_text_crew;
gcn_text_crew *gcn_text_crew_start(unsigned jobs);
/* The same, its idle threads spinning spin_ns (negative: the 5 ms above; 0: they sleep
 * at once and a text wakes them): for a crew kept for many short texts, whose threads
 * would otherwise spin between texts on CPUs the caller needs. */
gcn_text_crew *gcn_text_crew_start_opt(unsigned jobs, long spin_ns);
void gcn_text_crew_end(gcn_text_crew *c);      /* (NULL: nothing) */

/* Hooks for gcn_co_open_hooks (ctx: a gcn_text_opts with a crew): hand a
 * code object's text to the crew as soon as it is read, so that its
 * threads decode it while the rest of the object is read;
 * gcn_co_print_llvm_text_opt() with the same crew then writes it (the
 * chunks and blocks are those of the options given to the hook).  The
 * object must not be closed before it is printed or the text is cancelled
 * (cancel waits for the threads to stop using it). */
void gcn_text_crew_ready(const gcn_codeobj *co, void *opts);
void gcn_text_crew_cancel(void *opts);         /* (no early text: nothing) */

/* How the one-instruction-per-line printers below work.  The output does
 * not depend on these (textpar.c). */
typedef struct gcn_text_opts {
    unsigned jobs;      /* threads: 0 = one per online CPU, 1 = none */
    size_t min_part;    /* least bytes of code per chunk (0: 16 KiB) */
    size_t block;       /* bytes of text a thread keeps in one block before it
                           starts the next (0: 248 KiB; smaller for tests) */
    gcn_text_crew *crew;        /* threads to use (then jobs is theirs), or NULL:
                                   start jobs - 1 threads for a long text */
    long steal_ns;      /* how long a thread waits for another before it takes that
                           one's work over (0: 30 us; negative: at once, for tests) */
} gcn_text_opts;

/* Instruction text of the whole .text in address order, one per line, exactly
 * as `llvm-objdump-22 -d --disassemble-zeroes --no-show-raw-insn
 * --no-leading-addr` prints the instruction lines (comment and white space
 * stripped).  Returns 0, or -1 when writing fails.  The _opt form takes
 * gcn_text_opts (NULL: one thread). */
int gcn_co_print_llvm_text(const gcn_codeobj *co, FILE *f);
int gcn_co_print_llvm_text_opt(const gcn_codeobj *co, FILE *f, const gcn_text_opts *o);

/* Human listing: header, per kernel a descriptor/metadata summary and the
 * instructions with address, words and file:line.  kernel: only this one
 * (NULL = all).  Returns 0, -1 on write error, -2 if the kernel is absent. */
int gcn_co_print_listing(const gcn_codeobj *co, const char *kernel, FILE *f);

/* Raw little-endian instruction stream.  mode 0: address, words, text;
 * 1: text only; 2: "offset<TAB>size<TAB>text". */
int gcn_raw_print(gcn_target t, const uint8_t *data, size_t len, int mode, FILE *f);
int gcn_raw_print_opt(gcn_target t, const uint8_t *data, size_t len, int mode, FILE *f,
                      const gcn_text_opts *o);

#endif
