/* limits_parse: how deeply source may nest, named once for the parser that enforces them and
 * for the stages that recurse over what it accepts (type.c, print.c, the interpreter, whose
 * warp stacks are sized from these numbers). Each limit is refused with a located error
 * "... nested too deeply (limit N)", never by a crash. The numbers and their reasons are listed
 * in docs/limits.md. */
#ifndef CARVE_LIMITS_PARSE_H
#define CARVE_LIMITS_PARSE_H

/* statements inside statements: blocks, if/else (an else-if chain nests), loops, switch */
#define PARSE_MAX_STMT_NESTING 1024

/* what the parser recurses on within one expression: parentheses, brackets, call arguments,
 * ?:, assignments, prefix operators and casts, braces of initializers */
#define PARSE_MAX_EXPR_NESTING 256

/* the depth of an expression's tree (nodes from the root to the deepest leaf). Left-associative
 * chains (a + b + c + ...) are parsed by a loop, not recursion, yet each operator is a level of
 * the tree that type checking, printing, analysis and the interpreter recurse through. */
#define PARSE_MAX_EXPR_DEPTH 10000

#endif
