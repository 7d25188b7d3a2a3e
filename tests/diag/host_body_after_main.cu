// expect: run 2 11:3: error: use of undeclared identifier 'undefined_counter'
// flags: --route interp
// stderr: the host function 'helper' (called by 'twice') could not be read
// The same when the function is declared first and its body, after main, does not parse; the
// call reaches it through another host function.
#include <stdio.h>
int helper(int x);
static int twice(int x) { return 2 * helper(x); }
int main() { printf("%d\n", twice(3)); return 0; }
int helper(int x) {
  undefined_counter += x;
  return x;
}
