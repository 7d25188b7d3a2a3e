/* interp: executes one kernel launch on the CPU with CUDA's SIMT semantics.
 *
 * Warps of 32 lanes run in lockstep under an active mask; every AST node is evaluated for a
 * whole warp at once (one dispatch, 32 lanes of work). Structured control flow gives
 * divergence and reconvergence; __syncthreads suspends the warp (each warp of a block that uses
 * barriers runs on its own coroutine stack; warps of other kernels share one). The stacks are
 * the interpreter's own, sized from the parser's nesting limits (limits_parse.h); code nested
 * deeper than a stack holds (recursion through deep expressions) is a located fault. Faults
 * (out-of-bounds, misaligned, division by zero, shared-memory races between warps and between
 * lanes of one warp storing different values to one address, divergent barriers, nesting too
 * deep) are reported with the source location, block and thread, and stop the launch; each is
 * also recorded as data (RunStats.fault) for the outputs that must say what the text says. */
#ifndef CARVE_INTERP_H
#define CARVE_INTERP_H
#include "../front/front.h"

typedef uint32_t Mask;
typedef union {
  int64_t i;
  uint64_t u;
  float f;
  double d;
} Val;

/* address spaces, in the top 4 bits of a pointer value */
enum {
  SPACE_NONE = 0,
  SPACE_GLOBAL = 1,
  SPACE_SHARED = 2,
  SPACE_LOCAL = 3,
  SPACE_CONST = 4,
  /* host programs: host memory (malloc, host variables, string literals, argv) */
  SPACE_HOST = 5
};
#define ADDR_SPACE(a) ((int)((a) >> 60))
#define GLOBAL_ADDR(buf, off) \
  (((uint64_t)SPACE_GLOBAL << 60) | ((uint64_t)(buf) << 40) | (uint64_t)(off))
#define HOST_ADDR(buf, off) \
  (((uint64_t)SPACE_HOST << 60) | ((uint64_t)(buf) << 40) | (uint64_t)(off))

/* host programs: who made a buffer (a launch spec, or the host program's allocator) */
typedef enum { BUF_LAUNCH, BUF_DEVICE, BUF_HOST, BUF_MANAGED } BufferKind;

typedef struct Buffer {
  const char *name; /* parameter name, or the __device__ variable's */
  Type *elem_ty;
  int64_t count;
  size_t bytes;
  unsigned char *data; /* malloc'ed, owned by the launch */
  bool out;
  const ArgSpec *spec;
  /* host programs */
  BufferKind kind;
  bool freed;      /* released by free/cudaFree: any access is a fault */
  SrcLoc at;       /* where the host program allocated it */
  const char *how; /* "cudaMalloc", "malloc", ... */
  bool unreached;  /* native.c, during one launch: the kernel cannot reach it (not copied) */
} Buffer;

typedef struct Launch {
  Program *prog;
  Obj *kernel;
  int64_t grid[3], block[3], dyn_shared;
  Buffer *bufs;        /* bufs[0] is the __device__ globals area */
  size_t buffer_bytes; /* the parameters' buffers together (LIMIT_LAUNCH_BYTES) */
  int nbufs;
  Val *args;                     /* one per kernel parameter */
  unsigned char *constant;       /* __constant__ area */
  SrcLoc where;                  /* the launch spec line, or the kernel, for launch errors */
  const struct Machine *machine; /* whose limits apply (threads and shared memory per block);
                                    NULL: the H100 */
  /* host programs (host.c) */
  struct HostWorld *world; /* made by a host program: bufs and constant are the world's, borrowed */
  bool host_code;          /* the host program itself, run as one thread */
  int host_vars;           /* the buffer of the host program's file-scope variables (0: none) */
  Val host_ret;            /* host_code: what the host function returned */
} Launch;

