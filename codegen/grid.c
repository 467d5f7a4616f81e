/* grid.c: the grid a kernel implies, worked out from its arrays (used by the
 * Python module's default grid and by the launchers of kernels with
 * TILE_TUNABLE constants, which take no grid).
 *
 * A kernel's grid is the caller's choice in C; Python
 * users expect a call without one.  For each grid axis the kernel reads with
 * tile_bid(axis), tilec looks for a tile_store (first) or tile_load whose
 * .index entry d is that block coordinate itself (tile_bid(axis), or a
 * variable initialised to it and never assigned): one block per tile along
 * dimension d of that array, so the axis has cdiv(array.shape[d], tile
 * extent d) blocks.  An axis with no such access, or any axis of a kernel
 * that asks tile_num_blocks (a persistent loop, whose grid is a free
 * choice), needs grid=. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit.h"
#include "frontend/diag.h"

#define MAX_BIDVARS 64

typedef struct GridAxis {
    int param;     /* index in f->params of the array, -1 when unknown */
    int dim;       /* its dimension */
    int64_t extent; /* the tile's extent along it */
} GridAxis;

typedef struct GridScan {
    const Symbol *var[MAX_BIDVARS]; /* variables holding tile_bid(axis[i]) */
    int var_axis[MAX_BIDVARS];
    int nvars;
    bool used[3];      /* tile_bid(axis) appears */
    bool persistent;   /* tile_num_blocks appears */
    GridAxis from_store[3], from_load[3];
    const Func *f;     /* the kernel scanned */
} GridScan;

static bool const_axis(const Expr *e, int *axis)
{
    if (!e || e->kind != EX_BUILTIN || e->bi != BI_BID || e->nargs < 1 || !e->args[0]->is_const) return false;
    int64_t a = e->args[0]->cval.i;
    if (a < 0 || a > 2) return false;
    *axis = (int)a;
    return true;
}

/* The grid axis an .index entry is exactly the block coordinate of, or -1. */
static int entry_axis(const GridScan *g, const Expr *e)
{
    int axis;
    if (const_axis(e, &axis)) return axis;
    if (e && e->kind == EX_NAME && e->sym)
        for (int i = 0; i < g->nvars; i++)
            if (g->var[i] == e->sym) return g->var_axis[i];
    return -1;
}

static void scan_access(GridScan *g, const Func *f, const Expr *e, bool store)
{
    if (e->nargs < (store ? 2 : 1)) return;
    const Expr *arr = e->args[0];
    if (arr->kind != EX_NAME || !arr->sym || arr->sym->kind != SYM_PARAM || !arr->sym->param ||
        arr->sym->param->kind != PARAM_ARRAY)
        return;
    const Param *pa = arr->sym->param;
    const Option *idx = ast_option(e, "index");
    if (!idx || !idx->value || idx->value->kind != EX_LIST || idx->value->nargs != pa->rank) return;
    const Shape *tile = store ? &e->args[1]->shape : &e->shape;
    if (tile->rank != pa->rank) return;
    GridAxis *slot = store ? g->from_store : g->from_load;
    for (int d = 0; d < pa->rank; d++) {
        int axis = entry_axis(g, idx->value->args[d]);
        if (axis < 0 || slot[axis].param >= 0 || tile->dim[d] <= 0) continue;
        slot[axis] = (GridAxis){(int)(pa - f->params), d, tile->dim[d]};
    }
}

static bool scan_expr(AstVisitor *v, const Expr *e)
{
    GridScan *g = v->ctx;
    if (e->kind == EX_BUILTIN) {
        int axis;
        if (const_axis(e, &axis)) g->used[axis] = true;
        else if (e->bi == BI_BID) g->used[0] = g->used[1] = g->used[2] = true; /* an axis not known */
        if (e->bi == BI_NUM_BLOCKS) g->persistent = true;
        if (e->bi == BI_STORE) scan_access(g, g->f, e, true);
        if (e->bi == BI_LOAD) scan_access(g, g->f, e, false);
    }
    return true; /* a helper's body is walked too (inlined): the axes it reads count */
}

