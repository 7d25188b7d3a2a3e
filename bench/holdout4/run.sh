#!/bin/bash
# bench/holdout4/run.sh CARVE OUTDIR [PROGRAM...]
# Step 2 of the holdout test (adapted from bench/holdout3/run.sh): for each program, as a user would,
#   carve check / run / analyze / estimate at size 1,
#   carve optimize at size 1 and at size 2 (timed, OPT_LIMIT s, plan kept, -o P.s1.cu / P.s2.cu),
#   each optimized program run under carve run at size 1, size 2 and an odd size 3
#   (does it still reach its own PASSED?), and compiled with nvcc -arch=sm_90 at its own size.
# Every output goes to OUTDIR/P.*; OUTDIR/summary.tsv has one line per step:
#   program  size  step  exit-status  seconds  verdict-line
# and OUTDIR/RESULTS.tables.md the tables of bench/holdout-summarize.py (shared with holdout3
# and holdout5; it replaces this folder's summarize.py).
# A program that needs extra flags (flags()) also gets one plain `carve run` (step run-plain),
# the command a user would type first.
set -u
CARVE=$(readlink -f "${1:?usage: run.sh CARVE OUTDIR [PROGRAM...]}")
OUT=${2:?usage: run.sh CARVE OUTDIR [PROGRAM...]}
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
OPT_LIMIT=${OPT_LIMIT:-600}
RUN_LIMIT=${RUN_LIMIT:-300}
OPT_SIZES=${OPT_SIZES:-s1 s2}   # the sizes optimize runs at
RUN_SIZES=${RUN_SIZES:-s1 s2 s3} # the sizes each optimized program runs at
PRE=${PRE:-1}                   # 0: skip check/run/analyze/estimate at s1

# size NAME PROGRAM: the -D flags of size s1 (small), s2 (the second optimize size), s3 (odd)
size() {
	case $2:$1 in
	atax:s1) echo "-D M=128 -D N=128" ;; atax:s2) echo "-D M=512 -D N=512" ;; atax:s3) echo "-D M=200 -D N=77" ;;
	bicg:s1) echo "-D NX=128 -D NY=128" ;; bicg:s2) echo "-D NX=512 -D NY=512" ;; bicg:s3) echo "-D NX=100 -D NY=333" ;;
	mvt:s1) echo "-D N=128" ;; mvt:s2) echo "-D N=512" ;; mvt:s3) echo "-D N=300" ;;
	fdtd2d:s1) echo "-D NX=64 -D NY=64 -D TMAX=4" ;; fdtd2d:s2) echo "-D NX=256 -D NY=256 -D TMAX=4" ;; fdtd2d:s3) echo "-D NX=70 -D NY=90 -D TMAX=3" ;;
	heat3d:s1) echo "-D N=32 -D TSTEPS=2" ;; heat3d:s2) echo "-D N=64 -D TSTEPS=2" ;; heat3d:s3) echo "-D N=27 -D TSTEPS=2" ;;
	lu:s1) echo "-D N=64" ;; lu:s2) echo "-D N=128" ;; lu:s3) echo "-D N=50" ;;
	floyd_warshall:s1) echo "-D N=64" ;; floyd_warshall:s2) echo "-D N=128" ;; floyd_warshall:s3) echo "-D N=100" ;;
	conv2d:s1) echo "-D H=128 -D W=128" ;; conv2d:s2) echo "-D H=256 -D W=256" ;; conv2d:s3) echo "-D H=100 -D W=130" ;;
	softmax:s1) echo "-D ROWS=256 -D COLS=128" ;; softmax:s2) echo "-D ROWS=1024 -D COLS=256" ;; softmax:s3) echo "-D ROWS=300 -D COLS=77" ;;
	layernorm:s1) echo "-D BATCH=128 -D HIDDEN=128" ;; layernorm:s2) echo "-D BATCH=512 -D HIDDEN=256" ;; layernorm:s3) echo "-D BATCH=100 -D HIDDEN=96" ;;
	batched_mm:s1) echo "-D BATCH=8" ;; batched_mm:s2) echo "-D BATCH=64" ;; batched_mm:s3) echo "-D BATCH=5 -D M=20 -D N=24 -D K=18" ;;
	spmv_csr:s1) echo "-D NROWS=1024" ;; spmv_csr:s2) echo "-D NROWS=4096" ;; spmv_csr:s3) echo "-D NROWS=1000" ;;
	# s4: a third, larger optimize size, nearer the GPU's (OPT_SIZES=s4 PRE=0 RUN_SIZES="s4 s3")
	atax:s4) echo "-D M=2048 -D N=2048" ;; bicg:s4) echo "-D NX=2048 -D NY=2048" ;; mvt:s4) echo "-D N=2048" ;;
	fdtd2d:s4) echo "-D NX=1024 -D NY=1024 -D TMAX=2" ;; heat3d:s4) echo "-D N=128 -D TSTEPS=1" ;;
	lu:s4) echo "-D N=256" ;; floyd_warshall:s4) echo "-D N=256" ;; conv2d:s4) echo "-D H=1024 -D W=1024" ;;
	softmax:s4) echo "-D ROWS=8192 -D COLS=256" ;; layernorm:s4) echo "-D BATCH=8192 -D HIDDEN=256" ;;
	batched_mm:s4) echo "-D BATCH=512" ;; spmv_csr:s4) echo "-D NROWS=65536" ;;
	esac
}

