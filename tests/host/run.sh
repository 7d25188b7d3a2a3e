#!/bin/bash
# Host programs as they are written (tests/host/*.cu): carve run executes the whole program
# (output and exit status are the program's), faults are located in the kernel and at the
# launch, analyze and estimate take the launches the program made.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "host: FAIL: $2"; fail=$((fail+1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
d=tests/host

# the corpus: each runs with no flags and no pragmas, exit 0, its own output
"$carve" run $d/vadd.cu >"$tmp/out" 2>"$tmp/err"; check $? "vadd exit 0: $(cat "$tmp/err")"
grep -qx "vadd: 5000 elements, 0 errors" "$tmp/out"; check $? "vadd output: $(cat "$tmp/out")"
grep -q "launch 1: vadd<<<(20,1,1), (256,1,1)>>> at $d/vadd.cu:42, 1 time" "$tmp/err"; check $? "vadd: the launch is listed: $(cat "$tmp/err")"
"$carve" run $d/vadd.cu -- 100000 >"$tmp/out" 2>"$tmp/err"; check $? "vadd with an argument"
grep -qx "vadd: 100000 elements, 0 errors" "$tmp/out"; check $? "vadd: argv reaches the program: $(cat "$tmp/out")"
"$carve" run $d/matmul.cu >"$tmp/out" 2>"$tmp/err"; check $? "matmul exit 0: $(cat "$tmp/err")"
grep -q "matmul 40x40: max |gpu - cpu| = .*, PASS" "$tmp/out"; check $? "matmul: GPU and CPU agree: $(cat "$tmp/out")"
grep -q "events: elapsed time measured" "$tmp/out"; check $? "matmul: events give a time"
"$carve" run $d/heat.cu >"$tmp/out" 2>"$tmp/err"; check $? "heat exit 0: $(cat "$tmp/err")"
grep -qx "step  40: total heat 2500.000" "$tmp/out"; check $? "heat: heat is conserved while it stays inside: $(cat "$tmp/out")"
grep -q "124 launches (3 distinct)" "$tmp/err"; check $? "heat: 124 launches recorded as 3 distinct: $(cat "$tmp/err")"
grep -q "launch 2: step<<<(4,6,1), (16,8,1)>>> at $d/heat.cu:52, 120 times" "$tmp/err"; check $? "heat: the time step counted 120 times"
"$carve" run $d/kernels.cu >"$tmp/out" 2>"$tmp/err"; check $? "kernels exit 0: $(cat "$tmp/err")"
grep -qx "histogram 0:429 3:429 6:429 9:429 12:428 15:856" "$tmp/out"; check $? "kernels: histogram of 3*(i%7) over 3000 (constant memory, atomics): $(cat "$tmp/out")"

"$carve" run $d/symbols.cu >"$tmp/out" 2>"$tmp/err"; check $? "symbols exit 0: $(cat "$tmp/err")"
grep -qx "2.5 10 5 8" "$tmp/out"; check $? "symbols: cudaMemcpyToSymbol/FromSymbol of scalars and arrays: $(cat "$tmp/out")"

"$carve" run $d/coef.cu >"$tmp/out" 2>"$tmp/err"; check $? "coef exit 0: $(cat "$tmp/err")"
grep -qx "stencil: out\[0\] = 155, out\[100\] = 445, sum 2075941, 0 wrong" "$tmp/out"; check $? "coef: __constant__ weights and a __device__ offset set by cudaMemcpyToSymbol: $(cat "$tmp/out")"

# the C library: the same output as the program compiled natively
if cc -x c -o "$tmp/libc" $d/libc.cu 2>/dev/null; then
  "$tmp/libc" >"$tmp/native" 2>/dev/null
  "$carve" run $d/libc.cu >"$tmp/carve" 2>"$tmp/err"; check $? "libc exit 0"
  cmp -s "$tmp/native" "$tmp/carve"; check $? "libc: output identical to the native build: $(diff "$tmp/native" "$tmp/carve")"
  grep -qx "to stderr" "$tmp/err"; check $? "libc: stderr is the program's stderr"
fi

# C99 variable-length arrays: the same output as the program compiled natively as C
if cc -x c -o "$tmp/vla" $d/vla.c 2>/dev/null; then
  "$tmp/vla" >"$tmp/native" 2>/dev/null
  "$carve" run $d/vla.c >"$tmp/carve" 2>"$tmp/err"; check $? "vla.c exit 0: $(cat "$tmp/err")"
  cmp -s "$tmp/native" "$tmp/carve"; check $? "vla.c: output identical to the native build: $(diff "$tmp/native" "$tmp/carve")"
