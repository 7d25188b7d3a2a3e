#!/bin/bash
# tests/ncu/run.sh [CARVE]: bench --ncu's predictions against the recorded Nsight Compute
# measurements in tests/ncu/ (occupancy.c), linked against the library the carve binary under
# test was built from (build/ or build-san/).
carve=${1:-./carve}
cd "$(dirname "$0")/../.." || exit 2
case "$carve" in
  *build-san/*) lib=build-san/libcarve.a; flags="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined";;
  *) lib=build/libcarve.a; flags="-O1 -g";;
esac
if [ ! -f "$lib" ]; then echo "ncu: $lib not built"; echo "ncu: 0 passed, 1 failed"; exit 1; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter $flags -o "$tmp/occupancy" tests/ncu/occupancy.c "$lib" -lm -ldl 2>"$tmp/cc.err" \
  || { cat "$tmp/cc.err"; echo "ncu: 0 passed, 1 failed"; exit 1; }
"$tmp/occupancy"
