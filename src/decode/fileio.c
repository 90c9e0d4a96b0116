/*
 * fileio.c -- reading inputs within limits, writing outputs without losing
 * or clobbering a user's file, dump directories that appear whole, clean-up
 * of temporaries and children on signals, and running the assembler with
 * its output captured (gcn_file.h, docs/reliability.md).  Linux: the
 * clean-up handler lists directories with getdents64 (async-signal-safe),
 * dump directories are swapped with renameat2(RENAME_EXCHANGE).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gcn_decode.h"
#include "gcn_file.h"

extern char **environ;


static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

static void human(uint64_t n, char *buf, size_t len)
{
    if (n >= (1ull << 30) && n % (1ull << 30) == 0)
        snprintf(buf, len, "%llu GiB", (unsigned long long)(n >> 30));
    else if (n >= (1ull << 20) && n % (1ull << 20) == 0)
        snprintf(buf, len, "%llu MiB", (unsigned long long)(n >> 20));
    else
        snprintf(buf, len, "%llu bytes", (unsigned long long)n);
}

/* ---- clean-up on signals ------------------------------------------------------ */
enum { SLOT_FREE = 0, SLOT_BUSY, SLOT_LIVE };
enum { SLOT_FILE = 0, SLOT_DIR, SLOT_CHILD };
#define NSLOTS 64

/* Fixed storage: the handler reads it without locks or allocation. */
static struct slot {
    atomic_int state;
    int kind;
    pid_t pid;
    char path[PATH_MAX];
} slots[NSLOTS];

static int slot_take(int kind, const char *path, pid_t pid)
{
    if (path && strlen(path) >= PATH_MAX)
        return -1;
    for (int i = 0; i < NSLOTS; i++) {
        int fr = SLOT_FREE;
        if (atomic_compare_exchange_strong(&slots[i].state, &fr, SLOT_BUSY)) {
            slots[i].kind = kind;
            slots[i].pid = pid;
            if (path)
                strcpy(slots[i].path, path);
            else
                slots[i].path[0] = 0;
            atomic_store(&slots[i].state, SLOT_LIVE);
            return i;
        }
    }
    return -1;
}

int gcn_file_remember(const char *path, int is_dir)
{
    return slot_take(is_dir ? SLOT_DIR : SLOT_FILE, path, 0);
}

int gcn_file_remember_child(pid_t pid)
{
    return slot_take(SLOT_CHILD, NULL, pid);
}

void gcn_file_forget(int slot)
{
    if (slot >= 0 && slot < NSLOTS)
        atomic_store(&slots[slot].state, SLOT_FREE);
}

/* Remove the files of a directory (one level) and the directory; only
 * async-signal-safe calls. */
static void remove_dir_safe(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0) {
        char buf[4096] __attribute__((aligned(8)));
        for (int pass = 0; pass < 64; pass++) {
            int removed = 0;
            if (lseek(fd, 0, SEEK_SET) != 0)
                break;
            for (;;) {
                long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
                if (n <= 0)
                    break;
                for (long off = 0; off < n;) {
                    /* struct linux_dirent64: d_ino 8, d_off 8, d_reclen 2, d_type 1, d_name */
                    unsigned short reclen;
                    memcpy(&reclen, buf + off + 16, sizeof reclen);
                    const char *name = buf + off + 19;
                    if (!(name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) &&
                        unlinkat(fd, name, 0) == 0)
                        removed = 1;
                    if (!reclen)
                        break;
                    off += reclen;
                }
            }
            if (!removed)
                break;
        }
        close(fd);
    }
    rmdir(path);
}

static void cleanup_handler(int sig)
{
    int saved = errno;
    for (int i = 0; i < NSLOTS; i++) {
        if (atomic_load(&slots[i].state) != SLOT_LIVE)
            continue;
        if (slots[i].kind == SLOT_CHILD)
            kill(slots[i].pid, SIGTERM);
        else if (slots[i].kind == SLOT_DIR)
            remove_dir_safe(slots[i].path);
        else
            unlink(slots[i].path);
    }
    errno = saved;
    signal(sig, SIG_DFL);
    raise(sig);
}

