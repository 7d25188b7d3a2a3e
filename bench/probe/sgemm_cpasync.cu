// sgemm_cpasync: does staging the tiles with cp.async (LDGSTS, sm_80+) beat the tile pass's register
// prefetch for FP32 SGEMM on Hopper, and how should the k-major A tile be filled? One kernel with the
// pass's structure (block (16,16): tx = tid % 16, ty = tid / 16; BMxBN block tile, BK steps of k;
// TMxTN register tile, B columns interleaved in 16-byte groups; fragments of kk+1 read before the
// FMAs of kk), and the ways of staging a step's tiles:
//   REG1   the pass today (prefetch=1, vec=4): the next step's tiles in registers (float4 loads),
//          stored to one shared buffer, two barriers a step
//   REG2   the same with two shared buffers (prefetch=2): one barrier a step
//   CPA    cp.async into S shared stages, one barrier a step: B 16 bytes a copy; A stays k-major
//          (transposed), so each of its elements is its own 4-byte copy (what CUTLASS's SIMT
//          multistage mainloop does for a row-major A: default_mma_core_sm80.h, kElementsPerAccess 1,
//          SmemLayoutA ColumnMajor)
//   CPAR   cp.async with A row-major in shared memory (16-byte copies of 4 consecutive k), the A
//          fragments read as float4 along k (4 values of k for one row); a thread's 8 rows split
//          in two groups of 4 half a tile apart so the two rows of threads in a warp hit
//          different banks
// Build: nvcc -O3 -arch=sm_90 -std=c++17 -o cpasync bench/probe/sgemm_cpasync.cu -lcublas
// Run:   for n in 1024 2048 4096; do ./cpasync $n 50; done
// Each line: median time, % of cublasSgemm (FP32, CUBLAS_PEDANTIC_MATH: no TF32), registers,
// static shared bytes, and the relative L2 error against cuBLAS's result (WRONG above 1e-5).
// Sizes must be multiples of 128 (this probes speed; the pass's output handles any size).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cublas_v2.h>
#include <cuda_pipeline.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

enum Mode { REG1, REG2, CPA, CPAR };

template <int BM, int BN, int BK, int TM, int TN, int MODE, int S>
struct Cfg {
  static constexpr int TX = BN / TN, NT = TX * (BM / TM);
  static constexpr int PA = 4;   // A k-major: [BK][BM+4] (the pass's padding); row-major: [BM][BK+4] (16-byte rows)
  static constexpr int NBUF = MODE == REG1 ? 1 : MODE == REG2 ? 2 : S;
  static constexpr int A_ROWS = MODE == CPAR ? BM : BK, A_COLS = MODE == CPAR ? BK + PA : BM + PA;
};

