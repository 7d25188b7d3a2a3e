/* resources: registers, shared memory, spills of a kernel, as ptxas reports them, and the static
 * SASS instruction count read from the cubin. NVRTC is loaded at run time with dlopen (the CUDA
 * toolkit stays optional); an nvcc process is the fallback when NVRTC is absent. Results are
 * cached by a hash of the printed source, so carving many variants compiles each once. */
#include "model.h"
#include "../hash.h"
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
typedef nvrtcResult (*CreateFn)(nvrtcProgram *, const char *, const char *, int,
                                const char *const *, const char *const *);
typedef nvrtcResult (*CompileFn)(nvrtcProgram, int, const char *const *);
typedef nvrtcResult (*LogSizeFn)(nvrtcProgram, size_t *);
typedef nvrtcResult (*LogFn)(nvrtcProgram, char *);
typedef nvrtcResult (*DestroyFn)(nvrtcProgram *);
typedef nvrtcResult (*CubinSizeFn)(nvrtcProgram, size_t *);
typedef nvrtcResult (*CubinFn)(nvrtcProgram, char *);
typedef nvrtcResult (*AddNameFn)(nvrtcProgram, const char *);
typedef nvrtcResult (*LoweredFn)(nvrtcProgram, const char *, const char **);
typedef nvrtcResult (*VersionFn)(int *, int *);

typedef struct {
  uint64_t hash;
  char arch[16];
  char kernel[128];
  Resources r;
} CacheEntry;
static CacheEntry *cache;
static int ncache;

static uint64_t fnv(const char *s) { return fnv1a64_str(s); }

/* the number just before `phrase` in [line, eol) ("15 registers"), -1 when absent */
static int number_before(const char *line, const char *eol, const char *phrase) {
  const char *q = line;
  size_t n = strlen(phrase);
  while (q + n <= eol && memcmp(q, phrase, n)) q++;
  if (q + n > eol) return -1;
  const char *b = q;
  while (b > line && b[-1] == ' ') b--;
  const char *d = b;
  while (d > line && d[-1] >= '0' && d[-1] <= '9') d--;
  return d < b ? atoi(d) : -1;
}

/* is the function named [nm, nm+len) the kernel: its lowered name from NVRTC when known, else
 * its plain name (extern "C") or a mangling of it (_Z2rdPKfPfii) */
static bool is_kernel(const char *nm, size_t len, const char *kernel, const char *lowered) {
  if (lowered) return strlen(lowered) == len && !memcmp(nm, lowered, len);
  char mangled[160];
  snprintf(mangled, sizeof mangled, "_Z%zu%s", strlen(kernel), kernel);
  size_t ml = strlen(mangled);
  return (strlen(kernel) == len && !memcmp(nm, kernel, len)) ||
         (len > ml && !memcmp(nm, mangled, ml));
}

/* the name after `key` on the line, up to a quote, space or the line's end */
static bool name_after(const char *line, const char *eol, const char *key, const char **nm,
                       size_t *len) {
  const char *k = strstr(line, key);
  if (!k || k >= eol) return false;
  *nm = k + strlen(key);
  const char *e = *nm;
  while (e < eol && *e != '\'' && *e != ' ' && *e != '\r') e++;
  *len = (size_t)(e - *nm);
  return *len > 0;
}

/* ptxas -v's report, line by line, as NVRTC and nvcc give it (CUDA 13.0):
 *   ptxas info    : Compiling entry function '_Z2rdPKfPfii' for 'sm_90'
 *   ptxas info    : Function properties for _Z2rdPKfPfii
 *   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 15 registers, used 0 barriers, 1024 bytes smem, 380 bytes cmem[0]
 * Older ptxas writes the stack line without "ptxas ." and may omit parts of the "Used" line;
 * a called function not inlined has its own "Function properties" between an entry's lines.
 * Each number is read where it stands on its line, so the order and the prefixes may vary:
 * stack and spills belong to the last "Function properties" function, "Used" to the last entry
 * function (or, without "Compiling entry function" lines, the last "Function properties"). */
