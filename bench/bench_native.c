/*
 * bench_native.c -- the native C loops bench/bench_sim.sh compares gcnsim
 * with: the vector add of kernels/vector_add (C[i] = A[i] + B[i] over N
 * floats) and the VALU loop of bench/bench_valu.s (per lane: 4 chains of
 * ITERS*4 fmaf).  Prints the best of several timed repetitions in seconds.
 * usage: bench_native vadd N | valu LANES ITERS
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile float sink;

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "vadd")) {
        size_t n = strtoull(argv[2], NULL, 0);
        float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
        if (!a || !b || !c)
            return 2;
        for (size_t i = 0; i < n; i++) {
            a[i] = (float)(i % 1000) * 0.001f;
            b[i] = (float)(i % 777) * 0.002f;
            c[i] = 0;
        }
        double best = 1e30;
        for (int r = 0; r < 7; r++) {
            double t0 = now();
            for (size_t i = 0; i < n; i++)
                c[i] = a[i] + b[i];
            double t = now() - t0;
            sink = c[r % n];
            if (t < best)
                best = t;
        }
        printf("%.6f\n", best);
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "valu")) {
        size_t lanes = strtoull(argv[2], NULL, 0);
        unsigned iters = (unsigned)strtoul(argv[3], NULL, 0);
        float *out = malloc(lanes * 4);
        if (!out)
            return 2;
        double best = 1e30;
        for (int r = 0; r < 3; r++) {
            double t0 = now();
            for (size_t l = 0; l < lanes; l++) {
                float x = (float)(l % 256), a = 0.01f, v2 = 1, v3 = 1, v4 = 1, v5 = 1;
                for (unsigned i = 0; i < iters; i++) {
                    for (int k = 0; k < 4; k++) {
                        v2 = fmaf(v2, a, x);
                        v3 = fmaf(v3, a, x);
                        v4 = fmaf(v4, a, x);
                        v5 = fmaf(v5, a, x);
                    }
                }
                out[l] = (v2 + v3) + (v4 + v5);
            }
            double t = now() - t0;
            sink = out[r % lanes];
            if (t < best)
                best = t;
        }
        printf("%.6f\n", best);
        return 0;
    }
    fprintf(stderr, "usage: bench_native vadd N | valu LANES ITERS\n");
    return 1;
}