void gcn_file_signals(void)
{
    static atomic_int done;
    if (atomic_exchange(&done, 1))
        return;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (unsigned i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;            /* ignored at start (nohup, a background job): stays so */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = cleanup_handler;
        sigemptyset(&sa.sa_mask);
        for (unsigned k = 0; k < sizeof sigs / sizeof *sigs; k++)
            sigaddset(&sa.sa_mask, sigs[k]);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* ---- inputs ------------------------------------------------------------------- */
int gcn_file_check_input(const char *path, uint64_t limit, const char *what, char *err,
                         size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        gcn_seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        gcn_seterr(err, errlen, "%s: is a directory, not %s", path, what);
        return -1;
    }
    if (S_ISREG(st.st_mode) && st.st_size == 0) {
        gcn_seterr(err, errlen, "%s: is empty, not %s", path, what);
        return -1;
    }
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > limit) {
        char h[32];
        human(limit, h, sizeof h);
        gcn_seterr(err, errlen, "%s: %lld bytes is more than the %s limit for %s", path,
               (long long)st.st_size, h, what);
        return -1;
    }
    if (access(path, R_OK) != 0) {
        gcn_seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int gcn_file_read(const char *path, uint64_t limit, const char *what, char **data, size_t *len,
                  char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        gcn_seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        gcn_seterr(err, errlen, S_ISDIR(st.st_mode) ? "%s: is a directory, not %s" : "%s: cannot "
               "read %s", path, what);
        close(fd);
        return -1;
    }
    char h[32];
    human(limit, h, sizeof h);
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > limit) {
        gcn_seterr(err, errlen, "%s: %lld bytes is more than the %s limit for %s", path,
               (long long)st.st_size, h, what);
        close(fd);
        return -1;
    }
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            gcn_seterr(err, errlen, "%s: out of memory", path);
            close(fd);
            return -1;
        }
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb)
                free(buf);
            buf = nb;
            cap *= 2;
            continue;
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            gcn_seterr(err, errlen, "%s: read error: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n > limit) {
            gcn_seterr(err, errlen, "%s: more than the %s limit for %s", path, h, what);
            free(buf);
            close(fd);
            return -1;
        }
    }
    close(fd);
    buf[n] = 0;
    *data = buf;
    *len = n;
    return 0;
}

/* ---- outputs ------------------------------------------------------------------ */
int gcn_file_check_output(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        gcn_seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        gcn_seterr(err, errlen, "%s: is %s; not replaced (an output must be a regular file or a new "
               "name)", path, kind_of(st.st_mode));
        return -1;
    }
    return 0;
}

/* A name for a temporary beside path: PATH.tmp-XXXXXX, or DIR/.gcn-tmp-XXXXXX
 * when PATH's last component is long. */
static char *tmp_name(const char *path)
{
    static atomic_uint counter;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t n = strlen(path) + 40;
    char *t = malloc(n);
    if (!t)
        return NULL;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long r = ((unsigned long)getpid() * 2654435761u) ^ (unsigned long)ts.tv_nsec ^
                      ((unsigned long)atomic_fetch_add(&counter, 1) * 40503u);
    static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    char sfx[7];
    for (int i = 0; i < 6; i++, r /= 36)
        sfx[i] = al[r % 36];
    sfx[6] = 0;
    if (strlen(base) <= 200)
        snprintf(t, n, "%s.tmp-%s", path, sfx);
    else
        snprintf(t, n, "%.*s.gcn-tmp-%s", (int)(base - path), path, sfx);
    return t;
}

int gcn_file_out_open(gcn_file_out *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->slot = -1;
    if (gcn_file_check_output(path, err, errlen))
        return -1;
    for (int tries = 0; tries < 100; tries++) {
        free(o->tmp);
        o->tmp = tmp_name(path);
        if (!o->tmp) {
            gcn_seterr(err, errlen, "%s: out of memory", path);
            return -1;
        }
        /* remember it before it exists, so no signal can leave it behind */
        o->slot = gcn_file_remember(o->tmp, 0);
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) {
            int e = errno;
            gcn_file_forget(o->slot);
            o->slot = -1;
            if (e == EEXIST)
                continue;
            gcn_seterr(err, errlen, "%s: cannot create %s: %s", path, o->tmp, strerror(e));
            free(o->tmp);
            o->tmp = NULL;
            return -1;
        }
        o->f = fdopen(fd, "wb");
        if (!o->f) {
            gcn_seterr(err, errlen, "%s: %s", path, strerror(errno));
            close(fd);
            unlink(o->tmp);
            gcn_file_forget(o->slot);
            free(o->tmp);
            o->tmp = NULL;
            return -1;
        }
        o->path = strdup(path);
        if (!o->path) {
            gcn_file_out_close(o, 0, err, errlen);
            gcn_seterr(err, errlen, "%s: out of memory", path);
            return -1;
        }
        return 0;
    }
    gcn_seterr(err, errlen, "%s: cannot find a free temporary name", path);
    free(o->tmp);
    o->tmp = NULL;
    return -1;
}

