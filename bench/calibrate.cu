// calibrate: measure the present GPU once and print ONE JSON object on stdout.
//
// Build: nvcc -arch=sm_90 -O3 bench/calibrate.cu -o calibrate
// Run:   ./calibrate [device]         (progress and errors go to stderr; exit 3 on a CUDA error)
//
// The numbers feed carve's machine model (src/arch): they replace datasheet figures with what
// this card, at the clocks it runs at, actually does. Nothing here changes clocks or settings.
//
// Method, shared by all measurements: CUDA events around the timed region, warm-up runs first
// (module load, first-touch, clock ramp), then the median of REPS timed runs; min and max go
// into "detail". Every CUDA call is checked (CK), and every kernel launch is followed by
// cudaGetLastError. Every kernel writes a result that depends on all of its work, so the
// compiler cannot drop the work.
//
//  copy_gbps           cudaMemcpyAsync device-to-device of a 1 GiB buffer (capped at 1/8 of
//                      device memory); bytes read + bytes written (2 x size) / time.
//  dram_read_gbps      streaming-read kernel over a 1 GiB buffer (>> L2): each thread does
//                      grid-stride 16-byte loads (float4), 4 independent loads in flight per
//                      iteration, and sums them; grid = SMs x max resident blocks (occupancy
//                      API), 256 threads. bytes read / time.
//  fp32_gflops         FMA chains: 8 independent accumulators per thread, each
//                      acc = fmaf(acc, m, a) with m and a kernel arguments, 64 FMA per loop
//                      trip; full occupancy (occupancy API), one full wave. 2 FLOP per FMA.
//  shared_gbps         each block fills a 16 KB __shared__ float4 array, then every thread
//                      reads 8 float4 per loop trip at index (base + 64 j) mod 1024, base a
//                      multiple of 8 per quarter-warp: each quarter-warp reads 128 contiguous
//                      aligned bytes, i.e. all 32 banks once (conflict-free, 4 wavefronts per
//                      LDS.128). Full occupancy. bytes loaded from shared / time.
//  l2_gbps             a buffer of about L2/4 is first read once, then read `passes` times per
//                      kernel with ld.global.cg (__ldcg: cached in L2, not in L1), 16-byte
//                      loads, the start rotated each pass; full occupancy. bytes / time.
//  global_latency_*    pointer chase by one thread: a random cyclic permutation of 128-byte
//                      slots over max(4 x L2, 256 MB) (every step a new line, no slot visited
//                      twice in a run), loads are ld.global.cg; L2 flushed before each run by a
//                      memset of a 1 GiB buffer. cycles = clock64 delta / steps (SM clock);
//                      ns = event time / steps. Includes any TLB misses of random access.
//  l2_latency_*        the same chase over a buffer of about L2/4, made L2-resident first by
//                      reading it in parallel (ld.global.cg); on Hopper the L2 is two
//                      partitions, so this is the average over near and far hits.
//  l1_latency_cycles   one thread chases a random cyclic permutation of 128-byte slots over
//                      16 KB with plain loads (ld.global.ca: cached in L1), once to fill L1,
//                      then timed by clock64: the load-to-use latency of an L1 hit.
//  sm_clock_measured_mhz  clock64 cycles / event time of the DRAM chase kernel.
//  launch_overhead_us  an empty kernel <<<1,1>>> launched N times back to back on one
//                      stream between two events; time / N (launch throughput, GPU side).
//  launch_sync_us      extra: host wall time of one launch + cudaStreamSynchronize (round trip).
//  barrier_ns          one block of 1024 threads runs a loop of __syncthreads(); two loop
//                      counts (N1, N2) are timed with events and barrier_ns =
//                      (t2 - t1) / (N2 - N1), which cancels launch and fixed costs;
//                      barrier_cycles = the clock64 delta of thread 0, differenced the same way.
//  shared_latency_cycles  one thread chases a random cyclic permutation of 4096 ints in shared
//                      memory (each load's address is the previous load's value); clock64
//                      delta / steps.
//
// Notes: ld.global.cg compiles to LDG.E.STRONG.GPU on sm_90 (served by L2, not L1). The chase
// step also pays its address arithmetic (one IMAD.WIDE), a few cycles of the figure.
// Total run time: 0.55-0.73 s wall per run on an H100 and an H200 here (2026-11-22), most of it
// context creation and allocation.

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      fprintf(stderr, "%s:%d: CUDA error %s: %s (in %s)\n", __FILE__, __LINE__,                \
              cudaGetErrorName(e_), cudaGetErrorString(e_), #x);                                \
      exit(3);                                                                                  \
    }                                                                                           \
  } while (0)