fi
if cc -o "$tmp/vla2" $d/multi/vla_main.c $d/multi/vla_util.c -lm 2>/dev/null; then
  "$tmp/vla2" >"$tmp/native" 2>/dev/null
  "$carve" run $d/multi/vla_main.c $d/multi/vla_util.c >"$tmp/carve" 2>"$tmp/err"; check $? "vla_main.c vla_util.c exit 0: $(cat "$tmp/err")"
  cmp -s "$tmp/native" "$tmp/carve"; check $? "VLA parameters across two C files: output identical to the native build: $(diff "$tmp/native" "$tmp/carve")"
fi
"$carve" run $d/vla_cuda.cu >"$tmp/out" 2>"$tmp/err"; check $? "vla_cuda exit 0: $(cat "$tmp/err")"
grep -qx "vla_cuda 37x23: 0 errors, sum 13612.0, 148 bytes per row" "$tmp/out"; check $? "vla_cuda: VLA host matrices through a kernel: $(cat "$tmp/out")"
"$carve" run $d/vla_cuda.cu -- 5 300 >"$tmp/out" 2>/dev/null; check $? "vla_cuda 5x300 exit 0"
grep -qx "vla_cuda 5x300: 0 errors, sum 23964.0, 20 bytes per row" "$tmp/out"; check $? "vla_cuda: sizes from argv: $(cat "$tmp/out")"
"$carve" run $d/vla_loop.cu >"$tmp/out" 2>"$tmp/err"; check $? "vla_loop exit 0 (a local VLA freed at each return; buffer numbers given again): $(cat "$tmp/err")"
grep -qx "1575000" "$tmp/out"; check $? "vla_loop: $(cat "$tmp/out")"
"$carve" run $d/bad/vla_zero.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 1 ]; check $? "vla_zero: exit 1 (got $rc)"
grep -q "vla_zero.cu:5:9: error: variable-length array bound evaluates to 0, not a positive value" "$tmp/err"; check $? "vla_zero: located: $(cat "$tmp/err")"
"$carve" run $d/bad/vla_oob.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 1 ]; check $? "vla_oob: exit 1 (got $rc)"
grep -q "vla_oob.cu:5:32: error: out-of-bounds host write of 4 bytes: element 10 of 'v' (10 elements)" "$tmp/err"; check $? "vla_oob: the VLA named: $(cat "$tmp/err")"
"$carve" run $d/bad/vla_dangling.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 1 ]; check $? "vla_dangling: exit 1 (got $rc)"
grep -q "vla_dangling.cu:6:18: error: read of freed memory ('v', variable-length array at $d/bad/vla_dangling.cu:3)" "$tmp/err"; check $? "vla_dangling: freed at the return: $(cat "$tmp/err")"
"$carve" run $d/bad/vla_device.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 2 ]; check $? "vla_device: exit 2 (got $rc)"
grep -q "vla_device.cu:6:11: error: array size is not an integer constant (variable-length arrays are not CUDA)" "$tmp/err"; check $? "vla_device: $(cat "$tmp/err")"
# the interpreter's own diagnostics (--route interp: main is not read, so auto takes nvcc's route,
# where g++ accepts these as GNU C++; below, what auto does with such a program)
"$carve" run --route interp $d/bad/vla_init.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 2 ]; check $? "vla_init: exit 2 (got $rc)"
grep -q "vla_init.cu:4:12: error: a variable-length array cannot be initialized" "$tmp/err"; check $? "vla_init: $(cat "$tmp/err")"
"$carve" run --route interp $d/bad/vla_typename.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 2 ]; check $? "vla_typename: exit 2 (got $rc)"
grep -q "vla_typename.cu:6:25: error: unsupported: a side effect in the size of a variable-length array in a type name" "$tmp/err"; check $? "vla_typename: $(cat "$tmp/err")"

# exit status and arguments come through
"$carve" run $d/exitcode.cu >"$tmp/out" 2>/dev/null; check $? "exitcode: no argument, 0"
"$carve" run $d/exitcode.cu -- one >"$tmp/out" 2>/dev/null; rc=$?; [ $rc = 4 ]; check $? "exitcode: main returns 4 (got $rc)"
grep -qx "argc=2 argv\[1\]=one" "$tmp/out"; check $? "exitcode: argv: $(cat "$tmp/out")"
"$carve" run $d/exitcode.cu -- a b >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 3 ]; check $? "exitcode: exit(3) (got $rc)"
grep -qx "fatal: too many arguments" "$tmp/err"; check $? "exitcode: fprintf(stderr)"

