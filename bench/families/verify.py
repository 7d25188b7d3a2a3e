#!/usr/bin/env python3
"""Check the variant families in bench/families (no numpy, no GPU needed for the first part).

For every family and each small size below, run every variant with `carve run -D N=...`,
require exit 0 and no fault, write its outputs with --out, and compare:
  * every variant against an independent Python reference computed from the dumped inputs
    (--dump-inputs of the first variant): mm and stencil within a small relative error, tp and
    scan exactly, reduce on sum(partial) (the partial layouts differ between variants);
  * every variant against the family's first variant: byte-identical where the summation order
    is the same (mm, tp, scan, stencil), sum(partial) within 1e-5 for reduce.
With --nvcc, also compile each file at its default size: nvcc -arch=sm_90 -c F.cu.

usage: python3 bench/families/verify.py [--carve ./carve] [--nvcc]     (from the repository root)
exit status 0 when everything passes."""
import array, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CARVE = "./carve"
if "--carve" in sys.argv:
    CARVE = sys.argv[sys.argv.index("--carve") + 1]

SIZES = {"mm": [64, 128], "tp": [64, 96], "reduce": [65536, 100003, 1 << 20],
         "scan": [8192, 10000], "stencil": [96, 128]}
OUTS = {"mm": ["C"], "tp": ["C"], "reduce": ["partial"], "scan": ["out", "sums"], "stencil": ["out"]}
ELEM = {"mm": "f", "tp": "f", "reduce": "f", "scan": "i", "stencil": "f"}   # array typecodes

def load(path, code):
    a = array.array(code)
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a

def ref(fam, n, inp):
    if fam == "mm":
        A, B = inp["A"], inp["B"]
        C = [0.0] * (n * n)
        for r in range(n):
            row = A[r * n:(r + 1) * n]
            for c in range(n):
                C[r * n + c] = sum(row[k] * B[k * n + c] for k in range(n))
        return {"C": C}
    if fam == "tp":
        A = inp["A"]
        return {"C": [A[x * n + y] for y in range(n) for x in range(n)]}
    if fam == "reduce":
        return {"total": sum(inp["in"])}
    if fam == "scan":
        tile = 1024
        x = list(inp["in"]) + [0] * ((-n) % tile)
        out, sums = [], []
        for b in range(0, len(x), tile):
            s = 0
            for v in x[b:b + tile]:
                out.append(s)
                s += v
            sums.append(s)
        return {"out": out, "sums": sums}
    if fam == "stencil":
        a = inp["in"]
        o = [0.0] * (n * n)
        for y in range(1, n - 1):
            for x in range(1, n - 1):
                i = y * n + x
                o[i] = 0.2 * (a[i] + a[i - n] + a[i + n] + a[i - 1] + a[i + 1])
        return {"out": o}

def close(got, want, rel):
    scale = max(1e-30, max(abs(w) for w in want))
    return max(abs(g - w) for g, w in zip(got, want)) <= rel * scale

def main():
    fams = {}
    for line in open(os.path.join(HERE, "families.txt")):
        if line.strip():
            f, file, k = line.split()
            fams.setdefault(f, []).append((file, k))
    failures = 0
    tmp = tempfile.mkdtemp(prefix="carve-families-")
    for fam, variants in fams.items():
        for n in SIZES[fam]:
            first = None
            want = None
            for idx, (file, kernel) in enumerate(variants):
                path = os.path.join(os.path.relpath(HERE), file)
                cmd = [CARVE, "run", path, "-D", "N=%d" % n]
                outs = {}
                for o in OUTS[fam]:
                    outs[o] = os.path.join(tmp, "%s_%d_%s.bin" % (kernel, n, o))
                    cmd += ["--out", "%s=%s" % (o, outs[o])]
                if idx == 0:
                    dump = os.path.join(tmp, "in_%s_%d" % (fam, n))
                    os.makedirs(dump, exist_ok=True)
                    cmd += ["--dump-inputs", dump]
                p = subprocess.run(cmd, capture_output=True, text=True)
                text = p.stdout + p.stderr
                ok = p.returncode == 0 and "fault" not in text.lower()
                res = {o: load(outs[o], ELEM[fam]) for o in outs} if ok else None
                msgs = []
                if not ok:
                    msgs.append("carve run rc=%d: %s" % (p.returncode, text.strip().splitlines()[-1:] ))
                else:
                    if want is None:
                        if not os.listdir(dump):
                            sys.exit("no dumped inputs (the family's first variant failed)")
                        inp = {}
                        for fn in os.listdir(dump):
                            nm = fn[:-4]
                            inp[nm] = load(os.path.join(dump, fn), ELEM[fam])
                        want = ref(fam, n, inp)
                    if fam == "reduce":
                        tot = sum(res["partial"])
                        if abs(tot - want["total"]) > 1e-5 * abs(want["total"]):
                            msgs.append("sum(partial) %.9g != reference %.9g" % (tot, want["total"]))
                    else:
                        for o in OUTS[fam]:
                            exact = fam in ("tp", "scan")
                            if exact and list(res[o]) != list(want[o]):
                                msgs.append("%s differs from the reference" % o)
                            if not exact and not close(res[o], want[o], 1e-5):
                                msgs.append("%s not within 1e-5 of the reference" % o)
                    if first is None:
                        first = (kernel, res)
                    elif fam == "reduce":
                        a, b = sum(first[1]["partial"]), sum(res["partial"])
                        if abs(a - b) > 1e-5 * abs(a):
                            msgs.append("sum(partial) %.9g != %s's %.9g" % (b, first[0], a))
                    else:
                        for o in OUTS[fam]:
                            if res[o].tobytes() != first[1][o].tobytes():
                                msgs.append("%s not byte-identical to %s's" % (o, first[0]))
                status = "ok" if not msgs else "FAIL " + "; ".join(msgs)
                failures += bool(msgs)
                print("%-8s N=%-8d %-24s %s" % (fam, n, kernel, status))
    if "--nvcc" in sys.argv:
        for fam, variants in fams.items():
            for file, kernel in variants:
                p = subprocess.run(["nvcc", "-arch=sm_90", "-c", os.path.join(HERE, file),
                                    "-o", os.path.join(tmp, kernel + ".o")],
                                   capture_output=True, text=True)
                bad = p.returncode != 0 or "warning" in p.stderr
                failures += p.returncode != 0
                print("nvcc     %-33s %s" % (kernel, "ok" if not bad else
                      ("FAIL " if p.returncode else "warn ") + p.stderr.strip()))
    print("%d failure(s)" % failures)
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
