"""model.py -- Python model of kernels/mfma_f16_layouts for tests/kernels/kernels.py selftest:
MODELS[kernel](params, buffers) -> expected outputs, with the numerics of
tests/sim/mfma_model.py (independent of src/sim/mfma_num.c) and Python's own f32 -> f16
rounding (struct 'e': round to nearest even)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "sim"))
import mfma_model as mm  # noqa: E402


def gemm_f16(p, b):
    M, N, K = p["M"], p["N"], p["K"]
    A = struct.unpack("<%dH" % (M * K), b["A"][:M * K * 2])
    B = struct.unpack("<%dH" % (N * K), b["B"][:N * K * 2])
    out = bytearray(b["C"])            # the initial bytes (an odd M*N keeps the last half)
    for i in range(M):
        for j in range(N):
            c = 0
            for kk in range(0, K - 7, 8):
                c = mm.dot_fast("f16", "f16", 0, A[i * K + kk:i * K + kk + 8],
                                B[j * K + kk:j * K + kk + 8], c)
            f = struct.unpack("<f", struct.pack("<I", c))[0]
            out[2 * (i * N + j):2 * (i * N + j) + 2] = struct.pack("<e", f)
    return {"C": bytes(out)}


MODELS = {"mfma_f16_std": gemm_f16, "mfma_f16_swap": gemm_f16, "mfma_f16_swizzle": gemm_f16}
