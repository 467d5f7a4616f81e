/* view_types.c: TILE_VIEW declarations.  A view is a compile-time value: its
 * constructor (tile_view_transpose, _permute, _pad, _window, _im2col,
 * _layout) is evaluated here into a View (sema/view.h) over an array
 * parameter, recorded on the variable's symbol, and the declaration itself
 * runs nothing.  tile_load, tile_store and tile_dim then take the view's
 * name where they take an array (builtin_types.c). */
#include "sema/sema_impl.h"
#include "sema/view.h"

#include <inttypes.h>
#include <string.h>

#include "frontend/diag.h"

const View *sem_view_named(Sema *s, const Expr *a)
{
    if (!a || a->kind != EX_NAME) return NULL;
    Symbol *sym = a->sym ? a->sym : sem_lookup(s, a->name);
    return sym ? sym->view : NULL;
}

/* An option's constant list, padded with dflt to n entries; *given is how
 * many were written (0 when the option is absent). */
static bool opt_list(Sema *s, Expr *e, const char *name, int64_t *out, int n, int64_t dflt, int *given)
{
    for (int i = 0; i < n; i++) out[i] = dflt;
    *given = 0;
    Option *o = ast_option(e, name);
    if (!o) return true;
    int64_t v[TILE_MAX_RANK];
    int m;
    char what[64];
    snprintf(what, sizeof what, ".%s", name);
    if (!sem_const_list(s, o->value, what, v, &m)) return false;
    if (m > n) {
        diag_error(o->loc, ".%s has %d entries; this view takes at most %d", name, m, n);
        return false;
    }
    for (int i = 0; i < m; i++) out[i] = v[i];
    *given = m;
    return true;
}

static bool opt_padding(Sema *s, Expr *e, int *pad)
{
    Option *o = ast_option(e, "padding");
    int64_t v;
    if (!o) return true;
    if (!sem_padding_option(s, o, &v)) return false;
    *pad = (int)v;
    return true;
}

/* The view the constructor's first argument names: an array parameter
 * (its identity view) or another view. */
static const View *source_view(Sema *s, Expr *e)
{
    if (e->nargs < 1 || !e->args[0] || e->args[0]->kind != EX_NAME) {
        diag_error(e->loc, "the first argument of tile_%s must be an array parameter or a view", e->name);
        return NULL;
    }
    Expr *a = e->args[0];
    Symbol *sym = sem_lookup(s, a->name);
    if (sym && sym->view) {
        a->sym = sym;
        return sym->view;
    }
    if (sym && sym->kind == SYM_VAR && sym->dtype == DT_INVALID) return NULL; /* reported where it was declared */
    if (!sym || sym->kind != SYM_PARAM || sym->param->kind != PARAM_ARRAY) {
        diag_error(a->loc, "'%s' is not an array parameter or a view", a->name);
        return NULL;
    }
    a->sym = sym;
    return view_of_array(s->prog->arena, sym->param);
}

