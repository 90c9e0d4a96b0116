/*
 * gcndis.c -- the gcndis command: disassemble AMDGPU code objects, clang
 * offload bundles or raw instruction streams in LLVM's syntax.  Thin: all
 * work is in libgcn (codeobj.c, bundle.c, colist.c, textpar.c).  See docs/gcndis.md.
 *
 * Exit codes: 0 ok, 1 usage, 2 unreadable or invalid input (or output that
 * cannot be written).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gcn_codeobj.h"
#include "gcn_decode.h"
#include "gcn_file.h"
#include "cli.h"
#include "tools/gcn_version.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gcndis [options] FILE\n"
        "  FILE is an AMDGPU code object (gfx942/gfx950, code object v4-v6), a clang\n"
        "  offload bundle holding one, or with --raw a raw instruction stream.\n"
        "  (no option)            kernels: descriptor summary, then instructions with\n"
        "                         address, encoding words and file:line\n"
        "  --kernel=NAME          only this kernel\n"
        "  --llvm-text            only the instruction text of .text, one per line, as\n"
        "                         llvm-objdump-22 -d --disassemble-zeroes prints it\n"
        "  --offload-arch=ARCH    bundle entry to read (gfx942, gfx950, a target ID, a\n"
        "                         triple or an index); default: the first gfx942/gfx950\n"
        "  --bundle-list          list the entries of an offload bundle:\n"
        "                         INDEX<TAB>OFFSET<TAB>SIZE<TAB>TRIPLE\n"
        "  --bundle-extract=SEL   write bundle entry SEL (index, processor, target ID or\n"
        "                         triple) to the file given with -o\n"
        "  --raw                  FILE is a raw little-endian instruction stream (needs --mcpu)\n"
        "  --mcpu=gfx942|gfx950   target for --raw (also --mcpu X, -mcpu=X)\n"
        "  --with-offsets         with --raw --llvm-text: prefix each line with byte offset and size\n"
        "  -j N, --jobs=N         threads for --llvm-text and --raw (default: one per CPU;\n"
        "                         the output is the same for every N)\n"
        "  -o OUT                 write the output to OUT (atomically) instead of stdout\n"
        "  -h, --help             this help\n"
        "  --version              print the version (and the git revision) and exit\n"
        "exit status: 0 ok, 1 usage, 2 unreadable or invalid input\n");
}

/* Output either to stdout or to a temporary file beside OUT renamed over it
 * at the end (gcn_file.h): a failed run never leaves a half-written OUT, a
 * special file or a symbolic link at OUT is refused rather than replaced, the
 * new file's mode is 0666 less the umask, and the temporary is removed on
 * SIGINT/SIGTERM/SIGHUP. */
typedef struct out {
    const char *path;
    gcn_file_out fo;
    FILE *f;
} out;

static int out_open(out *o, const char *path)
{
    o->path = path;
    if (!path) {
        o->f = stdout;
        return 0;
    }
    char err[1024];
    if (gcn_file_out_open(&o->fo, path, err, sizeof err)) {
        fprintf(stderr, "gcndis: %s\n", err);
        return -1;
    }
    o->f = o->fo.f;
    return 0;
}

/* ok: the content is complete.  Returns 0 when the output is in place. */
static int out_close(out *o, int ok)
{
    if (!o->path) {
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "gcndis: cannot write standard output: %s\n", strerror(errno));
            return -1;
        }
        return ok ? 0 : -1;
    }
    char err[1024];
    if (gcn_file_out_close(&o->fo, ok, err, sizeof err)) {
        if (ok)
            fprintf(stderr, "gcndis: %s\n", err);
        return -1;
    }
    return 0;
}

