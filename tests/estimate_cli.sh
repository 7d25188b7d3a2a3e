#!/bin/bash
# carve estimate: resources through NVRTC (when the toolkit is installed), exact occupancy.
carve=${1:-./carve}
pass=0; fail=0
have_py=1; command -v python3 >/dev/null 2>&1 || { have_py=0; echo "$(basename $0 .sh): JSON checks skipped (no python3)"; }
py() { [ $have_py = 1 ] || return 0; python3 "$@"; }
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "estimate-cli: FAIL: $2"; fail=$((fail+1)); fi; }
out=$("$carve" estimate examples/mm.cu --arch g80 -D N=1024 --regs 13); check $? "g80 estimate runs"
echo "$out" | grep -q "occupancy: 2 blocks, 16 warps per SM = 67% of 24, limited by registers"; check $? "Ryoo's B_SM = 2 for 13 registers x 256 threads: $out"
out=$("$carve" estimate examples/tp.cu --regs 64 --block 1024,1 --grid 16,16 -D H=256 -D W=256); check $? "h100 estimate with --regs"
echo "$out" | grep -q "occupancy: 1 blocks, 32 warps per SM = 50% of 64, limited by registers"; check $? "64 regs x 1024 threads: one block: $out"
if [ -e /usr/local/cuda/lib64/libnvrtc.so ] || ldconfig -p 2>/dev/null | grep -q libnvrtc; then
  out=$("$carve" estimate examples/tp_shared.cu --format json); check $? "estimate via NVRTC"
  [ $have_py = 0 ] || echo "$out" | python3 -c 'import json,sys; a=json.load(sys.stdin); r=a["resources"]; assert r["static_shared_bytes"]==4096 and 8<=r["registers"]<=64 and r["spill_store_bytes"]==0, r' ; check $? "NVRTC reports 4096 bytes of shared memory: $out"
else
  echo "estimate-cli: NVRTC checks skipped (no CUDA toolkit)"
fi
out=$(CARVE_NVRTC=/nonexistent/libnvrtc.so CARVE_NVCC=/nonexistent/nvcc "$carve" estimate examples/mm.cu); check $? "estimate without a toolkit still exits 0"
echo "$out" | grep -q "resources: unknown (no CUDA toolkit: NVRTC not found"; check $? "says plainly that the toolkit is missing: $out"
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  a=$("$carve" estimate bench/families/tp_naive.cu --format json)
  b=$(CARVE_NVRTC=/nonexistent/libnvrtc.so "$carve" estimate bench/families/tp_naive.cu --format json); check $? "nvcc fallback runs"
  py -c 'import json,sys; a=json.loads(sys.argv[1])["resources"]; b=json.loads(sys.argv[2])["resources"]
assert b["compiler"]=="nvcc" and a["compiler"]=="nvrtc", (a, b)
assert a["registers"]==b["registers"] and 20 <= a["sass_instructions"] <= 40, (a, b)' "$a" "$b"; check $? "NVRTC and the nvcc fallback agree; tp_naive is about 28 SASS instructions (cuobjdump: 28 and the branch to itself)"
else
  echo "estimate-cli: nvcc fallback checks skipped (no nvcc)"
