/* 3-D 7-point stencil on a 3-D grid of 32x4x1 blocks (z from blockIdx.z): the planes z-1, z and
 * z+1 each a tile. */
#ifndef N
#define N 32
#endif
#pragma carve launch s7 grid((N+31)/32, (N+3)/4, N) block(32, 4, 1)
#pragma carve arg u = float[N*N*N] : random(1)
#pragma carve arg v = float[N*N*N] : zeros out
#pragma carve tol rel(1e-5)
__global__ void s7(float *u, float *v)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    int c = (z * N + y) * N + x;
    if (x >= 1 && x < N - 1 && y >= 1 && y < N - 1 && z >= 1 && z < N - 1) {
        v[c] = 0.4f * u[c] + 0.1f * (u[c - 1] + u[c + 1] + u[c - N] + u[c + N] + u[c - N * N] + u[c + N * N]);
    }
}
