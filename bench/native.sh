#!/bin/sh
# make bench: the native engine (docs/native.md) against the interpreter and against plain C.
# 1. Every bundled example at a size of 0.25-1.1 G lane-operations (the list below), run by the interpreter (its
#    lane-operations and seconds) and by the native engine with no check, on 1 core and on all
#    (CARVE_NATIVE_THREADS); the native rate is the interpreter's lane-operations over the native
#    seconds (the same launch), the ratio is native rate / interpreter rate. Kernels the native
#    engine cannot translate say so.
# 2. Four kernels written as plain C loops (bench/native/plain.c, cc -O2, one core) against the
#    native engine on one core at the same size: native speed / plain C speed.
carve=${1:-./carve}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export CARVE_NATIVE_CACHE="$tmp/cache"
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
secs() { sed -n 's/^  \([0-9.]*\) s.*/\1/p' "$1" | head -1; }
echo "== native engine vs interpreter: bundled examples, 0.25-1.1 G lane-operations each, $cores cores"
printf '  %-18s %-24s %12s %9s %9s %9s %9s %8s %8s\n' kernel size lane-ops interp-s "M/s" native1-s native$cores-s "x(1)" "x($cores)"
while read -r file defs; do
  case "$file" in ''|\#*) continue;; esac
  set -- $defs
  dflags=""; for d in "$@"; do dflags="$dflags -D $d"; done
  "$carve" run examples/$file $dflags --engine interp >"$tmp/i" 2>/dev/null || { echo "  $file: the interpreter failed"; continue; }
  ops=$(sed -n 's/.* s, \([0-9]*\) lane-ops.*/\1/p' "$tmp/i"); ti=$(secs "$tmp/i")
  "$carve" run examples/$file $dflags --engine native --check none >/dev/null 2>&1   # compile once (cached)
  CARVE_NATIVE_THREADS=1 "$carve" run examples/$file $dflags --engine native --check none >"$tmp/n1" 2>"$tmp/e1"
  if grep -q "the interpreter runs" "$tmp/e1"; then
    printf '  %-18s %-24s %s\n' "$file" "$*" "interpreter: $(sed -n 's/.*the interpreter runs [^:]*: //p' "$tmp/e1" | head -1)"
    continue
  fi
  "$carve" run examples/$file $dflags --engine native --check none >"$tmp/n2" 2>/dev/null
  t1=$(secs "$tmp/n1"); t2=$(secs "$tmp/n2")
  awk -v f="$file" -v s="$*" -v o="$ops" -v ti="$ti" -v t1="$t1" -v t2="$t2" 'BEGIN {
    if (t1 < 0.0005) t1 = 0.0005; if (t2 < 0.0005) t2 = 0.0005;
    printf "  %-18s %-24s %12d %9.3f %9.1f %9.4f %9.4f %8.0f %8.0f\n", f, s, o, ti, o / ti / 1e6, t1, t2, ti / t1, ti / t2 }'
done <<'SIZES'
mm.cu            N=384
mm_acc.cu        N=320
mv.cu            H=4096 W=4096
tmv.cu           H=4096 W=4096
mv2.cu           H=4096 W=4096
vv.cu            H=4096 W=4096
rd.cu            N=32000000 SEG=4096
strsm.cu         N=256 M=512
conv.cu          N=1024 K=5
tp.cu            H=4096 W=4096
demosaic.cu      H=2048 W=2048
imregionmax.cu   H=2048 W=2048
cp.cu            GX=256 GY=256 NATOMS=256
sad.cu           W=128 H=128 SR=8
mriq.cu          NX=32768 NK=512
mrifhd.cu        NX=32768 NK=512
scan.cu          N=4194304
histogram.cu     N=33554432
reduce_shared.cu N=4194304
tp_shared.cu     N=4096
stencil.cu       N=4000000
sum.cu           N=33554432
warpsum.cu
SIZES
echo "  (x(1), x($cores): native lane-operations per second / the interpreter's, on 1 core and on $cores; times under 0.5 ms count as 0.5 ms)"

echo "== native engine vs the same kernel as a plain C loop (cc -O2), one core"
if ${CC:-cc} -O2 -o "$tmp/plain" bench/native/plain.c -lm 2>/dev/null; then
  printf '  %-6s %-22s %9s %9s %9s\n' kernel size plain-s native-s ratio
  for spec in "mm mm.cu 1024 N=1024" "mv mv.cu 8192,8192 H=8192 W=8192" "tp tp.cu 4096,4096 H=4096 W=4096" "mriq mriq.cu 65536,1024 NX=65536 NK=1024"; do
    set -- $spec; k=$1; f=$2; sz=$3; shift 3
    dflags=""; for d in "$@"; do dflags="$dflags -D $d"; done
    tp=$("$tmp/plain" $k $(echo $sz | tr , ' ') | cut -d' ' -f1)
    "$carve" run examples/$f $dflags --engine native --check none >/dev/null 2>&1
    CARVE_NATIVE_THREADS=1 "$carve" run examples/$f $dflags --engine native --check none >"$tmp/n" 2>/dev/null
    tn=$(secs "$tmp/n")
    awk -v k="$k" -v s="$*" -v tp="$tp" -v tn="$tn" 'BEGIN { printf "  %-6s %-22s %9.3f %9.3f %9.2f\n", k, s, tp, tn, tp / tn }'
  done
  echo "  (ratio: plain C seconds / native seconds; 1 is as fast as plain C)"
else
  echo "  skipped (no C compiler)"
fi
