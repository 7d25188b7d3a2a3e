#!/usr/bin/env python3
"""bench/holdout3/summarize.py OUTDIR: one Markdown table row per kernel and size, read from
run.sh's plans (OUTDIR/P.plan.txt, OUTDIR/P.big.plan.txt) and OUTDIR/summary.tsv."""
import os, re, sys

out = sys.argv[1]
progs = ["3mm", "gesummv", "syrk", "syr2k", "gramschmidt", "conv3d", "doitgen", "jacobi1d", "adi",
         "gemver", "sgemm_colmajor", "correlation"]
steps = {}
for line in open(os.path.join(out, "summary.tsv")):
    f = line.rstrip("\n").split("\t")
    steps[(f[0], f[1], f[2])] = f[3:]

def plan(path):
    """kernel -> dict(kept=[...], before, after, refused=[(pass, reason)])"""
    ks, cur = [], None
    if not os.path.exists(path):
        return ks
    for line in open(path):
        m = re.match(r"carve optimize: launch \d+ of \d+ distinct: (\w+)<<<\(([^)]*)\), \(([^)]*)\)>>>", line)
        if m:
            cur = dict(name=m.group(1), grid=m.group(2), block=m.group(3), kept=[], before=None, after=None, refused=[])
            ks.append(cur)
            continue
        m = re.match(r"carve optimize: (\w+)\s+(applied|not kept|not legal|not applicable|failed|rejected)(.*)", line)
        if m and cur is not None:
            p, what, rest = m.group(1), m.group(2), m.group(3)
            e = re.search(r"estimate ([0-9.e+-]+) -> ([0-9.e+-]+) ms", rest)
            if e and cur["before"] is None:
                cur["before"] = e.group(1)
            if what == "applied":
                cur["kept"].append(p)
                if e:
                    cur["after"] = e.group(2)
            elif what != "not applicable":
                cur["refused"].append((p, what + rest.strip()[:0] + " " + rest.strip(", ")))
    return ks

def estimates(path):
    """kernel -> the estimate in ms carve estimate printed for its first launch"""
    e, cur = {}, None
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"carve estimate: launch \d+ of \d+ distinct: (\w+)<<<", line)
            if m:
                cur = m.group(1)
            m = re.match(r"\s+estimate: ([0-9.e+-]+) ms", line)
            if m and cur and cur not in e:
                e[cur] = "%.4f" % float(m.group(1))
    return e

print("| program | size | kernel | launch grid / block | passes kept | estimate before -> after (ms) | optimize s | opt. program verdict | nvcc |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for p in progs:
    for size, pf in (("default", p + ".plan.txt"), ("big", p + ".big.plan.txt")):
        opt = steps.get((p, size, "optimize"), ["-", "-", ""])
        run = steps.get((p, size, "opt-run"), ["-", "-", ""])
        nv = steps.get((p, size, "nvcc"), ["-", "-", ""])
        verdict = (run[2] or "rc=%s" % run[0]) if run[0] != "-" else "not run"
        nvs = "ok" if nv[0] == "0" else ("rc=%s" % nv[0])
        ks = plan(os.path.join(out, pf))
        est = estimates(os.path.join(out, p + (".estimate.txt" if size == "default" else ".big.estimate.txt")))
        if not ks:
            print("| %s | %s | (none) | | | | %s (rc %s) | %s | %s |" % (p, size, opt[1], opt[0], verdict, nvs))
        for i, k in enumerate(ks):
            b = k["before"] or (est.get(k["name"], "?") + "*")
            a = k["after"] or b
            print("| %s | %s | %s | (%s) / (%s) | %s | %s -> %s | %s | %s | %s |" % (
                p if i == 0 else "", size if i == 0 else "", k["name"], k["grid"], k["block"],
                ", ".join(k["kept"]) or "none", b, a,
                ("%s (rc %s)" % (opt[1], opt[0])) if i == 0 else "", verdict if i == 0 else "",
                nvs if i == 0 else ""))
