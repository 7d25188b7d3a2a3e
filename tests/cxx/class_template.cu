/* Class templates as the CUDA samples write them (simpleTemplates' and reduction's
 * SharedMemory<T>): a struct template whose member functions return the dynamic shared array,
 * explicit specializations chosen for their arguments, a conversion operator applied where an
 * initializer converts, a member function called on a temporary, and a templated functor whose
 * member is called through the object. The kernel checks every value with assert. */
#pragma carve launch block_scale<float> grid(2) block(64) shared(512)
#pragma carve arg in = float[128] : random(5, -1, 1)
#pragma carve arg out = float[128] : zeros out

template <typename T> struct SharedMemory {
  /* the primary is never instantiated for the types below: its specializations are chosen */
  __device__ T *getPointer() {
    extern __device__ void error(void);
    error();
    return NULL;
  }
};
template <> struct SharedMemory<float> {
  __device__ float *getPointer() { extern __shared__ float s_float[]; return s_float; }
};
template <> struct SharedMemory<int> {
  __device__ int *getPointer() { extern __shared__ int s_int[]; return s_int; }
};

template <class T> struct SharedCast {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <typename T> struct Scale {
public:
  __device__ T apply(T x, int k) const { return x * (T)k; }
};

template <class T> __global__ void block_scale(const T *in, T *out) {
  SharedMemory<T> smem;
  T *sdata = smem.getPointer();
  T *alias = SharedCast<T>();
  const T *view = SharedCast<T>();
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  Scale<T> s;
  T mine = s.apply(alias[blockDim.x - 1 - tid], 3);
  assert(mine == 3 * in[blockIdx.x * blockDim.x + blockDim.x - 1 - tid]);
  assert(view == alias && (T *)view == sdata);
  int *ip = SharedMemory<int>().getPointer();
  assert((void *)ip == (void *)sdata);
  out[blockIdx.x * blockDim.x + tid] = mine;
}
