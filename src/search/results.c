/* results: one JSON object per line, appended with one write() each and fsync'd, so a search
 * killed at any moment (kill -9) leaves whole records and at most one torn last line, which is
 * ignored; a restart reads the file and computes or times only what has no record. A write that
 * fails (a full disk) is an error the command reports (results_check: exit 2, what was kept),
 * and nothing is written after it. One tune at a time writes a file: the second waits for the
 * first's lock (flock) and then reads what the first did, so the work is not done twice. Every
 * record names the carve build that wrote it (a hash of the binary); records of another build
 * are counted and not used, so their verdicts are checked again by this one. Records:
 *   {"type": "static", "i": ..., "key": ..., "hash": ..., "status": "ok"|"constraint", ...}
 *   {"type": "verify", "hash": ..., "key": ..., "ok": true|false, "why": ..., "verify_s": ...}
 *   {"type": "time", "key": ..., "hash": ..., "status": "ok"|..., "median_ms": ..., "times": [...]}
 * Also: joining the files of Slurm array tasks, Kernel Tuner's T4 export, the sbatch file. */
#include "../json.h"
#include "search.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* the string member `key` of a record (json.h: a member, not text inside another string),
 * decoded and cut to len; false if absent or not a string */
static bool json_str(const char *js, const char *key, char *out, size_t len) {
  char why[160];
  Json *j = json_parse(js, strlen(js), why, sizeof why);
  const char *v = json_get_string(j, key);
  if (v) snprintf(out, len, "%s", v);
  json_free(j);
  return v != NULL;
}

/* the member `key` is true */
static bool json_bool(const char *js, const char *key) {
  char why[160];
  Json *j = json_parse(js, strlen(js), why, sizeof why);
  const Json *v = json_get(j, key);
  bool t = v && v->kind == JSON_TRUE;
  json_free(j);
  return t;
}

static double num(const char *js, const char *key) {
  double v = 0;
  json_number(js, key, &v);
  return v;
}

/* this carve binary, hashed once: the build every record names (and static.c's cache key) */
uint64_t results_build(void) {
  static uint64_t exe;
  if (!exe) {
    size_t n = 0;
    char *bin = read_file("/proc/self/exe", &n);
    exe = search_hash_bytes(bin, bin ? n : 0) | 1; /* nonzero: computed */
    free(bin);
  }
  return exe;
}

/* whether a record was written by this build */
static bool own_build(const char *line) {
  char b[32];
  return json_str(line, "build", b, sizeof b) && strtoull(b, NULL, 16) == results_build();
}

char *variant_record(const Space *s, const Variant *v) {
  Buf b = {0};
  int i = (int)(v - s->v);
  const VariantMetrics *m = &v->m;
  buf_printf(&b, "{\"type\": \"static\", \"i\": %d, \"space\": \"%016llx\", \"key\": ", i,
             (unsigned long long)s->fingerprint);
  json_write_string(&b, v->key);
  buf_printf(&b, ", \"kernel\": ");
  json_write_string(&b, s->kernel);
  buf_printf(&b,
             ", \"hash\": \"%016llx\", \"status\": \"%s\", \"why\": ", (unsigned long long)v->hash,
             v->status == VS_OK || v->status == VS_DUPLICATE ? "ok"
             : v->status == VS_CONSTRAINT                    ? "constraint"
                                                             : "pending");
  json_write_string(&b, v->why);
  if (m->known)
    buf_printf(
      &b,
      ", \"regs\": %d, \"smem\": %d, \"threads\": %d, \"blocks_per_sm\": %d, \"spills\": %d, \"instr\": %.6g, \"regions\": %.6g, "
      "\"long_regions\": %.6g, \"efficiency\": %.9g, \"utilization\": %.9g, \"utilization_simple\": %.9g, \"est_ms\": %.9g, "
      "\"mem_ms\": %.9g, \"mem_bound\": %s, \"bottleneck\": \"%s\"",
      m->regs, m->smem, m->threads, m->blocks_per_sm, m->spills, m->instr, m->regions,
      m->long_regions, m->efficiency, m->utilization, m->utilization_simple, m->est_ms, m->mem_ms,
      m->mem_bound ? "true" : "false", m->bottleneck);
  buf_printf(&b, ", \"metric_s\": %.4f, \"build\": \"%016llx\"}", v->metric_s,
             (unsigned long long)results_build());
  char *r = arena_strdup(b.s);
  buf_free(&b);
  return r;
}

