#!/usr/bin/env python3
"""The pattern sweeps as curves, with the thesis's models refitted by least squares.
usage: bench/patterns/curves.py TIMING.jsonl [NCU.jsonl] -> markdown"""
import json, sys, math
from collections import defaultdict
pts = defaultdict(list)
for f in sys.argv[1:]:
    for l in open(f):
        r = json.loads(l)
        pts[(r["file"], r["kernel"], r["macro"])].append((r["value"], r["run"]["median_ms"]))

def fit(xs, ys):
    """least squares y = a + b x; returns a, b, r2"""
    n = len(xs); mx = sum(xs) / n; my = sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs); sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    b = sxy / sxx if sxx else 0.0; a = my - b * mx
    ss = sum((y - my) ** 2 for y in ys); res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    return a, b, (1 - res / ss) if ss else 1.0

models = {
  "branch_divergence": ("n = BRANCHES", lambda v: v, "t = t_outside + n * t_branch (eq. 3.1)"),
  "branch_unequal": ("S(n) arm units", lambda v: sum(c % 4 + 1 for c in range(v)), "t = t_outside + S(n) * t_unit (eq. 3.2)"),
  "global_stride": ("sectors/request min(4s, 32)", lambda v: min(4 * v, 32), "t = t0 + k * sectors"),
  "global_stride_write": ("sectors/request min(4s, 32)", lambda v: min(4 * v, 32), "t = t0 + k * sectors"),
  "shared_conflict": ("degree d = gcd(C, 32)", lambda v: math.gcd(v, 32) if v else 1, "t = t0 + k * (d_read + d_write); C = 0 is a broadcast (d = 1)"),
  "shared_conflict_read": ("degree d = gcd(C, 32)", lambda v: math.gcd(v, 32) if v else 1, "t = t0 + k * d; C = 0 is a broadcast"),
  "shared_conflict_write": ("degree d = gcd(C, 32)", lambda v: math.gcd(v, 32), "t = t0 + k * d"),
  "shared_wide8": ("wavefronts 2 gcd(s, 16)", lambda v: 2 * math.gcd(v, 16), "t = t0 + k * wavefronts"),
  "shared_wide16": ("wavefronts 4 gcd(s, 8)", lambda v: 4 * math.gcd(v, 8), "t = t0 + k * wavefronts"),
  "barrier_frequency": ("barriers floor(100/M)", lambda v: 100 // v if v <= 100 else 0, "t = t_ops + barriers * t_bar"),
  "relaunch": ("launches 100/WORK", lambda v: 100 / v, "T = (100/WORK) * t_launch: per-launch t = t_ovh + WORK * t_op"),
  "relaunch_shared": ("launches 100/WORK", lambda v: 100 / v, "as relaunch"),
}
print("| sweep | points (value: median ms) | model | fit | R² |")
print("|---|---|---|---|---|")
for (f, k, m), v in sorted(pts.items()):
    v = sorted(set(v))
    curve = ", ".join(f"{x}: {y:.4g}" for x, y in v)
    if k in models:
        name, xf, form = models[k]
        xs = [xf(x) for x, _ in v]; ys = [y for _, y in v]
        if k.startswith("relaunch"):   # fit the per-launch time against WORK
            xs = [x for x, _ in v]
        a, b, r2 = fit(xs, ys)
        print(f"| {k} ({m}) | {curve} | {form}; x = {name if not k.startswith('relaunch') else 'WORK'} | t = {a:.4g} + {b:.4g} x ms | {r2:.3f} |")
    else:
        print(f"| {k} ({m}) | {curve} | (see bench/patterns/README.md) | | |")
