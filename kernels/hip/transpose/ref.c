/* ref.c -- C reference for kernels/hip/transpose: the same computation and buffer names
 * (in, out, ROWS, COLS) as kernels/lds_transpose, so its reference is reused. */
#include "../../lds_transpose/ref.c"
