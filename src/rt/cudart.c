/* cudart: carve's substitute CUDA runtime. A program built by nvcc with `-cudart none` and linked
 * against build/libcarve_cudart.so calls these functions instead of NVIDIA's libcudart (as
 * GPGPU-Sim and Ocelot link a replacement): nvcc's registration code (__cudaRegisterFatBinary,
 * __cudaRegisterFunction, __cudaRegisterVar) tells which host stub stands for which kernel, by its
 * mangled name; each launch (the <<<>>> configuration pushed and popped, then __cudaLaunchKernel or
 * cudaLaunchKernel) runs at once in carve's interpreter on the kernel carve's front end read from
 * the same .cu files (named in the environment by `carve run`, src/rt/route.c).
 *
 * Memory: cudaMalloc gives an interpreter address (GLOBAL_ADDR: buffer number and offset, a
 * non-canonical x86-64 address the host cannot dereference, as it cannot a GPU's), so every
 * access a kernel makes is checked against its allocation; managed and pinned memory is real
 * host memory that kernels reach through a translation of the pointer arguments. Streams are
 * in-order and synchronous; events read the host clock. After a fault every call returns
 * cudaErrorIllegalAddress, as a GPU context does. The summary (launches, faults, the distinct
 * launches with their arguments as --arg texts) is written at exit for carve. */
#include "cudart.h"
#include "../interp/native.h"
#include "../arch/arch.h"
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <pthread.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* the runtime's state (cudart.h) */
RtState rt;

/* ---------------- messages ---------------- */
/* the host function that called the runtime (the program is linked with -rdynamic) */
static const char *caller_name(void *ret) {
  Dl_info di;
  if (!ret || !dladdr(ret, &di) || !di.dli_sname) return NULL;
  char *(*demangle)(const char *, char *, size_t *, int *) =
    (char *(*)(const char *, char *, size_t *, int *))dlsym(RTLD_DEFAULT, "__cxa_demangle");
  int st = -1;
  char *d = demangle ? demangle(di.dli_sname, NULL, NULL, &st) : NULL;
  const char *s = arena_strdup(d && st == 0 ? d : di.dli_sname);
  free(d);
  return s;
}

/* a misuse of the runtime (bad copy, bad free): said on stderr and counted in the error summary */
cudaError_t api_error(void *ret, cudaError_t e, const char *f, ...)
  __attribute__((format(printf, 3, 4)));
cudaError_t api_error(void *ret, cudaError_t e, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  fflush(stdout);
  fprintf(stderr, "carve: error: ");
  vfprintf(stderr, f, ap);
  va_end(ap);
  const char *who = caller_name(ret);
  if (who) fprintf(stderr, " (called from %s)", who);
  fprintf(stderr, "\n");
  rt.api_errors++;
  rt.last_error = e;
  return e;
}
/* host threads (OpenMP, std::thread) may call the runtime at once: the interpreter and carve's
 * arenas are one thread's, so launches, allocations and copies take one lock in turn */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
#define LOCKED(call) \
  (pthread_mutex_lock(&lock), lock_result = (call), pthread_mutex_unlock(&lock), lock_result)
static __thread cudaError_t lock_result;

cudaError_t ok_or_sticky(void) { return rt.sticky ? rt.sticky : cudaSuccess; }

/* ---------------- loading the device code ---------------- */
static char **lines_of(const char *s, int *n) {
  *n = 0;
  char **v = NULL;
  if (!s) return NULL;
  for (const char *p = s; *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len) {
      v = xrealloc(v, sizeof(char *) * (size_t)(*n + 1));
      v[(*n)++] = arena_strndup(p, len);
    }
    p += len + (e ? 1 : 0);
  }
  return v;
}

static int new_buf(BufferKind kind, size_t bytes, const char *how, void *data);
static void write_summary(void);
static double now_ms(void);

/* read the .cu files as carve run does (one unit, each included in turn); its diagnostics are kept
 * and shown only when a kernel the program launches is missing */
static bool load(void) {
  if (rt.state) return rt.state > 0;
  rt.state = -1;
  int nsrc, nfl;
  char **src = lines_of(getenv(RT_ENV_SOURCES), &nsrc),
       **fl = lines_of(getenv(RT_ENV_PPFLAGS), &nfl);
  PPOptions pp = {0};
  for (int i = 0; i < nfl; i++) {
    if (!strncmp(fl[i], "-I", 2)) arena_push(&pp.include_dirs, &pp.n_include_dirs, fl[i] + 2);
    else if (!strncmp(fl[i], "-D", 2)) arena_push(&pp.defines, &pp.n_defines, fl[i] + 2);
  }
  Buf text = {0};
  for (int i = 0; i < nsrc; i++) buf_printf(&text, "#include \"%s\"\n", src[i]);
  FILE *mem = open_memstream(&rt.load_diags, &rt.load_diags_len);
  FILE *saved = diag_out;
  bool color = diag_color;
  if (mem) {
    diag_out = mem;
    diag_color = false;
  }
  rt.p = nsrc ? load_program_text("<command line>", text.s ? text.s : "", &pp) : NULL;
  if (mem) {
    fclose(mem);
    diag_out = saved;
    diag_color = color;
  }
  buf_free(&text);
  free(src);
  free(fl);
  if (!nsrc) {
    fprintf(
      stderr,
      "carve: error: the runtime was not told the program's sources (%s): run the program with 'carve run'\n",
      RT_ENV_SOURCES);
    return false;
  }
  if (!rt.p) {
    fprintf(stderr, "carve: error: carve could not read the program's device code:\n%s",
            rt.load_diags ? rt.load_diags : "");
    return false;
  }
  const char *arch = getenv(RT_ENV_ARCH);
  rt.W.machine = machine_find(arch && *arch ? arch : "h100");
  if (!rt.W.machine) rt.W.machine = machine_find("h100");
  rt.W.prog = rt.p;
  rt.W.constant = xmalloc((size_t)rt.p->constant_size + 1);
  if (new_buf(BUF_DEVICE, (size_t)rt.p->device_global_size, "__device__ variables", NULL) != 0)
    return false;
  rt.W.bufs[0].name = "__device__ variables";
  rt.W.bufs[0].how = NULL;
  launch_init_globals(&rt.W);
  const char *ms = getenv(RT_ENV_MAX_STEPS);
  rt.ro.max_steps = ms ? strtoull(ms, NULL, 10) : 0;
  rt.ro.no_race_check = getenv(RT_ENV_NO_RACE) && !strcmp(getenv(RT_ENV_NO_RACE), "1");
  rt.ro.progress = false;
  rt.record_dir = getenv(RT_ENV_RECORD);
  const char *eng = getenv(RT_ENV_ENGINE), *chk = getenv(RT_ENV_CHECK);
  rt.native.engine = eng && !strcmp(eng, "native")   ? ENGINE_NATIVE
                     : eng && !strcmp(eng, "interp") ? ENGINE_INTERP
                                                     : ENGINE_AUTO;
  rt.native.check = chk && !strcmp(chk, "all")    ? CHECK_ALL
                    : chk && !strcmp(chk, "none") ? CHECK_NONE
                                                  : CHECK_SAMPLE;
  rt.native.quiet = true;
  rt.native.memo = native_memo_new(); /* the program's: kept until it ends */
  rt.state = 1;
  return true;
}

