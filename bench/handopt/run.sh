#!/bin/bash
# Hand-written variants, timed to choose which rewrite the optimizer should make (see docs/results.md).
make -s -j16 carve || exit 2
for f in bench/handopt/*.cu; do
  b=$(timeout 120 ./carve bench "$f" --verify --baseline --reps 50 --format json 2>/dev/null)
  echo "$f $(echo "$b" | python3 -c 'import json,sys; d=json.load(sys.stdin); bl=d.get("baseline",{}); v=d.get("verify",[]); print("%.4f ms, base %.4f ms, %.1f%% of base, verify %s" % (d["median_ms"], bl.get("median_ms",0), 100*bl.get("median_ms",0)/d["median_ms"], all(x["ok"] for x in v) if v else None))' 2>&1)"
done
