/* mriq: naive computation of the Q matrix for non-Cartesian 3-D MRI reconstruction:
 *   Q[x] = sum over k of |phi_k|^2 * exp(i * 2pi * (k . x)),  returned as real part Qr and
 *   imaginary part Qi, for NX voxel positions (x, y, z) and NK k-space samples (kx, ky, kz, phi).
 *
 * Source: Ryoo, PhD thesis (UIUC 2008), §4.2.3 (MRI-Q, Fig. 4.5; Stone et al.); the phiMag
 * formulation is the one of the Parboil benchmark.
 *
 * Naive because: one thread per voxel and every k-space sample is read from global memory by
 * every thread (the same address across the warp: Ryoo's fix is chunking the samples into constant
 * memory), x[idx], y[idx], z[idx] are re-read every iteration instead of held in registers,
 * |phi_k|^2 is recomputed by every thread, and sinf/cosf are the precise (slow-path) versions. */
#ifndef NX
#define NX 262144
#endif
#ifndef NK
#define NK 2048
#endif
#define PIx2 6.2831853071795864769f

#pragma carve launch mriq grid((NX+255)/256) block(256)
#pragma carve arg kx = float[NK] : random(1, -1, 1)
#pragma carve arg ky = float[NK] : random(2, -1, 1)
#pragma carve arg kz = float[NK] : random(3, -1, 1)
#pragma carve arg x = float[NX] : random(4, -0.5, 0.5)
#pragma carve arg y = float[NX] : random(5, -0.5, 0.5)
#pragma carve arg z = float[NX] : random(6, -0.5, 0.5)
#pragma carve arg phiR = float[NK] : random(7, -1, 1)
#pragma carve arg phiI = float[NK] : random(8, -1, 1)
#pragma carve arg Qr = float[NX] : zeros out
#pragma carve arg Qi = float[NX] : zeros out
#pragma carve arg numK = NK
#pragma carve arg numX = NX
#pragma carve tol rel(1e-4)
__global__ void mriq(const float *kx, const float *ky, const float *kz,
                     const float *x, const float *y, const float *z,
                     const float *phiR, const float *phiI,
                     float *Qr, float *Qi, int numK, int numX)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;   /* voxel */
    if (idx < numX) {
        float qr = 0.0f, qi = 0.0f;
        for (int k = 0; k < numK; k++) {
            float phiMag = phiR[k] * phiR[k] + phiI[k] * phiI[k];
            float expArg = PIx2 * (kx[k] * x[idx] + ky[k] * y[idx] + kz[k] * z[idx]);
            qr += phiMag * cosf(expArg);
            qi += phiMag * sinf(expArg);
        }
        Qr[idx] = qr;
        Qi[idx] = qi;
    }
}
