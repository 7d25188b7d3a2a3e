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
out=$(CARVE_NVRTC=/nonexistent/libnvrtc.so "$carve" estimate examples/mm.cu); check $? "estimate without NVRTC still exits 0"
echo "$out" | grep -q "resources: unknown (NVRTC not found"; check $? "says plainly that NVRTC is missing: $out"
out=$("$carve" estimate examples/tp.cu --arch gt200 -D H=2048 -D W=2048 --regs 10)
echo "$out" | grep -q "ch_skew 8," ; check $? "CuMAPz: a 2048-wide transpose on GT200 camps on one of 8 channels: $(echo "$out" | grep CuMAPz)"
out=$("$carve" estimate examples/tp.cu --arch gt200 -D H=2000 -D W=2000 --regs 10)
echo "$out" | grep -q "ch_skew 1.14," ; check $? "CuMAPz: 2000 wide spreads over the channels: $(echo "$out" | grep CuMAPz)"
echo "$out" | grep -q "bw_util 0.222"; check $? "CuMAPz bw_util of the uncoalesced column read"
echo "estimate-cli: $pass passed, $fail failed"
[ $fail = 0 ]
