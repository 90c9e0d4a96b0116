/*
 * mcbytes.h -- tests' assembler: the encoding bytes llvm-mc-22 gives for
 * some assembly text (shared by the hazard and simulator unit tests).
 */
#ifndef GCN_TESTS_MCBYTES_H
#define GCN_TESTS_MCBYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Assemble text for cpu ("gfx942", "gfx950") with $LLVM_MC (default
 * llvm-mc-22) and put the bytes of its first max_insns encoded
 * instructions, in order, into bytes (at most cap; *n: how many).  llvm-mc's
 * error lines go to errs (NULL: nowhere; lines it rejects are skipped).
 * Returns the number of instructions encoded, or -1 when no temporary file
 * could be made. */
int mc_bytes(const char *cpu, const char *text, unsigned max_insns, uint8_t *bytes, size_t cap,
             size_t *n, FILE *errs);

#endif
