// expect: check 2 3:3: error: 'atomicAdd' takes 2 arguments, 1 given
__global__ void k(int *a) {
  atomicAdd(a);
}