template <int BM, int BN, int BK, int TM, int TN, int MODE, int S>
__global__ __launch_bounds__((BM / TM) * (BN / TN)) void sgemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                                               int n) {
  using G = Cfg<BM, BN, BK, TM, TN, MODE, S>;
  constexpr int TX = G::TX, NT = G::NT, NB = G::NBUF;
  __shared__ __align__(16) float As[NB][G::A_ROWS][G::A_COLS];
  __shared__ __align__(16) float Bs[NB][BK][BN];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0.f;
  constexpr int AV = BM * BK / 4 / NT, BV = BK * BN / 4 / NT;   // 16-byte groups a thread moves per step
  constexpr int AE = BM * BK / NT;                               // A elements a thread moves per step
  static_assert(AV >= 1 && BV >= 1, "tile too small for the threads");
  // the row of the A tile holding a thread's i-th output row (CPAR: two groups of TM/2, half a tile apart)
  auto arow = [&](int i) { return MODE == CPAR ? (i / (TM / 2)) * (BM / 2) + ty * (TM / 2) + i % (TM / 2) : ty * TM + i; };

  // ---- register prefetch (REG1, REG2): float4 loads, A stored transposed element by element ----
  float an[AV * 4], bn[BV * 4];
  auto gload = [&](int k0) {
#pragma unroll
    for (int l = 0; l < AV; l++) {
      const int e = tid + l * NT, r = e / (BK / 4), kk = e % (BK / 4) * 4;
      const float4 v = *reinterpret_cast<const float4 *>(&A[(size_t)(row0 + r) * n + k0 + kk]);
      an[l * 4] = v.x; an[l * 4 + 1] = v.y; an[l * 4 + 2] = v.z; an[l * 4 + 3] = v.w;
    }
#pragma unroll
    for (int l = 0; l < BV; l++) {
      const int e = tid + l * NT, c = e % (BN / 4) * 4, kk = e / (BN / 4);
      const float4 v = *reinterpret_cast<const float4 *>(&B[(size_t)(k0 + kk) * n + col0 + c]);
      bn[l * 4] = v.x; bn[l * 4 + 1] = v.y; bn[l * 4 + 2] = v.z; bn[l * 4 + 3] = v.w;
    }
  };
  auto sstore = [&](int buf) {
#pragma unroll
    for (int l = 0; l < AV; l++) {
      const int e = tid + l * NT, r = e / (BK / 4), kk = e % (BK / 4) * 4;
#pragma unroll
      for (int v = 0; v < 4; v++) As[buf][kk + v][r] = an[l * 4 + v];
    }
#pragma unroll
    for (int l = 0; l < BV; l++) {
      const int e = tid + l * NT, c = e % (BN / 4) * 4, kk = e / (BN / 4);
#pragma unroll
      for (int v = 0; v < 4; v++) Bs[buf][kk][c + v] = bn[l * 4 + v];
    }
  };
  // ---- async copies (CPA, CPAR): one step's tiles into stage `buf` ----
  auto issue = [&](int k0, int buf) {
    if constexpr (MODE == CPA) {
#pragma unroll
      for (int l = 0; l < AE; l++) {   // 4-byte copies: 8 consecutive k of a row per 8 lanes (a 32-byte sector)
        const int e = tid + l * NT, r = e / BK, kk = e % BK;
        __pipeline_memcpy_async(&As[buf][kk][r], &A[(size_t)(row0 + r) * n + k0 + kk], 4);
      }
    } else {
#pragma unroll
      for (int l = 0; l < AV; l++) {
        const int e = tid + l * NT, r = e / (BK / 4), kk = e % (BK / 4) * 4;
        __pipeline_memcpy_async(&As[buf][r][kk], &A[(size_t)(row0 + r) * n + k0 + kk], 16);
      }
    }
#pragma unroll
    for (int l = 0; l < BV; l++) {
      const int e = tid + l * NT, c = e % (BN / 4) * 4, kk = e / (BN / 4);
      __pipeline_memcpy_async(&Bs[buf][kk][c], &B[(size_t)(k0 + kk) * n + col0 + c], 16);
    }
  };
  // ---- one step of k from stage `buf`: fragments of kk+1 read before the FMAs of kk ----
  auto compute = [&](int buf) {
    float br[2][TN];
    auto bfrag = [&](int s, int kk) {
#pragma unroll
      for (int q = 0; q < TN / 4; q++)
#pragma unroll
        for (int v = 0; v < 4; v++) br[s][q * 4 + v] = Bs[buf][kk][q * TX * 4 + tx * 4 + v];
    };
    if constexpr (MODE == CPAR) {
      float ar[TM][4];   // 4 k of each row, one 128-bit shared load a row per 4 k
#pragma unroll
      for (int k4 = 0; k4 < BK; k4 += 4) {
#pragma unroll
        for (int i = 0; i < TM; i++) {
          const float4 v = *reinterpret_cast<const float4 *>(&As[buf][arow(i)][k4]);
          ar[i][0] = v.x; ar[i][1] = v.y; ar[i][2] = v.z; ar[i][3] = v.w;
        }
        bfrag(0, k4);
#pragma unroll
        for (int d = 0; d < 4; d++) {
          if (d + 1 < 4) bfrag((d + 1) & 1, k4 + d + 1);
#pragma unroll
          for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++) acc[i][j] += ar[i][d] * br[d & 1][j];
        }
      }
    } else {
      float ar[2][TM];
      auto afrag = [&](int s, int kk) {
#pragma unroll
        for (int i = 0; i < TM; i++) ar[s][i] = As[buf][kk][arow(i)];
      };
      afrag(0, 0);
      bfrag(0, 0);
#pragma unroll
      for (int kk = 0; kk < BK; kk++) {
        if (kk + 1 < BK) { afrag((kk + 1) & 1, kk + 1); bfrag((kk + 1) & 1, kk + 1); }
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
          for (int j = 0; j < TN; j++) acc[i][j] += ar[kk & 1][i] * br[kk & 1][j];
      }
    }
  };

  const int nk = n / BK;
  if constexpr (MODE == REG1) {   // the pass's prefetch=1
    gload(0);
    for (int t = 0; t < nk; t++) {
      sstore(0);
      __syncthreads();
      if (t + 1 < nk) gload((t + 1) * BK);
      compute(0);
      __syncthreads();
    }
  } else if constexpr (MODE == REG2) {   // the pass's prefetch=2
    gload(0);
    sstore(0);
    __syncthreads();
    int buf = 0;
    for (int t = 0; t < nk; t++) {
      const bool more = t + 1 < nk;
      if (more) gload((t + 1) * BK);
      compute(buf);
      if (more) sstore(buf ^ 1);
      __syncthreads();
      buf ^= 1;
    }
  } else {   // S stages: the copies of step t + S - 1 are issued while step t computes
#pragma unroll
    for (int s = 0; s < S - 1; s++) {
      if (s < nk) issue(s * BK, s);
      __pipeline_commit();
    }
    int cur = 0, nxt = S - 1;
    for (int t = 0; t < nk; t++) {
      __pipeline_wait_prior(S - 2);   // this thread's copies of step t have landed
      __syncthreads();                // everyone's have; and everyone is done reading stage nxt (step t - 1)
      if (t + S - 1 < nk) issue((t + S - 1) * BK, nxt);
      __pipeline_commit();            // an empty group near the end keeps the count uniform
      compute(cur);
      cur = cur + 1 == S ? 0 : cur + 1;
      nxt = nxt + 1 == S ? 0 : nxt + 1;
    }
  }
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int q = 0; q < TN / 4; q++) {
      const int r = row0 + arow(i), c = col0 + q * TX * 4 + tx * 4;
      *reinterpret_cast<float4 *>(&C[(size_t)r * n + c]) = make_float4(acc[i][q * 4], acc[i][q * 4 + 1], acc[i][q * 4 + 2], acc[i][q * 4 + 3]);
    }
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

