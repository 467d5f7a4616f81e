/* sema.c: names, dtypes, shapes and constants of a kernel specialization.
 *
 * One walk over the statements with a scope chain.  Each expression gets its
 * dtype from dtype_promote (cuTile's rules, sema/dtype.c) and its shape from
 * shape_broadcast (sema/shape.c).  Integer expressions over literals, enum
 * values and TILE_CONST parameters fold to constants, because shapes, axes
 * and options must be known at compile time.  Tile-function calls are
 * inlined: the callee body is copied per call and typed with the argument
 * shapes, so one helper serves tiles of any shape.  The first error of a
 * root cause is reported; expressions that fail get DT_INVALID and their
 * parents stay silent (no cascades).  The typing of builtin calls is in
 * builtin_types.c. */
#include "sema/graph.h"
#include "sema/sema_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/diag.h"
#include "sema/targetset.h"

static bool check_stmt(Sema *s, Stmt *st);

/* ---- helpers ------------------------------------------------------------ */

const Shape sem_scalar_shape = {0};

Dtype sem_concrete_or(Dtype d, const ConstValue *v)
{
    return dtype_is_loose(d) ? dtype_concretize(d, v) : d;
}

void sem_set_const_int(Expr *e, int64_t v)
{
    e->is_const = true;
    e->cval = (ConstValue){.i = v, .u = (uint64_t)v};
}

bool sem_expect_const_int(Sema *s, Expr *e, const char *what, int64_t *out)
{
    (void)s;
    if (e->dtype == DT_INVALID) return false;
    if (!e->is_const || e->cval.is_float || e->shape.rank != 0) {
        diag_error_fix(e->loc, "use a literal, a #define, an enum value or a TILE_CONST parameter",
                       "%s must be a compile-time integer constant", what);
        return false;
    }
    *out = e->cval.i;
    return true;
}

Symbol *sem_lookup(Sema *s, const char *name)
{
    for (Scope *sc = s->scope; sc; sc = sc->next)
        if (!strcmp(sc->sym->name, name)) return sc->sym;
    return NULL;
}

Symbol *sem_declare(Sema *s, const char *name, SrcLoc loc)
{
    Symbol *sym = arena_alloc(s->prog->arena, sizeof *sym);
    sym->name = name;
    sym->loc = loc;
    sym->id = s->next_sym++;
    Scope *sc = arena_alloc(s->prog->arena, sizeof *sc);
    sc->sym = sym;
    sc->next = s->scope;
    sc->depth = s->depth;
    s->scope = sc;
    return sym;
}

static void pop_scope(Sema *s)
{
    while (s->scope && s->scope->depth >= s->depth) s->scope = s->scope->next;
    s->depth--;
}

/* Which declarations are assigned after they are made, resolved with C's
 * scoping (an inner `n` that is assigned leaves an outer `n` constant).
 * Names that resolve to no declaration in the body are parameters of the
 * function: they are recorded by name. */
typedef struct DeclScope {
    const char *name;
    Stmt *decl;
    struct DeclScope *next;
} DeclScope;

static void mark_assigned(Sema *s, Stmt *st, DeclScope *scope);

static DeclScope *mark_block(Sema *s, Stmt *st, DeclScope *scope)
{
    /* Declarations in a block are visible to the statements after them. */
    for (int i = 0; i < st->nitems; i++) {
        Stmt *it = st->items[i];
        if (it->kind == ST_DECL) {
            DeclScope *d = arena_alloc(s->prog->arena, sizeof *d);
            d->name = it->name;
            d->decl = it;
            d->next = scope;
            scope = d;
        } else {
            mark_assigned(s, it, scope);
        }
    }
    return scope;
}

static void mark_assigned(Sema *s, Stmt *st, DeclScope *scope)
{
    if (!st) return;
    switch (st->kind) {
    case ST_ASSIGN: {
        for (DeclScope *d = scope; d; d = d->next)
            if (!strcmp(d->name, st->target->name)) {
                d->decl->assigned = true;
                return;
            }
        const char **n = arena_alloc(s->prog->arena, sizeof(char *) * (size_t)(s->nassigned + 1));
        if (s->nassigned) memcpy(n, s->assigned, sizeof(char *) * (size_t)s->nassigned);
        n[s->nassigned++] = st->target->name;
        s->assigned = n;
        return;
    }
    case ST_BLOCK:
        mark_block(s, st, scope);
        return;
    case ST_FOR: {
        DeclScope *inner = st->init_s ? mark_block(s, st->init_s, scope) : scope;
        mark_assigned(s, st->step_s, inner);
        mark_assigned(s, st->body, inner);
        return;
    }
    default:
        mark_assigned(s, st->then_s, scope);
        mark_assigned(s, st->else_s, scope);
        mark_assigned(s, st->body, scope);
        return;
    }
}

/* Parameters (of the kernel or an inlined function) assigned in the body. */
static bool is_assigned(Sema *s, const char *name)
{
    for (int i = 0; i < s->nassigned; i++)
        if (!strcmp(s->assigned[i], name)) return true;
    return false;
}

static void collect_assigned(Sema *s, Stmt *st)
{
    mark_assigned(s, st, NULL);
}

char *sem_fmt_shape(const Shape *sh, char *buf, size_t n)
{
    shape_format(sh, buf, n);
    return buf;
}

/* ---- constant folding --------------------------------------------------- */

