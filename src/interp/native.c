/* native: compile a kernel's C (native_emit.c) with the system's C compiler, cache it by source
 * hash, load it and run the launch's blocks over the machine's cores; the interpreter checks a
 * sample of blocks (or all) and runs whatever the native engine cannot. See native.h. */
#include "native.h"
#include "../arch/arch.h"
#include "half.h"
#include "../hash.h"
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

/* the generated code's view of a launch (native_emit.c's prelude declares the same) */
typedef struct {
  const uint64_t *args;
  unsigned char *globals;
  const unsigned char *constant;
  int64_t grid[3], block[3];
  uint64_t dyn_base;
  unsigned char *const *bufbase; /* pointers as integers: carve's addresses (interp.h) */
  const uint64_t *bufbytes;
  int nbufs;
  uint64_t shared_size, constant_size;
  double (*h2d)(uint16_t); /* __half through carve's own rounding (half.c) */
  uint16_t (*hfd)(double);
  uint64_t (*hop)(int, uint64_t, uint64_t, uint64_t);
} CarveNativeCtx;
typedef int BlockFn(const CarveNativeCtx *c, int64_t bx, int64_t by, int64_t bz, unsigned char *sh,
                    void *ts);

/* the flags every kernel is compiled with: no contraction the interpreter does not make, no fast
 * math, integers wrap as on the GPU, and no aliasing assumptions about the shared area */
static const char *const cc_flags[] = {"-std=gnu11",
                                       "-O2",
                                       "-fPIC",
                                       "-shared",
                                       "-fwrapv",
                                       "-fno-strict-aliasing",
                                       "-ffp-contract=off",
                                       "-fno-fast-math",
                                       "-w"};

/* the fused multiply-add instruction where the processor has it: fmaf is exact either way (one
 * rounding), so the results are the same bits, and the library call is 10x slower */
static const char *fma_flag(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") ? "-mfma" : NULL;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *compiler(void) {
  const char *cc = getenv("CC");
  return cc && *cc ? cc : "cc";
}

/* $CARVE_NATIVE_CACHE, $XDG_CACHE_HOME/carve/native, ~/.cache/carve/native, or a directory in
 * /tmp */
static const char *cache_dir(void) {
  const char *d = getenv("CARVE_NATIVE_CACHE"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  const char *dir = d && *d   ? d
                    : x && *x ? fmt("%s/carve/native", x)
                    : h && *h ? fmt("%s/.cache/carve/native", h)
                              : fmt("/tmp/carve-native-%d", (int)getuid());
  /* make each level; an existing one is fine */
  char *p = arena_strdup(dir);
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      mkdir(p, 0700);
      *s = '/';
    }
  mkdir(p, 0700);
  struct stat st;
  if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) return fmt("/tmp/carve-native-%d", (int)getuid());
  return p;
}

