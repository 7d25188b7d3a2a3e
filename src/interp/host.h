/* host: what the interpreter (interp.c) and the host runtime (host.c) share. The host program
 * runs in the interpreter as one thread (a one-lane warp of a one-thread launch whose buffers
 * are the program's allocations); calls of the functions the host prelude declares (parse.c),
 * printf, clock() and <<<...>>> launches come here. */
#ifndef CARVE_HOST_H
#define CARVE_HOST_H
#include "interp.h"

typedef struct HostWorld HostWorld;

/* What a runtime call sees of the interpreter: memory through its checks. mem faults (located
 * at the call, never returning) on a bad access; device: the call may reach device memory
 * (cudaMemcpy's device side), which host code may not. */
typedef struct HostCtx {
  HostWorld *hw;
  void *warp;
  Node *at;
  unsigned char *(*mem)(struct HostCtx *c, uint64_t addr, size_t n, bool write, bool device);
  uint64_t host_steps; /* the host function's steps so far (the simulated clock) */
} HostCtx;

typedef enum { HC_OK, HC_ERROR, HC_EXIT, HC_STOP } HostStatus;

/* a call of a host-runtime function with its arguments (lane 0) and their types; HC_ERROR with
 * *msg: the caller faults at the call; HC_EXIT: the program called exit() */
HostStatus host_call(HostCtx *c, Obj *fn, const Val *args, Type **tys, int nargs, Val *ret,
                     const char **msg);
/* host_lib.c: printf's conversions over the arguments from k on (HC_ERROR with *msg on a bad
 * format); glibc's rand state (34 words and a position); the C string at a host address */
HostStatus host_format(HostCtx *c, Buf *out, const char *f, const Val *args, Type **tys, int nargs,
                       int k, const char **msg);
void host_rand_seed(int32_t r[34], int *at, unsigned seed);
int host_rand_next(int32_t r[34], int *at);
const char *host_cstring(HostCtx *c, uint64_t a);
/* printf in host code: to the program's standard output */
HostStatus host_printf(HostCtx *c, const char *fmt, const Val *args, Type **tys, int nargs,
                       const char **msg);
/* the address of a string literal in host memory (one copy per literal) */
uint64_t host_string(HostCtx *c, Node *str);
/* clock(): the simulated clock in microseconds */
int64_t host_clock(HostCtx *c);
/* a <<<...>>> launch, run at once (every stream is an in-order queue, and one order of them all
 * is the program's); *status is interp_run's: 0, 1 a fault (reported), 2 could not run or
 * stopped (diagnosed) */
void host_launch(HostCtx *c, Node *launch, const int64_t grid[3], const int64_t block[3],
                 int64_t shmem, const Val *args, int *status);
#endif
