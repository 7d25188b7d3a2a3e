// expect: check 2 6:10: error: use of undeclared identifier 'ns::missing'
// stdout: __global__ void outside(int *a)
namespace ns {
const int present = 1;
__global__ void inside(int *a) {
  a[0] = ns::missing + present;
}
}
/* the namespace's kernel is dropped; this one must still load and be listed by 'carve check' */
__global__ void outside(int *a) {
  a[0] = ns::present;
}
