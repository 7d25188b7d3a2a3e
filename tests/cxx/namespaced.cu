/* A kernel library written in C++ the way real code is: namespaces (nested, `using namespace`,
 * an alias, `::`-qualified calls), structs used without `struct`, references (T& and const T&
 * parameters, reference locals), auto, constexpr variables and functions. */
#include <cstdint>

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

#pragma carve launch row_moments grid(4) block(64)
#pragma carve arg x = float[256 * 16] : random(7, -1, 1)
#pragma carve arg mean_out = float[256] : zeros out
#pragma carve arg hist = int[8] : zeros out
#pragma carve arg cols = 16
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
