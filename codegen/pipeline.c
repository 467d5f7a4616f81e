/* pipeline.c: recognises the K loops of tensor-core matrix products whose
 * operand tiles can go straight from global to shared memory, several
 * iterations ahead of their use (a software pipeline of asynchronous
 * copies; kernel.c emits it).
 *
 * The general lowering of `acc = tile_mma(x, y, acc)` loads x and y into
 * registers, then stages them through shared memory for the tensor cores:
 * every load is waited for before the products start, so the tensor cores
 * idle for a full memory latency per K step.  When the loop body is nothing
 * but the operand loads and the update, the registers are never needed and
 * the loads of step k + s can be in flight while step k computes.  We accept
 * exactly that shape and nothing else, so the transformation cannot change
 * what a program means:
 *
 *     for (init; k < hi; k += 1) {          (k++ is k += 1)
 *         T x = tile_load(A, .index = {.., ..}, .shape = {M, K}, ...);
 *         T y = tile_load(B, .index = {.., ..}, .shape = {K, N}, ...);
 *         acc = tile_mma(x, y, acc);
 *     }
 *
 * with the loads possibly written inside the tile_mma call, in any order;
 * T float16 or bfloat16 (16-bit elements: 8 per 16-byte copy); rank-2
 * arrays, the default .order, zero padding (or the default, which reads 0);
 * indices and bound that are scalar expressions without loads or calls (so
 * evaluating them early, once per K step, is the same as evaluating them in
 * the body); M, N and K multiples of 16; a float32 accumulator.  Whether acc
 * lives in tensor-core fragments is the emitter's decision. */
#include <string.h>

#include "codegen/emit.h"

/* A scalar expression that can be evaluated anywhere in the loop: names,
 * literals, operators, casts, tile_bid, tile_num_blocks and tile_dim. */
static bool simple_scalar(const Expr *e)
{
    if (!e) return true;
    if (e->shape.rank != 0) return false;
    switch (e->kind) {
    case EX_INT:
    case EX_FLOAT:
    case EX_NAME:
        return true;
    case EX_UNARY:
        if (e->op != UOP_NEG && e->op != UOP_PLUS && e->op != UOP_NOT && e->op != UOP_BITNOT) return false;
        return simple_scalar(e->a);
    case EX_BINARY:
    case EX_COND:
    case EX_CAST:
        return simple_scalar(e->a) && simple_scalar(e->b) && simple_scalar(e->c);
    case EX_BUILTIN:
        if (builtin_info(e->bi)->cls == BCLASS_QUERY) return true; /* bid, num_blocks, dim */
        return false;
    default:
        return false;
    }
}

static bool reads_sym(const Expr *e, const Symbol *sym)
{
    if (!e) return false;
    if (e->kind == EX_NAME && e->sym == sym) return true;
    if (reads_sym(e->a, sym) || reads_sym(e->b, sym) || reads_sym(e->c, sym)) return true;
    for (int i = 0; i < e->nargs; i++)
        if (reads_sym(e->args[i], sym)) return true;
    for (int i = 0; i < e->nopts; i++)
        if (reads_sym(e->opts[i].value, sym)) return true;
    return false;
}

/* An operand load we can copy asynchronously: rows x cols of 16-bit
 * elements from a rank-2 array parameter, identity order, zero padding. */
static bool async_load(const Expr *e, int64_t rows, int64_t cols, Dtype dt)
{
    if (!e || e->kind != EX_BUILTIN || e->bi != BI_LOAD) return false;
    const Expr *arr = e->args[0];
    if (arr->kind != EX_NAME || !arr->sym || arr->sym->kind != SYM_PARAM || arr->sym->param->rank != 2) return false;
    if (e->dtype != dt || e->shape.rank != 2 || e->shape.dim[0] != rows || e->shape.dim[1] != cols) return false;
    const Expr *index = NULL;
    for (int i = 0; i < e->nopts; i++) {
        const Option *o = &e->opts[i];
        if (!strcmp(o->name, "index")) index = o->value;
        else if (!strcmp(o->name, "padding")) {
            /* TILE_PAD_UNDETERMINED (reads 0) or TILE_PAD_ZERO */
            if (!o->value->is_const || (o->value->cval.i != 0 && o->value->cval.i != 1)) return false;
        } else if (strcmp(o->name, "shape") && strcmp(o->name, "latency")) {
            return false; /* .order, or anything a later version adds */
        }
    }
    if (!index || index->kind != EX_LIST || index->nargs != 2) return false;
    return simple_scalar(index->args[0]) && simple_scalar(index->args[1]);
}

/* Operand i of the update: a load written in place, or a variable declared
 * by one of the body's other statements with a load. */