static bool fold_binary(Expr *e, const Expr *a, const Expr *b)
{
    if (!a->is_const || !b->is_const) return true;
    bool fl = a->cval.is_float || b->cval.is_float;
    if (fl) {
        double x = a->cval.is_float ? a->cval.f : (double)a->cval.i;
        double y = b->cval.is_float ? b->cval.f : (double)b->cval.i;
        double r;
        switch ((BinaryOp)e->op) {
        case BOP_ADD: r = x + y; break;
        case BOP_SUB: r = x - y; break;
        case BOP_MUL: r = x * y; break;
        case BOP_DIV: r = x / y; break;
        case BOP_LT: sem_set_const_int(e, x < y); return true;
        case BOP_GT: sem_set_const_int(e, x > y); return true;
        case BOP_LE: sem_set_const_int(e, x <= y); return true;
        case BOP_GE: sem_set_const_int(e, x >= y); return true;
        case BOP_EQ: sem_set_const_int(e, x == y); return true;
        case BOP_NE: sem_set_const_int(e, x != y); return true;
        default: return true; /* left to run time */
        }
        if (dtype_is_float(e->dtype) || e->dtype == DT_FLOAT_CONST) {
            e->is_const = true;
            e->cval = (ConstValue){.is_float = true, .f = r};
        }
        return true;
    }
    /* Integer folding in 64-bit two's complement, without C's undefined
     * overflow: arithmetic goes through uint64_t. */
    uint64_t x = (uint64_t)a->cval.i, y = (uint64_t)b->cval.i;
    int64_t xi = a->cval.i, yi = b->cval.i;
    int64_t r;
    switch ((BinaryOp)e->op) {
    case BOP_ADD: r = (int64_t)(x + y); break;
    case BOP_SUB: r = (int64_t)(x - y); break;
    case BOP_MUL: r = (int64_t)(x * y); break;
    case BOP_DIV:
    case BOP_MOD:
        if (yi == 0) {
            diag_error(e->loc, "division by zero in a constant expression");
            e->dtype = DT_INVALID;
            return false;
        }
        if (xi == INT64_MIN && yi == -1) r = e->op == BOP_DIV ? INT64_MIN : 0;
        else r = e->op == BOP_DIV ? xi / yi : xi % yi;
        break;
    case BOP_SHL: r = (yi < 0 || yi > 63) ? 0 : (int64_t)(x << y); break;
    case BOP_SHR: r = (yi < 0 || yi > 63) ? (xi < 0 ? -1 : 0) : (xi >> yi); break;
    case BOP_LT: r = xi < yi; break;
    case BOP_GT: r = xi > yi; break;
    case BOP_LE: r = xi <= yi; break;
    case BOP_GE: r = xi >= yi; break;
    case BOP_EQ: r = xi == yi; break;
    case BOP_NE: r = xi != yi; break;
    case BOP_AND: r = (int64_t)(x & y); break;
    case BOP_XOR: r = (int64_t)(x ^ y); break;
    case BOP_OR: r = (int64_t)(x | y); break;
    case BOP_LAND: r = xi && yi; break;
    case BOP_LOR: r = xi || yi; break;
    default: return true;
    }
    sem_set_const_int(e, r);
    return true;
}

static PromoteOp promote_class(BinaryOp op)
{
    switch (op) {
    case BOP_ADD: case BOP_SUB: case BOP_MUL: return PROMOTE_ARITH;
    case BOP_DIV: return PROMOTE_DIV;
    case BOP_MOD: return PROMOTE_MOD;
    case BOP_SHL: case BOP_SHR: return PROMOTE_SHIFT;
    case BOP_LT: case BOP_GT: case BOP_LE: case BOP_GE: case BOP_EQ: case BOP_NE:
        return PROMOTE_COMPARE;
    case BOP_AND: case BOP_XOR: case BOP_OR: return PROMOTE_BITWISE;
    case BOP_LAND: case BOP_LOR: return PROMOTE_LOGICAL;
    default: return PROMOTE_ARITH;
    }
}

/* Promotes two typed operands; on error reports at loc. */
bool sem_promote2(SrcLoc loc, PromoteOp op, const Expr *a, const Expr *b, Promotion *out)
{
    char err[256];
    if (!dtype_promote(op, a->dtype, a->is_const ? &a->cval : NULL, b->dtype,
                       b->is_const ? &b->cval : NULL, out, err, sizeof err)) {
        diag_error(loc, "%s", err);
        return false;
    }
    return true;
}

bool sem_broadcast2(SrcLoc loc, const Shape *a, const Shape *b, Shape *out)
{
    char err[256];
    if (!shape_broadcast(a, b, out, err, sizeof err)) {
        diag_error(loc, "%s", err);
        return false;
    }
    return true;
}

/* ---- tile-function inlining -------------------------------------------- */

Stmt *sem_copy_stmt(Arena *a, const Stmt *s)
{
    if (!s) return NULL;
    Stmt *n = arena_alloc(a, sizeof *n);
    *n = *s;
    n->init = sem_copy_expr(a, s->init);
    n->target = sem_copy_expr(a, s->target);
    n->value = sem_copy_expr(a, s->value);
    n->cond = sem_copy_expr(a, s->cond);
    n->then_s = sem_copy_stmt(a, s->then_s);
    n->else_s = sem_copy_stmt(a, s->else_s);
    n->init_s = sem_copy_stmt(a, s->init_s);
    n->step_s = sem_copy_stmt(a, s->step_s);
    n->body = sem_copy_stmt(a, s->body);
    if (s->nitems) {
        n->items = arena_alloc(a, sizeof(Stmt *) * (size_t)s->nitems);
        for (int i = 0; i < s->nitems; i++) n->items[i] = sem_copy_stmt(a, s->items[i]);
    }
    return n;
}

