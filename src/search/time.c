/* time: the variants chosen, verified and timed. Verification is the interpreter's, twice: the
 * variant against the original (its launch shape at the user's size, sampled blocks; its passes
 * at a reduced, a ragged and the full size, by optimize()), and on the GPU its first launch's
 * outputs against the interpreter's (sampled blocks). Timing: one harness build holds a batch of
 * variants (src/gpu/harness.c, harness_generate_multi); a variant that faults ends the process
 * and the driver starts it again after that variant; a variant silent past the timeout is
 * killed the same way. One worker process per GPU (CUDA_VISIBLE_DEVICES), appending records to
 * the shared results file (O_APPEND). */
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
  Written w;                 /* what the sampled blocks wrote */
  int64_t *blocks;
  bool ok;
} Reference;

static int prepare(Space *s, Program *p, Launch *L) {
  ProgramScope sc = program_enter(p);
  LaunchOverrides ov = {0};
  ov.dyn_shared = -1;
  parse_arg_settings(p, s->in.arg_texts, s->in.nargs, &ov);   /* checked when the space was built */
  memset(L, 0, sizeof *L);
  int rc = launch_prepare(L, p, find_kernel(p, s->kernel), &ov);
  program_leave(sc);
  return rc;
}

static bool reference_run(Space *s, Reference *r) {
  memset(r, 0, sizeof *r);
  if (prepare(s, s->orig, &r->L)) return false;
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
  if (!sampled) for (int i = 0; i < r->L.nbufs; i++) memset(r->w.bytes[i], 1, r->L.bufs[i].bytes);
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
    if (!gpu || n != b->bytes) { snprintf(why, len, "the harness did not write %s", b->name); free(gpu); return false; }
    BufferCompare c = compare_gpu_buffer(b, gpu, r->w.bytes[i], tol);
    free(gpu);
    if (c.mismatches) { snprintf(why, len, "%s[%zu] differs from the interpreter (%zu elements)", b->name, c.first_bad, c.mismatches); return false; }
    if (!c.ok) { snprintf(why, len, "%s: relative L2 error %.3g > %.3g", b->name, c.rel_l2, tol); return false; }
  }
  return true;
}

/* the threads of sampled boxes [lo, hi) (global thread coordinates), and what they write */
typedef struct {
  const Launch *L;
  int64_t (*box)[2][3]; int nbox;
  Written w;
} Cover;

static bool in_boxes(const Cover *c, const int64_t g[3]) {
  for (int k = 0; k < c->nbox; k++) {
    bool in = true;
    for (int d = 0; d < 3 && in; d++) in = g[d] >= c->box[k][0][d] && g[d] < c->box[k][1][d];
    if (in) return true;
  }
  return false;
}

/* blocks with a thread in a box (the hooks' context is the Written, first in Cover) */
static bool cover_want(void *ctx, int64_t b) {
  const Cover *c = ((const Written *)ctx)->keep_ctx;
  const Launch *L = c->L;
  int64_t id[3] = {b % L->grid[0], b / L->grid[0] % L->grid[1], b / (L->grid[0] * L->grid[1])};
  for (int k = 0; k < c->nbox; k++) {
    bool meet = true;
    for (int d = 0; d < 3 && meet; d++) meet = id[d] * L->block[d] < c->box[k][1][d] && (id[d] + 1) * L->block[d] > c->box[k][0][d];
    if (meet) return true;
  }
  return false;
}

/* a store counts when its thread lies inside a box */
static bool cover_keep(void *ctx, int64_t blk, int t) {
  const Cover *c = ctx;
  const Launch *L = c->L;
  int64_t id[3] = {blk % L->grid[0], blk / L->grid[0] % L->grid[1], blk / (L->grid[0] * L->grid[1])};
  int64_t g[3] = {id[0] * L->block[0] + t % L->block[0], id[1] * L->block[1] + t / L->block[0] % L->block[1],
                  id[2] * L->block[2] + t / (L->block[0] * L->block[1])};
  return in_boxes(c, g);
}