fi
out=$("$carve" estimate examples/tp.cu --arch gt200 -D H=2048 -D W=2048 --regs 10)
echo "$out" | grep -q "ch_skew 8," ; check $? "CuMAPz: a 2048-wide transpose on GT200 camps on one of 8 channels: $(echo "$out" | grep CuMAPz)"
out=$("$carve" estimate examples/tp.cu --arch gt200 -D H=2000 -D W=2000 --regs 10)
echo "$out" | grep -q "ch_skew 1.14," ; check $? "CuMAPz: 2000 wide spreads over the channels: $(echo "$out" | grep CuMAPz)"
echo "$out" | grep -q "bw_util 0.222"; check $? "CuMAPz bw_util of the uncoalesced column read"
# loops: measured trip counts and the unrolling nvcc would do
out=$("$carve" estimate bench/families/mm_tile16.cu -D N=256 --regs 32); check $? "tile16 estimate"
echo "$out" | grep -q "loop at line 35: 16 iterations per entry (measured), modelled as unrolled by 4"; check $? "tile loop: 256/16 trips, unrolled by 4: $out"
echo "$out" | grep -q "loop at line 39: 16 iterations per entry (measured), constant trip count: fully unrolled"; check $? "inner loop fully unrolled"
echo "$out" | grep -q "LongRegions"; check $? "Ryoo's LongRegions printed"
echo "$out" | grep -q "roofline: .* ms (FP32: the declared flops); the estimate is"; check $? "roofline and headroom: $(echo "$out" | grep roofline)"
out=$("$carve" estimate bench/families/mm_naive.cu -D N=256 --regs 32 --format json)
py -c 'import json,sys; a=json.load(sys.stdin); l=a["loops"][0]; r=a["ryoo"]; e=a["estimate"]
assert l["iterations_per_entry"]==256 and l["unroll"]==16 and l["static_trip"]==-1, l
assert r["long_regions"] <= r["regions"] and r["utilization_simple"] > 0, r
assert e["roofline_seconds"] > 0 and e["warp_instructions"] > 0 and e["seconds"] >= max(v for k, v in e["limits"].items() if k != "launch"), e' <<< "$out"; check $? "JSON loops, LongRegions, roofline, total at least the largest limit"
# where the bottleneck's work comes from
cal=docs/data/calibration-h200-2026-11-22.json
echo "$(CARVE_CALIBRATION=$cal "$carve" estimate bench/families/mm_tile16.cu --arch h200 --regs 32)" | grep -q "where: bench/families/mm_tile16.cu:40:32: shared load of 'Bs', .*% of the L1/shared wavefronts"
check $? "tile16's hot spot is the Bs load of line 40"
out=$(CARVE_CALIBRATION=$cal "$carve" estimate examples/cp.cu --arch h200 --regs 32 --format json)
py -c 'import json,sys; h=json.load(sys.stdin)["estimate"]["hotspots"]; assert h and h[0]["line"]==46 and h[0]["of"]=="warp instructions" and sum(x["share"] for x in h) <= 1.0001, h' <<< "$out"
check $? "cp: line 46 (the inner loop body) issues most instructions"
# --rank: order, the reason, and JSON
out=$("$carve" estimate --rank bench/families/mm_naive.cu bench/families/mm_tile16.cu -D N=256 --regs 32); check $? "rank runs"
echo "$out" | sed -n 2p | grep -q "mm_tile16.cu"; check $? "the tiled kernel ranks first: $out"
echo "$out" | grep -q "mm_naive.cu: .*x the time of bench/families/mm_tile16.cu; bound by"; check $? "why the naive kernel is slower: $out"
out=$("$carve" estimate --rank bench/families/mm_naive.cu bench/families/mm_tile16.cu -D N=256 --regs 32 --format json); check $? "rank JSON runs"
py -c 'import json,sys; a=json.load(sys.stdin); assert len(a)==2 and a[0]["file"].endswith("mm_tile16.cu") and a[1]["vs_best"]>1 and "l1" in a[1]["limits"], a' <<< "$out"; check $? "rank JSON: $out"
out=$("$carve" estimate --rank bench/families/mm_naive.cu 2>&1); [ $? = 2 ]; check $? "--rank with one file is a usage error"
echo "$out" | grep -q "needs two or more files"; check $? "says why: $out"
# loops whose trip count cannot be computed statically must not crash the model
tmp=$(mktemp -d)
printf '#pragma carve launch k grid(1) block(32)\n#pragma carve arg out = int[32] : zeros out\n__global__ void k(int *out) {\n  int s = 0;\n  for (int q = 10; q > 1; q /= 0) s++;\n  out[threadIdx.x] = s;\n}\n' > "$tmp/div0.cu"
"$carve" estimate "$tmp/div0.cu" --regs 16 > "$tmp/out" 2>&1; rc=$?
[ $rc -ge 1 ] && [ $rc -le 3 ]; check $? "a loop stepping by /0: diagnosed, not a crash (exit $rc): $(head -2 "$tmp/out")"
grep -q "division by zero" "$tmp/out"; check $? "the interpreter names the division by zero"
printf '#pragma carve launch k grid(1) block(32)\n#pragma carve arg out = int[32] : zeros out\n__global__ void k(int *out) {\n  int s = 0;\n  for (unsigned u = 1; u != 0; u <<= 1) s++;\n  out[threadIdx.x] = s;\n}\n' > "$tmp/shift.cu"
out=$("$carve" estimate "$tmp/shift.cu" --regs 16 2>&1); check $? "a counter shifted out of its type: estimated ($out)"
echo "$out" | grep -q "loop at line 5: 32 iterations per entry"; check $? "32 shifts until the unsigned counter is 0"
rm -rf "$tmp"
# a kernel that faults: diagnosed with exit 1, nothing leaked (LeakSanitizer under make test-san)
for f in int_div_zero oob_global_read null_pointer; do
  "$carve" estimate tests/diag/$f.cu --regs 32 > /dev/null 2>&1; rc=$?
  [ $rc = 1 ]; check $? "estimate of the faulting tests/diag/$f.cu exits 1 (got $rc)"
done
echo "estimate-cli: $pass passed, $fail failed"
[ $fail = 0 ]
