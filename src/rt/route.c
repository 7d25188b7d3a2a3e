/* route: the nvcc route of `carve run` (docs/host-programs.md). The program is built by nvcc as it
 * is, host code and all (C++ with its standard library, several files, the user's flags), with
 * `-cudart none` and carve's runtime library (src/rt/cudart.c) in its place, into a temporary
 * directory; then run with its arguments, its standard output and error its own. The runtime
 * finds the sources in the environment, reads the kernels with carve's front end, runs each
 * launch in the interpreter, and leaves a summary file that this file reads back into the
 * HostResult the interpreted route fills (launches, the distinct ones with their buffers). */
#include "rt.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static bool executable(const char *p) { return p && access(p, X_OK) == 0; }

const char *rt_nvcc(void) {
  const char *e = getenv("CARVE_NVCC");
  if (e && *e) return executable(e) ? e : NULL;
  const char *home = getenv("CUDA_HOME");
  if (home && executable(fmt("%s/bin/nvcc", home))) return fmt("%s/bin/nvcc", home);
  if (executable("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  const char *path = getenv("PATH");
  for (const char *p = path; p && *p;) {
    const char *c = strchr(p, ':');
    size_t n = c ? (size_t)(c - p) : strlen(p);
    const char *cand = fmt("%.*s/nvcc", (int)n, p);
    if (n && executable(cand)) return cand;
    p += n + (c ? 1 : 0);
  }
  return NULL;
}

/* the directory of the running carve executable */
static const char *self_dir(void) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return NULL;
  buf[n] = 0;
  char *slash = strrchr(buf, '/');
  if (!slash) return NULL;
  *slash = 0;
  return arena_strdup(buf);
}

const char *rt_library(void) {
  const char *e = getenv("CARVE_CUDART");
  if (e && *e) return access(e, R_OK) == 0 ? e : NULL;
  const char *d = self_dir();
  if (!d) return NULL;
  /* ./carve, build-san/carve (the sanitizer build uses the plain library), PREFIX/bin/carve */
  const char *cands[] = {fmt("%s/build/libcarve_cudart.so", d),
                         fmt("%s/../build/libcarve_cudart.so", d),
                         fmt("%s/../lib/carve/libcarve_cudart.so", d)};
  for (int i = 0; i < 3; i++)
    if (access(cands[i], R_OK) == 0) {
      char *r = realpath(cands[i], NULL); /* malloc'd: kept in the arena, freed here */
      const char *a = r ? arena_strdup(r) : NULL;
      free(r);
      return a;
    }
  return NULL;
}

/* included into every source nvcc compiles (-include): the legacy runtime calls CUDA 13 removed
 * from its headers, which programs written for older toolkits still call (cudaThreadSynchronize
 * in the CUDA ports of PolyBench and Rodinia); carve's runtime library defines them (cudart.c) */
static const char compat_header[] =
  "/* carve's compat header (carve run --route nvcc): the legacy CUDA runtime calls CUDA 13 removed */\n"
  "#pragma once\n"
  "#include <cuda_runtime_api.h>\n"
  "#if CUDART_VERSION >= 13000\n"
  "#ifdef __cplusplus\n"
  "extern \"C\" {\n"
  "#endif\n"
  "cudaError_t cudaThreadSynchronize(void);\n"
  "cudaError_t cudaThreadExit(void);\n"
  "cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);\n"
  "cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit);\n"
  "cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config);\n"
  "cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *config);\n"
  "cudaError_t cudaSetDoubleForDevice(double *d);\n"
  "cudaError_t cudaSetDoubleForHost(double *d);\n"
  "#ifdef __cplusplus\n"
  "}\n"
  "#endif\n"
  "#endif\n";

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* SIGINT/SIGTERM while a child runs (nvcc, the program): passed on to it, so it ends and carve
 * goes on to remove its temporary directory and report, as after any other end of the program */
static volatile pid_t child_pid;
static void pass_on(int sig) {
  if (child_pid > 0) kill(child_pid, sig);
}

/* run argv (NULL-terminated) with the environment changes env ("NAME=VALUE"), standard output to
 * out_fd (-1: inherited), killed after limit seconds (0: none; *late then set); the exit status,
 * 128 + signal when killed (*sig set), -1 if it could not start */
static int spawn_limited(char **argv, char **env, int nenv, int out_fd, int err_fd, int *sig,
                         double limit, bool *late) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    for (int i = 0; i < nenv; i++) putenv(env[i]);
    if (out_fd >= 0) dup2(out_fd, 1);
    if (err_fd >= 0) dup2(err_fd, 2);
    execvp(argv[0], argv);
    fprintf(stderr, "carve run: cannot run '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  child_pid = pid;
  struct sigaction sa = {0}, old_int, old_term;
  sa.sa_handler = pass_on;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  int st;
  double t0 = now_s(), nap = 0.001;
  for (;;) {
    pid_t w = waitpid(pid, &st, limit > 0 ? WNOHANG : 0);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      st = -1;
      break;
    }
    if (w == 0 && now_s() - t0 > limit && !*late) {
      *late = true;
      kill(pid, SIGKILL);
    }
    if (w == 0) {
      struct timespec ts = {0, (long)(nap * 1e9)};
      nanosleep(&ts, NULL);
      if (nap < 0.05) nap *= 2;
    }
  }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  child_pid = 0;
  if (st == -1) return -1;
  if (sig) *sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int spawn(char **argv, char **env, int nenv, int out_fd, int err_fd, int *sig) {
  bool late = false;
  return spawn_limited(argv, env, nenv, out_fd, err_fd, sig, 0, &late);
}

static bool has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && !strcmp(s + n - m, suf);
}