static Hooks cover_hooks(Cover *c, const Launch *L) {
  c->L = L;
  written_init(&c->w, L);
  c->w.keep = cover_keep;
  c->w.keep_ctx = c;
  Hooks h = written_hooks(&c->w);
  h.want_block = cover_want;
  return h;
}

/* two launches' outputs: the same elements written by the boxes' threads, with equal values */
static bool cover_compare(Space *s, const Cover *ca, const Cover *cb, char *why, size_t len) {
  LaunchSpec *spec = find_spec(s->orig, s->kernel);
  double rel = spec ? spec->rel_tol : 0, abs_tol = spec ? spec->abs_tol : 0;
  int64_t compared = 0;
  for (int i = 1; i < cb->L->nbufs; i++) {
    Buffer *x = &ca->L->bufs[i], *y = &cb->L->bufs[i];
    if (!y->out || ca->w.atomic[i] || cb->w.atomic[i]) continue;
    Type *t = y->elem_ty->kind == TY_STRUCT ? y->elem_ty->members->ty : y->elem_ty;
    size_t cs = (size_t)t->size, ne = cs ? y->bytes / cs : 0;
    for (size_t e = 0; e < ne; e++) {
      bool wa = ca->w.bytes[i][e * cs], wb = cb->w.bytes[i][e * cs];
      if (wa != wb) { snprintf(why, len, "%s[%zu] is written by the same threads %s the original's launch only", y->name, e, wa ? "in" : "outside"); return false; }
      if (!wb) continue;
      compared++;
      const unsigned char *p = x->data + e * cs, *q = y->data + e * cs;
      bool same;
      double u = 0, v = 0;
      if (t->kind == TY_FLOAT) { float f, g; memcpy(&f, p, 4); memcpy(&g, q, 4); u = f; v = g; }
      else if (t->kind == TY_DOUBLE) { memcpy(&u, p, 8); memcpy(&v, q, 8); }
      if (is_flonum(t)) same = (isnan(u) && isnan(v)) || u == v || fabs(u - v) <= abs_tol + rel * fmax(fabs(u), fabs(v));
      else same = !memcmp(p, q, cs);
      if (!same) { snprintf(why, len, "%s[%zu]: original %.9g, with this block %.9g", y->name, e, u, v); return false; }
    }
  }
  if (!compared) { snprintf(why, len, "the sampled threads wrote no output"); return false; }
  return true;
}

/* the shape against the original at the user's size: the threads of sampled blocks of the
 * shape, run in both launches (the original's blocks that hold them), write the same elements
 * with the same values */
static bool shape_check(Space *s, LaunchShape *sh, char *why, size_t len) {
  Launch a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  Cover ca = {0}, cb = {0};
  bool ok = false;
  FILE *saved = diag_out, *null = fopen("/dev/null", "w");
  diag_out = null;
  int errs = diag_errors;
  enum { SAMPLES = 8 };
  int64_t box[SAMPLES][2][3];
  int nb = 0;
  if (prepare(s, s->orig, &a) || prepare(s, sh->p, &b)) { snprintf(why, len, "the launch cannot be prepared"); goto out; }
  int64_t total = b.grid[0] * b.grid[1] * b.grid[2];
  int64_t pick[SAMPLES];
  int np = launch_sample_blocks(total, SAMPLES, pick);
  for (int i = 0; i < np; i++) {
    int64_t l = pick[i];
    int64_t id[3] = {l % b.grid[0], l / b.grid[0] % b.grid[1], l / (b.grid[0] * b.grid[1])};
    for (int d = 0; d < 3; d++) { box[nb][0][d] = id[d] * b.block[d]; box[nb][1][d] = (id[d] + 1) * b.block[d]; }
    nb++;
  }
  ca.box = cb.box = box;
  ca.nbox = cb.nbox = nb;
  Hooks ha = cover_hooks(&ca, &a), hb = cover_hooks(&cb, &b);
  RunOptions roa = {.hooks = &ha}, rob = {.hooks = &hb};
  RunStats st;
  if (interp_run(&a, &roa, &st)) { snprintf(why, len, "the original faults"); goto out; }
  if (interp_run(&b, &rob, &st)) { snprintf(why, len, "the kernel faults with this block"); goto out; }
  ok = cover_compare(s, &ca, &cb, why, len);
out:
  diag_out = saved;
  diag_errors = errs;
  if (null) fclose(null);
  if (ca.w.L) written_free(&ca.w);
  if (cb.w.L) written_free(&cb.w);
  launch_free(&a);
  launch_free(&b);
  return ok;
}