/* The view e (a tile_view_* call) builds. */
static View *type_ctor(Sema *s, Expr *e)
{
    Arena *ar = s->prog->arena;
    if (!sem_check_opts(e)) return NULL;
    const View *src = source_view(s, e);
    if (!src) return NULL;
    char err[320] = "";
    View *r = NULL;
    int pad = src->padding, n;
    if (!opt_padding(s, e, &pad)) return NULL;
    switch (e->bi) {
    case BI_VIEW_TRANSPOSE: {
        if (src->rank < 2) {
            diag_error(e->loc, "tile_view_transpose needs a view of rank 2 or more; '%s' has rank %d", e->args[0]->name,
                       src->rank);
            return NULL;
        }
        int axes[TILE_MAX_RANK];
        for (int k = 0; k < src->rank; k++) axes[k] = k;
        axes[src->rank - 2] = src->rank - 1;
        axes[src->rank - 1] = src->rank - 2;
        r = view_permute(ar, src, axes, err, sizeof err);
        break;
    }
    case BI_VIEW_PERMUTE: {
        int64_t v[TILE_MAX_RANK];
        int axes[TILE_MAX_RANK];
        if (!opt_list(s, e, "axes", v, TILE_MAX_RANK, -1, &n)) return NULL;
        if (n != src->rank) {
            diag_error_fix(e->loc, "list the source axis of each view axis: .axes = {...}",
                           "tile_view_permute needs .axes with %d entries (the view's rank); %d given", src->rank, n);
            return NULL;
        }
        for (int k = 0; k < n; k++) axes[k] = (int)v[k];
        r = view_permute(ar, src, axes, err, sizeof err);
        break;
    }
    case BI_VIEW_PAD: {
        int64_t lo[TILE_MAX_RANK], hi[TILE_MAX_RANK];
        int nl, nh;
        if (!opt_list(s, e, "low", lo, src->rank, 0, &nl) || !opt_list(s, e, "high", hi, src->rank, 0, &nh))
            return NULL;
        if (!nl && !nh) {
            diag_error_fix(e->loc, "add .low = {...} and/or .high = {...}, one entry per axis",
                           "tile_view_pad needs .low or .high");
            return NULL;
        }
        r = view_pad(ar, src, lo, hi, err, sizeof err);
        break;
    }
    case BI_VIEW_WINDOW:
    case BI_VIEW_IM2COL: {
        int64_t size[TILE_MAX_RANK], st[TILE_MAX_RANK], dil[TILE_MAX_RANK], lo[TILE_MAX_RANK], hi[TILE_MAX_RANK];
        int ns, n2;
        if (!opt_list(s, e, "size", size, 3, 1, &ns)) return NULL;
        if (!ns) {
            diag_error_fix(e->loc, "give the window's extent per windowed axis: .size = {...}",
                           "tile_%s needs .size", e->name);
            return NULL;
        }
        if (!opt_list(s, e, "stride", st, ns, 1, &n2) || !opt_list(s, e, "dilation", dil, ns, 1, &n2) ||
            !opt_list(s, e, "low", lo, ns, 0, &n2) || !opt_list(s, e, "high", hi, ns, 0, &n2))
            return NULL;
        if (e->bi == BI_VIEW_WINDOW) {
            int64_t wa[TILE_MAX_RANK];
            int axes[TILE_MAX_RANK], na;
            if (!opt_list(s, e, "window_axes", wa, ns, -1, &na)) return NULL;
            for (int i = 0; i < ns; i++) axes[i] = na ? (int)wa[i] : src->rank - ns + i;
            if (na && na != ns) {
                diag_error_fix(e->loc, "give one axis in .window_axes per .size entry",
                               ".window_axes lists %d ax%s but .size lists %d window%s", na, na == 1 ? "is" : "es", ns,
                               ns == 1 ? "" : "s");
                return NULL;
            }
            r = view_window(ar, src, ns, axes, size, st, dil, lo, hi, err, sizeof err);
        } else {
            int64_t cl = 0;
            Option *o = ast_option(e, "channels_last");
            if (o && (!sem_type_expr(s, o->value) || !sem_expect_const_int(s, o->value, ".channels_last", &cl)))
                return NULL;
            r = view_im2col(ar, src, ns, size, st, dil, lo, hi, cl != 0, err, sizeof err);
        }
        break;
    }
    case BI_VIEW_LAYOUT: {
        if (e->args[0]->sym->view) {
            diag_error(e->args[0]->loc, "tile_view_layout takes an array parameter, not a view");
            return NULL;
        }
        if (e->nargs < 2 || !e->args[1] || e->args[1]->kind != EX_STRING) {
            diag_error_fix(e->loc, "write it as a string literal: tile_view_layout(x, \"(_,_):(1@1,1@0)\")",
                           "tile_view_layout needs the layout in CuTe notation as a string literal");
            return NULL;
        }
        int64_t off[TILE_MAX_RANK];
        if (!opt_list(s, e, "offset", off, src->base->rank, 0, &n)) return NULL;
        int pos;
        r = view_parse_at(ar, src->base, e->args[1]->str, off, err, sizeof err, &pos);
        if (!r) {
            const Expr *lit = e->args[1];
            SrcLoc at = lit->str_loc && pos >= 0 && pos < lit->nstr ? lit->str_loc[pos] : lit->loc;
            diag_error(at, "%s", err);
            return NULL;
        }
        break;
    }
    default:
        diag_error(e->loc, "tile_%s does not build a view", e->name);
        return NULL;
    }
    if (!r) {
        diag_error(e->loc, "tile_%s: %s", e->name, err);
        return NULL;
    }
    r->padding = pad;
    return r;
}

