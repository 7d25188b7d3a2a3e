// A product whose buffers are declared through a typedef (typedef float DATA_TYPE;), as a public
// suite spells them: tile writes the kernel anew and parses it back, which needs the typedef.
#ifndef N
#define N 128
#endif
typedef float DATA_TYPE;
#pragma carve launch mm grid(N/32, N/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : random(3) out
#pragma carve tol rel(1e-4)
__global__ void mm(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < N) && (j < N)) {
    C[i * N + j] = 0;
    int k;
    for (k = 0; k < N; k++) C[i * N + j] += A[i * N + k] * B[k * N + j];
  }
}