# faults: located, status 1; the launch site named
"$carve" run $d/bad/oob.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 1 ]; check $? "oob: exit 1 (got $rc)"
grep -q "$d/bad/oob.cu:3:3: error: out-of-bounds global write of 4 bytes: element 1000 of 'd' (1000 elements) in block (3,0,0) thread (232,0,0)" "$tmp/err"; check $? "oob: located in the kernel, buffer named by the program: $(cat "$tmp/err")"
grep -q "$d/bad/oob.cu:8:3: note: in this launch of 'set' (grid (4,1,1), block (256,1,1))" "$tmp/err"; check $? "oob: the launch site"
"$carve" run $d/bad/hostptr.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 1 ]; check $? "hostptr: exit 1 (got $rc)"
grep -q "hostptr.cu:5:28: error: the kernel reads host memory ('256-byte block', malloc at $d/bad/hostptr.cu:8)" "$tmp/err"; check $? "hostptr: a kernel reading host memory: $(cat "$tmp/err")"
"$carve" run $d/bad/devderef.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 1 ]; check $? "devderef: exit 1 (got $rc)"
grep -q "devderef.cu:7:18: error: host code reads device memory ('d', cudaMalloc at $d/bad/devderef.cu:5)" "$tmp/err"; check $? "devderef: $(cat "$tmp/err")"
"$carve" run $d/bad/doublefree.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 1 ]; check $? "doublefree: exit 1 (got $rc)"
grep -q "doublefree.cu:5:3: error: free of memory already freed" "$tmp/err"; check $? "doublefree: $(cat "$tmp/err")"
"$carve" run --route interp $d/bad/unknown.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 2 ]; check $? "unknown: exit 2 (got $rc)"
grep -q "unknown.cu:6:3: error: unknown function 'cublasSscal'" "$tmp/err"; check $? "unknown: the function named: $(cat "$tmp/err")"

"$carve" run $d/bad/badstr.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 1 ]; check $? "badstr: exit 1 (got $rc)"
grep -q "badstr.cu:5:3: error: out-of-bounds host read of 1 bytes: element 4096 of 'the string \"a\"'" "$tmp/err"; check $? "badstr: printf's %s past its string: $(cat "$tmp/err")"
# the step limit stops, status 2, never a fault
"$carve" run --max-steps 100000 $d/bad/spin.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 2 ]; check $? "spin: exit 2 (got $rc)"
grep -q "^carve: stopped: step limit 100000 reached in kernel 'spin' (raise with --max-steps)" "$tmp/err"; check $? "spin: stopped: $(cat "$tmp/err")"
! grep -q "error:" "$tmp/err"; check $? "spin: not reported as an error"

