#!/bin/bash
# The C++ that real kernel files use (docs/cxx.md), includes as nvcc searches them, nvcc's own
# flags. Every corpus file runs under `carve run` with its launch pragmas (flags on a
# `// cxx-flags:` line), its print loads again, and nvcc compiles the print where nvcc exists.
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "cxx: FAIL: $2"; fail=$((fail+1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
d=tests/cxx
have_nvcc=0; command -v nvcc >/dev/null 2>&1 && have_nvcc=1
# an ASan build's note about swapcontext is not carve's output
quiet() { sed -i '/^==[0-9]*==WARNING: ASan doesn.t fully support makecontext/d' "$tmp/e"; }

for f in $d/*.cu; do
  flags=$(sed -n 's|^// cxx-flags: ||p' "$f")
  "$carve" run "$f" $flags >"$tmp/o" 2>"$tmp/e"; rc=$?
  [ $rc = 0 ] && grep -q ' ok$' "$tmp/o"
  check $? "carve run $f $flags: exit $rc: $(head -c 600 "$tmp/e")"
  "$carve" print "$f" $flags -o "$tmp/p.cu" 2>"$tmp/e" && "$carve" check "$tmp/p.cu" $flags >/dev/null 2>"$tmp/e2"
  check $? "print of $f loads again: $(head -c 600 "$tmp/e" "$tmp/e2")"
  if [ $have_nvcc = 1 ]; then
    nvcc -std=c++17 -arch=sm_90 $(echo "$flags" | grep -o -- '-I *[^ ]*') -c "$tmp/p.cu" -o "$tmp/p.o" 2>"$tmp/n"
    check $? "nvcc compiles the print of $f: $(grep -v pragma "$tmp/n" | head -5)"
  fi
done

# <...> is searched in -I as nvcc does; a header neither found nor known is named in a warning
"$carve" run $d/include_angle.cu >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc != 0 ] && grep -q "include_angle.cu:6:10: warning: 'saxpy_util.h' not found in the -I directories" "$tmp/e" \
  && ! grep -q "cstdio\|cuda_runtime" "$tmp/e"
check $? "without -I: a warning names saxpy_util.h only (exit $rc): $(cat "$tmp/e")"
"$carve" run $d/include_angle.cu -I $d/inc --out y="$tmp/y" >"$tmp/o" 2>"$tmp/e"; quiet
[ "$(od -An -f -j 4 -N 8 "$tmp/y" | tr -s ' ')" = " 3 5" ] && [ ! -s "$tmp/e" ]
check $? "with -I: y = 2*x + 1 from the header's axpy1 ($(od -An -f -N 12 "$tmp/y"); $(cat "$tmp/e"))"

# nvcc's flags: -arch is --arch where the command has one; the rest named in one note
"$carve" analyze examples/vv.cu -D H=64 -D W=64 -arch=sm_90 -O3 -lineinfo -std=c++17 -Xcompiler -Wall -Xptxas=-v >"$tmp/o" 2>"$tmp/e"; rc=$?; quiet
[ $rc = 0 ] && [ "$(cat "$tmp/e")" = "carve analyze: note: nvcc flags that change nothing carve computes are ignored: -O3 -lineinfo -std=c++17 -Xcompiler -Wall -Xptxas=-v" ] \
  && grep -q "on h100:" "$tmp/o"
check $? "analyze with nvcc's flags: exit $rc, one note: $(cat "$tmp/e")"
for c in check print run; do
  "$carve" $c examples/vv.cu -D H=64 -D W=64 --gpu-architecture=sm_90 -O2 >"$tmp/o" 2>"$tmp/e"; rc=$?; quiet
  want="ignored: --gpu-architecture=sm_90 -O2"; [ $c = run ] && want="ignored: -O2"   # run takes --arch (the machine a host program asks about)
  [ $rc = 0 ] && [ "$(wc -l <"$tmp/e")" = 1 ] && grep -q -- "$want" "$tmp/e"
  check $? "$c accepts nvcc's flags with one note (exit $rc): $(cat "$tmp/e")"
done
"$carve" run examples/vv.cu -Xcompiler >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "carve run: error: -Xcompiler needs a value" "$tmp/e"
check $? "-Xcompiler without a value is a usage error (exit $rc): $(cat "$tmp/e")"

# --arch: machine names and nvcc's names, one meaning everywhere
"$carve" analyze examples/vv.cu -D H=64 -D W=64 --arch sm_90 >"$tmp/o" 2>&1 && grep -q "on h100:" "$tmp/o"
check $? "analyze --arch sm_90 models the h100: $(head -2 "$tmp/o")"
"$carve" analyze examples/vv.cu -D H=64 -D W=64 --arch=sm_13 >"$tmp/o" 2>&1 && grep -q "on gt200:" "$tmp/o"
check $? "analyze --arch sm_13 models the gt200: $(head -2 "$tmp/o")"
"$carve" estimate examples/vv.cu -D H=64 -D W=64 --arch sm_80 >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc = 0 ] && grep -q "warning: no machine description for sm_80.*modeled as the h100" "$tmp/e"
check $? "estimate --arch sm_80: no description, modeled as the h100 with a warning ($rc: $(cat "$tmp/e"))"
"$carve" analyze examples/vv.cu --arch volta >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "unknown --arch 'volta'" "$tmp/e"
check $? "--arch volta: usage error ($rc: $(cat "$tmp/e"))"
"$carve" bench examples/vv.cu -D H=64 -D W=64 --arch h200 --emit "$tmp/emit" >"$tmp/o" 2>"$tmp/e"
grep -rq -- "-arch=sm_90" "$tmp/emit" 2>/dev/null
check $? "bench --arch h200 gives nvcc -arch=sm_90: $(ls "$tmp/emit" 2>&1; head -3 "$tmp/e")"

# --use_fast_math: expf and sinf are __expf and __sinf
"$carve" run $d/fast_math.cu --use_fast_math --out a="$tmp/fm" >/dev/null 2>"$tmp/e" \
  && "$carve" run $d/fast_math_intrinsics.cu --out a="$tmp/fi" >/dev/null 2>&1 && cmp -s "$tmp/fm" "$tmp/fi" \
  && "$carve" run $d/fast_math.cu --out a="$tmp/pr" >/dev/null 2>&1 && ! cmp -s "$tmp/fm" "$tmp/pr"
check $? "--use_fast_math: the results of __expf and __sinf ($(cat "$tmp/e"))"

# templates: the launch pragma's instance is the kernel; --kernel makes another after the load
"$carve" check $d/cg_reduce.cu >"$tmp/o" 2>"$tmp/e"
grep -q "__global__ void reduce_cg<256, float>(const float \*in, float \*out, int n)" "$tmp/o" && [ ! -s "$tmp/e" ]
check $? "check lists the instance reduce_cg<256, float>: $(cat "$tmp/o" "$tmp/e")"
"$carve" run $d/template_reduce.cu --kernel 'block_sum<64,double>' --grid 4 --block 64 --arg 'in = double[256] : iota' \
  --arg 'out = double[4] : zeros out' --arg n=256 --out out="$tmp/b" >"$tmp/o" 2>"$tmp/e"
[ "$(od -An -t f8 "$tmp/b" | tr -s ' \n' ' ')" = " 2016 6112 10208 14304 " ]
check $? "--kernel 'block_sum<64,double>' makes the instance: sums of 64 consecutive integers ($(cat "$tmp/o" "$tmp/e"))"
"$carve" run $d/template_reduce.cu --kernel 'block_sum<64, nosuch>' --grid 1 --block 64 >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "<command line>:1:15: error: expected a type before 'nosuch'" "$tmp/e"
check $? "--kernel with a bad template argument: located error, exit 2 ($rc: $(cat "$tmp/e"))"

# __half launch values: the GPU harness's host code (cuda_fp16.h's __double2half) fills the bytes
# the interpreter fills (src/interp/half.c's half_from_double), and passes the same scalars
"$carve" run $d/half_launch.cu --out x="$tmp/x" --out y="$tmp/y" --out z="$tmp/z" --out w="$tmp/w" >"$tmp/o" 2>"$tmp/e"
[ "$(od -An -t x2 -N 2 "$tmp/w" | tr -d ' ')" = 34cd ] && [ "$(od -An -t x4 -N 4 "$tmp/y" | tr -d ' ')" = becdbecd ]
check $? "half_launch.cu: a = 0.3 is 0x34cd, a2 = -1.7 is 0xbecd twice ($(od -An -t x2 -N 4 "$tmp/w" "$tmp/y"); $(cat "$tmp/e"))"
if [ $have_nvcc = 1 ]; then
  "$carve" bench $d/half_launch.cu --emit "$tmp/hl" >/dev/null 2>"$tmp/e" && nvcc -arch=sm_90 -o "$tmp/hl/h" "$tmp/hl/harness.cu" 2>>"$tmp/e" \
    && mkdir -p "$tmp/hl/in" && "$tmp/hl/h" --dump-inputs "$tmp/hl/in" 2>>"$tmp/e" \
    && cmp "$tmp/hl/in/x.bin" "$tmp/x" && cmp "$tmp/hl/in/z.bin" "$tmp/z" && cmp -i 4 "$tmp/hl/in/y.bin" "$tmp/y" && cmp -i 2 "$tmp/hl/in/w.bin" "$tmp/w"
  check $? "the harness fills __half buffers with the interpreter's bytes: $(grep -i error "$tmp/e" | head -3)"
fi

# the generated harness's own names (carve_h_*) cannot collide with a kernel file's
if [ $have_nvcc = 1 ]; then
  for f in harness_names namespaced; do
    rm -rf "$tmp/hn"; "$carve" bench $d/$f.cu --emit "$tmp/hn" >/dev/null 2>"$tmp/e" && nvcc -arch=sm_90 -c "$tmp/hn/harness.cu" -o "$tmp/hn/h.o" 2>"$tmp/n"
    check $? "nvcc compiles the harness of $f.cu: $(cat "$tmp/e"; grep error "$tmp/n" | head -3)"
  done
fi

# ptxas through NVRTC, where it exists: the CUDA include directory for cuda_fp16.h and
# cooperative_groups.h, lowered names for template instances and namespaced kernels
if "$carve" estimate examples/vv.cu -D H=64 -D W=64 2>/dev/null | grep -q "ptxas via NVRTC"; then
  for f in half_axpy cg_reduce template_reduce namespaced harness_names; do
    "$carve" estimate $d/$f.cu >"$tmp/o" 2>&1
    grep -q "resources: [0-9]* registers per thread.*SASS instructions (ptxas via NVRTC)" "$tmp/o"
    check $? "NVRTC's ptxas report for $f.cu: $(grep 'resources:' "$tmp/o")"
  done
fi

echo "cxx: $pass passed, $fail failed"
[ $fail -eq 0 ]
