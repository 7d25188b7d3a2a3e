// expect: check 2 7:13: error: expected ';'
// stderr: 7 |   int x = P(1, 2)
// A pasted token's spelling is not in the file: the caret goes to where it was pasted from (it
// read outside the file's text: fuzz_front found a heap-buffer-overflow in print_source_line).
#define P(a, b) a ## b
__global__ void k(int *a) {
  int x = P(1, 2)
  a[0] = x;
}