# analyze and estimate on the program's own launches
"$carve" analyze $d/heat.cu >"$tmp/out" 2>"$tmp/err"; check $? "analyze heat exit 0: $(cat "$tmp/err")"
[ "$(grep -c "^carve analyze: launch [0-9] of 3 distinct" "$tmp/err")" = 3 ]; check $? "analyze heat: every kernel's first launch: $(cat "$tmp/err")"
grep -q "heat.cu: total<<<(12,1,1), (256,1,1)>>> on h100" "$tmp/out"; check $? "analyze heat: the reduction analyzed"
"$carve" analyze --launch 2 $d/heat.cu >"$tmp/out" 2>"$tmp/err"; check $? "analyze --launch 2"
grep -q "launch 2 of 3 distinct: step<<<(4,6,1), (16,8,1)>>> at $d/heat.cu:52 (made 120 times); --launch N or --kernel K picks another" "$tmp/err"; check $? "analyze --launch 2: says which and how to pick another: $(cat "$tmp/err")"
"$carve" analyze --kernel total --format json $d/heat.cu >"$tmp/out" 2>/dev/null; check $? "analyze --kernel total json"
grep -q '"kernel": "total"' "$tmp/out"; check $? "analyze --kernel total: that kernel"
"$carve" analyze --format json $d/heat.cu >"$tmp/all.json" 2>/dev/null; check $? "analyze json, three launches"
if command -v python3 >/dev/null; then
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert [x['kernel'] for x in d] == ['init_grid','step','total']" "$tmp/all.json"; check $? "analyze json: an array of the three reports"
fi
"$carve" analyze --launch 9 $d/heat.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 2 ]; check $? "analyze --launch 9: exit 2"
grep -q "the program made 3 distinct launches" "$tmp/err"; check $? "analyze --launch 9: says how many"
"$carve" estimate $d/matmul.cu >"$tmp/out" 2>"$tmp/err"; check $? "estimate matmul exit 0: $(cat "$tmp/err")"
grep -q "launch: 9 blocks of 256 threads" "$tmp/out"; check $? "estimate matmul: the program's launch: $(grep launch: "$tmp/out")"
"$carve" estimate --block 128 --kernel saxpy $d/kernels.cu >"$tmp/out" 2>/dev/null; check $? "estimate with a flag over the recorded launch"
grep -q "launch: 12 blocks of 128 threads" "$tmp/out"; check $? "estimate: --block overrides the recorded block: $(grep launch: "$tmp/out")"
# bench and optimize take a recorded launch as flags: its buffers as files
"$carve" bench --launch 2 --emit "$tmp/emit" $d/heat.cu >"$tmp/out" 2>"$tmp/err"; check $? "bench --emit on a recorded launch: $(cat "$tmp/err")"
[ -f "$tmp/emit/launch-2/harness.cu" ] && [ "$(stat -c %s "$tmp/emit/launch-2/u.bin")" = 12288 ]; check $? "bench --emit: the harness and the step's buffer (64x48 floats) beside it"
grep -q "read_file(\"$tmp/emit/launch-2/u.bin\"" "$tmp/emit/launch-2/harness.cu"; check $? "bench --emit: the harness reads the recorded bytes"
"$carve" bench --emit "$tmp/ce" $d/coef.cu >/dev/null 2>"$tmp/err"; check $? "bench --emit coef: $(cat "$tmp/err")"
grep -q "CARVE_H_CK(cudaMemcpyToSymbol(::weights, carve_h_sym_0, 18ull, 2ull));" "$tmp/ce/launch-1/harness.cu"; check $? "the harness copies the __constant__ weights the program set"
grep -q "CARVE_H_CK(cudaMemcpyToSymbol(::offset, carve_h_sym_1, 1ull, 0ull));" "$tmp/ce/launch-1/harness.cu"; check $? "and the __device__ offset"
"$carve" optimize --kernel step -o "$tmp/opt.cu" $d/heat.cu >/dev/null 2>"$tmp/err"; check $? "optimize a recorded launch: $(tail -3 "$tmp/err")"
grep -q "__global__ void step" "$tmp/opt.cu"; check $? "optimize: the kernels written"
! ls /tmp/carve-launch-* >/dev/null 2>&1 || [ -z "$(find /tmp -maxdepth 1 -name 'carve-launch-*' -newer "$tmp/opt.cu")" ]; check $? "optimize: its temporary buffers removed"

# a launch specification still overrides the program
cp $d/vadd.cu "$tmp/spec.cu"
printf '#pragma carve launch vadd grid(4) block(64)\n#pragma carve arg a = float[256] : iota\n#pragma carve arg b = float[256] : iota\n#pragma carve arg c = float[256] : zeros out\n#pragma carve arg n = 256\n' >> "$tmp/spec.cu"
"$carve" analyze "$tmp/spec.cu" >"$tmp/out" 2>"$tmp/err"; check $? "analyze with a spec"
grep -q "vadd<<<(4,1,1), (64,1,1)>>>" "$tmp/out"; check $? "the spec, not the recording: $(head -2 "$tmp/out")"
"$carve" run --kernel vadd "$tmp/spec.cu" >"$tmp/out" 2>&1; check $? "run --kernel: the spec's single launch"
grep -q "vadd<<<(4,1,1), (64,1,1)>>> ok" "$tmp/out"; check $? "run --kernel: $(cat "$tmp/out")"
# --host: another entry than main
printf '#include <stdio.h>\n__global__ void k(int *x) { x[threadIdx.x] = threadIdx.x; }\nint demo(void) {\n  int *d; cudaMalloc(&d, 32 * sizeof(int));\n  k<<<1, 32>>>(d);\n  int h[32]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n  printf("%%d\\n", h[31]);\n  return 5;\n}\n' > "$tmp/demo.cu"
"$carve" run --host demo "$tmp/demo.cu" >"$tmp/out" 2>/dev/null; rc=$?; [ $rc = 5 ] && grep -qx 31 "$tmp/out"; check $? "--host demo: runs it, its return value the status (got $rc: $(cat "$tmp/out"))"
"$carve" run "$tmp/demo.cu" >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 2 ]; check $? "no main, no spec: exit 2"
grep -q "carve run: kernel 'k' has no launch specification; the host function 'demo' launches it at line 5: carve run --host demo $tmp/demo.cu" "$tmp/err"; check $? "no main: says how to run the host function: $(cat "$tmp/err")"
"$carve" run --host nope "$tmp/demo.cu" >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 2 ] && grep -q "has no host function 'nope'" "$tmp/err"; check $? "--host nope: exit 2, said"

