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
 * deep) are reported with the source location, block and thread, and stop the launch. */
#ifndef CARVE_INTERP_H
#define CARVE_INTERP_H
#include "../front/front.h"

typedef uint32_t Mask;
typedef union { int64_t i; uint64_t u; float f; double d; } Val;

/* address spaces, in the top 4 bits of a pointer value */
enum { SPACE_NONE = 0, SPACE_GLOBAL = 1, SPACE_SHARED = 2, SPACE_LOCAL = 3, SPACE_CONST = 4 };
#define ADDR_SPACE(a) ((int)((a) >> 60))
#define GLOBAL_ADDR(buf, off) (((uint64_t)SPACE_GLOBAL << 60) | ((uint64_t)(buf) << 40) | (uint64_t)(off))

typedef struct Buffer {
  const char *name;      /* parameter name, or the __device__ variable's */
  Type *elem_ty;
  int64_t count;
  size_t bytes;
  unsigned char *data;   /* malloc'ed, owned by the launch */
  bool out;
  const ArgSpec *spec;
} Buffer;

typedef struct Launch {
  Program *prog;
  Obj *kernel;
  int64_t grid[3], block[3], dyn_shared;
  Buffer *bufs;          /* bufs[0] is the __device__ globals area */
  size_t buffer_bytes;   /* the parameters' buffers together (LIMIT_LAUNCH_BYTES) */
  int nbufs;
  Val *args;             /* one per kernel parameter */
  unsigned char *constant; /* __constant__ area */
  SrcLoc where;          /* the launch spec line, or the kernel, for launch errors */
  const struct Machine *machine; /* whose limits apply (threads and shared memory per block);
                                    NULL: the H100 */
} Launch;

/* what the analyzer and the model observe while a launch runs */
typedef enum { ACC_LOAD, ACC_STORE, ACC_ATOMIC } AccessKind;
typedef struct Hooks {
  void *ctx;
  /* one warp-wide memory instruction: addr[l] for the lanes in m */
  void (*access)(void *ctx, Node *at, int space, AccessKind kind, int size, const uint64_t *addr, Mask m,
                 int64_t block_linear, int warp);
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

typedef struct RunOptions {
  uint64_t max_steps;    /* warp-steps before the launch is stopped as runaway (0: default 2e9) */
  bool no_race_check;
  int max_reports;       /* faults printed before stopping the listing (default 10) */
  const Hooks *hooks;
  FILE *printf_out;      /* device printf goes here (default stdout) */
  uint64_t warp_step_cap;/* sampling: stop each warp quietly after this many steps (0: never) */
  bool poison_shared;    /* each block's shared memory starts as 0xff bytes (NaN, -1), not zeros:
                          * a read of an element nobody wrote changes the result (verification) */
} RunOptions;

typedef struct RunStats {
  uint64_t lane_ops;     /* lane-operations: AST nodes evaluated x active lanes */
  uint64_t warp_steps;   /* AST nodes evaluated per warp */
  uint64_t blocks_run;
  int faults;
  uint64_t warps_truncated; /* warps stopped by warp_step_cap */
  double seconds;
} RunStats;

/* 0: ran to completion; 1: a fault was found and reported; 2: could not run (diagnosed) */
int interp_run(Launch *L, const RunOptions *opt, RunStats *stats);

/* launch.c: build a launch from the file's spec, overridden by flags. 0 ok, 2 error (diagnosed) */
typedef struct LaunchOverrides {
  bool has_grid, has_block;
  int64_t grid[3], block[3];
  int64_t dyn_shared;     /* -1: keep */
  ArgSpec **args; int nargs;
} LaunchOverrides;
int launch_prepare(Launch *L, Program *p, Obj *kernel, const LaunchOverrides *ov);
void launch_free(Launch *L);
/* CUDA's limits on grid and block dimensions, overflow-safe; 0, or 2 after a diagnostic.
 * launch_prepare and interp_run check them, so a prepared launch's products do not overflow. */
int launch_check_dims(const Launch *L);
/* fill a buffer per its spec (exactly the generator docs/launch-spec.md defines) */
int buffer_init(Buffer *b, const ArgSpec *a);
uint64_t random_bits(uint64_t seed, uint64_t i);
uint64_t buffer_checksum(const Buffer *b);   /* FNV-1a of the bytes */
#endif
