#!/usr/bin/python3
"""vmcnt_model.py -- a tiny model of the vmcnt FIFO of kernels/vector_add (seed 001's
double-buffered LDS-DMA loop), used to derive and check the waits documented in
kernels/vector_add/README.md.

Model: vector-memory operations retire in issue order; `s_waitcnt vmcnt(W)` blocks
until at most W operations are outstanding, i.e. it retires all but the newest W.
Prologue issues A0 B0 (buffer 0) A1 B1 (buffer 1) and waits vmcnt(P). Half h of the
loop (h = 0, 1, 2, ...; even halves use buffer 0, odd halves buffer 1) reads
A_h and B_h from LDS, issues the prefetches A_{h+2} B_{h+2} into the same buffer
and the store S_h, then (if the wave continues) waits vmcnt(W0) after an even half
and vmcnt(W1) after an odd half.  A read of X_h is a race if the load of X_h is
still outstanding at the read.

Usage: vmcnt_model.py P W0 W1 [HALVES]   prints every race, exit 1 if there is one
       vmcnt_model.py --check            checks the README claims, exit 0/1
"""
import sys


def run(p, w0, w1, halves=12):
    """Return a list of (half, name) for every LDS read that races its load."""
    fifo = ["A0", "B0", "A1", "B1"]
    fifo = fifo[len(fifo) - p:] if p < len(fifo) else fifo
    if p == 0:
        fifo = []
    races = []
    for h in range(halves):
        for x in ("A", "B"):
            if "%s%d" % (x, h) in fifo:
                races.append((h, "%s%d" % (x, h)))
        fifo += ["A%d" % (h + 2), "B%d" % (h + 2), "S%d" % h]
        w = w0 if h % 2 == 0 else w1
        if w < len(fifo):
            fifo = fifo[len(fifo) - w:] if w > 0 else []
    return races


def loosest(p=2):
    """The loosest safe loop waits (W0, W1) for prologue wait P: the pair with the
    largest min(W0, W1), then the largest sum (the safe pairs form a trade-off curve:
    a tighter W0 allows a looser W1, e.g. (1, 7) is also safe)."""
    best = None
    for w0 in range(0, 8):
        for w1 in range(0, 8):
            if not run(p, w0, w1, 40):
                key = (min(w0, w1), w0 + w1)
                if best is None or key > best[0]:
                    best = (key, (w0, w1))
    return best[1]


def loosest_prologue():
    """The largest prologue wait for which some loop waits are safe."""
    return max(p for p in range(0, 5)
               if any(not run(p, a, b, 40) for a in range(8) for b in range(8)))


def check():
    ok = True

    def expect(cond, what):
        nonlocal ok
        print(("ok   " if cond else "FAIL ") + what)
        ok = ok and cond

    expect(loosest_prologue() == 2, "loosest safe prologue wait is vmcnt(2)")
    expect(loosest(2) == (3, 4), "with it, the loosest loop waits are even half 3, odd half 4")
    expect(loosest(0) == (4, 4), "a vmcnt(0) prologue would allow 4 in both halves")
    expect(run(2, 3, 4, 40) == [], "vector_add (2,3,4) is race-free")
    expect(run(2, 3, 3, 40) == [], "seed 001 waits (2,3,3) are race-free (odd-half wait tighter than needed)")
    expect(run(2, 0, 0, 40) == [], "vector_add_tight (2,0,0) is race-free")
    expect(run(2, 3, 5, 40) != [], "odd-half wait 5 races")
    expect(run(2, 4, 4, 40) == [(1, "B1")],
           "vector_add_weak_loop (2,4,4): exactly one race, B1 read in half 1 (first loop iteration)")
    expect(run(3, 3, 4, 40) == [(0, "B0")],
           "vector_add_weak_prologue (3,3,4): exactly one race, B0 read in half 0")
    # steady state: from the back edge, the even-half wait could be 4
    steady = [r for r in run(2, 4, 4, 40) if r[0] > 1]
    expect(steady == [], "with (2,4,4) no race after the first loop iteration")
    return ok


def main(argv):
    if len(argv) == 2 and argv[1] == "--check":
        return 0 if check() else 1
    if len(argv) not in (4, 5):
        print(__doc__)
        return 2
    p, w0, w1 = (int(a) for a in argv[1:4])
    halves = int(argv[4]) if len(argv) == 5 else 12
    races = run(p, w0, w1, halves)
    for h, name in races:
        print("half %d reads %s while its load is outstanding" % (h, name))
    return 1 if races else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
