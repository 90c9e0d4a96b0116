/*
 * gcndis.c -- the gcndis command: disassemble AMDGPU code objects or raw
 * instruction streams in LLVM's syntax.  Thin: all work is in libgcn.
 *
 * Exit codes: 0 ok, 1 usage, 2 unreadable or invalid input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_decode.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gcndis [options] FILE\n"
        "  --llvm-text          print only instruction text, one per line, as llvm-objdump-22 does\n"
        "  --raw                FILE is a raw little-endian instruction stream (needs --mcpu)\n"
        "  --mcpu=gfx942|gfx950 target for --raw\n"
        "  --with-offsets       with --llvm-text: prefix each line with byte offset and size\n"
        "  -h, --help           this help\n");
}

static int read_file(const char *path, uint8_t **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gcndis: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); fprintf(stderr, "gcndis: %s: out of memory\n", path); return -1; }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        fprintf(stderr, "gcndis: %s: read error\n", path);
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

static int dis_raw(const char *path, gcn_target t, int llvm_text, int with_offsets)
{
    uint8_t *data;
    size_t len;
    if (read_file(path, &data, &len))
        return 2;
    gcn_decoder d = {.target = t};
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    size_t pos = 0;
    while (pos < len) {
        gcn_insn in;
        size_t n = gcn_decode_one(&d, data + pos, len - pos, pos, &in);
        gcn_sb_reset(&sb);
        gcn_print_insn(&d, &in, &sb);
        if (with_offsets)
            printf("%zu\t%zu\t%s\n", pos, n, sb.buf);
        else if (llvm_text)
            printf("%s\n", sb.buf);
        else {
            printf("%08zx:", pos);
            for (size_t i = 0; i < n / 4; i++)
                printf(" %08x", in.words[i]);
            printf("%*s%s\n", (int)(3 - n / 4) * 9 + 2, "", sb.buf);
        }
        pos += n;
    }
    gcn_sb_free(&sb);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"llvm-text", no_argument, 0, 't'},
        {"raw", no_argument, 0, 'r'},
        {"mcpu", required_argument, 0, 'm'},
        {"with-offsets", no_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int llvm_text = 0, raw = 0, with_offsets = 0, c;
    gcn_target target = GCN_TARGET_UNKNOWN;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 't': llvm_text = 1; break;
        case 'r': raw = 1; break;
        case 'o': with_offsets = 1; break;
        case 'm':
            target = gcn_target_from_name(optarg);
            if (target != GCN_TARGET_GFX942 && target != GCN_TARGET_GFX950) {
                fprintf(stderr, "gcndis: unsupported --mcpu '%s' (use gfx942 or gfx950)\n", optarg);
                return 1;
            }
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 1;
        }
    }
    if (optind + 1 != argc) {
        usage(stderr);
        return 1;
    }
    if (raw) {
        if (target == GCN_TARGET_UNKNOWN) {
            fprintf(stderr, "gcndis: --raw needs --mcpu=gfx942|gfx950\n");
            return 1;
        }
        return dis_raw(argv[optind], target, llvm_text, with_offsets);
    }
    fprintf(stderr, "gcndis: %s: code object reading not yet implemented\n", argv[optind]);
    return 2;
}