int gcn_file_out_close(gcn_file_out *o, int ok, char *err, size_t errlen)
{
    int rc = -1;
    if (!o->f)
        return -1;
    int bad = ferror(o->f) != 0;
    int e = errno;
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    o->f = NULL;
    if (ok && bad)
        gcn_seterr(err, errlen, "%s: write error: %s", o->path ? o->path : o->tmp, strerror(e));
    else if (ok && gcn_file_check_output(o->path, err, errlen) == 0) {
        if (rename(o->tmp, o->path) == 0)
            rc = 0;
        else
            gcn_seterr(err, errlen, "%s: cannot rename %s into place: %s", o->path, o->tmp,
                   strerror(errno));
    }
    if (rc)
        unlink(o->tmp);
    gcn_file_forget(o->slot);
    free(o->tmp);
    free(o->path);
    o->tmp = o->path = NULL;
    o->slot = -1;
    return rc;
}

int gcn_file_write(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    gcn_file_out o;
    if (gcn_file_out_open(&o, path, err, errlen))
        return -1;
    int ok = !len || fwrite(data, 1, len, o.f) == len;
    if (!ok)
        gcn_seterr(err, errlen, "%s: write error: %s", path, strerror(errno));
    int rc = gcn_file_out_close(&o, ok, ok ? err : NULL, ok ? errlen : 0);
    return ok ? rc : -1;
}

/* ---- dump directories --------------------------------------------------------- */
int gcn_file_name_check(const char *name, char *why, size_t whylen)
{
    size_t n = strlen(name);
    if (!n)
        gcn_seterr(why, whylen, "an empty name");
    else if (n > 200)
        gcn_seterr(why, whylen, "longer than 200 bytes");
    else if (name[0] == '.')
        gcn_seterr(why, whylen, "it starts with '.' (hidden files, \"..\")");
    else if (strchr(name, '/'))
        gcn_seterr(why, whylen, "it contains '/'");
    else {
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) {
                gcn_seterr(why, whylen, "it contains a control character");
                return -1;
            }
        return 0;
    }
    return -1;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* 0: dir is a dump directory or empty (*empty says which); -1: something else
 * is in it (err names it). */
static int scan_dump(const char *dir, int *empty, char *err, size_t errlen)
{
    DIR *dp = opendir(dir);
    if (!dp) {
        gcn_seterr(err, errlen, "--dump-dir %s: %s", dir, strerror(errno));
        return -1;
    }
    int n = 0, marker = 0, rc = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        const char *nm = de->d_name;
        if (!strcmp(nm, ".") || !strcmp(nm, ".."))
            continue;
        n++;
        struct stat st;
        int isreg = fstatat(dirfd(dp), nm, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
        if (!isreg || !(has_suffix(nm, ".bin") || !strcmp(nm, "run.json"))) {
            gcn_seterr(err, errlen, "--dump-dir %s: holds '%s', which is not part of a dump; a dump "
                   "directory is replaced whole, so give a new or an empty directory", dir, nm);
            rc = -1;
            break;
        }
        if (!strcmp(nm, "run.json") || has_suffix(nm, ".in.bin"))
            marker = 1;
    }
    closedir(dp);
    if (rc == 0 && n && !marker) {
        gcn_seterr(err, errlen, "--dump-dir %s: holds .bin files but no run.json or NAME.in.bin, so it "
               "is not a dump; a dump directory is replaced whole, so give a new or an empty "
               "directory", dir);
        rc = -1;
    }
    *empty = n == 0;
    return rc;
}

/* The destination as it will be used: trailing slashes dropped, a symbolic
 * link to a directory resolved.  *exists says whether it exists. */
