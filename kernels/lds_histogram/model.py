# model.py -- the independent Python model of kernels/lds_histogram for
# tests/kernels/kernels.py selftest: hist[b] = #{ i < N : (in[i] & MASK) == b }.
import struct


def model_histogram(p, b):
    n, mask = p["N"], p["MASK"]
    words = struct.unpack("<%dI" % (len(b["in"]) // 4), b["in"])[:n]
    hist = [0] * (mask + 1)
    for w in words:
        hist[w & mask] += 1
    return {"hist": struct.pack("<%dI" % len(hist), *hist)}


MODELS = {"lds_histogram": model_histogram}
