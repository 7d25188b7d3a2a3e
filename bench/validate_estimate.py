#!/usr/bin/env python3
"""carve estimate against measured medians (bench/gpu-suite.sh output).
usage: bench/validate_estimate.py SUITE.jsonl CALIBRATION.json [ARCH] -> markdown + MAPE"""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import estimate
suite = [json.loads(l) for l in open(sys.argv[1])]
arch = sys.argv[3] if len(sys.argv) > 3 else "h200"
print("| kernel | measured ms | estimate ms | error | bottleneck |")
print("|---|---|---|---|---|")
errs = []
for r in suite:
    e = estimate(r["file"], r["kernel"], sys.argv[2], arch)
    if e is None:
        print(f"| {r['kernel']} | {r['median_ms']:.4f} | failed | | |"); continue
    est = e["estimate"]["seconds"] * 1e3
    err = (est - r["median_ms"]) / r["median_ms"]
    errs.append(abs(err))
    print(f"| {r['kernel']} | {r['median_ms']:.4f} | {est:.4f} | {100*err:+.0f}% | {e['estimate']['bottleneck']} |")
if errs:
    errs.sort()
    print(f"\nmean absolute percentage error {100*sum(errs)/len(errs):.0f}% over {len(errs)} kernels; median {100*errs[len(errs)//2]:.0f}%")
