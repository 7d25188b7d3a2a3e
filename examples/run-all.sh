#!/bin/sh
# `make run`: check, print and run every bundled kernel at a small size that takes well under a
# second in the interpreter, showing the launch, the work done and each output's checksum.
carve=${1:-./carve}
status=0
while read -r file defs; do
  case "$file" in ''|\#*) continue;; esac
  set -- $defs
  dflags=""
  for d in "$@"; do dflags="$dflags -D $d"; done
  echo "== examples/$file ($defs)"
  $carve check examples/$file $dflags | sed -n '1p'
  $carve run examples/$file $dflags || status=1
done <<'LIST'
mm.cu            N=64
mv.cu            H=256 W=256
tmv.cu           H=256 W=256
vv.cu            H=64 W=64
rd.cu            N=100000 SEG=1000
strsm.cu         N=64 M=64
conv.cu          N=48 K=5
tp.cu            H=64 W=64
demosaic.cu      H=64 W=64
imregionmax.cu   H=64 W=64
cp.cu            GX=64 GY=64 NATOMS=100
sad.cu           W=32 H=32 SR=8
mriq.cu          NX=512 NK=256
mrifhd.cu        NX=512 NK=256
scan.cu          N=4096
histogram.cu     N=65536
reduce_shared.cu N=65536
tp_shared.cu     N=256
stencil.cu       N=100000
warpsum.cu
LIST
exit $status
