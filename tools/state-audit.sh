#!/bin/sh
# The mutable file-scope state of parts of carve, as the compiler placed it: every object of the
# compiled sources of each DIR in a writable section (.data, .bss, thread-local), function
# statics included (named NAME.N by gcc). gcc moves a static object it proves never written to
# a read-only section (.rodata, .data.rel.ro), so what is listed is written, or may be. Needs the
# objects built (make carve) at -O2, as the Makefile builds them; lines "FILE.c: NAME (SECTION)".
# usage: tools/state-audit.sh [-b BUILD_DIR] DIR...   (DIR as src/front; default build dir: build)
cd "$(dirname "$0")/.." || exit 2
build=build
if [ "$1" = -b ]; then build=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: tools/state-audit.sh [-b BUILD_DIR] DIR..." >&2; exit 2; }
command -v objdump >/dev/null 2>&1 || { echo "state-audit: skipped (no objdump)"; exit 0; }
for dir in "$@"; do
  for c in "$dir"/*.c; do
    o="$build/${c%.c}.o"
    [ -f "$o" ] || { echo "state-audit: $o is not built (make carve)" >&2; exit 2; }
    objdump -t "$o" | awk -v F="$c" '
      $NF !~ /^\./ && match($0, /[ \t]\.(data|bss|tdata|tbss)[^ \t]*\t/) {
        sec = substr($0, RSTART + 1, RLENGTH - 2)
        if (sec !~ /rel\.ro/) print F ": " $NF " (" sec ")"
      }'
  done
done
