/* limits_parse: how deeply source may nest, named once for the parser that enforces them and
 * for the stages that recurse over what it accepts (type.c, print.c, the analyses, and the
 * interpreter, whose warp stacks are sized from these numbers). Input past one is a located
 * error "FILE:LINE:COL: error: WHAT nested too deeply (limit N, NAME, docs/limits.md)", never a
 * stack overflow. The numbers and their reasons are in docs/limits.md; as with limits.h, a
 * build may lower one with -DNAME=N. */
#ifndef CARVE_LIMITS_PARSE_H
#define CARVE_LIMITS_PARSE_H

/* statements inside statements: blocks, if/else (an else-if chain nests), loops, switch */
#ifndef LIMIT_STMT_NESTING
#define LIMIT_STMT_NESTING 1024
#endif

/* what the parser recurses on within one expression or declaration: parentheses, brackets,
 * call arguments, ?:, assignments, prefix operators and casts, initializer braces,
 * declarators, array dimensions, struct definitions */
#ifndef LIMIT_EXPR_NESTING
#define LIMIT_EXPR_NESTING 256
#endif

/* the depth of an expression's tree (nodes from the root to the deepest leaf). Left-associative
 * chains (a + b + c + ...) and postfix chains (p->next->next) are parsed by loops, not
 * recursion, yet each operator is a level that type checking, printing, analysis and the
 * interpreter recurse through. */
#ifndef LIMIT_EXPR_DEPTH
#define LIMIT_EXPR_DEPTH 10000
#endif

/* errors in one file before the parser stops reading it (clang stops at 20 by default) */
#ifndef LIMIT_ERRORS
#define LIMIT_ERRORS 100
#endif

/* the message's tail: "(limit N, NAME, docs/limits.md)" */
#define LIMIT_NOTE(name) "(limit %d, " #name ", docs/limits.md)"
#endif
