#!/bin/bash
# The bundled suite on a real GPU (run on the device machine): calibrate once, then for every
# bundled kernel at its default size: build, time (median of 20, CUDA events), verify against the
# interpreter (sampled blocks), time the library baseline, and read Nsight Compute counters.
# Output: one JSON line per kernel in $OUT/suite.jsonl (or ./suite.jsonl), a table on stdout.
out=${OUT:-.}
make -s -j16 carve || exit 2
export CARVE_CALIBRATION=$out/calibration.json
./carve calibrate --out "$CARVE_CALIBRATION" >/dev/null || echo "calibration failed"
: > "$out/suite.jsonl"
for f in mm mv tmv vv rd strsm conv tp demosaic imregionmax cp sad mriq mrifhd scan histogram reduce_shared; do
  extra=""
  [ "$f" = histogram ] && extra="--verify-blocks 65536"
  timeout 300 ./carve bench examples/$f.cu --verify --baseline --ncu $extra --format json >> "$out/suite.jsonl" 2>>"$out/suite.err" \
    || echo "{\"kernel\": \"$f\", \"error\": $?}" >> "$out/suite.jsonl"
done
python3 - "$out/suite.jsonl" <<'PY'
import json, sys
print(f"{'kernel':14} {'ms':>9} {'GB/s':>8} {'GFLOP/s':>9} {'baseline':>9} {'base ms':>9} {'x base':>7} {'verify':>8} {'ld sec/req':>10} {'occ%':>5}")
for line in open(sys.argv[1]):
    try: r = json.loads(line)
    except Exception: print("unparsable:", line[:100]); continue
    if 'error' in r: print(f"{r['kernel']:14} ERROR {r['error']}"); continue
    b = r.get('baseline', {}); n = r.get('ncu', {})
    v = r.get('verify', [])
    ok = 'ok' if v and all(x['ok'] for x in v) else ('unknown' if not v else 'FAILED')
    sr = n.get('global_load_sectors', 0) / n['global_load_requests'] if n.get('global_load_requests') else 0
    print(f"{r['kernel']:14} {r['median_ms']:9.4f} {r['gbps']:8.1f} {r['gflops']:9.1f} {b.get('name','-'):>9} {b.get('median_ms',0):9.4f} "
          f"{(r['median_ms']/b['median_ms'] if b.get('median_ms') else 0):7.2f} {ok:>8} {sr:10.2f} {n.get('achieved_occupancy_pct',0):5.1f}")
PY
