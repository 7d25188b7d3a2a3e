#!/usr/bin/env python3
"""Compare carve analyze's predictions with Nsight Compute counters measured on the GPU.

usage: bench/validate.py SUITE.jsonl [CARVE]   (SUITE from bench/gpu-suite.sh)
Prints a markdown table: per kernel, global load and store sectors per request, shared
wavefronts per shared instruction, and threads per instruction, predicted and measured."""
import json, subprocess, sys

suite = [json.loads(l) for l in open(sys.argv[1])]
carve = sys.argv[2] if len(sys.argv) > 2 else "./carve"
print("| kernel | ld sec/req carve | ld sec/req ncu | st sec/req carve | st sec/req ncu | shared wf/inst carve | shared wf/inst ncu | threads/inst carve | threads/inst ncu | agree |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in suite:
    n = r.get("ncu")
    if not n: continue
    k = r["kernel"]
    out = subprocess.run([carve, "analyze", r["file"], "--kernel", k, "--format", "json"], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        print(f"| {k} | analyze failed: {out.stderr.strip()[:80]} |"); continue
    a = json.loads(out.stdout)
    def ratio(space, kinds):
        sec = req = 0
        for x in a["accesses"]:
            if x["space"] != space or x["kind"] not in kinds: continue
            per = x.get("sectors_per_request", x.get("wavefronts_per_request", 0))
            sec += per * x["requests"]; req += x["requests"]
        return sec / req if req else 0.0
    ld, st = ratio("global", ("load",)), ratio("global", ("store",))
    sh = ratio("shared", ("load", "store"))
    def q(a_, b_):
        return a_ / b_ if b_ else 0
    nld = q(n.get("global_load_sectors", 0), n.get("global_load_requests", 0))
    nst = q(n.get("global_store_sectors", 0), n.get("global_store_requests", 0))
    sh_inst = n.get("shared_load_instructions", 0) + n.get("shared_store_instructions", 0)
    nsh = q(n.get("shared_load_wavefronts", 0) + n.get("shared_store_wavefronts", 0), sh_inst)
    tpi, ntpi = a["threads_per_instruction"], n.get("threads_per_instruction", 0)
    ok = abs(ld - nld) <= 0.05 * max(nld, 1) and abs(st - nst) <= 0.05 * max(nst, 1) and abs(sh - nsh) <= 0.05 * max(nsh, 1)
    print(f"| {k} | {ld:.2f} | {nld:.2f} | {st:.2f} | {nst:.2f} | {sh:.2f} | {nsh:.2f} | {tpi:.1f} | {ntpi:.1f} | {'yes' if ok else 'NO'} |")
