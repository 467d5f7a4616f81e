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
 * parents stay silent (no cascades). */
#include "sema/sema.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/diag.h"

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

static bool type_expr(Sema *s, Expr *e);
static bool check_stmt(Sema *s, Stmt *st);

/* ---- helpers ------------------------------------------------------------ */

static const Shape scalar_shape = {0};

static Dtype concrete_or(Dtype d, const ConstValue *v)
{
    return dtype_is_loose(d) ? dtype_concretize(d, v) : d;
}

static void set_const_int(Expr *e, int64_t v)
{
    e->is_const = true;
    e->cval = (ConstValue){.i = v, .u = (uint64_t)v};
}

static bool expect_const_int(Sema *s, Expr *e, const char *what, int64_t *out)
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

static Symbol *lookup(Sema *s, const char *name)
{
    for (Scope *sc = s->scope; sc; sc = sc->next)
        if (!strcmp(sc->sym->name, name)) return sc->sym;
    return NULL;
}

static Symbol *declare(Sema *s, const char *name, SrcLoc loc)
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

static char *fmt_shape(const Shape *sh, char *buf, size_t n)
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
        case BOP_LT: set_const_int(e, x < y); return true;
        case BOP_GT: set_const_int(e, x > y); return true;
        case BOP_LE: set_const_int(e, x <= y); return true;
        case BOP_GE: set_const_int(e, x >= y); return true;
        case BOP_EQ: set_const_int(e, x == y); return true;
        case BOP_NE: set_const_int(e, x != y); return true;
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
    set_const_int(e, r);
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
static bool promote2(SrcLoc loc, PromoteOp op, const Expr *a, const Expr *b, Promotion *out)
{
    char err[256];
    if (!dtype_promote(op, a->dtype, a->is_const ? &a->cval : NULL, b->dtype,
                       b->is_const ? &b->cval : NULL, out, err, sizeof err)) {
        diag_error(loc, "%s", err);
        return false;
    }
    return true;
}

static bool broadcast2(SrcLoc loc, const Shape *a, const Shape *b, Shape *out)
{
    char err[256];
    if (!shape_broadcast(a, b, out, err, sizeof err)) {
        diag_error(loc, "%s", err);
        return false;
    }
    return true;
}

/* ---- builtins ----------------------------------------------------------- */

static bool check_opts(Expr *e)
{
    const char *const *allowed = builtin_info(e->bi)->opts;
    bool ok = true;
    for (int i = 0; i < e->nopts; i++) {
        bool found = false;
        for (const char *const *a = allowed; *a; a++)
            if (!strcmp(*a, e->opts[i].name)) found = true;
        if (!found) {
            /* Worded as the frontend words options that no builtin has. */
            char fix[320];
            snprintf(fix, sizeof fix, "use one of tile_%s's options: ", e->name);
            for (const char *const *a = allowed; *a; a++) {
                strncat(fix, a == allowed ? "." : ", .", sizeof fix - strlen(fix) - 1);
                strncat(fix, *a, sizeof fix - strlen(fix) - 1);
            }
            if (allowed[0])
                diag_error_fix(e->opts[i].loc, fix, "unknown option '.%s' for tile_%s", e->opts[i].name, e->name);
            else
                diag_error(e->opts[i].loc, "tile_%s takes no options", e->name);
            ok = false;
        }
    }
    return ok;
}

/* A brace list of compile-time integers: .shape = {16, 8}. */
static bool const_list(Sema *s, Expr *v, const char *what, int64_t *out, int *n)
{
    if (!type_expr(s, v)) return false;
    if (v->kind != EX_LIST) {
        int64_t x;
        if (!expect_const_int(s, v, what, &x)) return false;
        out[0] = x;
        *n = 1;
        return true;
    }
    if (v->nargs > TILE_MAX_RANK) {
        diag_error(v->loc, "%s has %d entries; at most %d are supported", what, v->nargs, TILE_MAX_RANK);
        return false;
    }
    for (int i = 0; i < v->nargs; i++)
        if (!expect_const_int(s, v->args[i], what, &out[i])) return false;
    *n = v->nargs;
    return true;
}

static bool shape_option(Sema *s, Expr *e, Option *o, Shape *sh)
{
    int64_t d[TILE_MAX_RANK];
    int n;
    if (!const_list(s, o->value, "a tile shape", d, &n)) return false;
    sh->rank = n;
    for (int i = 0; i < n; i++) {
        sh->dim[i] = d[i];
        if (d[i] <= 0 || (d[i] & (d[i] - 1))) {
            Expr *at = o->value->kind == EX_LIST ? o->value->args[i] : o->value;
            diag_error_fix(at->loc, "round it up to a power of two and let padding or masking handle the rest",
                           "tile dimension %" PRId64 " is not a power of two (tile_%s, .shape entry %d)",
                           d[i], e->name, i);
            return false;
        }
    }
    int64_t numel = 1;
    for (int i = 0; i < n; i++) numel = numel > (1 << 20) ? numel : numel * sh->dim[i]; /* no overflow */
    if (numel > (1 << 20)) {
        diag_error(o->loc, "tile of %" PRId64 " elements is too large (at most 2^20)", numel);
        return false;
    }
    return true;
}

static Param *array_arg(Sema *s, Expr *e, Expr *a)
{
    if (a->kind != EX_NAME) {
        diag_error(a->loc, "the first argument of tile_%s must be an array parameter", e->name);
        return NULL;
    }
    Symbol *sym = lookup(s, a->name);
    if (!sym || sym->kind != SYM_PARAM || sym->param->kind != PARAM_ARRAY) {
        diag_error(a->loc, "'%s' is not an array parameter (declare it TILE_ARRAY(T, rank))", a->name);
        return NULL;
    }
    a->sym = sym;
    a->dtype = sym->param->type.dtype;
    a->shape = scalar_shape;
    return sym->param;
}

/* ".index has 1 entry but array 'a' has rank 2", with the fix-it that
 * spells an .index of the right length: the entries written that are a
 * name or a literal, "..." for others, 0 for the missing ones. */
static void index_count_error(Option *o, const Param *arr, int n)
{
    Expr *v = o->value;
    char list[256] = "";
    size_t len = 0;
    for (int i = 0; i < arr->rank && len < sizeof list; i++) {
        Expr *x = i >= n ? NULL : v->kind == EX_LIST ? v->args[i] : v;
        const char *sep = i ? ", " : "";
        int w;
        if (x && x->kind == EX_NAME)
            w = snprintf(list + len, sizeof list - len, "%s%s", sep, x->name);
        else if (x && x->kind == EX_INT)
            w = snprintf(list + len, sizeof list - len, "%s%" PRId64, sep, x->ival);
        else
            w = snprintf(list + len, sizeof list - len, "%s%s", sep, x ? "..." : "0");
        if (w < 0) break;
        len += (size_t)w;
    }
    char fix[320];
    snprintf(fix, sizeof fix, "give one index per dimension of '%s': .index = {%s}", arr->name, list);
    diag_error_fix(o->loc, fix, ".index has %d %s but array '%s' has rank %d", n, n == 1 ? "entry" : "entries",
                   arr->name, arr->rank);
}