bool variant_verify(Space *s, const Variant *v, char *why, size_t whylen) {
  LaunchShape *sh = &s->shapes[v->shape];
  if (!sh->verified) {
    char w[200] = "";
    sh->verified = shape_check(s, sh, w, sizeof w) ? 1 : -1;
    if (sh->verified < 0) snprintf(sh->why, sizeof sh->why, "block %lldx%lld: %s", (long long)sh->block[0], (long long)sh->block[1], w);
  }
  if (sh->verified < 0) { snprintf(why, whylen, "launch shape: %.220s", sh->why); return false; }
  Built b;
  bool ok = variant_build(s, v, true, &b, why, whylen);
  if (ok) built_free(&b);
  return ok;
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
  double best_ms;           /* the fastest verified so far (progress) */
  int done, total;
  double t0;
} Worker;

static void record(Worker *w, const Variant *v, const char *status, const char *why, double compile_s, double verify_s, double run_s,
                   const char *line) {
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
    if (p && time_from_record(&tmp, fmt("{\"type\": \"time\", \"hash\": \"0\", \"status\": \"ok\", %s", p))) {
      memcpy(t.times, tmp.times, sizeof t.times);
      t.ntimes = tmp.ntimes;
    }
  }
  results_append(w->r, time_record(&t));
  w->done++;
  if (!strcmp(status, "ok") && (w->best_ms <= 0 || t.median_ms < w->best_ms)) w->best_ms = t.median_ms;
  if (w->o->progress) {
    double el = now_s() - w->t0, left = w->done ? el / w->done * (w->total - w->done) : 0;
    fprintf(stderr, "  [%d/%d timed, best so far %.4f ms, %.0f s left] %-40s %s %s\n", w->done, w->total, w->best_ms, left, v->key, status,
            !strcmp(status, "ok") ? fmt("%.4f ms", t.median_ms) : why ? why : "");
  }
}

/* run the harness from variant `first`; returns the index it stopped at (n when done), and
 * records each finished variant; -3 when there is no GPU */
static int run_from(Worker *w, const char *exe, Variant **vs, int n, int first, double compile_s, const double *verify_s) {
  int p[2];
  if (pipe(p)) return n;
  char *outdir = fmt("%s/out", w->dir);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(p[1], 1);
    close(p[0]);
    if (!freopen(fmt("%s/run.err", w->dir), "w", stderr)) _exit(127);
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
      if (current >= 0 && now_s() - started > timeout) { kill(-pid, SIGKILL); killed = true; break; }
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
      if (!strncmp(line, "start ", 6)) { current = atoi(line + 6); started = now_s(); continue; }
      if (sscanf(line, "{\"device\": \"%95[^\"]", name) == 1) { snprintf(w->gpu, sizeof w->gpu, "%s", name); continue; }
      if (!json_number(line, "variant", &vi) || vi < 0 || vi >= n) continue;
      Variant *v = vs[(int)vi];
      double run_s = now_s() - started;
      if (strstr(line, "\"error\"")) { record(w, v, "runtime", line, compile_s, verify_s[(int)vi], run_s, NULL); current = -2 - (int)vi; continue; }
      char why[256];
      if (!compare_outputs(w->s, w->ref, fmt("%s/v%d", outdir, (int)vi), why, sizeof why)) record(w, v, "wrong", why, compile_s, verify_s[(int)vi], run_s, line);
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
  if (current <= -2) return -current - 2 + 1;          /* the harness reported the launch error */
  if (current >= 0) {                                    /* died or hung on it */
    record(w, vs[current], killed ? "timeout" : "runtime",
           killed ? fmt("no result within %d s", timeout) : fmt("the harness died (status %d)", rc), compile_s, verify_s[current], now_s() - started, NULL);
    return current + 1;
  }
  return n;
}

