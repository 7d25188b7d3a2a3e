/* the insides of a Facts, shared by loops.c (the one walk), affine.c (forms of expressions) and
 * facts.c (construction and queries). Nothing outside src/analysis includes this header. */
#ifndef CARVE_FACTS_IMPL_H
#define CARVE_FACTS_IMPL_H
#include "analysis.h"

/* what the kernel does with one of its locals or parameters */
typedef struct VarInfo {
  Obj *var;
  int defs;   /* declarations and assignments (the target a plain variable) */
  bool loop;  /* written by a for-increment */
  bool addr;  /* its address is taken */
  Node *init; /* the initializer of its declaration */
  /* derived by affine.c in declaration order (an initializer reads earlier variables only) */
  int state;           /* 0 not derived, 1 being derived, 2 derived */
  Affine form;         /* the value of a use, as a polynomial */
  bool tdep;           /* a use may differ between the threads of a block */
  bool reads;          /* its initializer reads memory */
  char *progress_name; /* "(j-j0)" for a loop variable with a thread-dependent start */
} VarInfo;

struct Facts {
  Program *p;
  Obj *kernel;
  int generation;
  int nnodes; /* p->nodes when made: the size of the tables by node id */
  Obj **fns;
  int nfns; /* the kernel and the device functions it calls, in p->funcs order */
  Loop *loops;
  int nloops, loop_cap;
  int *loop_of;    /* node id -> innermost loop around it, -1 */
  int *loop_index; /* node id -> the loop it is, -1 */
  int *access_of;  /* node id -> its Access, -1 */
  VarWrite *writes;
  int nwrites, write_cap;
  Access *acc;
  int nacc, acc_cap;
  Barrier *bars;
  int nbars, bar_cap;
  VarInfo *vars;
  int nvars; /* the kernel's parameters and locals, by register slot */
};

VarInfo *facts_var(const Facts *f, const Obj *v); /* NULL: not the kernel's */
void facts_check(const Facts *f);                 /* an internal error when stale */
/* loops.c: the one walk over the functions: loops, variable writes, accesses, barriers, and the
 * kernel's variables' definitions */
void loops_build(Facts *f);
void loops_free(Facts *f);
/* affine.c: the forms of the kernel's variables, then of each access's index */
void affine_derive(Facts *f);
void affine_free(Facts *f);
#endif
