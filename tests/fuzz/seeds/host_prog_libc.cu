/* Host code only, valid C: the shell test compiles it with the system's C compiler too and
 * compares the outputs byte for byte (rand, drand48, printf's conversions, strings). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  srand(7);
  for (int i = 0; i < 5; i++) printf("%d ", rand());
  printf("\n%d\n", rand() % 1000);
  srand48(11);
  double d1 = drand48();   /* one call per statement: C leaves argument order unspecified */
  double d2 = drand48();
  printf("%.12f %.12f\n", d1, d2);
  printf("[%5d] [%-5d] [%05.1f] [%x] [%X] [%o] [%u] [%c] [%s] [%10.3e] [%g] [%%]\n", 42, -7, 3.14159, 255, 48879, 8, 4000000000u, 'q',
         "str", 12345.678, 0.0001);
  printf("%ld %lu %lld %zu\n", (long)-5, (unsigned long)5, (long long)1 << 40, sizeof(double));
  char buf[64];
  int n = snprintf(buf, sizeof buf, "%s-%d", "abc", 12);
  printf("%s %d %d\n", buf, n, (int)strlen(buf));
  char *end;
  long v = strtol("  123xyz", &end, 10);
  printf("%ld %s %d %.2f\n", v, end, atoi("-77"), atof("2.5"));
  printf("%d %d\n", strcmp("abc", "abd") < 0, strncmp("abcdef", "abcxyz", 3));
  int *a = (int *)calloc(10, sizeof(int));
  a[3] = 9;
  a = (int *)realloc(a, 20 * sizeof(int));
  memset(a + 10, 1, 10 * sizeof(int));
  printf("%d %d %d\n", a[3], a[0], a[15]);
  free(a);
  puts("done");
  fputs("to stderr\n", stderr);
  return 0;
}