Expr *sem_copy_expr(Arena *a, const Expr *e)
{
    if (!e) return NULL;
    Expr *n = arena_alloc(a, sizeof *n);
    *n = *e;
    n->a = sem_copy_expr(a, e->a);
    n->b = sem_copy_expr(a, e->b);
    n->c = sem_copy_expr(a, e->c);
    if (e->nargs) {
        n->args = arena_alloc(a, sizeof(Expr *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++) n->args[i] = sem_copy_expr(a, e->args[i]);
    }
    if (e->nopts) {
        n->opts = arena_alloc(a, sizeof(Option) * (size_t)e->nopts);
        for (int i = 0; i < e->nopts; i++) {
            n->opts[i] = e->opts[i];
            n->opts[i].value = sem_copy_expr(a, e->opts[i].value);
        }
    }
    n->inl = NULL;
    return n;
}

static bool return_is_last(const Stmt *body, const Stmt **ret)
{
    /* A tile function may return only as its last statement, so inlining is
     * a straight substitution with no control flow to rewrite. */
    if (!body || body->kind != ST_BLOCK) return false;
    for (int i = 0; i < body->nitems; i++) {
        const Stmt *st = body->items[i];
        if (st->kind == ST_RETURN) {
            if (i != body->nitems - 1) return false;
            *ret = st;
        }
    }
    return true;
}

/* The first return that is not the body's last statement, or NULL. */
static const Stmt *misplaced_return(const Stmt *s, bool top)
{
    if (!s) return NULL;
    if (s->kind == ST_RETURN) return top ? NULL : s;
    if (s->kind == ST_BLOCK && top) {
        for (int i = 0; i < s->nitems; i++) {
            const Stmt *st = s->items[i];
            if (st->kind == ST_RETURN && i != s->nitems - 1) return st;
            const Stmt *r = st->kind == ST_RETURN ? NULL : misplaced_return(st, false);
            if (r) return r;
        }
        return NULL;
    }
    const Stmt *r;
    if ((r = misplaced_return(s->then_s, false)) || (r = misplaced_return(s->else_s, false)) ||
        (r = misplaced_return(s->body, false)))
        return r;
    for (int i = 0; i < s->nitems; i++)
        if ((r = misplaced_return(s->items[i], false))) return r;
    return NULL;
}

static bool has_nested_return(const Stmt *s, bool top)
{
    if (!s) return false;
    if (s->kind == ST_RETURN) return !top;
    if (s->kind == ST_BLOCK && top) {
        for (int i = 0; i < s->nitems; i++)
            if (s->items[i]->kind != ST_RETURN && has_nested_return(s->items[i], false)) return true;
        return false;
    }
    if (has_nested_return(s->then_s, false) || has_nested_return(s->else_s, false) ||
        has_nested_return(s->body, false))
        return true;
    for (int i = 0; i < s->nitems; i++)
        if (has_nested_return(s->items[i], false)) return true;
    return false;
}

/* Argument i of a call of f, typed, and converting implicitly to the
 * parameter's dtype. */
static bool type_argument(Sema *s, const Func *f, int i, Expr *a)
{
    const Param *p = &f->params[i];
    if (!sem_type_expr(s, a)) return false;
    if (dtype_implicitly_converts(a->dtype, a->is_const ? &a->cval : NULL, p->type.dtype)) return true;
    char fix[128];
    snprintf(fix, sizeof fix, "convert explicitly: tile_cast(arg, %s)", p->type.spelling);
    diag_error_fix(a->loc, fix, "argument %d of '%s' is %s; parameter '%s' is %s", i + 1, f->name, dtype_name(a->dtype),
                   p->name, dtype_name(p->type.dtype));
    return false;
}

/* A TILE_EXTERN function applies to each element: its arguments convert
 * implicitly to the parameters' dtypes and broadcast together, as the
 * operands of an element-wise builtin do; the result has the return dtype
 * and their shape.  No body: code generation calls it inside the element
 * loop. */
static bool type_extern_call(Sema *s, Expr *e, Func *f)
{
    if (e->nargs != f->nparams) {
        diag_error(e->loc, "'%s' takes %d arguments, %d given", f->name, f->nparams, e->nargs);
        return false;
    }
    Shape shape = sem_scalar_shape;
    for (int i = 0; i < e->nargs; i++) {
        Expr *a = e->args[i];
        if (!type_argument(s, f, i, a)) return false;
        if (!sem_broadcast2(a->loc, &shape, &a->shape, &shape)) return false;
    }
    e->callee = f;
    e->dtype = f->ret.dtype;
    e->shape = shape;
    return true;
}

static bool type_call(Sema *s, Expr *e)
{
    Func *f = ast_find_func(s->prog, e->name);
    if (!f) {
        diag_error(e->loc, "tile function '%s' is declared but has no definition in this file", e->name);
        return false;
    }
    if (f->is_kernel) {
        diag_error(e->loc, "kernel '%s' cannot be called from tile code; mark a helper TILE_FUNC", e->name);
        return false;
    }
    if (f->is_extern) return type_extern_call(s, e, f);
    for (int i = 0; i < s->nstack; i++)
        if (s->stack[i] == f) {
            diag_error(e->loc, "recursive call of tile function '%s': tile functions are inlined, so recursion is not allowed", e->name);
            return false;
        }
    if (s->nstack == (int)(sizeof s->stack / sizeof s->stack[0])) {
        diag_error(e->loc, "tile functions nested too deeply");
        return false;
    }
    if (e->nargs != f->nparams) {
        diag_error(e->loc, "'%s' takes %d arguments, %d given", f->name, f->nparams, e->nargs);
        return false;
    }
    const Stmt *ret = NULL;
    if (!return_is_last(f->body, &ret) || has_nested_return(f->body, true)) {
        const Stmt *bad = misplaced_return(f->body, true);
        diag_error(bad ? bad->loc : f->loc, "tile function '%s' may return only as its last statement", f->name);
        return false;
    }
    if ((f->ret.dtype != DT_INVALID || f->ret.stype) && (!ret || !ret->value)) {
        diag_error(f->loc, "tile function '%s' must end with 'return value;'", f->name);
        return false;
    }
    Symbol **syms = arena_alloc(s->prog->arena, sizeof(Symbol *) * (size_t)(f->nparams + 1));
    for (int i = 0; i < e->nargs; i++) {
        Expr *a = e->args[i];
        Param *p = &f->params[i];
        if (p->kind == PARAM_ARRAY) {
            diag_error(p->loc, "tile functions take tiles and scalars, not arrays");
            return false;
        }
        if (!type_argument(s, f, i, a)) return false;
    }
    Inline *in = arena_alloc(s->prog->arena, sizeof *in);
    in->body = sem_copy_stmt(s->prog->arena, f->body);
    in->params = syms;
    Stmt *ret_decl = NULL;
    if (f->ret.stype) { /* `return v;` declares the struct variable "return" (struct_bind) */
        Stmt *last = in->body->items[in->body->nitems - 1];
        ret_decl = arena_alloc(s->prog->arena, sizeof *ret_decl);
        ret_decl->kind = ST_DECL;
        ret_decl->loc = last->loc;
        ret_decl->name = "return";
        ret_decl->name_loc = last->loc;
        ret_decl->type = f->ret;
        ret_decl->init = last->value;
        in->body->items[in->body->nitems - 1] = ret_decl;
    }
    e->inl = in;
    e->callee = f;
    /* Type the copy in a fresh scope that sees only the parameters. */
    Scope *saved_scope = s->scope;
    Func *saved_func = s->cur_func;
    Inline *saved_inl = s->cur_inline;
    const char **saved_assigned = s->assigned;
    int saved_nassigned = s->nassigned;
    int saved_depth = s->depth;
    int saved_loop = s->loop_depth;
    s->scope = NULL;
    s->depth = 1;
    s->loop_depth = 0;
    s->cur_func = f;
    s->cur_inline = in;
    s->assigned = NULL;
    s->nassigned = 0;
    s->stack[s->nstack++] = f;
    collect_assigned(s, in->body);
    for (int i = 0; i < f->nparams; i++) {
        Symbol *sym = sem_declare(s, f->params[i].name, f->params[i].loc);
        sym->kind = SYM_VAR;
        sym->dtype = f->params[i].type.dtype;
        sym->shape = e->args[i]->shape;
        sym->is_const = e->args[i]->is_const && !is_assigned(s, sym->name) && dtype_is_int(sym->dtype);
        sym->cval = e->args[i]->cval;
        syms[i] = sym;
    }
    bool ok = check_stmt(s, in->body);
    s->nstack--;
    s->scope = saved_scope;
    s->cur_func = saved_func;
    s->cur_inline = saved_inl;
    s->assigned = saved_assigned;
    s->nassigned = saved_nassigned;
    s->depth = saved_depth;
    s->loop_depth = saved_loop;
    if (!ok) {
        diag_note(e->loc, "in the call of tile function '%s' here", f->name);
        return false;
    }
    if (ret_decl) { /* now a block: the call of a nested function, then one declaration per field */
        int n = f->ret.stype->nfields;
        in->fields = arena_alloc(s->prog->arena, sizeof *in->fields * (size_t)n);
        for (int i = 0; i < n; i++) in->fields[i] = ret_decl->items[ret_decl->nitems - n + i]->sym;
        e->dtype = DT_INVALID;
        e->shape = sem_scalar_shape;
    } else if (f->ret.dtype != DT_INVALID) {
        Expr *rv = in->body->items[in->body->nitems - 1]->value;
        in->ret_expr = rv;
        e->dtype = f->ret.dtype;
        e->shape = rv->shape;
    } else {
        e->dtype = DT_INVALID;
        e->shape = sem_scalar_shape;
    }
    return true;
}

/* ---- expressions -------------------------------------------------------- */

static bool type_expr_inner(Sema *s, Expr *e);

/* Every tile, however it arises (a broadcast too), is at most 2^20 elements. */
bool sem_type_expr(Sema *s, Expr *e)
{
    if (!type_expr_inner(s, e)) return false;
    int64_t n = shape_numel(&e->shape);
    if (n < 0 || n > (1 << 20)) {
        char b[SHAPE_FMT_MAX];
        diag_error(e->loc, "a tile of shape %s is too large (at most 2^20 elements)", sem_fmt_shape(&e->shape, b, sizeof b));
        e->dtype = DT_INVALID;
        return false;
    }
    return true;
}

static bool type_expr_inner(Sema *s, Expr *e)
{
    if (!e) return false;
    e->id = s->next_expr++;
    e->is_const = false;
    e->shape = sem_scalar_shape;
    switch (e->kind) {
    case EX_INT:
        e->dtype = DT_INT_CONST;
        e->is_const = true;
        e->cval = (ConstValue){.i = e->ival, .u = e->uval,
                               .is_unsigned = e->big_unsigned};
        return true;
    case EX_FLOAT:
        e->dtype = DT_FLOAT_CONST;
        e->is_const = true;
        e->cval = (ConstValue){.is_float = true, .f = e->fval};
        return true;
    case EX_TYPE:
        e->dtype = e->type.dtype;
        return true;
    case EX_NAME: {
        Symbol *sym = e->sym ? e->sym : sem_lookup(s, e->name); /* sema's own names come bound */
        if (!sym) {
            diag_error(e->loc, "'%s' is not visible in tile code here", e->name);
            return false;
        }
        e->sym = sym;
        if (sym->stype) {
            diag_error_fix(e->loc, "read its fields, e.g. r.x, or initialize or assign another struct variable with it",
                           "struct variable '%s' used as a value", e->name);
            return false;
        }
        if (sym->kind == SYM_PARAM && sym->param->kind == PARAM_ARRAY) {
            diag_error_fix(e->loc, "load a tile: tile_load(array, .index = {...}, .shape = {...})",
                           "array '%s' used as a value", e->name);
            return false;
        }
        if (sym->view) {
            diag_error_fix(e->loc, "load a tile: tile_load(view, .index = {...}, .shape = {...})",
                           "view '%s' used as a value", e->name);
            return false;
        }
        e->dtype = sym->dtype;
        e->shape = sym->shape;
        e->is_const = sym->is_const;
        e->cval = sym->cval;
        return e->dtype != DT_INVALID;
    }
    case EX_UNARY: {
        Expr *a = e->a;
        if (!sem_type_expr(s, a)) return false;
        e->shape = a->shape;
        switch ((UnaryOp)e->op) {
        case UOP_NOT:
            e->dtype = DT_BOOL;
            if (a->is_const) sem_set_const_int(e, a->cval.is_float ? a->cval.f == 0 : a->cval.i == 0);
            return true;
        case UOP_BITNOT:
            if (!dtype_is_int(a->dtype) && a->dtype != DT_INT_CONST && a->dtype != DT_BOOL) {
                diag_error(e->loc, "'~' needs an integer or bool operand, not %s", dtype_name(a->dtype));
                return false;
            }
            e->dtype = a->dtype;
            if (a->is_const) sem_set_const_int(e, ~a->cval.i);
            return true;
        default:
            if (a->dtype == DT_BOOL || a->dtype == DT_TFLOAT32 || a->dtype == DT_FLOAT8_E4M3FN ||
                a->dtype == DT_FLOAT8_E5M2) {
                diag_error(e->loc, "unary '%s' does not apply to %s", ast_unary_op_spelling((UnaryOp)e->op),
                           dtype_name(a->dtype));
                return false;
            }
            e->dtype = a->dtype;
            if (a->is_const) {
                e->is_const = true;
                e->cval = a->cval;
                if (e->op == UOP_NEG) {
                    if (a->cval.is_float) e->cval.f = -a->cval.f;
                    else e->cval.i = (int64_t)(0 - (uint64_t)a->cval.i);
                    e->cval.u = (uint64_t)e->cval.i;
                    e->cval.is_unsigned = false;
                }
            }
            return true;
        }
    }
    case EX_BINARY: {
        if (!sem_type_expr(s, e->a) || !sem_type_expr(s, e->b)) return false;
        Promotion pr;
        if (!sem_promote2(e->loc, promote_class((BinaryOp)e->op), e->a, e->b, &pr)) return false;
        if (!sem_broadcast2(e->loc, &e->a->shape, &e->b->shape, &e->shape)) return false;
        e->dtype = pr.result;
        e->op_dtype = pr.operand;
        return fold_binary(e, e->a, e->b);
    }
    case EX_COND:
        return sem_builtin_where(s, e, e->a, e->b, e->c);
    case EX_CAST: {
        if (!sem_type_expr(s, e->a)) return false;
        e->dtype = e->type.dtype;
        e->shape = e->a->shape;
        if (e->a->is_const && dtype_is_int(e->dtype) && !e->a->cval.is_float) {
            e->is_const = true;
            e->cval = e->a->cval;
        }
        return true;
    }
    case EX_CALL:
        return type_call(s, e);
    case EX_BUILTIN:
        return sem_type_builtin(s, e);
    case EX_LIST: {
        bool ok = true;
        for (int i = 0; i < e->nargs; i++)
            if (!sem_type_expr(s, e->args[i])) ok = false;
        e->dtype = DT_INVALID;
        return ok;
    }
    case EX_MEMBER: {
        /* r.f is the variable "r.f" that r's declaration made */
        Symbol *var = sem_lookup(s, e->a->name);
        if (var && var->stype && var->stype->bad) return false; /* reported at the declaration */
        if (!sem_lookup(s, e->name)) {
            diag_error(e->loc, "'%s' is not visible in tile code here", e->name);
            return false;
        }
        e->kind = EX_NAME;
        e->a = NULL;
        s->next_expr--; /* the name takes this expression's number */
        return type_expr_inner(s, e);
    }
    case EX_STRUCT:
        diag_error_fix(e->loc, "declare a struct variable with it, `T r = (T){...};`, and read r's fields",
                       "a struct value can only initialize or be assigned to a struct variable, or be returned");
        return false;
    case EX_STRING: /* tile_printf and tile_assert type their own */
        diag_error(e->loc, "string literals are only allowed as tile_printf's format and tile_assert's message");
        return false;
    }
    return false;
}

/* ---- statements --------------------------------------------------------- */

static bool check_scalar_cond(Sema *s, Expr *c, const char *what)
{
    if (!sem_type_expr(s, c)) return false;
    if (c->shape.rank != 0) {
        char b[SHAPE_FMT_MAX];
        diag_error_fix(c->loc, "select element-wise with tile_where(cond, a, b) or cond ? a : b",
                       "the condition of %s must be a scalar, not a tile of shape %s", what,
                       sem_fmt_shape(&c->shape, b, sizeof b));
        return false;
    }
    if (c->dtype == DT_INVALID) {
        diag_error(c->loc, "the condition of %s has no value", what);
        return false;
    }
    return true;
}

static bool check_block(Sema *s, Stmt *st, bool new_scope)
{
    if (new_scope) s->depth++;
    bool ok = true;
    for (int i = 0; i < st->nitems; i++)
        if (!check_stmt(s, st->items[i])) ok = false;
    if (new_scope) pop_scope(s);
    return ok;
}

/* tile_sum and tile_prod of a float16, bfloat16 or float8 tile accumulate
 * in float32 but give the input's dtype (cuTile's rule), so a sum that goes
 * straight into a float32 or float64 variable has already been rounded to
 * the narrow type: `float s = tile_sum(h)` keeps 11 bits of it.  That is
 * rarely what the wider destination was for, so it is worth a warning; an
 * explicit tile_cast, or a call, says the rounding is intended. */
static void warn_narrow_reduction(const Expr *v, Dtype dest)
{
    if (!v || (dest != DT_FLOAT32 && dest != DT_FLOAT64)) return;
    if (v->kind == EX_BINARY && v->op <= BOP_DIV) {
        warn_narrow_reduction(v->a, dest);
        warn_narrow_reduction(v->b, dest);
    } else if (v->kind == EX_UNARY && (v->op == UOP_NEG || v->op == UOP_PLUS)) {
        warn_narrow_reduction(v->a, dest);
    } else if (v->kind == EX_BUILTIN && (v->bi == BI_SUM || v->bi == BI_PROD) &&
               dtype_is_float(v->dtype) && dtype_bits(v->dtype) < 32) {
        diag_warning("narrow-reduction", v->loc,
                     "tile_%s of a %s tile is rounded to %s before it becomes %s; load or tile_cast the tile to "
                     "float first to keep the float32 result",
                     v->name, dtype_name(v->dtype), dtype_name(v->dtype), dtype_name(dest));
    }
}

static bool array_param_named(const Func *f, const char *name)
{
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].kind == PARAM_ARRAY && !strcmp(f->params[i].name, name)) return true;
    return false;
}

