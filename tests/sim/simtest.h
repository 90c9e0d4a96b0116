/*
 * simtest.h -- helpers of the simulator's unit tests: assemble one
 * instruction with llvm-mc-22 (the LLVM_MC environment variable names it),
 * decode and pre-decode it, and execute it on a bare wave; run small kernels
 * written as assembly text through the library.
 */
#ifndef GCN_SIMTEST_H
#define GCN_SIMTEST_H

#include <stdint.h>
#include "sim/sim_int.h"

/* A bare execution environment: one wave (nvrows VGPRs, AGPRs from accum),
 * a 64 KiB workgroup LDS, and a device. */
typedef struct st_env {
    gcn_sim *sim;
    sim_wave *w;
    sim_wg g;
    sim_x x;
    gcn_target target;
    sim_insn si;
    char text[256];
} st_env;

st_env *st_new(gcn_target t);
void st_free(st_env *e);
/* Assemble asm for e->target and pre-decode it into e->si; 0 or -1. */
int st_insn(st_env *e, const char *asm_text);
/* Execute e->si once (EXEC as set in the wave); 0, or -1 on a fault. */
int st_exec(st_env *e);
/* Assemble and execute (assembled instructions are cached by text). */
int st_run(st_env *e, const char *asm_text);
/* Raw bytes of an instruction (n bytes), from llvm-mc. */
int st_assemble(gcn_target t, const char *asm_text, uint8_t *bytes, size_t *n);

/* Memory tests: retire every outstanding ticket (s_waitcnt 0); reset the
 * wave (all lanes on, MODE with denormals kept and round to nearest), the
 * ticket ids and the LDS. */
void st_waitall(st_env *e);
void st_reset_mem(st_env *e);

/* Set all lanes of a VGPR. */
void st_vset(st_env *e, unsigned r, uint32_t v);
void st_vsetf(st_env *e, unsigned r, float f);

/* Whole-kernel run: assemble a kernel source (text of an .s with one kernel)
 * with clang-22, run it with the given grid/block and buffers.  Returns the
 * gcnsim-like status: 0 ok, 3 fault, 4 findings; -1 on setup errors. */
typedef struct st_kbuf {
    const char *name;
    uint64_t size;
    void *data;             /* initial bytes in, final bytes out (size bytes) */
} st_kbuf;
int st_kernel(gcn_target t, const char *src, unsigned grid, unsigned block, st_kbuf *bufs,
              unsigned nbufs, const uint32_t *scalars, unsigned nscalars, gcn_sim_result *res,
              char *msg, size_t msglen);

#endif
