#!/bin/bash
# bench/programs-time.sh DIR [PROG...]: time programs whose outputs carve optimize already wrote
# (DIR/PROG.opt.cu, as bench/programs-gpu.sh SAME=1 leaves them) against the originals in
# tests/programs (or PROGDIR), built by nvcc at the sizes of LIST (default bench/programs-large.txt): every
# build at once, then each program once under Nsight Compute (gpu__time_duration.sum of every
# launch, --clock-control none), the program's own verdict read from the same run. Prints one
# JSON line a program and a table with the geometric mean. Run on the device machine.
set -u
dir=$(cd "$1" && pwd); shift
list=${LIST:-$PWD/bench/programs-large.txt}
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
cd "${PROGDIR:-tests/programs}" || exit 2
progs=${*:-$(cut -d'|' -f1 "$list")}
flags() { grep "^$1|" "$list" | cut -d'|' -f3; }
for p in $progs; do
  [ -f "$dir/$p.opt.cu" ] || continue
  nvcc -O3 -arch=sm_90 -I. $(flags $p) -o "$dir/$p.naive" $p.cu > "$dir/$p.nvcc" 2>&1 &
  nvcc -O3 -arch=sm_90 -I. $(flags $p) -o "$dir/$p.optx" "$dir/$p.opt.cu" >> "$dir/$p.nvcc" 2>&1 &
done
wait
ms() {   # EXE: total kernel ms and launches; the program's output in EXE.log
  "$ncu" --clock-control none --metrics gpu__time_duration.sum --csv --print-units base "$1" > "$1.log" 2> "$1.ncuerr"
  python3 - "$1.log" <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
tot = 0.0; n = 0
for r in csv.DictReader(rows):
    if r.get("Metric Name") == "gpu__time_duration.sum": tot += float(r["Metric Value"].replace(",", "")); n += 1
print(f"{tot / 1e6:.4f} {n}")
PY
}
for p in $progs; do
  [ -x "$dir/$p.naive" ] && [ -x "$dir/$p.optx" ] || { echo "{\"program\": \"$p\", \"error\": \"not built\"}"; continue; }
  read -r tn nn <<< "$(ms "$dir/$p.naive")"; read -r to no <<< "$(ms "$dir/$p.optx")"
  vn=$(grep -cE '^PASS|: PASSED$' "$dir/$p.naive.log"); vo=$(grep -cE '^PASS|: PASSED$' "$dir/$p.optx.log")   # tests/programs print PASS, bench/holdout3 'NAME: PASSED'
  echo "{\"program\": \"$p\", \"run_at\": \"$(flags $p)\", \"naive_ms\": $tn, \"naive_launches\": $nn, \"opt_ms\": $to, \"opt_launches\": $no, \"naive_pass\": $vn, \"opt_pass\": $vo}"
done | tee "$dir/times.jsonl"
python3 - "$dir/times.jsonl" <<'PY'
import json, sys, math
sp = []
for l in open(sys.argv[1]):
    r = json.loads(l)
    if 'error' in r or not r['opt_ms']: continue
    s = r['naive_ms'] / r['opt_ms']; sp.append(s)
    print(f"{r['program']:10} {r['naive_ms']:10.4f} {r['opt_ms']:10.4f} {s:7.2f}x  {'PASS' if r['naive_pass'] else 'FAIL'}/{'PASS' if r['opt_pass'] else 'FAIL'}")
if sp: print(f"geometric mean over {len(sp)}: {math.exp(sum(map(math.log, sp)) / len(sp)):.2f}x")
PY