/* the kernel nvcc registered as `mangled`: carve's kernel of that (demangled) name */
static const char *demangled(const char *mangled) {
  if (strncmp(mangled, "_Z", 2)) return mangled; /* extern "C" */
  char *(*demangle)(const char *, char *, size_t *, int *) =
    (char *(*)(const char *, char *, size_t *, int *))dlsym(RTLD_DEFAULT, "__cxa_demangle");
  int st = -1;
  char *d = demangle ? demangle(mangled, NULL, NULL, &st) : NULL;
  if (!d || st) {
    free(d);
    return mangled;
  }
  /* "void k<256, float>(float*, int)": the name before the top-level '(', after the return type */
  int depth = 0;
  const char *start = d, *end = NULL;
  for (const char *c = d; *c && !end; c++) {
    if (*c == '<') depth++;
    else if (*c == '>') depth--;
    else if (*c == '(' && depth == 0) end = c;
    else if (*c == ' ' && depth == 0) start = c + 1;
  }
  const char *r = arena_strndup(start, end ? (size_t)(end - start) : strlen(start));
  free(d);
  return r;
}

/* "k<256u, 3l>" as carve spells it: integer suffixes dropped */
static const char *plain_template_args(const char *s) {
  Buf b = {0};
  for (const char *c = s; *c; c++) {
    if ((*c == 'u' || *c == 'l') && c > s && c[-1] >= '0' && c[-1] <= '9' &&
        (c[1] == ',' || c[1] == '>' || c[1] == 'l' || c[1] == 'u'))
      continue;
    buf_printf(&b, "%c", *c);
  }
  const char *r = arena_strdup(b.s ? b.s : "");
  buf_free(&b);
  return r;
}

Obj *kernel_of(RtFunc *f) {
  if (f->tried) return f->kernel;
  f->tried = true;
  if (!load()) return NULL;
  const char *name = demangled(f->dev_name);
  ProgramScope s = program_enter(rt.p);
  FILE *saved = diag_out;
  diag_quiet = true;
  Obj *k = find_kernel(rt.p, name);
  if (!k && strchr(name, '<')) k = find_kernel(rt.p, plain_template_args(name));
  diag_quiet = false;
  diag_out = saved;
  program_leave(s);
  f->kernel = k && k->body ? k : NULL;
  if (!f->kernel) {
    fflush(stdout);
    fprintf(
      stderr,
      "carve: error: the program launches '%s' (%s), which carve's front end did not read from the sources\n",
      name, f->dev_name);
    if (rt.load_diags && *rt.load_diags)
      fprintf(stderr, "carve: what the front end said about the sources:\n%s", rt.load_diags);
  }
  return f->kernel;
}

/* ---------------- the table of allocations ---------------- */
static int new_buf(BufferKind kind, size_t bytes, const char *how, void *data) {
  if (bytes > LIMIT_BYTES - rt.bytes) return -1;
  int b = rt.W.nbufs;
  if (b >= MAX_BUFS) return -1;
  if (b == rt.cap) {
    rt.cap = rt.cap ? rt.cap * 2 : 64;
    rt.W.bufs = xrealloc(rt.W.bufs, sizeof(Buffer) * (size_t)rt.cap);
    rt.borrowed = xrealloc(rt.borrowed, (size_t)rt.cap);
  }
  unsigned char *d = data;
  if (!d) {
    /* managed and pinned memory is the host's too: aligned as cudaMalloc's (256 bytes) */
    if (posix_memalign((void **)&d, 256, bytes ? bytes : 1)) return -1;
    memset(d, 0, bytes ? bytes : 1);
  }
  Buffer *B = &rt.W.bufs[b];
  memset(B, 0, sizeof *B);
  B->data = d;
  B->bytes = bytes;
  B->elem_ty = ty_uchar;
  B->count = (int64_t)bytes;
  B->kind = kind;
  B->how = NULL; /* no host location to name (interp/mem.c's buffer_desc would print one) */
  B->name = b ? fmt("%s #%d (%zu bytes)", how, b, bytes) : how;
  rt.borrowed[b] = data != NULL;
  rt.bytes += bytes;
  rt.W.nbufs++;
  return b;
}

static bool is_device_addr(uint64_t a) { return ADDR_SPACE(a) == SPACE_GLOBAL; }

/* the buffer holding host address a (managed, pinned or registered memory), or -1 */
static int host_block(uint64_t a, uint64_t *off) {
  for (int b = rt.W.nbufs - 1; b >= 1; b--) {
    Buffer *B = &rt.W.bufs[b];
    if (B->freed || B->kind == BUF_DEVICE) continue;
    uint64_t d = (uint64_t)(uintptr_t)B->data;
    if (a >= d && a < d + (B->bytes ? B->bytes : 1)) {
      *off = a - d;
      return b;
    }
  }
  return -1;
}

/* n bytes at a in this process: device memory checked against its allocation; NULL with *why */
static unsigned char *bytes_at(uint64_t a, size_t n, bool want_device, const char **why) {
  if (is_device_addr(a)) {
    uint64_t b = (a >> 40) & 0xfffff, off = a & ((1ull << 40) - 1);
    if (b >= (uint64_t)rt.W.nbufs) {
      *why = "an address no allocation returned";
      return NULL;
    }
    Buffer *B = &rt.W.bufs[b];
    if (B->freed) {
      *why = fmt("freed memory (%s)", B->name);
      return NULL;
    }
    if (off + n > B->bytes) {
      *why = fmt("%zu bytes at offset %llu of %s: past its end by %llu bytes", n,
                 (unsigned long long)off, B->name, (unsigned long long)(off + n - B->bytes));
      return NULL;
    }
    return B->data + off;
  }
  if (!a) {
    *why = "a null pointer";
    return NULL;
  }
  uint64_t off;
  int b = host_block(a, &off);
  if (b >= 0 && off + n > rt.W.bufs[b].bytes) {
    *why = fmt("%zu bytes at offset %llu of %s: past its end", n, (unsigned long long)off,
               rt.W.bufs[b].name);
    return NULL;
  }
  if (want_device && b < 0) {
    *why = fmt("host memory at %p (not from cudaMalloc, cudaMallocManaged or cudaMallocHost)",
               (void *)(uintptr_t)a);
    return NULL;
  }
  return (unsigned char *)(uintptr_t)a;
}

