/* ref.c -- C reference for kernels/lds_transpose: out[c][r] = in[r][c] for a ROWS x COLS
 * row-major matrix of 32-bit elements (compared bit for bit). */
#include "ref_util.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long rows, cols;
    if (gcn_ref_param(&r, "ROWS", &rows) == 0 && gcn_ref_param(&r, "COLS", &cols) == 0) {
        size_t n = (size_t)rows * (size_t)cols;
        uint32_t *in = gcn_ref_input(&r, "in", n * 4, NULL);
        uint32_t *out = malloc(n * 4 + 4);
        if (in && out) {
            for (size_t i = 0; i < (size_t)rows; i++)
                for (size_t j = 0; j < (size_t)cols; j++)
                    out[j * (size_t)rows + i] = in[i * (size_t)cols + j];
            gcn_ref_expect(&r, "out", GCN_REF_U32, out, n);
            gcn_ref_unchanged(&r, "in");
        }
        free(in);
        free(out);
    }
    return gcn_ref_finish(&r);
}
