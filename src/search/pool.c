/* pool: items of work over forked worker processes, one per core. A child inherits the space
 * (programs, shapes) and answers each item with one line (a JSON record), preceded by
 * "start I" so the parent knows which item a child that dies was on: that item is charged to
 * the death, and the items the child never reached go to the next round; after its last item a
 * child may say one more line ("end LINE": what it reused, say). A child handles every nth item
 * of the round in one process, so what it keeps in memory between items (check.c's cache of
 * the original's runs) serves its later items; what the parent holds when it forks, every
 * child starts with. The parent alone
 * writes the results file. With one worker nothing is forked (the sanitizers' tests, --workers 1).
 * Past a deadline (--time) the children are stopped and what they had not answered stays so:
 * a later run, reading the results file, does it. */
#include "search.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double search_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool past(const Pool *pl) { return pl->deadline > 0 && search_now() > pl->deadline; }

typedef struct {
  pid_t pid;
  int fd;
  Buf in;
  int current;
  bool done;
} Child;

static bool write_all(int fd, const char *s) {
  size_t n = strlen(s), off = 0;
  while (off < n) {
    ssize_t k = write(fd, s + off, n - off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    off += (size_t)k;
  }
  return true;
}

static void child_main(Space *s, const Pool *pl, const PoolEnd *end, const int *items, int n, int w,
                       int nw, int fd) {
  for (int j = w; j < n; j += nw) {
    if (!write_all(fd, fmt("start %d\n", j))) _exit(1);
    char *line = pl->work(s, items[j], pl->ctx);
    if (!write_all(fd, fmt("done %d %s\n", j, line ? line : ""))) _exit(1);
  }
  if (end) {
    char *line = end->finish(s, pl->ctx);
    if (!write_all(fd, fmt("end %s\n", line ? line : ""))) _exit(1);
  }
  _exit(0);
}

/* whole lines from a child: "start J" marks the item it is on, "done J LINE" gives it back */
static void child_lines(Space *s, const Pool *pl, const PoolEnd *end, const int *items, Child *c,
                        bool *done) {
  char *nl;
  while (c->in.s && (nl = strchr(c->in.s, '\n'))) {
    *nl = 0;
    int j = -1, off = 0;
    if (sscanf(c->in.s, "start %d", &j) == 1) c->current = j;
    else if (sscanf(c->in.s, "done %d %n", &j, &off) == 1 && off > 0 && !done[j]) {
      done[j] = true;
      c->current = -1;
      pl->take(s, items[j], c->in.s + off, pl->ctx);
    } else if (end && !strncmp(c->in.s, "end ", 4)) end->finished(s, c->in.s + 4, pl->ctx);
    size_t rest = c->in.len - (size_t)(nl + 1 - c->in.s);
    memmove(c->in.s, nl + 1, rest + 1);
    c->in.len = rest;
  }
}

static void start_children(Space *s, const Pool *pl, const PoolEnd *end, const int *items, int n,
                           Child *cs, int nw) {
  fflush(stdout);
  fflush(stderr);
  for (int w = 0; w < nw; w++) {
    int p[2];
    memset(&cs[w], 0, sizeof cs[w]);
    cs[w].current = -1;
    cs[w].fd = -1;
    if (pipe(p)) {
      cs[w].done = true;
      continue;
    }
    pid_t pid = fork();
    if (pid == 0) {
      close(p[0]);
      child_main(s, pl, end, items, n, w, nw, p[1]);
    }
    close(p[1]);
    cs[w].pid = pid;
    cs[w].fd = p[0];
    if (pid < 0) {
      close(p[0]);
      cs[w].fd = -1;
      cs[w].done = true;
    }
  }
}

/* a child's pipe closed: reap it; the item it was on is charged to its death */
static void child_ended(Space *s, const Pool *pl, const int *items, Child *c, bool *done) {
  close(c->fd);
  c->done = true;
  int status = 0;
  waitpid(c->pid, &status, 0);
  if (c->current < 0 || done[c->current]) return;
  done[c->current] = true;
  char why[96];
  snprintf(why, sizeof why, "the worker died (%s %d)", WIFSIGNALED(status) ? "signal" : "exit",
           WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
  pl->died(s, items[c->current], why, pl->ctx);
}

/* the deadline passed: the children stopped, the items they were on left unanswered */
static void stop_children(Child *cs, int nw) {
  for (int w = 0; w < nw; w++) {
    if (cs[w].done) continue;
    kill(cs[w].pid, SIGKILL);
    close(cs[w].fd);
    waitpid(cs[w].pid, NULL, 0);
    cs[w].done = true;
  }
}

/* one round: every item given out; returns how many came back or were charged to a death */
static int pool_round(Space *s, const Pool *pl, const PoolEnd *end, const int *items, int n, int nw,
                      bool *done) {
  Child *cs = xmalloc(sizeof(Child) * (size_t)nw);
  start_children(s, pl, end, items, n, cs, nw);
  for (;;) {
    struct pollfd pf[SEARCH_MAX_WORKERS];
    int map[SEARCH_MAX_WORKERS], k = 0;
    for (int w = 0; w < nw; w++)
      if (!cs[w].done) {
        pf[k].fd = cs[w].fd;
        pf[k].events = POLLIN;
        map[k++] = w;
      }
    if (!k) break;
    if (past(pl)) {
      stop_children(cs, nw);
      break;
    }
    if (poll(pf, (nfds_t)k, pl->deadline > 0 ? 1000 : -1) < 0 && errno != EINTR) break;
    for (int i = 0; i < k; i++) {
      if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Child *c = &cs[map[i]];
      char buf[8192];
      ssize_t r = read(c->fd, buf, sizeof buf - 1);
      if (r > 0) {
        buf[r] = 0;
        buf_puts(&c->in, buf);
        child_lines(s, pl, end, items, c, done);
        continue;
      }
      if (r < 0 && errno == EINTR) continue;
      child_ended(s, pl, items, c, done);
    }
  }
  for (int w = 0; w < nw; w++) buf_free(&cs[w].in);
  free(cs);
  int got = 0;
  for (int j = 0; j < n; j++) got += done[j];
  return got;
}

int pool_workers(int requested) {
  int nw = requested > 0 ? requested : (int)sysconf(_SC_NPROCESSORS_ONLN);
  return nw < 1 ? 1 : nw > SEARCH_MAX_WORKERS ? SEARCH_MAX_WORKERS : nw;
}

int pool_run(Space *s, const Pool *pl, const int *items, int n) {
  return pool_run_ended(s, pl, NULL, items, n);
}

int pool_run_ended(Space *s, const Pool *pl, const PoolEnd *end, const int *items, int n) {
  if (n <= 0) return 0;
  int nw = pool_workers(pl->workers);
  if (nw == 1) {
    int j = 0;
    for (; j < n && !past(pl); j++) pl->take(s, items[j], pl->work(s, items[j], pl->ctx), pl->ctx);
    if (end) end->finished(s, end->finish(s, pl->ctx), pl->ctx);
    return j;
  }
  bool *done = xmalloc(sizeof(bool) * (size_t)n);
  int *left = xmalloc(sizeof(int) * (size_t)n), *map = xmalloc(sizeof(int) * (size_t)n), got = 0;
  /* rounds until every item is back: a dead child's unreached items go to the next round */
  for (int nl = n; nl > 0;) {
    int m = 0;
    for (int j = 0; j < n; j++)
      if (!done[j]) {
        map[m] = j;
        left[m++] = items[j];
      }
    bool *d = xmalloc(sizeof(bool) * (size_t)(m + 1));
    int came = pool_round(s, pl, end, left, m, nw < m ? nw : m, d);
    for (int i = 0; i < m; i++)
      if (d[i]) done[map[i]] = true;
    free(d);
    got += came;
    if (past(pl)) break;
    if (!came) { /* no child could start: said for each item, not looped on */
      for (int i = 0; i < m; i++) {
        done[map[i]] = true;
        pl->died(s, left[i], "no worker process could start", pl->ctx);
      }
      break;
    }
    nl = m - came;
  }
  free(done);
  free(left);
  free(map);
  return got;
}
