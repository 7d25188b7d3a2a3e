#!/bin/bash
# bench/holdout5/gpu.sh: the holdout5 programs on the GPU, in ONE call of at most 9 minutes on a
# 16-core machine with one GPU (run from anywhere; writes under $OUT, default build/holdout5-gpu):
#   1. builds carve and its CUDA runtime (make carve cudart);
#   2. carve optimize on each program at its GPU size (large.txt, column COL: 2 = medium, the
#      default; 3 = large), every program at once, one process a core, each limited to OPT_TIMEOUT
#      seconds; beside it, niced, carve optimize at the program's small size s2 (run.sh's), the
#      output used where the GPU-size one was not written (an output optimized at another size
#      runs its kept original kernels at the GPU size: the table says which ran);
#   3. the original and the output built with nvcc -O3 -arch=sm_90 at the GPU size;
#   4. each run once under Nsight Compute (gpu__time_duration.sum of every launch, summed,
#      --clock-control none; the program's own PASSED/FAILED read from the same run); without ncu,
#      or where ncu fails, the wall time of the whole program (its CPU reference included), the
#      median of 3 runs; the column method says which.
# Output: $OUT/holdout5.csv, $OUT/holdout5.md (the table, also printed), $OUT/work/ (plans,
# outputs, logs) and $OUT/holdout5-work.tgz. BUDGET (default 470 s) stops starting runs past it
# (the row says "skipped (time)"). PROGS="trmm symm" selects programs.
set -u
T0=$(date +%s)
BUDGET=${BUDGET:-470}
OPT_TIMEOUT=${OPT_TIMEOUT:-200}
MAXSEC=${MAXSEC:-60}
COL=${COL:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-$ROOT/build/holdout5-gpu}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
W=$OUT/work
rm -rf "$W"
mkdir -p "$W"
LIST=${LIST:-$HERE/large.txt}
NPROC=$(nproc)
left() { echo $((BUDGET - ($(date +%s) - T0))); }

(cd "$ROOT" && make -s -j"$NPROC" carve cudart) >"$W/build.log" 2>&1 || {
	echo "gpu.sh: make carve cudart failed:"
	tail -20 "$W/build.log"
	exit 2
}
CARVE=$ROOT/carve
echo "gpu.sh: built carve in $(($(date +%s) - T0)) s"

# small PROGRAM: run.sh's size s2 (the fallback optimize size)
small() {
	case $1 in
	trmm) echo "-D M=256 -D N=256" ;; symm) echo "-D M=256 -D N=384" ;; seidel2d) echo "-D N=128 -D TSTEPS=1" ;;
	durbin) echo "-D N=256" ;; histogram) echo "-D NELEM=1048576" ;; scan) echo "-D N=16384" ;;
	atb) echo "-D M=384 -D N=256 -D K=320" ;; dgemv) echo "-D ROWS=1024 -D COLS=768" ;;
	maxpool) echo "-D BATCH=4 -D CH=16 -D H=128 -D W=128" ;;
	resize) echo "-D SRC_H=300 -D SRC_W=400 -D DST_H=512 -D DST_W=640" ;;
	kmeans) echo "-D NPTS=16384 -D K=16 -D DIM=8" ;; nbody) echo "-D NBODIES=2048" ;;
	esac
}
# cflags PROGRAM: carve flags a program needs (resize: its C++ host code takes the nvcc route)
cflags() { [ "$1" = resize ] && echo "--route nvcc"; }
gpuflags() { grep "^$1|" "$LIST" | cut -d'|' -f"$COL"; }
PROGS=${PROGS:-$(cut -d'|' -f1 "$LIST")}

# 2 and 3: optimize at the GPU size (one process a core), at s2 niced; build the originals
otime=$(($(left) - 200))
[ "$otime" -gt "$OPT_TIMEOUT" ] && otime=$OPT_TIMEOUT
[ "$otime" -lt 30 ] && otime=30
for p in $PROGS; do
	# shellcheck disable=SC2046
	(timeout "$otime" "$CARVE" optimize "$HERE/$p.cu" $(gpuflags $p) $(cflags $p) --max-seconds "$MAXSEC" \
		-o "$W/$p.big.cu" >"$W/$p.big.plan" 2>&1; echo "rc $?" >>"$W/$p.big.plan") &
	(timeout "$otime" nice -n 10 "$CARVE" optimize "$HERE/$p.cu" $(small $p) $(cflags $p) \
		-o "$W/$p.small.cu" >"$W/$p.small.plan" 2>&1; echo "rc $?" >>"$W/$p.small.plan") &
	(nvcc -O3 -arch=sm_90 $(gpuflags $p) -o "$W/$p.naive" "$HERE/$p.cu" >"$W/$p.naive.nvcc" 2>&1) &
	while [ "$(jobs -rp | wc -l)" -ge $((NPROC + 8)) ]; do sleep 0.5; done
done
wait
echo "gpu.sh: optimized (limit $otime s each) at $(($(date +%s) - T0)) s"
for p in $PROGS; do
	if [ -s "$W/$p.big.cu" ]; then
		echo "GPU size" >"$W/$p.which"
		cp "$W/$p.big.cu" "$W/$p.opt.cu"
	elif [ -s "$W/$p.small.cu" ]; then
		echo "s2 (fallback)" >"$W/$p.which"
		cp "$W/$p.small.cu" "$W/$p.opt.cu"
	else
		echo "none" >"$W/$p.which"
		continue
	fi
	# shellcheck disable=SC2046
	(nvcc -O3 -arch=sm_90 $(gpuflags $p) -o "$W/$p.opt" "$W/$p.opt.cu" >"$W/$p.opt.nvcc" 2>&1) &
