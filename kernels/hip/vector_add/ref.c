/* ref.c -- C reference for kernels/hip/vector_add: the same computation and buffer names
 * (A, B, C, N) as kernels/vector_add, so its reference is reused. */
#include "../../vector_add/ref.c"