static bool index_option(Sema *s, Option *o, const Param *arr)
{
    Expr *v = o->value;
    if (!type_expr(s, v)) return false;
    int n = v->kind == EX_LIST ? v->nargs : 1;
    int rank = arr->rank;
    if (n != rank) {
        index_count_error(o, arr, n);
        return false;
    }
    for (int i = 0; i < n; i++) {
        Expr *x = v->kind == EX_LIST ? v->args[i] : v;
        if (x->shape.rank != 0) {
            diag_error(x->loc, "a tile index must be a scalar, not a tile of shape %s",
                       fmt_shape(&x->shape, (char[SHAPE_FMT_MAX]){0}, SHAPE_FMT_MAX));
            return false;
        }
        if (!dtype_is_int(x->dtype) && x->dtype != DT_INT_CONST) {
            diag_error_fix(x->loc, "cast it to an integer type", "a tile index must be an integer, not %s",
                           dtype_name(x->dtype));
            return false;
        }
    }
    return true;
}

static bool order_option(Sema *s, Option *o, int rank)
{
    int64_t v[TILE_MAX_RANK];
    int n;
    if (!const_list(s, o->value, ".order", v, &n)) return false;
    if (n == 1 && (v[0] == -1 || v[0] == -2)) return true; /* TILE_ORDER_F / _C */
    if (n != rank) {
        diag_error(o->loc, ".order has %d entries but the array has rank %d", n, rank);
        return false;
    }
    bool seen[TILE_MAX_RANK] = {0};
    for (int i = 0; i < n; i++) {
        if (v[i] < 0 || v[i] >= rank || seen[v[i]]) {
            diag_error(o->loc, ".order must be a permutation of 0..%d", rank - 1);
            return false;
        }
        seen[v[i]] = true;
    }
    return true;
}

static bool builtin_mem(Sema *s, Expr *e, bool store)
{
    if (!check_opts(e)) return false;
    Param *arr = array_arg(s, e, e->args[0]);
    if (!arr) return false;
    Option *idx = ast_option(e, "index");
    Option *shp = ast_option(e, "shape");
    Option *ord = ast_option(e, "order");
    Option *pad = ast_option(e, "padding");
    Option *lat = ast_option(e, "latency");
    if (!idx) {
        diag_error_fix(e->loc, "add '.index = {...}' with one tile coordinate per dimension",
                       "tile_%s needs an .index", e->name);
        return false;
    }
    if (!index_option(s, idx, arr)) return false;
    if (ord && !order_option(s, ord, arr->rank)) return false;
    if (lat) {
        int64_t v;
        if (!type_expr(s, lat->value) || !expect_const_int(s, lat->value, ".latency", &v)) return false;
    }
    if (pad) {
        int64_t v;
        if (store) {
            diag_error(pad->loc, "tile_store takes no .padding (stores are masked)");
            return false;
        }
        if (!type_expr(s, pad->value) || !expect_const_int(s, pad->value, ".padding", &v)) return false;
        if (v < 0 || v > 5) {
            diag_error(pad->loc, ".padding must be one of TILE_PAD_*");
            return false;
        }
    }
    Shape sh = {0};
    if (shp && !shape_option(s, e, shp, &sh)) return false;
    if (!store) {
        if (!shp) {
            diag_error_fix(e->loc, "add '.shape = {...}'", "tile_load needs a .shape");
            return false;
        }
        if (sh.rank != arr->rank) {
            diag_error(shp->loc, "tile shape has rank %d but array '%s' has rank %d", sh.rank, arr->name,
                       arr->rank);
            return false;
        }
        e->dtype = arr->type.dtype;
        e->shape = sh;
        return true;
    }
    if (arr->readonly) {
        diag_error_fix(e->args[0]->loc, "drop 'const' from its TILE_ARRAY declaration",
                       "array '%s' is read-only (declared with a const element type)", arr->name);
        return false;
    }
    Expr *val = e->args[1];
    if (!type_expr(s, val)) return false;
    if (!shp) sh = val->shape;
    char err[256];
    if (!shape_broadcast_to(&val->shape, &sh, err, sizeof err)) {
        diag_error(val->loc, "stored tile does not fit the store's shape: %s", err);
        return false;
    }
    if (sh.rank != arr->rank) {
        char b[SHAPE_FMT_MAX];
        diag_error_fix(val->loc, "give .shape with one entry per array dimension",
                       "storing a tile of shape %s into array '%s' of rank %d", fmt_shape(&sh, b, sizeof b),
                       arr->name, arr->rank);
        return false;
    }
    if (!dtype_implicitly_converts(val->dtype, val->is_const ? &val->cval : NULL, arr->type.dtype)) {
        char fix[128];
        snprintf(fix, sizeof fix, "convert explicitly: tile_cast(value, %s)", arr->type.spelling);
        diag_error_fix(val->loc, fix, "cannot store a %s tile into %s array '%s' implicitly",
                       dtype_name(val->dtype), dtype_name(arr->type.dtype), arr->name);
        return false;
    }
    e->dtype = DT_INVALID; /* a statement, no value */
    e->shape = sh;         /* the stored tile's shape, for codegen */
    return true;
}

static bool builtin_factory(Sema *s, Expr *e)
{
    if (!check_opts(e)) return false;
    Option *shp = ast_option(e, "shape");
    if (!shp) {
        diag_error_fix(e->loc, "add '.shape = {...}'", "tile_%s needs a .shape", e->name);
        return false;
    }
    Shape sh;
    if (!shape_option(s, e, shp, &sh)) return false;
    Dtype t = e->args[0]->type.dtype;
    e->args[0]->dtype = t;
    if (e->bi == BI_FULL) {
        Expr *v = e->args[1];
        if (!type_expr(s, v)) return false;
        if (v->shape.rank != 0) {
            diag_error(v->loc, "the value of tile_full must be a scalar");
            return false;
        }
        if (!dtype_implicitly_converts(v->dtype, v->is_const ? &v->cval : NULL, t)) {
            diag_error_fix(v->loc, "cast the value", "cannot convert %s to %s implicitly in tile_full",
                           dtype_name(v->dtype), dtype_name(t));
            return false;
        }
    }
    if (e->bi == BI_ARANGE) {
        if (sh.rank != 1) {
            diag_error(shp->loc, "tile_arange makes 1-d tiles; give one .shape entry");
            return false;
        }
        if (t == DT_BOOL || t == DT_TFLOAT32 || t == DT_FLOAT8_E4M3FN || t == DT_FLOAT8_E5M2) {
            diag_error(e->args[0]->loc, "tile_arange does not make %s tiles", dtype_name(t));
            return false;
        }
    }
    e->dtype = t;
    e->shape = sh;
    return true;
}

