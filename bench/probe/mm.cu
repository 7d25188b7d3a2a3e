#pragma carve launch mm grid((2048+15)/16, (2048+15)/16) block(16, 16)
#pragma carve arg A = float[2048*2048] : random(1)
#pragma carve arg B = float[2048*2048] : random(2)
#pragma carve arg C = float[2048*2048] : zeros out
#pragma carve arg n = 2048
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*2048*2048*2048) bytes(3.0*2048*2048*4)
#pragma carve baseline sgemm(2048, 2048, 2048)

__global__ void mm(const float *A, const float *B, float *C, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int idy = blockIdx.y * blockDim.y + threadIdx.y;
  if (idx < n && idy < n) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++)
      sum += A[idy * n + i] * B[i * n + idx];
    C[idy * n + idx] = sum;
  }
}