/* remove a directory made here and what is in it (one level of launch-N folders) */
static void remove_tree(const char *dir) {
  char *argv[] = {"rm", "-rf", (char *)dir, NULL};
  spawn(argv, NULL, 0, -1, -1, NULL);
}

/* the summary the runtime wrote, into r (recorded launches made against p) */
static void read_summary(Program *p, const char *path, RtResult *r) {
  size_t len;
  char *text = read_file(path, &len);
  if (!text) return;
  HostResult *h = &r->h;
  RecordedLaunch *cur = NULL;
  const char **args = NULL;
  int nargs = 0;
  bool usable = true;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    char *sp = strchr(line, ' ');
    const char *key = sp ? arena_strndup(line, (size_t)(sp - line)) : line, *val = sp ? sp + 1 : "";
    if (!cur) {
      if (!strcmp(key, "launches")) h->launches = atoi(val);
      else if (!strcmp(key, "faults")) r->faults = atoi(val);
      else if (!strcmp(key, "errors")) r->api_errors = atoi(val);
      else if (!strcmp(key, "unrun")) r->unrun = atoi(val);
      else if (!strcmp(key, "lane_ops")) h->kernel_lane_ops = strtoull(val, NULL, 10);
      else if (!strcmp(key, "seconds")) h->kernel_seconds = strtod(val, NULL);
      else if (!strcmp(key, "unrecorded")) h->unrecorded = atoi(val);
      else if (!strcmp(key, "native")) h->native_launches = atoi(val);
      else if (!strcmp(key, "native_seconds")) h->native_seconds = strtod(val, NULL);
      else if (!strcmp(key, "checked")) h->blocks_checked = strtoull(val, NULL, 10);
      else if (!strcmp(key, "stopped")) h->timed_out = true;
      else if (!strcmp(key, "launch")) {
        Obj *k = p ? find_kernel(p, val) : NULL;
        if (!k) {
          h->unrecorded++;
          usable = false;
        }
        h->rec = xrealloc(h->rec, sizeof(RecordedLaunch) * (size_t)(h->nrec + 1));
        cur = &h->rec[h->nrec];
        memset(cur, 0, sizeof *cur);
        cur->kernel = k;
        args = NULL;
        nargs = 0;
        usable = k != NULL;
      }
      continue;
    }
    long long a, b, c;
    if (!strcmp(key, "grid") && sscanf(val, "%lld %lld %lld", &a, &b, &c) == 3)
      cur->grid[0] = a, cur->grid[1] = b, cur->grid[2] = c;
    else if (!strcmp(key, "block") && sscanf(val, "%lld %lld %lld", &a, &b, &c) == 3)
      cur->block[0] = a, cur->block[1] = b, cur->block[2] = c;
    else if (!strcmp(key, "shared")) cur->dyn_shared = atoll(val);
    else if (!strcmp(key, "first")) cur->first = atoi(val);
    else if (!strcmp(key, "count")) cur->count = atoi(val);
    else if (!strcmp(key, "line") && cur->kernel) {
      cur->site = tok_loc(cur->kernel->tok);
      cur->site.line = atoi(val);
    } else if (!strcmp(key, "arg")) {
      if (!strcmp(val, "-")) usable = false;
      else arena_push(&args, &nargs, val);
    } else if (!strcmp(key, "end")) {
      /* the launch as flags would give it: buffers from the files the runtime wrote */
      if (usable) {
        LaunchOverrides *ov = &cur->ov;
        ov->has_grid = ov->has_block = true;
        memcpy(ov->grid, cur->grid, sizeof ov->grid);
        memcpy(ov->block, cur->block, sizeof ov->block);
        ov->dyn_shared = cur->dyn_shared;
        ProgramScope s = program_enter(p);
        usable = parse_arg_settings(p, args, nargs, ov);
        program_leave(s);
      }
      if (usable) {
        cur->kept = true;
        h->nrec++;
      } /* its buffers are the files the runtime wrote */
      else
        h->unrecorded++;
      cur = NULL;
    }
  }
  free(text);
}

