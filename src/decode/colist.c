/*
 * colist.c -- the human listing of a code object for gcndis:
 * kernels with descriptor and metadata summaries,
 * instructions with address, words and file:line.  The one-instruction-
 * per-line printers (--llvm-text, --raw) are in textpar.c.
 *
 * Speed matters (gcndis must be much faster than llvm-objdump): all text goes
 * into one growing buffer that is written out in large chunks; decoding and
 * printing allocate nothing per instruction.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "gcn_codeobj.h"
#include "gcn_decode.h"
#include "decode_int.h"

/* Append a hex word without printf (the hot path of the listings). */
static void put_hex32(gcn_strbuf *sb, uint32_t w)
{
    gcn_sb_puthex(sb, w, 8);
}

/* ---- human listing ------------------------------------------------------ */

static const char *short_path(const char *path, const char *cwd, size_t cwdlen)
{
    if (cwdlen && !strncmp(path, cwd, cwdlen) && path[cwdlen] == '/')
        return path + cwdlen + 1;
    return path;
}

static void kernel_summary(const gcn_codeobj *co, const gcn_kernel *k, gcn_strbuf *sb)
{
    const gcn_kd *kd = &k->kd;
    gcn_sb_printf(sb, "\nkernel %s\n", k->name);
    gcn_sb_printf(sb, "  descriptor %s.kd at 0x%" PRIx64 "; code at 0x%" PRIx64, k->name,
                  k->kd_addr, k->entry_addr);
    if (k->code_size)
        gcn_sb_printf(sb, ", %" PRIu64 " bytes", k->code_size);
    gcn_sb_puts(sb, "\n");
    gcn_sb_printf(sb, "  segments: group (LDS) %u B, private (scratch) %u B per work-item, "
                      "kernarg %u B%s\n",
                  kd->group_segment_fixed_size, kd->private_segment_fixed_size, kd->kernarg_size,
                  kd->uses_dynamic_stack ? ", dynamic stack" : "");
    /* One unified file of next_free_vgpr registers: arch VGPRs below
     * accum_offset, AGPRs from there (AMDGPUUsage, compute_pgm_rsrc3). */
    unsigned agprs = kd->next_free_vgpr > kd->accum_offset ? kd->next_free_vgpr - kd->accum_offset : 0;
    gcn_sb_printf(sb, "  registers: %u VGPRs allocated in the unified file: v0..v%u below "
                      "accum_offset %u", kd->next_free_vgpr,
                  kd->accum_offset ? kd->accum_offset - 1 : 0, kd->accum_offset);
    if (agprs)
        gcn_sb_printf(sb, ", room for %u AGPRs (a0..a%u)", agprs, agprs - 1);
    gcn_sb_printf(sb, "; %u SGPRs allocated\n", kd->next_free_sgpr);
    if (k->has_metadata)
        gcn_sb_printf(sb, "  metadata: vgpr_count %u, agpr_count %u, sgpr_count %u, "
                          "wavefront_size %u, max_flat_workgroup_size %u, kernarg %u B "
                          "(align %u), group %u B, private %u B\n",
                      k->md_vgpr_count, k->md_agpr_count, k->md_sgpr_count, k->md_wavefront_size,
                      k->md_max_flat_workgroup_size, k->md_kernarg_segment_size,
                      k->md_kernarg_segment_align, k->md_group_segment_fixed_size,
                      k->md_private_segment_fixed_size);
    else
        gcn_sb_puts(sb, "  metadata: none for this kernel\n");

    /* User SGPRs in their fixed order (AMDGPUUsage "Initial Kernel Execution
     * State"), then preloaded kernargs; system SGPRs follow user_sgpr_count. */
    static const struct { size_t off; const char *name; unsigned n; } us[] = {
        {offsetof(gcn_kd, user_sgpr_private_segment_buffer), "private_segment_buffer", 4},
        {offsetof(gcn_kd, user_sgpr_dispatch_ptr), "dispatch_ptr", 2},
        {offsetof(gcn_kd, user_sgpr_queue_ptr), "queue_ptr", 2},
        {offsetof(gcn_kd, user_sgpr_kernarg_segment_ptr), "kernarg_segment_ptr", 2},
        {offsetof(gcn_kd, user_sgpr_dispatch_id), "dispatch_id", 2},
        {offsetof(gcn_kd, user_sgpr_flat_scratch_init), "flat_scratch_init", 2},
        {offsetof(gcn_kd, user_sgpr_private_segment_size), "private_segment_size", 1},
    };
    unsigned s = 0;
    gcn_sb_printf(sb, "  user SGPRs (%u):", kd->user_sgpr_count);
    int any = 0;
    for (size_t i = 0; i < sizeof us / sizeof us[0]; i++) {
        if (!*(const unsigned *)((const char *)kd + us[i].off))
            continue;
        if (us[i].n == 1)
            gcn_sb_printf(sb, "%s %s s%u", any ? "," : "", us[i].name, s);
        else
            gcn_sb_printf(sb, "%s %s s[%u:%u]", any ? "," : "", us[i].name, s, s + us[i].n - 1);
        s += us[i].n;
        any = 1;
    }
    if (kd->kernarg_preload_length) {
        gcn_sb_printf(sb, "%s preloaded kernarg dwords %u..%u in s[%u:%u]", any ? "," : "",
                      kd->kernarg_preload_offset,
                      kd->kernarg_preload_offset + kd->kernarg_preload_length - 1, s,
                      s + kd->kernarg_preload_length - 1);
        any = 1;
    }
    gcn_sb_puts(sb, any ? "\n" : " none\n");
    s = kd->user_sgpr_count;
    gcn_sb_puts(sb, "  system SGPRs:");
    any = 0;
    static const char *const wg[3] = {"workgroup_id_x", "workgroup_id_y", "workgroup_id_z"};
    for (int i = 0; i < 3; i++)
        if (kd->enable_sgpr_workgroup_id[i]) {
            gcn_sb_printf(sb, "%s %s s%u", any ? "," : "", wg[i], s++);
            any = 1;
        }
    if (kd->enable_sgpr_workgroup_info) {
        gcn_sb_printf(sb, "%s workgroup_info s%u", any ? "," : "", s++);
        any = 1;
    }
    if (kd->enable_private_segment) {
        /* gfx942/gfx950 have architected flat scratch: scratch needs no user
         * SGPRs; we do not claim a register for the wave offset here. */
        gcn_sb_printf(sb, "%s scratch enabled (enable_private_segment)", any ? "," : "");
        any = 1;
    }
    /* gfx90a+ pack the work-item IDs into v0 (AMDGPUUsage processor table:
     * "Packed work-item IDs"; the compiler extracts y with v_bfe_u32 v, v0, 10, 10). */
    static const char *const wi[4] = {"x in v0[9:0]", "x, y packed in v0[9:0], v0[19:10]",
                                      "x, y, z packed in v0[9:0], v0[19:10], v0[29:20]",
                                      "(undefined)"};
    gcn_sb_printf(sb, "%s; workitem ids: %s\n", any ? "" : " none",
                  wi[kd->enable_vgpr_workitem_id & 3]);
    gcn_sb_printf(sb, "  wave size %u; kernarg preload: ", kd->enable_wavefront_size32 ? 32 : 64);
    if (kd->kernarg_preload_length)
        gcn_sb_printf(sb, "%u dwords from kernarg dword %u\n", kd->kernarg_preload_length,
                      kd->kernarg_preload_offset);
    else
        gcn_sb_puts(sb, "none\n");
    gcn_sb_printf(sb, "  modes: float_round_mode_32 %u, float_round_mode_16_64 %u, "
                      "float_denorm_mode_32 %u, float_denorm_mode_16_64 %u, ieee_mode %u, "
                      "dx10_clamp %u, tg_split %u\n",
                  kd->float_round_mode_32, kd->float_round_mode_16_64, kd->float_denorm_mode_32,
                  kd->float_denorm_mode_16_64, kd->ieee_mode, kd->dx10_clamp, kd->tg_split);
    if (k->nargs) {
        gcn_sb_printf(sb, "  arguments (%u):\n", k->nargs);
        for (unsigned i = 0; i < k->nargs; i++) {
            const gcn_kernarg *a = &k->args[i];
            gcn_sb_printf(sb, "    offset %3u size %2u  %s", a->offset, a->size,
                          a->value_kind ? a->value_kind : "?");
            if (a->address_space)
                gcn_sb_printf(sb, " (%s)", a->address_space);
            if (a->name)
                gcn_sb_printf(sb, "  %s", a->name);
            gcn_sb_putc(sb, '\n');
        }
    }
    gcn_sb_putc(sb, '\n');
    (void)co;
}

