/* cudart.h: what the files of carve's substitute CUDA runtime (cudart.c, cudart_device.c) share,
 * private to the runtime library (build/libcarve_cudart.so; compiled against the CUDA toolkit's
 * headers, hidden but for the EXPORTed cuda* names): its state and the calls between them. */
#ifndef CARVE_CUDART_H
#define CARVE_CUDART_H
#include "rt.h"
#include "../interp/native.h"
#include "../arch/arch.h"
#include <cuda_runtime_api.h>

#define EXPORT __attribute__((visibility("default")))
#define RET __builtin_return_address(0) /* the calling host code, for api_error */
#define MAX_CONFIG 64                   /* nested <<<>>> configurations pushed and not popped */
#define MAX_BUFS (1 << 20)              /* buffer numbers have 20 bits (interp.h addresses) */
#define MAX_RECORDED 64
#define MAX_RECORDED_BYTES (1ull << 30)
#define LIMIT_BYTES (8ull << 30) /* LIMIT_LAUNCH_BYTES: the program's allocations together */
#define EVENT_BASE 0xe0000000ull /* events and streams are handles, never memory */
#define STREAM_BASE 0xf0000000ull

typedef struct {
  const void *host_fun;
  const char *dev_name;
  Obj *kernel;
  bool tried;
} RtFunc;
typedef struct {
  const void *host_var;
  const char *dev_name;
  size_t size;
  bool constant;
  Obj *var;
  bool tried;
} RtVar;
typedef struct {
  Obj *kernel;
  int64_t grid[3], block[3], shared;
  int first, count;
  Buf args;     /* the --arg texts, one a line */
  Val *scalars; /* the scalar arguments, for comparing configurations */
} RtRecord;

/* the runtime's state: one program, one device */
typedef struct {
  int state; /* 0 not loaded, 1 loaded, -1 the front end failed */
  Program *p;
  char *load_diags;
  size_t load_diags_len; /* what the front end said, shown when a kernel is missing */
  Launch W;              /* bufs (the allocations; 0: __device__ variables), constant, machine */
  int cap;
  unsigned char *borrowed; /* per buffer: data not ours (cudaHostRegister) */
  size_t bytes;
  RtFunc *funcs;
  int nfuncs, capfuncs;
  RtVar *vars;
  int nvars, capvars;
  struct {
    dim3 g, b;
    size_t shm;
    void *stream;
  } cfg[MAX_CONFIG];
  int ncfg;
  cudaError_t last_error, sticky;
  int launches, faults, api_errors;
  int unrun; /* launches carve could not run (kernel not read, stopped): the run is not a check */
  uint64_t lane_ops;
  double kernel_seconds;
  double *events;
  int nevents;
  int nstreams;
  RtRecord *rec;
  int nrec, unrecorded;
  uint64_t recorded_bytes;
  const char *record_dir;
  RunOptions ro;
  NativeOptions native; /* each launch's engine and check (RT_ENV_ENGINE, RT_ENV_CHECK) */
  int native_launches;
  double native_seconds;
  uint64_t blocks_checked;
  Obj **said;
  int nsaid;           /* kernels whose reason for running in the interpreter was said */
  double last_summary; /* when the summary was last written (it is rewritten as launches come) */
  double start_ms, launch_ms; /* the program's start; wall-clock time spent in launches */
  bool stopped;               /* ended by the watchdog: RT_ENV_MAX_SECONDS of host time */
  bool summary_hooked;
  size_t limits[3]; /* cudaDeviceSetLimit: stack, printf FIFO, heap (0: the default) */
  enum cudaFuncCache cache_config;
} RtState;
extern RtState rt;

/* cudart.c: an error of the runtime's use, said with the calling host function (ret: the return
 * address), counted, remembered for cudaGetLastError; the sticky error of a faulted launch or
 * success; the kernel a registered host stub names, and the registration of a host stub */
cudaError_t api_error(void *ret, cudaError_t e, const char *f, ...)
  __attribute__((format(printf, 3, 4)));
cudaError_t ok_or_sticky(void);
Obj *kernel_of(RtFunc *f);
RtFunc *func_of(const void *host_fun);
#endif
