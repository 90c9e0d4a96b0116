/*
 * gcnmfma.c -- the gcnmfma command: register layouts of the matrix-core instructions
 * (every v_mfma_* / v_smfmac_* / v_mfma_scale_* of gfx942 and gfx950), in the manner of
 * the AMD Matrix Instruction Calculator's --detail-instruction, --register-layout,
 * --get-register and --matrix-entry.  Thin: every answer comes from the functions the
 * simulator executes with (src/sim/gcn_mfma.h: gcn_mfma_info_get, gcn_mfma_layout), so
 * the tool shows exactly the layouts gcnsim uses.
 *
 * Exit codes: 0 ok, 1 usage, 2 bad input (unknown instruction, not on the target,
 * coordinates or register/lane out of range, a modifier the instruction refuses).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcn_decode.h"
#include "sim/gcn_mfma.h"

enum { EX_OK = 0, EX_USAGE = 1, EX_INPUT = 2 };

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gcnmfma [--mcpu gfx942|gfx950] --list\n"
        "       gcnmfma [--mcpu T] INSN [MODIFIERS] --detail-instruction\n"
        "       gcnmfma [--mcpu T] INSN [MODIFIERS] -A|-B|-C|-D|-k --register-layout [--csv]\n"
        "       gcnmfma [--mcpu T] INSN [MODIFIERS] -A|-B|-C|-D|-k --get-register -I N -J N -K N [-b N]\n"
        "       gcnmfma [--mcpu T] INSN [MODIFIERS] -A|-B|-C|-D|-k --matrix-entry -r REG -l LANE\n"
        "Register layouts of the matrix-core instructions, as the simulator uses them\n"
        "(the AMD Matrix Instruction Calculator's layouts; docs/mfma.md).\n"
        "\n"
        "  --mcpu gfx942|gfx950   target (default gfx942)\n"
        "  --list                 every MFMA/SMFMAC of the target: shape, blocks, types, registers\n"
        "  INSN                   the instruction, e.g. v_mfma_f32_32x32x8_f16\n"
        "  -A, -B, -C, -D         the matrix: A[i][k], B[k][j], C[i][j], D[i][j]\n"
        "  -k, --index            SMFMAC: the compression index (the nibble of A[i][k])\n"
        "  --cbsz N, --abid N, --blgp N  the modifiers (default 0); on the gfx950 f8f6f4\n"
        "                         instructions cbsz / blgp select A's / B's format\n"
        "  --detail-instruction   shape, blocks, element types, registers per operand, passes\n"
        "  --register-layout      the table of every register and lane: the element(s) in it\n"
        "  --csv                  with --register-layout: one line per element,\n"
        "                         block,row,col,register,lane,bit,width,negated\n"
        "  --get-register         where element (-I, -J / -K, -b) lives: register, lane, bits\n"
        "  -I N, -J N, -K N       row i, column j, k (A: -I -K; B: -K -J; C/D: -I -J)\n"
        "  -b N                   block (default 0)\n"
        "  --matrix-entry         the inverse: the element(s) in register -r, lane -l\n"
        "  -r N, -l N             register (of the operand's tuple, from 0) and lane\n"
        "  -h, --help             this help\n"
        "Exit: 0 ok, 1 usage, 2 bad input.\n");
}

static int parse_u(const char *s, unsigned hi, unsigned *v)
{
    if (!s || !(*s >= '0' && *s <= '9'))
        return -1;
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, 0);
    if (errno || *end || x > hi)
        return -1;
    *v = (unsigned)x;
    return 0;
}

static unsigned find_id(const char *mnem)
{
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        const gcn_isa_row *r = gcn_isa_row_of(id);
        if ((r->flags & GCN_F_MFMA) && !strcmp(r->mnem, mnem))
            return id;
    }
    return 0;
}

/* rows and columns of matrix `which` per block, and its registers per lane */
static void dims(const gcn_mfma_info *f, char which, unsigned *rows, unsigned *cols,
                 unsigned *regs)
{
    switch (which) {
    case 'A': *rows = f->m; *cols = f->k; *regs = f->regs_a; break;
    case 'B': *rows = f->k; *cols = f->n; *regs = f->regs_b; break;
    case 'C': *rows = f->m; *cols = f->n; *regs = f->sparse ? f->regs_d : f->regs_c; break;
    case 'K': *rows = f->m; *cols = f->k; *regs = 1; break;
    default: *rows = f->m; *cols = f->n; *regs = f->regs_d; break;
    }
}

