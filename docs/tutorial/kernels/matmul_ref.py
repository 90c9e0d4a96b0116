#!/usr/bin/env python3
"""matmul_ref.py -- reference check of mfma_kloop's output (tutorial chapter 4).

    matmul_ref.py DIR      DIR: a gcnsim --dump-dir of mfma_kloop.json

Reads K from DIR/run.json and A (16xK), B (Kx16) from DIR/A.in.bin, DIR/B.in.bin (f32,
row-major), computes C = A*B exactly (Python floats hold every product and the sums of
K <= 2^20 of them to within one rounding), and compares it with DIR/C.bin.  An MFMA sums in
f32 in an order of its own, so each element may differ from the exact value by at most
K * 2^-23 * sum(|A[i][k] * B[k][j]|) (one rounding per addition); more is a wrong result.
Prints the first element outside that bound, or the largest error relative to its bound;
exit 0 (all within), 1 (some element is not), 2 (bad input).
"""
import json
import os
import struct
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().split('\n')[2], file=sys.stderr)
        return 2
    d = sys.argv[1]
    try:
        with open(os.path.join(d, 'run.json')) as f:
            k = int(json.load(f)['params']['K'])
        a = struct.unpack('<%df' % (16 * k), open(os.path.join(d, 'A.in.bin'), 'rb').read(64 * k))
        b = struct.unpack('<%df' % (16 * k), open(os.path.join(d, 'B.in.bin'), 'rb').read(64 * k))
        c = struct.unpack('<256f', open(os.path.join(d, 'C.bin'), 'rb').read(1024))
    except (OSError, KeyError, ValueError, struct.error) as e:
        print('matmul_ref: %s: %s' % (d, e), file=sys.stderr)
        return 2
    worst = 0.0
    for i in range(16):
        for j in range(16):
            prods = [a[i * k + kk] * b[kk * 16 + j] for kk in range(k)]
            exact = sum(prods)
            bound = k * 2.0 ** -23 * sum(abs(p) for p in prods) + 2.0 ** -126
            err = abs(c[i * 16 + j] - exact)
            if not err <= bound:
                print('C[%d][%d]: expected %.9g (within %.3g), got %.9g' % (
                    i, j, exact, bound, c[i * 16 + j]))
                print('matmul_ref %s: DIFFERENT' % d)
                return 1
            worst = max(worst, err / bound)
    print('C: 256 elements of A*B (K=%d) within the f32 summation bound (worst %.2f of it)' % (k, worst))
    return 0


if __name__ == '__main__':
    sys.exit(main())
