#!/bin/bash
# macro: size macros kept by name in an optimized host program (docs/optimize.md, "Sizes kept
# symbolic"). Three spellings of a size: a `#define N` the file guards with #ifndef
# (mv_define.cu), -D only (mv_donly.cu: the file defines neither M nor N), an expression macro
# `#define ROWS (N * 2)` (mv_expr.cu). Each is optimized at one size; the output, run with
# `carve run` at three other sizes, must run the OPTIMIZED kernel there (the launch names of
# --format json) and print its own PASSED. The mutation ($CARVE_SIZES_MUTATION=1: one constant
# of the macro printed as its value, so the output is right only at the size optimized) must be
# rejected by the verification at other sizes, and the output then keeps the `#if` pinning.
carve=${1:-./carve}
dir=$(dirname "$0")
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "macro: FAIL: $2"; fail=$((fail+1)); fi; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# runs_optimized OUT NAME DEFINES...: carve run of OUT at DEFINES runs the optimized kernel and
# the program prints PASSED
runs_optimized() {
  local out=$1 name=$2; shift 2
  "$carve" run "$out" "$@" --format json > "$t/run.json" 2> "$t/run.err"
  local rc=$?
  check $rc "$name $*: carve run exits 0: $(tail -3 "$t/run.err")"
  grep -q "^$name: PASSED" "$t/run.json"; check $? "$name $*: the program prints PASSED: $(head -3 "$t/run.json")"
  grep -q '"kernel": "mv"' "$t/run.json"; check $? "$name $*: the optimized kernel 'mv' runs: $(tail -1 "$t/run.json")"
  ! grep -q 'mv_carve_original' "$t/run.json"; check $? "$name $*: the original does not run: $(tail -1 "$t/run.json")"
}

# optimize NAME DEFINES...: the output $t/NAME.out.cu, the plan $t/NAME.plan
optimize() {
  local name=$1; shift
  "$carve" optimize "$dir/$name.cu" "$@" -o "$t/$name.out.cu" 2> "$t/$name.plan"
  check $? "$name: carve optimize exits 0: $(tail -3 "$t/$name.plan")"
}

# a #define N in the file, optimized at N=64; run at 37 (ragged), 100 and 200
optimize mv_define -D N=64
grep -q "sizes    kept by name: N (optimized at 64, verified at" "$t/mv_define.plan"
check $? "mv_define: N kept by name: $(grep sizes "$t/mv_define.plan")"
! grep -q '^#if.*(N) ==' "$t/mv_define.out.cu"; check $? "mv_define: no #if pins N: $(grep '^#if' "$t/mv_define.out.cu")"
grep -q 'for (int j = lane; j < N; j += 32)' "$t/mv_define.out.cu"
check $? "mv_define: the split loop's bound is N: $(sed -n '/^__global__ void mv(/,/^}/p' "$t/mv_define.out.cu")"
for n in 37 100 200; do runs_optimized "$t/mv_define.out.cu" mv_define -D N=$n; done

# -D only (M and N), optimized at M=80 N=64; run at three other shapes
optimize mv_donly -D M=80 -D N=64
grep -q "kept by name: M (optimized at 80" "$t/mv_donly.plan" && grep -q "N (optimized at 64" "$t/mv_donly.plan"
check $? "mv_donly: M and N kept by name: $(grep sizes "$t/mv_donly.plan")"
runs_optimized "$t/mv_donly.out.cu" mv_donly -D M=33 -D N=50
runs_optimized "$t/mv_donly.out.cu" mv_donly -D M=300 -D N=17
runs_optimized "$t/mv_donly.out.cu" mv_donly -D M=128 -D N=129

# an expression macro, optimized at N=64 (ROWS = 128): the kernel's bound printed as (ROWS)
optimize mv_expr -D N=64
grep -q "kept by name: ROWS (optimized at 128" "$t/mv_expr.plan"
check $? "mv_expr: ROWS kept by name: $(grep sizes "$t/mv_expr.plan")"
grep -q 'if (i < (ROWS))' "$t/mv_expr.out.cu"; check $? "mv_expr: the guard is i < (ROWS): $(sed -n '/^__global__ void mv(/,/^}/p' "$t/mv_expr.out.cu")"
for n in 20 96 150; do runs_optimized "$t/mv_expr.out.cu" mv_expr -D N=$n; done

# the JSON names the macros kept by name and the values verified
"$carve" optimize "$dir/mv_define.cu" -D N=64 --format json > "$t/plan.json" 2> /dev/null
grep -q '"symbolic_sizes": \[{"macro": "N", "optimized_at": 64, "verified_at": \[[0-9]*, [0-9]*\]}\]' "$t/plan.json"
check $? "mv_define: JSON symbolic_sizes: $(grep -o '"symbolic_sizes[^]]*]' "$t/plan.json")"
grep -q '"pinned_sizes": ""' "$t/plan.json"; check $? "mv_define: JSON pinned_sizes empty: $(grep -o '"pinned_sizes": "[^"]*"' "$t/plan.json")"

# the mutation: a constant printed as its value (right only at N=64) is caught at another size
CARVE_SIZES_MUTATION=1 "$carve" optimize "$dir/mv_define.cu" -D N=64 -o "$t/mut.cu" 2> "$t/mut.plan"
check $? "mutation: carve optimize exits 0: $(tail -3 "$t/mut.plan")"
grep -q "sizes    tried: N=[0-9]*: DIFFERENT" "$t/mut.plan"; check $? "mutation: rejected at another N: $(grep sizes "$t/mut.plan")"
! grep -q "kept by name" "$t/mut.plan"; check $? "mutation: N not kept by name"
grep -q '^#if (N) == 64' "$t/mut.cu"; check $? "mutation: the output keeps #if (N) == 64: $(grep '^#if' "$t/mut.cu")"
runs_optimized "$t/mut.cu" mv_define -D N=64
"$carve" run "$t/mut.cu" -D N=100 --format json > "$t/run.json" 2> /dev/null
grep -q "mv_carve_original" "$t/run.json" && grep -q "^mv_define: PASSED" "$t/run.json"
check $? "mutation: at N=100 the original runs and passes: $(tail -1 "$t/run.json")"

echo "macro: $pass passed, $fail failed"
[ $fail = 0 ]