static bool rounding_option(Sema *s, Expr *e, Option *o, int64_t *mode)
{
    if (!type_expr(s, o->value) || !expect_const_int(s, o->value, ".rounding", mode)) return false;
    if (*mode < 1 || *mode > 7) {
        diag_error(o->loc, ".rounding must be one of TILE_RN, TILE_RZ, TILE_RM, TILE_RP, TILE_FULL, TILE_APPROX, TILE_RZI");
        return false;
    }
    (void)e;
    return true;
}

static bool builtin_cast(Sema *s, Expr *e)
{
    if (!check_opts(e)) return false;
    Expr *x = e->args[0];
    if (!type_expr(s, x)) return false;
    Dtype to = e->args[1]->type.dtype;
    e->args[1]->dtype = to;
    Option *r = ast_option(e, "rounding");
    if (r) {
        int64_t mode;
        if (!rounding_option(s, e, r, &mode)) return false;
        Dtype from = dtype_concretize(x->dtype, &x->cval);
        bool ff = dtype_is_float(from), tf = dtype_is_float(to);
        if (mode == 7 && !(ff && (dtype_is_int(to) || to == DT_BOOL || tf))) {
            diag_error(r->loc, "TILE_RZI rounds a float to an integral value; this cast is %s to %s",
                       dtype_name(from), dtype_name(to));
            return false;
        }
        if ((mode == 5 || mode == 6)) {
            diag_error(r->loc, "TILE_FULL and TILE_APPROX apply to math functions, not casts");
            return false;
        }
        if (!ff && !tf) {
            diag_error(r->loc, "a rounding mode applies only to casts from or to a floating-point type");
            return false;
        }
    }
    Option *sat = ast_option(e, "saturate");
    if (sat) {
        int64_t v;
        if (!type_expr(s, sat->value) || !expect_const_int(s, sat->value, ".saturate", &v)) return false;
    }
    e->dtype = to;
    e->shape = x->shape;
    /* Constant casts between integer types fold, so (int64_t)4 stays constant. */
    if (x->is_const && !x->cval.is_float && dtype_is_int(to)) {
        int bits = dtype_bits(to);
        uint64_t v = (uint64_t)x->cval.i;
        if (bits < 64) {
            v &= (UINT64_C(1) << bits) - 1;
            if (dtype_is_signed(to) && (v >> (bits - 1))) v |= ~((UINT64_C(1) << bits) - 1);
        }
        set_const_int(e, (int64_t)v);
    }
    return true;
}

static bool builtin_math(Sema *s, Expr *e)
{
    if (!check_opts(e)) return false;
    for (int i = 0; i < e->nargs; i++)
        if (!type_expr(s, e->args[i])) return false;
    Option *r = ast_option(e, "rounding");
    if (r) {
        int64_t mode;
        if (!rounding_option(s, e, r, &mode)) return false;
        if (mode == 7) {
            diag_error(r->loc, "TILE_RZI applies to casts only");
            return false;
        }
    }
    for (const char *o[] = {"approx", "ftz"}, **p = o; p < o + 2; p++) {
        Option *op = ast_option(e, *p);
        int64_t v;
        if (op && (!type_expr(s, op->value) || !expect_const_int(s, op->value, "this option", &v)))
            return false;
    }
    Expr *a = e->args[0];
    if (e->nargs == 1) {
        Dtype t = a->dtype == DT_FLOAT_CONST ? DT_FLOAT32 : a->dtype;
        if (e->bi == BI_ABS) {
            if (t == DT_INT_CONST) t = dtype_concretize(t, &a->cval);
            if (t == DT_BOOL || t == DT_TFLOAT32 || t == DT_FLOAT8_E4M3FN || t == DT_FLOAT8_E5M2) {
                diag_error(a->loc, "tile_abs does not take %s", dtype_name(t));
                return false;
            }
        } else if (!dtype_is_float(t) || t == DT_TFLOAT32 || t == DT_FLOAT8_E4M3FN || t == DT_FLOAT8_E5M2) {
            char fix[96];
            snprintf(fix, sizeof fix, "cast it first: tile_%s(tile_cast(x, float))", e->name);
            diag_error_fix(a->loc, fix, "tile_%s needs a float16, bfloat16, float32 or float64 tile, not %s",
                           e->name, dtype_name(a->dtype));
            return false;
        }
        e->dtype = t;
        e->shape = a->shape;
        return true;
    }
    PromoteOp pop = e->bi == BI_TRUEDIV ? PROMOTE_TRUEDIV : PROMOTE_ARITH;
    Promotion pr;
    if (!promote2(e->loc, pop, a, e->args[1], &pr)) return false;
    Shape sh;
    if (!broadcast2(e->loc, &a->shape, &e->args[1]->shape, &sh)) return false;
    Dtype t = pr.result;
    if (e->nargs == 3) {
        Expr tmp = *e->args[1];
        tmp.dtype = pr.result;
        tmp.is_const = a->is_const && e->args[1]->is_const;
        Promotion pr2;
        if (!promote2(e->loc, PROMOTE_ARITH, &tmp, e->args[2], &pr2)) return false;
        if (!broadcast2(e->loc, &sh, &e->args[2]->shape, &sh)) return false;
        t = pr2.result;
    }
    if (t == DT_INT_CONST || t == DT_FLOAT_CONST) t = t == DT_INT_CONST ? DT_INT32 : DT_FLOAT32;
    if ((e->bi == BI_POW || e->bi == BI_FMA) && !dtype_is_float(t)) {
        diag_error_fix(e->loc, "cast an operand to a float type", "tile_%s needs floating-point operands, not %s",
                       e->name, dtype_name(t));
        return false;
    }
    e->dtype = t;
    e->shape = sh;
    return true;
}

static bool builtin_where(Sema *s, Expr *e, Expr *c, Expr *a, Expr *b)
{
    if (!type_expr(s, c) || !type_expr(s, a) || !type_expr(s, b)) return false;
    Promotion pr;
    if (!promote2(e->loc, PROMOTE_SELECT, a, b, &pr)) return false;
    Shape sh;
    if (!broadcast2(e->loc, &c->shape, &a->shape, &sh) || !broadcast2(e->loc, &sh, &b->shape, &sh))
        return false;
    e->dtype = pr.result;
    e->shape = sh;
    if (c->is_const && a->is_const && b->is_const && sh.rank == 0) {
        bool t = c->cval.is_float ? c->cval.f != 0 : c->cval.i != 0;
        e->is_const = true;
        e->cval = t ? a->cval : b->cval;
    }
    return true;
}

/* Axes given as `.axis = 1` or `.axis = {0, 2}`, negative counting from the
 * end as in NumPy; sorted, checked for range and duplicates.  *n = 0 when
 * the option is absent. */