bool sem_check_decl(Sema *s, Stmt *st)
{
    if (st->type.view_rank) return sem_view_decl(s, st);
    Expr *v = st->init;
    if (st->type.stype) return sem_struct_bind(s, st, st->type.stype, st->name, st->name_loc, v, true, NULL);
    if (st->type.is_auto) { /* `auto q = r;` copies a struct as `T q = r;` would */
        const StructType *T = NULL;
        if (v->kind == EX_STRUCT) T = v->type.stype;
        else if (v->kind == EX_NAME && sem_lookup(s, v->name)) T = sem_lookup(s, v->name)->stype;
        else if (v->kind == EX_CALL && ast_find_func(s->prog, v->name)) T = ast_find_func(s->prog, v->name)->ret.stype;
        if (T) return sem_struct_bind(s, st, T, st->name, st->name_loc, v, true, NULL);
    }
    if (!sem_type_expr(s, v)) {
        Symbol *sym = sem_declare(s, st->name, st->name_loc);
        sym->dtype = DT_INVALID; /* silences later uses */
        st->sym = sym;
        return false;
    }
    if (v->dtype == DT_INVALID) {
        diag_error(v->loc, "'%s' is initialized with an expression that has no value", st->name);
        st->sym = sem_declare(s, st->name, st->name_loc);
        st->sym->dtype = DT_INVALID;
        return false;
    }
    Dtype t = st->type.is_auto ? dtype_concretize(v->dtype, &v->cval) : st->type.dtype;
    if (!st->type.is_auto &&
        !dtype_implicitly_converts(v->dtype, v->is_const ? &v->cval : NULL, t)) {
        Symbol *bad = sem_declare(s, st->name, st->name_loc);
        bad->dtype = DT_INVALID; /* later uses stay silent: one error per cause */
        st->sym = bad;
        char fix[160];
        /* a lowered array kernel names its outputs' values after the arrays (sema/array_kernel.c) */
        bool out = s->func->is_array_kernel && array_param_named(s->func, st->name);
        snprintf(fix, sizeof fix, out ? "convert explicitly: tile_cast(value, %s)"
                                      : "convert explicitly: tile_cast(value, %s), or declare it 'auto'",
                 st->type.spelling);
        if (v->is_const && dtype_is_loose(v->dtype))
            diag_error(v->loc, "constant does not fit '%s' of type %s", st->name, dtype_name(t));
        else if (out)
            diag_error_fix(v->loc, fix, "cannot assign a %s value to %s array '%s' implicitly", dtype_name(v->dtype),
                           dtype_name(t), st->name);
        else
            diag_error_fix(v->loc, fix, "cannot initialize %s variable '%s' with a %s value implicitly",
                           dtype_name(t), st->name, dtype_name(v->dtype));
        return false;
    }
    warn_narrow_reduction(v, t);
    Symbol *sym = sem_declare(s, st->name, st->name_loc);
    sym->kind = SYM_VAR;
    sym->dtype = t;
    sym->shape = v->shape;
    sym->is_const = v->is_const && !st->assigned && (dtype_is_int(t) || t == DT_BOOL);
    sym->cval = v->cval;
    st->sym = sym;
    return true;
}