static bool scan_stmt(AstVisitor *v, const Stmt *s)
{
    GridScan *g = v->ctx;
    int axis;
    if (s->kind == ST_DECL && s->sym && !s->assigned && !s->sym->assigned && const_axis(s->init, &axis) &&
        g->nvars < MAX_BIDVARS) {
        g->var[g->nvars] = s->sym;
        g->var_axis[g->nvars++] = axis;
    }
    return true;
}

static void infer(const Func *f, GridAxis ax[3], bool used[3], bool *ok)
{
    GridScan g = {.f = f};
    for (int a = 0; a < 3; a++) g.from_store[a].param = g.from_load[a].param = -1;
    AstVisitor v = {.expr = scan_expr, .stmt = scan_stmt, .ctx = &g, .inlined = true};
    ast_walk_stmt(&v, f->body);
    *ok = true;
    for (int a = 0; a < 3; a++) {
        ax[a] = g.from_store[a].param >= 0 ? g.from_store[a] : g.from_load[a];
        used[a] = g.used[a];
        if (g.used[a] && (ax[a].param < 0 || g.persistent)) *ok = false;
    }
}

int grid_unknown_axis(const Func *f)
{
    GridAxis ax[3];
    bool used[3], ok;
    infer(f, ax, used, &ok);
    if (ok) return -1;
    for (int a = 0; a < 3; a++)
        if (used[a] && ax[a].param < 0) return a;
    return 3; /* tile_num_blocks: a persistent grid */
}

bool grid_emit(FILE *o, const Func *f, bool python)
{
    GridAxis ax[3];
    bool used[3], ok;
    infer(f, ax, used, &ok);
    if (!ok) {
        if (python) fputs("None", o);
        return false;
    }
    fputs(python ? "(" : "{", o);
    for (int a = 0; a < 3; a++) {
        if (a) fputs(", ", o);
        if (!used[a]) fputc('1', o);
        else if (python)
            fprintf(o, "_cdiv(d_%s.shape[%d], %" PRId64 ")", f->params[ax[a].param].name, ax[a].dim, ax[a].extent);
        else
            fprintf(o, "(%s->shape[%d] + %" PRId64 ") / %" PRId64, f->params[ax[a].param].name, ax[a].dim,
                    ax[a].extent - 1, ax[a].extent);
    }
    fputs(python ? ")" : "}", o);
    return true;
}

bool grid_c_initializer(const Func *f, char **out)
{
    size_t len;
    FILE *m = open_memstream(out, &len);
    bool ok = m && grid_emit(m, f, false);
    if (m) fclose(m);
    if (!ok) {
        free(*out);
        *out = NULL;
    }
    return ok;
}

bool codegen_check_tunable(Program *p)
{
    bool ok = true;
    for (int fi = 0; fi < p->nfuncs; fi++) {
        Func *f = p->funcs[fi];
        if (!f->is_kernel || !emit_has_tunable(f)) continue;
        int axis = -1;
        for (int sp = 0; axis < 0 && sp < f->nspecs; sp++) axis = grid_unknown_axis(f->specs[sp].typed);
        if (axis < 0) continue;
        const Param *t = NULL;
        for (int i = 0; i < f->nparams && !t; i++)
            if (f->params[i].tunable) t = &f->params[i];
        char msg[200];
        if (axis == 3) snprintf(msg, sizeof msg, "kernel '%s' asks tile_num_blocks (a persistent grid)", f->name);
        else snprintf(msg, sizeof msg, "no tile_store or tile_load of '%s' has tile_bid(%d) as an .index entry", f->name, axis);
        diag_error_fix(t->loc,
                       "index a tile_store (or tile_load) with the block coordinate, e.g. .index = {tile_bid(0)}, "
                       "or declare it TILE_CONST and pass the grid",
                       "tunable constant '%s': the launcher cannot work out the grid from the arrays: %s", t->name, msg);
        ok = false;
    }
    return ok;
}
