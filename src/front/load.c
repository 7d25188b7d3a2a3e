/* load: the whole front end as one protected call: read, preprocess, parse, lay out, launch
 * specifications. The Program owns an arena holding everything the load made. */
#include "front.h"
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *path, *text;
  const PPOptions *opt;
  Program *p;
  bool unreadable;
  int err;
} LoadCall;

static void load_call(void *ud) {
  LoadCall *c = ud;
  Token *tok = c->text ? tokenize_string(c->path, c->text) : tokenize_file(c->path);
  if (!tok) {
    c->unreadable = true;
    c->err = errno;
    return;
  }
  tok = preprocess(tok, c->opt);
  Program *p = parse(tok);
  p->pp_state = pp_state_save();
  p->path = arena_strdup(c->path);
  char *d = arena_strdup(c->path);
  c->p = p;
  /* the specs are built with the program's own state installed: its macros and its file scope
   * (a spec may name a typedef: real[N]), which parse() cleared when it finished */
  parse_state_restore(p->parse_state);
  build_specs(p, dirname(d));
}

static Program *load(const char *path, const char *text, const PPOptions *opt) {
  Arena *a = arena_new();
  Arena *prev = arena_enter(a);
  LoadCall c = {path, text, opt, NULL, false, 0};
  bool ok = carve_pcall(load_call, &c);
  arena_enter(prev);
  /* the statics the front end used while loading are cleared: nothing outlives the load
   * but the Program */
  pp_state_restore(NULL);
  parse_state_restore(NULL);
  if (c.unreadable) diag_at(DIAG_ERROR, (SrcLoc){0}, "cannot read '%s': %s", path, strerror(c.err));
  if (!ok || !c.p) {
    arena_delete(a);
    return NULL;
  }
  c.p->arena = a;
  return c.p;
}

Program *load_program(const char *path, const PPOptions *opt) { return load(path, NULL, opt); }
Program *load_program_text(const char *name, const char *text, const PPOptions *opt) {
  return load(name, text, opt);
}

/* ---------------- programs as values ---------------- */
Program *program_copy(Program *p); /* walk.c */

typedef struct {
  Program *from, *to;
} CloneCall;
static void clone_call(void *ud) {
  CloneCall *c = ud;
  c->to = program_copy(c->from);
  program_finish(c->to);
}

Program *program_clone(Program *p) {
  Arena *a = arena_new();
  Arena *prev = arena_enter(a);
  CloneCall c = {p, NULL};
  bool ok = carve_pcall(clone_call, &c);
  arena_enter(prev);
  if (!ok || !c.to) {
    arena_delete(a);
    return NULL;
  }
  c.to->arena = a;
  c.to->origin = p;
  c.to->nclones = 0;
  p->nclones++;
  return c.to;
}

void program_free(Program *p) {
  if (!p) return;
  if (p->nclones) {
    /* a clone still points at this program's tokens and types: a bug in the caller */
    fprintf(stderr, "carve: internal error: freeing a program with %d live clones\n", p->nclones);
    abort();
  }
  if (p->origin) p->origin->nclones--;
  Arena *a = p->arena;
  arena_delete(a); /* p itself lives in its arena */
}

bool program_macro_value(Program *p, const char *name, int64_t *val) {
  ProgramScope s = program_enter(p);
  bool ok = pp_macro_value(name, val);
  program_leave(s);
  return ok;
}

ProgramScope program_enter(Program *p) {
  ProgramScope s = {NULL};
  if (!p) {
    s.arena = arena_enter(NULL);
    arena_enter(s.arena);
    return s;
  }
  s.arena = arena_enter(p->arena);
  pp_state_restore(p->pp_state);
  parse_state_restore(p->parse_state);
  return s;
}

void program_leave(ProgramScope s) {
  arena_enter(s.arena);
  pp_state_restore(NULL);
  parse_state_restore(NULL);
}