/* Remembers a node sema made, to number it once the body is typed (so the
 * ids of the user's expressions do not depend on desugaring). */
void sem_add_late(Sema *s, Expr *e)
{
    if (s->nlate == s->caplate) {
        int cap = s->caplate ? 2 * s->caplate : 16;
        Expr **n = arena_alloc(s->prog->arena, sizeof *n * (size_t)cap);
        if (s->nlate) memcpy(n, s->late, sizeof *n * (size_t)s->nlate);
        s->late = n;
        s->caplate = cap;
    }
    s->late[s->nlate++] = e;
}

/* `x op= v` becomes `x = x op v`, the binary typed as its promotion says, so
 * that later phases see one form of assignment and re-derive no type. */
static void desugar_compound(Sema *s, Stmt *st, const Promotion *pr, const Shape *shape)
{
    Arena *a = s->prog->arena;
    Expr *x = arena_alloc(a, sizeof *x);
    *x = *st->target;
    Expr *bin = arena_alloc(a, sizeof *bin);
    bin->kind = EX_BINARY;
    bin->loc = st->loc;
    bin->op = st->op;
    bin->a = x;
    bin->b = st->value;
    bin->dtype = pr->result;
    bin->op_dtype = pr->operand;
    bin->shape = *shape;
    sem_add_late(s, x);
    sem_add_late(s, bin);
    st->value = bin;
    st->op = -1;
    st->desugared = true;
}