template <int BM, int BN, int BK, int TM, int TN, int MODE, int S>
static void run(const char *name, int n, int reps, const float *A, const float *B, float *C, const std::vector<float> &ref, float cub_ms) {
  using G = Cfg<BM, BN, BK, TM, TN, MODE, S>;
  if (n % BM || n % BN || n % BK) return;
  auto k = sgemm<BM, BN, BK, TM, TN, MODE, S>;
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, k));
  dim3 grid(n / BN, n / BM), block(G::TX, BM / TM);
  CK(cudaMemset(C, 0xff, (size_t)n * n * 4));
  k<<<grid, block>>>(A, B, C, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> h((size_t)n * n);
  CK(cudaMemcpy(h.data(), C, h.size() * 4, cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (size_t i = 0; i < h.size(); i++) { double d = h[i] - ref[i]; num += d * d; den += (double)ref[i] * ref[i]; }
  double err = std::isfinite(num) ? sqrt(num / den) : 1e9;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (int w = 0; w < 3; w++) k<<<grid, block>>>(A, B, C, n);
  std::vector<float> t;
  for (int r = 0; r < reps; r++) {
    CK(cudaEventRecord(e0)); k<<<grid, block>>>(A, B, C, n); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms);
  }
  CK(cudaGetLastError());
  float ms = median(t);
  printf("%-40s n=%5d %8.4f ms %6.1f TF/s %6.1f%% cuBLAS regs %3d smem %6zu err %.1e%s\n", name, n, ms, 2.0 * n * n * (double)n / ms / 1e9,
         100.0 * cub_ms / ms, fa.numRegs, fa.sharedSizeBytes, err, err > 1e-5 ? " WRONG" : "");
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
  CK(cudaMemcpy(A, ha.data(), nn * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B, hb.data(), nn * 4, cudaMemcpyHostToDevice));
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
  float one = 1, zero = 0;
  auto cub = [&]() { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n); };   // row-major C = A B
  cub();
  CK(cudaDeviceSynchronize());
  std::vector<float> ref(nn);
  CK(cudaMemcpy(ref.data(), C, nn * 4, cudaMemcpyDeviceToHost));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  auto time_cublas = [&]() {
    for (int w = 0; w < 3; w++) cub();
    std::vector<float> t;
    for (int r = 0; r < reps; r++) { CK(cudaEventRecord(e0)); cub(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms); }
    return median(t);
  };
  float cms = time_cublas();
  printf("cublasSgemm FP32 n=%d %.4f ms %.1f TF/s\n", n, cms, 2.0 * n * n * (double)n / cms / 1e9);
  //   BM   BN BK TM TN MODE  S
  run<128, 128, 8, 8, 8, REG1, 0>("REG1 prefetch=1 (the pass's default)", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, REG2, 0>("REG2 prefetch=2", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, CPA, 2>("CPA 2 stages, A 4-byte k-major", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, CPA, 3>("CPA 3 stages, A 4-byte k-major", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, CPA, 4>("CPA 4 stages, A 4-byte k-major", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, CPAR, 2>("CPAR 2 stages, A 16-byte row-major", n, reps, A, B, C, ref, cms);
  run<128, 128, 8, 8, 8, CPAR, 3>("CPAR 3 stages, A 16-byte row-major", n, reps, A, B, C, ref, cms);
  run<128, 128, 16, 8, 8, REG1, 0>("REG1 bk16", n, reps, A, B, C, ref, cms);
  run<128, 128, 16, 8, 8, CPA, 2>("CPA 2 stages bk16", n, reps, A, B, C, ref, cms);
  run<128, 128, 16, 8, 8, CPAR, 2>("CPAR 2 stages bk16", n, reps, A, B, C, ref, cms);
  run<64, 64, 8, 8, 8, REG1, 0>("64x64 8x8 REG1", n, reps, A, B, C, ref, cms);
  run<64, 64, 8, 8, 8, CPA, 3>("64x64 8x8 CPA 3 stages", n, reps, A, B, C, ref, cms);
  float cms2 = time_cublas();
  printf("cublasSgemm again %.4f ms (spread %.1f%%)\n", cms2, 100.0 * fabs(cms2 - cms) / cms);
  return 0;
}