/* a pointer as a kernel sees it: managed and pinned host memory as the interpreter's address */
static uint64_t kernel_addr(uint64_t a) {
  if (is_device_addr(a) || !a) return a;
  uint64_t off;
  int b = host_block(a, &off);
  return b >= 0 ? GLOBAL_ADDR(b, off) : a;
}

/* ---------------- the time limit ---------------- */
/* carve's commands that want only the launches give the program RT_ENV_MAX_SECONDS of time
 * outside launches (its host code: a CPU reference of a large problem takes hours). A thread
 * started when the library loads watches it; it takes the runtime's lock, so it waits while a
 * launch runs (launches do not count), and past the limit it writes the summary (the launches
 * recorded so far, "stopped") and ends the program. */
static void *watchdog(void *arg) {
  double limit_ms = *(double *)arg * 1e3;
  for (;;) {
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    pthread_mutex_lock(&lock);
    if (now_ms() - rt.start_ms - rt.launch_ms > limit_ms) {
      rt.stopped = true;
      write_summary();
      fflush(stdout);
      _exit(124);
    }
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

__attribute__((constructor)) static void start_watchdog(void) {
  rt.start_ms = now_ms();
  const char *e = getenv(RT_ENV_MAX_SECONDS);
  static double limit;
  limit = e ? strtod(e, NULL) : 0;
  if (limit <= 0) return;
  pthread_t t;
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  pthread_create(&t, &at, watchdog, &limit);
  pthread_attr_destroy(&at);
}

/* ---------------- registration ---------------- */
EXPORT void **__cudaRegisterFatBinary(void *fatCubin) {
  (void)fatCubin;
  if (!rt.summary_hooked) {
    rt.summary_hooked = true;
    atexit(write_summary);
  }
  static void *handle;
  return &handle;
}
EXPORT void __cudaRegisterFatBinaryEnd(void **h) { (void)h; }
EXPORT void __cudaUnregisterFatBinary(void **h) { (void)h; }
EXPORT char __cudaInitModule(void **h) {
  (void)h;
  return 1;
}

EXPORT void __cudaRegisterFunction(void **h, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                                   dim3 *bDim, dim3 *gDim, int *wSize) {
  (void)h, (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim,
    (void)wSize;
  if (rt.nfuncs == rt.capfuncs) {
    rt.capfuncs = rt.capfuncs ? 2 * rt.capfuncs : 16;
    rt.funcs = xrealloc(rt.funcs, sizeof(RtFunc) * (size_t)rt.capfuncs);
  }
  rt.funcs[rt.nfuncs++] = (RtFunc){hostFun, strdup(deviceName), NULL, false};
}

EXPORT void __cudaRegisterVar(void **h, char *hostVar, char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global) {
  (void)h, (void)deviceAddress, (void)ext, (void)global;
  if (rt.nvars == rt.capvars) {
    rt.capvars = rt.capvars ? 2 * rt.capvars : 16;
    rt.vars = xrealloc(rt.vars, sizeof(RtVar) * (size_t)rt.capvars);
  }
  rt.vars[rt.nvars++] = (RtVar){hostVar, strdup(deviceName), size, constant != 0, NULL, false};
}

EXPORT void __cudaRegisterManagedVar(void **h, void **hostVarPtrAddress, char *deviceAddress,
                                     const char *deviceName, int ext, size_t size, int constant,
                                     int global) {
  (void)h, (void)hostVarPtrAddress, (void)deviceAddress, (void)deviceName, (void)ext, (void)size,
    (void)constant, (void)global;
  api_error(RET, cudaErrorNotSupported,
            "__managed__ variables are not supported by carve's runtime ('%s')", deviceName);
}

RtFunc *func_of(const void *host_fun) {
  for (int i = 0; i < rt.nfuncs; i++)
    if (rt.funcs[i].host_fun == host_fun) return &rt.funcs[i];
  return NULL;
}

/* a __device__ or __constant__ variable by its host shadow's address: its bytes in the
 * interpreter's areas, at offset off for n bytes; NULL with *why */
static unsigned char *symbol_bytes(const void *sym, size_t n, size_t off, Obj **var,
                                   const char **why) {
  RtVar *v = NULL;
  for (int i = 0; i < rt.nvars; i++)
    if (rt.vars[i].host_var == sym) v = &rt.vars[i];
  if (!v) {
    *why = "not a __device__ or __constant__ variable of the program";
    return NULL;
  }
  if (!load()) {
    *why = "the device code could not be read";
    return NULL;
  }
  if (!v->tried) {
    v->tried = true;
    const char *name = demangled(v->dev_name);
    for (Obj *g = rt.p->globals; g; g = g->next)
      if (!strcmp(g->name, name)) v->var = g;
  }
  if (!v->var) {
    *why = fmt("'%s' is not among the variables carve read", v->dev_name);
    return NULL;
  }
  Obj *g = v->var;
  *var = g;
  if (off + n > (size_t)g->ty->size) {
    *why =
      fmt("%zu bytes at offset %zu of '%s' (%d bytes): past its end", n, off, g->name, g->ty->size);
    return NULL;
  }
  return g->sc == SC_CONSTANT ? rt.W.constant + g->offset + off
                              : rt.W.bufs[0].data + g->offset + off;
}

/* ---------------- launches ---------------- */
EXPORT unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t shm,
                                            struct CUstream_st *stream) {
  if (rt.ncfg == MAX_CONFIG) return 1;
  rt.cfg[rt.ncfg].g = g;
  rt.cfg[rt.ncfg].b = b;
  rt.cfg[rt.ncfg].shm = shm;
  rt.cfg[rt.ncfg].stream = stream;
  rt.ncfg++;
  return 0;
}

EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *g, dim3 *b, size_t *shm, void *stream) {
  if (!rt.ncfg) return cudaErrorMissingConfiguration;
  rt.ncfg--;
  *g = rt.cfg[rt.ncfg].g;
  *b = rt.cfg[rt.ncfg].b;
  *shm = rt.cfg[rt.ncfg].shm;
  if (stream) *(void **)stream = rt.cfg[rt.ncfg].stream;
  return cudaSuccess;
}

EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *fun) {
  *k = (cudaKernel_t)fun; /* the host stub stands for its kernel */
  return cudaSuccess;
}

/* a kernel argument as the interpreter's value: scalars by their type, pointers translated,
 * structs through a buffer of their bytes (*tmp: its number, released after the launch) */
