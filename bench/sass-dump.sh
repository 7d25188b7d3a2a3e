#!/bin/bash
# SASS of every family variant and bundled kernel (run on the device machine, which has
# cuobjdump): $OUT/sass.tar.gz holds NAME.cu (carve print) and NAME.sass (cuobjdump -sass).
out=${OUT:-.}
make -s -j16 carve || exit 2
d=$(mktemp -d)
files=$(awk '{print "bench/families/" $2}' bench/families/families.txt)
for f in mm mv tmv vv rd strsm conv tp demosaic imregionmax cp sad mriq mrifhd scan histogram reduce_shared; do files="$files examples/$f.cu"; done
for f in $files; do
  b=$(basename "$f" .cu)
  ./carve print "$f" -o "$d/$b.cu" && nvcc -arch=sm_90 -O3 -cubin -o "$d/$b.cubin" "$d/$b.cu" && cuobjdump -sass "$d/$b.cubin" > "$d/$b.sass"
  rm -f "$d/$b.cubin"
done
tar -C "$d" -czf "$out/sass.tar.gz" .
ls "$d" | wc -l
