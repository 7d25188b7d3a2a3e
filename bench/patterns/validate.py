#!/usr/bin/env python3
"""carve analyze against Nsight Compute on the pattern sweeps.
usage: bench/patterns/validate.py PATTERNS-NCU.jsonl [CARVE]  -> markdown table and a summary"""
import json, subprocess, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
carve = sys.argv[2] if len(sys.argv) > 2 else "./carve"
print("| kernel | sweep | ld sec/req carve / ncu | st sec/req carve / ncu | shared wf/inst carve / ncu | equal |")
print("|---|---|---|---|---|---|")
agree = total = 0
for r in rows:
    n = r.get("ncu")
    if not n: continue
    out = subprocess.run([carve, "analyze", "bench/patterns/" + r["file"], "--kernel", r["kernel"], "-D", f"{r['macro']}={r['value']}",
                          "--format", "json", "--blocks", "4"], capture_output=True, text=True)
    try: a = json.loads(out.stdout)
    except ValueError:
        print(f"| {r['kernel']} | {r['macro']}={r['value']} | analyze failed | | | |"); continue
    def ratio(space, kinds):
        s = q = 0
        for x in a["accesses"]:
            if x["space"] == space and x["kind"] in kinds:
                s += x.get("sectors_per_request", x.get("wavefronts_per_request", 0)) * x["requests"]; q += x["requests"]
        return s / q if q else 0.0
    def nq(a_, b_): return n.get(a_, 0) / n[b_] if n.get(b_) else 0.0
    ld, st, sh = ratio("global", ("load",)), ratio("global", ("store",)), ratio("shared", ("load", "store"))
    nld = nq("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")
    nst = nq("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")
    shi = n.get("smsp__sass_inst_executed_op_shared_ld.sum", 0) + n.get("smsp__sass_inst_executed_op_shared_st.sum", 0)
    nsh = (n.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0) + n.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0)) / shi if shi else 0.0
    ok = all(abs(p - m) <= 0.02 * max(m, 1) for p, m in ((ld, nld), (st, nst), (sh, nsh)))
    total += 1; agree += ok
    print(f"| {r['kernel']} | {r['macro']}={r['value']} | {ld:.2f} / {nld:.2f} | {st:.2f} / {nst:.2f} | {sh:.2f} / {nsh:.2f} | {'yes' if ok else 'NO'} |")
print(f"\n{agree} of {total} points equal within 2%")