bool variant_from_record(Variant *v, const char *line) {
  char st[32], h[32];
  if (!strstr(line, "\"type\": \"static\"") || !json_str(line, "status", st, sizeof st) ||
      !json_str(line, "hash", h, sizeof h))
    return false;
  if (strcmp(st, "ok") && strcmp(st, "constraint")) return false;
  v->hash = strtoull(h, NULL, 16);
  v->status = !strcmp(st, "ok") ? VS_OK : VS_CONSTRAINT;
  json_str(line, "why", v->why, sizeof v->why);
  VariantMetrics *m = &v->m;
  memset(m, 0, sizeof *m);
  double x;
  if (json_number(line, "efficiency", &x)) {
    m->known = true;
    m->regs = (int)num(line, "regs");
    m->smem = (int)num(line, "smem");
    m->threads = (int)num(line, "threads");
    m->blocks_per_sm = (int)num(line, "blocks_per_sm");
    m->spills = (int)num(line, "spills");
    m->instr = num(line, "instr");
    m->regions = num(line, "regions");
    m->long_regions = num(line, "long_regions");
    m->efficiency = x;
    m->utilization = num(line, "utilization");
    m->utilization_simple = num(line, "utilization_simple");
    m->est_ms = num(line, "est_ms");
    m->mem_ms = num(line, "mem_ms");
    m->mem_bound = json_bool(line, "mem_bound");
    json_str(line, "bottleneck", m->bottleneck, sizeof m->bottleneck);
  }
  if (v->status == VS_OK && !m->known) return false;
  v->metric_s = num(line, "metric_s");
  return true;
}

char *time_record(const TimeRecord *t) {
  Buf b = {0};
  buf_puts(&b, "{\"type\": \"time\", \"key\": ");
  json_write_string(&b, t->key);
  buf_printf(
    &b,
    ", \"hash\": \"%016llx\", \"status\": \"%s\", \"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f, \"compile_s\": %.3f, "
    "\"verify_s\": %.3f, \"run_s\": %.3f, \"gpu\": ",
    (unsigned long long)t->hash, t->status, t->median_ms, t->min_ms, t->max_ms, t->compile_s,
    t->verify_s, t->run_s);
  json_write_string(&b, t->gpu);
  buf_puts(&b, ", \"why\": ");
  json_write_string(&b, t->why);
  buf_puts(&b, ", \"times\": [");
  for (int i = 0; i < t->ntimes; i++) buf_printf(&b, "%s%.6f", i ? ", " : "", t->times[i]);
  buf_printf(&b, "], \"timestamp\": %lld, \"build\": \"%016llx\"}", (long long)time(NULL),
             (unsigned long long)results_build());
  char *r = arena_strdup(b.s);
  buf_free(&b);
  return r;
}

bool time_from_record(TimeRecord *t, const char *line) {
  char h[32];
  memset(t, 0, sizeof *t);
  if (!strstr(line, "\"type\": \"time\"") || !json_str(line, "hash", h, sizeof h) ||
      !json_str(line, "status", t->status, sizeof t->status))
    return false;
  t->hash = strtoull(h, NULL, 16);
  json_str(line, "key", t->key, sizeof t->key);
  json_str(line, "gpu", t->gpu, sizeof t->gpu);
  json_str(line, "why", t->why, sizeof t->why);
  t->median_ms = num(line, "median_ms");
  t->min_ms = num(line, "min_ms");
  t->max_ms = num(line, "max_ms");
  t->compile_s = num(line, "compile_s");
  t->verify_s = num(line, "verify_s");
  t->run_s = num(line, "run_s");
  const char *p = strstr(line, "\"times\": [");
  if (p) {
    p += 10;
    while (*p && *p != ']' && t->ntimes < 64) {
      char *end;
      double x = strtod(p, &end);
      if (end == p) break;
      t->times[t->ntimes++] = x;
      p = end;
      while (*p == ',' || *p == ' ') p++;
    }
  }
  return true;
}

