/*
 * codeload.c -- loading the code a manifest names: an AMDGPU ELF code object
 * (.hsaco), a clang offload bundle (the entry for the target), or assembly
 * source assembled with `clang-22 -x assembler -target amdgcn-amd-amdhsa
 * -mcpu=<target> -g` (the GCN_CLANG environment variable overrides the
 * compiler), its object read from clang's standard output, so no temporary
 * file of ours exists.  Limits (docs/reliability.md): 2 GiB for a code
 * object or bundle, 64 MiB for assembly source; a directory or an empty file
 * is refused by name.  Library code shared by gcnsim and gcnrun.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gcn_decode.h"
#include "manifest.h"
#include "gcn_file.h"


/* Run clang to assemble src; the object comes back through a pipe (-o -),
 * so no temporary file of ours exists; clang's messages go into err on
 * failure. */
static int assemble(const char *src, const char *target, uint8_t **obj, size_t *objlen, char *err,
                    size_t errlen)
{
    const char *cc = getenv("GCN_CLANG");
    if (!cc || !*cc)
        cc = "clang-22";
    char *msg = NULL, sub[512];
    int st;
    if (gcn_file_assemble(cc, target, src, obj, objlen, &msg, &st, sub, sizeof sub)) {
        if (!strncmp(sub, "cannot run ", 11))   /* no assembler: say what is needed */
            gcn_seterr(err, errlen, "%s: assembling for %s: %s: an assembly source needs clang-22 "
                   "(LLVM 22; apt-get install clang-22) on PATH, or GCN_CLANG naming it",
                   src, target, sub);
        else
            gcn_seterr(err, errlen, "%s: assembling for %s: %s", src, target, sub);
        free(msg);
        return -1;
    }
    if (st != 0) {
        gcn_seterr(err, errlen, "%s: assembling for %s with %s failed:\n%s", src, target, cc,
               msg && *msg ? msg : st < 0 ? "(killed by a signal)" : "(no message)");
        free(msg);
        free(*obj);
        *obj = NULL;
        return -1;
    }
    free(msg);
    return 0;
}