#define CKL() CK(cudaGetLastError())

static const int REPS = 9;  // timed repetitions per measurement (median reported)
static const int WARM = 2;  // untimed warm-up runs

// ------------------------------------------------------------------------------------------
// kernels
// ------------------------------------------------------------------------------------------

__global__ void k_init(float4 *p, size_t n4) {
  size_t T = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += T) {
    float v = (float)(i % 1021) * 1e-3f;
    p[i] = make_float4(v, v + 1e-3f, v + 2e-3f, v + 3e-3f);
  }
}

__global__ void k_empty() {}

// Streaming read: grid-stride float4 loads, 4 independent loads per trip.
__global__ void k_read(const float4 *__restrict__ in, size_t n4, float *__restrict__ out) {
  size_t T = (size_t)gridDim.x * blockDim.x;
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float4 a = make_float4(0.f, 0.f, 0.f, 0.f), b = a;
  size_t i = tid;
  for (; i + 3 * T < n4; i += 4 * T) {
    float4 v0 = in[i], v1 = in[i + T], v2 = in[i + 2 * T], v3 = in[i + 3 * T];
    a.x += v0.x + v1.x; a.y += v0.y + v1.y; a.z += v0.z + v1.z; a.w += v0.w + v1.w;
    b.x += v2.x + v3.x; b.y += v2.y + v3.y; b.z += v2.z + v3.z; b.w += v2.w + v3.w;
  }
  for (; i < n4; i += T) {
    float4 v = in[i];
    a.x += v.x; a.y += v.y; a.z += v.z; a.w += v.w;
  }
  out[tid] = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
}

// L2 read: n4 = K * T float4 (T = threads in the grid), read `passes` times through L2 only.
__global__ void k_l2(const float4 *__restrict__ in, int K, int passes, float *__restrict__ out) {
  unsigned T = gridDim.x * blockDim.x;
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned n4 = (unsigned)K * T;
  float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int p = 0; p < passes; ++p) {
    unsigned j = tid + (unsigned)(((unsigned long long)p * 4096ull) % n4);
    if (j >= n4) j -= n4;
#pragma unroll 4
    for (int k = 0; k < K; ++k) {
      float4 v = __ldcg(in + j);
      a.x += v.x; a.y += v.y; a.z += v.z; a.w += v.w;
      j += T;
      if (j >= n4) j -= n4;
    }
  }
  out[tid] = a.x + a.y + a.z + a.w;
}

// FP32 FMA throughput: 8 independent chains, 64 FMA per trip.
__global__ void k_fma(float *__restrict__ out, int iters, float m, float c) {
  float acc[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) acc[j] = (float)threadIdx.x * 1e-6f + (float)j;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
#pragma unroll
      for (int j = 0; j < 8; ++j) acc[j] = fmaf(acc[j], m, c);
    }
  }
  float s = 0.f;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += acc[j];
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Shared-memory load bandwidth, conflict-free LDS.128.
#define SH_N 1024  // float4 elements = 16 KB
__global__ void __launch_bounds__(256, 8) k_shared(float *__restrict__ out, int iters) {
  __shared__ float4 s[SH_N];
  for (int i = threadIdx.x; i < SH_N; i += blockDim.x)
    s[i] = make_float4((float)i, (float)i + 0.5f, (float)i + 0.25f, (float)i + 0.125f);
  __syncthreads();
  float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
  unsigned base = threadIdx.x;  // warp w, quarter q: 32w + 8q + lane%8
#pragma unroll 1
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      float4 v = s[(base + 64u * j) & (SH_N - 1)];
      a.x += v.x; a.y += v.y; a.z += v.z; a.w += v.w;
    }
    base += 512u;  // multiple of 8: keeps each quarter-warp on 8 contiguous aligned float4
  }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = a.x + a.y + a.z + a.w;
}

