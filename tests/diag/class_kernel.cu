// expect: check 2 2:1: error: unsupported C++: classes
class Acc {
public:
  int total;
};
__global__ void k(Acc *p, int *a) {
  a[0] = p->total;
}