static const char *row_name(char w) { return w == 'B' ? "k" : "i"; }
static const char *col_name(char w) { return w == 'A' || w == 'K' ? "k" : "j"; }

/* "A[3][5]" (with the block when there are several: "A[b2][3][5]") */
static void elem_name(char *buf, size_t n, char w, unsigned blocks, unsigned b, unsigned r,
                      unsigned c)
{
    const char *nm = w == 'K' ? "idx(A)" : (char[]){w, 0};
    if (blocks > 1)
        snprintf(buf, n, "%s[b%u][%u][%u]", nm, b, r, c);
    else
        snprintf(buf, n, "%s[%u][%u]", nm, r, c);
}

static void print_bits(const gcn_mfma_place *p, char *buf, size_t n)
{
    if (p->width == 64)
        snprintf(buf, n, "registers %u-%u (64 bits)", p->reg, p->reg + 1);
    else if (p->width >= 32)
        snprintf(buf, n, "register %u, bits 31:0", p->reg);
    else
        snprintf(buf, n, "register %u, bits %u:%u", p->reg, p->bit + p->width - 1, p->bit);
}

typedef struct cell {
    unsigned reg, lane, bit, width, b, r, c;
    int neg;
} cell;

static int cell_cmp(const void *x, const void *y)
{
    const cell *a = x, *b = y;
    if (a->reg != b->reg) return a->reg < b->reg ? -1 : 1;
    if (a->lane != b->lane) return a->lane < b->lane ? -1 : 1;
    if (a->bit != b->bit) return a->bit < b->bit ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    if (a->r != b->r) return a->r < b->r ? -1 : 1;
    return a->c < b->c ? -1 : a->c > b->c;
}

/* every element of the matrix with its place, in element order */
static cell *all_places(const gcn_insn *in, gcn_target t, const gcn_mfma_info *f, char w,
                        size_t *count)
{
    unsigned rows, cols, regs;
    dims(f, w, &rows, &cols, &regs);
    size_t n = (size_t)f->blocks * rows * cols, k = 0;
    cell *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return NULL;
    for (unsigned b = 0; b < f->blocks; b++)
        for (unsigned r = 0; r < rows; r++)
            for (unsigned c = 0; c < cols; c++) {
                gcn_mfma_place p;
                if (gcn_mfma_layout(in, t, w == 'C' && f->sparse ? 'D' : w, b, r, c, &p)) {
                    free(v);
                    return NULL;
                }
                v[k++] = (cell){p.reg, p.lane, p.bit, p.width, b, r, c, p.neg};
            }
    *count = k;
    return v;
}

/* --list: every MFMA/SMFMAC row of target t with its shape, types, registers, passes */
static int list_rows(gcn_target t, const char *mcpu)
{
    int ti = t == GCN_TARGET_GFX942 ? 0 : 1, bad = 0;
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        const gcn_isa_row *r = gcn_isa_row_of(id);
        if (!(r->flags & GCN_F_MFMA) || r->op[ti] == NONE)
            continue;
        gcn_insn in;
        memset(&in, 0, sizeof in);
        in.id = (uint16_t)id;
        gcn_mfma_info f;
        char lerr[256];
        if (gcn_mfma_info_get(&in, t, &f, lerr, sizeof lerr)) {
            fprintf(stderr, "gcnmfma: %s on %s: %s\n", r->mnem, mcpu, lerr);
            bad = 1;
            continue;
        }
        gcn_decoder dec;
        memset(&dec, 0, sizeof dec);
        dec.target = t;
        printf("%-36s %ux%ux%u blocks %-2u A %-5s B %-5s C/D %-4s regs A %u B %u C %u D %u "
               "passes %u%s%s\n", r->mnem, f.m, f.n, f.k, f.blocks, gcn_mfma_type_name(f.ta),
               gcn_mfma_type_name(f.tb), gcn_mfma_type_name(f.tc), f.regs_a, f.regs_b,
               f.regs_c, f.regs_d, gcn_mfma_passes(&dec, &in), f.sparse ? " sparse" : "",
               f.scaled ? " scaled" : "");
    }
    return bad ? EX_INPUT : EX_OK;
}

