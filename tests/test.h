/* A minimal test framework: CHECK counts, failures print file:line and a message. Each test
 * program ends with "NAME: N passed, N failed" and exits non-zero on any failure. */
#ifndef CARVE_TEST_H
#define CARVE_TEST_H
#include <stdio.h>
#include <string.h>

static int t_pass, t_fail;
#define CHECK(cond, ...)                                                  \
  do {                                                                    \
    if (cond) t_pass++;                                                   \
    else {                                                                \
      t_fail++;                                                           \
      fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);               \
      fprintf(stderr, __VA_ARGS__);                                       \
      fputc('\n', stderr);                                                \
    }                                                                     \
  } while (0)
#define TEST_SUMMARY(name)                                                \
  (printf("%s: %d passed, %d failed\n", name, t_pass, t_fail), t_fail ? 1 : 0)
#endif
