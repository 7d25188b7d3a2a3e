#!/bin/sh
# Run every test program and script; print each suite's line and the total.
# usage: tests/run_all.sh BUILD_DIR CARVE_BINARY
dir=$1; carve=$2
pass=0; fail=0; status=0
run() {
  out=$("$@" 2>&1); rc=$?
  line=$(printf '%s\n' "$out" | grep -E '^[a-z_-]+: [0-9]+ passed, [0-9]+ failed' | tail -1)
  if [ -z "$line" ]; then
    printf '%s\n' "$out" | tail -20
    echo "$1: no summary line (exit $rc)"; fail=$((fail+1)); status=1; return
  fi
  [ $rc -ne 0 ] && { printf '%s\n' "$out" | grep -v -E '^[a-z_-]+: [0-9]+ passed' | tail -40; status=1; }
  echo "$line"
  p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
  pass=$((pass+p)); fail=$((fail+f))
}
for t in "$dir"/tests/test_*; do
  case "$t" in *.o) continue;; esac
  [ -x "$t" ] && run "$t"
done
for s in tests/*.sh tests/*/run.sh; do
  case "$s" in tests/run_all.sh) continue;; esac
  [ -f "$s" ] && run bash "$s" "$carve"
done
echo "total: $pass passed, $fail failed"
exit $status
