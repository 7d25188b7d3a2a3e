#!/bin/bash
# Time every variant of every family on the GPU (run from the repository root on the device
# machine): `carve bench --verify` at the file's default size, one JSON line per variant in
# $OUT/families.jsonl (or ./families.jsonl), then a table per family, fastest first.
# Extra arguments go to every `carve bench` (e.g. --ncu, --reps 50, --no-baseline).
# FAMILY_DIR=bench/holdout runs another folder laid out the same way.
out=${OUT:-.}
dir=${FAMILY_DIR:-bench/families}
[ -x ./carve ] || make -s -j16 carve || exit 2
: > "$out/families.jsonl"
while read -r fam file kernel; do
  [ -z "$fam" ] && continue
  r=$(timeout 300 ./carve bench "$dir/$file" --verify --format json "$@" 2>>"$out/families.err")
  rc=$?
  if [ -n "$r" ]; then
    echo "$r" | python3 -c "import json,sys; r=json.loads(sys.stdin.read()); r['family']='$fam'; r['rc']=$rc; print(json.dumps(r))" >> "$out/families.jsonl" \
      || echo "{\"family\": \"$fam\", \"kernel\": \"$kernel\", \"error\": $rc}" >> "$out/families.jsonl"
  else
    echo "{\"family\": \"$fam\", \"kernel\": \"$kernel\", \"error\": $rc}" >> "$out/families.jsonl"
  fi
done < "$dir/families.txt"
python3 - "$out/families.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
fams = {}
for r in rows: fams.setdefault(r['family'], []).append(r)
for fam, rs in fams.items():
    print(f"== {fam}")
    ok = sorted([r for r in rs if 'median_ms' in r], key=lambda r: r['median_ms'])
    best = ok[0]['median_ms'] if ok else 1
    for r in ok:
        v = r.get('verify', [])
        ver = 'ok' if v and all(x['ok'] for x in v) else ('-' if not v else 'FAILED')
        print(f"  {r['kernel']:24} {r['median_ms']:9.4f} ms  x{r['median_ms']/best:5.2f}  {r.get('gbps',0):8.1f} GB/s {r.get('gflops',0):9.1f} GFLOP/s  verify {ver}")
    for r in rs:
        if 'median_ms' not in r: print(f"  {r['kernel']:24} ERROR rc={r.get('error')}")
PY
