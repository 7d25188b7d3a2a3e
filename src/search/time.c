/* time: the variants chosen, verified and timed. Verification is the interpreter's, twice: the
 * variant against the original before anything is built for the GPU (check.c: launch shape and
 * passes, in worker processes, recorded), and on the GPU its first launch's outputs against the
 * interpreter's (sampled blocks). Timing: one harness build holds a batch of variants
 * (src/gpu/harness.c, harness_generate_multi); the batches are built by nvcc in parallel
 * (builder processes) while the GPU times them in order; a variant that faults ends the
 * harness and the driver starts it again after that variant; a variant silent past the timeout
 * is killed the same way. One worker process per GPU (CUDA_VISIBLE_DEVICES), appending records
 * to the shared results file (O_APPEND). */
#include "search.h"
#include "../gpu/gpu.h"
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the interpreter's outputs for the GPU comparison (sampled blocks, as carve bench) ---- */
typedef struct {
  Launch L;
  Written w; /* what the sampled blocks wrote */
  int64_t *blocks;
  bool ok;
} Reference;

static bool reference_run(Space *s, Reference *r) {
  memset(r, 0, sizeof *r);
  if (search_prepare(s, s->orig, &r->L)) return false;
  int64_t total = r->L.grid[0] * r->L.grid[1] * r->L.grid[2];
  int want = 64;
  written_init(&r->w, &r->L);
  bool sampled = total > want;
  if (sampled) {
    r->blocks = xmalloc(sizeof(int64_t) * (size_t)want);
    r->w.blocks = r->blocks;
    r->w.nblocks = launch_sample_blocks(total, want, r->blocks);
  }
  Hooks h = written_hooks(&r->w);
  RunOptions ro = {.hooks = &h};
  RunStats st;
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  r->ok = interp_run(&r->L, &ro, &st) == 0;
  diag_out = saved;
  if (null) fclose(null);
  if (!sampled)
    for (int i = 0; i < r->L.nbufs; i++) memset(r->w.bytes[i], 1, r->L.bufs[i].bytes);
  return r->ok;
}

static void reference_free(Reference *r) {
  if (r->w.L) written_free(&r->w);
  free(r->blocks);
  launch_free(&r->L);
}

/* the GPU's outputs of variant i in dir against the reference: true, or false with why */
static bool compare_outputs(Space *s, Reference *r, const char *dir, char *why, size_t len) {
  LaunchSpec *spec = find_spec(s->orig, s->kernel);
  double tol = spec && spec->rel_tol > 0 ? spec->rel_tol : 1e-5;
  for (int i = 1; i < r->L.nbufs; i++) {
    Buffer *b = &r->L.bufs[i];
    if (!b->out || (r->w.nblocks && r->w.atomic[i])) continue;
    size_t n;
    unsigned char *gpu = (unsigned char *)read_file(fmt("%s/%s.bin", dir, b->name), &n);
    if (!gpu || n != b->bytes) {
      snprintf(why, len, "the harness did not write %s", b->name);
      free(gpu);
      return false;
    }
    BufferCompare c = compare_gpu_buffer(b, gpu, r->w.bytes[i], tol);
    free(gpu);
    if (c.mismatches) {
      snprintf(why, len, "%s[%zu] differs from the interpreter (%zu elements)", b->name,
               c.first_bad, c.mismatches);
      return false;
    }
    if (!c.ok) {
      snprintf(why, len, "%s: relative L2 error %.3g > %.3g", b->name, c.rel_l2, tol);
      return false;
    }
  }
  return true;
}

/* ---- one batch: build, run (resumed after a faulting variant), verify, record ---- */
typedef struct {
  Space *s;
  Results *r;
  const TimeOptions *o;
  Reference *ref;
  const char *nvcc, *dir;
  char gpu[96];
  int no_gpu;
  double best_ms; /* the fastest verified so far (progress) */
  int done, total;
  double t0;
  double wait_build_s, compare_s, record_s; /* where a GPU worker's time went (progress) */
} Worker;