/* the recorded launch's __constant__ and __device__ bytes, from launch-N/ */
static void read_globals(Program *p, const char *dir, HostResult *h) {
  for (int i = 0; i < h->nrec; i++) {
    size_t n;
    char *c = read_file(fmt("%s/launch-%d/constant.bin", dir, i + 1), &n);
    if (c && n == (size_t)p->constant_size) {
      h->rec[i].ov.constant = (unsigned char *)arena_strndup(c, n);
    }
    free(c);
    char *d = read_file(fmt("%s/launch-%d/device.bin", dir, i + 1), &n);
    if (d && n == (size_t)p->device_global_size) {
      h->rec[i].ov.device_vars = (unsigned char *)arena_strndup(d, n);
    }
    free(d);
  }
}

int rt_run(Program *p, const RtOptions *o, RtResult *r) {
  memset(r, 0, sizeof *r);
  r->h.status = 2;
  const char *nvcc = rt_nvcc(), *lib = rt_library();
  if (!nvcc) {
    fprintf(stderr,
            "carve run: nvcc not found (set CARVE_NVCC or CUDA_HOME): use --host-route interp\n");
    return 2;
  }
  if (!lib) {
    fprintf(
      stderr,
      "carve run: carve's CUDA runtime library (build/libcarve_cudart.so) is not built: run 'make cudart', or set CARVE_CUDART\n");
    return 2;
  }
  char tmpl[] = "/tmp/carve-run-XXXXXX";
  char *dir = mkdtemp(tmpl);
  if (!dir) {
    fprintf(stderr, "carve run: cannot make a temporary directory: %s\n", strerror(errno));
    return 2;
  }
  dir = arena_strdup(dir);
  const char *exe = fmt("%s/%s", dir, "program");
  const char *libdir = arena_strndup(lib, (size_t)(strrchr(lib, '/') - lib));
  const char *compat = fmt("%s/carve_compat.h", dir);
  FILE *cf = fopen(compat, "w");
  bool compat_ok = cf && fputs(compat_header, cf) >= 0;
  if (cf && fclose(cf) != 0) compat_ok = false;
  if (!compat_ok) {
    fprintf(stderr, "carve run: cannot write %s: %s\n", compat, strerror(errno));
    remove_tree(dir);
    return 2;
  }

  /* nvcc: the user's sources and flags, carve's runtime in place of libcudart */
  const char **av = NULL;
  int n = 0;
  arena_push(&av, &n, nvcc);
  arena_push(&av, &n, fmt("-arch=%s", o->sm ? o->sm : "sm_90"));
  arena_push(&av, &n, "-cudart");
  arena_push(&av, &n, "none");
  arena_push(&av, &n, "-include");
  arena_push(&av, &n, compat);
  for (int i = 0; o->pp && i < o->pp->n_include_dirs; i++)
    arena_push(&av, &n, fmt("-I%s", o->pp->include_dirs[i]));
  for (int i = 0; o->pp && i < o->pp->n_defines; i++)
    arena_push(&av, &n, fmt("-D%s", o->pp->defines[i]));
  for (int i = 0; i < o->nnvcc; i++) arena_push(&av, &n, o->nvcc_flags[i]);
  for (int i = 0; i < o->nfiles; i++) arena_push(&av, &n, o->files[i]);
  arena_push(&av, &n, lib);
  arena_push(&av, &n, fmt("-Xlinker=-rpath,%s", libdir));
  arena_push(&av, &n, "-Xlinker=-export-dynamic");
  arena_push(&av, &n, "-o");
  arena_push(&av, &n, exe);
  arena_push(&av, &n, NULL);
  n--;
  double t0 = now_s();
  const char *log = fmt("%s/nvcc.log", dir);
  FILE *lf = fopen(log, "w");
  int lfd = lf ? fileno(lf) : -1;
  int rc = spawn((char **)av, NULL, 0, lfd, lfd, NULL);
  if (lf) fclose(lf);
  r->build_seconds = now_s() - t0;
  if (rc != 0) {
    size_t len;
    char *text = read_file(log, &len);
    fprintf(stderr, "%s", text ? text : "");
    free(text);
    fprintf(stderr, "carve run: nvcc could not build the program (exit %d):", rc);
    for (int i = 0; i < n; i++) fprintf(stderr, " %s", av[i]);
    fprintf(stderr, "\n");
    remove_tree(dir);
    return 2;
  }

  /* the environment the runtime reads */
  Buf src = {0}, ppf = {0};
  for (int i = 0; i < o->nfiles; i++)
    if (has_suffix(o->files[i], ".cu")) {
      char *abs = realpath(o->files[i], NULL);
      buf_printf(&src, "%s\n", abs ? abs : o->files[i]);
      free(abs);
    }
  for (int i = 0; o->pp && i < o->pp->n_include_dirs; i++) {
    char *abs = realpath(o->pp->include_dirs[i], NULL);
    buf_printf(&ppf, "-I%s\n", abs ? abs : o->pp->include_dirs[i]);
    free(abs);
  }
  for (int i = 0; o->pp && i < o->pp->n_defines; i++) buf_printf(&ppf, "-D%s\n", o->pp->defines[i]);
  const char *summary = fmt("%s/summary.txt", dir);
  char *env[16];
  int nenv = 0;
  env[nenv++] = fmt("%s=%s", RT_ENV_SOURCES, src.s ? src.s : "");
  env[nenv++] = fmt("%s=%s", RT_ENV_PPFLAGS, ppf.s ? ppf.s : "");
  env[nenv++] = fmt("%s=%s", RT_ENV_ARCH, o->machine ? o->machine : "h100");
  env[nenv++] = fmt("%s=%llu", RT_ENV_MAX_STEPS, (unsigned long long)o->max_steps);
  env[nenv++] = fmt("%s=%s", RT_ENV_NO_RACE, o->no_race ? "1" : "0");
  env[nenv++] = fmt("%s=%s", RT_ENV_SUMMARY, summary);
  if (o->record) env[nenv++] = fmt("%s=%s", RT_ENV_RECORD, dir);
  env[nenv++] = fmt("%s=%s", RT_ENV_ENGINE, o->engine ? o->engine : "auto");
  env[nenv++] = fmt("%s=%s", RT_ENV_CHECK, o->check ? o->check : "sample");
  if (o->max_seconds > 0) env[nenv++] = fmt("%s=%g", RT_ENV_MAX_SECONDS, o->max_seconds);
  if (o->d2h) env[nenv++] = fmt("%s=%s", RT_ENV_D2H, o->d2h);
  buf_free(&src);
  buf_free(&ppf);

  /* the program, with its own arguments (argv[0] as the user named the program) */
  const char **pv = NULL;
  int np = 0;
  arena_push(&pv, &np, exe);
  for (int i = 1; i < o->argc; i++) arena_push(&pv, &np, o->argv[i]);
  arena_push(&pv, &np, NULL);
  t0 = now_s();
  bool late = false;
  /* the runtime's watchdog stops the program after max_seconds outside launches; this limit, far
   * beyond it, is for a program that never loaded the runtime */
  int code = spawn_limited((char **)pv, env, nenv, o->out ? fileno(o->out) : -1,
                           o->err ? fileno(o->err) : -1, &r->signal,
                           o->max_seconds > 0 ? 3600 + 10 * o->max_seconds : 0, &late);
  r->run_seconds = now_s() - t0;
  r->h.host_seconds = r->run_seconds;
  r->dir = dir;
  if (code < 0) {
    fprintf(stderr, "carve run: could not start the program\n");
    return 2;
  }
  read_summary(p, summary, r);
  if (o->record) read_globals(p, dir, &r->h);
  r->h.exit_code = code;
  r->h.status = r->faults ? 1 : r->unrun ? 2 : 0; /* a launch carve could not run: not a check */
  if (late ||
      r->h.timed_out) { /* stopped at the time limit: the launches recorded until then are kept */
    r->h.timed_out = true;
    r->signal = 0;
    if (!r->faults) r->h.status = 2;
  }
  return r->h.status;
}