# several source files of one program
"$carve" run $d/multi/main.cu $d/multi/scale.cu >"$tmp/out" 2>"$tmp/err"; check $? "two files: exit 0: $(cat "$tmp/err")"
grep -qx "sum 3000.0" "$tmp/out"; check $? "two files: main in one, the kernel and its launcher in the other: $(cat "$tmp/out")"
"$carve" run $d/multi/main.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 1 ]; check $? "one of the two files: exit 1 (got $rc)"
grep -q "error: call to 'launch_scale', which is declared but never defined" "$tmp/err"; check $? "one of the two files: the missing function named: $(cat "$tmp/err")"
# several kernels with launch specifications: the command says which it took
printf '#pragma carve launch a grid(1) block(32)\n#pragma carve arg x = float[32] : zeros out\n__global__ void a(float *x) { x[threadIdx.x] = 1; }\n#pragma carve launch b grid(1) block(32)\n#pragma carve arg x = float[32] : zeros out\n__global__ void b(float *x) { x[threadIdx.x] = 2; }\n' > "$tmp/two.cu"
"$carve" run "$tmp/two.cu" >/dev/null 2>"$tmp/err"; check $? "two kernels: run exit 0"
grep -q "carve run: $tmp/two.cu has 2 kernels; this is 'a', the first with a launch specification (--kernel NAME picks another: b)" "$tmp/err"; check $? "two kernels: run says which: $(cat "$tmp/err")"
"$carve" analyze "$tmp/two.cu" >/dev/null 2>"$tmp/err"; check $? "two kernels: analyze exit 0"
grep -q "has 2 kernels; this is 'a'" "$tmp/err"; check $? "two kernels: analyze says which"

# a program in a benchmark suite's style: struct timezone, the legacy cudaThread* calls
"$carve" run $d/legacy.cu >"$tmp/out" 2>"$tmp/err"; check $? "legacy exit 0: $(cat "$tmp/err")"
grep -qx "legacy: grid (3,10), stack limit 4096, time ok, 0 mismatches" "$tmp/out"; check $? "legacy: cudaThreadSetLimit/GetLimit, timezone, ceil grids: $(cat "$tmp/out")"

# launches at real size: the native engine above 65536 threads, sampled blocks checked in the interpreter
"$carve" run $d/gemm_big.cu >"$tmp/out" 2>"$tmp/err"; check $? "gemm_big exit 0: $(cat "$tmp/err")"
grep -qx "gemm 512x512x512: 0 of 63 sampled elements differ, checksum 69.617" "$tmp/out"; check $? "gemm_big: its own check: $(cat "$tmp/out")"
grep -q "engines: 1 launch on the native engine (.* s; 4 blocks checked in the interpreter, bit-identical), 0 in the interpreter" "$tmp/err"; check $? "gemm_big: the engine said: $(cat "$tmp/err")"
"$carve" run --format json $d/gemm_big.cu 2>/dev/null | grep -q '"native_launches": 1, "native_seconds": [0-9.]*, "blocks_checked": 4}'; check $? "gemm_big: the engines in JSON"
# whole programs on both engines: the same output (every launch native with --engine native)
for f in legacy heat kernels coef; do
  "$carve" run --engine interp $d/$f.cu >"$tmp/i.out" 2>/dev/null; a=$?
  "$carve" run --engine native $d/$f.cu >"$tmp/n.out" 2>"$tmp/err"; b=$?
  [ $a = $b ] && cmp -s "$tmp/i.out" "$tmp/n.out"; check $? "$f: --engine native gives the interpreter's output and status: $(diff "$tmp/i.out" "$tmp/n.out" | head -3) $(head -3 "$tmp/err")"