static void record(Worker *w, const Variant *v, const char *status, const char *why,
                   double compile_s, double verify_s, double run_s, const char *line) {
  double t_rec = now_s();
  TimeRecord t;
  memset(&t, 0, sizeof t);
  t.hash = v->hash;
  snprintf(t.key, sizeof t.key, "%s", v->key);
  snprintf(t.status, sizeof t.status, "%s", status);
  snprintf(t.why, sizeof t.why, "%s", why ? why : "");
  snprintf(t.gpu, sizeof t.gpu, "%s", w->gpu);
  t.compile_s = compile_s;
  t.verify_s = verify_s;
  t.run_s = run_s;
  if (line) {
    TimeRecord tmp;
    json_number(line, "median_ms", &t.median_ms);
    json_number(line, "min_ms", &t.min_ms);
    json_number(line, "max_ms", &t.max_ms);
    const char *p = strstr(line, "\"times\": [");
    if (p && time_from_record(
               &tmp, fmt("{\"type\": \"time\", \"hash\": \"0\", \"status\": \"ok\", %s", p))) {
      memcpy(t.times, tmp.times, sizeof t.times);
      t.ntimes = tmp.ntimes;
    }
  }
  results_append(w->r, time_record(&t));
  w->record_s += now_s() - t_rec;
  w->done++;
  if (!strcmp(status, "ok") && (w->best_ms <= 0 || t.median_ms < w->best_ms))
    w->best_ms = t.median_ms;
  if (w->o->progress) {
    double el = now_s() - w->t0, left = w->done ? el / w->done * (w->total - w->done) : 0;
    fprintf(stderr, "  [%d/%d timed, best so far %.4f ms, %.0f s left] %-40s %s %s\n", w->done,
            w->total, w->best_ms, left, v->key, status,
            !strcmp(status, "ok") ? fmt("%.4f ms", t.median_ms)
            : why                 ? why
                                  : "");
  }
}

/* a variant's outputs, compared: removed at once, so a tune of hundreds of variants does not
 * leave gigabytes of dirty pages for the results file's fsync to wait behind */
static void discard_outputs(Worker *w, const char *dir) {
  for (int i = 1; i < w->ref->L.nbufs; i++)
    if (w->ref->L.bufs[i].out) unlink(fmt("%s/%s.bin", dir, w->ref->L.bufs[i].name));
}

/* run the harness from variant `first`; returns the index it stopped at (n when done), and
 * records each finished variant; -3 when there is no GPU */
static int run_from(Worker *w, const char *dir, Variant **vs, int n, int first, double compile_s,
                    const double *verify_s) {
  int p[2];
  if (pipe(p)) return n;
  char *outdir = fmt("%s/out", dir), *exe = fmt("%s/tune", dir);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(p[1], 1);
    close(p[0]);
    if (!freopen(fmt("%s/run.err", dir), "w", stderr)) _exit(127);
    char reps[16], f[16], l[16];
    snprintf(reps, sizeof reps, "%d", w->o->reps > 0 ? w->o->reps : 20);
    snprintf(f, sizeof f, "%d", first);
    snprintf(l, sizeof l, "%d", n);
    execl(exe, exe, reps, outdir, "0", f, l, (char *)NULL);
    _exit(127);
  }
  close(p[1]);
  Buf in = {0};
  int current = -1, timeout = w->o->timeout_s > 0 ? w->o->timeout_s : 60;
  double started = now_s();
  bool killed = false;
  for (;;) {
    struct pollfd pf = {p[0], POLLIN, 0};
    int pr = poll(&pf, 1, 1000);
    if (pr < 0 && errno == EINTR) continue;
    if (pr == 0) {
      if (current >= 0 && now_s() - started > timeout) {
        kill(-pid, SIGKILL);
        killed = true;
        break;
      }
      continue;
    }
    char buf[4096];
    ssize_t k = read(p[0], buf, sizeof buf - 1);
    if (k <= 0) break;
    buf[k] = 0;
    buf_puts(&in, buf);
    char *nl;
    while (in.s && (nl = strchr(in.s, '\n'))) {
      *nl = 0;
      char *line = arena_strdup(in.s);
      size_t rest = in.len - (size_t)(nl + 1 - in.s);
      memmove(in.s, nl + 1, rest + 1);
      in.len = rest;
      double vi;
      char name[96];
      if (!strncmp(line, "start ", 6)) {
        current = atoi(line + 6);
        started = now_s();
        continue;
      }
      if (sscanf(line, "{\"device\": \"%95[^\"]", name) == 1) {
        snprintf(w->gpu, sizeof w->gpu, "%s", name);
        continue;
      }
      if (!json_number(line, "variant", &vi) || vi < 0 || vi >= n) continue;
      Variant *v = vs[(int)vi];
      double run_s = now_s() - started;
      if (strstr(line, "\"error\"")) {
        record(w, v, "runtime", line, compile_s, verify_s[(int)vi], run_s, NULL);
        current = -2 - (int)vi;
        continue;
      }
      char why[256];
      double t_cmp = now_s();
      bool same = compare_outputs(w->s, w->ref, fmt("%s/v%d", outdir, (int)vi), why, sizeof why);
      discard_outputs(w, fmt("%s/v%d", outdir, (int)vi));
      w->compare_s += now_s() - t_cmp;
      if (!same) record(w, v, "wrong", why, compile_s, verify_s[(int)vi], run_s, line);
      else record(w, v, "ok", NULL, compile_s, verify_s[(int)vi], run_s, line);
      current = -1;
    }
  }
  close(p[0]);
  buf_free(&in);
  int status = 0;
  waitpid(pid, &status, 0);
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  if (rc == 3 && current == -1) return -3;
  if (current <= -2) return -current - 2 + 1; /* the harness reported the launch error */
  if (current >= 0) {                         /* died or hung on it */
    record(w, vs[current], killed ? "timeout" : "runtime",
           killed ? fmt("no result within %d s", timeout) : fmt("the harness died (status %d)", rc),
           compile_s, verify_s[current], now_s() - started, NULL);
    return current + 1;
  }
  return n;
}

