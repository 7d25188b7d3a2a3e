/* rt: real programs as they are. `carve run prog.cu` builds the program with nvcc against carve's
 * substitute CUDA runtime (src/rt/cudart.c, the shared library build/libcarve_cudart.so) and runs
 * it natively; the runtime hands every launch to the interpreter (route.c starts it, cudart.c is
 * what the program links). What passes between them:
 *   the environment (RT_ENV_*): the sources carve's front end reads for the kernels, the
 *   preprocessor flags, the machine, the step limit, where the summary goes;
 *   the summary file the runtime writes at exit: launches, faults, errors, and one block per
 *   distinct launch (kernel, grid, block, shared bytes, count, arguments as `--arg` texts whose
 *   buffers are files in the record directory), read back into a HostResult. */
#ifndef CARVE_RT_H
#define CARVE_RT_H
#include "../interp/interp.h"

#define RT_ENV_SOURCES "CARVE_RT_SOURCES"     /* the .cu files, one a line */
#define RT_ENV_PPFLAGS "CARVE_RT_PPFLAGS"     /* -I DIR / -D NAME=V, one a line */
#define RT_ENV_ARCH "CARVE_RT_ARCH"           /* a machine name (h100) */
#define RT_ENV_MAX_STEPS "CARVE_RT_MAX_STEPS" /* a launch's step limit (0: the default) */
#define RT_ENV_NO_RACE "CARVE_RT_NO_RACE"     /* "1": no race check */
#define RT_ENV_SUMMARY "CARVE_RT_SUMMARY"     /* the summary file */
#define RT_ENV_RECORD "CARVE_RT_RECORD" /* a directory: keep each distinct launch's buffers there */
#define RT_ENV_ENGINE \
  "CARVE_RT_ENGINE"                   /* "auto" (native above the threshold), "native", "interp" */
#define RT_ENV_CHECK "CARVE_RT_CHECK" /* "sample", "all", "none": the native engine's check */
#define RT_ENV_D2H "CARVE_RT_D2H"     /* a file: every device-to-host copy logged (host_log_copy) */
#define RT_ENV_MAX_SECONDS \
  "CARVE_RT_MAX_SECONDS" /* stop the program after this much time outside launches */

typedef struct RtOptions {
  const char **files;
  int nfiles; /* sources: .cu (device code, read by carve too), .cpp, .c, .o */
  const char **nvcc_flags;
  int nnvcc;           /* given to nvcc as they are (-I, -D, -std, -O, -Xcompiler ...) */
  const PPOptions *pp; /* carve's own reading of the .cu files */
  const char *machine; /* --arch: cudaGetDeviceProperties' machine (NULL: h100) */
  const char *sm;      /* nvcc's -arch (NULL: sm_90) */
  int argc;
  const char **argv; /* argv[0] the program's name */
  uint64_t max_steps;
  bool no_race;
  bool record;                /* keep the distinct launches with their buffers */
  bool quiet_build;           /* nvcc's output only when it fails */
  const char *engine, *check; /* RT_ENV_ENGINE, RT_ENV_CHECK (NULL: auto, sample) */
  double max_seconds;         /* stop the program after this long outside launches (0: never):
                                       * the runtime's watchdog ends it, the launches recorded so far
                                       * kept (r->h.timed_out) */
  FILE *out;                  /* the program's standard output (NULL: inherited) */
  FILE *err;                  /* its standard error (NULL: inherited) */
  const char *d2h;            /* RT_ENV_D2H: the whole-program check's log (NULL: none) */
} RtOptions;

/* where nvcc is (NULL: not found): $CARVE_NVCC, $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc, PATH */
const char *rt_nvcc(void);
/* the runtime library (NULL: not built): $CARVE_CUDART, beside the carve executable's build/ */
const char *rt_library(void);
/* build and run the program; r as host_run fills it (p: the program carve read from the same .cu
 * files, where recorded launches find their kernels). 0 ran (r->h.exit_code), 1 a kernel fault,
 * 2 could not build or run it, or a launch carve could not run (diagnosed) */
typedef struct RtResult {
  HostResult h;
  int faults, api_errors; /* kernel faults, misuse of the runtime (bad copies, frees) */
  int unrun;              /* launches carve could not run (kernel not read, step limit): exit 2 */
  int signal;             /* the program was killed by it (0: exited) */
  double build_seconds, run_seconds;
  const char *dir; /* the temporary directory (the build, the recorded buffers) */
} RtResult;
int rt_run(Program *p, const RtOptions *o, RtResult *r);
/* host_run with the program's standard output and error and carve's diagnostics held in
 * temporary files (o->out and o->err are set here): given out when it ends, dropped when it was
 * stopped by o->max_seconds (r->timed_out: the caller runs it another way; an interpreted
 * program has no other effect, carve's C library opens no files) */
int rt_host_run_held(Program *p, HostOptions *o, HostResult *r);
/* remove the temporary directory (the recorded buffers' files), free what r still holds */
void rt_cleanup(RtResult *r);
#endif