/* what the analyzer and the model observe while a launch runs */
typedef enum { ACC_LOAD, ACC_STORE, ACC_ATOMIC } AccessKind;
typedef struct Hooks {
  void *ctx;
  /* one warp-wide memory instruction: addr[l] for the lanes in m */
  void (*access)(void *ctx, Node *at, int space, AccessKind kind, int size, const uint64_t *addr,
                 Mask m, int64_t block_linear, int warp);
  /* a branch (if, loop condition, ?:, &&, ||, switch) with the lanes that took it */
  void (*branch)(void *ctx, Node *at, Mask active, Mask taken, int64_t block_linear, int warp);
  /* whether to run this block (sampling); NULL runs all */
  bool (*want_block)(void *ctx, int64_t block_linear);
  /* every expression node evaluated for a warp (instruction counting), and every loop statement
   * (ND_FOR/WHILE/DO) when a warp enters it; NULL costs nothing */
  void (*node)(void *ctx, Node *n, Mask m);
  /* whether to run this warp of a block (sampling; honoured only for kernels without barriers) */
  bool (*want_warp)(void *ctx, int64_t block_linear, int warp, int nwarps);
} Hooks;

/* Which bytes of each buffer a run's global stores wrote, and which buffers atomics updated:
 * outputs are then compared only where the run wrote (bench --verify, carve tune's reference
 * and launch-shape checks). `written_hooks` runs the blocks `blocks` (NULL: all) and counts the
 * stores of the threads `keep` accepts (NULL: all); the caller may replace .want_block. */
typedef struct Written {
  const Launch *L;
  unsigned char **bytes; /* per buffer: 1 where a counted store wrote */
  bool *atomic;          /* per buffer: updated by a counted atomic */
  const int64_t *blocks;
  int nblocks;
  bool (*keep)(void *ctx, int64_t block, int thread); /* thread: linear within the block */
  void *keep_ctx;
} Written;
void written_init(Written *w, const Launch *L);
Hooks written_hooks(Written *w);
void written_free(Written *w);

typedef struct RunOptions {
  uint64_t max_steps; /* warp-steps before the launch is stopped as runaway (0: default 2e9) */
  bool no_race_check;
  int max_reports; /* faults printed before stopping the listing (default 10) */
  const Hooks *hooks;
  FILE *printf_out;       /* device printf goes here (default stdout) */
  uint64_t warp_step_cap; /* sampling: stop each warp quietly after this many steps (0: never) */
  bool poison_shared;     /* each block's shared memory starts as 0xff bytes (NaN, -1), not zeros:
                          * a read of an element nobody wrote changes the result (verification) */
  bool progress;          /* a progress line on stderr for launches running over a second */
  double
    max_seconds; /* host code: stopped (status 2) past this much wall-clock time (0: no limit) */
  double
    /* host code: time not counted against max_seconds (its launches; host.c grows it) */
    seconds_excluded;
  /* kernels: stop quietly after the first block that ends past this much processor time
   * (0: never; not for grid-wide syncs): status 2 with stats->cut, the buffers part-written
   * (native.c's slice: a launch too long to interpret goes to the native engine) */
  double cut_seconds;
} RunOptions;

/* A fault as data (run's JSON): the same facts the diagnostic prints, recorded where the fault is
 * raised. fault_kind_name gives each kind's name in the JSON (docs/analyze-json.md). */
typedef enum {
  FAULT_OUT_OF_BOUNDS,
  FAULT_MISALIGNED,
  FAULT_NULL_POINTER,
  FAULT_INVALID_ADDRESS,
  FAULT_MEMORY_SPACE,
  FAULT_FREED_MEMORY,
  FAULT_CONSTANT_WRITE,
  FAULT_DIVISION_BY_ZERO,
  FAULT_RACE,
  FAULT_DIVERGENT_BARRIER,
  FAULT_DIVERGENT_COLLECTIVE,
  FAULT_SHUFFLE,
  FAULT_STACK_OVERFLOW,
  FAULT_UNDEFINED_FUNCTION,
  FAULT_ASSERTION,
  FAULT_RUNTIME_ERROR,
  FAULT_UNSUPPORTED,
  FAULT_KERNEL_LAUNCH,
  FAULT_INTERNAL,
  FAULT_NKINDS
} FaultKind;
const char *fault_kind_name(FaultKind k);

