#!/bin/bash
# C++ host programs (bench/holdout4 DIAGNOSIS §2): host code carve's front end skips (a struct
# with a member function, references, std::vector, a template, a lambda) decides the route from
# what was read (main or a function it calls skipped: nvcc), says what is missing when the nvcc
# route cannot run, is listed by check, and gets its launches rewritten by optimize from their
# tokens (src/opt/emit_launch.c): compiled by nvcc, run under carve, the whole program checked.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "host-cxx: FAIL: $2"; fail=$((fail+1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
d=tests/host_cxx

# check: launches in host code the front end could not read, with their lines (no nvcc needed)
"$carve" check $d/rowsum.cu >"$tmp/out" 2>"$tmp/err"; check $? "check exit 0: $(cat "$tmp/err")"
grep -q "launched at line 23 in host code carve's front end could not read: run, analyze, estimate, optimize and report take" "$tmp/out"; check $? "check: the launch's line: $(cat "$tmp/out")"
! grep -q "no launch specification" "$tmp/out"; check $? "check: not 'no launch specification': $(cat "$tmp/out")"
"$carve" check --format json $d/rowsum.cu >"$tmp/out" 2>"$tmp/err"
grep -q '"unread_host_launch_lines": \[23\]' "$tmp/out"; check $? "check json: unread_host_launch_lines: $(cat "$tmp/out")"
"$carve" check tests/host/vadd.cu >"$tmp/out" 2>"$tmp/err"
grep -q "launched by the host code at line 42" "$tmp/out"; check $? "check: a C host's launch as before: $(cat "$tmp/out")"

# the runtime library missing: the front end's error, then what would run it (exit 2)
nvcc=${CARVE_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$nvcc" ]; then
  CARVE_CUDART=$tmp/none.so "$carve" run $d/rowsum.cu >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc = 2 ]; check $? "no runtime: exit 2 (got $rc)"
  grep -q "rowsum.cu:27:3: error: use of undeclared identifier 'Problem'" "$tmp/err"; check $? "no runtime: the front end's error: $(cat "$tmp/err")"
  tail -1 "$tmp/err" | grep -q "carve run: note: carve's CUDA runtime library is not built: run 'make cudart' (or set CARVE_CUDART): carve's front end could not read 'main'"; check $? "no runtime: the note, last: $(cat "$tmp/err")"
  CARVE_CUDART=$tmp/none.so "$carve" analyze $d/callee.cu >"$tmp/out" 2>"$tmp/err"
  grep -q "carve analyze: note: carve's CUDA runtime library is not built: run 'make cudart'.*could not read 'total'" "$tmp/err"; check $? "no runtime: a callee named: $(cat "$tmp/err")"
else
  echo "host-cxx: runtime-missing note: skipped (no nvcc)"
fi
CARVE_NVCC=$tmp/no-nvcc "$carve" run $d/rowsum.cu >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ]; check $? "no nvcc: exit 2 (got $rc)"
grep -q "carve run: note: carve's front end could not read 'main', and such a program runs only built by nvcc against carve's CUDA runtime library: nvcc is not found" "$tmp/err"; check $? "no nvcc: said: $(cat "$tmp/err")"
# a C host program: no note, the interpreter
"$carve" run tests/host/vadd.cu >"$tmp/out" 2>"$tmp/err"; check $? "vadd: exit 0"
grep -q "host code interpreted by carve" "$tmp/err" && ! grep -q "route nvcc" "$tmp/err"; check $? "vadd: interpreted, no route note: $(cat "$tmp/err")"

if ! [ -x "$nvcc" ] || ! [ -f build/libcarve_cudart.so ]; then
  echo "host-cxx: the nvcc route: skipped (no nvcc or no build/libcarve_cudart.so: make cudart)"
  echo "host-cxx: $pass passed, $fail failed"
  [ $fail = 0 ]; exit
fi

