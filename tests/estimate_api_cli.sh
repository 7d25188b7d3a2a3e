#!/bin/bash
# estimate_kernel called many times in one process (tests/estimate_api.c), linked against the
# library the carve binary under test was built from (build/ or build-san/).
carve=${1:-./carve}
case "$carve" in
  *build-san/*) lib=build-san/libcarve.a; flags="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined";;
  *) lib=build/libcarve.a; flags="-O1 -g";;
esac
if [ ! -f "$lib" ]; then echo "estimate-api: $lib not built"; echo "estimate-api: 0 passed, 1 failed"; exit 1; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter $flags -o "$tmp/estimate_api" tests/estimate_api.c "$lib" -lm -ldl 2>"$tmp/cc.err" \
  || { cat "$tmp/cc.err"; echo "estimate-api: 0 passed, 1 failed"; exit 1; }
out=$("$tmp/estimate_api"); rc=$?
# nothing but the summary on standard output
if [ "$(printf '%s\n' "$out" | wc -l)" != 1 ]; then
  printf '%s\n' "$out" | head -5; echo "estimate-api: FAIL: estimate_kernel printed on standard output"; echo "estimate-api: 0 passed, 1 failed"; exit 1
fi
echo "$out"
exit $rc
