#!/bin/bash
# The nvcc route (src/rt, docs/host-programs.md): programs whose host code is C++ built by nvcc
# against carve's CUDA runtime library; every launch runs in the interpreter, faults located,
# misuses of the runtime reported, the launches recorded for analyze and estimate; then a subset
# of ../shared/corpus to its own verdict.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "cudart: FAIL: $2"; fail=$((fail+1)); fi; }
nvcc=${CARVE_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then echo "cudart: skipped (no nvcc)"; echo "cudart: 0 passed, 0 failed"; exit 0; fi
if [ ! -f build/libcarve_cudart.so ]; then echo "cudart: FAIL: build/libcarve_cudart.so is not built (make cudart)"; echo "cudart: 0 passed, 1 failed"; exit 1; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
d=tests/cudart

# the library exports the CUDA runtime's names and nothing of carve's
others=$(nm -D --defined-only build/libcarve_cudart.so | awk '{print $3}' | grep -v '^_\?_\?cuda' | tr '\n' ' ')
[ -z "$others" ]; check $? "the runtime library exports only cuda* names: $others"
for s in __cudaRegisterFatBinary __cudaRegisterFunction __cudaRegisterVar __cudaPushCallConfiguration __cudaPopCallConfiguration \
         __cudaGetKernel __cudaLaunchKernel cudaLaunchKernel cudaMalloc cudaMemcpyToSymbol cudaEventElapsedTime cudaGetDeviceProperties; do
  nm -D --defined-only build/libcarve_cudart.so | grep -qw "$s"; check $? "the runtime library defines $s"
done

# C++ host code: std::vector, new[], a class, iostream; argv reaches the program
"$carve" run $d/vector_new.cu >"$tmp/out" 2>"$tmp/err"; check $? "vector_new exit 0: $(cat "$tmp/err")"
grep -qx "saxpy 1000: PASS" "$tmp/out"; check $? "vector_new output: $(cat "$tmp/out")"
grep -q "host code built by nvcc" "$tmp/err"; check $? "vector_new: the route is named: $(cat "$tmp/err")"
grep -q "launch 1: saxpy<<<(8,1,1), (128,1,1)>>>" "$tmp/err"; check $? "vector_new: the launch is listed: $(cat "$tmp/err")"
grep -qx "========= ERROR SUMMARY: 0 errors" "$tmp/err"; check $? "vector_new: the error summary: $(cat "$tmp/err")"
"$carve" run $d/vector_new.cu -- 5000 >"$tmp/out" 2>"$tmp/err"; check $? "vector_new with an argument"
grep -qx "saxpy 5000: PASS" "$tmp/out"; check $? "vector_new: argv: $(cat "$tmp/out")"
"$carve" run --route interp $d/vector_new.cu >"$tmp/out" 2>"$tmp/err"; [ $? = 2 ]; check $? "--route interp on C++ host code: carve says it cannot read it (exit 2)"

# two files: the host half a .cpp, the kernel and its launcher in a .cu
"$carve" run $d/two_main.cpp $d/two_kernels.cu >"$tmp/out" 2>"$tmp/err"; check $? "two files exit 0: $(cat "$tmp/err")"
grep -qx "two files: h\[776\] = 2328, PASS" "$tmp/out"; check $? "two files output: $(cat "$tmp/out")"
grep -q "launch 1: scale<<<(13,1,1), (64,1,1)>>> at .*two_kernels.cu:2, 1 time" "$tmp/err"; check $? "two files: the kernel of the .cu: $(cat "$tmp/err")"

# __constant__ and __device__ variables through cudaMemcpyToSymbol / FromSymbol, atomics on one
"$carve" run $d/symbol.cu >"$tmp/out" 2>"$tmp/err"; check $? "symbol exit 0: $(cat "$tmp/err")"
grep -qx "symbol: out\[10\] = 62, hits = 298, PASS" "$tmp/out"; check $? "symbol output: $(cat "$tmp/out")"

# an out-of-bounds write: located in the kernel, the launch named, the context then failed
"$carve" run $d/oob.cu >"$tmp/out" 2>"$tmp/err"; [ $? = 1 ]; check $? "oob: exit 1 (a fault)"
grep -q "oob.cu:6:15: error: out-of-bounds global write of 4 bytes: element 1000 of 'a = cudaMalloc #1 (4000 bytes)' (1000 elements) in block (3,0,0) thread (232,0,0)" "$tmp/err"
check $? "oob: the fault with its source location, element and thread: $(cat "$tmp/err")"
grep -q "oob.cu:4:17: note: in launch 1 of 'fill' (grid (4,1,1), block (256,1,1))" "$tmp/err"; check $? "oob: the launch named"
grep -qx "after the launch: cudaErrorIllegalAddress" "$tmp/out"; check $? "oob: the program sees cudaErrorIllegalAddress: $(cat "$tmp/out")"
grep -qx "========= ERROR SUMMARY: 1 error" "$tmp/err"; check $? "oob: the error summary counts it"
grep -q "exit status 3 after a fault" "$tmp/err"; check $? "oob: the program's own status is said"

# misuses the real runtime answers with an error: said, counted, the error code returned
"$carve" run --route nvcc $d/misuse.cu >"$tmp/out" 2>"$tmp/err"; check $? "misuse: the program's status (0)"
grep -qx "cudaErrorInvalidValue cudaSuccess cudaErrorInvalidValue h\[31\] = 1" "$tmp/out"; check $? "misuse: error codes: $(cat "$tmp/out")"
grep -q "carve: error: cudaMemcpy (cudaMemcpyHostToDevice) of 256 bytes: the destination is 256 bytes at offset 0 of cudaMalloc #1 (128 bytes): past its end by 128 bytes (called from main)" "$tmp/err"
check $? "misuse: the copy past the allocation, with its caller: $(cat "$tmp/err")"
grep -q "cudaFree of memory already freed" "$tmp/err"; check $? "misuse: the double free"
grep -qx "========= ERROR SUMMARY: 2 errors" "$tmp/err"; check $? "misuse: the error summary"

# auto: a program carve reads whole keeps the interpreted route; --route nvcc gives the same output
"$carve" run tests/host/vadd.cu >"$tmp/out1" 2>"$tmp/err"; check $? "vadd interpreted"
grep -q "host code interpreted by carve" "$tmp/err"; check $? "vadd: auto keeps the interpreted route: $(cat "$tmp/err")"
"$carve" run --route nvcc tests/host/vadd.cu >"$tmp/out2" 2>"$tmp/err"; check $? "vadd on the nvcc route: $(cat "$tmp/err")"
cmp -s "$tmp/out1" "$tmp/out2"; check $? "vadd: both routes print the same: $(diff "$tmp/out1" "$tmp/out2")"

# the legacy runtime calls CUDA 13 removed (cudaThreadSynchronize, ...): declared by carve's compat header
"$carve" run --route nvcc tests/host/legacy.cu >"$tmp/out" 2>"$tmp/err"; check $? "legacy on the nvcc route: $(cat "$tmp/err")"
grep -qx "legacy: grid (3,10), stack limit 4096, time ok, 0 mismatches" "$tmp/out"; check $? "legacy on the nvcc route: $(cat "$tmp/out")"

# launches at real size on the native engine; the time limit outside launches (the runtime's watchdog)
"$carve" run --route nvcc tests/host/gemm_big.cu >"$tmp/out" 2>"$tmp/err"; check $? "gemm_big on the nvcc route: $(cat "$tmp/err")"
grep -qx "gemm 512x512x512: 0 of 63 sampled elements differ, checksum 69.617" "$tmp/out"; check $? "gemm_big on the nvcc route: its check: $(cat "$tmp/out")"
grep -q "engines: 1 launch on the native engine" "$tmp/err"; check $? "gemm_big on the nvcc route: native: $(grep engines "$tmp/err")"
"$carve" analyze --route nvcc --max-seconds 2 tests/host/forever.cu >/dev/null 2>"$tmp/err"; check $? "forever on the nvcc route: analyze goes on: $(tail -3 "$tmp/err")"
grep -q "carve analyze: the host program was stopped after 2 s in host code (--max-seconds); 1 launch recorded (1 distinct)" "$tmp/err"; check $? "forever on the nvcc route: the stop said: $(cat "$tmp/err")"
# optimize on the nvcc route: the recorded launch's buffers are the runtime's files; the output runs
"$carve" optimize --route nvcc tests/host/legacy.cu -o "$tmp/legacy_opt.cu" >/dev/null 2>"$tmp/err"; check $? "optimize --route nvcc: $(tail -3 "$tmp/err")"
mkdir -p "$tmp/common" && cp tests/host/common/benchutil.h "$tmp/common/"
"$carve" run --route nvcc "$tmp/legacy_opt.cu" >"$tmp/out" 2>"$tmp/err"; check $? "the optimized program runs on the nvcc route: $(tail -3 "$tmp/err")"
grep -qx "legacy: grid (3,10), stack limit 4096, time ok, 0 mismatches" "$tmp/out"; check $? "the optimized program passes its own check: $(cat "$tmp/out")"

# space (and tune) on the nvcc route: the recorded launch from the runtime's files
"$carve" space --route nvcc --no-metrics tests/host/legacy.cu >"$tmp/out" 2>"$tmp/err"; check $? "space --route nvcc: $(tail -3 "$tmp/err")"
grep -q "the program's launch 1 of 1 distinct: scale_kernel<<<(3,10,1), (32,8,1)>>>" "$tmp/out"; check $? "space --route nvcc: the launch: $(grep distinct "$tmp/out")"
"$carve" space --max-seconds 2 --no-metrics tests/host/late_launch.cu >/dev/null 2>"$tmp/err"; check $? "space: no launch in 2 s interpreted, run again on the nvcc route: $(tail -3 "$tmp/err")"
grep -q "running it again built by nvcc" "$tmp/err"; check $? "space: the retry said: $(cat "$tmp/err")"

# analyze and estimate take the launches the nvcc-built program made, with its buffers
"$carve" analyze --route nvcc $d/vector_new.cu >"$tmp/out" 2>"$tmp/err"; check $? "analyze on the nvcc route: $(cat "$tmp/err")"
grep -q "launch 1 of 1 distinct: saxpy<<<(8,1,1), (128,1,1)>>>" "$tmp/err"; check $? "analyze: the recorded launch: $(cat "$tmp/err")"
grep -q "global  load   x .*unit stride" "$tmp/out"; check $? "analyze: x's loads are unit stride: $(cat "$tmp/out")"
"$carve" estimate --route nvcc --format json $d/vector_new.cu >"$tmp/out" 2>"$tmp/err"; check $? "estimate on the nvcc route: $(cat "$tmp/err")"
grep -q '"kernel": "saxpy"' "$tmp/out"; check $? "estimate: the kernel: $(head -c 300 "$tmp/out")"
"$carve" analyze $d/two_main.cpp $d/two_kernels.cu >"$tmp/out" 2>"$tmp/err"; check $? "analyze of a two-file program: $(cat "$tmp/err")"
grep -q ": scale<<<(13,1,1), (64,1,1)>>> on h100" "$tmp/out"; check $? "analyze: the .cu's kernel as the .cpp launched it: $(head -3 "$tmp/out")"
"$carve" estimate $d/two_main.cpp $d/two_kernels.cu >"$tmp/out" 2>"$tmp/err"; check $? "estimate of a two-file program: $(cat "$tmp/err")"
# SIGTERM while the program runs: passed on to it; carve removes its directory and reports
"$carve" run --route nvcc $d/sleeper.cu >"$tmp/out" 2>"$tmp/err" & cpid=$!
for i in $(seq 1 120); do grep -q ready "$tmp/out" && break; sleep 0.5; done
kill -TERM $cpid; wait $cpid
grep -q "killed by signal 15" "$tmp/err"; check $? "SIGTERM: the program was stopped and carve said so: $(cat "$tmp/err")"
ls -d /tmp/carve-run-* 2>/dev/null | while read -r t; do [ "$t" -nt "$tmp" ] && echo "$t"; done >"$tmp/left"
[ ! -s "$tmp/left" ]; check $? "no temporary directory left behind: $(cat "$tmp/left")"

# the corpus: a subset of the survey (tests/cudart/corpus.sh), each to its own verdict
if [ -d ../shared/corpus ]; then
  subset="vectorAdd matrixMul template simpleZeroCopy backprop"   # helper headers, a template kernel, two files, mapped memory, Rodinia
  bash $d/corpus.sh "$carve" $subset >"$tmp/corpus" 2>&1
  for p in $subset; do
    line=$(grep "^$p	" "$tmp/corpus")
    [ "$(echo "$line" | cut -f2,3,4)" = "0	0	0" ]; check $? "corpus $p runs to its own verdict: $line"
    echo "$line" | cut -f6 | grep -qv "^no verdict\|^timeout\|^wrong"; check $? "corpus $p: its verdict line: $line"
  done
else
  echo "cudart: corpus skipped (no corpus)"
fi
echo "cudart: $pass passed, $fail failed"
[ $fail = 0 ]