done
wait
echo "gpu.sh: built at $(($(date +%s) - T0)) s"

# 4: time each binary; prints "ms launches original-launches verdict method"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
timeit() {
	local exe=$1 name=$2 v r rc lim
	lim=$(left)
	[ "$lim" -gt 100 ] && lim=100
	[ "$lim" -lt 20 ] && lim=20
	if [ -n "$NCU" ]; then
		timeout "$lim" "$NCU" --clock-control none --metrics gpu__time_duration.sum --csv \
			--print-units base "$exe" >"$exe.ncu.csv" 2>"$exe.ncuerr"
		rc=$?
		v=$(grep -cE "^$name: PASSED" "$exe.ncu.csv")
		r=$(python3 - "$exe.ncu.csv" "$v" <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1], errors="replace") if l.startswith('"')]
tot, n, orig = 0.0, 0, 0
for r in csv.DictReader(rows):
    if r.get("Metric Name") == "gpu__time_duration.sum":
        tot += float(r["Metric Value"].replace(",", ""))
        n += 1
        orig += "_carve_original" in r.get("Kernel Name", "")
if n:
    print("%.4f %d %d %s ncu" % (tot / 1e6, n, orig, "PASSED" if sys.argv[2] != "0" else "FAILED"))
PY
)
		# killed at the time limit: no time (a wall-time fallback would run past the budget)
		[ $rc = 124 ] && { echo "- - - timeout(${lim}s) ncu"; return; }
		[ -n "$r" ] && { echo "$r"; return; }
		# no launch profiled (ncu without counter access): wall time instead
	fi
	lim=$((lim / 3))
	[ "$lim" -lt 10 ] && lim=10
	local ts=() i t0 t1 ok=0
	for i in 1 2 3; do
		t0=$(date +%s.%N)
		timeout "$lim" "$exe" >"$exe.run$i.log" 2>&1
		t1=$(date +%s.%N)
		ts+=("$(echo "scale=1; ($t1 - $t0) * 1000 / 1" | bc)")
		grep -qE "^$name: PASSED" "$exe.run$i.log" && ok=$((ok + 1))
	done
	v=FAILED
	[ $ok = 3 ] && v=PASSED
	echo "$(printf '%s\n' "${ts[@]}" | sort -g | sed -n 2p) - - $v wall-3-median"
}
CSV=$OUT/holdout5.csv
echo "program,run_at,optimized_at,kept,naive_ms,opt_ms,speedup,naive_launches,opt_launches,opt_original_launches,naive_verdict,opt_verdict,method" >"$CSV"
for p in $PROGS; do
	which=$(cat "$W/$p.which")
	plan=$W/$p.big.plan
	[ "$which" = "s2 (fallback)" ] && plan=$W/$p.small.plan
	kept=$(awk '/^carve optimize: launch [0-9]+ of/ { k = $8; sub(/<<<.*/, "", k) }
		/^carve optimize: [a-z]+ +applied/ { if (!(k in seen)) { seen[k] = 1; order[++n] = k }; ps[k] = ps[k] " " $3 }
		END { for (i = 1; i <= n; i++) printf "%s%s:%s", (i > 1 ? "; " : ""), order[i], ps[order[i]] }' "$plan")
	if [ "$(left)" -le 0 ]; then
		echo "$p,$(gpuflags $p),$which,\"$kept\",,,,,,,skipped (time),skipped (time)," >>"$CSV"
		continue
	fi
	if [ -x "$W/$p.naive" ]; then read -r nms nl _ nv nm <<<"$(timeit "$W/$p.naive" $p)"; else nms=""; nl=""; nv="not built"; nm=""; fi
	if [ -x "$W/$p.opt" ]; then read -r oms ol oo ov om <<<"$(timeit "$W/$p.opt" $p)"; else oms=""; ol=""; oo=""; ov="not built ($which)"; om=""; fi
	sp=""
	num='^[0-9]+(\.[0-9]+)?$'
	[[ $nms =~ $num ]] && [[ $oms =~ $num ]] && sp=$(python3 -c "print('%.2f' % ($nms / $oms) if $oms > 0 else '')")
	echo "$p,$(gpuflags $p),$which,\"$kept\",$nms,$oms,$sp,$nl,$ol,$oo,$nv,$ov,$nm/$om" >>"$CSV"
	echo "gpu.sh: $p naive $nms ms ($nv), optimized $oms ms ($ov), ${sp}x, at $(($(date +%s) - T0)) s"
done
python3 - "$CSV" >"$OUT/holdout5.md" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| program | run at | optimized at | passes kept | naive ms | optimized ms | speedup | launches (naive / opt / opt that ran an original) | verdicts | method |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
sp = []
for r in rows:
    if r["speedup"] and r["naive_verdict"] == "PASSED" and r["opt_verdict"] == "PASSED":
        sp.append(float(r["speedup"]))
    print("| %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s / %s | %s |" % (
        r["program"], r["run_at"], r["optimized_at"], r["kept"], r["naive_ms"], r["opt_ms"],
        (r["speedup"] + "x") if r["speedup"] else "", r["naive_launches"], r["opt_launches"],
        r["opt_original_launches"], r["naive_verdict"], r["opt_verdict"], r["method"]))
if sp:
    print()
    print("geometric mean speedup over the %d programs both of whose runs PASSED: %.2fx" % (len(sp), math.exp(sum(map(math.log, sp)) / len(sp))))
PY
cat "$OUT/holdout5.md"
tar czf "$OUT/holdout5-work.tgz" --exclude='*.naive' --exclude='*.opt' -C "$OUT" work 2>/dev/null
echo "gpu.sh: done in $(($(date +%s) - T0)) s"