/* One query: the instruction (in, with its modifiers; f its shape) on target t. */
typedef struct query {
    const gcn_insn *in;
    gcn_target t;
    const char *mcpu, *mnem;
    const gcn_mfma_info *f;
    char which;                 /* the matrix: A, B, C, D, K (the SMFMAC index) */
} query;

/* --detail-instruction */
static int detail(const query *q)
{
    const gcn_mfma_info *f = q->f;
    gcn_decoder dec;
    memset(&dec, 0, sizeof dec);
    dec.target = q->t;
    printf("%s (%s)\n  D[%u][%u] = A[%u][%u] * B[%u][%u] + C[%u][%u], %u block%s\n", q->mnem,
           q->mcpu, f->m, f->n, f->m, f->k, f->k, f->n, f->m, f->n, f->blocks,
           f->blocks == 1 ? "" : "s");
    printf("  types: A %s, B %s, C/D %s\n", gcn_mfma_type_name(f->ta), gcn_mfma_type_name(f->tb),
           gcn_mfma_type_name(f->tc));
    printf("  registers per lane: A %u, B %u, C %u, D %u%s\n", f->regs_a, f->regs_b,
           f->sparse ? 0 : f->regs_c, f->regs_d, f->sparse ? " (SMFMAC: C is D; src2 is the "
           "index register)" : "");
    printf("  passes: %u (LLVM's scheduling model)\n", gcn_mfma_passes(&dec, q->in));
    printf("  sparse: %s, scaled: %s, CBSZ/ABID: %s, BLGP: %s\n", f->sparse ? "yes" : "no",
           f->scaled ? "yes" : "no", f->cbsz_ok ? "yes" : "no", f->blgp_ok ? "yes" : "no");
    return EX_OK;
}

/* --get-register: the place of element [blk][I or K][J or K] */
static int get_register(const query *q, unsigned I, unsigned J, unsigned K, unsigned blk)
{
    char which = q->which;
    const gcn_mfma_info *f = q->f;
    unsigned rows, cols, regs;
    dims(f, which, &rows, &cols, &regs);
    unsigned r = which == 'B' ? K : I, cc = which == 'A' || which == 'K' ? K : J;
    if (r == ~0u || cc == ~0u) {
        fprintf(stderr, "gcnmfma: --get-register %c: give -%s and -%s\n", which,
                which == 'B' ? "K" : "I", which == 'A' || which == 'K' ? "K" : "J");
        return EX_USAGE;
    }
    if (blk >= f->blocks || r >= rows || cc >= cols) {
        fprintf(stderr, "gcnmfma: %s %c[b%u][%u][%u]: out of range (blocks 0..%u, %s 0..%u, "
                "%s 0..%u)\n", q->mnem, which, blk, r, cc, f->blocks - 1, row_name(which),
                rows - 1, col_name(which), cols - 1);
        return EX_INPUT;
    }
    gcn_mfma_place p;
    if (gcn_mfma_layout(q->in, q->t, which == 'C' && f->sparse ? 'D' : which, blk, r, cc, &p)) {
        fprintf(stderr, "gcnmfma: %s: no layout for %c\n", q->mnem, which);
        return EX_INPUT;
    }
    char bits[64], nm[64];
    print_bits(&p, bits, sizeof bits);
    elem_name(nm, sizeof nm, which, f->blocks, blk, r, cc);
    printf("%s%s: %s, lane %u%s%s\n", nm, which == 'A' && f->sparse ? " (its compressed 4-group)"
           : "", bits, p.lane, p.neg ? ", negated (BLGP)" : "",
           which == 'K' ? " (the index nibble)" : "");
    return EX_OK;
}