/* run the compiler on c_path into so_path; false with its first message in why */
static bool run_cc(const char *c_path, const char *so_path, const char *err_path, char *why,
                   size_t nwhy) {
  const char *argv[32];
  int n = 0;
  argv[n++] = compiler();
  for (size_t i = 0; i < sizeof cc_flags / sizeof *cc_flags; i++) argv[n++] = cc_flags[i];
  if (fma_flag()) argv[n++] = fma_flag();
  argv[n++] = "-o";
  argv[n++] = so_path;
  argv[n++] = c_path;
  argv[n++] = "-lm";
  argv[n] = NULL;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(why, nwhy, "cannot start the C compiler: %s", strerror(errno));
    return false;
  }
  if (pid == 0) {
    FILE *e = freopen(err_path, "w", stderr);
    (void)e;
    execvp(argv[0], (char *const *)argv);
    fprintf(stderr, "cannot run '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  size_t len = 0;
  char *msg = read_file(err_path, &len);
  char first[200] = "";
  if (msg) {
    sscanf(msg, "%199[^\n]", first);
    free(msg);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    snprintf(why, nwhy, "no C compiler: %s (set $CC)", first[0] ? first : compiler());
  else
    snprintf(why, nwhy, "the C compiler (%s) failed on the generated code: %s", compiler(), first);
  return false;
}

typedef struct Compiled {
  void *dl;
  BlockFn *block;
  size_t tstate;
  bool barriers, ordered, cached;
  double seconds;
} Compiled;

/* translate, compile (or find in the cache) and load kernel k; false with why */
static bool compile_kernel(Program *p, Obj *k, Compiled *c, char *why, size_t nwhy) {
  memset(c, 0, sizeof *c);
  double t0 = now();
  NativeCode code;
  ProgramScope scope = program_enter(p);
  native_emit(p, k, &code);
  program_leave(scope);
  if (!code.src) {
    snprintf(why, nwhy, "not translated: %s", code.why);
    return false;
  }
  uint64_t h = fnv1a64(code.src, strlen(code.src));
  h = fnv1a64_add(h, compiler(), strlen(compiler()));
  for (size_t i = 0; i < sizeof cc_flags / sizeof *cc_flags; i++)
    h = fnv1a64_add(h, cc_flags[i], strlen(cc_flags[i]));
  if (fma_flag()) h = fnv1a64_add(h, fma_flag(), strlen(fma_flag()));
  const char *dir = cache_dir();
  const char *so = fmt("%s/k%016llx.so", dir, (unsigned long long)h);
  struct stat st;
  c->cached = stat(so, &st) == 0;
  if (!c->cached) {
    const char *tc = fmt("%s/k%016llx.%d.c", dir, (unsigned long long)h, (int)getpid());
    const char *ts = fmt("%s/k%016llx.%d.so", dir, (unsigned long long)h, (int)getpid());
    const char *te = fmt("%s/k%016llx.%d.err", dir, (unsigned long long)h, (int)getpid());
    FILE *f = fopen(tc, "w");
    bool ok = f && fputs(code.src, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    free(code.src);
    code.src = NULL;
    if (!ok) {
      snprintf(why, nwhy, "cannot write %s: %s", tc, strerror(errno));
      unlink(tc);
      return false;
    }
    ok = run_cc(tc, ts, te, why, nwhy);
    unlink(te);
    if (!ok) {
      unlink(ts);
      return false;
    } /* the .c stays, for the report */
    if (rename(ts, so) != 0) {
      snprintf(why, nwhy, "cannot place %s: %s", so, strerror(errno));
      unlink(ts);
      unlink(tc);
      return false;
    }
    rename(tc, fmt("%s/k%016llx.c", dir, (unsigned long long)h));
  }
  free(code.src);
  c->dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!c->dl) {
    snprintf(why, nwhy, "cannot load %s: %s", so, dlerror());
    return false;
  }
  c->block = (BlockFn *)dlsym(c->dl, "carve_block");
  const unsigned *ts = dlsym(c->dl, "carve_tstate_size");
  if (!c->block || !ts) {
    snprintf(why, nwhy, "%s is not a carve kernel", so);
    dlclose(c->dl);
    c->dl = NULL;
    return false;
  }
  c->tstate = *ts;
  c->barriers = code.barriers;
  c->ordered = code.ordered;
  c->seconds = now() - t0;
  return true;
}

/* A buffer a kernel can reach. A host program's launch carries the whole world's buffers: host
 * memory (malloc, host variables, strings) faults in a kernel (the interpreter's address spaces)
 * and a freed block has no bytes, so neither is copied, checked or mapped for the native run. */
static bool kernel_buffer(const Buffer *B) {
  return B->kind != BUF_HOST && !B->freed && !B->unreached;
}

/* whether kernel k reaches global memory only through the pointers it is given (and the
 * __device__ variables): no pointer loaded from memory, made from an integer, held by a
 * variable outside the thread or returned by a builtin, in k or a function it calls. A
 * program's other buffers (a stream's other arrays, registered host memory) are then neither
 * copied nor compared for the launch: for a program of large buffers and many launches that
 * copying was most of the time (simpleStreams: 64 MiB each launch, 46 launches). */
typedef struct Reach {
  bool escapes;
  Obj **seen;
  int nseen;
} Reach;
static bool reach_node(Node *n, void *ctx) {
  Reach *r = ctx;
  if (r->escapes) return false;
  bool ptr = n->ty && n->ty->kind == TY_PTR;
  if (ptr && (n->kind == ND_DEREF || n->kind == ND_INDEX || n->kind == ND_MEMBER))
    r->escapes = true; /* a pointer loaded from memory */
  else if (ptr && n->kind == ND_CAST && n->lhs && n->lhs->ty && n->lhs->ty->kind != TY_PTR &&
           n->lhs->ty->kind != TY_ARRAY && n->lhs->kind != ND_NUM)
    r->escapes = true; /* made from an integer */
  else if (ptr && n->kind == ND_VAR && n->var->sc != SC_LOCAL && n->var->sc != SC_PARAM)
    r->escapes = true;                                             /* held outside the thread */
  else if (ptr && n->kind == ND_CALL && !n->fn) r->escapes = true; /* a builtin's */
  else if (n->kind == ND_CALL && n->fn && n->fn->body) {
    for (int i = 0; i < r->nseen; i++)
      if (r->seen[i] == n->fn) return !r->escapes;
    r->seen = xrealloc(r->seen, sizeof(Obj *) * (size_t)(r->nseen + 1));
    r->seen[r->nseen++] = n->fn;
    walk(n->fn->body, reach_node, NULL, r);
  }
  return !r->escapes;
}
/* mark the buffers launch L cannot reach (Buffer.unreached), when that is known */
static void mark_unreached(Launch *L) {
  Reach r = {0};
  r.seen = xmalloc(sizeof(Obj *));
  r.seen[r.nseen++] = L->kernel;
  walk(L->kernel->body, reach_node, NULL, &r);
  free(r.seen);
  if (r.escapes) return;
  for (int b = 1; b < L->nbufs; b++) L->bufs[b].unreached = true;
  int i = 0;
  for (Obj *q = L->kernel->params; q; q = q->next, i++) {
    if (q->ty->kind != TY_PTR) continue;
    uint64_t a = L->args[i].u, b = (a >> 40) & 0xfffff;
    if (ADDR_SPACE(a) == SPACE_GLOBAL && b < (uint64_t)L->nbufs) L->bufs[b].unreached = false;
  }
}
static void clear_unreached(Launch *L) {
  for (int b = 0; b < L->nbufs; b++) L->bufs[b].unreached = false;
}

/* ---------------- running the blocks ---------------- */
typedef struct Job {
  const CarveNativeCtx *ctx;
  BlockFn *block;
  int64_t total;
  atomic_llong next;
  atomic_int fault;
  size_t shared_size, tstate;
  int nthreads;
} Job;

static void *worker(void *arg) {
  Job *j = arg;
  unsigned char *sh = aligned_alloc(64, (j->shared_size + 64) & ~(size_t)63);
  void *ts = j->tstate ? calloc((size_t)j->nthreads, j->tstate) : NULL;
  if (!sh || (j->tstate && !ts)) {
    atomic_fetch_or(&j->fault, 8);
    free(sh);
    free(ts);
    return NULL;
  }
  const int64_t *g = j->ctx->grid;
  for (;;) {
    int64_t b = atomic_fetch_add(&j->next, 1);
    if (b >= j->total || atomic_load(&j->fault)) break;
    memset(sh, 0, j->shared_size);
    int rc = j->block(j->ctx, b % g[0], (b / g[0]) % g[1], b / (g[0] * g[1]), sh, ts);
    if (rc) atomic_fetch_or(&j->fault, rc);
  }
  free(sh);
  free(ts);
  return NULL;
}

static int cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

/* the argument words: buffers as the host addresses of their bytes; false when a pointer is not
 * into a buffer of the launch */
static bool native_args(const Launch *L, uint64_t *words, char *why, size_t nwhy) {
  int i = 0;
  for (Obj *p = L->kernel->params; p; p = p->next, i++) {
    uint64_t v = L->args[i].u;
    if (p->ty->kind != TY_PTR || v == 0) {
      words[i] = v;
      continue;
    }
    uint64_t b = (v >> 40) & 0xfffff, off = v & ((1ull << 40) - 1);
    if (ADDR_SPACE(v) != SPACE_GLOBAL || b == 0 || b >= (uint64_t)L->nbufs ||
        off > L->bufs[b].bytes) {
      snprintf(why, nwhy, "the pointer argument '%s' is not into a buffer of the launch", p->name);
      return false;
    }
    words[i] = (uint64_t)(uintptr_t)(L->bufs[b].data + off);
  }
  return true;
}

/* run every block of L with the compiled kernel; 0, or the fault bits (1 division by zero,
 * 2 divergent barrier, 4 assertion, 8 out of memory) */
static int run_compiled(Launch *L, const Compiled *c, int threads, double *seconds, int *used) {
  int nparams = 0;
  for (Obj *p = L->kernel->params; p; p = p->next) nparams++;
  uint64_t *words = xmalloc(sizeof(uint64_t) * (size_t)(nparams + 1));
  char why[200];
  if (!native_args(L, words, why, sizeof why)) {
    free(words);
    return 8;
  }
  CarveNativeCtx ctx = {
    .args = words, .globals = L->nbufs > 0 ? L->bufs[0].data : NULL, .constant = L->constant};
  for (int d = 0; d < 3; d++) {
    ctx.grid[d] = L->grid[d];
    ctx.block[d] = L->block[d];
  }
  ctx.dyn_base = ((uint64_t)L->prog->shared_size + 15) & ~(uint64_t)15;
  unsigned char **bases = xmalloc(sizeof *bases * (size_t)(L->nbufs + 1));
  uint64_t *sizes = xmalloc(sizeof *sizes * (size_t)(L->nbufs + 1));
  for (int b = 0; b < L->nbufs; b++) {
    bases[b] = L->bufs[b].data;
    sizes[b] = L->bufs[b].bytes;
  }
  ctx.bufbase = bases;
  ctx.bufbytes = sizes;
  ctx.nbufs = L->nbufs;
  ctx.shared_size = ctx.dyn_base + (uint64_t)(L->dyn_shared > 0 ? L->dyn_shared : 0);
  ctx.constant_size = (uint64_t)L->prog->constant_size;
  ctx.h2d = half_to_double;
  ctx.hfd = half_from_double;
  ctx.hop = half_op;
  Job j = {.ctx = &ctx,
           .block = c->block,
           .total = L->grid[0] * L->grid[1] * L->grid[2],
           .tstate = c->tstate,
           .nthreads = (int)(L->block[0] * L->block[1] * L->block[2])};
  atomic_init(&j.next, 0);
  atomic_init(&j.fault, 0);
  j.shared_size = (size_t)ctx.dyn_base + (size_t)(L->dyn_shared > 0 ? L->dyn_shared : 0);
  const char *env = getenv("CARVE_NATIVE_THREADS");
  int n = threads > 0 ? threads : env && atoi(env) > 0 ? atoi(env) : cores();
  if (c->ordered) n = 1; /* atomics in the interpreter's order: blocks in order, one worker */
  if ((int64_t)n > j.total) n = (int)j.total;
  if (n < 1) n = 1;
  double t0 = now();
  pthread_t tid[256];
  int started = 0;
  for (int i = 1; i < n; i++)
    if (pthread_create(&tid[started], NULL, worker, &j) == 0) started++;
  worker(&j);
  for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
  *seconds = now() - t0;
  *used = started + 1;
  free(words);
  free(bases);
  free(sizes);
  return atomic_load(&j.fault);
}

/* The native run in a child process, on copies of the buffers in shared mappings with 1 GiB of
 * inaccessible addresses on each side: an access up to 1 GiB past a buffer's ends (beyond its
 * last 16-byte granule) or a crash stops the child, not carve, and the buffers are only copied
 * back when it ended well. *sig: the signal that stopped it (0: none). */
enum { GUARD = 1 << 30 };
/* the check's results, compared with the native run's before they are copied back: a launch's
 * buffers change only when the native run ended well and agrees (no copy of them kept) */
typedef struct Snapshot {
  unsigned char **data;
  int n;
} Snapshot;
static void snap_take(Snapshot *s, const Launch *L);
static void snap_restore(const Snapshot *s, Launch *L);
static void snap_free(Snapshot *s);
static int64_t first_difference(const Launch *L, const Snapshot *interp, const Written *w,
                                int *buf);
typedef struct Compare {
  const Snapshot *chk;
  const Written *w; /* the sampled blocks' bytes (NULL: every byte) */
  int64_t at;       /* the first difference (-1: none) */
  int buf;
} Compare;
typedef struct Isolated {
  int fault, used;
  double seconds;
} Isolated;
static int run_isolated(Launch *L, const Compiled *c, int threads, double limit, double *seconds,
                        int *used, int *sig, Compare *cmp) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  int n = L->nbufs;
  unsigned char **maps = xmalloc(sizeof *maps * (size_t)(n + 1)),
                **orig = xmalloc(sizeof *orig * (size_t)(n + 1));
  size_t *lens = xmalloc(sizeof *lens * (size_t)(n + 1));
  int f = 0;
  *sig = 0;
  Isolated *res =
    mmap(NULL, sizeof(Isolated), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  bool ok = res != MAP_FAILED;
  for (int b = 0; b < n; b++) maps[b] = NULL;
  for (int b = 0; b < n && ok; b++) {
    if (!kernel_buffer(&L->bufs[b]))
      continue; /* not the kernel's: the child's own copy, never copied back */
    size_t bytes = L->bufs[b].bytes, body = (bytes + page - 1) / page * page;
    if (!body) body = page;
    lens[b] = body + 2 * (size_t)GUARD;
    maps[b] = mmap(NULL, lens[b], PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (maps[b] == MAP_FAILED) {
      maps[b] = NULL;
      ok = false;
      break;
    }
    if (mmap(maps[b] + GUARD, body, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED,
             -1, 0) == MAP_FAILED) {
      munmap(maps[b], lens[b]);
      maps[b] = NULL;
      ok = false;
      break;
    }
    orig[b] = L->bufs[b].data;
    unsigned char *data = maps[b] + GUARD + body - ((bytes + 15) & ~(size_t)15);
    if (bytes) memcpy(data, orig[b], bytes);
    L->bufs[b].data = data;
  }
  if (ok) {
    memset(res, 0, sizeof *res);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
      res->fault = run_compiled(L, c, threads, &res->seconds, &res->used);
      _exit(0);
    }
    int status = 0;
    bool late = false;
    if (pid < 0) ok = false;
    else {
      /* wait, and past the limit (longer than the interpreter would take) stop it */
      double t0 = now(), nap = 0.0005;
      for (;;) {
        pid_t r = waitpid(pid, &status, limit > 0 ? WNOHANG : 0);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) {
          ok = false;
          break;
        }
        if (r == 0 && now() - t0 > limit) {
          kill(pid, SIGKILL);
          late = true;
        }
        if (r == 0) {
          struct timespec ts = {0, (long)(nap * 1e9)};
          nanosleep(&ts, NULL);
          if (nap < 0.05) nap *= 2;
        }
      }
    }
    if (ok && late) *sig = -2;
    else if (ok && WIFSIGNALED(status)) *sig = WTERMSIG(status);
    else if (ok && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) *sig = -1;
    f = res->fault;
    *seconds = res->seconds;
    *used = res->used;
  }
  if (ok && !*sig && !f && cmp) cmp->at = first_difference(L, cmp->chk, cmp->w, &cmp->buf);
  bool agree = !cmp || cmp->at < 0;
  for (int b = 0; b < n; b++) {
    if (!maps[b]) continue;
    if (ok && !*sig && !f && agree && L->bufs[b].bytes)
      memcpy(orig[b], L->bufs[b].data, L->bufs[b].bytes);
    L->bufs[b].data = orig[b];
    munmap(maps[b], lens[b]);
  }
  if (res != MAP_FAILED) munmap(res, sizeof *res);
  free(maps);
  free(orig);
  free(lens);
  if (!ok) { /* no mappings or no fork: in process, from a copy kept to undo it */
    Snapshot keep;
    snap_take(&keep, L);
    f = run_compiled(L, c, threads, seconds, used);
    if (!f && cmp) cmp->at = first_difference(L, cmp->chk, cmp->w, &cmp->buf);
    if (f || (cmp && cmp->at >= 0)) snap_restore(&keep, L);
    snap_free(&keep);
  }
  return f;
}

static const char *fault_words(int f) {
  return f & 8    ? "out of memory"
         : f & 2  ? "a divergent barrier"
         : f & 1  ? "an integer division by zero"
         : f & 16 ? "a shuffle of an undefined value"
         : f & 32 ? "a local address converted to an integer (or an integer that is no address)"
                  : "a failed assertion";
}

/* ---------------- engines and the check ---------------- */
static void snap_take(Snapshot *s, const Launch *L) {
  s->n = L->nbufs;
  s->data = xmalloc(sizeof *s->data * (size_t)(L->nbufs + 1));
  for (int i = 0; i < L->nbufs; i++) {
    s->data[i] = NULL;
    if (!kernel_buffer(&L->bufs[i])) continue;
    s->data[i] = xmalloc(L->bufs[i].bytes + 1);
    if (L->bufs[i].bytes) memcpy(s->data[i], L->bufs[i].data, L->bufs[i].bytes);
  }
}
static void snap_restore(const Snapshot *s, Launch *L) {
  for (int i = 0; i < s->n; i++)
    if (s->data[i] && L->bufs[i].bytes) memcpy(L->bufs[i].data, s->data[i], L->bufs[i].bytes);
}
static void snap_free(Snapshot *s) {
  for (int i = 0; i < s->n; i++) free(s->data[i]);
  free(s->data);
  s->data = NULL;
}

int native_run_only(Launch *L, int threads, NativeReport *rep) {
  memset(rep, 0, sizeof *rep);
  rep->engine = "native";
  Compiled c;
  if (launch_check_dims(L)) return 2;
  if (!compile_kernel(L->prog, L->kernel, &c, rep->why, sizeof rep->why)) return 2;
  rep->cached = c.cached;
  rep->compile_seconds = c.seconds;
  int f = run_compiled(L, &c, threads, &rep->native_seconds, &rep->threads);
  dlclose(c.dl);
  if (f) {
    snprintf(rep->why, sizeof rep->why, "the native run found %s", fault_words(f));
    return f & 8 ? 2 : 1;
  }
  return 0;
}

/* the first byte where the native results differ from the interpreter's (only bytes the
 * interpreter's blocks wrote, when sampled); -1 when they agree */
static int64_t first_difference(const Launch *L, const Snapshot *interp, const Written *w,
                                int *buf) {
  for (int b = 0; b < L->nbufs; b++) {
    if ((w && w->atomic[b]) || !interp->data[b])
      continue; /* updated by atomics of every block: a sample cannot check it */
    const unsigned char *a = L->bufs[b].data, *x = interp->data[b];
    /* by chunks: one the sample did not write, or one that agrees, is passed over at memcmp's
     * speed (a byte at a time, this was a sixth of a large program's time) */
    static const unsigned char zero[4096];
    size_t bytes = L->bufs[b].bytes;
    for (size_t c = 0; c < bytes; c += sizeof zero) {
      size_t len = bytes - c < sizeof zero ? bytes - c : sizeof zero;
      if (w && !memcmp(w->bytes[b] + c, zero, len)) continue;
      if (!memcmp(a + c, x + c, len)) continue;
      for (size_t i = c; i < c + len; i++)
        if ((!w || w->bytes[b][i]) && a[i] != x[i]) {
          *buf = b;
          return (int64_t)i;
        }
    }
  }
  return -1;
}

static bool want_no_block(void *ctx, int64_t b) {
  (void)ctx;
  (void)b;
  return false;
}

static int interp_fallback(Launch *L, const RunOptions *ro, const NativeOptions *o, RunStats *st,
                           NativeReport *rep) {
  rep->engine = "interpreter";
  if (!o->quiet && rep->why[0])
    fprintf(stderr, "carve: note: the interpreter runs '%s': %s\n", L->kernel->name, rep->why);
  return interp_run(L, ro, st);
}

/* kernels whose launch outlasted the interpreter's slice (NativeOptions.memo) */
struct NativeMemo {
  Obj **k;
  int n;
};
NativeMemo *native_memo_new(void) { return xmalloc(sizeof(NativeMemo)); }
void native_memo_free(NativeMemo *m) {
  if (m) free(m->k);
  free(m);
}
static bool slice_memo_has(const NativeMemo *m, Obj *k) {
  for (int i = 0; m && i < m->n; i++)
    if (m->k[i] == k) return true;
  return false;
}
static void slice_memo_add(NativeMemo *m, Obj *k) {
  if (!m) return;
  m->k = xrealloc(m->k, sizeof(Obj *) * (size_t)(m->n + 1));
  m->k[m->n++] = k;
}

/* whether k (or a function it calls) holds a loop: without one a thread runs each statement
 * at most once, and a launch below the threshold is short */
typedef struct LoopFind {
  bool found;
  Obj **seen;
  int nseen;
} LoopFind;
static bool find_loop(Node *n, void *ctx) {
  LoopFind *f = ctx;
  if (f->found) return false;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO) {
    f->found = true;
    return false;
  }
  if (n->kind == ND_CALL && n->fn && n->fn->body) {
    for (int i = 0; i < f->nseen; i++)
      if (f->seen[i] == n->fn) return true;
    f->seen = xrealloc(f->seen, sizeof(Obj *) * (size_t)(f->nseen + 1));
    f->seen[f->nseen++] = n->fn;
    walk(n->fn->body, find_loop, NULL, f);
  }
  return true;
}
static bool has_loop(Obj *k) {
  LoopFind f = {0};
  f.seen = xmalloc(sizeof(Obj *));
  f.seen[f.nseen++] = k;
  if (k->body) walk(k->body, find_loop, NULL, &f);
  free(f.seen);
  return f.found;
}

