// expect: check 2 3:3: error: no 'atomicAdd' for 'short *'
__global__ void k(short *a) {
  atomicAdd(a, (short)1);
}