static Val arg_value(Type *t, const void *src, int *tmp) {
  Val v = {0};
  switch (t->kind) {
  case TY_FLOAT: memcpy(&v.f, src, 4); break;
  case TY_DOUBLE: memcpy(&v.d, src, 8); break;
  case TY_PTR:
    memcpy(&v.u, src, 8);
    v.u = kernel_addr(v.u);
    break;
  case TY_STRUCT:
  case TY_ARRAY: {
    int b = new_buf(BUF_DEVICE, (size_t)t->size, "kernel argument", NULL);
    if (b < 0) break;
    memcpy(rt.W.bufs[b].data, src, (size_t)t->size);
    v.u = GLOBAL_ADDR(b, 0);
    *tmp = b;
    break;
  }
  default:
    switch (t->size) {
    case 1:
      v.i = t->is_unsigned || t->kind == TY_BOOL ? (int64_t) * (const uint8_t *)src
                                                 : (int64_t) * (const int8_t *)src;
      break;
    case 2:
      v.i = t->is_unsigned ? (int64_t) * (const uint16_t *)src : (int64_t) * (const int16_t *)src;
      break;
    case 4:
      v.i = t->is_unsigned ? (int64_t) * (const uint32_t *)src : (int64_t) * (const int32_t *)src;
      break;
    default: memcpy(&v.i, src, 8);
    }
  }
  return v;
}

/* a block first passed to a kernel's pointer parameter takes its name and element type there,
 * so a fault says "element 1000 of 'a = cudaMalloc #1 (4000 bytes)' (1000 elements)" */
static void name_buffer(uint64_t a, Obj *q) {
  uint64_t b = (a >> 40) & 0xfffff;
  if (!is_device_addr(a) || b == 0 || b >= (uint64_t)rt.W.nbufs) return;
  Buffer *B = &rt.W.bufs[b];
  Type *et = q->ty->base ? unqual(q->ty->base) : NULL;
  if (B->freed || B->elem_ty != ty_uchar || !et || et->kind == TY_VOID || et->size <= 0 ||
      B->bytes % (size_t)et->size)
    return;
  B->elem_ty = et;
  B->count = (int64_t)(B->bytes / (size_t)et->size);
  B->name = fmt("%s = %s", q->name, B->name);
}

static void release(int b) {
  Buffer *B = &rt.W.bufs[b];
  rt.bytes -= B->bytes;
  if (!rt.borrowed[b]) free(B->data);
  B->data = NULL;
  B->bytes = 0;
  B->count = 0;
  B->freed = true;
}

static void record(Obj *k, const Launch *KL, int number);

static cudaError_t launch(const void *fun, dim3 g, dim3 b, void **args, size_t shm, void *ret) {
  if (rt.sticky) return rt.last_error = rt.sticky;
  RtFunc *f = func_of(fun);
  if (!f)
    return api_error(ret, cudaErrorInvalidDeviceFunction,
                     "launch of a function that is not a registered kernel");
  Obj *k = kernel_of(f);
  if (!k) {
    rt.api_errors++;
    rt.unrun++;
    return rt.last_error = cudaErrorInvalidDeviceFunction;
  }
  const Machine *M = rt.W.machine;
  uint64_t threads = (uint64_t)b.x * b.y * b.z;
  if (!g.x || !g.y || !g.z || !threads || threads > (uint64_t)M->max_threads_per_block ||
      b.z > 64 || g.y > 65535 || g.z > 65535 || shm > (size_t)M->smem_per_block_optin)
    return rt.last_error = cudaErrorInvalidConfiguration;
  Launch KL = rt.W;
  KL.kernel = k;
  KL.host_code = false;
  KL.grid[0] = g.x, KL.grid[1] = g.y, KL.grid[2] = g.z;
  KL.block[0] = b.x, KL.block[1] = b.y, KL.block[2] = b.z;
  KL.dyn_shared = (int64_t)shm;
  KL.where = tok_loc(k->tok);
  int np = 0;
  for (Obj *q = k->params; q; q = q->next) np++;
  Val *vals = xmalloc(sizeof(Val) * (size_t)(np ? np : 1));
  int *tmp = xmalloc(sizeof(int) * (size_t)(np ? np : 1));
  int i = 0;
  for (Obj *q = k->params; q; q = q->next, i++) {
    tmp[i] = -1;
    vals[i] = arg_value(q->ty, args[i], &tmp[i]);
    if (q->ty->kind == TY_PTR) name_buffer(vals[i].u, q);
  }
  KL.args = vals;
  KL.bufs = rt.W.bufs;
  KL.nbufs = rt.W.nbufs;
  double launch_t0 = now_ms();
  int number = ++rt.launches, had = rt.nrec;
  record(k, &KL, number);
  if (rt.nrec != had || now_ms() - rt.last_summary > 1000)
    write_summary(); /* what a stopped program leaves */
  RunStats st;
  fflush(stdout);
  /* a large launch runs natively, sampled blocks checked in the interpreter first (native.c);
   * why the interpreter ran a kernel instead is said once per kernel */
  NativeReport rep;
  int status = native_run_launch(&KL, &rt.ro, &rt.native, &st, &rep);
  if (!strcmp(rep.engine, "native")) {
    rt.native_launches++;
    rt.native_seconds += rep.native_seconds;
    rt.blocks_checked += (uint64_t)rep.blocks_checked;
  } else if (rep.why[0] && status != 1) {
    bool said = false;
    for (int s = 0; s < rt.nsaid; s++) said |= rt.said[s] == k;
    if (!said) {
      rt.said = xrealloc(rt.said, sizeof(Obj *) * (size_t)(rt.nsaid + 1));
      rt.said[rt.nsaid++] = k;
      fprintf(stderr, "carve: note: the interpreter runs '%s': %s\n", k->name, rep.why);
    }
  }
  fflush(stdout);
  rt.lane_ops += st.lane_ops;
  rt.kernel_seconds += st.seconds;
  rt.launch_ms += now_ms() - launch_t0;
  cudaError_t e = cudaSuccess;
  if (status == 1) {
    rt.faults += st.faults > 0 ? st.faults : 1;
    diag_at(DIAG_NOTE, tok_loc(k->tok),
            "in launch %d of '%s' (grid (%u,%u,%u), block (%u,%u,%u))%s", number, k->name, g.x, g.y,
            g.z, b.x, b.y, b.z, caller_name(ret) ? fmt(", made by %s", caller_name(ret)) : "");
    /* a failed assert() is cudaErrorAssert, any other fault an illegal address; both stick */
    e = rt.sticky = st.nfault > 0 && st.fault[0].kind == FAULT_ASSERTION ? cudaErrorAssert
                                                                         : cudaErrorIllegalAddress;
  } else if (status == 2) {
    rt.api_errors++;
    rt.unrun++;
    e = rt.sticky = st.stopped ? cudaErrorLaunchTimeout : cudaErrorLaunchFailure;
  }
  for (i = 0; i < np; i++)
    if (tmp[i] >= 0) release(tmp[i]);
  free(vals);
  free(tmp);
  if (e) rt.last_error = e;
  if (now_ms() - rt.last_summary > 1000) write_summary();
  return e;
}

EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shm,
                                      cudaStream_t s) {
  (void)s;
  return LOCKED(launch((const void *)k, g, b, args, shm, RET));
}
EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shm,
                                           cudaStream_t s) {
  (void)s;
  return LOCKED(launch((const void *)k, g, b, args, shm, RET));
}
EXPORT cudaError_t cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **args, size_t shm,
                                    cudaStream_t s) {
  (void)s;
  return LOCKED(launch(f, g, b, args, shm, RET));
}
EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 g, dim3 b, void **args,
                                               size_t shm, cudaStream_t s) {
  (void)s;
  return LOCKED(launch(f, g, b, args, shm, RET));
}

/* ---------------- recording the distinct launches ---------------- */
static bool same_config(const RtRecord *r, Obj *k, const Launch *KL) {
  if (r->kernel != k || r->shared != KL->dyn_shared || memcmp(r->grid, KL->grid, sizeof r->grid) ||
      memcmp(r->block, KL->block, sizeof r->block))
    return false;
  int i = 0;
  for (Obj *q = k->params; q; q = q->next, i++)
    if (q->ty->kind != TY_PTR && r->scalars[i].u != KL->args[i].u) return false;
  return true;
}

/* a C type name for a buffer's --arg text */
static const char *elem_name(Type *t) {
  t = t->kind == TY_PTR ? t->base : t;
  switch (t ? t->kind : TY_VOID) {
  case TY_FLOAT: return "float";
  case TY_DOUBLE: return "double";
  case TY_CHAR:
  case TY_BOOL: return t->is_unsigned ? "unsigned char" : "char";
  case TY_SHORT: return t->is_unsigned ? "unsigned short" : "short";
  case TY_INT:
  case TY_ENUM: return t->is_unsigned ? "unsigned int" : "int";
  case TY_LONG:
  case TY_LLONG: return t->is_unsigned ? "unsigned long" : "long";
  default: return "unsigned char";
  }
}

static bool write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* keep a launch whose configuration is new: its arguments as --arg texts, each buffer's bytes (from
 * the pointer to the end of its allocation) as a file when a record directory was given */
static void record(Obj *k, const Launch *KL, int number) {
  for (int i = 0; i < rt.nrec; i++)
    if (same_config(&rt.rec[i], k, KL)) {
      rt.rec[i].count++;
      return;
    }
  /* each kernel's first launch is kept whatever the bytes so far (a program's two kernels on
   * one 1 GiB matrix: both analyzable); the budget bounds repeated configurations */
  bool kernel_first = true;
  for (int i = 0; i < rt.nrec; i++) kernel_first &= rt.rec[i].kernel != k;
  if (rt.nrec >= MAX_RECORDED || (rt.recorded_bytes >= MAX_RECORDED_BYTES && !kernel_first)) {
    rt.unrecorded++;
    return;
  }
  int np = 0;
  for (Obj *q = k->params; q; q = q->next) np++;
  rt.rec = xrealloc(rt.rec, sizeof(RtRecord) * (size_t)(rt.nrec + 1));
  RtRecord *r = &rt.rec[rt.nrec];
  memset(r, 0, sizeof *r);
  r->kernel = k;
  memcpy(r->grid, KL->grid, sizeof r->grid);
  memcpy(r->block, KL->block, sizeof r->block);
  r->shared = KL->dyn_shared;
  r->first = number;
  r->count = 1;
  r->scalars = xmalloc(sizeof(Val) * (size_t)(np ? np : 1));
  memcpy(r->scalars, KL->args, sizeof(Val) * (size_t)np);
  const char *dir = rt.record_dir ? fmt("%s/launch-%d", rt.record_dir, rt.nrec + 1) : NULL;
  if (dir) mkdir(dir, 0777);
  int i = 0;
  for (Obj *q = k->params; q; q = q->next, i++) {
    Type *t = q->ty;
    Val v = KL->args[i];
    if (t->kind == TY_PTR) {
      uint64_t b = (v.u >> 40) & 0xfffff, off = v.u & ((1ull << 40) - 1);
      if (!is_device_addr(v.u) || b >= (uint64_t)rt.W.nbufs || rt.W.bufs[b].freed ||
          off > rt.W.bufs[b].bytes) {
        buf_printf(&r->args, "-\n"); /* not device memory: the launch faults; not analyzable */
        continue;
      }
      Buffer *B = &rt.W.bufs[b];
      Type *et =
        t->base && t->base->kind != TY_VOID && t->base->size > 0 && t->base->kind != TY_STRUCT
          ? t->base
          : ty_uchar;
      int es = et->kind == TY_STRUCT ? 1 : et->size;
      size_t count = (B->bytes - off) / (size_t)es;
      const char *path = dir ? fmt("%s/%s.bin", dir, q->name) : NULL;
      if (path && !write_file(path, B->data + off, count * (size_t)es)) path = NULL;
      rt.recorded_bytes += count * (size_t)es;
      buf_printf(&r->args, "%s=%s[%zu]:%s\n", q->name, elem_name(es == et->size ? t : ty_uchar),
                 count, path ? fmt("file(\"%s\")", path) : "zeros");
    } else if (t->kind == TY_FLOAT) {
      buf_printf(&r->args, "%s=%.9g\n", q->name, (double)v.f);
    } else if (t->kind == TY_DOUBLE) {
      buf_printf(&r->args, "%s=%.17g\n", q->name, v.d);
    } else if (t->kind == TY_STRUCT || t->kind == TY_ARRAY) {
      buf_printf(&r->args, "-\n");
    } else {
      buf_printf(&r->args, "%s=%lld\n", q->name, (long long)v.i);
    }
  }
  if (dir) {
    write_file(fmt("%s/constant.bin", dir), rt.W.constant, (size_t)rt.p->constant_size);
    write_file(fmt("%s/device.bin", dir), rt.W.bufs[0].data, rt.W.bufs[0].bytes);
  }
  rt.nrec++;
}

