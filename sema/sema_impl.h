/* sema_impl.h: what the files of the semantic pass share (internal to
 * sema/sema.c, sema/builtin_types.c and sema/debug_types.c): the pass's state, the scope chain,
 * and the helpers both use.  The interface is sema.h. */
#ifndef TILEC_SEMA_IMPL_H
#define TILEC_SEMA_IMPL_H
#include "sema/sema.h"

#include <stddef.h>
#include <stdint.h>

#include "sema/dtype.h"
#include "sema/shape.h"

typedef struct Scope {
    Symbol *sym;
    struct Scope *next;
    int depth;
} Scope;

typedef struct Sema {
    Program *prog;
    Func *func;          /* the kernel being typed */
    const int64_t *consts;
    Scope *scope;
    int depth;
    int loop_depth;
    int next_sym;
    int next_expr;
    Func *stack[32];     /* tile functions being inlined, for recursion checks */
    int nstack;
    Func *cur_func;      /* the function whose body is being typed */
    Inline *cur_inline;  /* non-NULL inside an inlined body */
    const char **assigned; /* names assigned anywhere in the current body */
    int nassigned;
    Expr **late;         /* nodes sema made (desugaring), numbered after the rest */
    int nlate, caplate;
} Sema;

/* The shape of a scalar (rank 0). */
extern const Shape sem_scalar_shape;

/* d itself, or the concrete dtype a loose literal type takes for value v. */
Dtype sem_concrete_or(Dtype d, const ConstValue *v);
/* Makes e the integer constant v. */
void sem_set_const_int(Expr *e, int64_t v);
/* e's value when it is a compile-time integer constant; otherwise reports
 * that `what` must be one and returns false. */
bool sem_expect_const_int(Sema *s, Expr *e, const char *what, int64_t *out);
/* Remembers a node sema made, numbered once the body is typed. */
void sem_add_late(Sema *s, Expr *e);
/* Deep copies of a statement or an expression (untyped: no inlined bodies). */
Stmt *sem_copy_stmt(Arena *a, const Stmt *s);
Expr *sem_copy_expr(Arena *a, const Expr *e);
/* Lowers every array kernel of p (TILE_ARRAY_KERNEL) to a tile kernel
 * (sema/array_kernel.c); false after an error. */
bool sem_array_kernels(Program *p);
/* Whether array kernel f (not yet lowered) is one array kernel can
 * compile, without reporting anything: graph fusion's trial.  If not, why is
 * the reason. */
bool sem_array_kernel_fuses(Arena *ar, Func *f, char *why, size_t len);
/* Lowers array kernel f (one tilec made: a graph's part), reporting errors. */
bool sem_array_kernel_lower(Arena *ar, Func *f);
/* A typed tile_load (store: tile_store) through a view that only permutes
 * its array's axes becomes the load in the array's order and a
 * tile_permute (the store: a tile_permute stored in the array's order), so
 * that the global accesses stay coalesced; other loads are left alone. */
void sem_view_rewrite(Sema *s, Expr *e, bool store);
/* Whether every option of builtin call e is one it takes; if not, reports
 * the unknown one with the list of known ones. */
bool sem_check_opts(Expr *e);
/* A .padding option's TILE_PAD_* value in *v; false after an error. */
bool sem_padding_option(Sema *s, Option *o, int64_t *v);
/* A compile-time integer or a list of them (at most TILE_MAX_RANK) in
 * out[*n]; otherwise reports that `what` must be constant. */
bool sem_const_list(Sema *s, Expr *v, const char *what, int64_t *out, int *n);
/* TILE_VIEW declarations (view_types.c): types the constructor, declares
 * the view's symbol and leaves nothing to run in st. */
bool sem_view_decl(Sema *s, Stmt *st);
/* The view a name refers to, or NULL. */
const struct View *sem_view_named(Sema *s, const Expr *a);
/* The first argument of a builtin: an array parameter, or (views_ok: for
 * tile_load, tile_store and tile_dim) a view seen as an array of its rank. */
Param *sem_array_arg(Sema *s, Expr *e, Expr *a, bool views_ok);
/* The innermost declaration of name in scope, or NULL. */
Symbol *sem_lookup(Sema *s, const char *name);
/* A new symbol, name, declared at loc in the current scope. */
Symbol *sem_declare(Sema *s, const char *name, SrcLoc loc);
/* sh as text in buf (n bytes), which it returns. */
char *sem_fmt_shape(const Shape *sh, char *buf, size_t n);
/* The promotion of two typed operands under op; on error reports at loc. */
bool sem_promote2(SrcLoc loc, PromoteOp op, const Expr *a, const Expr *b, Promotion *out);
/* The broadcast of two shapes; on error reports at loc. */
bool sem_broadcast2(SrcLoc loc, const Shape *a, const Shape *b, Shape *out);
/* Types e and everything below it (sema.c); false after an error. */
bool sem_type_expr(Sema *s, Expr *e);

/* Types a builtin call (builtin_types.c): its options, arguments, dtype
 * and shape. */
bool sem_type_builtin(Sema *s, Expr *e);
/* tile_printf and tile_assert (debug_types.c). */
bool sem_builtin_debug(Sema *s, Expr *e);
/* tile_where(c, a, b), also the desugared form of `c ? a : b` on tiles. */
bool sem_builtin_where(Sema *s, Expr *e, Expr *c, Expr *a, Expr *b);
/* A declaration or an assignment statement, typed (sema.c). */
bool sem_check_decl(Sema *s, Stmt *st);
bool sem_check_assign(Sema *s, Stmt *st);
/* Struct variables (tuples.c): `T var = v;` (declare) or `var = v;` becomes
 * the block of per-field declarations or assignments that does it, in st;
 * fields, when not NULL, receives the fields' symbols. */
bool sem_struct_bind(Sema *s, Stmt *st, const StructType *T, const char *var, SrcLoc var_loc, Expr *v, bool declare,
                     Symbol **fields);
#endif