bool sem_check_assign(Sema *s, Stmt *st)
{
    Expr *t = st->target;
    if (t->kind == EX_NAME) {
        Symbol *sv = sem_lookup(s, t->name);
        if (sv && sv->stype) {
            if (st->op >= 0) {
                diag_error_fix(st->loc, "assign its fields one by one", "compound assignment of struct variable '%s'", t->name);
                return false;
            }
            return sem_struct_bind(s, st, sv->stype, t->name, t->loc, st->value, false, NULL);
        }
        if (sv && sv->view) {
            diag_error_fix(st->loc, "declare another TILE_VIEW for the other layout",
                           "view '%s' cannot be assigned; a view is fixed where it is declared", t->name);
            return false;
        }
    }
    if (!sem_type_expr(s, t)) return false;
    Symbol *sym = t->sym;
    if (sym->kind == SYM_PARAM) {
        diag_error(t->loc, "parameter '%s' cannot be assigned", sym->name);
        return false;
    }
    if (!sem_type_expr(s, st->value)) return false;
    Expr *v = st->value;
    Dtype vt = v->dtype;
    Shape vs = v->shape;
    if (st->op >= 0) {
        Promotion pr;
        if (!sem_promote2(st->loc, promote_class((BinaryOp)st->op), t, v, &pr)) return false;
        if (!sem_broadcast2(st->loc, &t->shape, &v->shape, &vs)) return false;
        vt = pr.result;
        if (!dtype_implicitly_converts(vt, NULL, sym->dtype) && vt != sym->dtype) {
            diag_error_fix(st->loc, "write it out with an explicit tile_cast",
                           "compound assignment gives %s, which does not convert to %s variable '%s' implicitly",
                           dtype_name(vt), dtype_name(sym->dtype), sym->name);
            return false;
        }
        desugar_compound(s, st, &pr, &vs);
    } else if (!dtype_implicitly_converts(vt, v->is_const ? &v->cval : NULL, sym->dtype)) {
        char fix[128];
        snprintf(fix, sizeof fix, "convert explicitly: tile_cast(value, %s)", dtype_source_type(sym->dtype));
        diag_error_fix(v->loc, fix, "cannot assign a %s value to %s variable '%s' implicitly",
                       dtype_name(vt), dtype_name(sym->dtype), sym->name);
        return false;
    }
    warn_narrow_reduction(v, sym->dtype);
    char err[256];
    if (!shape_broadcast_to(&vs, &sym->shape, err, sizeof err)) {
        char a[SHAPE_FMT_MAX], b[SHAPE_FMT_MAX];
        diag_error(v->loc, "assignment would change the shape of '%s' from %s to %s; a variable keeps one shape",
                   sym->name, sem_fmt_shape(&sym->shape, a, sizeof a), sem_fmt_shape(&vs, b, sizeof b));
        return false;
    }
    return true;
}