/* ---- the index: a static record by (space, key), a verify record by hash; the first kept ---- */
static uint64_t static_ix(const char *space, const char *key) {
  return search_hash(fmt("static|%s|%s", space, key));
}
static uint64_t verify_ix(uint64_t hash) {
  return search_hash(fmt("verify|%016llx", (unsigned long long)hash));
}

static int ix_find(const Results *r, uint64_t k) {
  if (!r || !r->ix_cap) return -1;
  for (int i = (int)(k % (uint64_t)r->ix_cap);; i = (i + 1) % r->ix_cap) {
    if (r->ix_line[i] < 0) return -1;
    if (r->ix_key[i] == k) return r->ix_line[i];
  }
}

static void ix_put(Results *r, uint64_t k, int line) {
  if (2 * (r->ix_n + 1) > r->ix_cap) { /* grow: at most half full */
    int cap = r->ix_cap ? 2 * r->ix_cap : 1024, oc = r->ix_cap;
    uint64_t *ok = r->ix_key;
    int *ol = r->ix_line;
    r->ix_key = xmalloc(sizeof(uint64_t) * (size_t)cap);
    r->ix_line = xmalloc(sizeof(int) * (size_t)cap);
    for (int i = 0; i < cap; i++) r->ix_line[i] = -1;
    r->ix_cap = cap;
    r->ix_n = 0;
    for (int i = 0; i < oc; i++)
      if (ol[i] >= 0) ix_put(r, ok[i], ol[i]);
    free(ok);
    free(ol);
  }
  int i = (int)(k % (uint64_t)r->ix_cap);
  while (r->ix_line[i] >= 0) {
    if (r->ix_key[i] == k) return;
    i = (i + 1) % r->ix_cap;
  }
  r->ix_key[i] = k;
  r->ix_line[i] = line;
  r->ix_n++;
}

static void add_line(Results *r, const char *line) {
  TimeRecord t;
  /* another build's record: not a verdict this build trusts (computed, verified, timed again) */
  if (!r->any_build && !own_build(line)) {
    r->foreign++;
    return;
  }
  if (time_from_record(&t, line)) {
    r->t = xrealloc(r->t, sizeof(TimeRecord) * (size_t)(r->nt + 1));
    r->t[r->nt++] = t;
    return;
  }
  bool is_static = strstr(line, "\"type\": \"static\"") != NULL;
  if (!is_static && !strstr(line, "\"type\": \"verify\"")) return;
  char space[32], key[256], h[32];
  uint64_t k = 0;
  if (is_static && json_str(line, "space", space, sizeof space) &&
      json_str(line, "key", key, sizeof key))
    k = static_ix(space, key);
  else if (!is_static && json_str(line, "hash", h, sizeof h)) k = verify_ix(strtoull(h, NULL, 16));
  if (!k) return;
  r->lines = xrealloc(r->lines, sizeof(char *) * (size_t)(r->nlines + 1));
  r->lines[r->nlines] = arena_strdup(line);
  ix_put(r, k, r->nlines++);
}

char *verify_record(const Variant *v, bool ok, const char *why, double secs) {
  Buf b = {0};
  buf_printf(
    &b, "{\"type\": \"verify\", \"hash\": \"%016llx\", \"key\": ", (unsigned long long)v->hash);
  json_write_string(&b, v->key);
  buf_printf(&b, ", \"ok\": %s, \"why\": ", ok ? "true" : "false");
  json_write_string(&b, why ? why : "");
  buf_printf(&b, ", \"verify_s\": %.3f, \"build\": \"%016llx\"}", secs,
             (unsigned long long)results_build());
  char *r = arena_strdup(b.s);
  buf_free(&b);
  return r;
}

bool results_verify(const Results *r, uint64_t hash, VerifyRecord *out) {
  int i = ix_find(r, verify_ix(hash));
  if (i < 0) return false;
  const char *line = r->lines[i];
  memset(out, 0, sizeof *out);
  out->ok = json_bool(line, "ok");
  json_str(line, "why", out->why, sizeof out->why);
  out->verify_s = num(line, "verify_s");
  return true;
}

/* each whole line of text to r (a torn last line, without its newline, is not whole) */
static void read_lines(Results *r, const char *text) {
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    if (!nl) break;
    char *line = arena_strndup(p, (size_t)(nl - p));
    if (line[0] == '{' && nl[-1] == '}') add_line(r, line);
    p = nl + 1;
  }
}

