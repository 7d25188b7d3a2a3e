__global__ void scale(float *x, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

void launch_scale(float *d, int n, float s) {
  scale<<<(n + 127) / 128, 128>>>(d, n, s);
}
