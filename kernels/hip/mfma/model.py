"""model.py -- Python model of the HIP MFMA kernels of kernels/hip/mfma for
tests/kernels/kernels.py selftest: MODELS[kernel](params, buffers) -> expected outputs, with
the numerics of tests/sim/mfma_model.py (independent of src/sim/mfma_num.c) and the final
multiply by ALPHA rounded to f32 through struct."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "tests", "sim"))
import mfma_model as mm  # noqa: E402


def batched_gemm(p, b):
    M, N, K, nb = p["M"], p["N"], p["K"], p.get("BATCH", 1)
    t = "bf16" if p["BF16"] else "f16"
    A = struct.unpack("<%dH" % (nb * M * K), b["A"][:nb * M * K * 2])
    B = struct.unpack("<%dH" % (nb * N * K), b["B"][:nb * N * K * 2])
    out = []
    for q in range(nb):
        for i in range(M):
            ra = (q * M + i) * K
            for j in range(N):
                rb = (q * N + j) * K
                c = mm.dot_fast(t, t, 0, A[ra:ra + K], B[rb:rb + K], 0)
                f = struct.unpack("<f", struct.pack("<I", c))[0]
                out.append(struct.unpack("<f", struct.pack("<f", f * p["ALPHA"]))[0])
    return {"C": struct.pack("<%df" % len(out), *out)}


MODELS = {"hip_mfma_32x32x8": batched_gemm, "hip_mfma_16x16x16": batched_gemm,
          "hip_mfma_16x16x32": batched_gemm}
