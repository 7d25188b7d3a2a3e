// expect: check 2 2:1: error: a function cannot be both __global__ and __device__
__global__ __device__ void k(int *a) {
  a[0] = 1;
}