/* the records of the file, read again (other processes appended to it): the index rebuilt */
static void forget(Results *r) {
  free(r->lines);
  free(r->t);
  free(r->ix_key);
  free(r->ix_line);
  r->lines = NULL;
  r->t = NULL;
  r->ix_key = NULL;
  r->ix_line = NULL;
  r->nlines = r->nt = r->ix_cap = r->ix_n = r->foreign = 0;
}

static bool read_records(Results *r, char *why, size_t whylen) {
  size_t n = 0;
  struct stat st;
  if (fstat(r->fd, &st) == 0 && !S_ISREG(st.st_mode))
    return true; /* a device (/dev/full), a FIFO: nothing to resume */
  char *text = read_file(r->path, &n);
  if (!text) {
    snprintf(why, whylen, "cannot read %s: %s", r->path, strerror(errno));
    return false;
  }
  read_lines(r, text);
  r->nread = r->nlines + r->nt + r->foreign;
  /* a torn last line (killed mid-write) is closed, so the next record starts a line */
  bool ok = !(n && text[n - 1] != '\n' && write(r->fd, "\n", 1) != 1);
  free(text);
  if (!ok) snprintf(why, whylen, "cannot write %s: %s", r->path, strerror(errno));
  return ok;
}

bool results_open(Results *r, const char *path, char *why, size_t whylen) {
  memset(r, 0, sizeof *r);
  r->fd = -1;
  r->path = path;
  if (!path) return true;
  r->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (r->fd < 0) {
    snprintf(why, whylen, "cannot open %s: %s", path, strerror(errno));
    return false;
  }
  /* one writer at a time: a second tune on this file waits, then reads what the first did */
  if (flock(r->fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      fprintf(
        stderr,
        "carve tune: %s is being written by another carve; waiting for it to finish (what it records is not done again)\n",
        path);
      while (flock(r->fd, LOCK_EX) != 0 && errno == EINTR) {}
    }
  }
  const char *hook = getenv("CARVE_RESULTS_FAIL_AFTER"); /* tests: the disk fills after N records */
  r->fail_after = hook && *hook ? atoi(hook) : -1;
  if (!read_records(r, why, whylen)) return false;
  if (r->foreign)
    fprintf(
      stderr,
      "carve tune: %d record%s in %s were written by another carve build: not trusted, computed and verified again\n",
      r->foreign, r->foreign == 1 ? "" : "s", path);
  return true;
}

bool results_open_stored(Results *r, const char *path, char *why, size_t whylen) {
  memset(r, 0, sizeof *r);
  r->fd = -1;
  r->path = path;
  r->any_build = true;
  size_t n = 0;
  char *text = read_file(path, &n);
  if (!text) {
    snprintf(why, whylen, "cannot read %s: %s", path, strerror(errno));
    return false;
  }
  read_lines(r, text);
  r->nread = r->nlines + r->nt;
  free(text);
  return true;
}

bool results_reload(Results *r, char *why, size_t whylen) {
  if (!r->path) return true;
  forget(r);
  return read_records(r, why, whylen);
}

void results_close(Results *r) {
  if (r->fd >= 0) close(r->fd); /* and the lock with it */
  forget(r);
  memset(r, 0, sizeof *r);
  r->fd = -1;
}

/* one record: after a write that failed nothing more is written (a torn record stays the last
 * line, which a reader ignores), and every record not written is counted */
bool results_append(Results *r, const char *line) {
  if (!r) return true;
  add_line(r, line);
  if (r->fd < 0) return true;
  if (r->failed) {
    r->failed++;
    return false;
  }
  char *rec = fmt("%s\n", line);
  size_t n = strlen(rec);
  const char *err = NULL;
  if (r->fail_after >= 0 && r->written >= r->fail_after)
    err = "No space left on device (CARVE_RESULTS_FAIL_AFTER)";
  else if ((errno = 0, write(r->fd, rec, n) != (ssize_t)n))
    err = errno ? strerror(errno) : "a short write";
  else if (fsync(r->fd) != 0 && errno != EINVAL) err = strerror(errno);
  if (err) {
    r->failed = 1;
    snprintf(r->fail_why, sizeof r->fail_why, "%s", err);
    return false;
  }
  r->written++;
  return true;
}

