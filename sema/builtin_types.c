/* builtin_types.c: the typing of builtin calls (tile_load, tile_zeros,
 * tile_exp, tile_sum, tile_gather, tile_atomic_*, tile_mma ...): which
 * options each takes, the dtypes and shapes of its arguments and result,
 * and the compile-time constants among its options, reported at the user's
 * file:line:col.  Part of the semantic pass (sema.c types the rest of an
 * expression; sema_impl.h is what the two share). */
#include "sema/sema_impl.h"
#include "sema/view.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/diag.h"

/* tilec.h's TILE_CONSUME and TILE_SCOPE_THREAD, which only SIMT atomics take. */
enum { TILE_CONSUME_ = 6, TILE_SCOPE_THREAD_ = 4 };

bool sem_check_opts(Expr *e)
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
bool sem_const_list(Sema *s, Expr *v, const char *what, int64_t *out, int *n)
{
    if (!sem_type_expr(s, v)) return false;
    if (v->kind != EX_LIST) {
        int64_t x;
        if (!sem_expect_const_int(s, v, what, &x)) return false;
        out[0] = x;
        *n = 1;
        return true;
    }
    if (v->nargs > TILE_MAX_RANK) {
        diag_error(v->loc, "%s has %d entries; at most %d are supported", what, v->nargs, TILE_MAX_RANK);
        return false;
    }
    for (int i = 0; i < v->nargs; i++)
        if (!sem_expect_const_int(s, v->args[i], what, &out[i])) return false;
    *n = v->nargs;
    return true;
}

