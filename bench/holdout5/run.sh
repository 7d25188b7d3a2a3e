#!/bin/bash
# bench/holdout5/run.sh CARVE OUTDIR [PROGRAM...]
# Step 2 of the holdout test (adapted from bench/holdout4/run.sh): for each program, as a user would,
#   carve check / run / analyze / estimate at size 1,
#   carve optimize at size 1 and at size 2 (timed, OPT_LIMIT s, plan kept, -o P.s1.cu / P.s2.cu),
#   each optimized program run under carve run at size 1, size 2 and an odd size 3
#   (does it still reach its own PASSED? did the optimized kernel run, or the kept original?),
#   and compiled with nvcc -arch=sm_90 at its own size.
# Every output goes to OUTDIR/P.*; OUTDIR/summary.tsv has one line per step:
#   program  size  step  exit-status  seconds  verdict-line
# and OUTDIR/RESULTS.tables.md the tables of bench/holdout-summarize.py.
# A program that needs extra flags (flags()) also gets one plain `carve run` (step run-plain),
# the command a user would type first. carve's CUDA runtime (make cudart) must be built: the
# C++ host programs (durbin, atb, resize) take the nvcc route.
set -u
CARVE=$(readlink -f "${1:?usage: run.sh CARVE OUTDIR [PROGRAM...]}")
OUT=${2:?usage: run.sh CARVE OUTDIR [PROGRAM...]}
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
OPT_LIMIT=${OPT_LIMIT:-600}
RUN_LIMIT=${RUN_LIMIT:-300}
OPT_SIZES=${OPT_SIZES:-s1 s2}    # the sizes optimize runs at
RUN_SIZES=${RUN_SIZES:-s1 s2 s3} # the sizes each optimized program runs at
PRE=${PRE:-1}                    # 0: skip check/run/analyze/estimate at s1

# size NAME PROGRAM: the -D flags of size s1 (small), s2 (the second optimize size), s3 (odd)
size() {
	case $2:$1 in
	trmm:s1) echo "-D M=64 -D N=64" ;; trmm:s2) echo "-D M=256 -D N=256" ;; trmm:s3) echo "-D M=100 -D N=70" ;;
	symm:s1) echo "-D M=64 -D N=64" ;; symm:s2) echo "-D M=256 -D N=384" ;; symm:s3) echo "-D M=50 -D N=90" ;;
	seidel2d:s1) echo "-D N=32 -D TSTEPS=2" ;; seidel2d:s2) echo "-D N=128 -D TSTEPS=1" ;; seidel2d:s3) echo "-D N=45 -D TSTEPS=1" ;;
	durbin:s1) echo "-D N=64" ;; durbin:s2) echo "-D N=256" ;; durbin:s3) echo "-D N=100" ;;
	histogram:s1) echo "-D NELEM=65536" ;; histogram:s2) echo "-D NELEM=1048576" ;; histogram:s3) echo "-D NELEM=100003" ;;
	scan:s1) echo "-D N=4096" ;; scan:s2) echo "-D N=16384" ;; scan:s3) echo "-D N=3000" ;;
	atb:s1) echo "-D M=64 -D N=64 -D K=64" ;; atb:s2) echo "-D M=384 -D N=256 -D K=320" ;; atb:s3) echo "-D M=50 -D N=70 -D K=33" ;;
	dgemv:s1) echo "-D ROWS=256 -D COLS=256" ;; dgemv:s2) echo "-D ROWS=1024 -D COLS=768" ;; dgemv:s3) echo "-D ROWS=300 -D COLS=77" ;;
	maxpool:s1) echo "-D BATCH=1 -D CH=4 -D H=64 -D W=64" ;; maxpool:s2) echo "-D BATCH=4 -D CH=16 -D H=128 -D W=128" ;; maxpool:s3) echo "-D BATCH=1 -D CH=3 -D H=37 -D W=45" ;;
	resize:s1) echo "-D SRC_H=60 -D SRC_W=80 -D DST_H=128 -D DST_W=160" ;; resize:s2) echo "-D SRC_H=300 -D SRC_W=400 -D DST_H=512 -D DST_W=640" ;; resize:s3) echo "-D SRC_H=33 -D SRC_W=47 -D DST_H=71 -D DST_W=29" ;;
	kmeans:s1) echo "-D NPTS=2048 -D K=8 -D DIM=4" ;; kmeans:s2) echo "-D NPTS=16384 -D K=16 -D DIM=8" ;; kmeans:s3) echo "-D NPTS=1000 -D K=5 -D DIM=3" ;;
	nbody:s1) echo "-D NBODIES=512" ;; nbody:s2) echo "-D NBODIES=2048" ;; nbody:s3) echo "-D NBODIES=300" ;;
	# s4: a larger optimize size, nearer the GPU's (OPT_SIZES=s4 PRE=0 RUN_SIZES="s4 s3" XFLAGS="--route nvcc")
	trmm:s4) echo "-D M=1024 -D N=1024" ;; symm:s4) echo "-D M=512 -D N=512" ;; seidel2d:s4) echo "-D N=512 -D TSTEPS=1" ;;
	durbin:s4) echo "-D N=1024" ;; histogram:s4) echo "-D NELEM=16777216" ;; scan:s4) echo "-D N=65536" ;;
	atb:s4) echo "-D M=512 -D N=512 -D K=512" ;; dgemv:s4) echo "-D ROWS=4096 -D COLS=4096" ;;
	maxpool:s4) echo "-D BATCH=8 -D CH=32 -D H=112 -D W=112" ;; resize:s4) echo "-D SRC_H=540 -D SRC_W=960 -D DST_H=1080 -D DST_W=1920" ;;
	kmeans:s4) echo "-D NPTS=262144 -D K=32 -D DIM=16" ;; nbody:s4) echo "-D NBODIES=4096" ;;
	esac
}

# flags PROGRAM: extra carve flags (not given to check, which has no --route) a program needs
# (resize: carve's auto route does not send its host code, a class with a constructor, to nvcc;
# see RESULTS.md)
# XFLAGS: more flags for every program (s4: --route nvcc, the host code native)
flags() {
	local f=${XFLAGS:-}
	case $1 in
	resize) case $f in *--route*) ;; *) f="$f --route nvcc" ;; esac ;;
	esac
	echo $f
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
	printf '%-10s %-4s %-12s rc=%-3s %6.1fs %s\n' "$p" "$size" "$name" "$rc" "$(echo "$t1 - $t0" | bc)" "$verdict"
}

PROGS=("$@")
[ ${#PROGS[@]} -eq 0 ] && PROGS=(trmm symm seidel2d durbin histogram scan atb dgemv maxpool resize kmeans nbody)
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
