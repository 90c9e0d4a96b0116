"""oracle.py -- the one way the ISA generators (tools/isagen/*.py) ask LLVM 22's disassembler.

tests/decode/llvm_oracle (the LLVM-C disassembler, crash-proof) is given a file of
fixed-size slots, each holding one probe (a few dwords padded with s_nop), and prints one
line per decoded instruction: OFFSET <tab> SIZE <tab> TEXT, where TEXT is "<invalid>" or
"<crash>" when LLVM rejects the bytes or dies on them ("E ..." lines are diagnostics).
Only instructions that start a slot answer for its probe.
"""
import os
import struct
import subprocess
import tempfile

SNOP = 0xBF800000


class Oracle:
    """Batch disassembly of probes through the LLVM-C oracle at PATH."""

    def __init__(self, path, slot=16):
        self.path = path
        self.slot = slot
        self.calls = 0
        self.cache = {}

    def raw(self, mcpu, seqs, slot=None):
        """{probe index: (size, text)} for the probes LLVM printed an instruction for."""
        slot = slot or self.slot
        with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
            for s in seqs:
                d = list(s) + [SNOP] * (slot // 4 - len(s))
                f.write(struct.pack("<%dI" % len(d), *d))
            name = f.name
        try:
            out = subprocess.run([self.path, mcpu, name, str(slot)], capture_output=True,
                                 text=True, check=True).stdout
        finally:
            os.unlink(name)
        self.calls += 1
        got = {}
        for ln in out.splitlines():
            parts = ln.split("\t", 2)
            if parts[0] == "E" or len(parts) < 3:
                continue
            off = int(parts[0])
            if off % slot == 0:
                got[off // slot] = (int(parts[1]), parts[2])
        return got

    def run(self, mcpu, seqs):
        """[(size, text)] per probe, (0, "<crash>") where LLVM printed nothing."""
        got = self.raw(mcpu, seqs)
        return [got.get(i, (0, "<crash>")) for i in range(len(seqs))]

    def texts(self, mcpu, seqs):
        """[text or None] per probe (None: invalid or crash), cached per (mcpu, probe)."""
        todo = [c for c in seqs if (mcpu, tuple(c)) not in self.cache]
        if todo:
            got = self.raw(mcpu, todo)
            for i, c in enumerate(todo):
                t = got.get(i, (0, "<crash>"))[1]
                self.cache[(mcpu, tuple(c))] = None if t in ("<invalid>", "<crash>") else t
        return [self.cache[(mcpu, tuple(c))] for c in seqs]