bool ptxas_parse_log(const char *log, const char *kernel, const char *lowered, Resources *r) {
  bool entry_mine = false, props_mine = false, any_entry = false, found = false;
  for (const char *line = log; line && *line;) {
    const char *eol = strchr(line, '\n');
    if (!eol) eol = line + strlen(line);
    const char *nm;
    size_t len;
    int v;
    if (name_after(line, eol, "Compiling entry function '", &nm, &len)) {
      any_entry = true;
      entry_mine = props_mine = is_kernel(nm, len, kernel, lowered);
    } else if (name_after(line, eol, "Function properties for ", &nm, &len)) {
      props_mine = is_kernel(nm, len, kernel, lowered);
      if (!any_entry) entry_mine = props_mine;
    } else if (props_mine && (v = number_before(line, eol, "bytes stack frame")) >= 0) {
      r->stack = v;
      if ((v = number_before(line, eol, "bytes spill stores")) >= 0) r->spill_stores = v;
      if ((v = number_before(line, eol, "bytes spill loads")) >= 0) r->spill_loads = v;
    } else if (entry_mine && strstr(line, "Used ") && strstr(line, "Used ") < eol &&
               (v = number_before(line, eol, "registers")) >= 0) {
      r->regs = v;
      if ((v = number_before(line, eol, "bytes smem")) >= 0) r->smem = v;
      if ((v = number_before(line, eol, "bytes cmem[0]")) >= 0) r->cmem = v;
      found = true;
    }
    line = *eol ? eol + 1 : NULL;
  }
  r->known = found;
  return found;
}

static uint64_t le(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* instructions in the kernel's .text section of a cubin (ELF64): 16 bytes each, less the NOPs
 * of the alignment padding (0x...7918) and the final branch-to-self; -1 when not found */
static int sass_instructions(const unsigned char *elf, size_t n, const char *kernel,
                             const char *lowered) {
  if (n < 64 ||
      memcmp(elf,
             "\x7f"
             "ELF",
             4) ||
      elf[4] != 2)
    return -1;
  uint64_t shoff = le(elf + 0x28, 8);
  unsigned shentsize = (unsigned)le(elf + 0x3a, 2), shnum = (unsigned)le(elf + 0x3c, 2),
           shstrndx = (unsigned)le(elf + 0x3e, 2);
  if (shentsize < 64 || shstrndx >= shnum || shoff > n || (uint64_t)shnum * shentsize > n - shoff)
    return -1;
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
    if (lowered ? strncmp(nm, ".text.", 6) || strcmp(nm + 6, lowered)
                : strncmp(nm, mangled, strlen(mangled)) && strcmp(nm, plain))
      continue;
    if (off > n || size > n - off || size % 16) return -1;
    int count = 0;
    for (uint64_t k = 0; k < size; k += 16)
      if (le(elf + off + k, 8) != 0x7918) count++;
    return count > 0 ? count - 1 : 0; /* the trailing BRA to itself */
  }
  return -1;
}

/* the CUDA include directory (cuda_fp16.h, cooperative_groups.h), which NVRTC does not search
 * by itself: beside the NVRTC library loaded (lib/, lib64/ or targets/ARCH/lib/ under the
 * toolkit), beside nvcc, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda; NULL when none has them */