bool sem_view_decl(Sema *s, Stmt *st)
{
    Expr *v = st->init;
    Symbol *sym = sem_declare(s, st->name, st->name_loc);
    sym->kind = SYM_VAR;
    sym->dtype = DT_INVALID; /* until it is typed: later uses stay silent */
    st->sym = sym;
    if (!v || v->kind != EX_BUILTIN || builtin_info(v->bi)->cls != BCLASS_VIEW) {
        diag_error_fix(v ? v->loc : st->loc, "initialize it with tile_view_transpose, _permute, _pad, _window, _im2col or _layout",
                       "view '%s' must be initialized by a view constructor", st->name);
        return false;
    }
    View *vw = type_ctor(s, v);
    if (!vw) return false;
    const Param *base = vw->base;
    if (vw->rank != st->type.view_rank) {
        char fix[96];
        snprintf(fix, sizeof fix, "declare it TILE_VIEW(%s%s, %d)", st->type.is_const ? "const " : "", st->type.spelling,
                 vw->rank);
        diag_error_fix(st->loc, fix, "view '%s' is declared with rank %d, but tile_%s gives a view of rank %d",
                       st->name, st->type.view_rank, v->name, vw->rank);
        return false;
    }
    if (st->type.dtype != base->type.dtype) {
        char fix[96];
        snprintf(fix, sizeof fix, "declare it TILE_VIEW(%s%s, %d)", st->type.is_const ? "const " : "", base->type.spelling,
                 vw->rank);
        diag_error_fix(st->loc, fix, "view '%s' has element type %s (%s), but its array '%s' has %s (%s)", st->name,
                       st->type.spelling, dtype_name(st->type.dtype), base->name, base->type.spelling,
                       dtype_name(base->type.dtype));
        return false;
    }
    if (base->readonly && !st->type.is_const) {
        char fix[96];
        snprintf(fix, sizeof fix, "declare it TILE_VIEW(const %s, %d)", st->type.spelling, vw->rank);
        diag_error_fix(st->loc, fix, "view '%s' of read-only array '%s' must have a const element type", st->name,
                       base->name);
        return false;
    }
    Param *ap = arena_alloc(s->prog->arena, sizeof *ap);
    ap->name = st->name;
    ap->loc = st->name_loc;
    ap->kind = PARAM_ARRAY;
    ap->type = base->type;
    ap->rank = vw->rank;
    ap->readonly = base->readonly || st->type.is_const;
    ap->sym = sym;
    vw->as_param = ap;
    sym->view = vw;
    sym->dtype = base->type.dtype;
    sym->shape = sem_scalar_shape;
    /* Nothing runs: the declaration becomes an empty block that keeps its
     * symbol (dumps print the view from it). */
    st->kind = ST_BLOCK;
    st->items = NULL;
    st->nitems = 0;
    return true;
}

/* ---- permutations: loads in the array's order -------------------------- */

static Expr *new_node(Sema *s, ExprKind k, SrcLoc loc)
{
    Expr *x = arena_alloc(s->prog->arena, sizeof *x);
    x->kind = k;
    x->loc = loc;
    return x;
}

/* A typed brace list of the integers v[0..n). */
static Expr *int_list(Sema *s, SrcLoc loc, const int64_t *v, int n)
{
    Expr *l = new_node(s, EX_LIST, loc);
    l->args = arena_alloc(s->prog->arena, sizeof *l->args * (size_t)n);
    l->nargs = n;
    for (int i = 0; i < n; i++) {
        Expr *c = new_node(s, EX_INT, loc);
        c->ival = v[i];
        c->uval = (uint64_t)v[i];
        sem_type_expr(s, c);
        l->args[i] = c;
    }
    l->dtype = DT_INVALID;
    sem_add_late(s, l);
    return l;
}

