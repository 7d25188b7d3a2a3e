#!/usr/bin/env python3
"""Does carve estimate rank the variants of a family as the GPU does?
usage: bench/families/rank.py MEASURED.jsonl CALIBRATION.json [ARCH] -> markdown: per family,
measured and estimated times, Spearman's rank correlation; overall MAPE."""
import json, os, subprocess, sys
from collections import defaultdict
rows = [json.loads(l) for l in open(sys.argv[1])]
env = dict(os.environ, CARVE_CALIBRATION=sys.argv[2])
arch = sys.argv[3] if len(sys.argv) > 3 else "h200"
fam = defaultdict(list)
for r in rows:
    if r.get("rc", 0) != 0 or "median_ms" not in r: continue
    out = subprocess.run(["./carve", "estimate", r["file"], "--kernel", r["kernel"], "--arch", arch, "--format", "json"], capture_output=True, text=True, env=env)
    try: e = json.loads(out.stdout)
    except ValueError: continue
    fam[r["family"]].append((r["kernel"], r["median_ms"], e["estimate"]["seconds"] * 1e3, e["estimate"]["bottleneck"]))
def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i]); rk = [0.0] * len(v); i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]: j += 1
        for k in range(i, j + 1): rk[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return rk
def spearman(a, b):
    ra, rb = ranks(a), ranks(b); n = len(a); ma = sum(ra) / n; mb = sum(rb) / n
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else 0.0
errs = []
print("| family | variant | measured ms | estimate ms | error | bottleneck |\n|---|---|---|---|---|---|")
summary = []
for f, v in fam.items():
    for k, m, e, b in v:
        errs.append(abs(e - m) / m)
        print(f"| {f} | {k} | {m:.4f} | {e:.4f} | {100*(e-m)/m:+.0f}% | {b} |")
    summary.append((f, len(v), spearman([x[1] for x in v], [x[2] for x in v])))
print("\n| family | variants | Spearman ρ (estimate vs measured) |\n|---|---|---|")
for f, n, rho in summary: print(f"| {f} | {n} | {rho:.2f} |")
print(f"\nmean absolute percentage error over {len(errs)} variants: {100*sum(errs)/len(errs):.0f}%")