static int check_target(gcn_codeobj *co, const char *target, char *err, size_t errlen)
{
    if (target && co->target != gcn_target_from_name(target)) {
        gcn_seterr(err, errlen, "%s: the code object is for %s, not %s", co->path,
               gcn_target_name(co->target), target);
        return -1;
    }
    if (co->target != GCN_TARGET_GFX942 && co->target != GCN_TARGET_GFX950) {
        gcn_seterr(err, errlen, "%s: target %s is not simulated (gfx942 and gfx950 are)", co->path,
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
        gcn_seterr(err, errlen, "out of memory");
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

/* fallback: the target of assembly source that states none, when no target is given */
static int load_code(const char *path, const char *target, const char *fallback, gcn_codeobj **co,
                     uint8_t **image, size_t *image_len, char *err, size_t errlen);

int gcn_mf_load_code_image(const char *path, const char *target, gcn_codeobj **co,
                           uint8_t **image, size_t *image_len, char *err, size_t errlen)
{
    return load_code(path, target, NULL, co, image, image_len, err, errlen);
}

int gcn_mf_load_code_for(const gcn_manifest *m, const char *mcpu, gcn_codeobj **co,
                         const char **target, char *err, size_t errlen)
{
    *co = NULL;
    *target = NULL;
    const char *want = NULL;
    if (gcn_mf_target(m, mcpu, &want, err, errlen))
        return -1;
    /* with several targets and no --mcpu the code says which (a gfx950
     * object, a source with .amdgcn_target); source that does not is
     * assembled for the first */
    if (!mcpu && m->ntargets > 1)
        want = NULL;
    if (load_code(m->code, want, m->ntargets ? m->targets[0] : NULL, co, NULL, NULL, err, errlen))
        return -1;
    const char *got = gcn_target_name((*co)->target);
    if (m->ntargets) {
        int ok = 0;
        for (unsigned i = 0; i < m->ntargets; i++)
            ok |= gcn_target_from_name(m->targets[i]) == (*co)->target;
        if (!ok) {
            gcn_seterr(err, errlen, "%s: the code object is for %s, which is not among the targets of "
                   "%s", m->code, got, m->path);
            gcn_co_close(*co);
            *co = NULL;
            return -1;
        }
    }
    *target = got;
    return 0;
}

/* The code object of the ELF image data[len] (its image kept when asked), checked
 * against TARGET; frees nothing.  0, or -1 (err). */
static int open_image(const char *path, const uint8_t *data, size_t len, const char *target,
                      gcn_codeobj **co, uint8_t **image, size_t *image_len, char *err,
                      size_t errlen)
{
    gcn_co_err ce;
    if (gcn_co_open_mem(path, data, len, co, &ce)) {
        gcn_seterr(err, errlen, "%s", ce.msg);
        return -1;
    }
    if (check_target(*co, target, err, errlen) ||
        keep_image(data, len, image, image_len, err, errlen)) {
        gcn_co_close(*co);
        *co = NULL;
        return -1;
    }
    return 0;
}

/* A clang offload bundle: its first amdgcn entry (for TARGET when one is given). */
static int load_bundle(const char *path, const uint8_t *data, size_t len, const char *target,
                       gcn_codeobj **co, uint8_t **image, size_t *image_len, char *err,
                       size_t errlen)
{
    gcn_co_err ce;
    gcn_bundle_entry *ents = NULL;
    unsigned n = 0;
    if (gcn_bundle_list(path, data, len, &ents, &n, &ce)) {
        gcn_seterr(err, errlen, "%s", ce.msg);
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
    int rc = -1;
    if (pick < 0)
        gcn_seterr(err, errlen, "%s: the offload bundle has no amdgcn entry%s%s", path,
               target ? " for " : "", target ? target : "");
    else
        rc = open_image(path, data + ents[pick].offset, ents[pick].size, target, co, image,
                        image_len, err, errlen);
    gcn_bundle_free(ents, n);
    return rc;
}

/* Assembly source, assembled by clang for the target the source states (.amdgcn_target),
 * which a target chosen otherwise (--mcpu, a manifest's only target, the device) must
 * agree with; else for TARGET, else FALLBACK.  The directive's whole target ID goes to
 * clang's -mcpu, which refuses any other. */
static int load_asm(const char *path, const char *target, const char *fallback,
                    gcn_codeobj **co, uint8_t **image, size_t *image_len, char *err,
                    size_t errlen)
{
    if (gcn_file_check_input(path, GCN_FILE_MAX_ASM, "assembly source", err, errlen))
        return -1;
    char tid[64], proc[64];
    int has = gcn_file_asm_target(path, tid, sizeof tid, err, errlen);
    if (has < 0)
        return -1;
    if (has) {
        snprintf(proc, sizeof proc, "%.*s", (int)strcspn(tid, ":"), tid);
        gcn_target pt = gcn_target_from_name(proc);
        if (pt != GCN_TARGET_GFX942 && pt != GCN_TARGET_GFX950) {
            gcn_seterr(err, errlen, "%s: .amdgcn_target %s is not simulated (gfx942 and gfx950 are)",
                   path, tid);
            return -1;
        }
        if (target && gcn_target_from_name(target) != pt) {
            gcn_seterr(err, errlen, "%s: the source is for %s (.amdgcn_target), not %s", path, proc,
                   target);
            return -1;
        }
        target = gcn_target_name(pt);
    }
    if (!target)
        target = fallback;
    if (!target) {
        gcn_seterr(err, errlen, "%s: assembly source needs a target: --mcpu, \"targets\" in the "
               "manifest, or an .amdgcn_target directive in the source", path);
        return -1;
    }
    uint8_t *data = NULL;
    size_t len = 0;
    if (assemble(path, has ? tid : target, &data, &len, err, errlen))
        return -1;
    gcn_co_err ce;
    int rc = gcn_co_open_mem(path, data, len, co, &ce);
    if (rc)
        gcn_seterr(err, errlen, "%s (assembled): %s", path, ce.msg);
    else if (check_target(*co, target, err, errlen) ||
             keep_image(data, len, image, image_len, err, errlen)) {
        gcn_co_close(*co);
        *co = NULL;
        rc = -1;
    }
    free(data);
    return rc ? -1 : 0;
}

/* Whether PATH is binary (not assembly source): not a regular file, or its first bytes are
 * an ELF or bundle magic or hold a NUL byte. */
static int is_binary(const char *path)
{
    struct stat st;
    uint8_t head[32];
    size_t hlen = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        ssize_t r;
        while (hlen < sizeof head &&
               ((r = read(fd, head + hlen, sizeof head - hlen)) > 0 || (r < 0 && errno == EINTR)))
            hlen += r > 0 ? (size_t)r : 0;
    }
    int regular = fd >= 0 && S_ISREG(st.st_mode);
    if (fd >= 0)
        close(fd);
    /* a NUL byte near the start: some binary file, not assembly source */
    return !regular || (hlen >= 4 && !memcmp(head, "\177ELF", 4)) ||
           gcn_bundle_is(head, hlen) || memchr(head, 0, hlen) != NULL;
}

static int load_code(const char *path, const char *target, const char *fallback, gcn_codeobj **co,
                     uint8_t **image, size_t *image_len, char *err, size_t errlen)
{
    *co = NULL;
    if (image) {
        *image = NULL;
        *image_len = 0;
    }
    /* An ELF object or a bundle is read whole (at most 2 GiB, gcn_co_read_file);
     * anything else is assembly source, handed to clang when it is a regular
     * file of at most GCN_FILE_MAX_ASM bytes. */
    if (gcn_file_check_input(path, GCN_FILE_MAX_CODE, "a code object or assembly source", err,
                             errlen))
        return -1;
    if (!is_binary(path))
        return load_asm(path, target, fallback, co, image, image_len, err, errlen);
    uint8_t *data = NULL;
    size_t len = 0;
    gcn_co_err ce;
    if (gcn_co_read_file(path, &data, &len, &ce)) {
        gcn_seterr(err, errlen, "%s", ce.msg);
        return -1;
    }
    int rc = -1;
    if (len >= 4 && !memcmp(data, "\177ELF", 4))
        rc = open_image(path, data, len, target, co, image, image_len, err, errlen);
    else if (gcn_bundle_is(data, len))
        rc = load_bundle(path, data, len, target, co, image, image_len, err, errlen);
    else
        gcn_seterr(err, errlen, "%s: neither a code object nor a clang offload bundle (assembly "
                   "source must be a regular file)", path);
    free(data);
    return rc;
}
