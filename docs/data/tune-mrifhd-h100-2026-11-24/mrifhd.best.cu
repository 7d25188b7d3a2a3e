// carve tune: block=1024x1 scalar=on scalar.hoist=1 vector=off
/* carve optimize examples/mrifhd.cu --kernel mrifhd
 *   scalar(hoist=1): 1 loop: 5 global elements kept in registers [NOT verified: --no-verify]
 *     assumes the 12 pointer parameters do not alias (each is bound to its own buffer): declared __restrict__
 */
#pragma carve launch mrifhd grid((((262144+255)/256) * 256 + 1023) / 1024, (1), (1)) block(1024, 1, 1)
#pragma carve arg kx = float[2048] : random(1, -1, 1)
#pragma carve arg ky = float[2048] : random(2, -1, 1)
#pragma carve arg kz = float[2048] : random(3, -1, 1)
#pragma carve arg x = float[262144] : random(4, -0.5, 0.5)
#pragma carve arg y = float[262144] : random(5, -0.5, 0.5)
#pragma carve arg z = float[262144] : random(6, -0.5, 0.5)
#pragma carve arg phiR = float[2048] : random(7, -1, 1)
#pragma carve arg phiI = float[2048] : random(8, -1, 1)
#pragma carve arg dR = float[2048] : random(9, -1, 1)
#pragma carve arg dI = float[2048] : random(10, -1, 1)
#pragma carve arg rFHD = float[262144] : zeros out
#pragma carve arg iFHD = float[262144] : zeros out
#pragma carve arg numK = 2048
#pragma carve arg numX = 262144
#pragma carve tol rel(1e-4)

__global__ void mrifhd(const float *__restrict__ kx, const float *__restrict__ ky, const float *__restrict__ kz, const float *__restrict__ x, const float *__restrict__ y, const float *__restrict__ z, const float *__restrict__ phiR, const float *__restrict__ phiI, const float *__restrict__ dR, const float *__restrict__ dI, float *__restrict__ rFHD, float *__restrict__ iFHD, int numK, int numX) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < numX) {
    if (0 < numK) {
      float x_val = x[idx];
      float y_val = y[idx];
      float z_val = z[idx];
      float rFHD_acc = rFHD[idx];
      float iFHD_acc = iFHD[idx];
      for (int k = 0; k < numK; k++) {
        float realRhoPhi = phiR[k] * dR[k] + phiI[k] * dI[k];
        float imagRhoPhi = phiR[k] * dI[k] - phiI[k] * dR[k];
        float expArg = 6.2831853071795864769f * (kx[k] * x_val + ky[k] * y_val + kz[k] * z_val);
        float cosArg = cosf(expArg);
        float sinArg = sinf(expArg);
        rFHD_acc += realRhoPhi * cosArg - imagRhoPhi * sinArg;
        iFHD_acc += imagRhoPhi * cosArg + realRhoPhi * sinArg;
      }
      rFHD[idx] = rFHD_acc;
      iFHD[idx] = iFHD_acc;
    }
  }
}
