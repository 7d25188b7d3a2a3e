/* carve optimize examples/imregionmax.cu --kernel imregionmax
 *   vector(factor=4,split=1): 4 threads merged along x (grid.x 256 -> 64), a fast path where all pass the guard (loads shared); vector stores: C as int4 (alignment checked at run time, scalar at edges) [verified]
 *     assumes the 2 pointer parameters do not alias (each is bound to its own buffer): declared __restrict__
 */
#pragma carve launch imregionmax grid(64, 256, 1) block(16, 16, 1)
#pragma carve arg A = float[(4096+2)*(4096+2)] : random(1)
#pragma carve arg C = int[4096*4096] : zeros out
#pragma carve arg h = 4096
#pragma carve arg w = 4096
#pragma carve baseline copy(4*4096*4096)

__global__ void imregionmax(const float *__restrict__ A, int *__restrict__ C, int h, int w) {
  int C_out[4];
  int C_at = 0;
  unsigned int C_mask = 0u;
  int all = 1;
  #pragma unroll
  for (int cv = 0; cv < 4; cv++) {
    int idx = blockIdx.x * (blockDim.x * 4u) + (threadIdx.x * 4u + cv);
    int idy = blockIdx.y * blockDim.y + threadIdx.y;
    all &= idx < w && idy < h;
  }
  if (all) {
    #pragma unroll
    for (int cv = 0; cv < 4; cv++) {
      int idx = blockIdx.x * (blockDim.x * 4u) + (threadIdx.x * 4u + cv);
      int idy = blockIdx.y * blockDim.y + threadIdx.y;
      {
        int pw = w + 2;
        int c = (idy + 1) * pw + (idx + 1);
        float v = A[c];
        int ismax = 1;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            if (((dy != 0) || (dx != 0)) && A[c + dy * pw + dx] > v)
              ismax = 0;
        {
          C_out[cv] = ismax;
          C_at = idy * w + idx - cv;
          C_mask |= 1u << cv;
        }
      }
    }
  } else {
    #pragma unroll
    for (int cv = 0; cv < 4; cv++) {
      int idx = blockIdx.x * (blockDim.x * 4u) + (threadIdx.x * 4u + cv);
      int idy = blockIdx.y * blockDim.y + threadIdx.y;
      if (idx < w && idy < h) {
        int pw = w + 2;
        int c = (idy + 1) * pw + (idx + 1);
        float v = A[c];
        int ismax = 1;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            if (((dy != 0) || (dx != 0)) && A[c + dy * pw + dx] > v)
              ismax = 0;
        {
          C_out[cv] = ismax;
          C_at = idy * w + idx - cv;
          C_mask |= 1u << cv;
        }
      }
    }
  }
  if (C_mask == 15u && ((unsigned long)&C[C_at] & 15u) == 0u) {
    *(int4 *)&C[C_at] = make_int4(C_out[0], C_out[1], C_out[2], C_out[3]);
  } else
    #pragma unroll
    for (int cw = 0; cw < 4; cw++)
      if ((C_mask >> cw) & 1u)
        C[C_at + cw] = C_out[cw];
}
