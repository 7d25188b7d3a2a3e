#pragma carve launch rd grid((262144+255)/256) block(256)
#pragma carve arg A = float[(1 << 24)] : random(1)
#pragma carve arg partial = float[262144] : zeros out
#pragma carve arg n = (1 << 24)
#pragma carve arg seg = 262144
#pragma carve tol rel(1e-6)
#pragma carve work flops(1.0*(1 << 24)) bytes(4.0*((1 << 24) + 262144))
#pragma carve baseline sasum((1 << 24))

__global__ void rd(const float *A, float *partial, int n, int seg) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < seg) {
    float sum = 0.0f;
    for (int k = idx; k < n; k += seg)
      sum += A[k];
    partial[idx] = sum;
  }
}
