#!/usr/bin/env python3
"""Each term of `carve estimate` against the Nsight Compute counter it predicts.
usage: bench/model_terms.py COUNTERS.jsonl [CALIBRATION.json] [ARCH]
COUNTERS.jsonl: `carve bench --ncu --format json` lines (bench/model-counters.sh).
Prints a markdown table per kernel (predicted/measured ratios) and the geometric-mean ratio and
the median absolute error of each term."""
import json, math, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import estimate
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cal = sys.argv[2] if len(sys.argv) > 2 else None
arch = sys.argv[3] if len(sys.argv) > 3 else "h200"
terms = {"warp instructions": [], "shared wavefronts": [], "L2 sectors": [], "DRAM bytes": [], "time": []}
print("| kernel | warp instr carve/ncu | shared wf carve/ncu | L2 sectors carve/ncu | DRAM bytes carve/ncu | time carve/measured | carve bound | top ncu stall | issue active % |")
print("|---|---|---|---|---|---|---|---|---|")
def ratio(p, m, key):
    if not m or m <= 0 or p is None: return "-"
    if p <= 0: return "0"
    terms[key].append(p / m)
    return f"{p / m:.2f}"
for r in rows:
    if "ncu" not in r: continue
    n = r["ncu"]
    full = estimate(r["file"], r["kernel"], cal, arch)
    try: e = full["estimate"]
    except (TypeError, KeyError): print(f"| {r['kernel']} | estimate failed |"); continue
    stalls = sorted(((v, k[6:-4]) for k, v in n.items() if k.startswith("stall_")), reverse=True)
    top = f"{stalls[0][1]} {stalls[0][0]:.0f}%" if stalls else "-"
    shared = n.get("shared_load_wavefronts", 0) + n.get("shared_store_wavefronts", 0)
    dram = n.get("dram_bytes_read", 0) + n.get("dram_bytes_write", 0)
    print(f"| {r['kernel']} | {ratio(e.get('warp_instructions'), n.get('warp_instructions'), 'warp instructions')} "
          f"| {ratio(e['shared_bytes'] / 128, shared, 'shared wavefronts')} | {ratio(e['l2_bytes'] / 32, n.get('l2_sectors_from_l1'), 'L2 sectors')} "
          f"| {ratio(e['dram_bytes'], dram, 'DRAM bytes')} | {ratio(e['seconds'] * 1e3, r['median_ms'], 'time')} | {e['bottleneck']} | {top} | {n.get('issue_active_pct', 0):.0f} |")
print("\n| term | kernels | geometric mean carve/measured | median absolute error |\n|---|---|---|---|")
for k, v in terms.items():
    if not v: continue
    g = math.exp(sum(math.log(x) for x in v) / len(v)); a = sorted(abs(x - 1) for x in v)
    print(f"| {k} | {len(v)} | {g:.2f} | {100 * a[len(a) // 2]:.0f}% |")
t = terms["time"]
if t: print(f"\nmean absolute percentage error of the time: {100 * sum(abs(x - 1) for x in t) / len(t):.0f}% over {len(t)} kernels")