static const char *cuda_include_dir(void *sym) {
  static char *dir;
  static bool looked;
  if (looked) return dir;
  looked = true;
  char *cand[8] = {0};
  int n = 0;
  Dl_info info;
  if (sym && dladdr(sym, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
    char *lib = realpath(info.dli_fname, NULL);
    if (lib) {
      *strrchr(lib, '/') = 0;                /* .../lib64 */
      cand[n++] = fmt("%s/../include", lib); /* toolkit/include, targets/ARCH/include */
      free(lib);
    }
  }
  char *nvcc = find_program("nvcc");
  if (nvcc) {
    char *real = realpath(nvcc, NULL);
    if (real) {
      *strrchr(real, '/') = 0;
      cand[n++] = fmt("%s/../include", real);
      free(real);
    }
  }
  const char *home = getenv("CUDA_HOME"), *path = getenv("CUDA_PATH");
  if (home && *home) cand[n++] = fmt("%s/include", home);
  if (path && *path) cand[n++] = fmt("%s/include", path);
  cand[n++] = "/usr/local/cuda/include";
  for (int i = 0; i < n && !dir; i++)
    if (!access(fmt("%s/cuda_fp16.h", cand[i]), R_OK)) dir = realpath(cand[i], NULL);
  return dir;
}

typedef struct {
  CreateFn create;
  CompileFn compile;
  LogSizeFn logsize;
  LogFn getlog;
  DestroyFn destroy;
  CubinSizeFn cubin_size;
  CubinFn get_cubin;
  AddNameFn add_name;
  LoweredFn lowered;
  VersionFn version;
} Nvrtc;

/* one compilation; with `expr` (&kernel) NVRTC also gives the kernel's lowered name */
static int nvrtc_compile(const Nvrtc *N, const char *src, const char *arch, const char *expr,
                         char **log, char **lowered, unsigned char **cubin, size_t *cubin_n) {
  nvrtcProgram prog;
  if (N->create(&prog, src, "carve.cu", 0, NULL, NULL)) return -1;
  if (expr && N->add_name(prog, expr)) expr = NULL;
  const char *inc = cuda_include_dir((void *)N->create);
  char archopt[64];
  snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
  const char *opts[5] = {archopt, "--ptxas-options=-v", "-default-device"};
  int nopt = 3;
  if (inc) opts[nopt++] = fmt("--include-path=%s", inc);
  /* CUDA 13 keeps libcu++ (cuda/std/..., which cooperative_groups.h includes) in include/cccl */
  if (inc && !access(fmt("%s/cccl/cuda/std/type_traits", inc), R_OK))
    opts[nopt++] = fmt("--include-path=%s/cccl", inc);
  int rc = N->compile(prog, nopt, opts);
  size_t n = 0;
  N->logsize(prog, &n);
  *log = xmalloc(n + 1);
  (*log)[0] = 0;
  N->getlog(prog, *log);
  const char *low = NULL;
  if (!rc && expr && !N->lowered(prog, expr, &low) && low) *lowered = arena_strdup(low);
  if (!rc && N->cubin_size && N->get_cubin && !N->cubin_size(prog, cubin_n) && *cubin_n > 0) {
    *cubin = xmalloc(*cubin_n);
    if (N->get_cubin(prog, (char *)*cubin)) {
      free(*cubin);
      *cubin = NULL;
    }
  }
  N->destroy(&prog);
  return rc;
}

static char *nvrtc_log(const char *src, const char *arch, const char *kernel, char **lowered,
                       char *why, size_t whylen, int *found, unsigned char **cubin,
                       size_t *cubin_n) {
  /* $CARVE_NVRTC, when set, is the only library tried */
  const char *env = getenv("CARVE_NVRTC");
  const char *names[] = {env,
                         env ? NULL : "libnvrtc.so",
                         env ? NULL : "libnvrtc.so.13",
                         env ? NULL : "libnvrtc.so.12",
                         env ? NULL : "/usr/local/cuda/lib64/libnvrtc.so",
                         NULL};
  /* loaded once and kept: NVRTC holds state (and allocations) for the life of the process */
  static void *h;
  /* with a driver present, NVRTC serves a source it compiled before from the driver's compute
   * cache (~/.nv/ComputeCache) without running ptxas, and the log then has no ptxas report: the
   * second `carve estimate` of a kernel on a GPU machine said "resources: unknown" (H100,
   * 2026-11-24). The cache is turned off for carve's compilations (CUDA_CACHE_DISABLE, CUDA C++
   * Programming Guide, "CUDA Environment Variables"). */
  if (!h) setenv("CUDA_CACHE_DISABLE", "1", 1);
  for (int i = 0; !h && i < 6; i++)
    if (names[i]) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(why, whylen, "NVRTC not found (libnvrtc.so; set CARVE_NVRTC)");
    return NULL;
  }
  *found = 1;
  Nvrtc N = {(CreateFn)dlsym(h, "nvrtcCreateProgram"),
             (CompileFn)dlsym(h, "nvrtcCompileProgram"),
             (LogSizeFn)dlsym(h, "nvrtcGetProgramLogSize"),
             (LogFn)dlsym(h, "nvrtcGetProgramLog"),
             (DestroyFn)dlsym(h, "nvrtcDestroyProgram"),
             (CubinSizeFn)dlsym(h, "nvrtcGetCUBINSize"),
             (CubinFn)dlsym(h, "nvrtcGetCUBIN"),
             (AddNameFn)dlsym(h, "nvrtcAddNameExpression"),
             (LoweredFn)dlsym(h, "nvrtcGetLoweredName"),
             (VersionFn)dlsym(h, "nvrtcVersion")};
  if (!N.create || !N.compile || !N.logsize || !N.getlog || !N.destroy) {
    snprintf(why, whylen, "NVRTC lacks the expected functions");
    return NULL;
  }
  const char *expr = N.add_name && N.lowered ? fmt("&%s", kernel) : NULL;
  char *log = NULL;
  int rc = nvrtc_compile(&N, src, arch, expr, &log, lowered, cubin, cubin_n);
  if (rc && expr) { /* a name carve writes that C++ does not take as an expression: without it */
    free(log);
    log = NULL;
    rc = nvrtc_compile(&N, src, arch, NULL, &log, lowered, cubin, cubin_n);
  }
  if (rc < 0) {
    free(log);
    snprintf(why, whylen, "nvrtcCreateProgram failed");
    return NULL;
  }
  if (rc) {
    snprintf(why, whylen, "NVRTC could not compile the kernel: %.180s", log);
    free(log);
    return NULL;
  }
  int major = 0, minor = 0;
  if (N.version) N.version(&major, &minor);
  snprintf(why, whylen, "%d.%d", major, minor); /* the version, for a message about the log */
  return log;
}

