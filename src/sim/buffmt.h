/*
 * buffmt.h -- typed buffer data: the layout of a (DATA_FORMAT, NUM_FORMAT)
 * element in memory and its conversion to and from the 32-bit (or d16
 * 16-bit) VGPR components of buffer_*_format_* and tbuffer_* (buffmt.c).
 */
#ifndef GCN_SIM_BUFFMT_H
#define GCN_SIM_BUFFMT_H

#include <stdint.h>

/* NUM_FORMAT values (LLVM AMDGPUAsmUtils.cpp NfmtSymbolicGFX9, SIDefines.h
 * MTBUFFormat::NumFormat). */
enum { BNF_UNORM = 0, BNF_SNORM, BNF_USCALED, BNF_SSCALED, BNF_UINT, BNF_SINT, BNF_RSVD6,
       BNF_FLOAT };

typedef struct sim_bfmt {
    uint8_t dfmt, nfmt;
    uint8_t nc;             /* components stored */
    uint8_t bytes;          /* element size in memory */
    uint8_t w[4], sh[4];    /* bit width and bit position of component k (x, y, z, w) */
} sim_bfmt;

/* Layout of data format dfmt with numeric format nfmt; 0, or -1 when the
 * pair is not a buffer format (the message names it). */
int sim_bfmt_get(unsigned dfmt, unsigned nfmt, sim_bfmt *f, char *msg, unsigned msglen);

/* Element at mem -> components x, y, z, w as VGPR values (f32 bits for
 * UNORM/SNORM/USCALED/SSCALED/FLOAT, integers for UINT/SINT); components the
 * format does not store are 0 (x, y, z) and 1 (w).  d16: 16-bit values (f16
 * or the integer's low 16 bits). */
void sim_bfmt_load(const sim_bfmt *f, const uint8_t *mem, int d16, uint32_t out[4]);
/* The value "1" of a component of this format (a DST_SEL of 1). */
uint32_t sim_bfmt_one(const sim_bfmt *f, int d16);
/* Components 0..n-1 of in[] (VGPR values; d16: 16-bit) converted and
 * stored into the element at mem; stored components beyond n are left as
 * they are. */
void sim_bfmt_store(const sim_bfmt *f, const uint32_t *in, unsigned n, int d16, uint8_t *mem);

#endif
