/* resources: registers, shared memory, spills of a kernel, as ptxas reports them, and the static
 * SASS instruction count read from the cubin. NVRTC is loaded at run time with dlopen (the CUDA
 * toolkit stays optional); an nvcc process is the fallback when NVRTC is absent. Results are
 * cached by a hash of the printed source, so carving many variants compiles each once. */
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
typedef nvrtcResult (*CubinSizeFn)(nvrtcProgram, size_t *);
typedef nvrtcResult (*CubinFn)(nvrtcProgram, char *);

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

static uint64_t le(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* instructions in the kernel's .text section of a cubin (ELF64): 16 bytes each, less the NOPs
 * of the alignment padding (0x...7918) and the final branch-to-self; -1 when not found */
static int sass_instructions(const unsigned char *elf, size_t n, const char *kernel) {
  if (n < 64 || memcmp(elf, "\x7f" "ELF", 4) || elf[4] != 2) return -1;
  uint64_t shoff = le(elf + 0x28, 8);
  unsigned shentsize = (unsigned)le(elf + 0x3a, 2), shnum = (unsigned)le(elf + 0x3c, 2), shstrndx = (unsigned)le(elf + 0x3e, 2);
  if (shentsize < 64 || shstrndx >= shnum || shoff > n || (uint64_t)shnum * shentsize > n - shoff) return -1;
  const unsigned char *strsh = elf + shoff + (uint64_t)shstrndx * shentsize;
  uint64_t stroff = le(strsh + 0x18, 8), strsize = le(strsh + 0x20, 8);
  if (stroff > n || strsize > n - stroff) return -1;
  char mangled[160];
  snprintf(mangled, sizeof mangled, ".text._Z%zu%s", strlen(kernel), kernel);
  char plain[160];
  snprintf(plain, sizeof plain, ".text.%s", kernel);
  for (unsigned i = 0; i < shnum; i++) {
    const unsigned char *sh = elf + shoff + (uint64_t)i * shentsize;
    uint64_t name = le(sh, 4), off = le(sh + 0x18, 8), size = le(sh + 0x20, 8);
    if (name >= strsize) continue;
    const char *nm = (const char *)elf + stroff + name;
    if (!memchr(nm, 0, strsize - name)) continue;
    if (strncmp(nm, mangled, strlen(mangled)) && strcmp(nm, plain)) continue;
    if (off > n || size > n - off || size % 16) return -1;
    int count = 0;
    for (uint64_t k = 0; k < size; k += 16)
      if (le(elf + off + k, 8) != 0x7918) count++;
    return count > 0 ? count - 1 : 0;   /* the trailing BRA to itself */
  }
  return -1;
}

static char *nvrtc_log(const char *src, const char *arch, char *why, size_t whylen, int *found, unsigned char **cubin, size_t *cubin_n) {
  /* $CARVE_NVRTC, when set, is the only library tried */
  const char *env = getenv("CARVE_NVRTC");
  const char *names[] = {env, env ? NULL : "libnvrtc.so", env ? NULL : "libnvrtc.so.13", env ? NULL : "libnvrtc.so.12",
                         env ? NULL : "/usr/local/cuda/lib64/libnvrtc.so", NULL};
  /* loaded once and kept: NVRTC holds state (and allocations) for the life of the process */
  static void *h;
  for (int i = 0; !h && i < 6; i++) if (names[i]) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) { snprintf(why, whylen, "NVRTC not found (libnvrtc.so; set CARVE_NVRTC)"); return NULL; }
  *found = 1;
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
  CubinSizeFn cubin_size = (CubinSizeFn)dlsym(h, "nvrtcGetCUBINSize");
  CubinFn get_cubin = (CubinFn)dlsym(h, "nvrtcGetCUBIN");
  if (!rc && cubin_size && get_cubin && !cubin_size(prog, cubin_n) && *cubin_n > 0) {
    *cubin = xmalloc(*cubin_n);
    if (get_cubin(prog, (char *)*cubin)) { free(*cubin); *cubin = NULL; }
  }
  destroy(&prog);
  if (rc) { snprintf(why, whylen, "NVRTC could not compile the kernel: %.180s", log); free(log); return NULL; }
  return log;
}

/* the fallback: an nvcc process with ptxas -v on the printed source; the log and the cubin */
static char *nvcc_log(const char *src, const char *arch, char *why, size_t whylen, unsigned char **cubin, size_t *cubin_n) {
  char *nvcc = find_program("nvcc");
  if (!nvcc) return NULL;
  char tmpl[] = "/tmp/carve-res-XXXXXX";
  char *dir = mkdtemp(tmpl);
  if (!dir) return NULL;
  char *cu = fmt("%s/k.cu", dir), *bin = fmt("%s/k.cubin", dir), *err = fmt("%s/ptxas.log", dir);
  FILE *f = fopen(cu, "w");
  char *log = NULL;
  bool written = f && fputs(src, f) >= 0;
  if (f && fclose(f)) written = false;
  if (written) {
    char *argv[] = {nvcc, fmt("-arch=%s", arch), "-cubin", "-Xptxas", "-v", "-o", bin, cu, NULL};
    int rc = run_program(argv, NULL, err, 120);
    size_t n;
    log = read_file(err, &n);
    if (rc) {
      snprintf(why, whylen, "nvcc could not compile the kernel (exit %d): %.160s", rc, log ? log : "");
      free(log);
      log = NULL;
    } else {
      *cubin = (unsigned char *)read_file(bin, cubin_n);
    }
  }
  remove(cu);
  remove(bin);
  remove(err);
  rmdir(dir);
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
  int have_nvrtc = 0;
  unsigned char *cubin = NULL;
  size_t cubin_n = 0;
  r.instructions = -1;
  char *log = nvrtc_log(b.s ? b.s : "", arch, r.why, sizeof r.why, &have_nvrtc, &cubin, &cubin_n);
  if (!have_nvrtc) {
    char nvrtc_why[sizeof r.why];
    snprintf(nvrtc_why, sizeof nvrtc_why, "%s", r.why);
    if ((log = nvcc_log(b.s ? b.s : "", arch, r.why, sizeof r.why, &cubin, &cubin_n))) r.via_nvcc = true;
    else if (!find_program("nvcc")) snprintf(r.why, sizeof r.why, "no CUDA toolkit: %.200s, and no nvcc", nvrtc_why);
  }
  buf_free(&b);
  if (log) {
    if (!parse_log(log, kernel->name, &r)) snprintf(r.why, sizeof r.why, "no ptxas report for '%s' in the %s log", kernel->name, r.via_nvcc ? "nvcc" : "NVRTC");
    free(log);
  }
  if (cubin) {
    r.instructions = sass_instructions(cubin, cubin_n, kernel->name);
    free(cubin);
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