static bool axes_option(Sema *s, Expr *e, int rank, int *axes, int *n)
{
    Option *o = ast_option(e, "axis");
    *n = 0;
    if (!o) return true;
    int64_t v[TILE_MAX_RANK];
    int k;
    if (!const_list(s, o->value, ".axis", v, &k)) return false;
    bool seen[TILE_MAX_RANK] = {0};
    for (int i = 0; i < k; i++) {
        int64_t a = v[i] < 0 ? v[i] + rank : v[i];
        if (a < 0 || a >= rank) {
            diag_error(o->loc, "axis %" PRId64 " is out of range for a tile of rank %d", v[i], rank);
            return false;
        }
        if (seen[a]) {
            diag_error(o->loc, "axis %" PRId64 " is given twice", v[i]);
            return false;
        }
        seen[a] = true;
    }
    for (int a = 0; a < rank; a++)
        if (seen[a]) axes[(*n)++] = a;
    return true;
}

/* The accumulation and result rules of reductions (docs/language.md):
 * sums and products of bool and of integers narrower than 32 bits give
 * int32 (uint32 when unsigned), wider integers and floats keep their type
 * (float16/bfloat16 accumulate in float32); max/min keep the type; argmax
 * and argmin give int32; any/all give bool. */
static Dtype reduce_result(Builtin b, Dtype t)
{
    if (b == BI_ANY || b == BI_ALL) return DT_BOOL;
    if (b == BI_ARGMAX || b == BI_ARGMIN) return DT_INT32;
    if (b == BI_SUM || b == BI_PROD) {
        if (t == DT_BOOL) return DT_INT32;
        if (dtype_is_int(t) && dtype_bits(t) < 32) return dtype_is_signed(t) ? DT_INT32 : DT_UINT32;
    }
    return t;
}

static bool builtin_reduce(Sema *s, Expr *e)
{
    if (!check_opts(e)) return false;
    Expr *x = e->args[0];
    if (!type_expr(s, x)) return false;
    Dtype t = concrete_or(x->dtype, &x->cval);
    if (t == DT_TFLOAT32 || t == DT_FLOAT8_E4M3FN || t == DT_FLOAT8_E5M2) {
        diag_error_fix(x->loc, "cast it first, e.g. tile_cast(x, float)", "tile_%s does not take %s tiles", e->name,
                       dtype_name(t));
        return false;
    }
    if (t == DT_BOOL && e->bi != BI_ANY && e->bi != BI_ALL && e->bi != BI_SUM && e->bi != BI_MAX && e->bi != BI_MIN) {
        diag_error(x->loc, "tile_%s does not take bool tiles", e->name);
        return false;
    }
    int axes[TILE_MAX_RANK], na;
    if (!axes_option(s, e, x->shape.rank, axes, &na)) return false;
    if (na == 0) {
        for (int a = 0; a < x->shape.rank; a++) axes[a] = a;
        na = x->shape.rank;
    }
    bool keep = false;
    Option *kd = ast_option(e, "keepdims");
    if (kd) {
        int64_t v;
        if (!type_expr(s, kd->value) || !expect_const_int(s, kd->value, ".keepdims", &v)) return false;
        keep = v != 0;
    }
    if ((e->bi == BI_ARGMAX || e->bi == BI_ARGMIN) && na > 1 && ast_option(e, "axis")) {
        diag_error(ast_option(e, "axis")->loc, "tile_%s takes one axis", e->name);
        return false;
    }
    Shape r = {0};
    for (int a = 0, k = 0; a < x->shape.rank; a++) {
        bool red = k < na && axes[k] == a;
        if (red) k++;
        if (red && !keep) continue;
        r.dim[r.rank++] = red ? 1 : x->shape.dim[a];
    }
    e->dtype = reduce_result(e->bi, t);
    e->shape = r;
    return true;
}

static bool shape_of_option(Sema *s, Expr *e, Shape *sh)
{
    Option *o = ast_option(e, "shape");
    if (!o) {
        diag_error_fix(e->loc, "add '.shape = {...}'", "tile_%s needs a .shape", e->name);
        return false;
    }
    return shape_option(s, e, o, sh);
}

static bool builtin_shape_op(Sema *s, Expr *e)
{
    const char *n = e->name;
    Expr *x = e->args[0];
    if (!type_expr(s, x)) return false;
    char a[SHAPE_FMT_MAX], b[SHAPE_FMT_MAX];
    e->dtype = x->dtype;
    if (x->is_const && x->shape.rank == 0) {
        e->is_const = false;
    }
    if (e->bi == BI_RESHAPE || e->bi == BI_BROADCAST_TO) {
        if (!check_opts(e)) return false;
        Shape sh;
        if (!shape_of_option(s, e, &sh)) return false;
        if (n[0] == 'r' && shape_numel(&sh) != shape_numel(&x->shape)) {
            diag_error(e->loc, "cannot reshape a tile of shape %s (%" PRId64 " elements) to %s (%" PRId64 " elements)",
                       fmt_shape(&x->shape, a, sizeof a), shape_numel(&x->shape), fmt_shape(&sh, b, sizeof b),
                       shape_numel(&sh));
            return false;
        }
        char err[256];
        if (n[0] == 'b' && !shape_broadcast_to(&x->shape, &sh, err, sizeof err)) {
            diag_error(e->loc, "%s", err);
            return false;
        }
        e->shape = sh;
        return true;
    }
    if (e->bi == BI_TRANSPOSE) {
        if (!check_opts(e)) return false;
        e->shape.rank = x->shape.rank;
        for (int i = 0; i < x->shape.rank; i++) e->shape.dim[i] = x->shape.dim[x->shape.rank - 1 - i];
        return true;
    }
    if (!check_opts(e)) return false;
    Option *o = ast_option(e, "axis");
    if (e->bi == BI_PERMUTE) {
        int64_t v[TILE_MAX_RANK];
        int k;
        if (!o) {
            diag_error_fix(e->loc, "add '.axis = {...}' with a permutation of the axes", "tile_permute needs .axis");
            return false;
        }
        if (!const_list(s, o->value, ".axis", v, &k)) return false;
        bool seen[TILE_MAX_RANK] = {0};
        if (k != x->shape.rank) {
            diag_error(o->loc, ".axis has %d entries but the tile has rank %d", k, x->shape.rank);
            return false;
        }
        for (int i = 0; i < k; i++) {
            if (v[i] < 0 || v[i] >= k || seen[v[i]]) {
                diag_error(o->loc, ".axis must be a permutation of 0..%d", k - 1);
                return false;
            }
            seen[v[i]] = true;
            e->shape.dim[i] = x->shape.dim[v[i]];
        }
        e->shape.rank = k;
        return true;
    }
    if (e->bi == BI_EXPAND_DIMS) {
        int64_t ax;
        if (!o) {
            diag_error_fix(e->loc, "add '.axis = N'", "tile_expand_dims needs .axis");
            return false;
        }
        if (!type_expr(s, o->value) || !expect_const_int(s, o->value, ".axis", &ax)) return false;
        int r = x->shape.rank + 1;
        if (ax < 0) ax += r;
        if (ax < 0 || ax >= r || r > TILE_MAX_RANK) {
            diag_error(o->loc, "axis out of range for expanding a tile of rank %d", x->shape.rank);
            return false;
        }
        e->shape.rank = r;
        for (int i = 0, j = 0; i < r; i++) e->shape.dim[i] = i == ax ? 1 : x->shape.dim[j++];
        return true;
    }
    /* squeeze */
    int axes[TILE_MAX_RANK], na;
    if (!axes_option(s, e, x->shape.rank, axes, &na)) return false;
    e->shape.rank = 0;
    for (int i = 0, k = 0; i < x->shape.rank; i++) {
        bool listed = na == 0 ? x->shape.dim[i] == 1 : (k < na && axes[k] == i);
        if (listed) {
            k++;
            if (x->shape.dim[i] != 1) {
                diag_error(o->loc, "cannot squeeze axis %d of size %" PRId64, i, x->shape.dim[i]);
                return false;
            }
            continue;
        }
        e->shape.dim[e->shape.rank++] = x->shape.dim[i];
    }
    return true;
}