__device__ __forceinline__ unsigned ld_cg_u32(const unsigned *p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// Build the chase: slot order[i] points to slot order[i+1] (word index of the slot's first word).
__global__ void k_scatter(unsigned *buf, const unsigned *__restrict__ order, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[(size_t)order[i] * 32u] = order[i + 1 == n ? 0 : i + 1] * 32u;
}

// Bring a buffer into L2 (loads through L2 only); the sum is written so the loads stay.
__global__ void k_touch(const unsigned *__restrict__ buf, size_t nwords, unsigned *out) {
  size_t T = (size_t)gridDim.x * blockDim.x;
  unsigned s = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += T) s += ld_cg_u32(buf + i);
  if (s == 0xdeadbeefu) out[0] = s;
}

// One thread follows the chain for `steps` loads.
__global__ void k_chase(const unsigned *buf, unsigned start, int steps, unsigned *out_p, long long *out_cyc) {
  unsigned p = start;
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) p = ld_cg_u32(buf + p);
  long long t1 = clock64();
  out_p[0] = p;
  out_cyc[0] = t1 - t0;
}

// The same chase with loads that L1 caches: the first pass fills L1, the second is timed.
__global__ void k_chase_l1(const unsigned *buf, unsigned start, int steps, unsigned *out_p, long long *out_cyc) {
  unsigned p = start;
  for (int i = 0; i < steps; ++i) p = __ldca(buf + p);
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) p = __ldca(buf + p);
  long long t1 = clock64();
  out_p[0] = p;
  out_cyc[0] = t1 - t0;
}

// A loop of block barriers; thread 0 records the clock64 delta.
__global__ void k_barrier(int iters, long long *out) {
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) out[0] = t1 - t0;
}

// Shared-memory pointer chase by one thread: load-to-use latency of LDS.
__global__ void k_smem_chase(const int *perm, int steps, int *out_p, long long *out_cyc) {
  __shared__ int s[4096];
  for (int i = 0; i < 4096; ++i) s[i] = perm[i];
  __syncthreads();
  int p = 0;
  for (int i = 0; i < 64; ++i) p = s[p];   // warm
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) p = s[p];
  long long t1 = clock64();
  out_p[0] = p;
  out_cyc[0] = t1 - t0;
}

// ------------------------------------------------------------------------------------------
// host helpers
// ------------------------------------------------------------------------------------------

static cudaEvent_t ev0, ev1;

struct Stat {
  double med, min, max;
};

template <class F>
static float time_once(F &&f) {
  CK(cudaEventRecord(ev0));
  f();
  CK(cudaEventRecord(ev1));
  CK(cudaEventSynchronize(ev1));
  float ms = 0.f;
  CK(cudaEventElapsedTime(&ms, ev0, ev1));
  return ms;
}

static Stat stat_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return {med, v.front(), v.back()};
}

// Time f() REPS times after WARM warm-ups; returns milliseconds.
template <class F>
static Stat time_ms(F &&f, int warm = WARM, int reps = REPS) {
  for (int i = 0; i < warm; ++i) time_once(f);
  std::vector<double> v;
  for (int i = 0; i < reps; ++i) v.push_back(time_once(f));
  return stat_of(v);
}

// A rate from a time statistic: amount / time, so the min time gives the max rate.
static Stat rate(const Stat &ms, double amount, double unit) {
  return {amount / (ms.med * 1e-3) / unit, amount / (ms.max * 1e-3) / unit, amount / (ms.min * 1e-3) / unit};
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t splitmix64() {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Random order of n slots; following order[] visits every slot once (one cycle).
static std::vector<unsigned> random_order(unsigned n) {
  std::vector<unsigned> o(n);
  for (unsigned i = 0; i < n; ++i) o[i] = i;
  for (unsigned i = n - 1; i > 0; --i) std::swap(o[i], o[splitmix64() % (i + 1ull)]);
  return o;
}

static std::string json_str(const char *s) {
  std::string r = "\"";
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') { r += '\\'; r += (char)c; }
    else if (c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); r += b; }
    else r += (char)c;
  }
  return r + "\"";
}