static const gcn_kernel *kernel_at(const gcn_codeobj *co, uint64_t addr)
{
    for (unsigned i = 0; i < co->nkernels; i++)
        if (co->kernels[i].entry_addr == addr)
            return &co->kernels[i];
    return NULL;
}

/* End of the code of kernel k: its symbol size, else the next kernel entry or
 * the end of .text. */
static uint64_t kernel_end(const gcn_codeobj *co, const gcn_kernel *k)
{
    if (k->code_size)
        return k->entry_addr + k->code_size;
    uint64_t end = co->text_addr + co->text_size;
    for (unsigned i = 0; i < co->nkernels; i++)
        if (co->kernels[i].entry_addr > k->entry_addr && co->kernels[i].entry_addr < end)
            end = co->kernels[i].entry_addr;
    return end;
}

int gcn_co_print_listing(const gcn_codeobj *co, const char *kernel, FILE *f)
{
    const gcn_kernel *only = NULL;
    if (kernel) {
        only = gcn_co_kernel(co, kernel);
        if (!only)
            return -2;
    }
    gcn_decoder d = {.target = co->target, .label_name = gcn_co_label_name, .label_ctx = (void *)co};
    gcn_sink out;
    gcn_sink_open(&out, f, co->text_size * 8);  /* address, words, text: over 8 bytes a byte */
    gcn_strbuf *sb = &out.sb;
    char cwd[4096];
    size_t cwdlen = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;

    gcn_sb_printf(sb, "%s: AMDGPU code object v%u, %s", co->path, co->code_object_version,
                  gcn_co_mach_name(co->mach));
    gcn_sb_printf(sb, " (target ID %s; xnack %s, sramecc %s), %s\n", co->target_id,
                  gcn_co_feat_name(co->xnack_mode), gcn_co_feat_name(co->sramecc_mode),
                  co->elf_type == ET_REL ? "relocatable object" : "shared object");
    if (co->bundle_triple)
        gcn_sb_printf(sb, "  from offload bundle entry %s\n", co->bundle_triple);
    gcn_sb_printf(sb, "  .text at 0x%" PRIx64 ", %" PRIu64 " bytes; %u kernel%s; %s\n",
                  co->text_addr, co->text_size, co->nkernels, co->nkernels == 1 ? "" : "s",
                  co->nlines ? "line information from .debug_line" : "no line information");

    gcn_insn in;
    uint64_t lo = co->text_addr, hi = co->text_addr + co->text_size;
    if (only) {
        lo = only->entry_addr;
        hi = kernel_end(co, only);
    }
    uint64_t func_end = 0;
    for (unsigned r = 0; r < co->nregions && out.rc == 0; r++) {
        const gcn_text_region *rg = &co->regions[r];
        if (rg->end <= lo || rg->start >= hi)
            continue;
        const gcn_kernel *k = kernel_at(co, rg->start);
        if (k)
            kernel_summary(co, k, sb);
        else
            gcn_sb_printf(sb, "\n<%s>:\n", rg->label);
        const gcn_symbol *sym = gcn_co_symbol_at(co, rg->start);
        if (sym && sym->value == rg->start && sym->size)
            func_end = rg->start + sym->size;
        if (rg->is_data) {
            gcn_sb_printf(sb, "  (data, %" PRIu64 " bytes)\n", rg->end - rg->start);
            continue;
        }
        uint64_t pos = (rg->start < lo ? lo : rg->start) - co->text_addr;
        uint64_t end = (rg->end > hi ? hi : rg->end) - co->text_addr;
        while (pos < end) {
            uint64_t addr = co->text_addr + pos;
            size_t n = gcn_decode_one(&d, co->text + pos, (size_t)(co->text_size - pos), addr, &in);
            if (n == 0)
                n = 1;
            /* Collapse long runs of one padding word past a function's end. */
            if (n == 4 && addr >= func_end && end - pos >= 32) {
                uint64_t q = pos + 4;
                while (q + 4 <= end && !memcmp(co->text + q, co->text + pos, 4))
                    q += 4;
                uint64_t run = (q - pos) / 4;
                if (run >= 8) {
                    gcn_sb_printf(sb, "  %08" PRIx64 ": ", addr);
                    put_hex32(sb, in.words[0]);
                    gcn_sb_puts(sb, "                     ");
                    gcn_print_insn(&d, &in, sb);
                    gcn_sb_printf(sb, "\n  ...       (%" PRIu64 " more of the same, to 0x%" PRIx64
                                       ")\n", run - 1, co->text_addr + q);
                    pos = q;
                    continue;
                }
            }
            gcn_sb_printf(sb, "  %08" PRIx64 ": ", addr);
            size_t col0 = sb->len;
            if (n >= 4) {
                for (size_t i = 0; i < n / 4 && i < 3; i++) {
                    if (i)
                        gcn_sb_putc(sb, ' ');
                    put_hex32(sb, in.words[i]);
                }
            } else {
                for (size_t i = 0; i < n; i++)
                    gcn_sb_printf(sb, "%s%02x", i ? " " : "", co->text[pos + i]);
            }
            while (sb->len - col0 < 28)
                gcn_sb_putc(sb, ' ');
            size_t col1 = sb->len;
            gcn_print_insn(&d, &in, sb);
            const gcn_line *ln = gcn_co_line(co, addr);
            if (ln) {
                while (sb->len - col1 < 48)
                    gcn_sb_putc(sb, ' ');
                gcn_sb_printf(sb, " // %s:%u", short_path(ln->file, cwd, cwdlen), ln->line);
            }
            gcn_sb_putc(sb, '\n');
            gcn_sink_flush(&out);
            pos += n;
        }
    }
    return gcn_sink_close(&out);
}
