#!/usr/bin/env python3
"""Holdout check: the estimates recorded before measuring against the measured times.
usage: bench/holdout/compare.py [--now] [PREDICTED.jsonl MEASURED.jsonl]
--now: estimate again with the current ./carve (and the first H200 calibration) instead of
using the recorded predictions: what later model changes did to the holdout."""
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import estimate, spearman
now = "--now" in sys.argv
args = [a for a in sys.argv[1:] if a != "--now"]
pf = args[0] if len(args) > 0 else "bench/holdout/predicted-h200.jsonl"
mf = args[1] if len(args) > 1 else "bench/holdout/measured-h200.jsonl"
pred = {json.loads(l)["kernel"]: json.loads(l) for l in open(pf) if l.strip()}
if now:
    for k, p in pred.items():
        e = estimate(p["file"], None, "docs/data/calibration-h200-2026-11-22.json")
        p["predicted_ms"] = e["estimate"]["seconds"] * 1e3; p["bottleneck"] = e["estimate"]["bottleneck"]
meas = [json.loads(l) for l in open(mf) if l.strip()]
fam, errs = {}, []
print("| family | kernel | measured ms | " + ("estimate ms (current model)" if now else "predicted ms (before measuring)") + " | error | predicted bottleneck | verified |\n|---|---|---|---|---|---|---|")
for r in meas:
    if "median_ms" not in r or r["kernel"] not in pred: continue
    p = pred[r["kernel"]]; m = r["median_ms"]; e = p["predicted_ms"]
    v = r.get("verify", []); ok = ("yes" if all(x["ok"] for x in v) else "no") if v else "not compared (atomics)"
    errs.append(abs(e - m) / m); fam.setdefault(p["family"], []).append((m, e))
    print(f"| {p['family']} | {r['kernel']} | {m:.4f} | {e:.4f} | {100 * (e - m) / m:+.0f}% | {p['bottleneck']} | {ok} |")
print("\n| family | variants | Spearman ρ |\n|---|---|---|")
for f, v in fam.items(): print(f"| {f} | {len(v)} | {spearman([a for a, b in v], [b for a, b in v]):.2f} |")
if errs: print(f"\nmean absolute percentage error over {len(errs)} holdout kernels: {100 * sum(errs) / len(errs):.0f}%")
