/*
 * codeload.c -- loading the code a manifest names: an AMDGPU ELF code object
 * (.hsaco), a clang offload bundle (the entry for the target), or assembly
 * source assembled with `clang-22 -x assembler -target amdgcn-amd-amdhsa
 * -mcpu=<target> -g` (the GCN_CLANG environment variable overrides the
 * compiler).  Library code shared by gcnsim and gcnrun.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "manifest.h"

static void seterr(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

static int read_all(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        seterr(err, errlen, "%s: %s", path, buf ? "read error" : "out of memory");
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

/* Run clang to assemble src into out; stderr goes into err on failure. */
static int assemble(const char *src, const char *target, const char *out, char *err, size_t errlen)
{
    const char *cc = getenv("GCN_CLANG");
    if (!cc || !*cc)
        cc = "clang-22";
    char mcpu[64];
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", target);
    int pfd[2];
    if (pipe(pfd)) {
        seterr(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(pfd[0]);
        close(pfd[1]);
        seterr(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        dup2(pfd[1], 2);
        close(pfd[0]);
        close(pfd[1]);
        int dn = open("/dev/null", O_WRONLY);
        if (dn >= 0)
            dup2(dn, 1);
        execlp(cc, cc, "-x", "assembler", "-target", "amdgcn-amd-amdhsa", mcpu, "-g", src, "-o",
               out, (char *)NULL);
        fprintf(stderr, "cannot run %s: %s\n", cc, strerror(errno));
        _exit(127);
    }
    close(pfd[1]);
    char buf[2048];
    size_t n = 0;
    for (;;) {
        ssize_t r = read(pfd[0], buf + n, sizeof buf - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
        if (n >= sizeof buf - 1) {
            char sink[512];
            while (read(pfd[0], sink, sizeof sink) > 0)
                ;
            break;
        }
    }
    buf[n] = 0;
    close(pfd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        seterr(err, errlen, "%s: assembling for %s with %s failed:\n%s", src, target, cc,
               n ? buf : "(no message)");
        return -1;
    }
    return 0;
}

static int check_target(gcn_codeobj *co, const char *target, char *err, size_t errlen)
{
    if (target && co->target != gcn_target_from_name(target)) {
        seterr(err, errlen, "%s: the code object is for %s, not %s", co->path,
               gcn_target_name(co->target), target);
        return -1;
    }
    if (co->target != GCN_TARGET_GFX942 && co->target != GCN_TARGET_GFX950) {
        seterr(err, errlen, "%s: target %s is not simulated (gfx942 and gfx950 are)", co->path,
               gcn_target_name(co->target));
        return -1;
    }
    return 0;
}

/* Hand a copy of the ELF bytes to the caller when it asked for them. */
static int keep_image(const uint8_t *elf, size_t len, uint8_t **image, size_t *image_len,
                      char *err, size_t errlen)
{
    if (!image)
        return 0;
    *image = malloc(len ? len : 1);
    if (!*image) {
        seterr(err, errlen, "out of memory");
        return -1;
    }
    memcpy(*image, elf, len);
    *image_len = len;
    return 0;
}

int gcn_mf_load_code(const char *path, const char *target, gcn_codeobj **co, char *err,
                     size_t errlen)
{
    return gcn_mf_load_code_image(path, target, co, NULL, NULL, err, errlen);
}

int gcn_mf_load_code_image(const char *path, const char *target, gcn_codeobj **co,
                           uint8_t **image, size_t *image_len, char *err, size_t errlen)
{
    *co = NULL;
    if (image) {
        *image = NULL;
        *image_len = 0;
    }
    uint8_t *data;
    size_t len;
    gcn_co_err ce;
    if (read_all(path, &data, &len, err, errlen))
        return -1;
    if (len >= 4 && !memcmp(data, "\177ELF", 4)) {
        int rc = gcn_co_open_mem(path, data, len, co, &ce);
        if (rc) {
            free(data);
            seterr(err, errlen, "%s", ce.msg);
            return -1;
        }
        if (check_target(*co, target, err, errlen) ||
            keep_image(data, len, image, image_len, err, errlen)) {
            free(data);
            gcn_co_close(*co);
            *co = NULL;
            return -1;
        }
        free(data);
        return 0;
    }
    if (gcn_bundle_is(data, len)) {
        gcn_bundle_entry *ents = NULL;
        unsigned n = 0;
        if (gcn_bundle_list(path, data, len, &ents, &n, &ce)) {
            free(data);
            seterr(err, errlen, "%s", ce.msg);
            return -1;
        }
        int pick = -1;
        for (unsigned i = 0; i < n; i++) {
            const char *t = ents[i].triple;
            if (!strstr(t, "amdgcn"))
                continue;
            if (!target || strstr(t, target)) {
                pick = (int)i;
                break;
            }
        }
        if (pick < 0) {
            seterr(err, errlen, "%s: the offload bundle has no amdgcn entry%s%s", path,
                   target ? " for " : "", target ? target : "");
            gcn_bundle_free(ents, n);
            free(data);
            return -1;
        }
        int rc = gcn_co_open_mem(path, data + ents[pick].offset, ents[pick].size, co, &ce);
        if (rc)
            seterr(err, errlen, "%s", ce.msg);
        else if (check_target(*co, target, err, errlen) ||
                 keep_image(data + ents[pick].offset, ents[pick].size, image, image_len, err,
                            errlen)) {
            gcn_co_close(*co);
            *co = NULL;
            rc = -1;
        }
        gcn_bundle_free(ents, n);
        free(data);
        return rc ? -1 : 0;
    }
    free(data);
    /* assembly source */
    if (!target) {
        seterr(err, errlen, "%s: assembly source needs a target (--mcpu, or \"targets\" in the "
               "manifest)", path);
        return -1;
    }
    const char *tmpd = getenv("TMPDIR");
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s/gcnsim-XXXXXX.hsaco", tmpd && *tmpd ? tmpd : "/tmp");
    int fd = mkstemps(tmp, 6);
    if (fd < 0) {
        seterr(err, errlen, "%s: %s", tmp, strerror(errno));
        return -1;
    }
    close(fd);
    int rc = assemble(path, target, tmp, err, errlen);
    if (rc == 0) {
        if (read_all(tmp, &data, &len, err, errlen) == 0) {
            rc = gcn_co_open_mem(path, data, len, co, &ce);
            if (rc)
                seterr(err, errlen, "%s (assembled): %s", path, ce.msg);
            else if (check_target(*co, target, err, errlen) ||
                     keep_image(data, len, image, image_len, err, errlen)) {
                gcn_co_close(*co);
                *co = NULL;
                rc = -1;
            }
            free(data);
        } else {
            rc = -1;
        }
    }
    unlink(tmp);
    return rc ? -1 : 0;
}
