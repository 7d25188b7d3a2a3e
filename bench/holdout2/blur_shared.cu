/* blur_shared (holdout round 2, family blur): the same blur with a 34 x 10 tile (block plus
 * halo) staged in shared memory. */
#ifndef N
#define N 4096
#endif
#pragma carve launch blur_shared grid(N / 32, N / 8) block(32, 8)
#pragma carve arg in = float[N*N] : random(1)
#pragma carve arg out = float[N*N] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-5)
#pragma carve work flops(9.0*N*N) bytes(8.0*N*N)
__global__ void blur_shared(const float *in, float *out, int n)
{
    __shared__ float t[10][34];
    int x0 = blockIdx.x * 32 - 1, y0 = blockIdx.y * 8 - 1;
    for (int k = threadIdx.y * 32 + threadIdx.x; k < 340; k += 256) {
        int ty = k / 34, tx = k % 34;
        int gx = x0 + tx, gy = y0 + ty;
        t[ty][tx] = (gx >= 0 && gy >= 0 && gx < n && gy < n) ? in[gy * n + gx] : 0.0f;
    }
    __syncthreads();
    int x = x0 + 1 + threadIdx.x, y = y0 + 1 + threadIdx.y;
    if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1)
        return;
    float s = 0.0f;
    for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++)
            s += t[threadIdx.y + dy][threadIdx.x + dx];
    out[y * n + x] = s * (1.0f / 9.0f);
}