/* ---- target specialization ------------------------------------------------
 * `if (tile_target(desc))`: desc is built from tile_provides(sm),
 * tile_is_exactly(sm), tile_is_host, tile_is_device, tile_any_target and
 * tile_no_target with | & ^ and ~ (or !); it is evaluated here to a set of
 * targets, and code generation compiles the if to #if on __CUDA_ARCH__ (the
 * host target takes the branch for the host).  Both branches are checked. */

/* Types the architectures inside a description (they may be any integer
 * constant expressions); targetset_eval reads the rest. */
static bool type_archs(Sema *s, Expr *e)
{
    int64_t sm;
    e->dtype = DT_INT64;
    e->shape = sem_scalar_shape;
    switch (e->kind) {
    case EX_UNARY: return type_archs(s, e->a);
    case EX_BINARY: return type_archs(s, e->a) && type_archs(s, e->b);
    case EX_BUILTIN:
        if ((e->bi == BI_PROVIDES || e->bi == BI_IS_EXACTLY) && e->nargs == 1)
            return sem_type_expr(s, e->args[0]) && sem_expect_const_int(s, e->args[0], "the architecture", &sm);
        return true;
    default: return true;
    }
}

static bool check_target_cond(Sema *s, Stmt *st)
{
    Expr *c = st->cond;
    TargetSet set;
    if (!type_archs(s, c->args[0]) || !targetset_eval(c->args[0], &set)) return false;
    c->dtype = DT_BOOL;
    c->shape = sem_scalar_shape;
    st->is_target = true;
    st->targets = set;
    return true;
}

static bool check_stmt(Sema *s, Stmt *st)
{
    switch (st->kind) {
    case ST_DECL:
        return sem_check_decl(s, st);
    case ST_ASSIGN:
        return sem_check_assign(s, st);
    case ST_EXPR: {
        Expr *v = st->value;
        if (!sem_type_expr(s, v)) return false;
        bool effect = (v->kind == EX_BUILTIN && (v->bi == BI_STORE || builtin_info(v->bi)->cls == BCLASS_INDEXED ||
                                                 builtin_info(v->bi)->cls == BCLASS_DEBUG) &&
                       v->bi != BI_GATHER) ||
                      v->kind == EX_CALL;
        if (!effect) diag_warning("unused-value", v->loc, "expression result unused");
        return true;
    }
    case ST_IF: {
        bool ok = st->cond->kind == EX_BUILTIN && st->cond->bi == BI_TARGET ? check_target_cond(s, st)
                                                                             : check_scalar_cond(s, st->cond, "an if statement");
        s->depth++;
        if (!check_stmt(s, st->then_s)) ok = false;
        pop_scope(s);
        if (st->else_s) {
            s->depth++;
            if (!check_stmt(s, st->else_s)) ok = false;
            pop_scope(s);
        }
        return ok;
    }
    case ST_FOR: {
        s->depth++;
        bool ok = true;
        if (st->init_s && !check_block(s, st->init_s, false)) ok = false;
        if (ok && st->cond && !check_scalar_cond(s, st->cond, "a for loop")) ok = false;
        if (ok && st->step_s && !check_stmt(s, st->step_s)) ok = false;
        s->loop_depth++;
        if (ok && !check_stmt(s, st->body)) ok = false;
        s->loop_depth--;
        pop_scope(s);
        return ok;
    }
    case ST_WHILE: {
        bool ok = check_scalar_cond(s, st->cond, "a while loop");
        s->loop_depth++;
        s->depth++;
        if (ok && !check_stmt(s, st->body)) ok = false;
        pop_scope(s);
        s->loop_depth--;
        return ok;
    }
    case ST_RETURN:
        if (s->cur_inline) {
            Func *f = s->cur_func;
            if (!st->value) return true;
            if (!sem_type_expr(s, st->value)) return false;
            if (f->ret.dtype == DT_INVALID) {
                diag_error(st->loc, "void tile function '%s' returns a value", f->name);
                return false;
            }
            if (!dtype_implicitly_converts(st->value->dtype, st->value->is_const ? &st->value->cval : NULL,
                                           f->ret.dtype)) {
                char fix[128];
                snprintf(fix, sizeof fix, "convert explicitly: tile_cast(value, %s)", f->ret.spelling);
                diag_error_fix(st->value->loc, fix, "'%s' returns %s but the value is %s", f->name,
                               dtype_name(f->ret.dtype), dtype_name(st->value->dtype));
                return false;
            }
            return true;
        }
        if (st->value) {
            diag_error(st->loc, "kernels return nothing; store results with tile_store");
            return false;
        }
        return true;
    case ST_BLOCK:
        return check_block(s, st, true);
    case ST_BREAK:
    case ST_CONTINUE:
        if (s->loop_depth == 0) {
            diag_error(st->loc, "'%s' outside a loop", st->kind == ST_BREAK ? "break" : "continue");
            return false;
        }
        return true;
    }
    return false;
}