static char *dump_target(const char *dir, int *exists, char *err, size_t errlen)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    char *d = strndup(dir, n);
    if (!d) {
        gcn_seterr(err, errlen, "out of memory");
        return NULL;
    }
    if (!n || !strcmp(d, "/") || !strcmp(d, ".") || !strcmp(d, "..") || has_suffix(d, "/.") ||
        has_suffix(d, "/..")) {
        gcn_seterr(err, errlen, "--dump-dir %s: give a directory by its name (it is replaced whole)",
               dir);
        free(d);
        return NULL;
    }
    struct stat st;
    *exists = 0;
    if (lstat(d, &st) != 0) {
        if (errno == ENOENT)
            return d;
        gcn_seterr(err, errlen, "--dump-dir %s: %s", dir, strerror(errno));
        free(d);
        return NULL;
    }
    *exists = 1;
    if (S_ISLNK(st.st_mode)) {
        char *r = realpath(d, NULL);
        if (!r || stat(r, &st) != 0 || !S_ISDIR(st.st_mode)) {
            gcn_seterr(err, errlen, "--dump-dir %s: is a symbolic link to %s; not replaced", dir,
                   r ? "something other than a directory" : "nothing");
            free(r);
            free(d);
            return NULL;
        }
        free(d);
        return r;
    }
    if (!S_ISDIR(st.st_mode)) {
        gcn_seterr(err, errlen, "--dump-dir %s: is %s, not a directory; not replaced", dir,
               kind_of(st.st_mode));
        free(d);
        return NULL;
    }
    return d;
}

int gcn_dump_check(const char *dir, char *err, size_t errlen)
{
    int exists, empty;
    char *d = dump_target(dir, &exists, err, errlen);
    if (!d)
        return -1;
    int rc = exists ? scan_dump(d, &empty, err, errlen) : 0;
    free(d);
    return rc;
}

int gcn_dump_begin(gcn_dump *dd, const char *dir, char *err, size_t errlen)
{
    memset(dd, 0, sizeof *dd);
    dd->slot = -1;
    int exists, empty;
    dd->dir = dump_target(dir, &exists, err, errlen);
    if (!dd->dir)
        return -1;
    if (exists && scan_dump(dd->dir, &empty, err, errlen)) {
        free(dd->dir);
        dd->dir = NULL;
        return -1;
    }
    int said = 0;
    for (int tries = 0; tries < 100 && !said; tries++) {
        dd->tmp = tmp_name(dd->dir);
        if (!dd->tmp) {
            gcn_seterr(err, errlen, "out of memory");
            said = 1;
            break;
        }
        dd->slot = gcn_file_remember(dd->tmp, 1);
        if (mkdir(dd->tmp, 0777) == 0)
            return 0;
        int e = errno;
        gcn_file_forget(dd->slot);
        dd->slot = -1;
        free(dd->tmp);
        dd->tmp = NULL;
        if (e != EEXIST) {
            gcn_seterr(err, errlen, "--dump-dir %s: cannot create a directory beside it: %s", dir,
                   strerror(e));
            said = 1;
        }
    }
    if (!said)
        gcn_seterr(err, errlen, "--dump-dir %s: cannot find a free temporary name", dir);
    free(dd->dir);
    dd->dir = NULL;
    return -1;
}

int gcn_dump_write(gcn_dump *dd, const char *name, const char *suffix, const void *data, size_t len,
                   char *err, size_t errlen)
{
    char why[128];
    if (gcn_file_name_check(name, why, sizeof why)) {
        gcn_seterr(err, errlen, "dump file name \"%.200s\": %s", name, why);
        return -1;
    }
    size_t n = strlen(dd->tmp) + strlen(name) + strlen(suffix) + 2;
    char *p = malloc(n);
    if (!p) {
        gcn_seterr(err, errlen, "out of memory");
        return -1;
    }
    snprintf(p, n, "%s/%s%s", dd->tmp, name, suffix);
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    int rc = -1;
    if (fd < 0) {
        gcn_seterr(err, errlen, "--dump-dir %s: %s%s: %s", dd->dir, name, suffix, strerror(errno));
        free(p);
        return -1;
    }
    const uint8_t *b = data;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, b + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    if (done < len)
        gcn_seterr(err, errlen, "--dump-dir %s: %s%s: write error: %s", dd->dir, name, suffix,
               strerror(errno));
    else
        rc = 0;
    if (close(fd) != 0 && rc == 0) {
        gcn_seterr(err, errlen, "--dump-dir %s: %s%s: write error: %s", dd->dir, name, suffix,
               strerror(errno));
        rc = -1;
    }
    free(p);
    return rc;
}

