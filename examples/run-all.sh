#!/bin/sh
# `make run`: check, print and run every bundled kernel at a small size that takes well under a
# second in the interpreter, showing the launch, the work done and each output's checksum; then
# optimize three of them and run the verified results.
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
# the optimizer on the kernels its passes apply to: the plan, then the optimized kernel run
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for spec in "tp.cu H=1024 W=1024" "mm_acc.cu N=128" "mrifhd.cu NX=1024 NK=256"; do
  set -- $spec; file=$1; shift
  dflags=""; for d in "$@"; do dflags="$dflags -D $d"; done
  echo "== carve optimize examples/$file ($*)"
  $carve optimize examples/$file $dflags -o "$tmp/$file" || status=1
  $carve run "$tmp/$file" || status=1
done
exit $status
