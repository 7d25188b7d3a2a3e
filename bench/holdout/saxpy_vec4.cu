/* saxpy_vec4 (holdout family saxpy): y = a x + y, four elements per thread as float4. */
#ifndef N
#define N (1 << 24)
#endif
#pragma carve launch saxpy_vec4 grid(N / 1024) block(256)
#pragma carve arg x = float4[N / 4] : random(1)
#pragma carve arg y = float4[N / 4] : random(2) out
#pragma carve arg a = 2.5f
#pragma carve arg n = N / 4
#pragma carve tol rel(1e-6)
#pragma carve work flops(2.0*N) bytes(12.0*N)
__global__ void saxpy_vec4(const float4 *x, float4 *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 u = x[i], v = y[i];
        v.x = a * u.x + v.x;
        v.y = a * u.y + v.y;
        v.z = a * u.z + v.z;
        v.w = a * u.w + v.w;
        y[i] = v;
    }
}