void sem_view_rewrite(Sema *s, Expr *e, bool store)
{
    const View *v = sem_view_named(s, e->args[0]);
    int perm[TILE_MAX_RANK];
    if (!v || !view_is_permutation(v, perm) || !v->base->sym) return;
    int rank = v->rank, ord[TILE_MAX_RANK], q[TILE_MAX_RANK];
    for (int k = 0; k < rank; k++) ord[k] = k;
    Option *oo = ast_option(e, "order");
    if (oo) {
        Expr *ov = oo->value;
        if (ov->kind == EX_LIST && ov->nargs == 1 && ov->args[0]->cval.i == -1)
            for (int k = 0; k < rank; k++) ord[k] = rank - 1 - k;
        else if (ov->kind == EX_LIST && ov->nargs == rank)
            for (int k = 0; k < rank; k++) ord[k] = (int)ov->args[k]->cval.i;
    }
    for (int k = 0; k < rank; k++) q[k] = perm[ord[k]]; /* the array axis of tile axis k */
    Shape sh = e->shape;
    if (store && !shape_equal(&e->args[1]->shape, &sh)) return; /* a broadcast store: element by element */
    Option *idx = ast_option(e, "index");
    Expr *iv = idx->value;
    if (iv->kind != EX_LIST || iv->nargs != rank) return;
    Arena *ar = s->prog->arena;
    Expr *nm = new_node(s, EX_NAME, e->args[0]->loc);
    nm->name = v->base->name;
    nm->sym = v->base->sym;
    nm->dtype = v->base->type.dtype;
    nm->shape = sem_scalar_shape;
    sem_add_late(s, nm);
    Expr *niv = new_node(s, EX_LIST, iv->loc);
    niv->args = arena_alloc(ar, sizeof *niv->args * (size_t)rank);
    niv->nargs = rank;
    niv->dtype = DT_INVALID;
    sem_add_late(s, niv);
    int64_t adims[TILE_MAX_RANK], axis[TILE_MAX_RANK], inv[TILE_MAX_RANK];
    Shape ash = {.rank = rank};
    for (int k = 0; k < rank; k++) {
        niv->args[q[k]] = iv->args[k];
        adims[q[k]] = sh.dim[k];
        ash.dim[q[k]] = sh.dim[k];
        axis[k] = q[k];   /* tile axis k is axis q[k] of the array-order tile */
        inv[q[k]] = k;
    }
    /* the options in the array's order: .index and .shape permuted, .order gone */
    Option *no = arena_alloc(ar, sizeof *no * (size_t)(e->nopts + 1));
    int nn = 0;
    bool had_shape = false;
    for (int i = 0; i < e->nopts; i++) {
        Option o = e->opts[i];
        if (!strcmp(o.name, "order")) continue;
        if (!strcmp(o.name, "index")) o.value = niv;
        if (!strcmp(o.name, "shape")) {
            o.value = int_list(s, o.loc, adims, rank);
            had_shape = true;
        }
        no[nn++] = o;
    }
    if (!had_shape) no[nn++] = (Option){"shape", e->loc, int_list(s, e->loc, adims, rank)};
    Option *po = arena_alloc(ar, sizeof *po);
    if (!store) {
        Expr *L = new_node(s, EX_BUILTIN, e->loc);
        *L = *e;
        L->args = arena_alloc(ar, sizeof *L->args);
        L->args[0] = nm;
        L->nargs = 1;
        L->opts = no;
        L->nopts = nn;
        L->shape = ash;
        sem_add_late(s, L);
        po[0] = (Option){"axis", e->loc, int_list(s, e->loc, axis, rank)};
        e->kind = EX_BUILTIN;
        e->bi = BI_PERMUTE;
        e->name = "permute";
        e->args = arena_alloc(ar, sizeof *e->args);
        e->args[0] = L;
        e->nargs = 1;
        e->opts = po;
        e->nopts = 1;
        return;
    }
    Expr *val = e->args[1];
    Expr *P = new_node(s, EX_BUILTIN, val->loc);
    P->bi = BI_PERMUTE;
    P->name = "permute";
    P->args = arena_alloc(ar, sizeof *P->args);
    P->args[0] = val;
    P->nargs = 1;
    po[0] = (Option){"axis", val->loc, int_list(s, val->loc, inv, rank)};
    P->opts = po;
    P->nopts = 1;
    P->dtype = val->dtype;
    P->shape = ash;
    sem_add_late(s, P);
    e->args = arena_alloc(ar, sizeof *e->args * 2);
    e->args[0] = nm;
    e->args[1] = P;
    e->opts = no;
    e->nopts = nn;
    e->shape = ash;
}
