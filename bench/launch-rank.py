#!/usr/bin/env python3
"""The estimate's ranking of block shapes against stored measurements (bench/launch-gpu.sh's
launch.jsonl): each row's kernel re-estimated here at the grid and block it was timed with (the
launch pass changes only the shape and __launch_bounds__, minblocks 0 in that run), no GPU.
usage: bench/launch-rank.py MEASURED.jsonl [CALIBRATION.json] [ARCH]   (default arch h100)"""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import spearman
rows = [json.loads(l) for l in open(sys.argv[1])]
cal = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
arch = sys.argv[3] if len(sys.argv) > 3 else "h100"
env = dict(os.environ)
if cal: env["CARVE_CALIBRATION"] = cal
by, errs = {}, []
for r in rows:
    b = r.get("bench") or {}
    if not b or any(not v["ok"] for v in b.get("verify", [])): continue
    cmd = ["./carve", "estimate", f"examples/{r['kernel']}.cu", "--arch", arch, "--format", "json",
           "--grid", ",".join(map(str, b["grid"])), "--block", ",".join(map(str, b["block"]))]
    try: est = json.loads(subprocess.run(cmd, capture_output=True, text=True, env=env).stdout)["estimate"]["seconds"] * 1e3
    except (ValueError, KeyError): print(f"{r['kernel']} {b['block']}: estimate failed"); continue
    by.setdefault(r["kernel"], []).append((f"{b['block'][0]}x{b['block'][1]}", b["median_ms"], est, r.get("original")))
for k, xs in by.items():
    xs.sort(key=lambda x: x[1])
    print(k)
    for s, ms, est, o in xs:
        errs.append(abs(est / ms - 1))
        print(f"  {s:>9} measured {ms:8.4f}  estimate {est:8.4f}  {100 * (est / ms - 1):+6.1f}%{'  original' if o else ''}")
    pick = min(xs, key=lambda x: x[2])
    print(f"  spearman {spearman([x[1] for x in xs], [x[2] for x in xs]):+.2f} over {len(xs)}; the estimate's pick {pick[0]} "
          f"at {100 * xs[0][1] / pick[1]:.1f}% of the fastest measured; within 20%: {sum(abs(e / m - 1) <= .2 for _, m, e, _ in xs)}/{len(xs)}")
print(f"mean |error| {100 * sum(errs) / max(1, len(errs)):.1f}% over {len(errs)}")