# route auto from facts: main skipped (a struct with a member function) -> nvcc, said with its cause
"$carve" run $d/rowsum.cu >"$tmp/out" 2>"$tmp/err"; check $? "rowsum: exit 0: $(cat "$tmp/err")"
grep -qx "rowsum: PASSED" "$tmp/out"; check $? "rowsum: PASSED: $(cat "$tmp/out")"
grep -q "carve run: route nvcc: carve's front end could not read 'main' ($d/rowsum.cu:27: use of undeclared identifier 'Problem')" "$tmp/err"; check $? "rowsum: the route's reason: $(cat "$tmp/err")"
grep -q "host code built by nvcc" "$tmp/err"; check $? "rowsum: route named"
# main read, a function it calls skipped -> nvcc
"$carve" run $d/callee.cu >"$tmp/out" 2>"$tmp/err"; check $? "callee: exit 0: $(cat "$tmp/err")"
grep -qx "callee: PASSED (9000)" "$tmp/out"; check $? "callee: PASSED: $(cat "$tmp/out")"
grep -q "route nvcc: carve's front end could not read 'total'" "$tmp/err"; check $? "callee: the callee named: $(cat "$tmp/err")"
# --route interp keeps the interpreter and its diagnostic
"$carve" run --route interp $d/callee.cu >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ]; check $? "callee interp: exit 2 (got $rc)"
grep -q "the host function 'total' (called by 'main') could not be read" "$tmp/err"; check $? "callee interp: said: $(cat "$tmp/err")"
# a program that is simply wrong: nvcc's own error, carve's reading named, exit 2
"$carve" run tests/host/bad/unknown.cu >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ]; check $? "unknown: exit 2 (got $rc)"
grep -q 'identifier "cublasSscal" is undefined' "$tmp/err"; check $? "unknown: nvcc's error: $(cat "$tmp/err")"
grep -q "route nvcc: carve's front end could not read 'main' (tests/host/bad/unknown.cu:6: unknown function 'cublasSscal'" "$tmp/err"; check $? "unknown: carve's reading: $(cat "$tmp/err")"

# optimize: the kept step written into the whole program, the launch (in a skipped function,
# before the kernel's definition) rewritten from its tokens; the whole program checked
"$carve" optimize $d/rowsum.cu -o "$tmp/rs.cu" >"$tmp/out" 2>"$tmp/err"; check $? "optimize rowsum: exit 0: $(tail -5 "$tmp/err")"
grep -q "split    applied, verified" "$tmp/err"; check $? "optimize rowsum: split kept: $(cat "$tmp/err")"
! grep -q "are not in the output" "$tmp/err"; check $? "optimize rowsum: no 'not in the output' warning: $(grep warning "$tmp/err")"
grep -q "carve optimize: whole program checked: the same exit status (0)" "$tmp/err"; check $? "optimize rowsum: the whole program checked: $(tail -3 "$tmp/err")"
grep -q "^int main() {" "$tmp/rs.cu"; check $? "optimize rowsum: the output is the program (main)"
grep -q "(carve_fits_rowsum(dim3((p.rows + 127) / 128), dim3(128)) && carve_args_rowsum(da, dy, p.rows, p.cols) ? (void)(rowsum<<<carve_grid_rowsum(" "$tmp/rs.cu"; check $? "optimize rowsum: the launch wrapped: $(grep -n 'rowsum<<<' "$tmp/rs.cu")"
grep -q ": (void)(rowsum_carve_original<<<(p.rows + 127) / 128, 128>>>(da, dy, p.rows, p.cols)))" "$tmp/rs.cu"; check $? "optimize rowsum: the original as the fallback"
# the carve block before the function that launches (the launch comes before the definition)
co=$(grep -n "^__global__ void rowsum_carve_original" "$tmp/rs.cu" | cut -d: -f1); lf=$(grep -n "^static void launch" "$tmp/rs.cu" | cut -d: -f1)
[ -n "$co" ] && [ -n "$lf" ] && [ "$co" -lt "$lf" ]; check $? "optimize rowsum: the original kernel ($co) before the launching function ($lf)"
"$nvcc" -arch=sm_90 -o "$tmp/rs.bin" "$tmp/rs.cu" 2>"$tmp/nvcc.err"; check $? "optimize rowsum: nvcc compiles the output: $(head -5 "$tmp/nvcc.err")"
for s in "" "-D ROWS=100 -D COLS=37"; do
  "$carve" run "$tmp/rs.cu" $s >"$tmp/out" 2>"$tmp/err"; check $? "optimized rowsum $s: exit 0: $(tail -3 "$tmp/err")"
  grep -qx "rowsum: PASSED" "$tmp/out"; check $? "optimized rowsum $s: PASSED: $(cat "$tmp/out")"
  grep -q "launch 1: rowsum<<<" "$tmp/err"; check $? "optimized rowsum $s: the optimized kernel ran: $(grep 'launch 1' "$tmp/err")"
