// sgemm_probe: which changes to the tile pass's kernel shape move FP32 SGEMM on Hopper toward
// cuBLAS. One templated kernel with the pass's structure (BMxBN block tile, BK steps of k, A
// k-major in shared memory padded by 4, B columns interleaved in 16-byte groups, TMxTN register
// tile, register prefetch with two shared buffers) and switches for what the pass does not do
// yet: 128-bit global loads (VEC), a warp covering a WRxWC block of threads instead of 2 rows of
// 16 (WARP), fragments of the next kk loaded before the FMAs of this one (FRAG2).
// Build: nvcc -O3 -arch=sm_90 -o probe sgemm_probe.cu -lcublas; run: ./probe N [reps]
// Sizes must be multiples of the tile (this is a probe of speed, not the pass's exact output).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cublas_v2.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int BM, int BN, int BK, int TM, int TN, bool VEC, int WR, bool FRAG2>
__global__ __launch_bounds__((BM / TM) * (BN / TN)) void sgemm(const float *__restrict__ A, const float *__restrict__ B,
                                                               float *__restrict__ C, int n) {
  constexpr int NTX = BN / TN, NTY = BM / TM, NT = NTX * NTY, PA = 4;
  __shared__ __align__(16) float As[2][BK][BM + PA];
  __shared__ __align__(16) float Bs[2][BK][BN];
  const int tid = threadIdx.x;
  int tx, ty;
  if constexpr (WR == 0) { tx = tid % NTX; ty = tid / NTX; }
  else {  // a warp is WR rows x (32/WR) columns of threads
    constexpr int WC = 32 / WR, WPR = NTX / WC;
    const int w = tid / 32, l = tid % 32;
    tx = (w % WPR) * WC + l % WC;
    ty = (w / WPR) * WR + l / WC;
  }
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0.f;
  constexpr int AL = VEC ? BM * BK / 4 / NT : BM * BK / NT;   // loads a thread per step
  constexpr int BL = VEC ? BK * BN / 4 / NT : BK * BN / NT;
  static_assert(AL >= 1 && BL >= 1, "tile too small for the threads");
  float an[VEC ? AL * 4 : AL], bn[VEC ? BL * 4 : BL];
  auto gload = [&](int k0) {
#pragma unroll
    for (int l = 0; l < AL; l++) {
      const int e = tid + l * NT;
      if constexpr (VEC) {
        const int r = e / (BK / 4), kk = e % (BK / 4) * 4;
        float4 v = *reinterpret_cast<const float4 *>(&A[(size_t)(row0 + r) * n + k0 + kk]);
        an[l * 4] = v.x; an[l * 4 + 1] = v.y; an[l * 4 + 2] = v.z; an[l * 4 + 3] = v.w;
      } else {
        const int r = e / BK, kk = e % BK;
        an[l] = A[(size_t)(row0 + r) * n + k0 + kk];
      }
    }
#pragma unroll
    for (int l = 0; l < BL; l++) {
      const int e = tid + l * NT;
      if constexpr (VEC) {
        const int c = e % (BN / 4) * 4, kk = e / (BN / 4);
        float4 v = *reinterpret_cast<const float4 *>(&B[(size_t)(k0 + kk) * n + col0 + c]);
        bn[l * 4] = v.x; bn[l * 4 + 1] = v.y; bn[l * 4 + 2] = v.z; bn[l * 4 + 3] = v.w;
      } else {
        const int c = e % BN, kk = e / BN;
        bn[l] = B[(size_t)(k0 + kk) * n + col0 + c];
      }
    }
  };
  auto sstore = [&](int buf) {
#pragma unroll
    for (int l = 0; l < AL; l++) {
      const int e = tid + l * NT;
      if constexpr (VEC) {
        const int r = e / (BK / 4), kk = e % (BK / 4) * 4;
#pragma unroll
        for (int v = 0; v < 4; v++) As[buf][kk + v][r] = an[l * 4 + v];
      } else {
        const int r = e / BK, kk = e % BK;
        As[buf][kk][r] = an[l];
      }
    }
#pragma unroll
    for (int l = 0; l < BL; l++) {
      const int e = tid + l * NT;
      if constexpr (VEC) {
        const int c = e % (BN / 4) * 4, kk = e / (BN / 4);
        *reinterpret_cast<float4 *>(&Bs[buf][kk][c]) = make_float4(bn[l * 4], bn[l * 4 + 1], bn[l * 4 + 2], bn[l * 4 + 3]);
      } else {
        const int c = e % BN, kk = e / BN;
        Bs[buf][kk][c] = bn[l];
      }
    }
  };
  gload(0);
  sstore(0);
  __syncthreads();
  int buf = 0;
  for (int k0 = 0; k0 < n; k0 += BK) {
    const bool more = k0 + BK < n;
    if (more) gload(k0 + BK);
    float ar[2][TM], br[2][TN];
    auto frag = [&](int s, int kk) {
#pragma unroll
      for (int i = 0; i < TM; i++) ar[s][i] = As[buf][kk][ty * TM + i];
#pragma unroll
      for (int q = 0; q < TN / 4; q++)
#pragma unroll
        for (int v = 0; v < 4; v++) br[s][q * 4 + v] = Bs[buf][kk][q * NTX * 4 + tx * 4 + v];
    };
    if constexpr (FRAG2) frag(0, 0);
#pragma unroll
    for (int kk = 0; kk < BK; kk++) {
      const int s = FRAG2 ? kk % 2 : 0;
      if constexpr (FRAG2) { if (kk + 1 < BK) frag((kk + 1) % 2, kk + 1); }
      else frag(0, kk);
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] += ar[s][i] * br[s][j];
    }
    if (more) sstore(buf ^ 1);
    __syncthreads();
    buf ^= 1;
  }
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int q = 0; q < TN / 4; q++) {
      const int r = row0 + ty * TM + i, c = col0 + q * NTX * 4 + tx * 4;
      *reinterpret_cast<float4 *>(&C[(size_t)r * n + c]) = make_float4(acc[i][q * 4], acc[i][q * 4 + 1], acc[i][q * 4 + 2], acc[i][q * 4 + 3]);
    }
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