static bool shape_option(Sema *s, Expr *e, Option *o, Shape *sh)
{
    int64_t d[TILE_MAX_RANK];
    int n;
    if (!sem_const_list(s, o->value, "a tile shape", d, &n)) return false;
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

bool sem_padding_option(Sema *s, Option *o, int64_t *v)
{
    if (!sem_type_expr(s, o->value) || !sem_expect_const_int(s, o->value, ".padding", v)) return false;
    if (*v < 0 || *v > 5) {
        diag_error(o->loc, ".padding must be one of TILE_PAD_*");
        return false;
    }
    return true;
}

Param *sem_array_arg(Sema *s, Expr *e, Expr *a, bool views_ok)
{
    if (a->kind == EX_BUILTIN && builtin_info(a->bi)->cls == BCLASS_VIEW) {
        diag_error_fix(a->loc, "declare the view first: TILE_VIEW(T, rank) v = tile_...(array, ...); then pass v",
                       "tile_%s builds a view; it is only the value of a TILE_VIEW declaration", a->name);
        return NULL;
    }
    if (a->kind != EX_NAME) {
        diag_error(a->loc, "the first argument of tile_%s must be an array parameter", e->name);
        return NULL;
    }
    Symbol *sym = sem_lookup(s, a->name);
    if (s->func->is_array_kernel && sym && sym->kind == SYM_VAR && !sym->view) {
        /* a lowered array kernel (sema/array_kernel.c) names each array's
         * tile after the array: the array is the parameter behind it */
        for (Scope *sc = s->scope; sc; sc = sc->next)
            if (!strcmp(sc->sym->name, a->name) && sc->sym->kind == SYM_PARAM) {
                sym = sc->sym;
                break;
            }
    }
    if (sym && sym->kind == SYM_VAR && sym->dtype == DT_INVALID && !sym->view) return NULL; /* reported at its declaration */
    if (sym && sym->view) {
        if (!views_ok) {
            diag_error_fix(a->loc, "pass the array itself, or read the view with tile_load",
                           "tile_%s takes an array, not a view ('%s')", e->name, a->name);
            return NULL;
        }
        a->sym = sym;
        a->dtype = sym->view->base->type.dtype;
        a->shape = sem_scalar_shape;
        return sym->view->as_param;
    }
    if (!sym || sym->kind != SYM_PARAM || sym->param->kind != PARAM_ARRAY) {
        diag_error(a->loc, "'%s' is not an array parameter (declare it TILE_ARRAY(T, rank))", a->name);
        return NULL;
    }
    a->sym = sym;
    a->dtype = sym->param->type.dtype;
    a->shape = sem_scalar_shape;
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
    if (!sem_type_expr(s, v)) return false;
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
                       sem_fmt_shape(&x->shape, (char[SHAPE_FMT_MAX]){0}, SHAPE_FMT_MAX));
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
    if (!sem_const_list(s, o->value, ".order", v, &n)) return false;
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
    if (!sem_check_opts(e)) return false;
    Param *arr = sem_array_arg(s, e, e->args[0], true);
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
        if (!sem_type_expr(s, lat->value) || !sem_expect_const_int(s, lat->value, ".latency", &v)) return false;
    }
    if (pad) {
        int64_t v;
        if (store) {
            diag_error(pad->loc, "tile_store takes no .padding (stores are masked)");
            return false;
        }
        if (!sem_padding_option(s, pad, &v)) return false;
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
        sem_view_rewrite(s, e, false);
        return true;
    }
    const View *vw = sem_view_named(s, e->args[0]);
    if (vw) {
        char why[256];
        if (arr->readonly) {
            diag_error(e->args[0]->loc, "view '%s' is read-only (it or its array '%s' has a const element type)",
                       arr->name, vw->base->name);
            return false;
        }
        if (!view_storable(vw, why, sizeof why)) {
            diag_error(e->args[0]->loc, "tile_store cannot write through view '%s': %s", arr->name, why);
            return false;
        }
    } else if (arr->readonly) {
        diag_error_fix(e->args[0]->loc, "drop 'const' from its TILE_ARRAY declaration",
                       "array '%s' is read-only (declared with a const element type)", arr->name);
        return false;
    }
    Expr *val = e->args[1];
    if (!sem_type_expr(s, val)) return false;
    if (!shp) sh = val->shape;
    char err[256];
    if (!shape_broadcast_to(&val->shape, &sh, err, sizeof err)) {
        diag_error(val->loc, "stored tile does not fit the store's shape: %s", err);
        return false;
    }
    if (sh.rank != arr->rank) {
        char b[SHAPE_FMT_MAX];
        diag_error_fix(val->loc, "give .shape with one entry per array dimension",
                       "storing a tile of shape %s into array '%s' of rank %d", sem_fmt_shape(&sh, b, sizeof b),
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
    sem_view_rewrite(s, e, true);
    return true;
}

static bool builtin_factory(Sema *s, Expr *e)
{
    if (!sem_check_opts(e)) return false;
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
        if (!sem_type_expr(s, v)) return false;
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
    if (!sem_type_expr(s, o->value) || !sem_expect_const_int(s, o->value, ".rounding", mode)) return false;
    if (*mode < 1 || *mode > 7) {
        diag_error(o->loc, ".rounding must be one of TILE_RN, TILE_RZ, TILE_RM, TILE_RP, TILE_FULL, TILE_APPROX, TILE_RZI");
        return false;
    }
    (void)e;
    return true;
}

static bool builtin_cast(Sema *s, Expr *e)
{
    if (!sem_check_opts(e)) return false;
    Expr *x = e->args[0];
    if (!sem_type_expr(s, x)) return false;
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
        if (!sem_type_expr(s, sat->value) || !sem_expect_const_int(s, sat->value, ".saturate", &v)) return false;
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
        sem_set_const_int(e, (int64_t)v);
    }
    return true;
}

