// A launch with more threads than elements and no guard in the kernel.
__global__ void set(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
int main(void) {
  int *d;
  cudaMalloc(&d, 1000 * sizeof(int));
  set<<<4, 256>>>(d);
  cudaFree(d);
  return 0;
}
