/* graph.c: kernel graphs (TILE_GRAPH, docs/language.md "Kernel graphs"):
 * the calls are checked, inlined into parts and fused, before any kernel is
 * typed.
 *
 * A graph calls array kernels in order on its arrays and on temporaries.
 * Fusion is inlining: the calls' statements, with the callees' parameters
 * renamed to what the graph passed, are one array kernel's body, and a
 * temporary written and read inside it is a value in registers, never
 * memory.  Calls join the current part while the joined statements are
 * still one array kernel (sema/array_kernel.c's quiet trial decides: one
 * iteration space, one reduced axis, each array read at one kind of
 * coordinates); the first call that does not starts the next part, and the
 * remark says why.  Each write is a fresh value (SSA), so a part never reads
 * back what it wrote, and an output is stored once, at the end of its part.
 * A temporary that a later part reads is stored in the caller's workspace;
 * the launcher (codegen/graph.c) works out the temporaries' shapes from the
 * callees' broadcasting rules and runs the parts in order.
 *
 * Fusion changes no result: a temporary's value keeps the temporary's
 * element type (its declaration converts it as a store would round it), and
 * each statement computes what it computed unfused. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "frontend/diag.h"
#include "sema/graph.h"
#include "sema/sema_impl.h"

/* A call as written, with the callee's body copied before it is lowered. */
typedef struct CallSrc {
    const Expr *call;
    Func *callee;
    Param *cparams;     /* the callee's parameters as declared (before TILEC_BLOCK) */
    int ncparams;
    Stmt *body;         /* the callee's body, copied */
} CallSrc;

typedef struct Gx {
    Program *p;
    Func *g;
    Graph *gr;
    CallSrc *src;
    bool ok;
} Gx;

int graph_temp(const Graph *g, const char *name)
{
    for (int i = 0; i < g->ntemps; i++)
        if (!strcmp(g->temps[i].name, name)) return i;
    return -1;
}

static int gparam(const Func *g, const char *name)
{
    for (int i = 0; i < g->nparams; i++)
        if (!strcmp(g->params[i].name, name)) return i;
    return -1;
}

/* ---- checking ------------------------------------------------------------ */

/* A scalar argument reads only the graph's scalars and constants. */
static bool scalar_arg(Gx *x, const Expr *e)
{
    if (!e) return true;
    if (e->kind == EX_NAME) {
        int pi = gparam(x->g, e->name);
        if (pi >= 0 && x->g->params[pi].kind != PARAM_ARRAY) return true;
        if (pi >= 0 || graph_temp(x->gr, e->name) >= 0)
            diag_error(e->loc, "array '%s' passed where the array kernel takes a scalar", e->name);
        else
            diag_error(e->loc, "'%s' is not a scalar parameter of the graph", e->name);
        return false;
    }
    if (e->kind == EX_BUILTIN || e->kind == EX_CALL || e->kind == EX_LIST || e->kind == EX_STRING) {
        diag_error(e->loc, "a graph passes scalars as expressions of its scalar parameters and constants");
        return false;
    }
    return scalar_arg(x, e->a) && scalar_arg(x, e->b) && scalar_arg(x, e->c);
}