void rt_cleanup(RtResult *r) {
  if (r->dir) remove_tree(r->dir);
  host_result_free(&r->h);
  memset(r, 0, sizeof *r);
}

int rt_host_run_held(Program *p, HostOptions *o, HostResult *r) {
  FILE *out = tmpfile(), *err = tmpfile(), *diags = tmpfile();
  if (!out || !err || !diags) { /* nowhere to hold it: as it comes, no time limit */
    if (out) fclose(out);
    if (err) fclose(err);
    if (diags) fclose(diags);
    o->out = o->err = NULL;
    o->max_seconds = 0;
    return host_run(p, o, r);
  }
  o->out = out;
  o->err = err;
  fflush(stdout);
  fflush(stderr);
  FILE *saved = diag_out;
  diag_out = diags;
  int rc = host_run(p, o, r);
  diag_out = saved;
  bool drop = rc == 2 && r->timed_out;
  /* the program's output as it would have come, then carve's diagnostics */
  FILE *pairs[][2] = {{out, stdout}, {err, stderr}, {diags, stderr}};
  for (int i = 0; i < 3; i++) {
    rewind(pairs[i][0]);
    char buf[65536];
    size_t n;
    while (!drop && (n = fread(buf, 1, sizeof buf, pairs[i][0])) > 0)
      fwrite(buf, 1, n, pairs[i][1]);
    fclose(pairs[i][0]);
    fflush(pairs[i][1]);
  }
  o->out = o->err = NULL;
  return rc;
}