/* ---- entry points ------------------------------------------------------- */

static bool sema_kernel(Program *p, Func *f, const int64_t *consts)
{
    Sema s = {.prog = p, .func = f, .consts = consts, .cur_func = f, .depth = 0};
    int ci = 0;
    for (int i = 0; i < f->nparams; i++) {
        Param *pa = &f->params[i];
        Symbol *sym = sem_declare(&s, pa->name, pa->loc);
        sym->kind = SYM_PARAM;
        sym->param = pa;
        sym->dtype = pa->type.dtype;
        pa->sym = sym;
        if (pa->kind == PARAM_CONST) {
            /* A constant parameter acts like a literal of its value. */
            sym->dtype = DT_INT_CONST;
            sym->is_const = true;
            int64_t v = consts ? consts[ci] : pa->specs[0];
            sym->cval = (ConstValue){.i = v, .u = (uint64_t)v};
            ci++;
        }
    }
    collect_assigned(&s, f->body);
    s.depth = 1;
    bool ok = f->body ? check_stmt(&s, f->body) : true;
    for (int i = 0; i < s.nlate; i++) s.late[i]->id = s.next_expr++;
    f->nsyms = s.next_sym;
    f->nexprs = s.next_expr;
    return ok;
}

/* Steps idx (one counter per constant parameter, the first fastest) to the
 * next combination of listed values and fills vals; false when done. */
static bool next_spec(const Func *f, int *idx, int64_t *vals, bool first)
{
    int n = ast_nconst(f);
    if (!first) {
        int j = 0, c = 0;
        for (int q = 0; q < f->nparams && j < n; q++) {
            if (f->params[q].kind != PARAM_CONST) continue;
            if (++idx[c] < f->params[q].nspecs) break;
            idx[c] = 0;
            c++;
            j++;
        }
        if (j == n) return false;
    }
    int c = 0;
    for (int q = 0; q < f->nparams; q++)
        if (f->params[q].kind == PARAM_CONST) {
            vals[c] = f->params[q].specs[idx[c]];
            c++;
        }
    return true;
}

/* A private copy of kernel f for one specialization to type. */
static Func *copy_kernel(Arena *a, const Func *f)
{
    Func *k = arena_alloc(a, sizeof *k);
    *k = *f;
    k->params = arena_alloc(a, sizeof *k->params * (size_t)(f->nparams ? f->nparams : 1));
    for (int i = 0; i < f->nparams; i++) {
        k->params[i] = f->params[i];
        k->params[i].sym = NULL;
    }
    k->body = sem_copy_stmt(a, f->body);
    k->specs = NULL;
    k->nspecs = 0;
    k->origin = f;
    return k;
}

enum { MAX_SPECS = 256 };

bool sema_program(Program *p)
{
    if (!sem_graphs(p, p->remarks)) return false; /* lowers the array kernels too */
    bool ok = true;
    for (int i = 0; i < p->nfuncs; i++) {
        Func *f = p->funcs[i];
        if (!f->is_kernel) continue;
        /* a graph's part repeats its callees' statements: their errors are theirs */
        if (f->internal && !ok) continue;
        f->specs = NULL;
        f->nspecs = 0;
        int nconst = ast_nconst(f);
        if (nconst > AST_MAX_CONSTS) {
            diag_error(f->loc, "kernel '%s' has more than %d constant parameters", f->name, AST_MAX_CONSTS);
            ok = false;
            continue;
        }
        int64_t count = 1;
        for (int q = 0; q < f->nparams; q++)
            if (f->params[q].kind == PARAM_CONST && count <= MAX_SPECS) count *= f->params[q].nspecs;
        if (count > MAX_SPECS) {
            diag_error(f->loc, "kernel '%s' has more than %d specializations", f->name, MAX_SPECS);
            ok = false;
            continue;
        }
        f->specs = arena_alloc(p->arena, sizeof *f->specs * (size_t)count);
        /* Every specialization, each typed once in its own copy: a shape
         * that only breaks for one listed value is reported too (and named
         * in a note), and code generation reads the copies. */
        int idx[AST_MAX_CONSTS] = {0};
        int64_t vals[AST_MAX_CONSTS] = {0};
        for (bool first = true; next_spec(f, idx, vals, first); first = false) {
            int before = diag_error_count();
            Func *k = copy_kernel(p->arena, f);
            if (sema_kernel(p, k, nconst ? vals : NULL)) {
                Spec *sp = &f->specs[f->nspecs++];
                memcpy(sp->vals, vals, sizeof sp->vals);
                sp->typed = k;
                continue;
            }
            ok = false;
            /* an array kernel's tile extent is tilec's choice, not the user's to hear of */
            if (nconst && diag_error_count() > before && !f->is_array_kernel) {
                char buf[256];
                ast_spec_label(f, vals, buf, sizeof buf);
                diag_note(f->loc, "in kernel '%s' compiled for %s", f->name, buf);
            }
            break;
        }
    }
    return ok;
}