static bool check_call(Gx *x, const Expr *e, int ci)
{
    Func *c = ast_find_func(x->p, e->name);
    if (!c || !c->is_array_kernel) {
        diag_error(e->loc, "graph calls '%s', which is not an array kernel of this file", e->name);
        return false;
    }
    GraphCall *gc = &x->gr->calls[ci];
    gc->callee = c;
    gc->loc = e->loc;
    gc->arg = arena_alloc(x->p->arena, sizeof(char *) * (size_t)(c->nparams + 1));
    if (e->nargs != c->nparams) {
        diag_error(e->loc, "array kernel '%s' takes %d arguments, not %d", c->name, c->nparams, e->nargs);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < c->nparams; i++) {
        const Param *cp = &c->params[i];
        const Expr *a = e->args[i];
        if (cp->kind != PARAM_ARRAY) {
            if (cp->kind == PARAM_CONST && a->kind != EX_INT) {
                diag_error(a->loc, "'%s' of '%s' is a TILE_CONST: pass an integer literal", cp->name, c->name);
                ok = false;
            } else if (cp->kind == PARAM_CONST) {
                bool listed = false;
                for (int k = 0; k < cp->nspecs; k++) listed |= cp->specs[k] == a->ival;
                if (!listed) {
                    diag_error(a->loc, "%lld is not one of the values TILE_CONST '%s' of '%s' lists", (long long)a->ival,
                               cp->name, c->name);
                    ok = false;
                }
            } else if (!scalar_arg(x, a)) {
                ok = false;
            }
            continue;
        }
        if (a->kind != EX_NAME) {
            diag_error(a->loc, "pass an array of the graph or a TILE_TEMP as '%s' of '%s'", cp->name, c->name);
            ok = false;
            continue;
        }
        int pi = gparam(x->g, a->name), ti = graph_temp(x->gr, a->name);
        Dtype dt;
        int rank;
        bool readonly = false;
        if (pi >= 0 && x->g->params[pi].kind == PARAM_ARRAY) {
            dt = x->g->params[pi].type.dtype;
            rank = x->g->params[pi].rank;
            readonly = x->g->params[pi].readonly;
        } else if (ti >= 0) {
            dt = x->gr->temps[ti].type.dtype;
            rank = x->gr->temps[ti].rank;
        } else {
            diag_error(a->loc, "'%s' is not an array of the graph or a TILE_TEMP declared before this call", a->name);
            ok = false;
            continue;
        }
        if (dt != cp->type.dtype || rank != cp->rank) {
            diag_error(a->loc, "'%s' is a %s array of rank %d; parameter '%s' of '%s' is a %s array of rank %d",
                       a->name, dtype_name(dt), rank, cp->name, c->name, dtype_name(cp->type.dtype), cp->rank);
            ok = false;
            continue;
        }
        if (!cp->readonly && readonly) {
            diag_error_fix(a->loc, "drop 'const' from its TILE_NDARRAY declaration in the graph",
                           "'%s' is an input of the graph (const), passed as output '%s' of '%s'", a->name, cp->name,
                           c->name);
            ok = false;
            continue;
        }
        if (ti >= 0 && cp->readonly && x->gr->temps[ti].writer < 0) {
            diag_error(a->loc, "temporary '%s' is read by '%s' before any call writes it", a->name, c->name);
            ok = false;
            continue;
        }
        if (ti >= 0 && !cp->readonly && x->gr->temps[ti].writer < 0) {
            x->gr->temps[ti].writer = ci;
            x->gr->temps[ti].writer_param = i;
        }
        gc->arg[i] = a->name;
    }
    return ok;
}

/* Checks graph g's body and copies its callees' bodies (before sem_array_kernels lowers them). */
static bool prepare(Gx *x)
{
    Func *g = x->g;
    Arena *ar = x->p->arena;
    Graph *gr = arena_alloc(ar, sizeof *gr);
    x->gr = gr;
    g->graph = gr;
    Stmt *body = g->body;
    int n = body && body->kind == ST_BLOCK ? body->nitems : 0;
    gr->temps = arena_alloc(ar, sizeof *gr->temps * (size_t)(n + 1));
    gr->calls = arena_alloc(ar, sizeof *gr->calls * (size_t)(n + 1));
    x->src = arena_alloc(ar, sizeof *x->src * (size_t)(n + 1));
    bool ok = true;
    for (int s = 0; s < n; s++) {
        Stmt *st = body->items[s];
        if (st->kind == ST_DECL && st->type.temp_rank) {
            if (gparam(g, st->name) >= 0 || graph_temp(gr, st->name) >= 0) {
                diag_error(st->loc, "temporary '%s' has the name of another array of the graph", st->name);
                ok = false;
                continue;
            }
            gr->temps[gr->ntemps++] = (GraphTemp){.name = st->name, .loc = st->loc, .type = st->type,
                                                  .rank = st->type.temp_rank, .writer = -1};
            continue;
        }
        if (st->kind == ST_EXPR && st->value && st->value->kind == EX_CALL) {
            int ci = gr->ncalls++;
            if (!check_call(x, st->value, ci)) {
                ok = false;
                continue;
            }
            Func *c = gr->calls[ci].callee;
            x->src[ci] = (CallSrc){.call = st->value, .callee = c, .cparams = c->params, .ncparams = c->nparams,
                                   .body = sem_copy_stmt(ar, c->body)};
            continue;
        }
        diag_error_fix(st->loc, "declare temporaries with TILE_TEMP(T, rank) name; and call array kernels",
                       "a graph's body is TILE_TEMP declarations and calls of array kernels");
        ok = false;
    }
    if (ok && !gr->ncalls) {
        diag_error(g->loc, "graph '%s' calls no array kernel", g->name);
        ok = false;
    }
    for (int t = 0; ok && t < gr->ntemps; t++)
        if (gr->temps[t].writer < 0) {
            diag_warning("unused-value", gr->temps[t].loc, "temporary '%s' is never written", gr->temps[t].name);
        }
    return ok;
}

