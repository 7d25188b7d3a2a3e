#!/bin/bash
# carve optimize over ../shared/corpus (issue 29, bench/holdout4 DIAGNOSIS §2c): each program of
# the corpus survey (tests/cudart/corpus.sh's list) with one .cu source, optimized as a user
# would (`carve optimize SRC -I Common -I . -o OUT -- ARGS`, the route chosen by carve), and
# counted: the kernels with a kept step, how many of them the output holds (their launches
# written back, wrapped in the tests of what the optimized kernel assumes) and how many it runs
# as written (the warning's reason), the launches wrapped, and whether nvcc compiles the output.
# usage: tests/host_corpus.sh CARVE            the test: a subset, each asserted
#        tests/host_corpus.sh CARVE all|NAME... the survey, one line a program (TSV), no asserts
# TIMEOUT per optimize (default 300); CORPUS=DIR another copy; WHOLE=S the whole-program check's
# limit (--whole-seconds; default 0 in the survey: not run, the count is of what is written).
# The column `launched` is what `carve check` (this carve) says of the launches: in host code it
# read (`host`), in host code it could not read (`unread`: C++), both, or none; ONLY=unread
# optimizes only the programs with launches in unread host code (the others take the same path
# before and after the tokens' rewrite), the rest listed with `-`.
carve=$(realpath "${1:-./carve}"); shift
here=$(pwd)
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "host-corpus: FAIL: $2"; fail=$((fail+1)); fi; }
corpus=$(realpath "${CORPUS:-../shared/corpus}" 2>/dev/null) || { echo "host-corpus: skipped (no corpus)"; echo "host-corpus: 0 passed, 0 failed"; exit 0; }
nvcc=${CARVE_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "host-corpus: skipped (no nvcc)"; echo "host-corpus: 0 passed, 0 failed"; exit 0; }
[ -f build/libcarve_cudart.so ] || { echo "host-corpus: skipped (build/libcarve_cudart.so not built: make cudart)"; echo "host-corpus: 0 passed, 0 failed"; exit 0; }
S=$corpus/cuda-samples/Samples; C=$corpus/cuda-samples/Common; R=$corpus/rodinia/cuda
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# the survey's list, as tests/cudart/corpus.sh writes it (NAME|dir|sources|arguments|verdict)
list=$(sed -n '/^programs=\$(cat <<LIST$/,/^LIST$/p' "$here/tests/cudart/corpus.sh" | sed '1d;$d')
list=$(eval "cat <<LIST
$list
LIST")

# survey NAME...: one TSV line a program with a single .cu source
survey() {
  printf 'program\tlaunched\toptimize\tseconds\tkept\twritten\tas_written\tlaunches\tnvcc\twhy\n'
  while IFS='|' read -r name dir srcs args _; do
    [ -n "$name" ] || continue
    if [ "$1" != all ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
    cu=$(printf '%s\n' $srcs | grep -c '\.cu$'); other=$(printf '%s\n' $srcs | grep -vc '\.cu$\|^-')
    [ "$cu" = 1 ] && [ "$other" = 0 ] || continue
    cd "$dir" || continue
    "$carve" check $srcs -I"$C" -I. >"$tmp/check" 2>/dev/null
    h=$(grep -c 'launched by the host code' "$tmp/check"); u=$(grep -c 'in host code carve.s front end could not read' "$tmp/check")
    launched=none; [ "$h" -gt 0 ] && launched=host; [ "$u" -gt 0 ] && launched=unread; [ "$h" -gt 0 ] && [ "$u" -gt 0 ] && launched=both
    if [ "${ONLY:-}" = unread ] && [ $launched != unread ] && [ $launched != both ]; then
      printf '%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\n' "$name" "$launched"; cd "$here" || exit 2; continue
    fi
    rm -f "$tmp/out.cu"
    start=$(date +%s.%N)
    timeout "${TIMEOUT:-300}" "$carve" optimize $srcs -I"$C" -I. --whole-seconds "${WHOLE:-0}" -o "$tmp/out.cu" -- $args >/dev/null 2>"$tmp/err"; rc=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    kept=$(grep -c 'applied, verified' "$tmp/err")
    written=0; launches=0; nv=-
    if [ -f "$tmp/out.cu" ]; then
      written=$(grep -c '^/\* carve: the original kernel, for launches' "$tmp/out.cu")
      launches=$(grep -o '_carve_original<<<' "$tmp/out.cu" | wc -l)
      defs=$(printf '%s\n' $srcs | grep '^-D')
      if "$nvcc" -arch=sm_90 -I"$C" -I. $defs -c -o "$tmp/out.o" "$tmp/out.cu" >/dev/null 2>&1; then nv=ok; else nv=fail; fi
    fi
    aswritten=$(grep -c 'warning: the steps kept for' "$tmp/err")
    why=$(grep -o 'warning: the steps kept for .*' "$tmp/err" | head -1 | sed 's/.*runs it as written (//; s/); the kernel alone.*//; s/)$//' | cut -c1-120)
    [ $rc = 124 ] && why="timeout (${TIMEOUT:-300} s)"
    [ $rc != 0 ] && [ -z "$why" ] && why=$(grep -E 'error' "$tmp/err" | head -1 | cut -c1-120)
    printf '%s\t%s\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$launched" "$rc" "$secs" "$kept" "$written" "$aswritten" "$launches" "$nv" "$why"
    cd "$here" || exit 2
  done <<<"$list"
}

if [ $# -gt 0 ]; then
  survey "$@"
  exit 0
fi

# the test: asyncAPI (NVIDIA's sample: its launch in C++ host code carve's front end skips, a kept
# step): optimized, the step written into the program with the launch wrapped, nvcc compiles it
# (before 2026-11-28: "1 launch of 'increment_kernel' in code carve could not read", as written)
survey asyncAPI >"$tmp/survey"
for p in asyncAPI; do
  line=$(grep "^$p	" "$tmp/survey")
  [ "$(echo "$line" | cut -f2)" = unread ]; check $? "$p: check finds its launch in unread host code: $line"
  [ "$(echo "$line" | cut -f3)" = 0 ]; check $? "$p: optimize exit 0: $line"
  [ "$(echo "$line" | cut -f6)" -ge 1 ] 2>/dev/null; check $? "$p: a kernel's kept steps written into the program: $line"
  [ "$(echo "$line" | cut -f7)" = 0 ]; check $? "$p: no kept step left out: $line"
  [ "$(echo "$line" | cut -f8)" -ge 1 ] 2>/dev/null; check $? "$p: its launches wrapped: $line"
  [ "$(echo "$line" | cut -f9)" = ok ]; check $? "$p: nvcc compiles the output: $line"
done
echo "host-corpus: $pass passed, $fail failed"
[ $fail = 0 ]
