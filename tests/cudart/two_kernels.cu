// the device half of a two-file program
__global__ void scale(float *d, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= s;
}
void scale_on_device(float *d, int n, float s) { scale<<<(n + 63) / 64, 64>>>(d, n, s); }
