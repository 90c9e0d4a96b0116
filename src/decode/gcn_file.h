/*
 * gcn_file.h -- how the tools read input files and write output files
 * (docs/reliability.md): size limits checked before reading, outputs written
 * to a temporary in the destination's directory and renamed only over a
 * regular file or a missing one, dump directories that appear whole or not
 * at all, temporaries and child processes cleaned up on SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT and SIGPIPE, and the assembler run with its output captured
 * through a pipe (no temporary file of ours).
 *
 * Library code (gcndis, gcnsim, gcnlint, gcnrun).  Functions return 0 or -1
 * with a message in err that names the path and the problem.
 */
#ifndef GCN_FILE_H
#define GCN_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Input limits (docs/reliability.md). */
#define GCN_FILE_MAX_ASM (64ull << 20)       /* an assembly source handed to clang */
#define GCN_FILE_MAX_MANIFEST (16ull << 20)  /* a run manifest */
#define GCN_FILE_MAX_CODE (1ull << 31)       /* a code object or bundle (as gcn_co_read_file) */
#define GCN_FILE_MAX_ASM_OUT (1ull << 31)    /* what the assembler may print as the object */

/* Check an input path before it is read or handed to another program: it
 * exists, is not a directory, is not empty, and a regular file is at most
 * limit bytes.  what names the kind of file in the message ("assembly
 * source"). */
int gcn_file_check_input(const char *path, uint64_t limit, const char *what, char *err,
                         size_t errlen);

/* Read a whole file of at most limit bytes (directories refused, an empty
 * file is read as empty); *data is malloc'ed, NUL-terminated. */
int gcn_file_read(const char *path, uint64_t limit, const char *what, char **data, size_t *len,
                  char *err, size_t errlen);

/* The target an assembly source states: the target ID of its first
 * `.amdgcn_target "amdgcn-amd-amdhsa--gfx942[:feature...]"` directive (the
 * part after "--", e.g. "gfx942:xnack-") into tid.  Returns 1 when the
 * source has the directive, 0 when not, -1 when it cannot be read or the
 * directive is malformed (message in err). */
int gcn_file_asm_target(const char *path, char *tid, size_t tidlen, char *err, size_t errlen);

/* Whether a destination may be replaced: missing, or a regular file (not a
 * symbolic link, directory, device, FIFO or socket). */
int gcn_file_check_output(const char *path, char *err, size_t errlen);

/* An output file written to a temporary in the destination's directory
 * (mode 0666 less the umask, as a new file gets) and renamed over it by
 * gcn_file_out_close; the temporary is removed on a signal. */
typedef struct gcn_file_out {
    char *path, *tmp;
    FILE *f;
    int slot;
} gcn_file_out;
int gcn_file_out_open(gcn_file_out *o, const char *path, char *err, size_t errlen);
/* ok: the content is complete, rename it into place; else remove it.
 * Returns 0 when the file is in place. */
int gcn_file_out_close(gcn_file_out *o, int ok, char *err, size_t errlen);
/* One buffer as a whole file (gcn_file_out_open + write + close). */
int gcn_file_write(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Whether a buffer name can name dump files: 1 to 200 bytes, no '/', no
 * leading '.', no control characters.  Returns 0 when it can, else -1 with
 * the reason in why. */
int gcn_file_name_check(const char *name, char *why, size_t whylen);

/* A dump directory (gcnsim and gcnrun --dump-dir): written into a fresh
 * temporary directory beside it and put in place by gcn_dump_commit, so a
 * reader sees the earlier dump or the new one, whole, never a mix.  DIR may
 * be missing, an empty directory, or an earlier dump (regular files named
 * *.bin and run.json only, with run.json or a *.in.bin among them); anything
 * else is refused by gcn_dump_check, so no other file is ever removed.  A
 * symbolic link to a directory is followed. */
typedef struct gcn_dump {
    char *dir;        /* the destination (symbolic links resolved) */
    char *tmp;        /* the temporary directory, NULL once committed or aborted */
    int slot;
} gcn_dump;
int gcn_dump_check(const char *dir, char *err, size_t errlen);
int gcn_dump_begin(gcn_dump *d, const char *dir, char *err, size_t errlen);
/* Write NAME (a file name checked by gcn_file_name_check with its suffix). */
int gcn_dump_write(gcn_dump *d, const char *name, const char *suffix, const void *data, size_t len,
                   char *err, size_t errlen);
int gcn_dump_commit(gcn_dump *d, char *err, size_t errlen);
void gcn_dump_abort(gcn_dump *d);

/* Install the clean-up handlers (once per process; a signal ignored at
 * start stays ignored).  After the clean-up the signal's default action
 * ends the process, so its exit status is the signal's. */
void gcn_file_signals(void);
/* Register a path (a file, or a directory removed with its files) or a
 * child process (sent SIGTERM) for the clean-up; returns a slot or -1 when
 * all are taken.  gcn_file_forget releases a slot (-1 is ignored). */
int gcn_file_remember(const char *path, int is_dir);
int gcn_file_remember_child(pid_t pid);
void gcn_file_forget(int slot);

/* Run argv[0] (looked up in PATH) with stdin from /dev/null, capturing its
 * standard output (at most out_limit bytes: more is an error) and the first
 * 4 KiB of its standard error.  Returns 0 with the exit status in *status
 * (-1 when it was killed by a signal) or -1 with a message when it could
 * not be run or printed too much; *out (malloc'ed) and *errtext (malloc'ed,
 * NUL-terminated) are set either way when not NULL. */
int gcn_file_run(char *const argv[], uint64_t out_limit, uint8_t **out, size_t *outlen,
                 char **errtext, int *status, char *err, size_t errlen);

/* Assemble src with the assembler cc (`cc -x assembler -target amdgcn-amd-amdhsa
 * -mcpu=MCPU -g -I DIR src -o -`, DIR the source's folder, so that .include
 * "x" is looked up next to it as a C compiler would): gcn_file_run's results,
 * the object in *out (at most GCN_FILE_MAX_ASM_OUT bytes). */
int gcn_file_assemble(const char *cc, const char *mcpu, const char *src, uint8_t **out,
                      size_t *outlen, char **errtext, int *status, char *err, size_t errlen);

#endif
