/*
 * idiv.h -- remainders by a constant that a kernel computes through LLVM's
 * 32-bit unsigned division expansion (idiv.c), for the path facts.
 *
 * A kernel unrolled c times, with c not a power of two, dispatches its tail
 * on n mod c, written as  q = readfirstlane(udiv(n, c));  r = n - q * c,
 * where udiv is the VALU sequence that LLVM emits for a 32-bit unsigned
 * division (AMDGPUCodeGenPrepare.cpp, expandDivRem32: a float reciprocal,
 * one Newton-Raphson round, a quotient estimate and two refinements).  That
 * sequence gives floor(n / c) exactly for every 32-bit n and c != 0, so the
 * `s_sub` gives n mod c, which the path facts then evaluate from what they
 * know of n modulo c.
 */
#ifndef GCN_IDIV_H
#define GCN_IDIV_H

#include <stdint.h>
#include "lint.h"

/* For every instruction i of cfg, rem[i] = c (2..255) when i is an
 * `s_sub_u32/i32 r, n, t` that computes n mod c as described above, with
 * n its first source and the whole computation in i's block; else 0.
 * Assumes at least one lane active at the readfirstlane (as in uniform
 * code).  Returns the number of instructions marked. */
unsigned gcn_idiv_mark(const gcn_cfg *cfg, uint8_t *rem);

/* The quotient itself: for a `v_readfirstlane_b32 s, v` that reads
 * floor(x / y) from that sequence, y (else 0) and an SGPR that holds x at
 * the readfirstlane (relate.c takes s = floor(x / y)). */
typedef struct gcn_idiv_quot { uint32_t y; uint8_t src; } gcn_idiv_quot;
/* gcn_idiv_mark, and quot[i] for every instruction i (quot may be NULL). */
unsigned gcn_idiv_scan(const gcn_cfg *cfg, uint8_t *rem, gcn_idiv_quot *quot);

#endif
