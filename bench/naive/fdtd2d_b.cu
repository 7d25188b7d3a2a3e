/* FDTD-2D, the hz update, spelling b: compound assignment, nested ifs, tile constants. */
#ifndef NX
#define NX 2048
#endif
#ifndef NY
#define NY 2048
#endif
#define TX 32
#define TY 8
#pragma carve launch fdtd_hz grid(NY/TX, NX/TY) block(TX, TY)
#pragma carve arg ex = float[NX*(NY+1)] : random(1)
#pragma carve arg ey = float[(NX+1)*NY] : random(2)
#pragma carve arg hz = float[NX*NY] : random(3) out
#pragma carve arg nx = NX
#pragma carve arg ny = NY
#pragma carve tol rel(1e-5)
#pragma carve work flops(5.0*NX*NY) bytes(16.0*NX*NY)
#pragma carve baseline copy(NX*NY*4)
__global__ void fdtd_hz(const float *ex, const float *ey, float *hz, int nx, int ny)
{
    int j = blockIdx.x * TX + threadIdx.x;
    int i = blockIdx.y * TY + threadIdx.y;
    if (i < nx) {
        if (j < ny) {
            float d = ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] - ey[i * ny + j];
            hz[i * ny + j] -= 0.7f * d;
        }
    }
}