/* --matrix-entry: the elements in register reg of lane (v: every place, sorted) */
static int matrix_entry(const query *q, const cell *v, size_t n, unsigned reg, unsigned lane)
{
    char which = q->which;
    unsigned rows, cols, regs;
    dims(q->f, which, &rows, &cols, &regs);
    if (reg == ~0u || lane == ~0u) {
        fprintf(stderr, "gcnmfma: --matrix-entry: give -r REGISTER and -l LANE\n");
        return EX_USAGE;
    }
    if (reg >= regs) {
        fprintf(stderr, "gcnmfma: %s %c: register %u out of range (0..%u)\n", q->mnem, which,
                reg, regs - 1);
        return EX_INPUT;
    }
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        const cell *x = &v[i];
        if (x->lane != lane || !(x->reg == reg || (x->width == 64 && x->reg + 1 == reg)))
            continue;
        char nm[64], bits[64];
        elem_name(nm, sizeof nm, which, q->f->blocks, x->b, x->r, x->c);
        gcn_mfma_place p = {x->reg, x->lane, x->bit, x->width, x->neg};
        print_bits(&p, bits, sizeof bits);
        printf("%s: %s, lane %u%s\n", nm, bits, x->lane, x->neg ? ", negated (BLGP)" : "");
        any = 1;
    }
    if (!any)
        printf("register %u, lane %u of %c: no element\n", reg, lane, which);
    return EX_OK;
}

/* --register-layout: one line per lane, one column per register (and bit field); v is
 * every place, sorted */