static int time_batch(Worker *w, Variant **vs, int n, const double *verify_s) {
  Launch *L = xmalloc(sizeof(Launch) * (size_t)n), **Lp = xmalloc(sizeof(Launch *) * (size_t)n);
  Built *b = xmalloc(sizeof(Built) * (size_t)n);
  int ok = 0;
  char why[256];
  for (int i = 0; i < n; i++) {
    if (!variant_build(w->s, vs[i], false, &b[i], why, sizeof why) || prepare(w->s, b[i].plan.result, &L[i])) {
      for (int j = 0; j < i; j++) { launch_free(&L[j]); built_free(&b[j]); }
      free(L); free(Lp); free(b);
      return -1;
    }
    Lp[i] = &L[i];
  }
  Buf src = {0};
  HarnessOptions ho = {.reps = w->o->reps};
  harness_generate_multi(&src, &w->ref->L, Lp, n, &ho);
  char *cu = fmt("%s/tune.cu", w->dir), *exe = fmt("%s/tune", w->dir);
  FILE *f = fopen(cu, "w");
  bool written = f && fwrite(src.s, 1, src.len, f) == src.len;
  if (f && fclose(f)) written = false;
  buf_free(&src);
  double t0 = now_s();
  int rc = 2;
  if (written) {
    char *argv[] = {(char *)w->nvcc, "-O3", fmt("-arch=%s", w->o->arch ? w->o->arch : "sm_90"), "-o", exe, cu, NULL};
    rc = run_program(argv, NULL, fmt("%s/nvcc.err", w->dir), 600);
  }
  double compile_s = (now_s() - t0) / n;
  if (rc && n > 1) {
    /* one variant nvcc refuses must not cost its batch: halve until it stands alone */
    for (int i = 0; i < n; i++) { launch_free(&L[i]); built_free(&b[i]); }
    free(L); free(Lp); free(b);
    int h = n / 2, r1 = time_batch(w, vs, h, verify_s), r2 = time_batch(w, vs + h, n - h, verify_s + h);
    return r1 < 0 || r2 < 0 ? -1 : r1 && r2;
  }
  if (rc) {
    size_t len;
    char *err = read_file(fmt("%s/nvcc.err", w->dir), &len);
    for (int i = 0; i < n; i++) record(w, vs[i], "compile", fmt("nvcc: %.200s", err ? err : "failed"), compile_s, verify_s[i], 0, NULL);
    free(err);
  } else {
    mkdir(fmt("%s/out", w->dir), 0700);
    for (int i = 0; i < n; i++) mkdir(fmt("%s/out/v%d", w->dir, i), 0700);
    for (int first = 0; first < n;) {
      first = run_from(w, exe, vs, n, first, compile_s, verify_s);
      if (first == -3) { w->no_gpu = 1; break; }
    }
    ok = 1;
  }
  for (int i = 0; i < n; i++) { launch_free(&L[i]); built_free(&b[i]); }
  free(L); free(Lp); free(b);
  return ok;
}

