namespace stats {
constexpr int kBins = 8;
constexpr int bin_of(int v) { return v < 0 ? 0 : v >= kBins ? kBins - 1 : v; }

struct Moments {
  float sum;
  float sum_sq;
  int count;
};

namespace detail {
__device__ inline void accumulate(Moments &m, const float &x) {
  m.sum += x;
  m.sum_sq += x * x;
  m.count++;
}
}  // namespace detail

__device__ float mean(const Moments &m) { return m.count ? m.sum / m.count : 0.0f; }
}  // namespace stats

namespace st = stats;
using namespace stats;

__global__ void row_moments(const float *x, float *mean_out, int *hist, int cols) {
  auto row = blockIdx.x * blockDim.x + threadIdx.x;
  Moments m = {0.0f, 0.0f, 0};
  const float *r = x + row * cols;
  for (auto j = 0; j < cols; j++) {
    const float &v = r[j];
    detail::accumulate(m, v);
  }
  float &out = mean_out[row];
  out = st::mean(m);
  auto var = m.sum_sq / m.count - out * out;
  atomicAdd(&hist[::stats::bin_of(static_cast<int>(var * kBins))], 1);
}
namespace cg = cooperative_groups;


template <typename T>
__device__ T tile_sum(cg::thread_block_tile<32> tile, T v) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
  return v;
}

template <int BS, typename T>
__global__ void reduce_cg(const T *in, T *out, int n) {
  __shared__ T partial[BS / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * BS + block.thread_rank();
  T v = i < n ? in[i] : T(0);
  v = tile_sum(tile, v);
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    T w = tile.thread_rank() < BS / 32 ? partial[tile.thread_rank()] : T(0);
    w = cg::reduce(tile, w, cg::plus<T>());
    if (tile.thread_rank() == 0) out[blockIdx.x] = w;
  }
}
__global__ void haxpy(int n, __half a, const __half *x, __half *y, float *norm) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i + 1 < n) {
    /* two elements as one half2: y = a*x + y with one rounding each (fma) */
    half2 a2 = __halves2half2(a, a);
    half2 x2 = __halves2half2(x[i], x[i + 1]);
    half2 y2 = __halves2half2(y[i], y[i + 1]);
    y2 = __hfma2(a2, x2, y2);
    y[i] = __low2half(y2);
    y[i + 1] = __high2half(y2);
  } else if (i < n) {
    y[i] = a * x[i] + y[i];   /* the operators: a multiply and an add, each rounded */
  }
  float s = i < n ? __half2float(y[i]) * __half2float(y[i]) : 0.0f;
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) atomicAdd(norm, s);
}
extern __shared__ float dyn[];
__global__ void d3(int *a) {
  dim3 t(4, 2);
  uint3 i = threadIdx;
  assert(i.x < t.x * 64 && "in range");
  a[i.x] = (int)dyn[0];
}
template __global__ void reduce_cg<128, double>(const double *, double *, int);