/* ---- building a part ------------------------------------------------------ */

/* graph arrays and temps, numbered: params first, then temps */
static int slot(Gx *x, const char *name)
{
    int pi = gparam(x->g, name);
    if (pi >= 0) return pi;
    int ti = graph_temp(x->gr, name);
    return ti >= 0 ? x->g->nparams + ti : -1;
}

typedef struct Rename {
    Gx *x;
    Arena *ar;
    const CallSrc *cs;
    const GraphCall *gc;
    int ci;
    const char **cur;       /* per slot: the local holding its value in this part, or NULL */
    bool *read;             /* per slot: read as an array (its value from before the part) */
} Rename;

static int cparam(const CallSrc *cs, const char *name)
{
    for (int i = 0; i < cs->ncparams; i++)
        if (!strcmp(cs->cparams[i].name, name)) return i;
    return -1;
}

static const char *local_name(Rename *r, const char *name)
{
    return arena_printf(r->ar, "__c%d_%s", r->ci, name);
}

/* The callee's expression e with the graph's names: arrays -> the value in
 * this part or the array; scalars -> (T)(argument); the callee's locals ->
 * their renamed locals. */
static Expr *rename_expr(Rename *r, const Expr *e, bool dim_arg)
{
    if (!e) return NULL;
    if (e->kind == EX_NAME) {
        int ci = cparam(r->cs, e->name);
        if (ci < 0) {
            Expr *n = sem_copy_expr(r->ar, e);
            n->name = local_name(r, e->name);
            return n;
        }
        const Param *cp = &r->cs->cparams[ci];
        if (cp->kind == PARAM_ARRAY) {
            const char *g = r->gc->arg[ci];
            int s = slot(r->x, g);
            Expr *n = sem_copy_expr(r->ar, e);
            if (!dim_arg && r->cur[s]) n->name = r->cur[s];
            else {
                n->name = g;
                r->read[s] = true;
            }
            return n;
        }
        /* a scalar or constant: the argument, converted to the parameter's type */
        Expr *arg = sem_copy_expr(r->ar, r->cs->call->args[ci]);
        if (cp->kind == PARAM_CONST) return arg;
        Expr *c = sem_copy_expr(r->ar, e);
        c->kind = EX_CAST;
        c->name = NULL;
        c->type = cp->type;
        c->type.is_const = false;
        c->a = arg;
        return c;
    }
    Expr *n = arena_alloc(r->ar, sizeof *n);
    *n = *e;
    n->a = rename_expr(r, e->a, false);
    n->b = rename_expr(r, e->b, false);
    n->c = rename_expr(r, e->c, false);
    if (e->nargs) {
        n->args = arena_alloc(r->ar, sizeof(Expr *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++)
            n->args[i] = rename_expr(r, e->args[i], e->kind == EX_BUILTIN && e->bi == BI_DIM && i == 0);
    }
    if (e->nopts) {
        n->opts = arena_alloc(r->ar, sizeof(Option) * (size_t)e->nopts);
        for (int i = 0; i < e->nopts; i++) {
            n->opts[i] = e->opts[i];
            n->opts[i].value = rename_expr(r, e->opts[i].value, false);
        }
    }
    return n;
}

static void push_stmt(Arena *ar, Stmt ***items, int *n, int *cap, Stmt *s)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        Stmt **m = arena_alloc(ar, sizeof *m * (size_t)c);
        if (*n) memcpy(m, *items, sizeof *m * (size_t)*n);
        *items = m;
        *cap = c;
    }
    (*items)[(*n)++] = s;
}

static TypeRef slot_type(Gx *x, int s)
{
    TypeRef t = s < x->g->nparams ? x->g->params[s].type : x->gr->temps[s - x->g->nparams].type;
    t.is_const = false;
    t.temp_rank = 0;
    return t;
}

static const char *slot_name(Gx *x, int s)
{
    return s < x->g->nparams ? x->g->params[s].name : x->gr->temps[s - x->g->nparams].name;
}

/* The array kernel of calls first..last: stored[t] says which temporaries
 * are arrays of the workspace (the others written here are values). */
