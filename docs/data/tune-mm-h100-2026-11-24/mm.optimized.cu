/* carve optimize examples/mm.cu --kernel mm
 *   tile(tile=128,thread=8,bk=8,prefetch=1,minblocks=0,vec=4): A shared along x (row, k), B along y (k, column): 128x128 block tiles through shared memory in steps of 8 along k (A loaded along k, B along columns), 8x8 outputs a thread in registers; grid 128x128 -> 16x16, block 16x16 -> 16x16 [verified]
 *     assumes the 3 pointer parameters do not alias (each is bound to its own buffer): declared __restrict__
 */
#pragma carve launch mm grid(16, 16, 1) block(16, 16, 1)
#pragma carve arg A = float[2048*2048] : random(1)
#pragma carve arg B = float[2048*2048] : random(2)
#pragma carve arg C = float[2048*2048] : zeros out
#pragma carve arg n = 2048
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*2048*2048*2048) bytes(3.0*2048*2048*4)
#pragma carve baseline sgemm(2048, 2048, 2048)

__global__ __launch_bounds__(256) void mm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int n) {
  __shared__ float A_tile[8][132];
  __shared__ float B_tile[8][128];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int tid = ty * 16 + tx;
  const int row0 = blockIdx.y * 128;
  const int col0 = blockIdx.x * 128;
  float acc[8][8];
  #pragma unroll
  for (int i2 = 0; i2 < 8; i2++)
    #pragma unroll
    for (int j = 0; j < 8; j++)
      acc[i2][j] = 0.0f;
  const int k_end = n;
  int k0 = 0;
  float A_next[4];
  float B_next[4];
  if (k0 <= k_end - 8) {
    #pragma unroll
    for (int l = 0; l < 1; l++) {
      const int e = tid + l * 256;
      const int r = e / 2;
      const int kk = e % 2 * 4;
      const bool whole = row0 + r < 2048 && row0 + r < n;
      float vals[4];
      if (whole && ((unsigned long)&A[(row0 + r) * n + (k0 + kk)] & 15) == 0) {
        const float4 vals4 = *(const float4 *)&A[(row0 + r) * n + (k0 + kk)];
        vals[0] = vals4.x;
        vals[1] = vals4.y;
        vals[2] = vals4.z;
        vals[3] = vals4.w;
      } else {
        #pragma unroll
        for (int v = 0; v < 4; v++)
          vals[v] = row0 + r < 2048 && row0 + r < n ? A[(row0 + r) * n + (k0 + kk + v)] : (float)0;
      }
      #pragma unroll
      for (int v = 0; v < 4; v++)
        A_next[l * 4 + v] = vals[v];
    }
    #pragma unroll
    for (int l = 0; l < 1; l++) {
      const int e = tid + l * 256;
      const int r = e % 32 * 4;
      const int kk = e / 32;
      bool whole = true;
      #pragma unroll
      for (int v = 0; v < 4; v++)
        whole = whole && col0 + r + v < 2048 && col0 + r + v < n;
      float vals[4];
      if (whole && ((unsigned long)&B[(k0 + kk) * n + (col0 + r)] & 15) == 0) {
        const float4 vals4 = *(const float4 *)&B[(k0 + kk) * n + (col0 + r)];
        vals[0] = vals4.x;
        vals[1] = vals4.y;
        vals[2] = vals4.z;
        vals[3] = vals4.w;
      } else {
        #pragma unroll
        for (int v = 0; v < 4; v++)
          vals[v] = col0 + r + v < 2048 && col0 + r + v < n ? B[(k0 + kk) * n + (col0 + r + v)] : (float)0;
      }
      #pragma unroll
      for (int v = 0; v < 4; v++)
        B_next[l * 4 + v] = vals[v];
    }
  }
  for (; k0 <= k_end - 8; k0 += 8) {
    #pragma unroll
    for (int l = 0; l < 1; l++) {
      const int e = tid + l * 256;
      const int r = e / 2;
      const int kk = e % 2 * 4;
      #pragma unroll
      for (int v = 0; v < 4; v++)
        A_tile[kk + v][r] = A_next[l * 4 + v];
    }
    #pragma unroll
    for (int l = 0; l < 1; l++) {
      const int e = tid + l * 256;
      const int r = e % 32 * 4;
      const int kk = e / 32;
      #pragma unroll
      for (int v = 0; v < 4; v++)
        B_tile[kk][r + v] = B_next[l * 4 + v];
    }
    __syncthreads();
    if (k0 <= k_end - 16) {
      #pragma unroll
      for (int l = 0; l < 1; l++) {
        const int e = tid + l * 256;
        const int r = e / 2;
        const int kk = e % 2 * 4;
        const bool whole = row0 + r < 2048 && row0 + r < n;
        float vals[4];
        if (whole && ((unsigned long)&A[(row0 + r) * n + (k0 + 8 + kk)] & 15) == 0) {
          const float4 vals4 = *(const float4 *)&A[(row0 + r) * n + (k0 + 8 + kk)];
          vals[0] = vals4.x;
          vals[1] = vals4.y;
          vals[2] = vals4.z;
          vals[3] = vals4.w;
        } else {
          #pragma unroll
          for (int v = 0; v < 4; v++)
            vals[v] = row0 + r < 2048 && row0 + r < n ? A[(row0 + r) * n + (k0 + 8 + kk + v)] : (float)0;
        }
        #pragma unroll
        for (int v = 0; v < 4; v++)
          A_next[l * 4 + v] = vals[v];
      }
      #pragma unroll
      for (int l = 0; l < 1; l++) {
        const int e = tid + l * 256;
        const int r = e % 32 * 4;
        const int kk = e / 32;
        bool whole = true;
        #pragma unroll
        for (int v = 0; v < 4; v++)
          whole = whole && col0 + r + v < 2048 && col0 + r + v < n;
        float vals[4];
        if (whole && ((unsigned long)&B[(k0 + 8 + kk) * n + (col0 + r)] & 15) == 0) {
          const float4 vals4 = *(const float4 *)&B[(k0 + 8 + kk) * n + (col0 + r)];
          vals[0] = vals4.x;
          vals[1] = vals4.y;
          vals[2] = vals4.z;
          vals[3] = vals4.w;
        } else {
          #pragma unroll
          for (int v = 0; v < 4; v++)
            vals[v] = col0 + r + v < 2048 && col0 + r + v < n ? B[(k0 + 8 + kk) * n + (col0 + r + v)] : (float)0;
        }
        #pragma unroll
        for (int v = 0; v < 4; v++)
          B_next[l * 4 + v] = vals[v];
      }
    }
    float A_reg[2][8];
    float B_reg[2][8];
    #pragma unroll
    for (int i2 = 0; i2 < 8; i2++)
      A_reg[0][i2] = A_tile[0][ty * 8 + i2];
    #pragma unroll
    for (int q = 0; q < 2; q++)
      #pragma unroll
      for (int v = 0; v < 4; v++)
        B_reg[0][q * 4 + v] = B_tile[0][q * 64 + tx * 4 + v];
    #pragma unroll
    for (int kk = 0; kk < 8; kk++) {
      if (kk + 1 < 8) {
        #pragma unroll
        for (int i2 = 0; i2 < 8; i2++)
          A_reg[(kk + 1) & 1][i2] = A_tile[kk + 1][ty * 8 + i2];
        #pragma unroll
        for (int q = 0; q < 2; q++)
          #pragma unroll
          for (int v = 0; v < 4; v++)
            B_reg[(kk + 1) & 1][q * 4 + v] = B_tile[kk + 1][q * 64 + tx * 4 + v];
      }
      #pragma unroll
      for (int i2 = 0; i2 < 8; i2++)
        #pragma unroll
        for (int j = 0; j < 8; j++)
          acc[i2][j] += A_reg[kk & 1][i2] * B_reg[kk & 1][j];
    }
    __syncthreads();
  }
  if (k0 < k_end) {
    #pragma unroll
    for (int l = 0; l < 4; l++) {
      const int e = tid + l * 256;
      const int r = e / 8;
      const int kk = e % 8;
      A_tile[kk][r] = row0 + r < 2048 && row0 + r < n && k0 + kk < k_end ? A[(row0 + r) * n + (k0 + kk)] : (float)0;
    }
    #pragma unroll
    for (int l = 0; l < 4; l++) {
      const int e = tid + l * 256;
      const int r = e % 128;
      const int kk = e / 128;
      B_tile[kk][r] = col0 + r < 2048 && col0 + r < n && k0 + kk < k_end ? B[(k0 + kk) * n + (col0 + r)] : (float)0;
    }
    __syncthreads();
    for (int kk = 0; kk < k_end - k0; kk++) {
      float A_reg[8];
      float B_reg[8];
      #pragma unroll
      for (int i2 = 0; i2 < 8; i2++)
        A_reg[i2] = A_tile[kk][ty * 8 + i2];
      #pragma unroll
      for (int q = 0; q < 2; q++)
        #pragma unroll
        for (int v = 0; v < 4; v++)
          B_reg[q * 4 + v] = B_tile[kk][q * 64 + tx * 4 + v];
      #pragma unroll
      for (int i2 = 0; i2 < 8; i2++)
        #pragma unroll
        for (int j = 0; j < 8; j++)
          acc[i2][j] += A_reg[i2] * B_reg[j];
    }
  }
  #pragma unroll
  for (int i2 = 0; i2 < 8; i2++)
    #pragma unroll
    for (int j = 0; j < 8; j++) {
      const int idy = row0 + ty * 8 + i2;
      const int idx = col0 + j / 4 * 64 + tx * 4 + j % 4;
      if (idy < 2048 && idx < 2048 && idx < n && idy < n) {
        float sum = acc[i2][j];
        C[idy * n + idx] = sum;
      }
    }
}
