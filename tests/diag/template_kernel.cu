// expect: check 2 4:35: error: too many template arguments for 'scale'
// stdout: __global__ void ok_kernel(float *a)
#pragma carve launch ok_kernel grid(1) block(32)
#pragma carve launch scale<float, 4> grid(1) block(32)
template <typename T>
__global__ void scale(T *a, T s) {
  a[threadIdx.x] *= s;
}

/* the launch of the template fails; this kernel must still load and be listed by 'carve check' */
__global__ void ok_kernel(float *a) {
  a[threadIdx.x] = 1.0f;
}
