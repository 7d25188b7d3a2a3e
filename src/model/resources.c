/* resources: registers, shared memory, spills of a kernel, as ptxas reports them. NVRTC is
 * loaded at run time with dlopen (the CUDA toolkit stays optional); nvcc is the fallback. Results
 * are cached by a hash of the printed source, so carving many variants compiles each once. */
#include "model.h"
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
typedef nvrtcResult (*CreateFn)(nvrtcProgram *, const char *, const char *, int, const char *const *, const char *const *);
typedef nvrtcResult (*CompileFn)(nvrtcProgram, int, const char *const *);
typedef nvrtcResult (*LogSizeFn)(nvrtcProgram, size_t *);
typedef nvrtcResult (*LogFn)(nvrtcProgram, char *);
typedef nvrtcResult (*DestroyFn)(nvrtcProgram *);

typedef struct { uint64_t hash; char arch[16]; char kernel[128]; Resources r; } CacheEntry;
static CacheEntry *cache;
static int ncache;

static uint64_t fnv(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* "ptxas info : Function properties for _Z2mmPKfS0_Pfi" ... "Used 32 registers, ..." */
static bool parse_log(const char *log, const char *kernel, Resources *r) {
  char mangled[160];
  snprintf(mangled, sizeof mangled, "_Z%zu%s", strlen(kernel), kernel);
  const char *p = log;
  while ((p = strstr(p, "Compiling entry function '"))) {
    p += strlen("Compiling entry function '");
    bool mine = !strncmp(p, mangled, strlen(mangled)) || (!strncmp(p, kernel, strlen(kernel)) && p[strlen(kernel)] == '\'');
    if (!mine) continue;
    const char *end = strstr(p, "Compiling entry function '");
    if (!end) end = p + strlen(p);
    const char *q;
    if ((q = strstr(p, "bytes stack frame")) && q < end) {
      const char *b = q;
      while (b > p && b[-1] != '\n') b--;
      sscanf(b, " %d bytes stack frame, %d bytes spill stores, %d bytes spill loads", &r->stack, &r->spill_stores, &r->spill_loads);
    }
    if ((q = strstr(p, "Used ")) && q < end) {
      sscanf(q, "Used %d registers", &r->regs);
      const char *s = strstr(q, "bytes smem");
      const char *eol = strchr(q, '\n');
      if (s && (!eol || s < eol)) {
        const char *b = s;
        while (b > q && b[-1] != ' ' && b[-1] != ',') b--;
        while (b > q && b[-1] == ' ') b--;
        while (b > q && b[-1] >= '0' && b[-1] <= '9') b--;
        r->smem = atoi(b);
      }
      const char *c = strstr(q, "bytes cmem[0]");
      if (c && (!eol || c < eol)) {
        const char *b = c - 1;
        while (b > q && *b == ' ') b--;
        while (b > q && b[-1] >= '0' && b[-1] <= '9') b--;
        r->cmem = atoi(b);
      }
      r->known = true;
      return true;
    }
  }
  return false;
}

static char *nvrtc_log(const char *src, const char *arch, char *why, size_t whylen) {
  /* $CARVE_NVRTC, when set, is the only library tried */
  const char *env = getenv("CARVE_NVRTC");
  const char *names[] = {env, env ? NULL : "libnvrtc.so", env ? NULL : "libnvrtc.so.13", env ? NULL : "libnvrtc.so.12",
                         env ? NULL : "/usr/local/cuda/lib64/libnvrtc.so", NULL};
  /* loaded once and kept: NVRTC holds state (and allocations) for the life of the process */
  static void *h;
  for (int i = 0; !h && i < 6; i++) if (names[i]) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) { snprintf(why, whylen, "NVRTC not found (libnvrtc.so; set CARVE_NVRTC)"); return NULL; }
  CreateFn create = (CreateFn)dlsym(h, "nvrtcCreateProgram");
  CompileFn compile = (CompileFn)dlsym(h, "nvrtcCompileProgram");
  LogSizeFn logsize = (LogSizeFn)dlsym(h, "nvrtcGetProgramLogSize");
  LogFn getlog = (LogFn)dlsym(h, "nvrtcGetProgramLog");
  DestroyFn destroy = (DestroyFn)dlsym(h, "nvrtcDestroyProgram");
  if (!create || !compile || !logsize || !getlog || !destroy) { snprintf(why, whylen, "NVRTC lacks the expected functions"); return NULL; }
  nvrtcProgram prog;
  if (create(&prog, src, "carve.cu", 0, NULL, NULL)) { snprintf(why, whylen, "nvrtcCreateProgram failed"); return NULL; }
  char archopt[64];
  snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
  const char *opts[] = {archopt, "--ptxas-options=-v", "-default-device"};
  int rc = compile(prog, 3, opts);
  size_t n = 0;
  logsize(prog, &n);
  char *log = xmalloc(n + 1);
  getlog(prog, log);
  destroy(&prog);
  if (rc) { snprintf(why, whylen, "NVRTC could not compile the kernel: %.180s", log); free(log); return NULL; }
  return log;
}

Resources kernel_resources(Program *p, Obj *kernel, const char *arch) {
  Resources r = {0};
  if (!arch) arch = "sm_90";
  Buf b = {0};
  bool keep = print_carve_pragmas;
  print_carve_pragmas = false;
  print_program(&b, p);
  print_carve_pragmas = keep;
  uint64_t h = fnv(b.s ? b.s : "");
  for (int i = 0; i < ncache; i++)
    if (cache[i].hash == h && !strcmp(cache[i].arch, arch) && !strcmp(cache[i].kernel, kernel->name)) { buf_free(&b); return cache[i].r; }
  char *log = nvrtc_log(b.s ? b.s : "", arch, r.why, sizeof r.why);
  buf_free(&b);
  if (log) {
    if (!parse_log(log, kernel->name, &r)) snprintf(r.why, sizeof r.why, "no ptxas report for '%s' in the NVRTC log", kernel->name);
    free(log);
  }
  if (r.known) {
    cache = xrealloc(cache, sizeof(CacheEntry) * (size_t)(ncache + 1));
    CacheEntry *e = &cache[ncache++];
    e->hash = h;
    snprintf(e->arch, sizeof e->arch, "%s", arch);
    snprintf(e->kernel, sizeof e->kernel, "%s", kernel->name);
    e->r = r;
  }
  return r;
}
