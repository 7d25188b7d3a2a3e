#!/bin/bash
# bench/holdout3/run.sh CARVE OUTDIR [PROGRAM...]
# Step 2 of the holdout test: for each program, as a new user would, run
#   carve check / run / analyze / estimate, carve optimize (timed, 600 s limit, plan kept),
#   carve run on the optimized program (does it still reach its own PASSED?),
#   nvcc -arch=sm_90 on the optimized program (skipped without nvcc),
# then the same optimize at a second, larger size (-D), the optimized program run at that size
# and compiled. Every output goes to OUTDIR/P.*; OUTDIR/summary.tsv has one line per step:
#   program  size  step  exit-status  seconds  verdict-line
set -u
CARVE=$(readlink -f "${1:?usage: run.sh CARVE OUTDIR [PROGRAM...]}")
OUT=${2:?usage: run.sh CARVE OUTDIR [PROGRAM...]}
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
OPT_LIMIT=${OPT_LIMIT:-600}
RUN_LIMIT=${RUN_LIMIT:-600}

# the second size of each program
big() {
	case $1 in
	3mm) echo "-D NI=256 -D NJ=256 -D NK=256 -D NL=256 -D NM=256" ;;
	gesummv) echo "-D N=4096" ;;
	syrk|syr2k) echo "-D N=256 -D M=256" ;;
	gramschmidt) echo "-D M=256 -D N=256" ;;
	conv3d) echo "-D NI=128 -D NJ=128 -D NK=128" ;;
	doitgen) echo "-D NR=64 -D NQ=64 -D NP=128" ;;
	jacobi1d) echo "-D N=65536 -D TSTEPS=20" ;;
	adi) echo "-D N=256 -D TSTEPS=4" ;;
	gemver) echo "-D N=1024" ;;
	sgemm_colmajor) echo "-D M=256 -D N=256 -D K=256" ;;
	correlation) echo "-D M=256 -D N=256" ;;
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
	verdict=$(grep -E "^$p: (PASSED|FAILED)|error:|fault:" "$log" | head -1 | tr '\t' ' ' | cut -c1-160)
	printf '%s\t%s\t%s\t%s\t%.1f\t%s\n' "$p" "$size" "$name" "$rc" "$(echo "$t1 - $t0" | bc)" "$verdict" >>"$OUT/summary.tsv"
	printf '%-16s %-7s %-10s rc=%-3s %6.1fs %s\n' "$p" "$size" "$name" "$rc" "$(echo "$t1 - $t0" | bc)" "$verdict"
}

PROGS=("$@")
[ ${#PROGS[@]} -eq 0 ] && PROGS=(3mm gesummv syrk syr2k gramschmidt conv3d doitgen jacobi1d adi gemver sgemm_colmajor correlation)
HAVE_NVCC=1
command -v nvcc >/dev/null || { HAVE_NVCC=0; echo "nvcc: skipped (no nvcc)"; }

for p in "${PROGS[@]}"; do
	src=$HERE/$p.cu
	step "$p" default check 120 "$OUT/$p.check.txt" "$CARVE" check "$src"
	step "$p" default run "$RUN_LIMIT" "$OUT/$p.run.txt" "$CARVE" run "$src"
	step "$p" default analyze "$RUN_LIMIT" "$OUT/$p.analyze.txt" "$CARVE" analyze "$src"
	step "$p" default estimate "$RUN_LIMIT" "$OUT/$p.estimate.txt" "$CARVE" estimate "$src"
	step "$p" default optimize "$OPT_LIMIT" "$OUT/$p.plan.txt" "$CARVE" optimize "$src" -o "$OUT/$p.cu"
	if [ -f "$OUT/$p.cu" ]; then
		step "$p" default opt-run "$RUN_LIMIT" "$OUT/$p.optrun.txt" "$CARVE" run "$OUT/$p.cu"
		[ $HAVE_NVCC = 1 ] && step "$p" default nvcc 300 "$OUT/$p.nvcc.txt" nvcc -arch=sm_90 -o "$OUT/$p.bin" "$OUT/$p.cu"
	fi
	# shellcheck disable=SC2046
	step "$p" big estimate "$RUN_LIMIT" "$OUT/$p.big.estimate.txt" "$CARVE" estimate "$src" $(big "$p")
	# shellcheck disable=SC2046
	step "$p" big optimize "$OPT_LIMIT" "$OUT/$p.big.plan.txt" "$CARVE" optimize "$src" $(big "$p") -o "$OUT/$p.big.cu"
	if [ -f "$OUT/$p.big.cu" ]; then
		# shellcheck disable=SC2046
		step "$p" big opt-run "$RUN_LIMIT" "$OUT/$p.big.optrun.txt" "$CARVE" run "$OUT/$p.big.cu" $(big "$p")
		# shellcheck disable=SC2046
		[ $HAVE_NVCC = 1 ] && step "$p" big nvcc 300 "$OUT/$p.big.nvcc.txt" nvcc -arch=sm_90 $(big "$p") -o "$OUT/$p.big.bin" "$OUT/$p.big.cu"
	fi
	rm -f "$OUT/$p.bin" "$OUT/$p.big.bin"
done