/* a launch below the threshold in the interpreter for at most NATIVE_SLICE_SECONDS: its result
 * (0, 1, 2) when it ended in time, 3 when it was cut between blocks (the buffers are then as
 * they were: restored from a copy) */
static int interp_slice(Launch *L, const RunOptions *ro, RunStats *st, NativeReport *rep) {
  Snapshot s;
  snap_take(&s, L);
  RunOptions cro = *ro;
  cro.cut_seconds = NATIVE_SLICE_SECONDS;
  int rc = interp_run(L, &cro, st);
  if (rc == 2 && st->cut) {
    snap_restore(&s, L);
    memset(st, 0, sizeof *st);
    rc = 3;
  }
  snap_free(&s);
  rep->engine = "interpreter";
  return rc;
}

int native_run_launch(Launch *L, const RunOptions *ro, const NativeOptions *o, RunStats *st,
                      NativeReport *rep) {
  static const RunOptions none;
  if (!ro) ro = &none;
  memset(rep, 0, sizeof *rep);
  memset(st, 0, sizeof *st);
  rep->engine = "interpreter"; /* until the native run succeeds */
  double threads_total = (double)L->grid[0] * (double)L->grid[1] * (double)L->grid[2] *
                         (double)(L->block[0] * L->block[1] * L->block[2]);
  bool native =
    o->engine == ENGINE_NATIVE || (o->engine == ENGINE_AUTO && threads_total >= NATIVE_THRESHOLD);
  if (!native && o->engine == ENGINE_AUTO && !L->host_code && !ro->hooks && has_loop(L->kernel) &&
      !(L->kernel->uses_grid_sync && L->grid[0] * L->grid[1] * L->grid[2] > 1)) {
    /* few threads, but perhaps long loops (a thread per row of a large matrix): the interpreter
     * gets a slice of time; a launch still running after it starts again natively */
    if (slice_memo_has(o->memo, L->kernel)) native = true;
    else {
      int rc = interp_slice(L, ro, st, rep);
      if (rc != 3) return rc;
      slice_memo_add(o->memo, L->kernel);
      native = true;
    }
  }
  if (!native || L->host_code || ro->hooks) {
    if (o->engine == ENGINE_NATIVE)
      snprintf(rep->why, sizeof rep->why, "%s",
               L->host_code ? "host code runs in the interpreter" : "hooks need the interpreter");
    return interp_fallback(L, ro, o, st, rep);
  }
  if (launch_check_dims(L)) return 2;
  Compiled c;
  if (!compile_kernel(L->prog, L->kernel, &c, rep->why, sizeof rep->why))
    return interp_fallback(L, ro, o, st, rep);
  rep->cached = c.cached;
  rep->compile_seconds = c.seconds;
  mark_unreached(L);
  Snapshot chk = {0};
  int rc = 0;
  Written w = {0};
  int64_t total = L->grid[0] * L->grid[1] * L->grid[2];
  int64_t *blocks = NULL;
  Launch C = *L;
  if (o->check == CHECK_NONE) {
    /* no block checked, but the launch's configuration is (threads per block, shared memory) */
    Hooks none = {.want_block = want_no_block};
    RunOptions cro = *ro;
    cro.hooks = &none;
    rc = interp_run(L, &cro, st);
    memset(st, 0, sizeof *st);
    if (rc) goto done;
  }
  if (o->check != CHECK_NONE) {
    /* the interpreter first, on a copy: a fault is found before native code touches anything */
    C.bufs = xmalloc(sizeof(Buffer) * (size_t)(L->nbufs + 1));
    memcpy(C.bufs, L->bufs, sizeof(Buffer) * (size_t)L->nbufs);
    snap_take(&chk, L);
    for (int i = 0; i < L->nbufs; i++) C.bufs[i].data = chk.data[i] ? chk.data[i] : L->bufs[i].data;
    written_init(&w, &C);
    if (o->check == CHECK_SAMPLE) {
      int want = o->check_blocks > 0 ? o->check_blocks : 4;
      blocks = xmalloc(sizeof(int64_t) * (size_t)want);
      w.blocks = blocks;
      w.nblocks = launch_sample_blocks(total, want, blocks);
      if (w.nblocks >= total) w.blocks = NULL; /* every block: a full check */
    }
    Hooks h = written_hooks(&w);
    RunOptions cro = *ro;
    cro.hooks = &h;
    double t0 = now();
    rc = interp_run(&C, &cro, st);
    rep->check_seconds = now() - t0;
    rep->blocks_checked = (int64_t)st->blocks_run;
    free(C.bufs);
    if (rc) { /* a fault or an error: the interpreter has said it; nothing ran natively */
      rep->engine = "interpreter";
      snprintf(rep->why, sizeof rep->why, "the check found a fault");
      goto done;
    }
  }
  int used = 0;
  uint64_t check_ops = st->lane_ops;
  int sig = 0;
  /* a native run longer than the interpreter would take for the whole launch (from the check's
   * time per block), with a margin, is a loop that does not end: the interpreter's step limit
   * then applies */
  double limit = rep->blocks_checked > 0
                   ? 10.0 + 4.0 * rep->check_seconds * (double)total / (double)rep->blocks_checked
                   : 0;
  Compare cmp = {&chk, w.blocks ? &w : NULL, -1, -1};
  int f = run_isolated(L, &c, o->threads, limit, &rep->native_seconds, &used, &sig,
                       o->check != CHECK_NONE ? &cmp : NULL);
  rep->threads = used;
  if (sig == -2) {
    snprintf(
      rep->why, sizeof rep->why,
      "the native run took longer than the interpreter would (%.0f s): stopped; the interpreter runs it",
      limit);
    rc = interp_fallback(L, ro, o, st, rep);
    goto done;
  }
  if (sig) {
    snprintf(
      rep->why, sizeof rep->why,
      "the native run stopped with %s (an access out of bounds in a block the check did not run?); the interpreter says where",
      sig > 0 ? strsignal(sig) : "an error");
    rc = interp_fallback(L, ro, o, st, rep);
    goto done;
  }
  if (f) { /* the buffers were not touched */
    snprintf(rep->why, sizeof rep->why, "the native run found %s; the interpreter says where",
             fault_words(f));
    rc = interp_fallback(L, ro, o, st, rep);
    goto done;
  }
  if (o->check != CHECK_NONE) {
    int b = cmp.buf;
    int64_t at = cmp.at;
    if (at >= 0) { /* the native results were not copied back */
      Buffer *B = &L->bufs[b];
      int es = B->elem_ty && B->elem_ty->size > 0 ? B->elem_ty->size : 1;
      fprintf(
        stderr,
        "carve: warning: the native engine and the interpreter differ in '%s' at element %lld (a carve bug); the interpreter's results are used\n",
        B->name, (long long)(at / es));
      snprintf(rep->why, sizeof rep->why, "the native results differed from the interpreter's");
      rc = interp_fallback(L, ro, o, st, rep);
      goto done;
    }
  }
  rep->engine = "native";
  st->seconds = rep->native_seconds;
  st->blocks_run = (uint64_t)total;
  st->lane_ops = check_ops;
  if (!o->quiet)
    fprintf(
      stderr,
      "carve: native engine: %s<<<...>>> %lld blocks on %d thread%s in %.3f s (compiled in %.2f s%s); %s\n",
      L->kernel->name, (long long)total, used, used == 1 ? "" : "s", rep->native_seconds,
      rep->compile_seconds, rep->cached ? ", cached" : "",
      o->check == CHECK_NONE ? "not checked"
                             : fmt("the interpreter checked %lld block%s (%.2f s), bit-identical",
                                   (long long)rep->blocks_checked,
                                   rep->blocks_checked == 1 ? "" : "s", rep->check_seconds));
done:
  clear_unreached(L);
  if (w.bytes) written_free(&w);
  free(blocks);
  if (chk.data) snap_free(&chk);
  dlclose(c.dl);
  return rc;
}