static const Expr *operand_load(const Stmt *body, const Expr *arg, const Stmt **decl)
{
    *decl = NULL;
    if (arg->kind == EX_BUILTIN) return arg;
    if (arg->kind != EX_NAME || !arg->sym) return NULL;
    for (int i = 0; i + 1 < body->nitems; i++) {
        const Stmt *d = body->items[i];
        if (d->kind == ST_DECL && d->sym == arg->sym) {
            if (d->assigned || !d->init || d->sym->dtype != d->init->dtype) return NULL;
            *decl = d;
            return d->init;
        }
    }
    return NULL;
}

bool pipeline_match(const Stmt *st, PipeLoop *pl)
{
    memset(pl, 0, sizeof *pl);
    if (st->kind != ST_FOR || !st->cond || !st->step_s || !st->body) return false;

    /* k += 1 */
    const Stmt *step = st->step_s;
    if (step->kind == ST_BLOCK) {
        if (step->nitems != 1) return false;
        step = step->items[0];
    }
    if (step->kind != ST_ASSIGN) return false;
    const Symbol *k = step->target->sym;
    const Expr *inc = step->value; /* k = k + 1, as sema desugars k += 1 */
    if (inc->kind != EX_BINARY || inc->op != BOP_ADD || inc->a->kind != EX_NAME || inc->a->sym != k ||
        inc->b->kind != EX_INT || inc->b->ival != 1)
        return false;
    if (!k || k->kind != SYM_VAR || k->shape.rank != 0 || !dtype_is_int(k->dtype) || !dtype_is_signed(k->dtype))
        return false;

    /* k < hi, hi not depending on k */
    const Expr *c = st->cond;
    if (c->kind != EX_BINARY || c->op != BOP_LT || c->a->kind != EX_NAME || c->a->sym != k) return false;
    if (!simple_scalar(c->b) || reads_sym(c->b, k)) return false;
    /* signed (or a literal), so that the trip count is exact in int64 */
    if (!c->b->is_const && (!dtype_is_int(c->b->dtype) || !dtype_is_signed(c->b->dtype))) return false;

    /* the body: declarations of the operands, then the update */
    const Stmt *body = st->body;
    Stmt *only[1] = {st->body};
    Stmt single = {.kind = ST_BLOCK, .items = only, .nitems = 1}; /* a body without braces */
    if (body->kind != ST_BLOCK) body = &single;
    if (body->nitems < 1 || body->nitems > 3) return false;
    const Stmt *up = body->items[body->nitems - 1];
    if (up->kind != ST_ASSIGN || up->op >= 0 || up->value->kind != EX_BUILTIN || up->value->bi != BI_MMA)
        return false;
    const Expr *m = up->value;
    if (m->nargs != 3 || m->args[2]->kind != EX_NAME || m->args[2]->sym != up->target->sym) return false;
    const Symbol *acc = up->target->sym;
    if (acc->dtype != DT_FLOAT32 || acc->shape.rank != 2) return false;
    Dtype dt = m->args[0]->dtype;
    if ((dt != DT_FLOAT16 && dt != DT_BFLOAT16) || m->args[1]->dtype != dt) return false;
    int64_t M = acc->shape.dim[0], N = acc->shape.dim[1], K = m->args[0]->shape.dim[1];
    if (M % 16 || N % 16 || K % 16 || m->args[0]->shape.dim[0] != M || m->args[1]->shape.dim[0] != K ||
        m->args[1]->shape.dim[1] != N)
        return false;

    const Stmt *decl[2];
    for (int i = 0; i < 2; i++) {
        const Expr *l = operand_load(body, m->args[i], &decl[i]);
        if (!async_load(l, i ? K : M, i ? N : K, dt)) return false;
        pl->load[i] = (Expr *)l;
    }
    /* every other statement is the declaration of one operand */
    int ndecl = (decl[0] != NULL) + (decl[1] != NULL);
    if (decl[0] && decl[0] == decl[1]) return false;
    if (ndecl != body->nitems - 1) return false;
    /* the loop variable and the bound stay fixed while the body runs; the
     * body assigns nothing but its own declarations and acc */
    if (acc == k || reads_sym(c->b, acc)) return false;
    for (int i = 0; i < 2; i++)
        if (decl[i] && reads_sym(c->b, decl[i]->sym)) return false;

    pl->loop = st;
    pl->k = (Symbol *)k;
    pl->hi = c->b;
    pl->update = (Stmt *)up;
    pl->acc = (Symbol *)acc;
    pl->M = M;
    pl->N = N;
    pl->K = K;
    pl->dtype = dt;
    return true;
}
