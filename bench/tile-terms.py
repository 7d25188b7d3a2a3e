#!/usr/bin/env python3
"""The estimate's terms beside Nsight Compute's counters for the tile variants
(bench/tile-counters.sh): warp instructions, duration, issue activity and stalls.
usage: python3 bench/tile-terms.py DIR COUNTERS.jsonl [FILTER]"""
import json, subprocess, sys, os
d, path = sys.argv[1], sys.argv[2]
filt = sys.argv[3] if len(sys.argv) > 3 else ''
print(f"{'variant':28} {'ncu Minstr':>10} {'est':>7} {'err':>6} | {'ms':>7} {'est ms':>7} {'err':>6} | issue% lsb% bar% | est limits (ms): issue l1 latency")
for l in open(path):
    r = json.loads(l)
    if filt not in r['file'] or not r.get('bench'): continue
    n = r['bench'].get('ncu', {})
    e = subprocess.run(['./carve', 'estimate', os.path.join(d, r['file']), '--format', 'json'], capture_output=True, text=True)
    try: es = json.loads(e.stdout)['estimate']
    except Exception: print(r['file'], 'estimate failed'); continue
    wi, ms = n.get('warp_instructions', 0), n.get('duration_ns', 0) / 1e6
    lim = es['limits']
    print(f"{r['file'][3:-3]:28} {wi/1e6:10.1f} {es['warp_instructions']/1e6:7.1f} {100*(es['warp_instructions']/wi-1):+5.0f}% | {ms:7.4f} {es['seconds']*1e3:7.4f} {100*(es['seconds']*1e3/ms-1):+5.0f}% |"
          f" {n.get('issue_active_pct', 0):5.1f} {n.get('stall_long_scoreboard_pct', 0):4.1f} {n.get('stall_barrier_pct', 0):4.1f} | {lim['issue']*1e3:.4f} {lim['l1']*1e3:.4f} {lim['latency']*1e3:.4f}")
