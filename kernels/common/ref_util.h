/* ref_util.h -- shared helpers for the C reference programs of kernels/ (the protocol of
 * docs/manifest.md): read DIR/run.json and the dumped buffers, compare expected outputs bit
 * for bit and report the first difference.
 *
 * A reference program is run as `ref DIR` and exits GCN_REF_SAME (0), GCN_REF_DIFF (1) or
 * GCN_REF_BAD (2, bad or missing input).  `ref --write-expected DIR` writes the expected
 * outputs to DIR/<output>.bin instead of comparing (for self-tests and golden dumps).
 * References compute floats in the order the kernel does; build them with
 * -ffp-contract=off so the C compiler does not fuse multiply-adds. */
#ifndef GCN_REF_UTIL_H
#define GCN_REF_UTIL_H

#include <stddef.h>
#include <stdint.h>

enum { GCN_REF_SAME = 0, GCN_REF_DIFF = 1, GCN_REF_BAD = 2 };

/* How the elements of a buffer are printed in a difference report. */
typedef enum { GCN_REF_U32, GCN_REF_I32, GCN_REF_F32, GCN_REF_U8 } gcn_ref_kind;

typedef struct gcn_ref {
    const char *dir;     /* the dump directory */
    int write_expected;  /* --write-expected given */
    void *run;           /* json_t * of DIR/run.json (opaque here: no jansson in this header) */
    int status;          /* worst status so far: GCN_REF_SAME/DIFF/BAD */
} gcn_ref;

/* Parse the command line and load DIR/run.json.  Returns 0, or prints a message and returns
 * GCN_REF_BAD. */
int gcn_ref_open(gcn_ref *r, int argc, char **argv);
void gcn_ref_close(gcn_ref *r);

/* Integer parameter NAME of run.json: looked up in the "params" object, then at top level.
 * Returns 0 and sets *out, or prints a message, sets r->status = GCN_REF_BAD, returns -1. */
int gcn_ref_param(gcn_ref *r, const char *name, long long *out);
/* Like gcn_ref_param, but DEFAULT_VALUE when the parameter is absent. */
long long gcn_ref_param_or(gcn_ref *r, const char *name, long long default_value);

/* Read DIR/NAME.in.bin (the initial bytes of buffer NAME) and require at least MIN_BYTES.
 * Returns a malloc'd buffer (*size set) or NULL after a message (r->status = GCN_REF_BAD). */
void *gcn_ref_input(gcn_ref *r, const char *name, size_t min_bytes, size_t *size);
/* Read DIR/NAME.bin (the bytes after the run), at least MIN_BYTES. */
void *gcn_ref_output(gcn_ref *r, const char *name, size_t min_bytes, size_t *size);

/* Compare N elements of EXPECTED (element size 4, or 1 for GCN_REF_U8) with DIR/NAME.bin bit
 * for bit and print the first difference (index, both values, and the count of differing
 * elements); with --write-expected, write EXPECTED to DIR/NAME.bin instead.  Updates
 * r->status and returns GCN_REF_SAME/DIFF/BAD. */
int gcn_ref_expect(gcn_ref *r, const char *name, gcn_ref_kind kind, const void *expected,
                   size_t n);

/* If DIR/NAME.bin exists, require it to equal DIR/NAME.in.bin (an input the kernel must
 * not write).  Skipped with --write-expected. */
int gcn_ref_unchanged(gcn_ref *r, const char *name);

/* Print the summary line and return r->status (the exit code). */
int gcn_ref_finish(gcn_ref *r);

/* IEEE single <-> bits. */
float gcn_ref_f32(uint32_t bits);
uint32_t gcn_ref_bits(float f);

#endif
