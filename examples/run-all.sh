#!/bin/sh
# `make run`: check, print and run every bundled kernel at a small size that takes well under a
# second in the interpreter, showing the launch, the work done and each output's checksum.
carve=${1:-./carve}
status=0
while read -r file defs; do
  case "$file" in ''|\#*) continue;; esac
  defs=${defs%%|*}
  set -- $defs
  dflags=""
  for d in "$@"; do dflags="$dflags -D $d"; done
  echo "== examples/$file ($*)"
  $carve check examples/$file $dflags | sed -n '1p'
  $carve run examples/$file $dflags || status=1
done < examples/sizes.txt
exit $status
