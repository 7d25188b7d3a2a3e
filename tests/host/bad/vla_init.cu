// An initializer on a variable-length array (C11 6.7.9p3 forbids it)
int main(void) {
  int n = 4;
  int w[n] = {1, 2};
  return w[0];
}