void gcn_dump_abort(gcn_dump *dd)
{
    if (dd->tmp)
        remove_dir_safe(dd->tmp);
    gcn_file_forget(dd->slot);
    free(dd->tmp);
    free(dd->dir);
    dd->tmp = dd->dir = NULL;
    dd->slot = -1;
}

int gcn_dump_commit(gcn_dump *dd, char *err, size_t errlen)
{
    struct stat st;
    int rc = -1;
    if (lstat(dd->dir, &st) != 0 && errno == ENOENT) {
        if (rename(dd->tmp, dd->dir) == 0)
            rc = 0;
        else
            gcn_seterr(err, errlen, "--dump-dir %s: %s", dd->dir, strerror(errno));
    } else {
        int empty;
        if (!S_ISDIR(st.st_mode)) {
            gcn_seterr(err, errlen, "--dump-dir %s: is now %s; the dump is not put there", dd->dir,
                   kind_of(st.st_mode));
        } else if (scan_dump(dd->dir, &empty, err, errlen) == 0) {
            if (empty && rename(dd->tmp, dd->dir) == 0) {
                rc = 0;
            } else if (renameat2(AT_FDCWD, dd->tmp, AT_FDCWD, dd->dir, RENAME_EXCHANGE) == 0) {
                rc = 0;       /* dd->tmp now holds the earlier dump */
            } else {
                /* no RENAME_EXCHANGE on this file system: move the earlier dump
                 * aside, then the new one in */
                char *old = tmp_name(dd->dir);
                int slot = old ? gcn_file_remember(old, 1) : -1;
                if (old && rename(dd->dir, old) == 0) {
                    if (rename(dd->tmp, dd->dir) == 0) {
                        free(dd->tmp);
                        dd->tmp = old;
                        old = NULL;
                        rc = 0;
                    } else {
                        gcn_seterr(err, errlen, "--dump-dir %s: %s", dd->dir, strerror(errno));
                        rename(old, dd->dir);
                    }
                } else {
                    gcn_seterr(err, errlen, "--dump-dir %s: %s", dd->dir, strerror(errno));
                }
                gcn_file_forget(slot);
                free(old);
            }
        }
    }
    if (rc == 0 && dd->tmp && access(dd->tmp, F_OK) == 0)
        remove_dir_safe(dd->tmp);             /* the earlier dump */
    else if (rc == 0) {
        /* renamed into place: nothing left to remove */
    } else {
        remove_dir_safe(dd->tmp);
    }
    gcn_file_forget(dd->slot);
    free(dd->tmp);
    free(dd->dir);
    dd->tmp = dd->dir = NULL;
    dd->slot = -1;
    return rc;
}