static Func *build_part(Gx *x, int first, int last, const bool *stored, const char *name)
{
    Arena *ar = x->p->arena;
    Func *g = x->g;
    int nslots = g->nparams + x->gr->ntemps;
    const char **cur = arena_alloc(ar, sizeof *cur * (size_t)(nslots + 1));
    bool *read = arena_alloc(ar, sizeof *read * (size_t)(nslots + 1));
    bool *written = arena_alloc(ar, sizeof *written * (size_t)(nslots + 1));
    int *version = arena_alloc(ar, sizeof *version * (size_t)(nslots + 1));
    Stmt **items = NULL;
    int n = 0, cap = 0;
    for (int ci = first; ci <= last; ci++) {
        Rename r = {.x = x, .ar = ar, .cs = &x->src[ci], .gc = &x->gr->calls[ci], .ci = ci, .cur = cur, .read = read};
        Stmt *body = x->src[ci].body;
        for (int s = 0; body && s < body->nitems; s++) {
            const Stmt *st = body->items[s];
            if (st->kind == ST_DECL) {
                Stmt *d = sem_copy_stmt(ar, st);
                d->name = local_name(&r, st->name);
                d->init = rename_expr(&r, st->init, false);
                push_stmt(ar, &items, &n, &cap, d);
                continue;
            }
            if (st->kind != ST_ASSIGN || !st->target || st->target->kind != EX_NAME) {
                push_stmt(ar, &items, &n, &cap, sem_copy_stmt(ar, st)); /* the callee's own error, reported already */
                continue;
            }
            int cpi = cparam(r.cs, st->target->name);
            if (cpi < 0 || r.cs->cparams[cpi].kind != PARAM_ARRAY) { /* a local reassigned */
                Stmt *a = sem_copy_stmt(ar, st);
                a->target = rename_expr(&r, st->target, false);
                a->value = rename_expr(&r, st->value, false);
                push_stmt(ar, &items, &n, &cap, a);
                continue;
            }
            int sl = slot(x, r.gc->arg[cpi]);
            Expr *v = rename_expr(&r, st->value, false);
            if (st->op >= 0) { /* y op= v: the current value op v */
                Expr *t = sem_copy_expr(ar, st->target);
                t->name = cur[sl] ? cur[sl] : slot_name(x, sl);
                if (!cur[sl]) read[sl] = true;
                Expr *b = sem_copy_expr(ar, st->value);
                b->kind = EX_BINARY;
                b->op = st->op;
                b->a = t;
                b->b = v;
                b->nargs = 0;
                b->nopts = 0;
                b->name = NULL;
                v = b;
            }
            /* a fresh local for each write (SSA) */
            Stmt *d = sem_copy_stmt(ar, st);
            d->kind = ST_DECL;
            d->name = arena_printf(ar, "%s__%d", slot_name(x, sl), version[sl]++);
            d->name_loc = st->target->loc;
            d->type = slot_type(x, sl);
            d->init = v;
            d->target = NULL;
            d->value = NULL;
            d->op = -1;
            push_stmt(ar, &items, &n, &cap, d);
            cur[sl] = d->name;
            written[sl] = true;
        }
    }
    /* the outputs: graph arrays written, and stored temporaries */
    for (int sl = 0; sl < nslots; sl++) {
        if (!written[sl]) continue;
        if (sl >= g->nparams && !stored[sl - g->nparams]) continue;
        Stmt *a = arena_alloc(ar, sizeof *a);
        a->kind = ST_ASSIGN;
        a->loc = sl < g->nparams ? g->params[sl].loc : x->gr->temps[sl - g->nparams].loc;
        a->op = -1;
        a->target = arena_alloc(ar, sizeof *a->target);
        a->target->kind = EX_NAME;
        a->target->loc = a->loc;
        a->target->name = slot_name(x, sl);
        a->value = arena_alloc(ar, sizeof *a->value);
        a->value->kind = EX_NAME;
        a->value->loc = a->loc;
        a->value->name = cur[sl];
        push_stmt(ar, &items, &n, &cap, a);
    }
    Func *k = arena_alloc(ar, sizeof *k);
    k->name = name;
    k->loc = x->gr->calls[first].loc;
    k->is_kernel = true;
    k->is_array_kernel = true;
    k->internal = true;
    k->ak_axis = -1;
    k->ret.spelling = "void";
    k->params = arena_alloc(ar, sizeof(Param) * (size_t)(nslots + 1));
    /* the graph's parameters it uses (scalars by name: the renamed arguments read them) */
    for (int i = 0; i < g->nparams; i++) {
        const Param *gp = &g->params[i];
        bool use = gp->kind == PARAM_ARRAY ? read[i] || written[i] : true;
        if (!use) continue;
        Param q = *gp;
        q.sym = NULL;
        if (gp->kind == PARAM_ARRAY) q.readonly = !written[i];
        k->params[k->nparams++] = q;
    }
    for (int t = 0; t < x->gr->ntemps; t++) {
        int sl = g->nparams + t;
        bool is_array = read[sl] || (written[sl] && stored[t]);
        if (!is_array) continue;
        const GraphTemp *gt = &x->gr->temps[t];
        Param q = {.name = gt->name, .loc = gt->loc, .kind = PARAM_ARRAY, .type = gt->type, .rank = gt->rank,
                   .whole = true, .readonly = !written[sl]};
        q.type.temp_rank = 0;
        q.type.is_const = q.readonly;
        k->params[k->nparams++] = q;
    }
    Stmt *b = arena_alloc(ar, sizeof *b);
    b->kind = ST_BLOCK;
    b->loc = x->gr->calls[first].loc;
    b->items = items;
    b->nitems = n;
    k->body = b;
    return k;
}

