/* gpu: running kernels on a real GPU. harness.c generates a standalone CUDA host program for a
 * launch (same inputs as the interpreter, proper timing); bench.c builds it with nvcc, runs it,
 * verifies its outputs against the interpreter and reads Nsight Compute counters. */
#ifndef CARVE_GPU_H
#define CARVE_GPU_H
#include "../interp/interp.h"

typedef struct HarnessOptions {
  int reps;      /* timed launches (default 20) */
  bool flush_l2; /* write a 2 x L2 buffer before every timed launch */
  bool baseline; /* time the spec's library baseline too */
} HarnessOptions;

/* CUDA C++ source of a standalone harness for the launch L */
void harness_generate(Buf *out, Launch *L, const HarnessOptions *o);
/* one harness for many variants of the launch L0 (same buffers; each Lv[i] its own program,
 * kernel and shape): ./harness REPS OUTDIR FLUSH_L2 FIRST LAST prints "start I" and a JSON line
 * per variant; a failed launch prints its error and exits 5 (carve tune resumes after it) */
void harness_generate_multi(Buf *out, Launch *L0, Launch *const *Lv, int n,
                            const HarnessOptions *o);
/* the nvcc command line that builds it */
char *harness_build_line(const char *src, const char *exe, const char *arch, bool cublas);
bool harness_needs_cublas(Launch *L);

typedef struct BenchOptions {
  HarnessOptions h;
  const char *emit_dir; /* write harness + build line, do not run */
  const char *arch;     /* nvcc -arch (default sm_90) */
  bool verify, ncu, json, no_baseline;
  int verify_blocks; /* interpreter blocks to check (0: all when small, else 64 sampled) */
  int timeout_s;
  const char *calibration; /* calibration file, or NULL for the default place */
} BenchOptions;

/* a GPU's output buffer against the interpreter's (b->data): every element, or those whose first
 * byte mask marks (the bytes sampled blocks wrote); integers bit for bit, __half bit for bit with
 * any NaN equal to any NaN, floats by relative L2 error within tol (NaN only where both are) */
typedef struct BufferCompare {
  bool ok, exact;   /* exact: compared bit for bit (integers, halves) */
  int64_t compared; /* elements compared */
  size_t mismatches, first_bad;
  double rel_l2, max_ulp;
} BufferCompare;
BufferCompare compare_gpu_buffer(const Buffer *b, const unsigned char *gpu,
                                 const unsigned char *mask, double tol);

/* 0 ok, 1 verification failed or kernel fault, 2 error, 3 no GPU / toolkit */
int bench_run(Launch *L, const char *file, const BenchOptions *o);
/* measure the GPU (bench/calibrate.cu) and write the calibration file; exit status as bench */
int calibrate_run(const char *out_path, const char *arch);
#endif
