#!/bin/bash
# L1 reuse on the GPU against the estimate (run on the device machine after make carve): for each
# "kernel:BXxBY" of SHAPES, the kernel timed and counted by Nsight Compute at that block shape
# (grid covering the example's default size), printed beside carve estimate's L2 bytes from L1
# (the analysis's LRU stack distances, metrics.c l1_miss_ratio) and its time. Also writes carve
# calibrate's figures (l1_latency_cycles among them) to $OUT/calibration.json.
#   SHAPES  default "mm:32x4 mm:16x16 mm:32x1 mm:32x2 mm:16x4 mm:64x16 cp:32x32 cp:16x16 cp:16x4 cp:32x1"
out=${OUT:-.}
make -s -j16 carve || exit 2
./carve calibrate --out "$out/calibration.json" > /dev/null 2> "$out/calibrate.err" || { echo "calibrate failed"; tail -5 "$out/calibrate.err"; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print({k: d[k] for k in d if "latency" in k or k in ("l2_gbps","shared_gbps","copy_gbps")})' "$out/calibration.json"
export CARVE_CALIBRATION=$out/calibration.json
shapes=${SHAPES:-"mm:32x4 mm:16x16 mm:32x1 mm:32x2 mm:16x4 mm:64x16 cp:32x32 cp:16x16 cp:16x4 cp:32x1"}
size() { case $1 in mm) echo "2048 2048";; cp) echo "512 512";; esac; }
printf "%-10s %10s %10s %12s %12s %8s %10s\n" shape ms est_ms l2_MB_ncu l2_MB_est ld_hit l1_sect_MB
for s in $shapes; do
  k=${s%%:*}; b=${s#*:}; bx=${b%x*}; by=${b#*x}
  read nx ny <<< "$(size $k)"
  g="$(( (nx + bx - 1) / bx )),$(( (ny + by - 1) / by ))"
  j=$(timeout 300 ./carve bench examples/$k.cu --grid $g --block $bx,$by --ncu --no-baseline --format json 2> "$out/$k-$b.err")
  e=$(./carve estimate examples/$k.cu --grid $g --block $bx,$by --format json 2>/dev/null)
  echo "{\"shape\": \"$s\", \"bench\": ${j:-null}, \"estimate\": ${e:-null}}" >> "$out/l1-check.jsonl"
  python3 - "$s" <<< "{\"b\": ${j:-null}, \"e\": ${e:-null}}" <<'PY'
import json, sys
d = json.load(sys.stdin); b = d["b"] or {}; e = (d["e"] or {}).get("estimate", {}); n = b.get("ncu", {})
l2 = n.get("l2_sectors_from_l1", 0) * 32 / 1e6; ld = n.get("global_load_sectors", 0)
print(f"{sys.argv[1]:10} {b.get('median_ms', 0):10.4f} {e.get('seconds', 0) * 1e3:10.4f} {l2:12.1f} {e.get('l2_bytes', 0) / 1e6:12.1f} "
      f"{1 - n.get('l2_sectors_from_l1', 0) / ld if ld else 0:8.3f} {ld * 32 / 1e6:10.1f}")
PY
done