/* the summary carve run reads (RT_ENV_SUMMARY), at exit */
static void write_summary(void) {
  const char *path = getenv(RT_ENV_SUMMARY);
  if (!path || !*path) return;
  /* written to a temporary and renamed: carve may stop the program at any time (--max-seconds)
   * and then reads the last complete summary */
  const char *tmp = fmt("%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) return;
  fprintf(
    f, "launches %d\nfaults %d\nerrors %d\nunrun %d\nlane_ops %llu\nseconds %.6f\nunrecorded %d\n",
    rt.launches, rt.faults, rt.api_errors, rt.unrun, (unsigned long long)rt.lane_ops,
    rt.kernel_seconds, rt.unrecorded);
  fprintf(f, "native %d\nnative_seconds %.6f\nchecked %llu\n", rt.native_launches,
          rt.native_seconds, (unsigned long long)rt.blocks_checked);
  if (rt.stopped) fprintf(f, "stopped %.3f\n", (now_ms() - rt.start_ms - rt.launch_ms) / 1e3);
  for (int i = 0; i < rt.nrec; i++) {
    RtRecord *r = &rt.rec[i];
    SrcLoc at = tok_loc(r->kernel->tok);
    fprintf(
      f,
      "launch %s\ngrid %lld %lld %lld\nblock %lld %lld %lld\nshared %lld\nfirst %d\ncount %d\nline %d\n",
      r->kernel->name, (long long)r->grid[0], (long long)r->grid[1], (long long)r->grid[2],
      (long long)r->block[0], (long long)r->block[1], (long long)r->block[2], (long long)r->shared,
      r->first, r->count, at.line);
    const char *s = r->args.s ? r->args.s : "";
    for (const char *c = s; *c;) {
      const char *e = strchr(c, '\n');
      fprintf(f, "arg %.*s\n", (int)(e - c), c);
      c = e + 1;
    }
    fprintf(f, "end\n");
  }
  if (fclose(f) == 0) rename(tmp, path);
  else unlink(tmp);
  rt.last_summary = now_ms();
}

/* ---------------- memory ---------------- */
static cudaError_t alloc(void **p, size_t n, BufferKind kind, const char *how, void *ret) {
  if (rt.sticky) return rt.sticky;
  if (!p)
    return api_error(ret, cudaErrorInvalidValue, "%s with a null pointer to store the address in",
                     how);
  if (!load()) {
    rt.unrun++;
    return rt.last_error = cudaErrorInitializationError;
  } /* nothing can be checked: exit 2 */
  int b = new_buf(kind, n, how, NULL);
  if (b < 0) return rt.last_error = cudaErrorMemoryAllocation;
  *p = kind == BUF_DEVICE ? (void *)(uintptr_t)GLOBAL_ADDR(b, 0) : rt.W.bufs[b].data;
  return cudaSuccess;
}
EXPORT cudaError_t cudaMalloc(void **p, size_t n) {
  return LOCKED(alloc(p, n, BUF_DEVICE, "cudaMalloc", RET));
}
EXPORT cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags) {
  (void)flags;
  return alloc(p, n, BUF_MANAGED, "cudaMallocManaged", RET);
}
EXPORT cudaError_t cudaMallocHost(void **p, size_t n) {
  return alloc(p, n, BUF_MANAGED, "cudaMallocHost", RET);
}
EXPORT cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags) {
  (void)flags;
  return alloc(p, n, BUF_MANAGED, "cudaHostAlloc", RET);
}
EXPORT cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h) {
  size_t pt = (w + 255) / 256 * 256;
  if (pitch) *pitch = pt;
  return alloc(p, pt * h, BUF_DEVICE, "cudaMallocPitch", RET);
}
EXPORT cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags) {
  (void)flags;
  uint64_t off;
  if (host_block((uint64_t)(uintptr_t)h, &off) < 0)
    return api_error(RET, cudaErrorInvalidValue,
                     "cudaHostGetDevicePointer of memory not from cudaHostAlloc");
  *d = h; /* one address for both sides, as with unified addressing */
  return cudaSuccess;
}
EXPORT cudaError_t cudaHostRegister(void *h, size_t n, unsigned flags) {
  (void)flags;
  if (!load()) return cudaErrorInitializationError;
  return new_buf(BUF_MANAGED, n, "cudaHostRegister", h) < 0 ? cudaErrorMemoryAllocation
                                                            : cudaSuccess;
}
EXPORT cudaError_t cudaHostUnregister(void *h) {
  uint64_t off;
  int b = host_block((uint64_t)(uintptr_t)h, &off);
  if (b < 0 || off || !rt.borrowed[b])
    return api_error(RET, cudaErrorHostMemoryNotRegistered,
                     "cudaHostUnregister of memory not registered");
  release(b);
  return cudaSuccess;
}

static cudaError_t free_mem(void *p, bool host, const char *fn, void *ret) {
  if (!p) return cudaSuccess;
  uint64_t a = (uint64_t)(uintptr_t)p, off = 0;
  int b = is_device_addr(a) ? (int)((a >> 40) & 0xfffff) : host_block(a, &off);
  if (is_device_addr(a)) off = a & ((1ull << 40) - 1);
  if (b <= 0 || b >= rt.W.nbufs || off)
    return api_error(ret, cudaErrorInvalidValue, "%s of a pointer that no allocation returned (%p)",
                     fn, p);
  Buffer *B = &rt.W.bufs[b];
  if (B->freed)
    return api_error(ret, cudaErrorInvalidValue, "%s of memory already freed (%s)", fn, B->name);
  if (rt.borrowed[b] || (host && B->kind == BUF_DEVICE))
    return api_error(ret, cudaErrorInvalidValue, "%s of %s", fn, B->name);
  release(b);
  return ok_or_sticky();
}
EXPORT cudaError_t cudaFree(void *p) { return LOCKED(free_mem(p, false, "cudaFree", RET)); }
EXPORT cudaError_t cudaFreeHost(void *p) { return free_mem(p, true, "cudaFreeHost", RET); }

static const char *kind_name(enum cudaMemcpyKind k) {
  static const char *n[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
                            "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice",
                            "cudaMemcpyDefault"};
  return (unsigned)k < 5 ? n[k] : "an unknown direction";
}

/* the whole-program check (RT_ENV_D2H): a device-to-host copy logged as host_log_copy writes it,
 * the element type that of the kernel parameter the source was first bound to */
static void log_d2h(uint64_t s, const void *data, size_t n) {
  static FILE *f;
  static bool tried;
  if (!tried) {
    tried = true;
    const char *path = getenv(RT_ENV_D2H);
    f = path && *path ? fopen(path, "wb") : NULL;
  }
  if (!f) return;
  uint64_t b = (s >> 40) & 0xfffff;
  Type *et = b < (uint64_t)rt.W.nbufs ? rt.W.bufs[b].elem_ty : NULL;
  host_log_copy(f, et, data, n);
  fflush(f); /* the watchdog may end the program at any time */
}

