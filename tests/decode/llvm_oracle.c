/*
 * llvm_oracle.c -- the LLVM 22 disassembler as a test oracle, crash-proof.
 *
 * usage: llvm_oracle MCPU SLOTFILE [SLOTBYTES]
 *
 * SLOTFILE holds fixed-size slots (16 bytes by default).  Each slot is
 * disassembled from its start to its end with LLVM-C's LLVMDisasmInstruction
 * (the same MCDisassembler and MCInstPrinter that llvm-mc-22 and
 * llvm-objdump-22 use).  Output, one line per instruction:
 *     OFFSET \t SIZE \t TEXT         (valid)
 *     OFFSET \t 4 \t <invalid>       (LLVM rejects the dword; it skips 4 bytes)
 *     OFFSET \t 0 \t <crash>         (LLVM crashed on this slot)
 *
 * LLVM 22 segfaults on some invalid encodings, so the decoding runs in a
 * forked child that reports slot by slot; when the child dies, the parent
 * marks the slot it was on as crashed and forks a new child for the rest.
 * LLVM is initialised once, before the first fork, so each fork is cheap.
 */
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void LLVMInitializeAMDGPUTargetInfo(void);
void LLVMInitializeAMDGPUTargetMC(void);
void LLVMInitializeAMDGPUDisassembler(void);

static void child_run(LLVMDisasmContextRef dc, const unsigned char *data, size_t nslots,
                      size_t slot, size_t first, int fd)
{
    FILE *out = fdopen(fd, "w");
    char text[2048];
    for (size_t s = first; s < nslots; s++) {
        size_t pos = 0;
        const unsigned char *b = data + s * slot;
        while (pos < slot) {
            size_t n = LLVMDisasmInstruction(dc, (unsigned char *)b + pos, slot - pos,
                                             s * slot + pos, text, sizeof text);
            char *t = text;
            while (*t == '\t' || *t == ' ')
                t++;
            /* LLVM-C appends the disassembler's comment stream (" ; Warning: ...")
             * that llvm-objdump does not print: cut it, and trailing blanks. */
            char *c = strstr(t, " ; ");
            if (c)
                *c = 0;
            size_t tl = strlen(t);
            while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t'))
                t[--tl] = 0;
            if (n == 0) {
                n = slot - pos < 4 ? slot - pos : 4;
                fprintf(out, "%zu\t%zu\t<invalid>\n", s * slot + pos, n);
            } else {
                fprintf(out, "%zu\t%zu\t%s\n", s * slot + pos, n, t);
            }
            pos += n;
        }
        fprintf(out, "E\t%zu\n", s);
        fflush(out);
    }
    fclose(out);
    _exit(0);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: llvm_oracle MCPU SLOTFILE [SLOTBYTES]\n");
        return 1;
    }
    size_t slot = argc > 3 ? (size_t)atoi(argv[3]) : 16;
    FILE *f = fopen(argv[2], "rb");
    if (!f) {
        perror(argv[2]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc(len > 0 ? (size_t)len : 1);
    if (!data || fread(data, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "%s: read error\n", argv[2]);
        return 2;
    }
    fclose(f);
    size_t nslots = (size_t)len / slot;

    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
    LLVMDisasmContextRef dc = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", argv[1], NULL, 0, NULL, NULL);
    if (!dc) {
        fprintf(stderr, "llvm_oracle: cannot create an LLVM disassembler for %s\n", argv[1]);
        return 2;
    }
    size_t next = 0;
    char *line = NULL;
    size_t cap = 0;
    while (next < nslots) {
        int pfd[2];
        if (pipe(pfd) != 0) {
            perror("pipe");
            return 2;
        }
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 2;
        }
        if (pid == 0) {
            close(pfd[0]);
            child_run(dc, data, nslots, slot, next, pfd[1]);
        }
        close(pfd[1]);
        FILE *in = fdopen(pfd[0], "r");
        /* Lines of the slot being decoded are held back until its "E" line,
         * so a crash mid-slot drops the whole slot. */
        char *pending = NULL;
        size_t plen = 0, pcap = 0;
        ssize_t r;
        while ((r = getline(&line, &cap, in)) > 0) {
            if (line[0] == 'E') {
                if (plen)
                    fwrite(pending, 1, plen, stdout);
                plen = 0;
                next++;
                continue;
            }
            if (plen + (size_t)r + 1 > pcap) {
                pcap = (plen + (size_t)r + 1) * 2;
                pending = realloc(pending, pcap);
            }
            memcpy(pending + plen, line, (size_t)r);
            plen += (size_t)r;
        }
        fclose(in);
        free(pending);
        int st = 0;
        waitpid(pid, &st, 0);
        if (next < nslots && !(WIFEXITED(st) && WEXITSTATUS(st) == 0 && next >= nslots)) {
            if (WIFSIGNALED(st) || next < nslots) {
                printf("%zu\t0\t<crash>\n", next * slot);
                next++;
            }
        }
    }
    free(line);
    LLVMDisasmDispose(dc);
    free(data);
    return 0;
}