/* ---- fusion ----------------------------------------------------------------- */

/* "element-wise into a reduction's input", ...: what a fused pair is */
static const char *pair_text(const Func *producer, const Func *consumer)
{
    /* (a product whose operand a call of its part computes does not join it: computed_operand) */
    if (producer->ak_matmul && !consumer->ak_matmul) return "a matrix product's result into element-wise";
    bool pr = producer->ak_axis >= 0, cr = consumer->ak_axis >= 0;
    return pr ? (cr ? "a reduction's result into a reduction's input" : "a reduction's result into element-wise")
              : (cr ? "element-wise into a reduction's input" : "element-wise into element-wise");
}

/* The latest call of part [first, ci) that writes an array call ci reads. */
static int producer(Gx *x, int first, int ci)
{
    const GraphCall *c = &x->gr->calls[ci];
    for (int j = ci - 1; j >= first; j--) {
        const GraphCall *p = &x->gr->calls[j];
        for (int a = 0; a < x->src[ci].ncparams; a++) {
            if (!c->arg[a] || !x->src[ci].cparams[a].readonly) continue;
            for (int b = 0; b < x->src[j].ncparams; b++)
                if (p->arg[b] && !x->src[j].cparams[b].readonly && !strcmp(p->arg[b], c->arg[a])) return j;
        }
    }
    return -1;
}

/* Whether call ci is a matrix product whose operand is a temporary that a
 * call of the current part [first, ci) computes: fused, that operand would
 * be computed in the product's K loop, off the pipelined path (cp.async or
 * TMA rings feeding the tensor cores from shared memory), which costs far
 * more than storing it (docs/performance.md: 7.9x at 4096^3).  The
 * temporary's index, with the reason in why; -1 when not. */
static int computed_operand(Gx *x, int first, int ci, char *why, size_t len)
{
    const GraphCall *c = &x->gr->calls[ci];
    if (!c->callee->ak_matmul) return -1;
    for (int a = 0; a < c->callee->nparams; a++) {
        AkRole r = c->callee->params[a].ak_role;
        if ((r != AK_IN_A && r != AK_IN_B) || !c->arg[a]) continue;
        int t = graph_temp(x->gr, c->arg[a]);
        if (t < 0 || x->gr->temps[t].writer < first || x->gr->temps[t].writer >= ci) continue;
        snprintf(why, len, "its operand '%s' would be computed in the product's K loop, off the pipelined path; "
                           "it is stored instead",
                 c->arg[a]);
        return t;
    }
    return -1;
}