/* .index of gather/scatter/atomics: one integer tile (or scalar) per array
 * dimension; their broadcast shape, with `extra` (the value tile, may be
 * NULL), is the shape of the operation. */
static bool index_tiles(Sema *s, Expr *e, Param *arr, Expr *extra, Shape *out)
{
    Option *idx = ast_option(e, "index");
    if (!idx) {
        diag_error_fix(e->loc, "add '.index = {...}' with one index tile per array dimension",
                       "tile_%s needs an .index", e->name);
        return false;
    }
    Expr *v = idx->value;
    if (!type_expr(s, v)) return false;
    int n = v->kind == EX_LIST ? v->nargs : 1;
    if (n != arr->rank) {
        index_count_error(idx, arr, n);
        return false;
    }
    Shape sh = extra ? extra->shape : scalar_shape;
    for (int i = 0; i < n; i++) {
        Expr *x = v->kind == EX_LIST ? v->args[i] : v;
        if (!dtype_is_int(x->dtype) && x->dtype != DT_INT_CONST) {
            diag_error_fix(x->loc, "cast it to an integer type", "an index tile must hold integers, not %s",
                           dtype_name(x->dtype));
            return false;
        }
        if (!broadcast2(x->loc, &sh, &x->shape, &sh)) return false;
    }
    *out = sh;
    return true;
}

static bool builtin_gather_scatter(Sema *s, Expr *e)
{
    const char *n = e->name;
    bool gather = e->bi == BI_GATHER;
    bool atomic = e->bi != BI_GATHER && e->bi != BI_SCATTER;
    if (!check_opts(e)) return false;
    Param *arr = array_arg(s, e, e->args[0]);
    if (!arr) return false;
    if (!gather && arr->readonly) {
        diag_error_fix(e->args[0]->loc, "drop 'const' from its TILE_ARRAY declaration",
                       "array '%s' is read-only (declared with a const element type)", arr->name);
        return false;
    }
    Dtype at = arr->type.dtype;
    Expr *val = NULL;
    for (int i = 1; i < e->nargs; i++) {
        Expr *v = e->args[i];
        if (!type_expr(s, v)) return false;
        if (!dtype_implicitly_converts(v->dtype, v->is_const ? &v->cval : NULL, at)) {
            char fix[128];
            snprintf(fix, sizeof fix, "convert explicitly: tile_cast(value, %s)", arr->type.spelling);
            diag_error_fix(v->loc, fix, "cannot use a %s tile with %s array '%s' implicitly", dtype_name(v->dtype),
                           dtype_name(at), arr->name);
            return false;
        }
        if (val) {
            Shape sh;
            if (!broadcast2(v->loc, &val->shape, &v->shape, &sh)) return false;
            Expr *tmp = arena_alloc(s->prog->arena, sizeof *tmp);
            *tmp = *v;
            tmp->shape = sh;
            val = tmp;
        } else {
            val = v;
        }
    }
    Shape sh;
    if (!index_tiles(s, e, arr, val, &sh)) return false;
    Option *pad = ast_option(e, "padding");
    int64_t iv;
    if (pad && (!type_expr(s, pad->value) || !expect_const_int(s, pad->value, ".padding", &iv))) return false;
    for (const char *o[] = {"memory_order", "scope"}, **q = o; q < o + 2; q++) {
        Option *op = ast_option(e, *q);
        if (op && (!type_expr(s, op->value) || !expect_const_int(s, op->value, *q, &iv))) return false;
        if (op && (iv < 1 || iv > (**q == 'm' ? 5 : 3))) {
            diag_error(op->loc, "invalid .%s (use the TILE_%s constants)", *q, **q == 'm' ? "RELAXED ... TILE_SEQ_CST" : "SCOPE_*");
            return false;
        }
    }
    if (atomic) {
        /* add and sub: integers and floats; cas and the bitwise ones:
         * integers; max, min, xchg: any 32- or 64-bit type */
        bool ints = at == DT_INT32 || at == DT_UINT32 || at == DT_INT64 || at == DT_UINT64;
        bool arith = e->bi == BI_ATOMIC_ADD || e->bi == BI_ATOMIC_SUB;
        bool int_only = e->bi == BI_ATOMIC_CAS || e->bi == BI_ATOMIC_AND || e->bi == BI_ATOMIC_OR || e->bi == BI_ATOMIC_XOR;
        bool ok = arith ? ints || at == DT_FLOAT32 || at == DT_FLOAT64 : int_only ? ints
                : dtype_bits(at) >= 32 && at != DT_TFLOAT32;
        if (!ok) {
            diag_error(e->args[0]->loc, "tile_%s does not support %s arrays (32- and 64-bit %s)", n, dtype_name(at),
                       arith ? "integers and floats" : int_only ? "integers only" : "types");
            return false;
        }
    }
    e->dtype = gather || atomic ? at : DT_INVALID;
    e->shape = sh;
    return true;
}

