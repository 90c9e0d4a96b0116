/*
 * bench_native.c -- the native C loops bench/bench_sim.sh compares gcnsim
 * with: the vector add of kernels/vector_add (C[i] = A[i] + B[i] over N
 * floats) and the VALU loop of bench/bench_valu.s (per lane: 4 chains of
 * ITERS*4 fmaf).  Prints the best of several timed repetitions in seconds.
 * gemm: the f32 GEMM bench/bench_mfma.sh compares gcnsim's bf16 MFMA GEMM
 * (kernels/mfma_gemm) with: C[i][j] = sum_k A[i][k] * B[j][k] (B stored N x K as the
 * kernel's), the bf16 inputs read from a gcnsim --dump-dir --dump-inputs (A.in.bin, B.in.bin),
 * widened to f32 and B transposed to K x N once (not timed), then plain i-k-j f32
 * loops (each element summed in k order; the j loop vectorises); the result is
 * compared bit for bit with the dump's C.bin (prints the number of differing elements).
 * cpu: runs a command (its output to /dev/null, or with -o to FILE) and prints the CPU
 * seconds (user + system)
 * of that process alone, from wait4 (a Python parent's figure for its child included the
 * fork's own copy of the interpreter: about 50 ms here), then its wall seconds; exits
 * with its status.
 * usage: bench_native vadd N | valu LANES ITERS | gemm DUMPDIR M N K |
 *        cpu [-o FILE] CMD [ARG...]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

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
    if (argc >= 6 && !strcmp(argv[1], "gemm")) {
        size_t M = strtoull(argv[3], NULL, 0), N = strtoull(argv[4], NULL, 0);
        size_t K = strtoull(argv[5], NULL, 0);
        float *a = malloc(M * K * 4), *bt = malloc(N * K * 4), *c = malloc(M * N * 4);
        uint16_t *h = malloc((M > N ? M : N) * K * 2);
        uint32_t *sim = malloc(M * N * 4);
        if (!a || !bt || !c || !h || !sim)
            return 2;
        const char *names[3] = {"A.in.bin", "B.in.bin", "C.bin"};
        for (int f = 0; f < 3; f++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[2], names[f]);
            FILE *fp = fopen(path, "rb");
            size_t want = f == 0 ? M * K * 2 : f == 1 ? N * K * 2 : M * N * 4;
            if (!fp || fread(f == 2 ? (void *)sim : (void *)h, 1, want, fp) != want) {
                fprintf(stderr, "bench_native: cannot read %s\n", path);
                return 2;
            }
            fclose(fp);
            for (size_t p = 0; f < 2 && p < (f ? N : M) * K; p++) {
                uint32_t u = (uint32_t)h[p] << 16;
                memcpy(f ? &bt[p] : &a[p], &u, 4);
            }
        }
        float *b = malloc(K * N * 4);
        if (!b)
            return 2;
        for (size_t j = 0; j < N; j++)
            for (size_t k = 0; k < K; k++)
                b[k * N + j] = bt[j * K + k];
        double best = 1e30;
        for (int r = 0; r < 3; r++) {
            double t0 = now();
            for (size_t i = 0; i < M; i++) {
                float *ci = &c[i * N];
                for (size_t j = 0; j < N; j++)
                    ci[j] = 0;
                for (size_t k = 0; k < K; k++) {
                    float x = a[i * K + k];
                    const float *bk = &b[k * N];
                    for (size_t j = 0; j < N; j++)
                        ci[j] += x * bk[j];
                }
            }
            double t = now() - t0;
            if (t < best)
                best = t;
        }
        size_t diff = 0;
        for (size_t p = 0; p < M * N; p++)
            diff += memcmp(&c[p], &sim[p], 4) != 0;
        printf("%.6f %zu\n", best, diff);
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "cpu")) {
        const char *outf = "/dev/null";
        int a0 = 2;
        if (argc >= 5 && !strcmp(argv[2], "-o")) {
            outf = argv[3];
            a0 = 4;
        }
        struct timespec w0, w1;
        clock_gettime(CLOCK_MONOTONIC, &w0);
        pid_t pid = fork();
        if (pid < 0)
            return 2;
        if (!pid) {
            int fd = open(outf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
            }
            execvp(argv[a0], argv + a0);
            _exit(127);
        }
        int st = 0;
        struct rusage ru;
        if (wait4(pid, &st, 0, &ru) < 0)
            return 2;
        clock_gettime(CLOCK_MONOTONIC, &w1);
        printf("%.4f %.4f\n", (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
                                 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6,
               (double)(w1.tv_sec - w0.tv_sec) + (w1.tv_nsec - w0.tv_nsec) * 1e-9);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
    }
    fprintf(stderr, "usage: bench_native vadd N | valu LANES ITERS | gemm DUMPDIR M N K | "
            "cpu [-o FILE] CMD [ARG...]\n");
    return 1;
}