static int read_input(const char *path, uint8_t **data, size_t *len)
{
    gcn_co_err err;
    if (gcn_co_read_file(path, data, len, &err)) {
        fprintf(stderr, "gcndis: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static gcn_text_opts text_opts;          /* -j */

/* Threads for a long one-line-per-instruction text, started before the
 * input is read so that they are running when the text is (textpar.c):
 * for inputs of CREW_MIN bytes or more (a smaller one would wait for the
 * threads to end without using them).  The crew is not ended: once the
 * text is printed its threads are idle, and they end with the process
 * (ending the crew would wait for each, 0.1-0.2 ms here). */
#define CREW_MIN (256u << 10)

static void crew_start(const char *path)
{
    struct stat st;
    if (text_opts.jobs != 1 && stat(path, &st) == 0 && st.st_size >= CREW_MIN)
        text_opts.crew = gcn_text_crew_start(text_opts.jobs);
}

static int do_raw(const char *path, gcn_target t, int mode, const char *outpath)
{
    uint8_t *data;
    size_t len;
    if (read_input(path, &data, &len))
        return 2;
    out o;
    if (out_open(&o, outpath)) {
        free(data);
        return 2;
    }
    int rc = gcn_raw_print_opt(t, data, len, mode, o.f, &text_opts);
    free(data);
    return out_close(&o, rc == 0) ? 2 : 0;
}

static int do_bundle(const char *path, int list, const char *sel, const char *outpath)
{
    uint8_t *data;
    size_t len;
    if (read_input(path, &data, &len))
        return 2;
    gcn_co_err err;
    gcn_bundle_entry *e = NULL;
    unsigned n = 0;
    int status = 2;
    if (len == 0) {
        fprintf(stderr, "gcndis: %s: empty file\n", path);
        goto done;
    }
    if (gcn_bundle_is_compressed(data, len)) {
        fprintf(stderr, "gcndis: %s: compressed clang offload bundle (CCOB) is not supported\n",
                path);
        goto done;
    }
    if (gcn_bundle_list(path, data, len, &e, &n, &err)) {
        fprintf(stderr, "gcndis: %s\n", err.msg);
        goto done;
    }
    out o;
    if (list) {
        if (out_open(&o, outpath))
            goto done;
        for (unsigned i = 0; i < n; i++)
            fprintf(o.f, "%u\t%llu\t%llu\t%s\n", i, (unsigned long long)e[i].offset,
                    (unsigned long long)e[i].size, e[i].triple);
        status = out_close(&o, 1) ? 2 : 0;
        goto done;
    }
    int idx = gcn_bundle_select(path, e, n, sel, &err);
    if (idx < 0) {
        fprintf(stderr, "gcndis: %s\n", err.msg);
        goto done;
    }
    if (out_open(&o, outpath))
        goto done;
    int ok = fwrite(data + e[idx].offset, 1, (size_t)e[idx].size, o.f) == e[idx].size;
    status = out_close(&o, ok) ? 2 : 0;
done:
    gcn_bundle_free(e, n);
    free(data);
    return status;
}

static int do_codeobj(const char *path, const char *arch, int llvm_text, const char *kernel,
                      const char *outpath)
{
    gcn_codeobj *co;
    gcn_co_err err;
    /* with a crew, its threads start on the text while the rest of the
     * object (descriptors, metadata note, line table) is read */
    gcn_co_hooks hooks = {gcn_text_crew_ready, gcn_text_crew_cancel, &text_opts};
    if (gcn_co_open_hooks(path, arch, llvm_text && text_opts.crew ? &hooks : NULL, &co, &err)) {
        fprintf(stderr, "gcndis: %s\n", err.msg);
        return 2;
    }
    if (co->warning[0])
        fprintf(stderr, "gcndis: warning: %s: %s\n", path, co->warning);
    if (co->bundle_triple && co->bundle_gpu_entries > 1 && !arch)
        fprintf(stderr, "gcndis: note: %s: the offload bundle has %u gfx942/gfx950 code objects; "
                        "showing %s (choose with --offload-arch=)\n",
                path, co->bundle_gpu_entries, co->bundle_triple);
    if (kernel && !gcn_co_kernel(co, kernel)) {
        fprintf(stderr, "gcndis: %s: no kernel named '%s'", path, kernel);
        for (unsigned i = 0; i < co->nkernels; i++)
            fprintf(stderr, "%s%s", i ? ", " : " (kernels: ", co->kernels[i].name);
        fprintf(stderr, "%s\n", co->nkernels ? ")" : "");
        gcn_text_crew_cancel(&text_opts);
        gcn_co_close(co);
        return 1;
    }
    out o;
    if (out_open(&o, outpath)) {
        gcn_text_crew_cancel(&text_opts);   /* (before co goes) */
        gcn_co_close(co);
        return 2;
    }
    int rc = llvm_text ? gcn_co_print_llvm_text_opt(co, o.f, &text_opts) : gcn_co_print_listing(co, kernel, o.f);
    gcn_co_close(co);
    return out_close(&o, rc == 0) ? 2 : 0;
}

int main(int argc, char **argv)
{
    enum { O_LLVM = 256, O_RAW, O_MCPU, O_OFFS, O_ARCH, O_BLIST, O_BEXTRACT, O_KERNEL };
    static const struct option opts[] = {
        {"llvm-text", no_argument, 0, O_LLVM},
        {"raw", no_argument, 0, O_RAW},
        {"mcpu", required_argument, 0, O_MCPU},
        {"with-offsets", no_argument, 0, O_OFFS},
        {"offload-arch", required_argument, 0, O_ARCH},
        {"bundle-list", no_argument, 0, O_BLIST},
        {"bundle-extract", required_argument, 0, O_BEXTRACT},
        {"kernel", required_argument, 0, O_KERNEL},
        {"jobs", required_argument, 0, 'j'},
        {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, 'V'},
        {0, 0, 0, 0}};
    int llvm_text = 0, raw = 0, with_offsets = 0, blist = 0, c;
    const char *arch = NULL, *extract = NULL, *outpath = NULL, *kernel = NULL;
    gcn_target target = GCN_TARGET_UNKNOWN;
    const char *smcpu = NULL;
    gcn_file_signals();
    if (gcn_cli_take_mcpu("gcndis", &argc, argv, &smcpu))
        return 1;
    if (smcpu) {
        target = gcn_target_from_name(smcpu);
        if (target != GCN_TARGET_GFX942 && target != GCN_TARGET_GFX950) {
            fprintf(stderr, "gcndis: unsupported -mcpu '%s' (use gfx942 or gfx950)\n", smcpu);
            return 1;
        }
    }
    while ((c = getopt_long(argc, argv, "hj:o:", opts, NULL)) != -1) {
        switch (c) {
        case O_LLVM: llvm_text = 1; break;
        case O_RAW: raw = 1; break;
        case O_OFFS: with_offsets = 1; break;
        case O_ARCH: arch = optarg; break;
        case O_BLIST: blist = 1; break;
        case O_BEXTRACT: extract = optarg; break;
        case O_KERNEL: kernel = optarg; break;
        case 'o': outpath = optarg; break;
        case 'j': {
            char *end;
            errno = 0;
            unsigned long j = strtoul(optarg, &end, 10);
            if (errno || end == optarg || *end || j < 1 || j > 64 || !(optarg[0] >= '0' && optarg[0] <= '9')) {
                fprintf(stderr, "gcndis: -j wants a number of threads from 1 to 64, not '%s'\n",
                        optarg);
                return 1;
            }
            text_opts.jobs = (unsigned)j;
            break;
        }
        case O_MCPU:
            target = gcn_target_from_name(optarg);
            if (target != GCN_TARGET_GFX942 && target != GCN_TARGET_GFX950) {
                fprintf(stderr, "gcndis: unsupported --mcpu '%s' (use gfx942 or gfx950)\n", optarg);
                return 1;
            }
            break;
        case 'h': usage(stdout); return 0;
        case 'V': gcn_version_print(stdout, "gcndis"); return 0;
        default: usage(stderr); return 1;
        }
    }
    if (optind + 1 != argc) {
        usage(stderr);
        return 1;
    }
    const char *file = argv[optind];
    if (blist + !!extract + raw > 1) {
        fprintf(stderr, "gcndis: --raw, --bundle-list and --bundle-extract exclude each other\n");
        return 1;
    }
    if (blist || extract) {
        if (extract && !outpath) {
            fprintf(stderr, "gcndis: --bundle-extract needs -o OUT\n");
            return 1;
        }
        if (llvm_text || kernel || arch || target != GCN_TARGET_UNKNOWN) {
            fprintf(stderr, "gcndis: --bundle-list/--bundle-extract take no disassembly options\n");
            return 1;
        }
        return do_bundle(file, blist, extract, outpath);
    }
    if (raw) {
        if (target == GCN_TARGET_UNKNOWN) {
            fprintf(stderr, "gcndis: --raw needs --mcpu=gfx942|gfx950\n");
            return 1;
        }
        if (kernel || arch) {
            fprintf(stderr, "gcndis: --kernel and --offload-arch do not apply to --raw\n");
            return 1;
        }
        crew_start(file);
        return do_raw(file, target, with_offsets ? 2 : llvm_text ? 1 : 0, outpath);
    }
    if (target != GCN_TARGET_UNKNOWN || with_offsets) {
        fprintf(stderr, "gcndis: --mcpu and --with-offsets need --raw (a code object names its "
                        "target)\n");
        return 1;
    }
    if (llvm_text && kernel) {
        fprintf(stderr, "gcndis: --llvm-text prints the whole .text; it takes no --kernel\n");
        return 1;
    }
    if (llvm_text)
        crew_start(file);
    return do_codeobj(file, arch, llvm_text, kernel, outpath);
}