static bool builtin_cat(Sema *s, Expr *e)
{
    if (!check_opts(e)) return false;
    Expr *a = e->args[0], *b = e->args[1];
    if (!type_expr(s, a) || !type_expr(s, b)) return false;
    int64_t ax = 0;
    Option *o = ast_option(e, "axis");
    if (o && (!type_expr(s, o->value) || !expect_const_int(s, o->value, ".axis", &ax))) return false;
    char x[SHAPE_FMT_MAX], y[SHAPE_FMT_MAX];
    if (a->shape.rank != b->shape.rank || a->shape.rank == 0) {
        diag_error(e->loc, "tile_cat needs two tiles of the same rank (at least 1), not %s and %s",
                   fmt_shape(&a->shape, x, sizeof x), fmt_shape(&b->shape, y, sizeof y));
        return false;
    }
    if (ax < 0) ax += a->shape.rank;
    if (ax < 0 || ax >= a->shape.rank) {
        diag_error(o ? o->loc : e->loc, "axis out of range for tiles of rank %d", a->shape.rank);
        return false;
    }
    for (int i = 0; i < a->shape.rank; i++)
        if (a->shape.dim[i] != b->shape.dim[i]) {
            diag_error(e->loc, "tile_cat of %s and %s: the tiles must have equal shapes (the result's dimensions are powers of two)",
                       fmt_shape(&a->shape, x, sizeof x), fmt_shape(&b->shape, y, sizeof y));
            return false;
        }
    Promotion pr;
    if (!promote2(e->loc, PROMOTE_SELECT, a, b, &pr)) return false;
    e->dtype = concrete_or(pr.result, &a->cval);
    e->shape = a->shape;
    e->shape.dim[ax] *= 2;
    return true;
}