static bool builtin_math(Sema *s, Expr *e)
{
    if (!sem_check_opts(e)) return false;
    for (int i = 0; i < e->nargs; i++)
        if (!sem_type_expr(s, e->args[i])) return false;
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
        if (op && (!sem_type_expr(s, op->value) || !sem_expect_const_int(s, op->value, "this option", &v)))
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
    if (!sem_promote2(e->loc, pop, a, e->args[1], &pr)) return false;
    Shape sh;
    if (!sem_broadcast2(e->loc, &a->shape, &e->args[1]->shape, &sh)) return false;
    Dtype t = pr.result;
    if (e->nargs == 3) {
        Expr tmp = *e->args[1];
        tmp.dtype = pr.result;
        tmp.is_const = a->is_const && e->args[1]->is_const;
        Promotion pr2;
        if (!sem_promote2(e->loc, PROMOTE_ARITH, &tmp, e->args[2], &pr2)) return false;
        if (!sem_broadcast2(e->loc, &sh, &e->args[2]->shape, &sh)) return false;
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

bool sem_builtin_where(Sema *s, Expr *e, Expr *c, Expr *a, Expr *b)
{
    if (!sem_type_expr(s, c) || !sem_type_expr(s, a) || !sem_type_expr(s, b)) return false;
    Promotion pr;
    if (!sem_promote2(e->loc, PROMOTE_SELECT, a, b, &pr)) return false;
    Shape sh;
    if (!sem_broadcast2(e->loc, &c->shape, &a->shape, &sh) || !sem_broadcast2(e->loc, &sh, &b->shape, &sh))
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
    if (!sem_const_list(s, o->value, ".axis", v, &k)) return false;
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
    if (!sem_check_opts(e)) return false;
    Expr *x = e->args[0];
    if (!sem_type_expr(s, x)) return false;
    Dtype t = sem_concrete_or(x->dtype, &x->cval);
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
        if (!sem_type_expr(s, kd->value) || !sem_expect_const_int(s, kd->value, ".keepdims", &v)) return false;
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
    if (!sem_type_expr(s, x)) return false;
    char a[SHAPE_FMT_MAX], b[SHAPE_FMT_MAX];
    e->dtype = x->dtype;
    if (x->is_const && x->shape.rank == 0) {
        e->is_const = false;
    }
    if (e->bi == BI_RESHAPE || e->bi == BI_BROADCAST_TO) {
        if (!sem_check_opts(e)) return false;
        Shape sh;
        if (!shape_of_option(s, e, &sh)) return false;
        if (n[0] == 'r' && shape_numel(&sh) != shape_numel(&x->shape)) {
            diag_error(e->loc, "cannot reshape a tile of shape %s (%" PRId64 " elements) to %s (%" PRId64 " elements)",
                       sem_fmt_shape(&x->shape, a, sizeof a), shape_numel(&x->shape), sem_fmt_shape(&sh, b, sizeof b),
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
        if (!sem_check_opts(e)) return false;
        e->shape.rank = x->shape.rank;
        for (int i = 0; i < x->shape.rank; i++) e->shape.dim[i] = x->shape.dim[x->shape.rank - 1 - i];
        return true;
    }
    if (!sem_check_opts(e)) return false;
    Option *o = ast_option(e, "axis");
    if (e->bi == BI_PERMUTE) {
        int64_t v[TILE_MAX_RANK];
        int k;
        if (!o) {
            diag_error_fix(e->loc, "add '.axis = {...}' with a permutation of the axes", "tile_permute needs .axis");
            return false;
        }
        if (!sem_const_list(s, o->value, ".axis", v, &k)) return false;
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
        if (!sem_type_expr(s, o->value) || !sem_expect_const_int(s, o->value, ".axis", &ax)) return false;
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
    if (!sem_type_expr(s, v)) return false;
    int n = v->kind == EX_LIST ? v->nargs : 1;
    if (n != arr->rank) {
        index_count_error(idx, arr, n);
        return false;
    }
    Shape sh = extra ? extra->shape : sem_scalar_shape;
    for (int i = 0; i < n; i++) {
        Expr *x = v->kind == EX_LIST ? v->args[i] : v;
        if (!dtype_is_int(x->dtype) && x->dtype != DT_INT_CONST) {
            diag_error_fix(x->loc, "cast it to an integer type", "an index tile must hold integers, not %s",
                           dtype_name(x->dtype));
            return false;
        }
        if (!sem_broadcast2(x->loc, &sh, &x->shape, &sh)) return false;
    }
    *out = sh;
    return true;
}

static bool builtin_gather_scatter(Sema *s, Expr *e)
{
    const char *n = e->name;
    bool gather = e->bi == BI_GATHER;
    bool atomic = e->bi != BI_GATHER && e->bi != BI_SCATTER;
    if (!sem_check_opts(e)) return false;
    Param *arr = sem_array_arg(s, e, e->args[0], false);
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
        if (!sem_type_expr(s, v)) return false;
        if (!dtype_implicitly_converts(v->dtype, v->is_const ? &v->cval : NULL, at)) {
            char fix[128];
            snprintf(fix, sizeof fix, "convert explicitly: tile_cast(value, %s)", arr->type.spelling);
            diag_error_fix(v->loc, fix, "cannot use a %s tile with %s array '%s' implicitly", dtype_name(v->dtype),
                           dtype_name(at), arr->name);
            return false;
        }
        if (val) {
            Shape sh;
            if (!sem_broadcast2(v->loc, &val->shape, &v->shape, &sh)) return false;
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
    if (pad && (!sem_type_expr(s, pad->value) || !sem_expect_const_int(s, pad->value, ".padding", &iv))) return false;
    for (const char *o[] = {"memory_order", "scope"}, **q = o; q < o + 2; q++) {
        Option *op = ast_option(e, *q);
        if (op && (!sem_type_expr(s, op->value) || !sem_expect_const_int(s, op->value, *q, &iv))) return false;
        if (op && (iv < 1 || iv > (**q == 'm' ? 5 : 3))) {
            if (iv == (**q == 'm' ? TILE_CONSUME_ : TILE_SCOPE_THREAD_)) /* SIMT atomics' */
                diag_error(op->loc, "tile atomics take %s", **q == 'm' ? "TILE_RELAXED ... TILE_SEQ_CST (TILE_CONSUME is for SIMT atomics)"
                                                                       : "TILE_SCOPE_BLOCK, _DEVICE or _SYSTEM (a tile's elements are spread over the block's threads)");
            else
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
    if (!sem_check_opts(e)) return false;
    Expr *a = e->args[0], *b = e->args[1];
    if (!sem_type_expr(s, a) || !sem_type_expr(s, b)) return false;
    int64_t ax = 0;
    Option *o = ast_option(e, "axis");
    if (o && (!sem_type_expr(s, o->value) || !sem_expect_const_int(s, o->value, ".axis", &ax))) return false;
    char x[SHAPE_FMT_MAX], y[SHAPE_FMT_MAX];
    if (a->shape.rank != b->shape.rank || a->shape.rank == 0) {
        diag_error(e->loc, "tile_cat needs two tiles of the same rank (at least 1), not %s and %s",
                   sem_fmt_shape(&a->shape, x, sizeof x), sem_fmt_shape(&b->shape, y, sizeof y));
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
                       sem_fmt_shape(&a->shape, x, sizeof x), sem_fmt_shape(&b->shape, y, sizeof y));
            return false;
        }
    Promotion pr;
    if (!sem_promote2(e->loc, PROMOTE_SELECT, a, b, &pr)) return false;
    e->dtype = sem_concrete_or(pr.result, &a->cval);
    e->shape = a->shape;
    e->shape.dim[ax] *= 2;
    return true;
}

static bool builtin_extract(Sema *s, Expr *e)
{
    if (!sem_check_opts(e)) return false;
    Expr *x = e->args[0];
    if (!sem_type_expr(s, x)) return false;
    Shape sh;
    if (!shape_of_option(s, e, &sh)) return false;
    Option *io = ast_option(e, "index");
    if (!io) {
        diag_error_fix(e->loc, "add '.index = {...}' (in units of the extracted shape)", "tile_extract needs an .index");
        return false;
    }
    int64_t idx[TILE_MAX_RANK];
    int n;
    if (!sem_const_list(s, io->value, "a tile_extract index", idx, &n)) return false;
    char a[SHAPE_FMT_MAX], b[SHAPE_FMT_MAX];
    if (n != x->shape.rank || sh.rank != x->shape.rank) {
        diag_error(e->loc, "tile_extract of a rank-%d tile needs .index and .shape of rank %d", x->shape.rank, x->shape.rank);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (idx[i] < 0 || idx[i] >= x->shape.dim[i] / sh.dim[i]) { /* no overflow for huge indices */
            diag_error(io->loc, "sub-tile %s at index %d of dimension %d lies outside the tile %s",
                       sem_fmt_shape(&sh, a, sizeof a), (int)idx[i], i, sem_fmt_shape(&x->shape, b, sizeof b));
            return false;
        }
    e->dtype = x->dtype;
    e->shape = sh;
    return true;
}

static bool builtin_scan(Sema *s, Expr *e)
{
    if (!sem_check_opts(e)) return false;
    Expr *x = e->args[0];
    if (!sem_type_expr(s, x)) return false;
    if (x->shape.rank == 0) {
        diag_error(x->loc, "tile_%s needs a tile, not a scalar", e->name);
        return false;
    }
    int64_t v;
    Option *o = ast_option(e, "axis");
    if (o) {
        if (!sem_type_expr(s, o->value) || !sem_expect_const_int(s, o->value, ".axis", &v)) return false;
        if (v < -x->shape.rank || v >= x->shape.rank) {
            diag_error(o->loc, "axis %d is out of range for a tile of rank %d", (int)v, x->shape.rank);
            return false;
        }
    }
    for (const char *q[] = {"exclusive", "reverse"}, **p = q; p < q + 2; p++) {
        Option *op = ast_option(e, *p);
        if (op && (!sem_type_expr(s, op->value) || !sem_expect_const_int(s, op->value, *p, &v))) return false;
    }
    Dtype t = sem_concrete_or(x->dtype, &x->cval);
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
    if (!sem_check_opts(e)) return false;
    for (int i = 0; i < e->nargs; i++)
        if (!sem_type_expr(s, e->args[i])) return false;
    Expr *a = e->args[0], *b = e->args[1];
    char x[SHAPE_FMT_MAX], y[SHAPE_FMT_MAX];
    if (a->shape.rank != 2 || b->shape.rank != 2 || a->shape.dim[1] != b->shape.dim[0]) {
        diag_error(e->loc, "tile_%s multiplies an (M,K) tile by a (K,N) tile, not %s by %s", e->name,
                   sem_fmt_shape(&a->shape, x, sizeof x), sem_fmt_shape(&b->shape, y, sizeof y));
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
            sem_fmt_shape(&e->shape, z, sizeof z);
            diag_error(c->loc, "the accumulator of tile_mma must be a %s tile of shape %s, not %s %s", dtype_name(acc), z,
                       dtype_name(c->dtype), sem_fmt_shape(&c->shape, x, sizeof x));
            return false;
        }
    }
    return true;
}

bool sem_type_builtin(Sema *s, Expr *e)
{
    const char *n = e->name;
    switch (e->bi) {
    case BI_BID:
    case BI_NUM_BLOCKS: {
        int64_t axis;
        if (!sem_type_expr(s, e->args[0]) || !sem_expect_const_int(s, e->args[0], "the axis", &axis)) return false;
        if (axis < 0 || axis > 2) {
            diag_error(e->args[0]->loc, "tile_%s axis must be 0, 1 or 2", n);
            return false;
        }
        e->dtype = DT_INT32;
        e->shape = sem_scalar_shape;
        return true;
    }
    case BI_DIM: {
        Param *arr = sem_array_arg(s, e, e->args[0], true);
        int64_t axis;
        if (!arr || !sem_type_expr(s, e->args[1]) || !sem_expect_const_int(s, e->args[1], "the axis", &axis))
            return false;
        if (axis < 0 || axis >= arr->rank) {
            diag_error(e->args[1]->loc, "axis %" PRId64 " is out of range for array '%s' of rank %d", axis,
                       arr->name, arr->rank);
            return false;
        }
        e->dtype = DT_INT64;
        e->shape = sem_scalar_shape;
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
    case BI_WHERE: return sem_builtin_where(s, e, e->args[0], e->args[1], e->args[2]);
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
    case BI_TARGET:
        diag_error_fix(e->loc, "write `if (tile_target(a | b))`, combining the descriptions inside it",
                       "tile_target(...) must be the whole condition of an if statement");
        return false;
    case BI_PROVIDES: case BI_IS_EXACTLY: case BI_IS_HOST: case BI_IS_DEVICE: case BI_ANY_TARGET: case BI_NO_TARGET:
        diag_error_fix(e->loc, "use it inside `if (tile_target(...))`",
                       "tile_%s describes targets, it is not a value", n);
        return false;
    case BI_PRINTF: case BI_ASSERT: return sem_builtin_debug(s, e);
    case BI_VIEW_TRANSPOSE: case BI_VIEW_PERMUTE: case BI_VIEW_PAD: case BI_VIEW_WINDOW: case BI_VIEW_IM2COL:
    case BI_VIEW_LAYOUT:
        diag_error_fix(e->loc, "declare a view with it: TILE_VIEW(T, rank) v = tile_view_...(array, ...);",
                       "tile_%s builds a view; it is only the value of a TILE_VIEW declaration", n);
        return false;
    case BI_NONE: case BI_COUNT: break;
    }
    diag_error(e->loc, "tile_%s is not supported by this version of tilec yet", n);
    return false;
}