bool results_check(const Results *r, const char *cmd) {
  if (!r || !r->failed) return true;
  fprintf(
    stderr,
    "carve %s: error: %d record%s could not be written to %s (%s); it holds the %d whole records written before "
    "(%d read at the start, %d by this run): free space and run again to resume from them\n",
    cmd, r->failed, r->failed == 1 ? "" : "s", r->path, r->fail_why, r->nread + r->written,
    r->nread, r->written);
  return false;
}

const TimeRecord *results_time(const Results *r, uint64_t hash) {
  for (int i = r ? r->nt - 1 : -1; i >= 0; i--)
    if (r->t[i].hash == hash) return &r->t[i];
  return NULL;
}

const char *results_static(const Results *r, uint64_t space, const char *key) {
  int i = ix_find(r, static_ix(fmt("%016llx", (unsigned long long)space), key));
  return i < 0 ? NULL : r->lines[i];
}

int results_merge(const char **inputs, int n, const char *out, char *why, size_t whylen) {
  Buf all = {0};
  char **seen = NULL;
  int nseen = 0;
  for (int f = 0; f < n; f++) {
    size_t len;
    char *text = read_file(inputs[f], &len);
    if (!text) {
      snprintf(why, whylen, "cannot read %s", inputs[f]);
      buf_free(&all);
      free(seen);
      return 2;
    }
    for (char *p = text; *p;) {
      char *nl = strchr(p, '\n');
      if (!nl) break;
      *nl = 0;
      bool dup = p[0] != '{' || nl[-1] != '}';
      for (int i = 0; i < nseen && !dup; i++) dup = !strcmp(seen[i], p);
      if (!dup) {
        seen = xrealloc(seen, sizeof(char *) * (size_t)(nseen + 1));
        seen[nseen++] = arena_strdup(p);
        buf_printf(&all, "%s\n", p);
      }
      p = nl + 1;
    }
    free(text);
  }
  free(seen);
  OutFile *o = out_begin(out);
  bool ok = o && out_write(o, all.s ? all.s : "", all.len) && out_commit_all();
  if (!ok) out_abort_all();
  buf_free(&all);
  if (!ok) {
    snprintf(why, whylen, "cannot write %s", out);
    return 2;
  }
  return 0;
}

/* the configuration object of a variant key "block=32x8 unroll=on unroll.factor=4" */
static void config_json(Buf *b, const char *key) {
  buf_putc(b, '{');
  char *k = arena_strdup(key);
  int n = 0;
  for (char *w = strtok(k, " "); w; w = strtok(NULL, " ")) {
    char *eq = strchr(w, '=');
    if (!eq) continue;
    *eq = 0;
    const char *v = eq + 1;
    if (!strcmp(w, "block")) {
      char *x = strchr(v, 'x');
      buf_printf(b, "%s\"block_size_x\": %.*s, \"block_size_y\": %s", n++ ? ", " : "", (int)(x - v),
                 v, x + 1);
      continue;
    }
    buf_printf(b, "%s\"%s\": ", n++ ? ", " : "", w);
    if (!strcmp(v, "on") || !strcmp(v, "off")) buf_printf(b, "%d", !strcmp(v, "on"));
    else buf_puts(b, v);
  }
  buf_putc(b, '}');
}

static const char *t4_invalidity(const char *status) {
  if (!strcmp(status, "ok")) return "correct";
  if (!strcmp(status, "timeout")) return "timeout";
  if (!strcmp(status, "compile")) return "compile";
  if (!strcmp(status, "wrong") || !strcmp(status, "verify")) return "correctness";
  return "runtime";
}