static void layout_table(const query *q, const cell *v, size_t n)
{
    char which = q->which;
    const gcn_mfma_info *f = q->f;
    unsigned rows, cols, regs;
    dims(f, which, &rows, &cols, &regs);
    printf("%s (%s) %c: %s; %u block%s, %u register%s per lane\n", q->mnem, q->mcpu, which,
           which == 'A' ? "A[i][k]" : which == 'B' ? "B[k][j]" : which == 'K' ?
           "index nibble of A[i][k]" : which == 'C' ? "C[i][j]" : "D[i][j]", f->blocks,
           f->blocks == 1 ? "" : "s", regs, regs == 1 ? "" : "s");
    /* the fields: distinct (reg, bit, width) in order */
    typedef struct fld { unsigned reg, bit, width; } fld;
    fld *fl = calloc(n ? n : 1, sizeof *fl);
    size_t nf = 0;
    for (size_t i = 0; fl && i < n; i++) {
        size_t j = 0;
        while (j < nf && !(fl[j].reg == v[i].reg && fl[j].bit == v[i].bit))
            j++;
        if (j == nf)
            fl[nf++] = (fld){v[i].reg, v[i].bit, v[i].width};
    }
    for (size_t a = 1; fl && a < nf; a++)      /* insertion sort by register, bit */
        for (size_t b = a; b > 0 && (fl[b - 1].reg > fl[b].reg ||
                                     (fl[b - 1].reg == fl[b].reg && fl[b - 1].bit > fl[b].bit)); b--) {
            fld tmp = fl[b];
            fl[b] = fl[b - 1];
            fl[b - 1] = tmp;
        }
    printf("lane");
    for (size_t j = 0; j < nf; j++) {
        char h[32];
        if (fl[j].width == 64)
            snprintf(h, sizeof h, "r%u:%u", fl[j].reg + 1, fl[j].reg);
        else if (fl[j].width >= 32)
            snprintf(h, sizeof h, "r%u", fl[j].reg);
        else
            snprintf(h, sizeof h, "r%u[%u:%u]", fl[j].reg, fl[j].bit + fl[j].width - 1, fl[j].bit);
        printf(j + 1 < nf ? " | %-14s" : " | %s", h);
    }
    printf("\n");
    for (unsigned l = 0; l < 64; l++) {
        printf("%4u", l);
        for (size_t j = 0; j < nf; j++) {
            char cellbuf[256] = "", nm[64];
            size_t len = 0;
            for (size_t i = 0; i < n; i++) {
                if (v[i].lane != l || v[i].reg != fl[j].reg || v[i].bit != fl[j].bit)
                    continue;
                elem_name(nm, sizeof nm, which, f->blocks, v[i].b, v[i].r, v[i].c);
                if (len < sizeof cellbuf)
                    len += (size_t)snprintf(cellbuf + len, sizeof cellbuf - len, "%s%s%s",
                                            len ? "/" : "", v[i].neg ? "-" : "", nm);
            }
            printf(j + 1 < nf ? " | %-14s" : " | %s", len ? cellbuf : ".");
        }
        printf("\n");
    }
    free(fl);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"mcpu", required_argument, 0, 'm'}, {"list", no_argument, 0, 'L'},
        {"detail-instruction", no_argument, 0, 'd'}, {"register-layout", no_argument, 0, 'R'},
        {"get-register", no_argument, 0, 'g'}, {"matrix-entry", no_argument, 0, 'e'},
        {"csv", no_argument, 0, 'v'}, {"cbsz", required_argument, 0, 1},
        {"abid", required_argument, 0, 2}, {"blgp", required_argument, 0, 3},
        {"index", no_argument, 0, 'k'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *mcpu = "gfx942";
    int list = 0, csv = 0;
    char mode = 0, which = 0;
    unsigned cbsz = 0, abid = 0, blgp = 0, I = ~0u, J = ~0u, K = ~0u, blk = 0, reg = ~0u,
             lane = ~0u;
    int c;
    while ((c = getopt_long(argc, argv, "ABCDkI:J:K:b:r:l:h", opts, NULL)) != -1) {
        unsigned *dst = NULL, hi = 0xffff;
        const char *what = NULL;
        switch (c) {
        case 'm': mcpu = optarg; break;
        case 'L': list = 1; break;
        case 'd': case 'R': case 'g': case 'e':
            if (mode && mode != c) {
                fprintf(stderr, "gcnmfma: give one of --detail-instruction, --register-layout, "
                        "--get-register, --matrix-entry\n");
                return EX_USAGE;
            }
            mode = (char)c;
            break;
        case 'v': csv = 1; break;
        case 'A': case 'B': case 'C': case 'D': case 'k':
            if (which && which != (c == 'k' ? 'K' : c)) {
                fprintf(stderr, "gcnmfma: give one matrix (-A, -B, -C, -D or -k)\n");
                return EX_USAGE;
            }
            which = c == 'k' ? 'K' : (char)c;
            break;
        case 1: dst = &cbsz; hi = 7; what = "--cbsz"; break;
        case 2: dst = &abid; hi = 15; what = "--abid"; break;
        case 3: dst = &blgp; hi = 7; what = "--blgp"; break;
        case 'I': dst = &I; what = "-I"; break;
        case 'J': dst = &J; what = "-J"; break;
        case 'K': dst = &K; what = "-K"; break;
        case 'b': dst = &blk; what = "-b"; break;
        case 'r': dst = &reg; what = "-r"; break;
        case 'l': dst = &lane; hi = 63; what = "-l"; break;
        case 'h': usage(stdout); return EX_OK;
        default: usage(stderr); return EX_USAGE;
        }
        if (dst && parse_u(optarg, hi, dst)) {
            fprintf(stderr, "gcnmfma: %s %s: expected a number, 0 to %u\n", what, optarg, hi);
            return EX_USAGE;
        }
    }
    gcn_target t = gcn_target_from_name(mcpu);
    if (t != GCN_TARGET_GFX942 && t != GCN_TARGET_GFX950) {
        fprintf(stderr, "gcnmfma: --mcpu %s: expected gfx942 or gfx950\n", mcpu);
        return EX_USAGE;
    }
    int ti = t == GCN_TARGET_GFX942 ? 0 : 1;
    if (list) {
        if (optind < argc || mode) {
            fprintf(stderr, "gcnmfma: --list takes no instruction or query\n");
            return EX_USAGE;
        }
        return list_rows(t, mcpu);
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "gcnmfma: give one instruction (gcnmfma --list names them)\n");
        usage(stderr);
        return EX_USAGE;
    }
    if (!mode) {
        fprintf(stderr, "gcnmfma: give --detail-instruction, --register-layout, --get-register or "
                "--matrix-entry\n");
        return EX_USAGE;
    }
    const char *mnem = argv[optind];
    unsigned id = find_id(mnem);
    if (!id) {
        fprintf(stderr, "gcnmfma: %s: no such MFMA/SMFMAC instruction (gcnmfma --list names "
                "them)\n", mnem);
        return EX_INPUT;
    }
    if (gcn_isa_row_of(id)->op[ti] == NONE) {
        fprintf(stderr, "gcnmfma: %s: not an instruction of %s\n", mnem, mcpu);
        return EX_INPUT;
    }
    gcn_insn in;
    memset(&in, 0, sizeof in);
    in.id = (uint16_t)id;
    in.m.cbsz = (uint8_t)cbsz;
    in.m.abid = (uint8_t)abid;
    in.m.blgp = (uint8_t)blgp;
    gcn_mfma_info f;
    char err[256];
    if (gcn_mfma_info_get(&in, t, &f, err, sizeof err)) {
        fprintf(stderr, "gcnmfma: %s on %s: %s\n", mnem, mcpu, err);
        return EX_INPUT;
    }
    if (f.ignored_mods) {
        fprintf(stderr, "gcnmfma: %s ignores %s%s%s: give only the modifiers it uses\n", mnem,
                f.ignored_mods & GCN_MFMA_IGN_CBSZ ? "CBSZ " : "",
                f.ignored_mods & GCN_MFMA_IGN_ABID ? "ABID " : "",
                f.ignored_mods & GCN_MFMA_IGN_BLGP ? "BLGP" : "");
        return EX_INPUT;
    }
    query q = {&in, t, mcpu, mnem, &f, which};
    if (mode == 'd')
        return detail(&q);
    if (!which) {
        fprintf(stderr, "gcnmfma: give the matrix: -A, -B, -C, -D (or -k, the SMFMAC index)\n");
        return EX_USAGE;
    }
    if (which == 'K' && !f.sparse) {
        fprintf(stderr, "gcnmfma: %s: -k (the compression index) is for SMFMAC instructions\n",
                mnem);
        return EX_INPUT;
    }
    if (mode == 'g')
        return get_register(&q, I, J, K, blk);
    size_t n = 0;
    cell *v = all_places(&in, t, &f, which, &n);
    if (!v) {
        fprintf(stderr, "gcnmfma: %s: no layout for %c (or out of memory)\n", mnem, which);
        return EX_INPUT;
    }
    if (mode == 'R' && csv) {
        printf("block,%s,%s,register,lane,bit,width,negated\n", row_name(which), col_name(which));
        for (size_t i = 0; i < n; i++)
            printf("%u,%u,%u,%u,%u,%u,%u,%d\n", v[i].b, v[i].r, v[i].c, v[i].reg, v[i].lane,
                   v[i].bit, v[i].width, v[i].neg);
        free(v);
        return EX_OK;
    }
    qsort(v, n, sizeof *v, cell_cmp);
    if (mode == 'e') {
        int rc = matrix_entry(&q, v, n, reg, lane);
        free(v);
        return rc;
    }
    layout_table(&q, v, n);
    free(v);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gcnmfma: cannot write standard output: %s\n", strerror(errno));
        return EX_INPUT;
    }
    return EX_OK;
}