/* a copy of n bytes, each side checked against its allocation and against the direction */
static cudaError_t copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind k, const char *fn,
                        void *ret) {
  if (rt.sticky) return rt.sticky;
  if (!n) return cudaSuccess;
  if ((unsigned)k > 4)
    return api_error(ret, cudaErrorInvalidMemcpyDirection, "%s with an unknown direction %d", fn,
                     (int)k);
  uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
  bool dev_dst = k == cudaMemcpyHostToDevice || k == cudaMemcpyDeviceToDevice,
       dev_src = k == cudaMemcpyDeviceToHost || k == cudaMemcpyDeviceToDevice;
  if (k != cudaMemcpyDefault) {
    if (!dev_dst && is_device_addr(d))
      return api_error(ret, cudaErrorInvalidValue,
                       "%s (%s) to device memory: the destination is a device pointer", fn,
                       kind_name(k));
    if (!dev_src && is_device_addr(s))
      return api_error(ret, cudaErrorInvalidValue,
                       "%s (%s) from device memory: the source is a device pointer", fn,
                       kind_name(k));
  }
  const char *why = NULL;
  unsigned char *D = bytes_at(d, n, dev_dst && k != cudaMemcpyDefault, &why);
  if (!D)
    return api_error(ret, cudaErrorInvalidValue, "%s (%s) of %zu bytes: the destination is %s", fn,
                     kind_name(k), n, why);
  const unsigned char *S = bytes_at(s, n, dev_src && k != cudaMemcpyDefault, &why);
  if (!S)
    return api_error(ret, cudaErrorInvalidValue, "%s (%s) of %zu bytes: the source is %s", fn,
                     kind_name(k), n, why);
  memmove(D, S, n);
  if (is_device_addr(s) && !is_device_addr(d)) log_d2h(s, D, n);
  return cudaSuccess;
}
EXPORT cudaError_t cudaMemcpy(void *d, const void *s, size_t n, enum cudaMemcpyKind k) {
  return LOCKED(copy(d, s, n, k, "cudaMemcpy", RET));
}
EXPORT cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind k,
                                   cudaStream_t st) {
  (void)st;
  return LOCKED(copy(d, s, n, k, "cudaMemcpyAsync", RET));
}
static cudaError_t copy2d(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
                          enum cudaMemcpyKind k, void *ret) {
  if (w > dp || w > sp)
    return api_error(ret, cudaErrorInvalidPitchValue,
                     "cudaMemcpy2D with a width of %zu bytes over a pitch of %zu", w,
                     w > dp ? dp : sp);
  for (size_t r = 0; r < h; r++) {
    cudaError_t e = copy((char *)d + r * dp, (const char *)s + r * sp, w, k, "cudaMemcpy2D", ret);
    if (e) return e;
  }
  return cudaSuccess;
}
EXPORT cudaError_t cudaMemcpy2D(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
                                enum cudaMemcpyKind k) {
  return copy2d(d, dp, s, sp, w, h, k, RET);
}
EXPORT cudaError_t cudaMemcpy2DAsync(void *d, size_t dp, const void *s, size_t sp, size_t w,
                                     size_t h, enum cudaMemcpyKind k, cudaStream_t st) {
  (void)st;
  return copy2d(d, dp, s, sp, w, h, k, RET);
}

static cudaError_t set(void *p, int v, size_t n, const char *fn, void *ret) {
  if (rt.sticky) return rt.sticky;
  const char *why = NULL;
  unsigned char *D = n ? bytes_at((uint64_t)(uintptr_t)p, n, true, &why) : NULL;
  if (n && !D)
    return api_error(ret, cudaErrorInvalidValue, "%s of %zu bytes: the destination is %s", fn, n,
                     why);
  if (n) memset(D, v, n);
  return cudaSuccess;
}
EXPORT cudaError_t cudaMemset(void *p, int v, size_t n) { return set(p, v, n, "cudaMemset", RET); }
EXPORT cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) {
  (void)s;
  return set(p, v, n, "cudaMemsetAsync", RET);
}

static cudaError_t symbol_copy(const void *sym, void *host, size_t n, size_t off, bool to,
                               enum cudaMemcpyKind k, void *ret) {
  if (rt.sticky) return rt.sticky;
  Obj *var = NULL;
  const char *why = NULL;
  const char *fn = to ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol";
  unsigned char *v = symbol_bytes(sym, n, off, &var, &why);
  if (!v) return api_error(ret, cudaErrorInvalidSymbol, "%s: the symbol is %s", fn, why);
  const char *w2 = NULL;
  bool dev = k == cudaMemcpyDeviceToDevice;
  unsigned char *h = n ? bytes_at((uint64_t)(uintptr_t)host, n, dev, &w2) : NULL;
  if (n && !h)
    return api_error(ret, cudaErrorInvalidValue, "%s of %zu bytes ('%s'): the %s is %s", fn, n,
                     var->name, to ? "source" : "destination", w2);
  if (n) memmove(to ? v : h, to ? h : v, n);
  return cudaSuccess;
}
EXPORT cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off,
                                      enum cudaMemcpyKind k) {
  return symbol_copy(sym, (void *)src, n, off, true, k, RET);
}
EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off,
                                        enum cudaMemcpyKind k) {
  return symbol_copy(sym, dst, n, off, false, k, RET);
}
EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t off,
                                           enum cudaMemcpyKind k, cudaStream_t s) {
  (void)s;
  return symbol_copy(sym, (void *)src, n, off, true, k, RET);
}
EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t off,
                                             enum cudaMemcpyKind k, cudaStream_t s) {
  (void)s;
  return symbol_copy(sym, dst, n, off, false, k, RET);
}
EXPORT cudaError_t cudaGetSymbolAddress(void **p, const void *sym) {
  Obj *var = NULL;
  const char *why = NULL;
  if (!symbol_bytes(sym, 0, 0, &var, &why))
    return api_error(RET, cudaErrorInvalidSymbol, "cudaGetSymbolAddress: the symbol is %s", why);
  if (var->sc == SC_CONSTANT)
    return api_error(
      RET, cudaErrorNotSupported,
      "cudaGetSymbolAddress of the __constant__ variable '%s' (carve gives __device__ variables' only)",
      var->name);
  *p = (void *)(uintptr_t)GLOBAL_ADDR(0, var->offset);
  return cudaSuccess;
}
EXPORT cudaError_t cudaGetSymbolSize(size_t *n, const void *sym) {
  Obj *var = NULL;
  const char *why = NULL;
  if (!symbol_bytes(sym, 0, 0, &var, &why))
    return api_error(RET, cudaErrorInvalidSymbol, "cudaGetSymbolSize: the symbol is %s", why);
  *n = (size_t)var->ty->size;
  return cudaSuccess;
}
EXPORT cudaError_t cudaMemGetInfo(size_t *fr, size_t *total) {
  if (fr) *fr = (size_t)(LIMIT_BYTES - rt.bytes);
  if (total) *total = (size_t)LIMIT_BYTES;
  return cudaSuccess;
}
EXPORT cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, struct cudaMemLocation loc,
                                        unsigned flags, cudaStream_t s) {
  (void)p, (void)n, (void)loc, (void)flags, (void)s;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise a,
                                 struct cudaMemLocation loc) {
  (void)p, (void)n, (void)a, (void)loc;
  return ok_or_sticky();
}

