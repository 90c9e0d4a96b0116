/*
 * crew.c -- the threads gcn_sim_run runs workgroups on (gcn_sim_opts.threads): one crew
 * per process, started on first use and kept until the process ends.
 *
 * Why kept: a thread's first memory, its start (0.1 to 4 ms for a virtual CPU that must be
 * woken, src/decode/textpar.c measured it) and the per-thread scratch the instruction
 * bodies keep in thread-local storage (src/sim/mfma.c: about 250 KiB and its plan cache)
 * are paid once, not per run (gcnsim --all-sizes runs many); and memory a kept thread
 * points at stays reachable, where a thread that ended would leave its thread-local
 * blocks behind (LeakSanitizer, tests/sim/test_sanitized.sh, would call them leaks).
 *
 * One job at a time: sim_crew_take() gives the caller the crew (or says it is busy, when
 * another thread of the process runs a job: the caller then runs alone), sim_crew_run()
 * runs fn(arg, 0) on the caller and fn(arg, i) for i = 1 .. n-1 on crew threads and returns
 * when all have returned, sim_crew_give() hands the crew back.  The crew's threads block
 * every signal (the process's handlers run on its own threads).
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "sim_int.h"

#define CREW_MAX 1024

static pthread_mutex_t crew_use = PTHREAD_MUTEX_INITIALIZER;   /* the job's owner holds it */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;         /* what follows */
static pthread_cond_t cv_go = PTHREAD_COND_INITIALIZER;        /* a job was handed out */
static pthread_cond_t cv_done = PTHREAD_COND_INITIALIZER;      /* a thread left the job */
static unsigned nthreads;              /* crew threads started: indices 1 .. nthreads */
static unsigned long gen;              /* jobs handed out */
static unsigned want;                  /* threads 1 .. want-1 take part in the job */
static unsigned running;               /* crew threads still in the job */
static void (*job_fn)(void *, unsigned);
static void *job_arg;

typedef struct start {
    unsigned idx;
    unsigned long seen;
} start;

static void *crew_main(void *p)
{
    start st = *(start *)p;
    free(p);
    unsigned long seen = st.seen;
    pthread_mutex_lock(&mu);
    for (;;) {
        while (gen == seen)
            pthread_cond_wait(&cv_go, &mu);
        seen = gen;
        if (st.idx >= want)
            continue;
        void (*fn)(void *, unsigned) = job_fn;
        void *arg = job_arg;
        pthread_mutex_unlock(&mu);
        fn(arg, st.idx);
        pthread_mutex_lock(&mu);
        if (--running == 0)
            pthread_cond_signal(&cv_done);
    }
    return NULL;
}

unsigned sim_crew_cpus(void)
{
    cpu_set_t cs;
    long n = sched_getaffinity(0, sizeof cs, &cs) == 0 ? CPU_COUNT(&cs)
                                                       : sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

unsigned sim_crew_take(unsigned n)
{
    if (n > CREW_MAX)
        n = CREW_MAX;
    if (n <= 1 || pthread_mutex_trylock(&crew_use) != 0)
        return 1;
    pthread_mutex_lock(&mu);
    if (nthreads + 1 < n) {
        /* new threads inherit this mask: every signal blocked */
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        while (nthreads + 1 < n) {
            start *st = malloc(sizeof *st);
            pthread_t th;
            if (!st)
                break;
            st->idx = nthreads + 1;
            st->seen = gen;
            if (pthread_create(&th, NULL, crew_main, st) != 0) {
                free(st);
                break;
            }
            pthread_detach(th);
            nthreads++;
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    unsigned got = nthreads + 1 < n ? nthreads + 1 : n;
    pthread_mutex_unlock(&mu);
    if (got <= 1)
        pthread_mutex_unlock(&crew_use);
    return got;
}

void sim_crew_run(unsigned n, void (*fn)(void *, unsigned), void *arg)
{
    if (n > 1) {
        pthread_mutex_lock(&mu);
        job_fn = fn;
        job_arg = arg;
        want = n;
        running = n - 1;
        gen++;
        pthread_cond_broadcast(&cv_go);
        pthread_mutex_unlock(&mu);
    }
    fn(arg, 0);
    if (n > 1) {
        pthread_mutex_lock(&mu);
        while (running)
            pthread_cond_wait(&cv_done, &mu);
        pthread_mutex_unlock(&mu);
    }
}

void sim_crew_give(unsigned n)
{
    if (n > 1)
        pthread_mutex_unlock(&crew_use);
}
