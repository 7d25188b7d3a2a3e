#!/bin/bash
# Programs the front end reads as written (issue 29): each tests/front/run_*.cu runs under
# `carve run --route interp` (host code interpreted, so carve's own C library prelude is what is
# tested) and must exit 0 with every "ok"/"bad" word it prints reading "ok".
carve=${1:-./carve}
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "front: FAIL: $2"; fail=$((fail+1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in tests/front/run_*.cu; do
  "$carve" run --route interp "$f" >"$tmp/o" 2>"$tmp/e"; rc=$?
  [ $rc = 0 ] && grep -q ' ok' "$tmp/o" && ! grep -qw 'bad' "$tmp/o"
  check $? "carve run $f: exit $rc: $(head -c 300 "$tmp/o") $(head -c 600 "$tmp/e")"
done
echo "front: $pass passed, $fail failed"
[ $fail = 0 ]