/* faults kept per launch; RunStats.faults counts them all, the ones past the limit are dropped */
#define RUN_MAX_FAULT_RECORDS 16
typedef struct Fault {
  FaultKind kind;
  Node *at;       /* where (NULL: none) */
  Node *other;    /* a race: the other warp's access; a divergent barrier: the other
                          * barrier (NULL: none) */
  bool in_kernel; /* block is known (not host code) */
  int64_t block[3];
  int lane; /* -1: no one thread (then thread is not set) */
  uint32_t thread[3];
  char message[384]; /* the diagnostic's text, without location or level (truncated to fit) */
} Fault;

typedef struct RunStats {
  uint64_t lane_ops;   /* lane-operations: AST nodes evaluated x active lanes */
  uint64_t warp_steps; /* AST nodes evaluated per warp */
  uint64_t blocks_run;
  int faults;
  uint64_t warps_truncated; /* warps stopped by warp_step_cap */
  uint64_t async_unwaited;  /* async copies (__pipeline_memcpy_async) threads that ended never
                             * waited for: never performed (a warning names the first) */
  double seconds;
  bool stopped;        /* the step limit was reached: stopped, not a fault (status 2) */
  bool cut;            /* stopped by RunOptions.cut_seconds between blocks (status 2, quiet) */
  uint64_t step_limit; /* the limit that applied */
  Fault fault[RUN_MAX_FAULT_RECORDS]; /* the first faults, in the order they were raised */
  int nfault;                         /* recorded; faults - nfault were dropped */
} RunStats;

/* the step limit of a launch: the given one, or by default 2e9 warp-steps or 10^6 per warp of
 * the launch, whichever is larger */
uint64_t launch_step_limit(const Launch *L, uint64_t given);

/* 0: ran to completion; 1: a fault was found and reported; 2: could not run, or stopped at the
 * step limit (stats->stopped; diagnosed) */
int interp_run(Launch *L, const RunOptions *opt, RunStats *stats);

/* launch.c: build a launch from the file's spec, overridden by flags. 0 ok, 2 error (diagnosed) */
typedef struct LaunchOverrides {
  bool has_grid, has_block;
  int64_t grid[3], block[3];
  int64_t dyn_shared; /* -1: keep */
  ArgSpec **args;
  int nargs;
  /* host programs: a recorded launch's __constant__ and __device__ contents (NULL: from the
   * initializers) */
  const unsigned char *constant, *device_vars;
  /* whose threads-per-block limit a --block (has_block) must meet, diagnosed at the flag
   * (NULL: the H100's, which are CUDA's since cc 2.0) */
  const struct Machine *machine;
} LaunchOverrides;
/* every --arg text ("NAME = ...") into ov->args (arena); false at the first that does not parse
 * (diagnosed) */
bool parse_arg_settings(Program *p, const char **texts, int n, LaunchOverrides *ov);
int launch_prepare(Launch *L, Program *p, Obj *kernel, const LaunchOverrides *ov);
void launch_free(Launch *L);
/* want blocks of a grid of total: the first, the last and evenly spread between (one: the
 * middle), without repeats, into out (want entries); how many (every block when want >= total) */
int launch_sample_blocks(int64_t total, int want, int64_t *out);
/* CUDA's limits on grid and block dimensions, overflow-safe; 0, or 2 after a diagnostic.
 * launch_prepare and interp_run check them, so a prepared launch's products do not overflow. */
int launch_check_dims(const Launch *L);
/* fill a buffer per its spec (exactly the generator docs/launch-spec.md defines) */
int buffer_init(Buffer *b, const ArgSpec *a);
uint64_t random_bits(uint64_t seed, uint64_t i);
uint64_t buffer_checksum(const Buffer *b); /* FNV-1a of the bytes */
/* the initial contents of a list of file-scope variables (by .next) at base + their offsets */
void init_variables(Obj *list, unsigned char *base);
/* the __constant__ area and the __device__ variables (buffer 0) of L from their initializers */
void launch_init_globals(Launch *L);