# flags PROGRAM: extra carve flags (not given to check, which has no --route) a program needs (softmax: carve's auto route does not send
# its host code, a struct with a member function, to nvcc; see RESULTS.md)
flags() {
	case $1 in
	softmax) echo "--route nvcc" ;;
	esac
}

# step PROGRAM SIZE NAME LIMIT LOGFILE COMMAND...: run it, time it, record the verdict line
step() {
	local p=$1 size=$2 name=$3 limit=$4 log=$5
	shift 5
	local t0 t1 rc verdict
	t0=$(date +%s.%N)
	timeout "$limit" "$@" >"$log" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	verdict=$(grep -E "^$p: (PASSED|FAILED)|error:|fault:|Segmentation|Aborted" "$log" | head -1 | tr '\t' ' ' | cut -c1-160)
	printf '%s\t%s\t%s\t%s\t%.1f\t%s\n' "$p" "$size" "$name" "$rc" "$(echo "$t1 - $t0" | bc)" "$verdict" >>"$OUT/summary.tsv"
	printf '%-16s %-4s %-12s rc=%-3s %6.1fs %s\n' "$p" "$size" "$name" "$rc" "$(echo "$t1 - $t0" | bc)" "$verdict"
}

PROGS=("$@")
[ ${#PROGS[@]} -eq 0 ] && PROGS=(atax bicg mvt fdtd2d heat3d lu floyd_warshall conv2d softmax layernorm batched_mm spmv_csr)
HAVE_NVCC=1
command -v nvcc >/dev/null || { HAVE_NVCC=0; echo "nvcc: skipped (no nvcc)"; }

# shellcheck disable=SC2046
for p in "${PROGS[@]}"; do
	src=$HERE/$p.cu
	F=$(flags "$p")
	S1=$(size s1 "$p")
	if [ "$PRE" = 1 ]; then
	[ -n "$F" ] && step "$p" s1 run-plain "$RUN_LIMIT" "$OUT/$p.run-plain.txt" "$CARVE" run "$src" $S1
	step "$p" s1 check 120 "$OUT/$p.check.txt" "$CARVE" check "$src" $S1
	step "$p" s1 run "$RUN_LIMIT" "$OUT/$p.run.txt" "$CARVE" run "$src" $S1 $F
	step "$p" s1 analyze "$RUN_LIMIT" "$OUT/$p.analyze.txt" "$CARVE" analyze "$src" $S1 $F
	step "$p" s1 estimate "$RUN_LIMIT" "$OUT/$p.estimate.txt" "$CARVE" estimate "$src" $S1 $F
	fi
	for o in $OPT_SIZES; do
		O=$(size $o "$p")
		[ $o != s1 ] && step "$p" $o estimate "$RUN_LIMIT" "$OUT/$p.$o.estimate.txt" "$CARVE" estimate "$src" $O $F
		step "$p" $o optimize "$OPT_LIMIT" "$OUT/$p.$o.plan.txt" "$CARVE" optimize "$src" $O $F -o "$OUT/$p.$o.cu"
		[ -f "$OUT/$p.$o.cu" ] || continue
		for r in $RUN_SIZES; do
			step "$p" $o opt-run-$r "$RUN_LIMIT" "$OUT/$p.$o.optrun-$r.txt" "$CARVE" run "$OUT/$p.$o.cu" $(size $r "$p") $F
		done
		[ $HAVE_NVCC = 1 ] && step "$p" $o nvcc 300 "$OUT/$p.$o.nvcc.txt" nvcc -arch=sm_90 $O -o "$OUT/$p.$o.bin" "$OUT/$p.$o.cu"
		rm -f "$OUT/$p.$o.bin"
	done
done
if command -v python3 >/dev/null; then
	python3 "$HERE/../holdout-summarize.py" "$OUT" >"$OUT/RESULTS.tables.md" && echo "tables: $OUT/RESULTS.tables.md"
else
	echo "summarize: skipped (no python3)"
fi
