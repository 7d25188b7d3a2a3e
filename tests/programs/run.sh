#!/bin/bash
# Whole naive programs written in the style of public GPU benchmark suites (sizes as macros or
# from argv, a CPU reference, a verdict printed and returned), taken through the user's flow:
# carve run (the program's own PASS), carve optimize -o OUT at the default size, then OUT run at
# the default size AND at sizes it was not optimized or verified at (its own check must still
# pass), and OUT compiled by nvcc where nvcc exists. The passes each kept are printed. Programs of
# several kernels (mvt, atax, covar, jacobi2d, mm2, bicg, corr, fdtd2d, lu) give one output with
# every kernel whose steps were kept replaced (checked); fdtd2d and lu launch a kernel with the
# loop counter as an argument (--no-estimate keeps steps there; the output's launches that meet
# what the kernel was verified for run it, the others the original: checked in the run's list);
# the `launch` lines reshape host launches' blocks; heat's kernels in heat_kernels.cuh stay as
# written in a one-file output (tests/optimize_cli.sh writes both sources with -o DIR).
carve=$(realpath "${1:-./carve}")
cd "$(dirname "$0")" || exit 2
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "programs: FAIL: $2"; fail=$((fail+1)); fi; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
[ -n "$nvcc" ] || echo "programs: nvcc compiles of the outputs skipped (no nvcc)"
verdict() { grep -q '^PASS$' "$1"; }
# program | flags (optimize and run) | other runs, ';'-separated (flags for carve run) | optimize's own flags | a line its plan must hold
# | launches the output's run must list at the size optimized, ';'-separated (the optimized kernel and the original, each where it should run)
while IFS='|' read -r prog oflags others only want runs; do
  [ -n "$prog" ] || continue
  timeout 300 "$carve" run -I. "$prog.cu" $oflags > "$t/$prog.orig" 2>&1
  verdict "$t/$prog.orig"; check $? "$prog: the original passes its own check under carve run: $(tail -2 "$t/$prog.orig")"
  timeout 600 "$carve" optimize -I. "$prog.cu" -o "$t/$prog.opt.cu" $oflags $only 2> "$t/$prog.plan"; rc=$?
  check $rc "$prog: carve optimize exits 0 ($rc): $(tail -3 "$t/$prog.plan")"
  [ -z "$want" ] || grep -q "$want" "$t/$prog.plan"; check $? "$prog: the plan holds '$want'"
  kept=$(grep -o 'optimize: [a-z]* *applied, verified' "$t/$prog.plan" | awk '{print $2}' | sort | uniq -c | awk '{printf "%s%s ", $2, ($1 > 1 ? "x" $1 : "")}')
  echo "programs: $prog: kept ${kept:-nothing}"
  [ -f "$t/$prog.opt.cu" ] || continue
  # several kernels: one output with every kernel whose steps were kept replaced (its launches
  # wrapped in its own carve_fits_K test), the others as written
  summary=$(grep '^carve optimize: one output' "$t/$prog.plan")
  if [ -n "$summary" ]; then
    want=$(echo "$summary" | sed 's/^[^:]*: [^:]*://' | tr ';' '\n' | grep -vc 'as written')
    have=$(grep -c '^static inline bool carve_fits_' "$t/$prog.opt.cu")
    [ "$want" = "$have" ]; check $? "$prog: every optimized kernel is in the one output ($want kept, $have carve_fits_K in the output): $summary"
    echo "programs: $prog: ${summary#carve optimize: one output * for }"
  fi
  cp common.h "$t/"
  timeout 300 "$carve" run -I. "$t/$prog.opt.cu" $oflags > "$t/$prog.out" 2>&1
  verdict "$t/$prog.out"; check $? "$prog: the output passes the program's check at the size optimized: $(tail -2 "$t/$prog.out")"
  IFS=';' read -ra wruns <<< "$runs"
  for w in "${wruns[@]}"; do
    grep -q "$w" "$t/$prog.out"; check $? "$prog: the output's run made '$w': $(grep '  launch [0-9]' "$t/$prog.out" | head -4)"
  done
  IFS=';' read -ra runs <<< "$others"
  for r in "${runs[@]}"; do
    [ -n "$r" ] || continue
    timeout 300 "$carve" run -I. $r "$prog.cu" > "$t/$prog.o2" 2>&1
    timeout 300 "$carve" run -I. $r "$t/$prog.opt.cu" > "$t/$prog.x" 2>&1
    verdict "$t/$prog.x" || ! verdict "$t/$prog.o2"; check $? "$prog: the output passes the program's check at '$r', where the original does: $(grep -v '^  ' "$t/$prog.x" | tail -2)"
  done
  if [ -n "$nvcc" ]; then
    "$nvcc" -arch=sm_90 -I. -o "$t/$prog.exe" "$t/$prog.opt.cu" > "$t/$prog.nvcc" 2>&1; check $? "$prog: nvcc compiles the output: $(head -3 "$t/$prog.nvcc")"
  fi
done <<'LIST'
gemm||-D NI=130 -D NJ=100 -D NK=50;-D NI=7 -D NJ=33 -D NK=129
atax||-D NX=200 -D NY=33;-D NX=31 -D NY=300
covar||-D M=150 -D N=40;-D M=17 -D N=100
jacobi2d||-D N=77 -D TSTEPS=3;-D N=130 -D TSTEPS=2
matmul_argv|-- 40|-- 100;-- 17;-- 64
sum_managed|-- 70000|-- 1000000;-- 4097
mvt||-D N=300;-D N=33
conv2d||-D NI=300 -D NJ=65;-D NI=33 -D NJ=500
mm2||-D NI=33 -D NJ=70 -D NK=17 -D NL=65;-D NI=100 -D NJ=9 -D NK=64 -D NL=31
bicg||-D NX=33 -D NY=300;-D NX=257 -D NY=31
corr||-D M=17 -D N=90;-D M=70 -D N=23
fdtd2d||-D TMAX=7 -D NX=33 -D NY=70;-D TMAX=2 -D NX=65 -D NY=17;-D TMAX=3 -D NX=48 -D NY=64|--no-estimate
lu||-D N=33;-D N=100;-D N=64|--no-estimate||launch [0-9]*: lu_kernel2<<<(1,6,1), (32,8,1)>>>;launch [0-9]*: lu_kernel2_carve_original<<<(1,4,1), (32,8,1)>>>
fdtd2d||-D TMAX=7 -D NX=33 -D NY=70;-D TMAX=2 -D NX=65 -D NY=17|--no-estimate --passes launch --set launch.x=64 --set launch.y=4|launch   applied, verified.*block 32x8 -> 64x4|launch 1: fdtd_step1<<<(1,12,1), (64,4,1)>>>;launch [0-9]*: fdtd_step1_carve_original<<<(2,6,1), (32,8,1)>>>;fdtd_step3<<<(1,12,1), (64,4,1)>>>.*4 times
heat||-D NX=100 -D NY=33;-D NX=33 -D NY=70 -D STEPS=5|--no-estimate|heat_step' is defined in ./heat_kernels.cuh, another source
mm2||-D NI=33 -D NJ=70 -D NK=17 -D NL=65|--no-estimate --passes launch --set launch.x=128 --set launch.y=2|launch   applied, verified.*block 32x8 -> 128x2
LIST
echo "programs: $pass passed, $fail failed"
[ $fail = 0 ]