static bool fuse(Gx *x, bool remarks)
{
    Graph *gr = x->gr;
    Arena *ar = x->p->arena;
    bool *later = arena_alloc(ar, sizeof(bool) * (size_t)(gr->ntemps + 1));
    int *part_of = arena_alloc(ar, sizeof(int) * (size_t)(gr->ncalls + 1));
    int first = 0, nparts = 0;
    part_of[0] = 0;
    for (int ci = 1; ci < gr->ncalls; ci++) {
        /* the trial: the temporaries a call after ci reads are stored (if
         * that call joins the part later, they become values again) */
        for (int t = 0; t < gr->ntemps; t++) {
            later[t] = false;
            for (int cj = ci + 1; cj < gr->ncalls && !later[t]; cj++)
                for (int a = 0; a < x->src[cj].ncparams; a++)
                    if (gr->calls[cj].arg[a] && !strcmp(gr->calls[cj].arg[a], gr->temps[t].name)) later[t] = true;
        }
        char why[320] = "";
        const GraphCall *c = &gr->calls[ci];
        bool fuses = computed_operand(x, first, ci, why, sizeof why) < 0;
        if (fuses) {
            Func *t = build_part(x, first, ci, later, "trial");
            fuses = sem_array_kernel_fuses(ar, t, why, sizeof why);
        }
        if (fuses) {
            part_of[ci] = nparts;
            if (remarks) {
                int pj = producer(x, first, ci);
                if (pj >= 0)
                    diag_remark(c->loc, "'%s' fused with '%s' (line %d): %s", c->callee->name,
                                gr->calls[pj].callee->name, gr->calls[pj].loc.line,
                                pair_text(gr->calls[pj].callee, c->callee));
                else
                    diag_remark(c->loc, "'%s' fused with '%s' (line %d): the same iteration space, read in one pass",
                                c->callee->name, gr->calls[first].callee->name, gr->calls[first].loc.line);
            }
            continue;
        }
        if (remarks)
            diag_remark(c->loc, "'%s' not fused with '%s' (line %d): %s", c->callee->name,
                        gr->calls[ci - 1].callee->name, gr->calls[ci - 1].loc.line, why);
        first = ci;
        part_of[ci] = ++nparts;
    }
    nparts++;
    /* temporaries a later part reads are stored */
    bool *stored = arena_alloc(ar, sizeof(bool) * (size_t)(gr->ntemps + 1));
    for (int ci = 0; ci < gr->ncalls; ci++) {
        gr->calls[ci].part = part_of[ci];
        for (int a = 0; a < x->src[ci].ncparams; a++) {
            if (!gr->calls[ci].arg[a]) continue;
            int t = graph_temp(gr, gr->calls[ci].arg[a]);
            if (t < 0 || gr->temps[t].writer < 0) continue;
            bool reads = x->src[ci].cparams[a].readonly || x->src[ci].cparams[a].kind != PARAM_ARRAY;
            if (reads && part_of[gr->temps[t].writer] != part_of[ci]) stored[t] = true;
        }
    }
    for (int t = 0; t < gr->ntemps; t++) {
        gr->temps[t].stored = stored[t];
        if (remarks && gr->temps[t].writer >= 0)
            diag_remark(gr->temps[t].loc, stored[t] ? "temporary '%s' is stored in the workspace: a later kernel reads it"
                                                    : "temporary '%s' stays in registers",
                        gr->temps[t].name);
    }
    gr->parts = arena_alloc(ar, sizeof *gr->parts * (size_t)nparts);
    gr->nparts = nparts;
    for (int k = 0, ci = 0; k < nparts; k++) {
        int f = ci;
        while (ci < gr->ncalls && part_of[ci] == k) ci++;
        const char *name = nparts == 1 ? arena_printf(ar, "%s_fused", x->g->name) : arena_printf(ar, "%s_part%d", x->g->name, k);
        Func *kf = build_part(x, f, ci - 1, stored, name);
        gr->parts[k] = (GraphPart){.kernel = kf, .first = f, .last = ci - 1};
        if (!sem_array_kernel_lower(ar, kf)) {
            diag_note(gr->calls[f].loc, "in the kernel tilec made of graph '%s''s calls from here", x->g->name);
            return false;
        }
        Func **nf = arena_alloc(ar, sizeof(Func *) * (size_t)(x->p->nfuncs + 1));
        memcpy(nf, x->p->funcs, sizeof(Func *) * (size_t)x->p->nfuncs);
        nf[x->p->nfuncs++] = kf;
        x->p->funcs = nf;
    }
    return true;
}

bool sem_graphs(Program *p, bool remarks)
{
    bool ok = true;
    int nf = p->nfuncs;
    Gx *gx = arena_alloc(p->arena, sizeof *gx * (size_t)(nf + 1));
    for (int i = 0; i < nf; i++) {
        if (!p->funcs[i]->is_graph) continue;
        gx[i] = (Gx){.p = p, .g = p->funcs[i], .ok = true};
        if (!prepare(&gx[i])) ok = false;
    }
    if (!sem_array_kernels(p) || !ok) return false;
    for (int i = 0; i < nf; i++)
        if (p->funcs[i]->is_graph && !fuse(&gx[i], remarks)) ok = false;
    return ok;
}
