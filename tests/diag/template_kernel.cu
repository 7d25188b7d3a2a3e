// expect: check 2 3:1: error: unsupported C++: templates
// stdout: __global__ void ok_kernel(float *a)
template <typename T>
__global__ void scale(T *a, T s) {
  a[threadIdx.x] *= s;
}

/* the template is skipped; this kernel must still load and be listed by 'carve check' */
__global__ void ok_kernel(float *a) {
  a[threadIdx.x] = 1.0f;
}
