// One element past a local variable-length array
int main(void) {
  int n = 10;
  float v[n];
  for (int i = 0; i <= n; i++) v[i] = i;
  return 0;
}