/* ---- running the assembler ---------------------------------------------------- */
int gcn_file_run(char *const argv[], uint64_t out_limit, uint8_t **out, size_t *outlen,
                 char **errtext, int *status, char *err, size_t errlen)
{
    if (out) {
        *out = NULL;
        *outlen = 0;
    }
    if (errtext)
        *errtext = NULL;
    *status = -1;
    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC) != 0) {
        gcn_seterr(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(pe, O_CLOEXEC) != 0) {
        gcn_seterr(err, errlen, "pipe: %s", strerror(errno));
        close(po[0]);
        close(po[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (rc != 0) {
        gcn_seterr(err, errlen, "cannot run %s: %s", argv[0], strerror(rc));
        close(po[0]);
        close(pe[0]);
        return -1;
    }
    int slot = gcn_file_remember_child(pid);
    size_t cap = 1 << 16, n = 0, en = 0;
    uint8_t *buf = malloc(cap);
    char ebuf[4096];
    int too_big = 0, nomem = !buf, open_o = 1, open_e = 1;
    while (open_o || open_e) {
        struct pollfd pf[2] = {{open_o ? po[0] : -1, POLLIN, 0}, {open_e ? pe[0] : -1, POLLIN, 0}};
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (open_o && (pf[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            uint8_t tmp[65536];
            ssize_t r = read(po[0], tmp, sizeof tmp);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                open_o = 0;
            } else if (!too_big && !nomem) {
                if (n + (size_t)r > out_limit) {
                    too_big = 1;
                    kill(pid, SIGTERM);
                } else {
                    if (n + (size_t)r > cap) {
                        while (n + (size_t)r > cap)
                            cap *= 2;
                        uint8_t *nb = realloc(buf, cap);
                        if (!nb) {
                            nomem = 1;
                            kill(pid, SIGTERM);
                        } else {
                            buf = nb;
                        }
                    }
                    if (!nomem) {
                        memcpy(buf + n, tmp, (size_t)r);
                        n += (size_t)r;
                    }
                }
            }
        }
        if (open_e && (pf[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            char tmp[4096];
            ssize_t r = read(pe[0], tmp, sizeof tmp);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                open_e = 0;
            } else {
                size_t k = (size_t)r < sizeof ebuf - 1 - en ? (size_t)r : sizeof ebuf - 1 - en;
                memcpy(ebuf + en, tmp, k);
                en += k;
            }
        }
    }
    close(po[0]);
    close(pe[0]);
    ebuf[en] = 0;
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    gcn_file_forget(slot);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (errtext)
        *errtext = strdup(ebuf);
    if (too_big || nomem) {
        char h[32];
        human(out_limit, h, sizeof h);
        if (too_big)
            gcn_seterr(err, errlen, "%s printed more than %s", argv[0], h);
        else
            gcn_seterr(err, errlen, "out of memory reading the output of %s", argv[0]);
        free(buf);
        return -1;
    }
    if (out) {
        *out = buf;
        *outlen = n;
    } else {
        free(buf);
    }
    return 0;
}

int gcn_file_asm_target(const char *path, char *tid, size_t tidlen, char *err, size_t errlen)
{
    char *src = NULL;
    size_t len = 0;
    if (gcn_file_read(path, GCN_FILE_MAX_ASM, "assembly source", &src, &len, err, errlen))
        return -1;
    int found = 0;
    unsigned line = 1;
    for (char *p = src; p < src + len && !found; line++) {
        char *eol = memchr(p, '\n', (size_t)(src + len - p));
        if (!eol)
            eol = src + len;
        char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        static const char dir[] = ".amdgcn_target";
        if ((size_t)(eol - q) > sizeof dir - 1 && !memcmp(q, dir, sizeof dir - 1) &&
            (q[sizeof dir - 1] == ' ' || q[sizeof dir - 1] == '\t')) {
            q += sizeof dir - 1;
            while (q < eol && (*q == ' ' || *q == '\t'))
                q++;
            char *close = q < eol && *q == '"' ? memchr(q + 1, '"', (size_t)(eol - q - 1)) : NULL;
            char *dash = NULL;
            for (char *d = q + 1; close && d + 1 < close; d++)
                if (d[0] == '-' && d[1] == '-') {
                    dash = d + 2;
                    break;
                }
            if (!close || !dash || dash == close || (size_t)(close - dash) >= tidlen) {
                gcn_seterr(err, errlen, "%s:%u: malformed .amdgcn_target directive (expected "
                       "\"amdgcn-amd-amdhsa--PROCESSOR[:FEATURES]\")", path, line);
                free(src);
                return -1;
            }
            memcpy(tid, dash, (size_t)(close - dash));
            tid[close - dash] = 0;
            found = 1;
        }
        p = eol + 1;
    }
    free(src);
    return found;
}

int gcn_file_assemble(const char *cc, const char *mcpu, const char *src, uint8_t **out,
                      size_t *outlen, char **errtext, int *status, char *err, size_t errlen)
{
    char cpu[80], dir[PATH_MAX];
    snprintf(cpu, sizeof cpu, "-mcpu=%s", mcpu);
    const char *slash = strrchr(src, '/');
    if (slash == src)
        strcpy(dir, "/");
    else if (slash && (size_t)(slash - src) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - src), src);
    else
        strcpy(dir, ".");
    char *argv[] = {(char *)cc, "-x", "assembler", "-target", "amdgcn-amd-amdhsa", cpu, "-g",
                    "-I", dir, (char *)src, "-o", "-", NULL};
    return gcn_file_run(argv, GCN_FILE_MAX_ASM_OUT, out, outlen, errtext, status, err, errlen);
}