/* a file copied whole to to (a temporary beside it renamed over it); false on any failure */
static bool copy_whole(const char *from, const char *to, mode_t mode) {
  size_t n;
  char *bytes = read_file(from, &n);
  if (!bytes) return false;
  char *tmp = fmt("%s.%ld.tmp", to, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  bool ok = f && fwrite(bytes, 1, n, f) == n;
  if (f && fclose(f)) ok = false;
  free(bytes);
  ok = ok && chmod(tmp, mode) == 0 && rename(tmp, to) == 0;
  if (!ok) unlink(tmp);
  return ok;
}

/* where a harness built from src with these nvcc arguments is cached, or NULL (no cache) */
static char *build_cache_path(const Worker *w, const Buf *src, const char *arch) {
  const char *dir = search_cache_dir(w->o->cache_dir);
  if (!dir || !*dir) return NULL;
  char *sub = fmt("%s/builds", dir);
  mkdir(dir, 0700);
  mkdir(sub, 0700);
  uint64_t key =
    search_hash_bytes(src->s, src->len) ^ search_hash(fmt("%s -O3 -arch=%s", w->nvcc, arch));
  return fmt("%s/%016llx", sub, (unsigned long long)key);
}

/* build a batch's harness in dir: its variants rebuilt, one source, one nvcc (or the harness
 * built from the same source before, from the cache). 0 built, 1 nvcc failed (dir/nvcc.err),
 * -1 a variant could not be rebuilt */
static int build_batch(Worker *w, Variant **vs, int n, const char *dir) {
  Launch *L = xmalloc(sizeof(Launch) * (size_t)n), **Lp = xmalloc(sizeof(Launch *) * (size_t)n);
  Built *b = xmalloc(sizeof(Built) * (size_t)n);
  int built = 0, rc = -1;
  char why[256];
  for (; built < n; built++) {
    if (!variant_build(w->s, vs[built], false, &b[built], why, sizeof why)) break;
    if (search_prepare(w->s, b[built].plan.result, &L[built])) {
      built_free(&b[built]);
      break;
    }
    Lp[built] = &L[built];
  }
  if (built == n) {
    Buf src = {0};
    HarnessOptions ho = {.reps = w->o->reps};
    harness_generate_multi(&src, &w->ref->L, Lp, n, &ho);
    const char *arch = w->o->arch ? w->o->arch : "sm_90";
    char *cu = fmt("%s/tune.cu", dir), *exe = fmt("%s/tune", dir),
         *cached = build_cache_path(w, &src, arch);
    FILE *f = fopen(cu, "w");
    bool written = f && fwrite(src.s, 1, src.len, f) == src.len;
    if (f && fclose(f)) written = false;
    buf_free(&src);
    rc = 1;
    if (written && cached && access(cached, X_OK) == 0 && copy_whole(cached, exe, 0700)) rc = 0;
    else if (written) {
      char *argv[] = {(char *)w->nvcc, "-O3", fmt("-arch=%s", arch), "-o", exe, cu, NULL};
      rc = run_program(argv, NULL, fmt("%s/nvcc.err", dir), 600) ? 1 : 0;
      if (rc == 0 && cached)
        copy_whole(exe, cached, 0700); /* a cache that cannot be written costs only the next tune */
    }
  }
  for (int i = 0; i < built; i++) {
    launch_free(&L[i]);
    built_free(&b[i]);
  }
  free(L);
  free(Lp);
  free(b);
  return rc;
}

/* a built batch timed: the harness restarted after a variant that ends it; false: no GPU */
static bool run_batch(Worker *w, Variant **vs, int n, const char *dir, double compile_s,
                      const double *verify_s) {
  mkdir(fmt("%s/out", dir), 0700);
  for (int i = 0; i < n; i++) mkdir(fmt("%s/out/v%d", dir, i), 0700);
  for (int first = 0; first < n;) {
    first = run_from(w, dir, vs, n, first, compile_s, verify_s);
    if (first == -3) {
      w->no_gpu = 1;
      return false;
    }
  }
  return true;
}

static void record_all(Worker *w, Variant **vs, int n, const char *status, const char *why,
                       double compile_s, const double *verify_s) {
  for (int i = 0; i < n; i++) record(w, vs[i], status, why, compile_s, verify_s[i], 0, NULL);
}

static void time_batch(Worker *w, Variant **vs, int n, const double *verify_s, const char *dir);

/* a batch nvcc refused is halved until the variant it refuses stands alone: it costs that
 * variant only */
static void refused(Worker *w, Variant **vs, int n, const double *verify_s, const char *dir,
                    double compile_s) {
  if (n > 1) {
    int h = n / 2;
    time_batch(w, vs, h, verify_s, fmt("%s/a", dir));
    if (!w->no_gpu) time_batch(w, vs + h, n - h, verify_s + h, fmt("%s/b", dir));
    return;
  }
  size_t len;
  char *err = read_file(fmt("%s/nvcc.err", dir), &len);
  record_all(w, vs, n, "compile", fmt("nvcc: %.200s", err ? err : "failed"), compile_s, verify_s);
  free(err);
}

/* one batch built and timed in this process */
static void time_batch(Worker *w, Variant **vs, int n, const double *verify_s, const char *dir) {
  mkdir(dir, 0700);
  double t0 = now_s();
  int rc = build_batch(w, vs, n, dir);
  double compile_s = (now_s() - t0) / n;
  if (rc == 0) run_batch(w, vs, n, dir, compile_s, verify_s);
  else if (rc < 0)
    record_all(w, vs, n, "compile", "the variant could not be rebuilt", compile_s, verify_s);
  else refused(w, vs, n, verify_s, dir, compile_s);
}

/* ---- the batches of one GPU: built by nvcc in parallel (builder processes), timed in order
 * ---- */
typedef struct {
  Variant **vs;
  int n;
  const double *verify_s;
  char dir[400];
  pid_t pid;
  double t0, compile_s;
  int rc;
} Batch;

static void start_build(Worker *w, Batch *b) {
  mkdir(b->dir, 0700);
  b->t0 = now_s();
  fflush(stdout);
  fflush(stderr);
  b->pid = fork();
  if (b->pid == 0) {
    setpgid(0, 0);
    int rc = build_batch(w, b->vs, b->n, b->dir);
    _exit(rc == 0 ? 0 : rc == 1 ? 1 : 2);
  }
  if (b->pid < 0) b->rc = 3; /* built here instead, when its turn comes */
}

/* a builder finished (blocking: wait for it); false while it runs */
static bool reap_build(Batch *b, bool block) {
  if (b->pid <= 0) return true;
  int st = 0;
  pid_t r = waitpid(b->pid, &st, block ? 0 : WNOHANG);
  if (r == 0) return false;
  b->compile_s = (now_s() - b->t0) / b->n;
  b->rc = r < 0 ? 3 : WIFEXITED(st) ? WEXITSTATUS(st) : 3;
  b->pid = 0;
  return true;
}

/* nvcc builds at once for one GPU worker: the host's cores shared out among the GPU workers
 * (nvcc's front end and ptxas are single-threaded, so a core a build) */
static int build_jobs(const TimeOptions *o) {
  if (o->builds > 0) return o->builds;
  int ng = 1;
  for (const char *g = o->gpus; g && *g; g++) ng += *g == ',';
  int j = pool_workers(0) / ng;
  return j < 1 ? 1 : j > 64 ? 64 : j;
}

/* The batches waiting to be timed, shared by the GPU workers: each worker claims the next batch
 * when it starts building it, so a faster GPU takes more and a worker that dies loses only the
 * batches it had claimed (their variants have no time record: a resume times them). With one
 * worker the queue is a counter; with several, a pipe the parent filled with the batch numbers
 * before forking (a read of 4 bytes from a pipe is atomic: no batch is claimed twice). */
typedef struct {
  int fd, next, nb;
} BatchQueue;

static int claim_batch(BatchQueue *q) {
  if (q->fd < 0) return q->next < q->nb ? q->next++ : -1;
  int32_t i;
  for (;;) {
    ssize_t r = read(q->fd, &i, sizeof i);
    if (r == (ssize_t)sizeof i) return i >= 0 && i < q->nb ? i : -1;
    if (r < 0 && errno == EINTR) continue;
    return -1; /* empty and closed: every batch claimed */
  }
}

/* batches claimed from q, built ahead by up to build_jobs() builders, timed in claim order */
static void time_batches(Worker *w, Batch *bs, BatchQueue *q) {
  int jobs = build_jobs(w->o), nmine = 0, next = 0;
  int *mine = xmalloc(sizeof(int) * (size_t)(q->nb + 1));
  bool drained = false, late = false;
  for (int i = 0; !w->no_gpu; i++) {
    late = w->o->deadline > 0 && search_now() > w->o->deadline;
    int running = 0, ready = 0;
    for (int j = i; j < next; j++) {
      bool done = reap_build(&bs[mine[j]], false);
      running += !done;
      ready += done;
    }
    /* keep the builders busy: claim and start a batch while a builder is free and fewer than two
     * built batches wait for this GPU (and always the one to time next). Builds from the cache
     * finish at once: without the second bound the first worker would claim them all. */
    while (!drained && !late && (next <= i || (running < jobs && ready < 2))) {
      if (next == nmine) {
        int c = claim_batch(q);
        if (c < 0) {
          drained = true;
          break;
        }
        mine[nmine++] = c;
      }
      start_build(w, &bs[mine[next++]]);
      running++;
    }
    if (late || i >= next) {
      if (late && w->o->progress) {
        int left = 0;
        for (int j = i; j < nmine; j++) left += bs[mine[j]].n;
        for (int j = q->fd < 0 ? q->next : q->nb; j < q->nb; j++)
          left += bs[j].n; /* unclaimed, when only this worker claims */
        fprintf(stderr, "  time budget spent: no batch starts; %d variants left untimed%s\n", left,
                q->fd < 0 ? "" : " by this worker");
      }
      break;
    }
    Batch *b = &bs[mine[i]];
    double t_wait = now_s();
    reap_build(b, true);
    w->wait_build_s += now_s() - t_wait;
    if (b->rc == 0) run_batch(w, b->vs, b->n, b->dir, b->compile_s, b->verify_s);
    else if (b->rc == 2)
      record_all(w, b->vs, b->n, "compile", "the variant could not be rebuilt", b->compile_s,
                 b->verify_s);
    else if (b->rc == 1) refused(w, b->vs, b->n, b->verify_s, b->dir, b->compile_s);
    else
      time_batch(w, b->vs, b->n, b->verify_s, fmt("%s/here", b->dir)); /* no builder could start */
  }
  for (int j = 0; j < next; j++) {
    Batch *b = &bs[mine[j]];
    if (b->pid > 0) {
      kill(-b->pid, SIGKILL);
      kill(b->pid, SIGKILL);
      reap_build(b, true);
    }
  }
  free(mine);
}

/* variants per harness build: --batch, else enough batches for every builder of every GPU
 * twice over (the first batches arrive sooner), between 4 and 16 variants each */
static int batch_size(const TimeOptions *o, int n) {
  if (o->batch > 0) return o->batch;
  int ng = 1;
  for (const char *g = o->gpus; g && *g; g++) ng += *g == ',';
  int builders = build_jobs(o) * ng, per = (n + 2 * builders - 1) / (2 * builders);
  return per < 4 ? 4 : per > 16 ? 16 : per;
}

/* one GPU's worker (every variant verified already): the batches of bs it claims from q, timed */
static int gpu_worker(Space *s, Batch *bs, BatchQueue *q, Results *r, const TimeOptions *o,
                      const char *nvcc) {
  Reference ref;
  if (!reference_run(s, &ref)) {
    fprintf(stderr,
            "carve tune: the original faults in the interpreter; nothing can be verified\n");
    reference_free(&ref);
    return 2;
  }
  char tmpl[300];
  snprintf(tmpl, sizeof tmpl, "%s/time-XXXXXX", s->tmpdir);
  char *dir = mkdtemp(tmpl);
  if (!dir) {
    reference_free(&ref);
    return 2;
  }
  Worker w = {s, r, o, &ref, nvcc, dir, "", 0, 0, 0, 0, now_s(), 0, 0, 0};
  for (int i = 0; i < q->nb; i++) {
    snprintf(bs[i].dir, sizeof bs[i].dir, "%s/b%d", dir, i);
    w.total += bs[i].n;
  }
  time_batches(&w, bs, q);
  if (o->progress && w.done) {
    double all = now_s() - w.t0;
    fprintf(
      stderr,
      "  GPU worker (%s%s%s): %d variants in %.1f s: waiting for nvcc %.1f s, comparing outputs %.1f s, "
      "recording %.1f s, the harness the rest (%.1f s)\n",
      w.gpu[0] ? w.gpu : "GPU", getenv("CUDA_VISIBLE_DEVICES") ? ", CUDA_VISIBLE_DEVICES=" : "",
      getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "", w.done, all,
      w.wait_build_s, w.compare_s, w.record_s, all - w.wait_build_s - w.compare_s - w.record_s);
  }
  int rc = 0;
  if (w.no_gpu) {
    fprintf(stderr, "carve tune: no CUDA GPU available (the harness found none)\n");
    rc = 3;
  }
  reference_free(&ref);
  return rc;
}

/* the variants of todo verified (worker processes, recorded); those rejected get their time
 * record (status "verify") here; the verified ones are left in todo, their seconds in vsec */
static int verify_before_timing(Space *s, Variant **todo, int nt, double *vsec, Results *r,
                                const TimeOptions *o) {
  int *idx = xmalloc(sizeof(int) * (size_t)(nt + 1)),
      *verdict = xmalloc(sizeof(int) * (size_t)(nt + 1)), m = 0;
  for (int i = 0; i < nt; i++) idx[i] = (int)(todo[i] - s->v);
  verify_variants(s, idx, nt, r, o->workers, o->progress, o->deadline, verdict);
  Worker w = {s, r, o, NULL, NULL, NULL, "", 0, 0, 0, nt, now_s(), 0, 0, 0};
  for (int i = 0; i < nt; i++) {
    VerifyRecord vr = {0};
    results_verify(r, todo[i]->hash, &vr);
    if (verdict[i] > 0) {
      vsec[m] = vr.verify_s;
      todo[m++] = todo[i];
    } else if (verdict[i] < 0)
      record(&w, todo[i], "verify", vr.why[0] ? vr.why : "not verified", 0, vr.verify_s, 0, NULL);
  }
  free(idx);
  free(verdict);
  return m;
}

/* the verified variants in batches, timed by one worker process per GPU (CUDA_VISIBLE_DEVICES
 * naming its device), each claiming batches from one queue */
static int time_on_gpus(Space *s, Variant **todo, double *vsec, int nt, Results *r,
                        const TimeOptions *o, const char *nvcc) {
  const char *gl = o->gpus;
  int ng = 0;
  char *gpus[64];
  if (gl)
    for (char *t = strtok(arena_strdup(gl), ","); t && ng < 64; t = strtok(NULL, ","))
      gpus[ng++] = t;
  int per = batch_size(o, nt), nb = (nt + per - 1) / per;
  Batch *bs = xmalloc(sizeof(Batch) * (size_t)(nb + 1));
  memset(bs, 0, sizeof(Batch) * (size_t)(nb + 1));
  for (int i = 0; i < nb; i++) {
    bs[i].vs = todo + i * per;
    bs[i].n = i + 1 < nb ? per : nt - i * per;
    bs[i].verify_s = vsec + i * per;
  }
  if (o->progress)
    fprintf(
      stderr,
      "  timing %d variants in %d batches of up to %d on %d GPU worker%s, %d nvcc builds at once each\n",
      nt, nb, per, ng > 1 ? ng : 1, ng > 1 ? "s" : "", build_jobs(o));
  BatchQueue q = {-1, 0, nb};
  if (ng <= 1) {
    if (ng == 1) setenv("CUDA_VISIBLE_DEVICES", gpus[0], 1);
    int rc = gpu_worker(s, bs, &q, r, o, nvcc);
    free(bs);
    return rc;
  }
  int pfd[2];
  if (pipe(pfd)) {
    free(bs);
    fprintf(stderr, "carve tune: pipe: %s\n", strerror(errno));
    return 2;
  }
  for (int32_t i = 0; i < nb;
       i++) /* nb * 4 bytes: far below a pipe's buffer for any space carve builds */
    if (write(pfd[1], &i, sizeof i) != (ssize_t)sizeof i) {
      close(pfd[0]);
      close(pfd[1]);
      free(bs);
      return 2;
    }
  close(pfd[1]);
  q.fd = pfd[0];
  fflush(stdout);
  fflush(stderr);
  pid_t pids[64];
  for (int g = 0; g < ng; g++) {
    pids[g] = fork();
    if (pids[g] == 0) {
      setenv("CUDA_VISIBLE_DEVICES", gpus[g], 1);
      int c = gpu_worker(s, bs, &q, r, o, nvcc);
      _exit(c ? c : results_check(r, "tune") ? 0 : 2); /* a record this worker could not write */
    }
  }
  close(pfd[0]);
  int rc = 0;
  for (int g = 0; g < ng; g++) {
    int st = 0;
    if (pids[g] > 0) waitpid(pids[g], &st, 0);
    int c = pids[g] < 0 ? 2 : WIFEXITED(st) ? WEXITSTATUS(st) : 2;
    if (c && !rc) rc = c;
  }
  free(bs);
  return rc;
}

int time_variants(Space *s, const int *idx, int n, Results *r, const TimeOptions *o) {
  Variant **todo = xmalloc(sizeof(Variant *) * (size_t)(n + 1));
  double *vsec = xmalloc(sizeof(double) * (size_t)(n + 1));
  int nt = 0, rc = 0;
  for (int i = 0; i < n; i++)
    if (!results_time(r, s->v[idx[i]].hash)) todo[nt++] = &s->v[idx[i]];
  if (o->progress && nt < n)
    fprintf(stderr, "  %d of %d variants already timed (results file)\n", n - nt, n);
  char *nvcc = NULL;
  /* no NVIDIA driver, no GPU, no toolkit: said before minutes of verification and nvcc */
  if (nt && access("/dev/nvidiactl", F_OK) && access("/proc/driver/nvidia/version", F_OK) &&
      !getenv("CARVE_ASSUME_GPU")) {
    fprintf(
      stderr,
      "carve tune: no CUDA GPU available (no NVIDIA driver: /dev/nvidiactl absent); use --no-bench\n");
    rc = 3;
  } else if (nt && !(nvcc = find_program("nvcc"))) {
    fprintf(
      stderr,
      "carve tune: no CUDA toolkit: nvcc not found (PATH, /usr/local/cuda/bin or $CARVE_NVCC); use --no-bench\n");
    rc = 3;
  }
  if (!rc && nt) nt = verify_before_timing(s, todo, nt, vsec, r, o);
  if (!rc && nt) rc = time_on_gpus(s, todo, vsec, nt, r, o, nvcc);
  free(todo);
  free(vsec);
  return rc;
}
