"""model.py -- Python model of kernels/mfma_bf16_16x16x32 (gfx950) for tests/kernels/kernels.py
selftest: MODELS[kernel](params, buffers) -> expected outputs, with the numerics of
tests/sim/mfma_model.py (independent of src/sim/mfma_num.c): per element the chain of
32-wide MFMA k steps, each four groups of 8 products."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "sim"))
import mfma_model as mm  # noqa: E402


def gemm(p, b):
    M, N, K = p["M"], p["N"], p["K"]
    A = struct.unpack("<%dH" % (M * K), b["A"][:M * K * 2])
    B = struct.unpack("<%dH" % (N * K), b["B"][:N * K * 2])
    out = []
    for i in range(M):
        for j in range(N):
            c = 0
            for kk in range(0, K - 31, 32):
                c = mm.dot_fast("bf16", "bf16", 1, A[i * K + kk:i * K + kk + 32],
                                B[j * K + kk:j * K + kk + 32], c)
            out.append(c)
    return {"C": struct.pack("<%dI" % len(out), *out)}


MODELS = {"mfma_bf16_16x16x32": gemm}