done
"$carve" run --engine native $d/heat.cu >/dev/null 2>"$tmp/err"; grep -q "engines: [0-9]* launches on the native engine" "$tmp/err"; check $? "heat --engine native: the launches ran natively: $(grep engines "$tmp/err")"

# the time limit of the commands that want only the launches: stopped after a launch, the
# launches recorded so far are used, said on stderr and in JSON
"$carve" analyze --max-seconds 1 $d/forever.cu >/dev/null 2>"$tmp/err"; check $? "forever: analyze goes on with the launch recorded: $(tail -2 "$tmp/err")"
grep -q "carve analyze: the host program was stopped after 1 s in host code (--max-seconds); 1 launch recorded (1 distinct); launches after that point are not seen" "$tmp/err"; check $? "forever: the stop said: $(cat "$tmp/err")"
"$carve" estimate --max-seconds 1 --format json $d/forever.cu >"$tmp/out" 2>/dev/null; check $? "forever: estimate --format json exit 0"
grep -q '^{"host_program": {"stopped": true, "after_seconds": 1, "launches": 1, "distinct": 1, "route": "interp"}, "file": ' "$tmp/out"; check $? "forever: the stop in JSON: $(head -c 200 "$tmp/out")"
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["host_program"]["stopped"] and d["kernel"] == "k"' "$tmp/out"; check $? "forever: the JSON parses"
fi
# no launch within the limit: the interpreted route gives up, and the nvcc route (host code native) is tried
nvcc=${CARVE_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$nvcc" ] && [ -f build/libcarve_cudart.so ]; then
  "$carve" analyze --max-seconds 2 $d/late_launch.cu >"$tmp/out" 2>"$tmp/err"; check $? "late_launch: analyze exit 0 on the nvcc route: $(tail -3 "$tmp/err")"
  grep -q "carve analyze: the host program made no launch in 2 s of interpreted host code (--max-seconds); running it again built by nvcc" "$tmp/err"; check $? "late_launch: the retry said: $(cat "$tmp/err")"
  grep -q "scale<<<(16,1,1), (256,1,1)>>>" "$tmp/out"; check $? "late_launch: the launch analyzed: $(head -3 "$tmp/out")"
  "$carve" analyze --route interp --max-seconds 2 $d/late_launch.cu >/dev/null 2>"$tmp/err"; rc=$?; [ $rc = 2 ]; check $? "late_launch --route interp: exit 2 (got $rc)"
  grep -q "carve analyze: the host program made no launch in 2 s (--max-seconds, host code interpreted): nothing to analyze" "$tmp/err"; check $? "late_launch --route interp: said: $(cat "$tmp/err")"
  # carve run, route auto: past its interpreted time (60 s; here 2) the program runs again built by nvcc, its output once
  CARVE_RUN_INTERP_SECONDS=2 "$carve" run $d/late_launch.cu >"$tmp/out" 2>"$tmp/err"; check $? "late_launch: carve run goes to the nvcc route: $(tail -3 "$tmp/err")"
  [ "$(cat "$tmp/out")" = "late_launch: sum 103173.5, PASS" ]; check $? "late_launch: the program's output, once: $(cat "$tmp/out")"
  grep -q "carve run: $d/late_launch.cu: the host code ran 2 s in carve's interpreter (launches not counted); running the program again built by nvcc" "$tmp/err"; check $? "late_launch: the switch said: $(cat "$tmp/err")"
  grep -q "host code built by nvcc" "$tmp/err"; check $? "late_launch: the route named"
  "$carve" run $d/late_launch.cu --route interp --max-steps 1000 >"$tmp/out" 2>"$tmp/err"; rc=$?; [ $rc = 2 ] && [ ! -s "$tmp/out" ]; check $? "late_launch --route interp: the interpreter's step limit, no switch (got $rc)"
else
  echo "host: skipped (no nvcc or build/libcarve_cudart.so): the nvcc retry of a program stopped before its first launch"
fi

"$carve" check $d/heat.cu >"$tmp/out" 2>&1; check $? "check a host program"
grep -q "launched by the host code at line 52" "$tmp/out"; check $? "check: where the host launches a kernel: $(cat "$tmp/out")"
# device code unchanged by the host code beside it
"$carve" print $d/heat.cu >"$tmp/p.cu" 2>&1; check $? "print a host program"
! grep -q "main\|cudaMalloc" "$tmp/p.cu"; check $? "print: device code only"

echo "host: $pass passed, $fail failed"
[ $fail = 0 ]
