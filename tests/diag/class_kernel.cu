// expect: check 2 2:1: error: unsupported C++: classes
class Acc {
  int total;
};
__global__ void k(int *a) {
  a[0] = 1;
}
