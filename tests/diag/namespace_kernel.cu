// expect: check 2 3:1: error: unsupported C++: namespaces
// stdout: __global__ void outside(int *a)
namespace ns {
__global__ void inside(int *a) {
  a[0] = 1;
}
}
__global__ void outside(int *a) {
  a[0] = 2;
}