static bool builtin_extract(Sema *s, Expr *e)
{
    if (!check_opts(e)) return false;
    Expr *x = e->args[0];
    if (!type_expr(s, x)) return false;
    Shape sh;
    if (!shape_of_option(s, e, &sh)) return false;
    Option *io = ast_option(e, "index");
    if (!io) {
        diag_error_fix(e->loc, "add '.index = {...}' (in units of the extracted shape)", "tile_extract needs an .index");
        return false;
    }
    int64_t idx[TILE_MAX_RANK];
    int n;
    if (!const_list(s, io->value, "a tile_extract index", idx, &n)) return false;
    char a[SHAPE_FMT_MAX], b[SHAPE_FMT_MAX];
    if (n != x->shape.rank || sh.rank != x->shape.rank) {
        diag_error(e->loc, "tile_extract of a rank-%d tile needs .index and .shape of rank %d", x->shape.rank, x->shape.rank);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (idx[i] < 0 || idx[i] >= x->shape.dim[i] / sh.dim[i]) { /* no overflow for huge indices */
            diag_error(io->loc, "sub-tile %s at index %d of dimension %d lies outside the tile %s",
                       fmt_shape(&sh, a, sizeof a), (int)idx[i], i, fmt_shape(&x->shape, b, sizeof b));
            return false;
        }
    e->dtype = x->dtype;
    e->shape = sh;
    return true;
}

static bool builtin_scan(Sema *s, Expr *e)
{
    if (!check_opts(e)) return false;
    Expr *x = e->args[0];
    if (!type_expr(s, x)) return false;
    if (x->shape.rank == 0) {
        diag_error(x->loc, "tile_%s needs a tile, not a scalar", e->name);
        return false;
    }
    int64_t v;
    Option *o = ast_option(e, "axis");
    if (o) {
        if (!type_expr(s, o->value) || !expect_const_int(s, o->value, ".axis", &v)) return false;
        if (v < -x->shape.rank || v >= x->shape.rank) {
            diag_error(o->loc, "axis %d is out of range for a tile of rank %d", (int)v, x->shape.rank);
            return false;
        }
    }
    for (const char *q[] = {"exclusive", "reverse"}, **p = q; p < q + 2; p++) {
        Option *op = ast_option(e, *p);
        if (op && (!type_expr(s, op->value) || !expect_const_int(s, op->value, *p, &v))) return false;
    }
    Dtype t = concrete_or(x->dtype, &x->cval);
    if (t == DT_TFLOAT32 || t == DT_FLOAT8_E4M3FN || t == DT_FLOAT8_E5M2) {
        diag_error(x->loc, "tile_%s does not take %s tiles", e->name, dtype_name(t));
        return false;
    }
    e->dtype = reduce_result(e->bi == BI_CUMSUM ? BI_SUM : BI_PROD, t);
    e->shape = x->shape;
    return true;
}

/* tile_mma(a, b, acc) and tile_matmul(a, b): a (M,K) times b (K,N) on
 * tensor cores.  Inputs float16, bfloat16, tfloat32, float8 (both formats)
 * or int8, both of one type; float inputs accumulate in float32, int8 in
 * int32; M, N and K at least 16. */
static bool builtin_mma(Sema *s, Expr *e)
{
    if (!check_opts(e)) return false;
    for (int i = 0; i < e->nargs; i++)
        if (!type_expr(s, e->args[i])) return false;
    Expr *a = e->args[0], *b = e->args[1];
    char x[SHAPE_FMT_MAX], y[SHAPE_FMT_MAX];
    if (a->shape.rank != 2 || b->shape.rank != 2 || a->shape.dim[1] != b->shape.dim[0]) {
        diag_error(e->loc, "tile_%s multiplies an (M,K) tile by a (K,N) tile, not %s by %s", e->name,
                   fmt_shape(&a->shape, x, sizeof x), fmt_shape(&b->shape, y, sizeof y));
        return false;
    }
    Dtype t = a->dtype;
    bool fl = t == DT_FLOAT16 || t == DT_BFLOAT16 || t == DT_TFLOAT32 || t == DT_FLOAT8_E4M3FN || t == DT_FLOAT8_E5M2;
    if (b->dtype != t || !(fl || t == DT_INT8)) {
        diag_error_fix(e->loc, "cast both operands to one of float16, bfloat16, tfloat32, float8 or int8",
                       "tile_%s takes two float16, bfloat16, tfloat32, float8 or int8 tiles, not %s and %s", e->name,
                       dtype_name(t), dtype_name(b->dtype));
        return false;
    }
    int64_t M = a->shape.dim[0], K = a->shape.dim[1], N = b->shape.dim[1];
    if (M < 16 || N < 16 || K < 16) {
        diag_error(e->loc, "tile_%s needs M, N and K of at least 16 (the tensor-core tile), not M=%lld N=%lld K=%lld", e->name,
                   (long long)M, (long long)N, (long long)K);
        return false;
    }
    Dtype acc = fl ? DT_FLOAT32 : DT_INT32;
    e->shape = (Shape){.rank = 2, .dim = {M, N}};
    e->dtype = acc;
    if (e->nargs == 3) {
        Expr *c = e->args[2];
        if (c->dtype != acc || !shape_equal(&c->shape, &e->shape)) {
            char z[SHAPE_FMT_MAX];
            fmt_shape(&e->shape, z, sizeof z);
            diag_error(c->loc, "the accumulator of tile_mma must be a %s tile of shape %s, not %s %s", dtype_name(acc), z,
                       dtype_name(c->dtype), fmt_shape(&c->shape, x, sizeof x));
            return false;
        }
    }
    return true;
}

static bool type_builtin(Sema *s, Expr *e)
{
    const char *n = e->name;
    switch (e->bi) {
    case BI_BID:
    case BI_NUM_BLOCKS: {
        int64_t axis;
        if (!type_expr(s, e->args[0]) || !expect_const_int(s, e->args[0], "the axis", &axis)) return false;
        if (axis < 0 || axis > 2) {
            diag_error(e->args[0]->loc, "tile_%s axis must be 0, 1 or 2", n);
            return false;
        }
        e->dtype = DT_INT32;
        e->shape = scalar_shape;
        return true;
    }
    case BI_DIM: {
        Param *arr = array_arg(s, e, e->args[0]);
        int64_t axis;
        if (!arr || !type_expr(s, e->args[1]) || !expect_const_int(s, e->args[1], "the axis", &axis))
            return false;
        if (axis < 0 || axis >= arr->rank) {
            diag_error(e->args[1]->loc, "axis %" PRId64 " is out of range for array '%s' of rank %d", axis,
                       arr->name, arr->rank);
            return false;
        }
        e->dtype = DT_INT64;
        e->shape = scalar_shape;
        return true;
    }
    case BI_LOAD: return builtin_mem(s, e, false);
    case BI_STORE: return builtin_mem(s, e, true);
    case BI_ZEROS: case BI_ONES: case BI_FULL: case BI_ARANGE: return builtin_factory(s, e);
    case BI_CAST: return builtin_cast(s, e);
    case BI_EXP: case BI_EXP2: case BI_LOG: case BI_LOG2: case BI_SQRT: case BI_RSQRT: case BI_SIN: case BI_COS:
    case BI_TANH: case BI_ABS: case BI_FLOOR: case BI_CEIL:
    case BI_POW: case BI_FMA: case BI_MINIMUM: case BI_MAXIMUM: case BI_TRUEDIV:
        return builtin_math(s, e);
    case BI_WHERE: return builtin_where(s, e, e->args[0], e->args[1], e->args[2]);
    case BI_SUM: case BI_PROD: case BI_MAX: case BI_MIN: case BI_ARGMAX: case BI_ARGMIN: case BI_ANY: case BI_ALL:
        return builtin_reduce(s, e);
    case BI_GATHER: case BI_SCATTER: case BI_ATOMIC_ADD: case BI_ATOMIC_MAX: case BI_ATOMIC_MIN: case BI_ATOMIC_XCHG:
    case BI_ATOMIC_CAS: case BI_ATOMIC_SUB: case BI_ATOMIC_AND: case BI_ATOMIC_OR: case BI_ATOMIC_XOR:
        return builtin_gather_scatter(s, e);
    case BI_CAT: return builtin_cat(s, e);
    case BI_MMA: case BI_MATMUL: return builtin_mma(s, e);
    case BI_EXTRACT: return builtin_extract(s, e);
    case BI_CUMSUM: case BI_CUMPROD: return builtin_scan(s, e);
    case BI_RESHAPE: case BI_BROADCAST_TO: case BI_TRANSPOSE: case BI_PERMUTE: case BI_EXPAND_DIMS: case BI_SQUEEZE:
        return builtin_shape_op(s, e);
    case BI_NONE: case BI_COUNT: break;
    }
    diag_error(e->loc, "tile_%s is not supported by this version of tilec yet", n);
    return false;
}

/* ---- tile-function inlining -------------------------------------------- */

static Expr *copy_expr(Arena *a, const Expr *e);

static Stmt *copy_stmt(Arena *a, const Stmt *s)
{
    if (!s) return NULL;
    Stmt *n = arena_alloc(a, sizeof *n);
    *n = *s;
    n->init = copy_expr(a, s->init);
    n->target = copy_expr(a, s->target);
    n->value = copy_expr(a, s->value);
    n->cond = copy_expr(a, s->cond);
    n->then_s = copy_stmt(a, s->then_s);
    n->else_s = copy_stmt(a, s->else_s);
    n->init_s = copy_stmt(a, s->init_s);
    n->step_s = copy_stmt(a, s->step_s);
    n->body = copy_stmt(a, s->body);
    if (s->nitems) {
        n->items = arena_alloc(a, sizeof(Stmt *) * (size_t)s->nitems);
        for (int i = 0; i < s->nitems; i++) n->items[i] = copy_stmt(a, s->items[i]);
    }
    return n;
}

static Expr *copy_expr(Arena *a, const Expr *e)
{
    if (!e) return NULL;
    Expr *n = arena_alloc(a, sizeof *n);
    *n = *e;
    n->a = copy_expr(a, e->a);
    n->b = copy_expr(a, e->b);
    n->c = copy_expr(a, e->c);
    if (e->nargs) {
        n->args = arena_alloc(a, sizeof(Expr *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++) n->args[i] = copy_expr(a, e->args[i]);
    }
    if (e->nopts) {
        n->opts = arena_alloc(a, sizeof(Option) * (size_t)e->nopts);
        for (int i = 0; i < e->nopts; i++) {
            n->opts[i] = e->opts[i];
            n->opts[i].value = copy_expr(a, e->opts[i].value);
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
    if (f->ret.dtype != DT_INVALID && (!ret || !ret->value)) {
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
        if (!type_expr(s, a)) return false;
        if (!dtype_implicitly_converts(a->dtype, a->is_const ? &a->cval : NULL, p->type.dtype)) {
            char fix[128];
            snprintf(fix, sizeof fix, "convert explicitly: tile_cast(arg, %s)", p->type.spelling);
            diag_error_fix(a->loc, fix, "argument %d of '%s' is %s; parameter '%s' is %s", i + 1, f->name,
                           dtype_name(a->dtype), p->name, dtype_name(p->type.dtype));
            return false;
        }
    }
    Inline *in = arena_alloc(s->prog->arena, sizeof *in);
    in->body = copy_stmt(s->prog->arena, f->body);
    in->params = syms;
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
        Symbol *sym = declare(s, f->params[i].name, f->params[i].loc);
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
    if (f->ret.dtype != DT_INVALID) {
        Expr *rv = in->body->items[in->body->nitems - 1]->value;
        in->ret_expr = rv;
        e->dtype = f->ret.dtype;
        e->shape = rv->shape;
    } else {
        e->dtype = DT_INVALID;
        e->shape = scalar_shape;
    }
    return true;
}

/* ---- expressions -------------------------------------------------------- */

static bool type_expr_inner(Sema *s, Expr *e);

/* Every tile, however it arises (a broadcast too), is at most 2^20 elements. */
static bool type_expr(Sema *s, Expr *e)
{
    if (!type_expr_inner(s, e)) return false;
    int64_t n = shape_numel(&e->shape);
    if (n < 0 || n > (1 << 20)) {
        char b[SHAPE_FMT_MAX];
        diag_error(e->loc, "a tile of shape %s is too large (at most 2^20 elements)", fmt_shape(&e->shape, b, sizeof b));
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
    e->shape = scalar_shape;
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
        Symbol *sym = lookup(s, e->name);
        if (!sym) {
            diag_error(e->loc, "'%s' is not visible in tile code here", e->name);
            return false;
        }
        e->sym = sym;
        if (sym->kind == SYM_PARAM && sym->param->kind == PARAM_ARRAY) {
            diag_error_fix(e->loc, "load a tile: tile_load(array, .index = {...}, .shape = {...})",
                           "array '%s' used as a value", e->name);
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
        if (!type_expr(s, a)) return false;
        e->shape = a->shape;
        switch ((UnaryOp)e->op) {
        case UOP_NOT:
            e->dtype = DT_BOOL;
            if (a->is_const) set_const_int(e, a->cval.is_float ? a->cval.f == 0 : a->cval.i == 0);
            return true;
        case UOP_BITNOT:
            if (!dtype_is_int(a->dtype) && a->dtype != DT_INT_CONST && a->dtype != DT_BOOL) {
                diag_error(e->loc, "'~' needs an integer or bool operand, not %s", dtype_name(a->dtype));
                return false;
            }
            e->dtype = a->dtype;
            if (a->is_const) set_const_int(e, ~a->cval.i);
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
        if (!type_expr(s, e->a) || !type_expr(s, e->b)) return false;
        Promotion pr;
        if (!promote2(e->loc, promote_class((BinaryOp)e->op), e->a, e->b, &pr)) return false;
        if (!broadcast2(e->loc, &e->a->shape, &e->b->shape, &e->shape)) return false;
        e->dtype = pr.result;
        e->op_dtype = pr.operand;
        return fold_binary(e, e->a, e->b);
    }
    case EX_COND:
        return builtin_where(s, e, e->a, e->b, e->c);
    case EX_CAST: {
        if (!type_expr(s, e->a)) return false;
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
        return type_builtin(s, e);
    case EX_LIST: {
        bool ok = true;
        for (int i = 0; i < e->nargs; i++)
            if (!type_expr(s, e->args[i])) ok = false;
        e->dtype = DT_INVALID;
        return ok;
    }
    }
    return false;
}

/* ---- statements --------------------------------------------------------- */

static bool check_scalar_cond(Sema *s, Expr *c, const char *what)
{
    if (!type_expr(s, c)) return false;
    if (c->shape.rank != 0) {
        char b[SHAPE_FMT_MAX];
        diag_error_fix(c->loc, "select element-wise with tile_where(cond, a, b) or cond ? a : b",
                       "the condition of %s must be a scalar, not a tile of shape %s", what,
                       fmt_shape(&c->shape, b, sizeof b));
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

static bool check_decl(Sema *s, Stmt *st)
{
    Expr *v = st->init;
    if (!type_expr(s, v)) {
        Symbol *sym = declare(s, st->name, st->name_loc);
        sym->dtype = DT_INVALID; /* silences later uses */
        st->sym = sym;
        return false;
    }
    if (v->dtype == DT_INVALID) {
        diag_error(v->loc, "'%s' is initialized with an expression that has no value", st->name);
        st->sym = declare(s, st->name, st->name_loc);
        st->sym->dtype = DT_INVALID;
        return false;
    }
    Dtype t = st->type.is_auto ? dtype_concretize(v->dtype, &v->cval) : st->type.dtype;
    if (!st->type.is_auto &&
        !dtype_implicitly_converts(v->dtype, v->is_const ? &v->cval : NULL, t)) {
        Symbol *bad = declare(s, st->name, st->name_loc);
        bad->dtype = DT_INVALID; /* later uses stay silent: one error per cause */
        st->sym = bad;
        char fix[160];
        snprintf(fix, sizeof fix, "convert explicitly: tile_cast(value, %s), or declare it 'auto'",
                 st->type.spelling);
        if (v->is_const && dtype_is_loose(v->dtype))
            diag_error(v->loc, "constant does not fit '%s' of type %s", st->name, dtype_name(t));
        else
            diag_error_fix(v->loc, fix, "cannot initialize %s variable '%s' with a %s value implicitly",
                           dtype_name(t), st->name, dtype_name(v->dtype));
        return false;
    }
    warn_narrow_reduction(v, t);
    Symbol *sym = declare(s, st->name, st->name_loc);
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
static void add_late(Sema *s, Expr *e)
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
    add_late(s, x);
    add_late(s, bin);
    st->value = bin;
    st->op = -1;
    st->desugared = true;
}

static bool check_assign(Sema *s, Stmt *st)
{
    Expr *t = st->target;
    if (!type_expr(s, t)) return false;
    Symbol *sym = t->sym;
    if (sym->kind == SYM_PARAM) {
        diag_error(t->loc, "parameter '%s' cannot be assigned", sym->name);
        return false;
    }
    if (!type_expr(s, st->value)) return false;
    Expr *v = st->value;
    Dtype vt = v->dtype;
    Shape vs = v->shape;
    if (st->op >= 0) {
        Promotion pr;
        if (!promote2(st->loc, promote_class((BinaryOp)st->op), t, v, &pr)) return false;
        if (!broadcast2(st->loc, &t->shape, &v->shape, &vs)) return false;
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
                   sym->name, fmt_shape(&sym->shape, a, sizeof a), fmt_shape(&vs, b, sizeof b));
        return false;
    }
    return true;
}

static bool check_stmt(Sema *s, Stmt *st)
{
    switch (st->kind) {
    case ST_DECL:
        return check_decl(s, st);
    case ST_ASSIGN:
        return check_assign(s, st);
    case ST_EXPR: {
        Expr *v = st->value;
        if (!type_expr(s, v)) return false;
        bool effect = (v->kind == EX_BUILTIN && (v->bi == BI_STORE || builtin_info(v->bi)->cls == BCLASS_INDEXED) &&
                       v->bi != BI_GATHER) ||
                      v->kind == EX_CALL;
        if (!effect) diag_warning("unused-value", v->loc, "expression result unused");
        return true;
    }
    case ST_IF: {
        bool ok = check_scalar_cond(s, st->cond, "an if statement");
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
            if (!type_expr(s, st->value)) return false;
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
        Symbol *sym = declare(&s, pa->name, pa->loc);
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
    k->body = copy_stmt(a, f->body);
    k->specs = NULL;
    k->nspecs = 0;
    k->origin = f;
    return k;
}

enum { MAX_SPECS = 256 };

bool sema_program(Program *p)
{
    bool ok = true;
    for (int i = 0; i < p->nfuncs; i++) {
        Func *f = p->funcs[i];
        if (!f->is_kernel) continue;
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
            if (nconst && diag_error_count() > before) {
                char buf[256];
                ast_spec_label(f, vals, buf, sizeof buf);
                diag_note(f->loc, "in kernel '%s' compiled for %s", f->name, buf);
            }
            break;
        }
    }
    return ok;
}
