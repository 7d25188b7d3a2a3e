#!/bin/bash
# bench/holdout3/run.sh CARVE OUTDIR [PROGRAM...]
# Step 2 of the holdout test: for each program, as a new user would, run
#   carve check / run / analyze / estimate at its default size s1,
#   carve optimize at s1 and at a second, larger size s2 (-D) (timed, OPT_LIMIT s, plan kept,
#   -o P.s1.cu / P.s2.cu), each optimized program under carve run at s1 and s2 (does it still
#   reach its own PASSED?), and nvcc -arch=sm_90 on it at its own size (skipped without nvcc).
# Every output goes to OUTDIR/P.*; OUTDIR/summary.tsv has one line per step:
#   program  size  step  exit-status  seconds  verdict-line
# and OUTDIR/RESULTS.tables.md the tables of bench/holdout-summarize.py (shared with holdout4
# and holdout5). RESULTS.md was made with an earlier version that named the sizes default and big.
set -u
CARVE=$(readlink -f "${1:?usage: run.sh CARVE OUTDIR [PROGRAM...]}")
OUT=${2:?usage: run.sh CARVE OUTDIR [PROGRAM...]}
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
OPT_LIMIT=${OPT_LIMIT:-600}
RUN_LIMIT=${RUN_LIMIT:-600}
OPT_SIZES=${OPT_SIZES:-s1 s2} # the sizes optimize runs at
RUN_SIZES=${RUN_SIZES:-s1 s2} # the sizes each optimized program runs at

# size NAME PROGRAM: the -D flags of size s1 (the program's defaults) and s2 (the second size)
size() {
	[ "$1" = s1 ] && return
	case $2 in
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
	verdict=$(grep -E "^$p: (PASSED|FAILED)|error:|fault:|Segmentation|Aborted" "$log" | head -1 | tr '\t' ' ' | cut -c1-160)
	printf '%s\t%s\t%s\t%s\t%.1f\t%s\n' "$p" "$size" "$name" "$rc" "$(echo "$t1 - $t0" | bc)" "$verdict" >>"$OUT/summary.tsv"
	printf '%-16s %-7s %-10s rc=%-3s %6.1fs %s\n' "$p" "$size" "$name" "$rc" "$(echo "$t1 - $t0" | bc)" "$verdict"
}

PROGS=("$@")
[ ${#PROGS[@]} -eq 0 ] && PROGS=(3mm gesummv syrk syr2k gramschmidt conv3d doitgen jacobi1d adi gemver sgemm_colmajor correlation)
HAVE_NVCC=1
command -v nvcc >/dev/null || { HAVE_NVCC=0; echo "nvcc: skipped (no nvcc)"; }

# shellcheck disable=SC2046
for p in "${PROGS[@]}"; do
	src=$HERE/$p.cu
	step "$p" s1 check 120 "$OUT/$p.check.txt" "$CARVE" check "$src"
	step "$p" s1 run "$RUN_LIMIT" "$OUT/$p.run.txt" "$CARVE" run "$src"
	step "$p" s1 analyze "$RUN_LIMIT" "$OUT/$p.analyze.txt" "$CARVE" analyze "$src"
	step "$p" s1 estimate "$RUN_LIMIT" "$OUT/$p.estimate.txt" "$CARVE" estimate "$src"
	for o in $OPT_SIZES; do
		O=$(size $o "$p")
		[ $o != s1 ] && step "$p" $o estimate "$RUN_LIMIT" "$OUT/$p.$o.estimate.txt" "$CARVE" estimate "$src" $O
		step "$p" $o optimize "$OPT_LIMIT" "$OUT/$p.$o.plan.txt" "$CARVE" optimize "$src" $O -o "$OUT/$p.$o.cu"
		[ -f "$OUT/$p.$o.cu" ] || continue
		for r in $RUN_SIZES; do
			step "$p" $o opt-run-$r "$RUN_LIMIT" "$OUT/$p.$o.optrun-$r.txt" "$CARVE" run "$OUT/$p.$o.cu" $(size $r "$p")
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
