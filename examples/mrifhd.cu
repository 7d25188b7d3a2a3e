/* mrifhd: naive computation of the F^H d vector for non-Cartesian 3-D MRI reconstruction:
 *   rhoPhi_k = conj(phi_k) * d_k, that is
 *   realRhoPhi = phiR*dR + phiI*dI,  imagRhoPhi = phiR*dI - phiI*dR,
 *   expArg = 2pi * (kx*x + ky*y + kz*z),
 *   rFHD[x] += realRhoPhi*cos(expArg) - imagRhoPhi*sin(expArg),
 *   iFHD[x] += imagRhoPhi*cos(expArg) + realRhoPhi*sin(expArg)   summed over the NK samples.
 *
 * Source: Ryoo, PhD thesis (UIUC 2008), §4.2.3, Fig. 4.6 ("Sequential algorithm to compute
 * F^H d"); MRI-FHD is one of the four carving benchmarks of Ch. 5-6.
 *
 * Naive because: this is Fig. 4.6 with the voxel loop turned into threads. The accumulators live
 * in global memory (a read-modify-write of rFHD[idx] and iFHD[idx] on every iteration; Ryoo's
 * version keeps them and x, y, z in registers), every k-space sample is read from global memory
 * by every thread (constant-memory candidate), the rho-phi products are recomputed by every thread
 * instead of once per sample, and sinf/cosf are the precise versions. */
#ifndef NX
#define NX 262144
#endif
#ifndef NK
#define NK 2048
#endif
#define PIx2 6.2831853071795864769f

#pragma carve launch mrifhd grid((NX+255)/256) block(256)
#pragma carve arg kx = float[NK] : random(1, -1, 1)
#pragma carve arg ky = float[NK] : random(2, -1, 1)
#pragma carve arg kz = float[NK] : random(3, -1, 1)
#pragma carve arg x = float[NX] : random(4, -0.5, 0.5)
#pragma carve arg y = float[NX] : random(5, -0.5, 0.5)
#pragma carve arg z = float[NX] : random(6, -0.5, 0.5)
#pragma carve arg phiR = float[NK] : random(7, -1, 1)
#pragma carve arg phiI = float[NK] : random(8, -1, 1)
#pragma carve arg dR = float[NK] : random(9, -1, 1)
#pragma carve arg dI = float[NK] : random(10, -1, 1)
#pragma carve arg rFHD = float[NX] : zeros out
#pragma carve arg iFHD = float[NX] : zeros out
#pragma carve arg numK = NK
#pragma carve arg numX = NX
#pragma carve tol rel(1e-4)
__global__ void mrifhd(const float *kx, const float *ky, const float *kz,
                       const float *x, const float *y, const float *z,
                       const float *phiR, const float *phiI, const float *dR, const float *dI,
                       float *rFHD, float *iFHD, int numK, int numX)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* voxel */
    if (idx < numX) {
        for (int k = 0; k < numK; k++) {
            float realRhoPhi = phiR[k] * dR[k] + phiI[k] * dI[k];
            float imagRhoPhi = phiR[k] * dI[k] - phiI[k] * dR[k];
            float expArg = PIx2 * (kx[k] * x[idx] + ky[k] * y[idx] + kz[k] * z[idx]);
            float cosArg = cosf(expArg);
            float sinArg = sinf(expArg);
            rFHD[idx] += realRhoPhi * cosArg - imagRhoPhi * sinArg;
            iFHD[idx] += imagRhoPhi * cosArg + realRhoPhi * sinArg;
        }
    }
}
