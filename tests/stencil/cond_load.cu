/* fdtd2d's ey update (bench/holdout4/fdtd2d.cu) as a kernel file: the loads of hz run only on
 * rows i > 0 (an if/else after the guard), so a tile filled for the whole block would read row -1,
 * which the original never reads: halo refuses it (it used to apply, and verification caught the
 * out-of-bounds fill). */
#ifndef NX
#define NX 256
#endif
#ifndef NY
#define NY 256
#endif
#pragma carve launch fdtd_step1 grid((NY+31)/32, (NX+7)/8) block(32, 8)
#pragma carve arg ey = float[NX*NY] : random(1) out
#pragma carve arg hz = float[NX*NY] : random(2)
#pragma carve arg fict = float[10] : random(3)
#pragma carve arg t = 1
__global__ void fdtd_step1(float *ey, const float *hz, const float *fict, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < NX && j < NY) {
        if (i == 0)
            ey[0 * NY + j] = fict[t];
        else
            ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
    }
}