bool results_t4(const Space *s, const Results *r, const char *out) {
  Buf b = {0};
  buf_puts(
    &b,
    "{\n  \"schema_version\": \"1.0.0\",\n  \"metadata\": {\"generator\": \"carve tune\", \"file\": ");
  json_write_string(&b, s->in.path);
  buf_puts(&b, ", \"kernel\": ");
  json_write_string(&b, s->kernel);
  buf_printf(&b, ", \"arch\": \"%s\"},\n  \"results\": [", s->in.m->name);
  int n = 0;
  for (int i = 0; i < s->nv; i++) {
    const Variant *v = &s->v[i];
    const TimeRecord *t = v->status == VS_OK ? results_time(r, v->hash) : NULL;
    if (!t && v->status != VS_CONSTRAINT) continue;
    buf_printf(&b, "%s\n    {\"timestamp\": \"%lld\", \"configuration\": ", n++ ? "," : "",
               (long long)time(NULL));
    config_json(&b, v->key);
    const char *inv = t ? t4_invalidity(t->status) : "constraints";
    buf_printf(
      &b, ", \"objectives\": [\"time\"], \"times\": {\"compilation_time\": %.4f, \"runtimes\": [",
      t ? t->compile_s : v->metric_s);
    for (int k = 0; t && k < t->ntimes; k++) buf_printf(&b, "%s%.6f", k ? ", " : "", t->times[k]);
    buf_printf(
      &b,
      "], \"framework\": %.4f, \"search_algorithm\": 0, \"validation\": %.4f}, \"invalidity\": \"%s\", \"correctness\": %d, "
      "\"measurements\": [",
      v->metric_s, t ? t->verify_s : 0.0, inv, !strcmp(inv, "correct"));
    if (t && !strcmp(inv, "correct"))
      buf_printf(&b, "{\"name\": \"time\", \"value\": %.6f, \"unit\": \"ms\"}, ", t->median_ms);
    if (v->m.known)
      buf_printf(
        &b,
        "{\"name\": \"registers\", \"value\": %d, \"unit\": \"\"}, {\"name\": \"efficiency\", \"value\": %.6g, \"unit\": \"\"}, "
        "{\"name\": \"utilization\", \"value\": %.6g, \"unit\": \"\"}, {\"name\": \"estimate\", \"value\": %.6f, \"unit\": \"ms\"}",
        v->m.regs, v->m.efficiency, v->m.utilization, v->m.est_ms);
    else {
      buf_puts(&b, "{\"name\": \"constraint\", \"value\": ");
      json_write_string(&b, v->why);
      buf_puts(&b, ", \"unit\": \"\"}");
    }
    if (b.len >= 2 && b.s[b.len - 2] == ',') {
      b.len -= 2;
      b.s[b.len] = 0;
    }
    buf_puts(&b, "]}");
  }
  buf_puts(&b, "\n  ]\n}\n");
  OutFile *o = out_begin(out);
  bool ok = o && out_write(o, b.s, b.len) && out_commit_all();
  if (!ok) out_abort_all();
  buf_free(&b);
  return ok;
}

static void sh_quote(Buf *b, const char *s) {
  buf_putc(b, '\'');
  for (; *s; s++) {
    if (*s == '\'') buf_puts(b, "'\\''");
    else buf_putc(b, *s);
  }
  buf_putc(b, '\'');
}

bool emit_slurm(const char *out, int ntasks, int argc, char **argv, const char *results_prefix) {
  Buf b = {0};
  buf_printf(
    &b,
    "#!/bin/sh\n# written by carve tune --emit-slurm: one array task per share of the variants.\n"
    "# submit: sbatch %s; then join: carve tune --merge %s.*.jsonl -o %s.jsonl\n"
    "#SBATCH --job-name=carve-tune\n#SBATCH --array=0-%d\n#SBATCH --ntasks=1\n#SBATCH --output=%s.%%a.log\n",
    out, results_prefix, results_prefix, ntasks - 1, results_prefix);
  buf_puts(&b, "exec ");
  /* this carve, by its absolute path: the tasks run the same binary */
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = 0;
  sh_quote(&b, n > 0 ? self : "carve");
  buf_puts(&b, " tune");
  for (int i = 0; i < argc; i++) {
    buf_putc(&b, ' ');
    sh_quote(&b, argv[i]);
  }
  buf_printf(&b, " --tasks %d --task \"$SLURM_ARRAY_TASK_ID\" --results ", ntasks);
  sh_quote(&b, results_prefix);
  buf_puts(&b, "\".$SLURM_ARRAY_TASK_ID.jsonl\"\n");
  OutFile *o = out_begin(out);
  bool ok = o && out_write(o, b.s, b.len) && out_commit_all();
  if (!ok) out_abort_all();
  buf_free(&b);
  if (ok) chmod(out, 0755);
  return ok;
}