template <int BM, int BN, int BK, int TM, int TN, bool VEC, int WR, bool FRAG2>
static void run(const char *name, int n, int reps, const float *A, const float *B, float *C, const std::vector<float> &ref, float cub_ms) {
  constexpr int NT = (BM / TM) * (BN / TN);
  if (n % BM || n % BN || n % BK) return;
  auto k = sgemm<BM, BN, BK, TM, TN, VEC, WR, FRAG2>;
  cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, k));
  dim3 grid(n / BN, n / BM);
  CK(cudaMemset(C, 0xff, (size_t)n * n * 4));
  k<<<grid, NT>>>(A, B, C, n); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<float> h((size_t)n * n);
  CK(cudaMemcpy(h.data(), C, h.size() * 4, cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (size_t i = 0; i < h.size(); i++) { double d = h[i] - ref[i]; num += d * d; den += (double)ref[i] * ref[i]; }
  double err = std::isfinite(num) ? sqrt(num / den) : 1e9;
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (int w = 0; w < 3; w++) k<<<grid, NT>>>(A, B, C, n);
  std::vector<float> t;
  for (int r = 0; r < reps; r++) {
    CK(cudaEventRecord(e0)); k<<<grid, NT>>>(A, B, C, n); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms);
  }
  CK(cudaGetLastError());
  float ms = median(t);
  printf("%-34s n=%5d %8.4f ms %6.1f TF/s %6.1f%% cuBLAS regs %3d err %.1e%s\n", name, n, ms, 2.0 * n * n * (double)n / ms / 1e9,
         100.0 * cub_ms / ms, fa.numRegs, err, err > 1e-5 ? " WRONG" : "");
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2048, reps = argc > 2 ? atoi(argv[2]) : 30;
  size_t nn = (size_t)n * n;
  std::vector<float> ha(nn), hb(nn);
  srand(1);
  for (auto &x : ha) x = (float)rand() / RAND_MAX - 0.5f;
  for (auto &x : hb) x = (float)rand() / RAND_MAX - 0.5f;
  float *A, *B, *C;
  CK(cudaMalloc(&A, nn * 4)); CK(cudaMalloc(&B, nn * 4)); CK(cudaMalloc(&C, nn * 4));
  CK(cudaMemcpy(A, ha.data(), nn * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(B, hb.data(), nn * 4, cudaMemcpyHostToDevice));
  cublasHandle_t h; cublasCreate(&h); cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
  float one = 1, zero = 0;
  auto cub = [&]() { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n); };
  cub(); CK(cudaDeviceSynchronize());
  std::vector<float> ref(nn);
  CK(cudaMemcpy(ref.data(), C, nn * 4, cudaMemcpyDeviceToHost));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  auto time_cublas = [&]() {
    for (int w = 0; w < 3; w++) cub();
    std::vector<float> t;
    for (int r = 0; r < reps; r++) { CK(cudaEventRecord(e0)); cub(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms); }
    return median(t);
  };
  float cms = time_cublas();
  printf("cublasSgemm FP32 n=%d %.4f ms %.1f TF/s\n", n, cms, 2.0 * n * n * (double)n / cms / 1e9);
  //        BM   BN  BK TM TN  VEC  WR FRAG2
  run<128, 128, 8, 8, 8, false, 0, false>("128x128 bk8 8x8 (the pass today)", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, true, 0, false>("+ float4 global", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, true, 4, false>("+ float4, warp 4x8", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, true, 8, false>("+ float4, warp 8x4", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, true, 4, true>("+ float4, warp 4x8, frag2", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, false, 4, false>("warp 4x8 only", n, reps, A, B, C, ref, cms);
  run<128, 128, 16, 8, 8, true, 4, false>("bk16 float4 warp 4x8", n, reps, A, B, C, ref, cms);
  run<128, 128, 16, 8, 8, true, 0, false>("bk16 float4", n, reps, A, B, C, ref, cms);
  run<128, 256, 8, 8, 16, true, 4, false>("128x256 8x16 float4 warp4x8", n, reps, A, B, C, ref, cms);
  run<256, 128, 8, 16, 8, true, 4, false>("256x128 16x8 float4 warp4x8", n, reps, A, B, C, ref, cms);
  run<128, 64, 8, 8, 8, true, 4, false>("128x64 8x8 float4 warp4x8", n, reps, A, B, C, ref, cms);
  run<64, 128, 8, 8, 8, true, 4, false>("64x128 8x8 float4 warp4x8", n, reps, A, B, C, ref, cms);
  run<64, 64, 8, 8, 8, true, 4, false>("64x64 8x8 float4 warp4x8", n, reps, A, B, C, ref, cms);
  run<128, 128, 16, 8, 4, true, 4, false>("128x128 bk16 8x4 float4 warp4x8", n, reps, A, B, C, ref, cms);
  float cms2 = time_cublas();
  printf("cublasSgemm again %.4f ms (spread %.1f%%)\n", cms2, 100.0 * fabs(cms2 - cms) / cms);
  return 0;
}
