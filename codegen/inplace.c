/* inplace.c: decides which output of a kernel may be passed the very same
 * view as one of its other arrays (in-place work), for the launcher's
 * argument checks (emit_launch_checks).
 *
 * Running in place is safe only when no block reads a tile that another
 * block writes.  We accept a pair of arrays only in the shape that
 * element-wise and row-wise kernels have, and refuse everything else, so a
 * transpose, a shifted load or a gather over an output is refused at launch
 * with TILEC_ERR_ALIAS instead of racing:
 *   - every access to either array is a tile_load or tile_store (no gather,
 *     scatter or atomics), all with structurally identical .index and
 *     .order options and the same tile shape; and
 *   - for every grid dimension d the kernel reads with tile_bid(d), one
 *     component of that index is tile_bid(d) itself, or a variable that is
 *     never assigned after being initialised with it.
 * Then blocks that differ in any tile_bid they use touch different tiles
 * (launching more blocks than the kernel tells apart is a race without
 * aliasing as well), and within a block a tile is read and written by the
 * same threads, because equal shapes get equal thread-value layouts. */
#include <string.h>

#include "codegen/emit.h"
#include "sema/shape.h"

typedef struct Scan {
    const Param *a, *b;
    const Expr *acc[64]; /* loads and stores of a or b */
    int nacc;
    bool bad;            /* an access we do not analyse */
    bool uses_bid[3];
    const Stmt *decls[256]; /* every declaration, to find initialisers */
    int ndecls;
} Scan;

static bool names(const Expr *e, const Param *p)
{
    return e && e->kind == EX_NAME && e->sym && e->sym->kind == SYM_PARAM && e->sym->param == p;
}

static bool scan_expr(AstVisitor *v, const Expr *e)
{
    Scan *s = v->ctx;
    if (e->kind != EX_BUILTIN) return true;
    if (e->bi == BI_BID && e->nargs == 1 && e->args[0]->is_const && e->args[0]->cval.i >= 0 && e->args[0]->cval.i < 3)
        s->uses_bid[e->args[0]->cval.i] = true;
    if (e->nargs > 0 && (names(e->args[0], s->a) || names(e->args[0], s->b))) {
        if (e->bi == BI_LOAD || e->bi == BI_STORE) {
            if (s->nacc < (int)(sizeof s->acc / sizeof s->acc[0])) s->acc[s->nacc++] = e;
            else s->bad = true;
        } else if (builtin_info(e->bi)->cls == BCLASS_INDEXED) {
            s->bad = true;
        } /* tile_dim and the like read no elements */
    }
    return true;
}

static bool scan_stmt(AstVisitor *v, const Stmt *st)
{
    Scan *s = v->ctx;
    if (st->kind == ST_DECL && st->sym) {
        if (s->ndecls < (int)(sizeof s->decls / sizeof s->decls[0])) s->decls[s->ndecls++] = st;
        else s->bad = true;
    }
    return true;
}

/* Structural equality: the same operators on the same symbols and values. */
static bool same_expr(const Expr *x, const Expr *y)
{
    if (!x || !y) return x == y;
    if (x->kind != y->kind || x->nargs != y->nargs || x->nopts != y->nopts) return false;
    switch (x->kind) {
    case EX_INT: if (x->uval != y->uval) return false; break;
    case EX_FLOAT: if (x->fval != y->fval) return false; break;
    case EX_NAME: if (x->sym != y->sym || !x->sym) return false; break;
    case EX_UNARY: case EX_BINARY: if (x->op != y->op) return false; break;
    case EX_CAST: case EX_TYPE: if (x->type.dtype != y->type.dtype) return false; break;
    case EX_CALL: if (strcmp(x->name, y->name)) return false; break;
    case EX_BUILTIN: if (x->bi != y->bi) return false; break;
    default: break;
    }
    if (!same_expr(x->a, y->a) || !same_expr(x->b, y->b) || !same_expr(x->c, y->c)) return false;
    for (int i = 0; i < x->nargs; i++)
        if (!same_expr(x->args[i], y->args[i])) return false;
    for (int i = 0; i < x->nopts; i++)
        if (strcmp(x->opts[i].name, y->opts[i].name) || !same_expr(x->opts[i].value, y->opts[i].value))
            return false;
    return true;
}

static bool same_opt(const Expr *x, const Expr *y, const char *name)
{
    const Option *a = ast_option(x, name), *b = ast_option(y, name);
    if (!a || !b) return a == b;
    return same_expr(a->value, b->value);
}

/* Grid dimension d when component c is tile_bid(d), directly or through a
 * variable never assigned after its initialisation with it; else -1. */
static int bid_of(const Scan *s, const Expr *c)
{
    for (int depth = 0; c && depth < 8; depth++) {
        if (c->kind == EX_BUILTIN && c->bi == BI_BID && c->nargs == 1 && c->args[0]->is_const)
            return (int)c->args[0]->cval.i;
        if (c->kind == EX_CAST && dtype_is_int(c->type.dtype) && dtype_bits(c->type.dtype) >= 32) {
            c = c->a;
            continue;
        }
        if (c->kind != EX_NAME || !c->sym || c->sym->kind != SYM_VAR || c->sym->assigned) return -1;
        const Expr *init = NULL;
        for (int i = 0; i < s->ndecls; i++)
            if (s->decls[i]->sym == c->sym) init = s->decls[i]->init;
        c = init;
    }
    return -1;
}

/* The test on one typed specialization k. */
static bool same_view_ok(const Func *k, const Param *out, const Param *other)
{
    Scan s = {.a = out, .b = other};
    /* tile functions take no arrays, but they may call tile_bid */
    AstVisitor v = {.expr = scan_expr, .stmt = scan_stmt, .inlined = true, .ctx = &s};
    ast_walk_stmt(&v, k->body);
    if (s.bad) return false;
    if (s.nacc == 0) return true;
    const Expr *first = s.acc[0];
    for (int i = 1; i < s.nacc; i++) {
        const Expr *e = s.acc[i];
        if (!same_opt(first, e, "index") || !same_opt(first, e, "order") || !shape_equal(&first->shape, &e->shape))
            return false;
    }
    const Option *idx = ast_option(first, "index");
    if (!idx) return false;
    bool covered[3] = {false, false, false};
    const Expr *iv = idx->value;
    if (iv->kind == EX_LIST) {
        for (int i = 0; i < iv->nargs; i++) {
            int d = bid_of(&s, iv->args[i]);
            if (d >= 0 && d < 3) covered[d] = true;
        }
    } else {
        int d = bid_of(&s, iv);
        if (d >= 0 && d < 3) covered[d] = true;
    }
    for (int d = 0; d < 3; d++)
        if (s.uses_bid[d] && !covered[d]) return false;
    return true;
}

bool inplace_same_view_ok(const Func *f, const Param *out, const Param *other)
{
    /* every specialization: tile shapes, and so the accesses, may differ */
    for (int i = 0; i < f->nspecs; i++) {
        const Func *k = f->specs[i].typed;
        if (!same_view_ok(k, &k->params[out - f->params], &k->params[other - f->params])) return false;
    }
    return true;
}