/* ---------------- errors ---------------- */
static const struct {
  cudaError_t e;
  const char *name, *text;
} errors[] = {
  {cudaSuccess, "cudaSuccess", "no error"},
  {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
  {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
  {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
  {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
   "invalid configuration argument"},
  {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
  {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
  {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
   "invalid copy direction for memcpy"},
  {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration",
   "__global__ function call is not configured"},
  {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
  {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
  {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
  {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
  {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
  {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
  {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
  {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
  {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
  {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
   "pointer does not correspond to a registered memory region"},
  {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
};
static int error_index(cudaError_t e) {
  for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
    if (errors[i].e == e) return (int)i;
  return -1;
}
EXPORT const char *cudaGetErrorString(cudaError_t e) {
  int i = error_index(e);
  return i >= 0 ? errors[i].text : "unrecognized error code";
}
EXPORT const char *cudaGetErrorName(cudaError_t e) {
  int i = error_index(e);
  return i >= 0 ? errors[i].name : "cudaErrorUnknown";
}
EXPORT cudaError_t cudaGetLastError(void) {
  cudaError_t e = rt.last_error;
  rt.last_error = rt.sticky;
  return e;
}
EXPORT cudaError_t cudaPeekAtLastError(void) { return rt.last_error; }

/* ---------------- streams and events: synchronous; events read the host clock ---------------- */
static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
static int event_of(cudaEvent_t e) {
  int64_t i = (int64_t)((uint64_t)(uintptr_t)e - EVENT_BASE);
  return i >= 0 && i < rt.nevents ? (int)i : -1;
}
EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e) {
  rt.events = xrealloc(rt.events, sizeof(double) * (size_t)(rt.nevents + 1));
  rt.events[rt.nevents] = -1;
  *e = (cudaEvent_t)(uintptr_t)(EVENT_BASE + (uint64_t)rt.nevents++);
  return ok_or_sticky();
}
EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned f) {
  (void)f;
  return cudaEventCreate(e);
}
EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  (void)s;
  int i = event_of(e);
  if (i < 0) return rt.last_error = cudaErrorInvalidResourceHandle;
  rt.events[i] = now_ms();
  return ok_or_sticky();
}
EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned f) {
  (void)f;
  return cudaEventRecord(e, s);
}
EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  return event_of(e) < 0 ? cudaErrorInvalidResourceHandle : ok_or_sticky();
}
EXPORT cudaError_t cudaEventQuery(cudaEvent_t e) {
  return event_of(e) < 0 ? cudaErrorInvalidResourceHandle : ok_or_sticky();
}
EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e) {
  return event_of(e) < 0 ? cudaErrorInvalidResourceHandle : cudaSuccess;
}
EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  int i = event_of(a), j = event_of(b);
  if (i < 0 || j < 0) return rt.last_error = cudaErrorInvalidResourceHandle;
  if (rt.events[i] < 0 || rt.events[j] < 0) return rt.last_error = cudaErrorNotReady;
  *ms = (float)(rt.events[j] - rt.events[i]);
  return ok_or_sticky();
}
EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s) {
  *s = (cudaStream_t)(uintptr_t)(STREAM_BASE + (uint64_t)++rt.nstreams);
  return ok_or_sticky();
}
EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned f) {
  (void)f;
  return cudaStreamCreate(s);
}
EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned f, int p) {
  (void)f, (void)p;
  return cudaStreamCreate(s);
}
EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  (void)s;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaStreamQuery(cudaStream_t s) {
  (void)s;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s) {
  (void)s;
  return cudaSuccess;
}
EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned f) {
  (void)s, (void)e, (void)f;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *lo, int *hi) {
  if (lo) *lo = 0;
  if (hi) *hi = -5;
  return cudaSuccess;
}
EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data) {
  (void)s;
  fn(data);
  return ok_or_sticky();
}
EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *data,
                                         unsigned f) {
  (void)f;
  cb(s, ok_or_sticky(), data);
  return ok_or_sticky();
}
EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaStreamAttrID a,
                                          const cudaStreamAttrValue *v) {
  (void)s, (void)a, (void)v;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaStreamAttrID a,
                                          cudaStreamAttrValue *v) {
  (void)s, (void)a;
  memset(v, 0, sizeof *v);
  return ok_or_sticky();
}
EXPORT cudaError_t cudaCtxResetPersistingL2Cache(void) { return ok_or_sticky(); }
EXPORT cudaError_t cudaGetDeviceFlags(unsigned *f) {
  *f = 0;
  return cudaSuccess;
}
EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p) {
  memset(a, 0, sizeof *a);
  uint64_t v = (uint64_t)(uintptr_t)p, off;
  if (is_device_addr(v)) {
    a->type = cudaMemoryTypeDevice;
    a->devicePointer = (void *)p;
  } else if (host_block(v, &off) >= 0) {
    a->type = cudaMemoryTypeManaged;
    a->devicePointer = a->hostPointer = (void *)p;
  } else {
    a->type = cudaMemoryTypeUnregistered;
    a->hostPointer = (void *)p;
  }
  return cudaSuccess;
}
/* stream-ordered allocation: streams run at once, so in order is now */
EXPORT cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s) {
  (void)s;
  return LOCKED(alloc(p, n, BUF_DEVICE, "cudaMallocAsync", RET));
}
EXPORT cudaError_t cudaFreeAsync(void *p, cudaStream_t s) {
  (void)s;
  return LOCKED(free_mem(p, false, "cudaFreeAsync", RET));
}
EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int dev) {
  (void)dev;
  *pool = (cudaMemPool_t)(uintptr_t)0xd0000000ull; /* one pool, a handle */
  return cudaSuccess;
}
EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr a, void *v) {
  (void)pool, (void)a, (void)v;
  return ok_or_sticky();
}
EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr a, void *v) {
  (void)pool, (void)a;
  memset(v, 0, sizeof(uint64_t));
  return ok_or_sticky();
}
