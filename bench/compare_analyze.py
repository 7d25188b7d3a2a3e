#!/usr/bin/env python3
"""Analysis time of two carve binaries, alternated in one run (docs/results.md).
usage: python3 bench/compare_analyze.py OLD_CARVE NEW_CARVE [ROUNDS]"""
import subprocess, sys, time
old, new = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
tot = {old: 0.0, new: 0.0}
for _ in range(rounds):
    for b in (old, new):
        for k in ("tp", "mm", "tp_shared", "conv", "reduce_shared"):
            t = time.time()
            subprocess.run([b, "analyze", f"examples/{k}.cu"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            tot[b] += time.time() - t
print(f"analyze of 5 kernels x {rounds}: old {tot[old]:.3f} s, new {tot[new]:.3f} s, new/old {tot[new] / tot[old]:.3f}")