/* one GPU's share: verify, then time in batches */
static int gpu_worker(Space *s, Variant **vs, int n, Results *r, const TimeOptions *o, const char *nvcc) {
  Reference ref;
  if (!reference_run(s, &ref)) { fprintf(stderr, "carve tune: the original faults in the interpreter; nothing can be verified\n"); reference_free(&ref); return 2; }
  char tmpl[300];
  snprintf(tmpl, sizeof tmpl, "%s/time-XXXXXX", s->tmpdir);
  char *dir = mkdtemp(tmpl);
  if (!dir) { reference_free(&ref); return 2; }
  Worker w = {s, r, o, &ref, nvcc, dir, "", 0, 0, 0, n, now_s()};
  double t0 = w.t0;
  int batch = o->batch > 0 ? o->batch : 16;
  Variant **ready = xmalloc(sizeof(Variant *) * (size_t)(n + 1));
  double *vsec = xmalloc(sizeof(double) * (size_t)(n + 1));
  int rc = 0;
  for (int i = 0; i < n && !w.no_gpu;) {
    if (o->time_budget_s > 0 && now_s() - t0 > o->time_budget_s) { if (o->progress) fprintf(stderr, "  time budget spent: %d variants left untimed\n", n - i); break; }
    int k = 0;
    for (; i < n && k < batch; i++) {
      char why[256];
      double v0 = now_s();
      bool ok = variant_verify(s, vs[i], why, sizeof why);
      if (!ok) { record(&w, vs[i], "verify", why, 0, now_s() - v0, 0, NULL); continue; }
      vsec[k] = now_s() - v0;
      ready[k++] = vs[i];
    }
    if (k && time_batch(&w, ready, k, vsec) < 0)
      for (int j = 0; j < k; j++) record(&w, ready[j], "compile", "the variant could not be rebuilt", 0, vsec[j], 0, NULL);
  }
  if (w.no_gpu) { fprintf(stderr, "carve tune: no CUDA GPU available (the harness found none)\n"); rc = 3; }
  free(ready);
  free(vsec);
  reference_free(&ref);
  return rc;
}

int time_variants(Space *s, const int *idx, int n, Results *r, const TimeOptions *o) {
  Variant **todo = xmalloc(sizeof(Variant *) * (size_t)(n + 1));
  int nt = 0;
  for (int i = 0; i < n; i++) if (!results_time(r, s->v[idx[i]].hash)) todo[nt++] = &s->v[idx[i]];
  if (o->progress && nt < n) fprintf(stderr, "  %d of %d variants already timed (results file)\n", n - nt, n);
  if (!nt) { free(todo); return 0; }
  /* no NVIDIA driver, no GPU: said before minutes of nvcc */
  if (access("/dev/nvidiactl", F_OK) && access("/proc/driver/nvidia/version", F_OK) && !getenv("CARVE_ASSUME_GPU")) {
    fprintf(stderr, "carve tune: no CUDA GPU available (no NVIDIA driver: /dev/nvidiactl absent); use --no-bench\n");
    free(todo);
    return 3;
  }
  char *nvcc = find_program("nvcc");
  if (!nvcc) { fprintf(stderr, "carve tune: no CUDA toolkit: nvcc not found (PATH, /usr/local/cuda/bin or $CARVE_NVCC); use --no-bench\n"); free(todo); return 3; }
  /* the GPUs: one worker process each, CUDA_VISIBLE_DEVICES naming its device */
  const char *gl = o->gpus;
  int ng = 0;
  char *gpus[64];
  if (gl) for (char *t = strtok(arena_strdup(gl), ","); t && ng < 64; t = strtok(NULL, ",")) gpus[ng++] = t;
  if (ng <= 1) {
    if (ng == 1) setenv("CUDA_VISIBLE_DEVICES", gpus[0], 1);
    int rc = gpu_worker(s, todo, nt, r, o, nvcc);
    free(todo);
    return rc;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pids[64];
  for (int g = 0; g < ng; g++) {
    pids[g] = fork();
    if (pids[g] == 0) {
      setenv("CUDA_VISIBLE_DEVICES", gpus[g], 1);
      int m = 0;
      for (int i = g; i < nt; i += ng) todo[m++] = todo[i];
      _exit(gpu_worker(s, todo, m, r, o, nvcc));
    }
  }
  int rc = 0;
  for (int g = 0; g < ng; g++) {
    int st = 0;
    if (pids[g] > 0) waitpid(pids[g], &st, 0);
    int c = pids[g] < 0 ? 2 : WIFEXITED(st) ? WEXITSTATUS(st) : 2;
    if (c && !rc) rc = c;
  }
  free(todo);
  return rc;
}