done

# spellings of the launch in skipped code: a template function and a lambda are written; a
# launch inside a macro, or an operand holding '<', keeps the kernel as written with the reason
sed 's|^static void launch(const Problem &p, const float \*da, float \*dy) {|template <typename T> static void launch(const Problem \&p, const T *da, T *dy) {\n  auto go = [\&]() {|; s|^  rowsum<<<(p.rows + 127) / 128, 128>>>(da, dy, p.rows, p.cols);|    rowsum<<<(p.rows + 127) / 128, 128>>>(da, dy, p.rows, p.cols);\n  };\n  go();|' $d/rowsum.cu >"$tmp/tmpl.cu"
grep -q "auto go = \[&\]() {" "$tmp/tmpl.cu"; check $? "the template/lambda variant was made"
"$carve" optimize "$tmp/tmpl.cu" --passes split -o "$tmp/tmpl_opt.cu" >"$tmp/out" 2>"$tmp/err"; check $? "template/lambda: exit 0: $(tail -3 "$tmp/err")"
grep -q "? (void)(rowsum<<<carve_grid_rowsum(" "$tmp/tmpl_opt.cu"; check $? "template/lambda: the launch wrapped: $(grep -n 'rowsum<<<' "$tmp/tmpl_opt.cu")"
"$nvcc" -arch=sm_90 -o "$tmp/tmpl.bin" "$tmp/tmpl_opt.cu" 2>"$tmp/nvcc.err"; check $? "template/lambda: nvcc compiles it: $(head -5 "$tmp/nvcc.err")"
"$carve" run "$tmp/tmpl_opt.cu" -D ROWS=64 -D COLS=50 >"$tmp/out" 2>"$tmp/err"; check $? "template/lambda: runs"
grep -qx "rowsum: PASSED" "$tmp/out"; check $? "template/lambda: PASSED: $(cat "$tmp/out")"

sed 's|^  rowsum<<<(p.rows + 127) / 128, 128>>>(da, dy, p.rows, p.cols);|#define LAUNCH_ROWSUM(g, b, ...) rowsum<<<g, b>>>(__VA_ARGS__)\n  LAUNCH_ROWSUM((p.rows + 127) / 128, 128, da, dy, p.rows, p.cols);|' $d/rowsum.cu >"$tmp/macro.cu"
"$carve" optimize "$tmp/macro.cu" --passes split --whole-seconds 0 -o "$tmp/macro_opt.cu" >"$tmp/out" 2>"$tmp/err"; check $? "macro: exit 0: $(tail -3 "$tmp/err")"
grep -q "warning: the steps kept for 'rowsum' are not in the output, which runs it as written (a launch of 'rowsum' inside a macro)" "$tmp/err"; check $? "macro: the reason: $(grep warning "$tmp/err")"
grep -q "^int main() {" "$tmp/macro_opt.cu" && ! grep -q carve_original "$tmp/macro_opt.cu"; check $? "macro: the whole program, the kernel as written"

sed 's|^  rowsum<<<(p.rows + 127) / 128, 128>>>|  rowsum<<<p.rows < 128 ? 1 : (p.rows + 127) / 128, 128>>>|' $d/rowsum.cu >"$tmp/angle.cu"
"$carve" optimize "$tmp/angle.cu" --passes split --whole-seconds 0 -o "$tmp/angle_opt.cu" >"$tmp/out" 2>"$tmp/err"; check $? "angle: exit 0: $(tail -3 "$tmp/err")"
grep -q "line 23: a launch operand of 'rowsum' holds '<' in code carve could not read" "$tmp/err"; check $? "angle: the reason: $(grep warning "$tmp/err")"
"$nvcc" -arch=sm_90 -o "$tmp/angle.bin" "$tmp/angle_opt.cu" 2>"$tmp/nvcc.err"; check $? "angle: the output as written compiles: $(head -5 "$tmp/nvcc.err")"

echo "host-cxx: $pass passed, $fail failed"
[ $fail = 0 ]
