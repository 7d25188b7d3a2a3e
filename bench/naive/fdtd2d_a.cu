/* FDTD-2D, the hz update, spelling a: PolyBench's third kernel. */
#ifndef NX
#define NX 2048
#endif
#ifndef NY
#define NY 2048
#endif
#pragma carve launch fdtd_hz grid((NY+31)/32, (NX+7)/8) block(32, 8)
#pragma carve arg ex = float[NX*(NY+1)] : random(1)
#pragma carve arg ey = float[(NX+1)*NY] : random(2)
#pragma carve arg hz = float[NX*NY] : random(3) out
#pragma carve tol rel(1e-5)
#pragma carve work flops(5.0*NX*NY) bytes(16.0*NX*NY)
#pragma carve baseline copy(NX*NY*4)
__global__ void fdtd_hz(float *ex, float *ey, float *hz)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < NX) && (j < NY))
        hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * (NY + 1) + (j + 1)] - ex[i * (NY + 1) + j] + ey[(i + 1) * NY + j] - ey[i * NY + j]);
}