/* ---------------- host programs (host.c) ---------------- */
/* One launch the host program made, kept once per distinct configuration (kernel, grid, block,
 * dynamic shared memory, scalar arguments), with the buffers as they were when it started. */
typedef struct RecordedLaunch {
  Obj *kernel;
  int64_t grid[3], block[3], dyn_shared;
  SrcLoc site;        /* the <<<...>>> */
  int first;          /* the program's launch number (1-based) of its first occurrence */
  int count;          /* how many launches had this configuration */
  LaunchOverrides ov; /* the launch as flags would give it: buffers with the bytes they held
                          * (when kept; otherwise its pointer arguments are NULL) */
  bool kept;          /* its buffers were copied (HostOptions.copy_launch/copy_kernel) */
  uint64_t hash;      /* of the configuration, for finding it again */
} RecordedLaunch;

typedef struct HostOptions {
  const char *func; /* the host function to run (NULL: main) */
  int argc;
  const char **argv;             /* argv[0] is the program's name */
  const struct Machine *machine; /* cudaGetDeviceProperties answers for it (NULL: the H100) */
  RunOptions kernel_opt;         /* for every launch */
  uint64_t max_steps; /* the host function's own step limit (0: 10^11, or none with max_seconds) */
  double max_seconds; /* its wall-clock limit (0: none): what commands that want only the
                          * launches use by default instead of a step count (docs/limits.md) */
  bool record;        /* keep the distinct launches (RecordedLaunch) */
  int copy_launch;    /* copy the buffers of only this distinct launch (1-based; 0: see below) */
  const char *copy_kernel; /* else of only this kernel's first; else of the first 64 and each
                          * kernel's first */
  FILE *out;               /* the program's standard output (NULL: stdout) */
  FILE *err;               /* its standard error (NULL: stderr) */
  const struct NativeOptions
    *native; /* each launch's engine and check (native.h; NULL: the interpreter) */
  FILE *d2h; /* the whole-program check: every device-to-host copy logged (host_log_copy) */
} HostOptions;

typedef struct HostResult {
  int status; /* 0 the program ended (exit_code holds its status), 1 a fault (in a
                            kernel or in host code), 2 could not run or stopped (diagnosed) */
  int exit_code;
  int launches; /* launches made */
  int
    /* of them, not run: a configuration CUDA refuses (cudaErrorInvalidConfiguration) */
    invalid_launches;
  RecordedLaunch *rec;
  int nrec, cap_rec;
  int unrecorded; /* distinct launches past the recording's limit (2^20 configurations) */
  int uncopied;   /* launches whose buffers were wanted but not copied (1 GiB of copies) */
  uint64_t kernel_lane_ops, host_steps;
  double kernel_seconds;
  int native_launches;     /* launches the native engine ran (the rest: the interpreter) */
  double native_seconds;   /* their native time */
  uint64_t blocks_checked; /* blocks the interpreter ran as their check */
  bool timed_out;          /* the host code was stopped by HostOptions.max_seconds (status 2) */
  double host_seconds;     /* wall-clock time of the whole program */
} HostResult;

int host_run(Program *p, const HostOptions *o, HostResult *r);
/* the whole-program check's log of what the host observes (host.c, and the nvcc route's runtime):
 * one record per device-to-host copy, 'D', the element kind (HOST_LOG_*, from the type of the
 * kernel parameter the source allocation was bound to), the byte count (uint64_t) and the bytes;
 * past HOST_LOG_LIMIT bytes in all a record 'T' with the count and no bytes (not compared) */
enum { HOST_LOG_BYTES, HOST_LOG_FLOAT, HOST_LOG_DOUBLE };
#define HOST_LOG_LIMIT (1ull << 30)
void host_log_copy(FILE *f, const Type *elem, const void *data, uint64_t n);
void host_result_free(HostResult *r);
#endif