/* the fallback: an nvcc process with ptxas -v on the printed source; the log and the cubin */
static char *nvcc_log(const char *src, const char *arch, char *why, size_t whylen,
                      unsigned char **cubin, size_t *cubin_n) {
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
      snprintf(why, whylen, "nvcc could not compile the kernel (exit %d): %.160s", rc,
               log ? log : "");
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
  print_program_with(&b, p, PRINT_NO_PRAGMAS);
  uint64_t h = fnv(b.s ? b.s : "");
  for (int i = 0; i < ncache; i++)
    if (cache[i].hash == h && !strcmp(cache[i].arch, arch) &&
        !strcmp(cache[i].kernel, kernel->name)) {
      buf_free(&b);
      return cache[i].r;
    }
  int have_nvrtc = 0;
  unsigned char *cubin = NULL;
  size_t cubin_n = 0;
  char *lowered = NULL;
  r.instructions = -1;
  char *log = nvrtc_log(b.s ? b.s : "", arch, kernel->name, &lowered, r.why, sizeof r.why,
                        &have_nvrtc, &cubin, &cubin_n);
  char version[32] = "";
  if (log) {
    snprintf(version, sizeof version, "%.31s", r.why);
    r.why[0] = 0;
  }
  if (!have_nvrtc) {
    char nvrtc_why[sizeof r.why];
    snprintf(nvrtc_why, sizeof nvrtc_why, "%s", r.why);
    if ((log = nvcc_log(b.s ? b.s : "", arch, r.why, sizeof r.why, &cubin, &cubin_n)))
      r.via_nvcc = true;
    else if (!find_program("nvcc"))
      snprintf(r.why, sizeof r.why, "no CUDA toolkit: %.200s, and no nvcc", nvrtc_why);
  }
  buf_free(&b);
  if (log) {
    if (!ptxas_parse_log(log, kernel->name, lowered, &r))
      snprintf(r.why, sizeof r.why, "%.*s", (int)sizeof r.why - 1,
               fmt("no ptxas report for '%s'%s%s in the %s%s log (%s)", kernel->name,
                   lowered ? " = " : "", lowered ? lowered : "", r.via_nvcc ? "nvcc" : "NVRTC ",
                   r.via_nvcc ? "" : version,
                   strstr(log, "ptxas") ? "it has ptxas lines, none for the kernel"
                                        : "it has no ptxas lines"));
    free(log);
  }
  if (cubin) {
    r.instructions = sass_instructions(cubin, cubin_n, kernel->name, lowered);
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
