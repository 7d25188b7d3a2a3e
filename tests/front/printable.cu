/* A file that exercises the printer: every construct here must print to source nvcc accepts. */
typedef struct { float x, y; } P2;
struct Q { int a; P2 p; };
enum Color { RED, GREEN = 5, BLUE };
__constant__ float coef[3] = {1.0f, 2.5f, -3.0f};
__device__ int counter;
const int K = 4;
__device__ __forceinline__ float sq(float v) { return v * v; }
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void __launch_bounds__(256, 2) k(struct Q *q, const float *__restrict__ in, P2 *out, int a, int b, int c) {
  __shared__ float tile[16][17];
  extern __shared__ float dyn[];
  int col = GREEN;
  tile[threadIdx.y][threadIdx.x] = sq(in[threadIdx.x]) * coef[col % 3] + K;
  __syncthreads();
  out[0].x = q->p.y + dyn[0] + 'a' + tile[threadIdx.x][threadIdx.y];
  int o[10];
  o[0] = (a + b) * c; o[1] = a - (b - c); o[2] = -(-a); o[3] = a < b ? b : a > c ? c : a;
  o[4] = (a, b); o[5] = (a & b) == c; o[6] = ~-a + !b; o[7] = a << (b + c);
  o[8] = *(o + 1) + o[a ? 1 : 2]; o[9] = fact(3);
  for (int i = 0, j = 10; i < j; i++, j--) o[i % 10] += j;
  do o[0]++; while (o[0] < 3);
  switch (a) { case 1: case 2: o[1] = 2; break; default: ; }
  if (a) if (b) o[2] = 1; else o[2] = 2;
#pragma unroll 4
  for (int i = 0; i < 8; i++) o[i] += (int)(float)i;
  float4 v = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  unsigned m = __ballot_sync(0xffffffffu, o[1] > 0);
  atomicAdd(&counter, __popc(m) + __shfl_down_sync(0xffffffffu, o[2], 1));
  out[1].y = v.w + (float)o[9] + sqrtf(fabsf(out[0].x)) + __expf(1.0f) + fminf(1.0f, 2.0f) + max(a, b);
}
