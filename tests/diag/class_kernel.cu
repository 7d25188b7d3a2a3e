// expect: check 2 4:7: error: unsupported C++: member functions
class Acc {
public:
  int get() { return total; }
  int total;
};
__global__ void k(Acc *p, int *a) {
  a[0] = p->total;
}