static int blocks_per_sm(const void *kernel, int threads, size_t dyn_smem = 0) {
  int b = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, threads, dyn_smem));
  if (b < 1) {
    fprintf(stderr, "calibrate: kernel cannot run with %d threads per block\n", threads);
    exit(3);
  }
  return b;
}

// Chase `steps` loads from *pos; returns cycles and ms per load, advances *pos.
struct Chase {
  double cycles, ns;
};
static Chase chase_once(const unsigned *buf, unsigned *pos, int steps, unsigned *d_p, long long *d_cyc) {
  float ms = time_once([&] {
    k_chase<<<1, 1>>>(buf, *pos, steps, d_p, d_cyc);
    CKL();
  });
  long long cyc = 0;
  CK(cudaMemcpy(&cyc, d_cyc, sizeof cyc, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(pos, d_p, sizeof *pos, cudaMemcpyDeviceToHost));
  return {(double)cyc / steps, ms * 1e6 / steps};
}

int main(int argc, char **argv) {
  int dev = argc > 1 ? atoi(argv[1]) : 0;
  CK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  int clock_khz = 0, mem_clock_khz = 0, bus_bits = 0;
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  CK(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, dev));
  CK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
  const int sms = prop.multiProcessorCount;
  const size_t l2 = prop.l2CacheSize > 0 ? (size_t)prop.l2CacheSize : (size_t)4 << 20;
  fprintf(stderr, "calibrate: %s, cc %d.%d, %d SMs, %d MHz, L2 %zu B\n", prop.name, prop.major, prop.minor, sms,
          clock_khz / 1000, l2);

  CK(cudaEventCreate(&ev0));
  CK(cudaEventCreate(&ev1));
  auto wall0 = std::chrono::steady_clock::now();

  // ---- buffers ----
  size_t big = (size_t)1 << 30;
  if (big > prop.totalGlobalMem / 8) big = (prop.totalGlobalMem / 8) & ~(size_t)0xfffff;
  float4 *src = nullptr, *dst = nullptr;
  CK(cudaMalloc(&src, big));
  CK(cudaMalloc(&dst, big));
  k_init<<<sms * 8, 256>>>(src, big / 16);
  CKL();
  k_init<<<sms * 8, 256>>>(dst, big / 16);
  CKL();
  const size_t out_n = (size_t)sms * 2048 * 2;  // >= threads of any full-occupancy grid below
  float *d_out = nullptr;
  CK(cudaMalloc(&d_out, out_n * sizeof(float)));
  CK(cudaDeviceSynchronize());

  // ---- copy ----
  fprintf(stderr, "calibrate: copy\n");
  Stat copy_ms = time_ms([&] { CK(cudaMemcpyAsync(dst, src, big, cudaMemcpyDeviceToDevice)); });
  Stat copy = rate(copy_ms, 2.0 * big, 1e9);

  // ---- DRAM read ----
  fprintf(stderr, "calibrate: dram read\n");
  const int rt = 256;
  int rgrid = sms * blocks_per_sm((const void *)k_read, rt);
  Stat read_ms = time_ms([&] {
    k_read<<<rgrid, rt>>>(src, big / 16, d_out);
    CKL();
  });
  Stat dram_read = rate(read_ms, (double)(big / 16) * 16.0, 1e9);

  // ---- FP32 FMA ----
  fprintf(stderr, "calibrate: fp32\n");
  const int ft = 256, f_iters = 2048;
  int fgrid = sms * blocks_per_sm((const void *)k_fma, ft);
  Stat fma_ms = time_ms([&] {
    k_fma<<<fgrid, ft>>>(d_out, f_iters, 0.99999f, 1e-6f);
    CKL();
  });
  double flops = (double)fgrid * ft * f_iters * 64.0 * 2.0;
  Stat fp32 = rate(fma_ms, flops, 1e9);

  // ---- shared ----
  fprintf(stderr, "calibrate: shared\n");
  const int st = 256, s_iters = 1024;
  int sgrid = sms * blocks_per_sm((const void *)k_shared, st);
  Stat sh_ms = time_ms([&] {
    k_shared<<<sgrid, st>>>(d_out, s_iters);
    CKL();
  });
  double sh_bytes = (double)sgrid * st * s_iters * 8.0 * 16.0;
  Stat shared = rate(sh_ms, sh_bytes, 1e9);

  // ---- L2 bandwidth ----
  fprintf(stderr, "calibrate: l2 bandwidth\n");
  const int lt = 256;
  int lgrid = sms * blocks_per_sm((const void *)k_l2, lt);
  size_t lthreads = (size_t)lgrid * lt;
  int K = (int)std::max<size_t>(1, (l2 / 4) / (lthreads * 16));
  size_t l2buf_bytes = (size_t)K * lthreads * 16;
  int passes = (int)std::max<double>(8.0, 4e9 / (double)l2buf_bytes);
  // reads src's first l2buf_bytes; warm-ups make it L2-resident
  Stat l2_ms = time_ms([&] {
    k_l2<<<lgrid, lt>>>(src, K, passes, d_out);
    CKL();
  });
  Stat l2bw = rate(l2_ms, (double)passes * (double)l2buf_bytes, 1e9);

  // ---- latency: DRAM chase ----
  fprintf(stderr, "calibrate: dram latency\n");
  unsigned *d_p = nullptr;
  long long *d_cyc = nullptr;
  CK(cudaMalloc(&d_p, sizeof(unsigned)));
  CK(cudaMalloc(&d_cyc, 2 * sizeof(long long)));
  size_t chase_bytes = std::max<size_t>(4 * l2, (size_t)256 << 20);
  chase_bytes = (chase_bytes + ((size_t)2 << 20) - 1) & ~(((size_t)2 << 20) - 1);
  if (chase_bytes > prop.totalGlobalMem / 8) chase_bytes = (prop.totalGlobalMem / 8) & ~(size_t)0xfffff;
  unsigned nslots = (unsigned)(chase_bytes / 128);
  unsigned *chase = nullptr, *d_order = nullptr;
  CK(cudaMalloc(&chase, chase_bytes));
  CK(cudaMalloc(&d_order, (size_t)nslots * sizeof(unsigned)));
  {
    std::vector<unsigned> order = random_order(nslots);
    CK(cudaMemcpy(d_order, order.data(), (size_t)nslots * sizeof(unsigned), cudaMemcpyHostToDevice));
    k_scatter<<<(nslots + 255) / 256, 256>>>(chase, d_order, nslots);
    CKL();
    CK(cudaDeviceSynchronize());
  }
  unsigned pos = 0;
  {
    unsigned first = 0;
    CK(cudaMemcpy(&first, d_order, sizeof first, cudaMemcpyDeviceToHost));
    pos = first * 32u;
  }
  const int dsteps = 10000;  // 3 + 1 runs x 10000 < nslots: no slot is visited twice
  std::vector<double> dcyc, dns;
  for (int r = 0; r < 4; ++r) {
    CK(cudaMemsetAsync(dst, r + 1, big));  // evict the chase buffer from L2
    Chase c = chase_once(chase, &pos, dsteps, d_p, d_cyc);
    if (r == 0) continue;  // warm-up (TLB, clocks)
    dcyc.push_back(c.cycles);
    dns.push_back(c.ns);
  }
  Stat glat_cyc = stat_of(dcyc), glat_ns = stat_of(dns);

  // ---- latency: L2 chase ----
  fprintf(stderr, "calibrate: l2 latency\n");
  size_t l2c_bytes = (l2 / 4) & ~(size_t)127;
  unsigned n2 = (unsigned)(l2c_bytes / 128);
  unsigned *chase2 = nullptr;
  CK(cudaMalloc(&chase2, l2c_bytes));
  unsigned pos2 = 0;
  {
    std::vector<unsigned> order = random_order(n2);
    CK(cudaMemcpy(d_order, order.data(), (size_t)n2 * sizeof(unsigned), cudaMemcpyHostToDevice));
    k_scatter<<<(n2 + 255) / 256, 256>>>(chase2, d_order, n2);
    CKL();
    pos2 = order[0] * 32u;
  }
  int l2steps = (int)std::min<unsigned>(20000u, n2 - 1);
  std::vector<double> lcyc, lns;
  for (int r = 0; r < 4; ++r) {
    k_touch<<<sms * 4, 256>>>(chase2, l2c_bytes / 4, d_p);
    CKL();
    Chase c = chase_once(chase2, &pos2, l2steps, d_p, d_cyc);
    if (r == 0) continue;
    lcyc.push_back(c.cycles);
    lns.push_back(c.ns);
  }
  Stat l2lat_cyc = stat_of(lcyc), l2lat_ns = stat_of(lns);

  // ---- latency: L1 chase (16 KB, well inside any carveout's L1) ----
  fprintf(stderr, "calibrate: l1 latency\n");
  const unsigned n1 = 128;
  unsigned *chase1 = nullptr;
  CK(cudaMalloc(&chase1, (size_t)n1 * 128));
  std::vector<double> l1cyc;
  {
    std::vector<unsigned> order = random_order(n1);
    CK(cudaMemcpy(d_order, order.data(), (size_t)n1 * sizeof(unsigned), cudaMemcpyHostToDevice));
    k_scatter<<<1, n1>>>(chase1, d_order, n1);
    CKL();
    for (int r = 0; r < 3; ++r) {
      k_chase_l1<<<1, 1>>>(chase1, order[0] * 32u, 4 * (int)n1, d_p, d_cyc);
      CKL();
      long long cyc = 0;
      CK(cudaMemcpy(&cyc, d_cyc, sizeof cyc, cudaMemcpyDeviceToHost));
      l1cyc.push_back((double)cyc / (4 * n1));
    }
  }
  Stat l1lat_cyc = stat_of(l1cyc);
  CK(cudaFree(chase1));

  // ---- launch overhead ----
  fprintf(stderr, "calibrate: launch overhead\n");
  const int nlaunch = 5000;
  for (int i = 0; i < 200; ++i) k_empty<<<1, 1>>>();
  CKL();
  Stat launch_ms = time_ms(
      [&] {
        for (int i = 0; i < nlaunch; ++i) k_empty<<<1, 1>>>();
        CKL();
      },
      1, 5);
  double launch_us = launch_ms.med * 1e3 / nlaunch;
  std::vector<double> rt_us;
  for (int i = 0; i < 220; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    k_empty<<<1, 1>>>();
    CKL();
    CK(cudaStreamSynchronize(0));
    auto t1 = std::chrono::steady_clock::now();
    if (i >= 20) rt_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  Stat launch_sync = stat_of(rt_us);

  // ---- barrier ----
  fprintf(stderr, "calibrate: barrier\n");
  const int b1 = 10000, b2 = 110000;
  std::vector<double> bns, bcyc;
  for (int r = 0; r < WARM + REPS; ++r) {
    float t1 = time_once([&] {
      k_barrier<<<1, 1024>>>(b1, d_cyc);
      CKL();
    });
    long long c1 = 0;
    CK(cudaMemcpy(&c1, d_cyc, sizeof c1, cudaMemcpyDeviceToHost));
    float t2 = time_once([&] {
      k_barrier<<<1, 1024>>>(b2, d_cyc);
      CKL();
    });
    long long c2 = 0;
    CK(cudaMemcpy(&c2, d_cyc, sizeof c2, cudaMemcpyDeviceToHost));
    if (r < WARM) continue;
    bns.push_back((t2 - t1) * 1e6 / (b2 - b1));
    bcyc.push_back((double)(c2 - c1) / (b2 - b1));
  }
  Stat bar_ns = stat_of(bns), bar_cyc = stat_of(bcyc);

  // ---- shared-memory latency ----
  fprintf(stderr, "calibrate: shared latency\n");
  const int sm_steps = 100000;
  std::vector<int> hperm(4096);
  {
    std::vector<int> order(4096);
    for (int i = 0; i < 4096; ++i) order[i] = i;
    unsigned long long st = 12345;
    for (int i = 4095; i > 0; --i) {   // Fisher-Yates with a fixed LCG: one cycle through all slots
      st = st * 6364136223846793005ull + 1442695040888963407ull;
      int j = (int)((st >> 33) % (unsigned long long)(i + 1));
      int t = order[i]; order[i] = order[j]; order[j] = t;
    }
    for (int i = 0; i < 4096; ++i) hperm[order[i]] = order[(i + 1) % 4096];
  }
  int *d_perm = nullptr, *d_sp = nullptr;
  CK(cudaMalloc(&d_perm, 4096 * sizeof(int)));
  CK(cudaMalloc(&d_sp, sizeof(int)));
  CK(cudaMemcpy(d_perm, hperm.data(), 4096 * sizeof(int), cudaMemcpyHostToDevice));
  std::vector<double> scyc;
  for (int r = 0; r < WARM + REPS; ++r) {
    k_smem_chase<<<1, 1>>>(d_perm, sm_steps, d_sp, d_cyc);
    CKL();
    long long c = 0;
    CK(cudaMemcpy(&c, d_cyc, sizeof c, cudaMemcpyDeviceToHost));
    if (r >= WARM) scyc.push_back((double)c / sm_steps);
  }
  Stat smem_cyc = stat_of(scyc);
  CK(cudaFree(d_perm));
  CK(cudaFree(d_sp));

  // keep one result of the data kernels observable
  float sink = 0.f;
  CK(cudaMemcpy(&sink, d_out, sizeof sink, cudaMemcpyDeviceToHost));
  CK(cudaDeviceSynchronize());
  double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  // ---- derived ----
  double sm_clock_mhz = glat_cyc.med / glat_ns.med * 1e3;
  double dram_peak = 2.0 * mem_clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;  // DDR: 2 transfers per clock
  int fp32_lanes = prop.major == 9 ? 128 : 0;  // cc 9.0: 128 FP32 lanes/SM (CUDA Programming Guide)
  double fp32_peak = fp32_lanes ? (double)sms * fp32_lanes * 2.0 * clock_khz / 1e6 : 0.0;

  // ---- JSON ----
  printf("{\n");
  printf("  \"device\": %s,\n", json_str(prop.name).c_str());
  printf("  \"cc\": \"%d.%d\",\n", prop.major, prop.minor);
  printf("  \"sm_count\": %d,\n", sms);
  printf("  \"clock_mhz\": %.0f,\n", clock_khz / 1e3);
  printf("  \"l2_bytes\": %d,\n", prop.l2CacheSize);
  printf("  \"global_mem_bytes\": %zu,\n", prop.totalGlobalMem);
  printf("  \"shared_per_sm_bytes\": %zu,\n", prop.sharedMemPerMultiprocessor);
  printf("  \"mem_clock_mhz\": %.0f,\n", mem_clock_khz / 1e3);
  printf("  \"mem_bus_bits\": %d,\n", bus_bits);
  printf("  \"dram_peak_gbps_theoretical\": %.1f,\n", dram_peak);
  if (fp32_lanes)
    printf("  \"fp32_peak_gflops_theoretical\": %.1f,\n", fp32_peak);
  else
    printf("  \"fp32_peak_gflops_theoretical\": null,\n");
  printf("  \"copy_gbps\": %.1f,\n", copy.med);
  printf("  \"dram_read_gbps\": %.1f,\n", dram_read.med);
  printf("  \"fp32_gflops\": %.1f,\n", fp32.med);
  printf("  \"shared_gbps\": %.1f,\n", shared.med);
  printf("  \"l2_gbps\": %.1f,\n", l2bw.med);
  printf("  \"global_latency_ns\": %.1f,\n", glat_ns.med);
  printf("  \"global_latency_cycles\": %.1f,\n", glat_cyc.med);
  printf("  \"l2_latency_ns\": %.1f,\n", l2lat_ns.med);
  printf("  \"l2_latency_cycles\": %.1f,\n", l2lat_cyc.med);
  printf("  \"l1_latency_cycles\": %.1f,\n", l1lat_cyc.med);
  printf("  \"sm_clock_measured_mhz\": %.0f,\n", sm_clock_mhz);
  printf("  \"launch_overhead_us\": %.3f,\n", launch_us);
  printf("  \"launch_sync_us\": %.2f,\n", launch_sync.med);
  printf("  \"barrier_ns\": %.2f,\n", bar_ns.med);
  printf("  \"barrier_cycles\": %.2f,\n", bar_cyc.med);
  printf("  \"shared_latency_cycles\": %.2f,\n", smem_cyc.med);
  printf("  \"detail\": {\n");
  printf("    \"reps\": %d, \"warmup\": %d, \"wall_s\": %.2f, \"sink\": %g,\n", REPS, WARM, wall_s, (double)sink);
  printf("    \"copy\": {\"bytes_each_way\": %zu, \"gbps_min\": %.1f, \"gbps_max\": %.1f},\n", big, copy.min, copy.max);
  printf("    \"dram_read\": {\"bytes\": %zu, \"grid\": %d, \"block\": %d, \"gbps_min\": %.1f, \"gbps_max\": %.1f},\n", big,
         rgrid, rt, dram_read.min, dram_read.max);
  printf("    \"fp32\": {\"grid\": %d, \"block\": %d, \"iters\": %d, \"fma_per_iter\": 64, \"gflops_min\": %.1f, "
         "\"gflops_max\": %.1f},\n",
         fgrid, ft, f_iters, fp32.min, fp32.max);
  printf("    \"shared\": {\"grid\": %d, \"block\": %d, \"iters\": %d, \"bytes\": %.0f, \"gbps_min\": %.1f, "
         "\"gbps_max\": %.1f},\n",
         sgrid, st, s_iters, sh_bytes, shared.min, shared.max);
  printf("    \"l2\": {\"buffer_bytes\": %zu, \"passes\": %d, \"grid\": %d, \"block\": %d, \"gbps_min\": %.1f, "
         "\"gbps_max\": %.1f},\n",
         l2buf_bytes, passes, lgrid, lt, l2bw.min, l2bw.max);
  printf("    \"global_latency\": {\"buffer_bytes\": %zu, \"steps\": %d, \"runs\": %zu, \"ns_min\": %.1f, \"ns_max\": "
         "%.1f, \"cycles_min\": %.1f, \"cycles_max\": %.1f},\n",
         chase_bytes, dsteps, dns.size(), glat_ns.min, glat_ns.max, glat_cyc.min, glat_cyc.max);
  printf("    \"l2_latency\": {\"buffer_bytes\": %zu, \"steps\": %d, \"runs\": %zu, \"ns_min\": %.1f, \"ns_max\": %.1f, "
         "\"cycles_min\": %.1f, \"cycles_max\": %.1f},\n",
         l2c_bytes, l2steps, lns.size(), l2lat_ns.min, l2lat_ns.max, l2lat_cyc.min, l2lat_cyc.max);
  printf("    \"l1_latency\": {\"buffer_bytes\": %u, \"steps\": %u, \"runs\": %zu, \"cycles_min\": %.1f, \"cycles_max\": %.1f},\n",
         n1 * 128, 4 * n1, l1cyc.size(), l1lat_cyc.min, l1lat_cyc.max);
  printf("    \"launch\": {\"launches\": %d, \"us_min\": %.3f, \"us_max\": %.3f, \"sync_us_min\": %.2f, "
         "\"sync_us_max\": %.2f},\n",
         nlaunch, launch_ms.min * 1e3 / nlaunch, launch_ms.max * 1e3 / nlaunch, launch_sync.min, launch_sync.max);
  printf("    \"barrier\": {\"block\": 1024, \"iters\": [%d, %d], \"ns_min\": %.2f, \"ns_max\": %.2f, \"cycles_min\": "
         "%.2f, \"cycles_max\": %.2f},\n",
         b1, b2, bar_ns.min, bar_ns.max, bar_cyc.min, bar_cyc.max);
  printf("    \"shared_latency\": {\"slots\": 4096, \"steps\": %d, \"cycles_min\": %.2f, \"cycles_max\": %.2f}\n", sm_steps, smem_cyc.min,
         smem_cyc.max);
  printf("  }\n");
  printf("}\n");

  CK(cudaFree(chase2));
  CK(cudaFree(chase));
  CK(cudaFree(d_order));
  CK(cudaFree(d_cyc));
  CK(cudaFree(d_p));
  CK(cudaFree(d_out));
  CK(cudaFree(dst));
  CK(cudaFree(src));
  CK(cudaEventDestroy(ev0));
  CK(cudaEventDestroy(ev1));
  return 0;
}
