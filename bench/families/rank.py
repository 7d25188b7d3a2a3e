#!/usr/bin/env python3
"""Does carve estimate rank the variants of a family as the GPU does?
usage: bench/families/rank.py MEASURED.jsonl CALIBRATION.json [ARCH] -> markdown: per family,
measured and estimated times, Spearman's rank correlation; overall MAPE."""
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import estimate, spearman
from collections import defaultdict
rows = [json.loads(l) for l in open(sys.argv[1])]
arch = sys.argv[3] if len(sys.argv) > 3 else "h200"
fam = defaultdict(list)
for r in rows:
    if r.get("rc", 0) != 0 or "median_ms" not in r: continue
    e = estimate(r["file"], r["kernel"], sys.argv[2], arch)
    if e is None: continue
    fam[r["family"]].append((r["kernel"], r["median_ms"], e["estimate"]["seconds"] * 1e3, e["estimate"]["bottleneck"]))
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
