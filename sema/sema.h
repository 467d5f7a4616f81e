/* sema.h: the semantic pass over one kernel specialization.  It resolves
 * names, gives every expression its dtype (cuTile's promotion rules) and its
 * static tile shape (NumPy broadcasting), folds compile-time constants, inlines
 * tile functions (each call gets its own typed copy of the body), and rejects
 * what Tile C does not allow, at the user's file:line:col. */
#ifndef TILEC_SEMA_H
#define TILEC_SEMA_H
#include "frontend/ast.h"

/* Per-call inlining data, attached to EX_CALL expressions by sema. */
typedef struct Inline {
    Stmt *body;       /* a private copy of the callee's body */
    Symbol **params;  /* one symbol per callee parameter */
    Symbol *result;   /* holds the return value (NULL for void) */
    Expr *ret_expr;   /* the final return expression of the copy */
} Inline;

/* Types kernel f with its TILE_CONST parameters bound to const_values (one
 * per PARAM_CONST parameter, in order; NULL when there are none).  Returns
 * false after reporting errors. */
bool sema_kernel(Program *p, Func *f, const int64_t *const_values);

/* Checks every kernel of p in its first specialization and every tile
 * function signature; used by --check and before code generation. */
bool sema_program(Program *p);

/* The TILE_CONST parameters of f, and iteration over every combination of
 * their listed values: call with idx zeroed and first = true; fills vals
 * (one per constant parameter, in order) and returns false when done. */
int sema_nconst(const Func *f);
bool sema_next_spec(const Func *f, int *idx, int64_t *vals, bool first);

/* The inlining record of a call expression, valid after sema_kernel. */
Inline *sema_inline_of(const Expr *call);

/* Builtins sema knows; codegen asks by name. */
bool sema_is_math1(const char *name); /* exp, log, sqrt ... */
bool sema_is_reduction(const char *name); /* sum, max, argmax, any ... */
/* The options builtin `name` (with or without "tile_") takes, as a
 * NULL-terminated list of names without the dot; NULL for an unknown name. */
const char *const *sema_builtin_options(const char *name);
#endif
