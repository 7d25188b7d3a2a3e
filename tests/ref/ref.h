/* Contract between the bundled kernels (the .cu files in examples/) and their C references.
 *
 * tests/test_kernels.c launches each bundled kernel in the interpreter with the launch spec in its
 * file (with the small sizes given in the table, through -D), then calls the reference with the
 * same inputs and compares every `out` buffer (integers exactly, floats with the kernel's
 * tolerance). A reference reads inputs with ref_in/ref_int/ref_f64 and writes the expected final
 * contents of each output buffer through ref_out, which starts as the buffer's initial contents
 * (so in-place kernels work). */
#ifndef CARVE_REF_H
#define CARVE_REF_H
#include <stddef.h>

typedef struct RefCtx RefCtx;
const void *ref_in(RefCtx *c, const char *name);   /* initial contents of a buffer argument */
void *ref_out(RefCtx *c, const char *name);        /* expected final contents (starts = initial) */
size_t ref_count(RefCtx *c, const char *name);     /* element count of a buffer argument */
long long ref_int(RefCtx *c, const char *name);    /* value of an integer scalar argument */
double ref_f64(RefCtx *c, const char *name);       /* value of a float/double scalar argument */
long long ref_define(RefCtx *c, const char *name); /* integer value of a macro in the kernel file */
void ref_grid(RefCtx *c, int grid[3], int block[3]);

typedef void RefFn(RefCtx *c);
typedef struct {
  const char *file;      /* path under examples/ */
  const char *kernel;    /* kernel name (a file may hold several) */
  const char *defines;   /* space-separated -D settings giving small test sizes, e.g. "N=64" */
  RefFn *ref;
  double rel_tol;        /* relative L2 error allowed on float outputs (0 for exact) */
} RefCase;

extern const RefCase ref_cases[];   /* terminated by an entry with file == NULL */
#endif
