/* array_lower.c: the second half of array kernels (sema/array_kernel.c has
 * the first, the checks and the analysis): the AST nodes and statements of
 * the tile kernel an array kernel is rewritten into, element-wise kernels'
 * tiles and loads, and row kernels' phases, chunks, masks and outputs. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "frontend/diag.h"
#include "sema/array_kernel_impl.h"
#include "sema/sema_impl.h"

/* ---- small constructors ---------------------------------------------------- */

Expr *ak_mk(Ak *a, ExprKind k, SrcLoc loc)
{
    Expr *e = arena_alloc(a->ar, sizeof *e);
    e->kind = k;
    e->loc = loc;
    return e;
}

Expr *ak_int(Ak *a, int64_t v, SrcLoc loc)
{
    Expr *e = ak_mk(a, EX_INT, loc);
    e->ival = v;
    e->uval = (uint64_t)v;
    return e;
}

Expr *ak_name(Ak *a, const char *name, SrcLoc loc)
{
    Expr *e = ak_mk(a, EX_NAME, loc);
    e->name = name;
    return e;
}

Expr *ak_bin(Ak *a, BinaryOp op, Expr *l, Expr *r)
{
    Expr *e = ak_mk(a, EX_BINARY, l->loc);
    e->op = op;
    e->a = l;
    e->b = r;
    return e;
}

Expr *ak_call(Ak *a, Builtin bi, SrcLoc loc, int nargs, Expr *a0, Expr *a1, Expr *a2)
{
    Expr *e = ak_mk(a, EX_BUILTIN, loc);
    e->bi = bi;
    e->name = builtin_info(bi)->name;
    e->args = arena_alloc(a->ar, sizeof(Expr *) * 3);
    e->args[0] = a0;
    e->args[1] = a1;
    e->args[2] = a2;
    e->nargs = nargs;
    return e;
}

void ak_opt(Ak *a, Expr *call, const char *name, Expr *value)
{
    Option *o = arena_alloc(a->ar, sizeof *o * (size_t)(call->nopts + 1));
    if (call->nopts) memcpy(o, call->opts, sizeof *o * (size_t)call->nopts);
    o[call->nopts] = (Option){.name = name, .loc = value->loc, .value = value};
    call->opts = o;
    call->nopts++;
}

Expr *ak_list(Ak *a, Expr *const *items, int n, SrcLoc loc)
{
    Expr *e = ak_mk(a, EX_LIST, loc);
    e->args = arena_alloc(a->ar, sizeof(Expr *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) e->args[i] = sem_copy_expr(a->ar, items[i]);
    e->nargs = n;
    return e;
}

Stmt *ak_stmt(Ak *a, StmtKind k, SrcLoc loc)
{
    Stmt *s = arena_alloc(a->ar, sizeof *s);
    s->kind = k;
    s->loc = loc;
    s->op = -1;
    return s;
}

Stmt *ak_decl(Ak *a, const char *name, TypeRef t, Expr *init, SrcLoc loc)
{
    Stmt *s = ak_stmt(a, ST_DECL, loc);
    s->name = name;
    s->name_loc = loc;
    s->type = t;
    s->init = init;
    return s;
}

Stmt *ak_assign(Ak *a, const char *name, Expr *value, SrcLoc loc)
{
    Stmt *s = ak_stmt(a, ST_ASSIGN, loc);
    s->target = ak_name(a, name, loc);
    s->value = value;
    return s;
}



void ak_push(Ak *a, StmtBuf *b, Stmt *s)
{
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 16;
        Stmt **n = arena_alloc(a->ar, sizeof *n * (size_t)cap);
        if (b->n) memcpy(n, b->items, sizeof *n * (size_t)b->n);
        b->items = n;
        b->cap = cap;
    }
    b->items[b->n++] = s;
}

Stmt *ak_block(Ak *a, StmtBuf *b, SrcLoc loc)
{
    Stmt *s = ak_stmt(a, ST_BLOCK, loc);
    s->items = b->items;
    s->nitems = b->n;
    return s;
}

/* ---- lowering ------------------------------------------------------------ */


static Expr *block_name(Ak *a)
{
    return ak_name(a, "TILEC_BLOCK", a->f->loc);
}

/* AK_ELEMS / extent, at least 1: the rows of a tile beside its row extent */
static Expr *elems_per(Ak *a, Expr *extent)
{
    Expr *c = ak_mk(a, EX_COND, a->f->loc);
    c->a = ak_bin(a, BOP_GE, extent, ak_int(a, AK_ELEMS, a->f->loc));
    c->b = ak_int(a, 1, a->f->loc);
    c->c = ak_bin(a, BOP_DIV, ak_int(a, AK_ELEMS, a->f->loc), sem_copy_expr(a->ar, extent));
    return c;
}

/* An access of array p (rank r <= t->rank, aligned at the last axes) at
 * the tile's coordinates idx (rank t->rank). */
Expr *ak_access(Ak *a, Builtin bi, const Param *p, Expr *value, Expr *const *idx, const Tile *t, SrcLoc loc)
{
    Expr *call = ak_call(a, bi, loc, bi == BI_STORE ? 2 : 1, ak_name(a, p->name, loc), value, NULL);
    int off = t->rank - p->rank;
    ak_opt(a, call, "index", ak_list(a, idx + off, p->rank, loc));
    ak_opt(a, call, "shape", ak_list(a, t->ext + off, p->rank, loc));
    if (bi == BI_LOAD && a->pad) ak_opt(a, call, "padding", ak_int(a, a->pad, loc));
    return call;
}

static TypeRef value_type(const Param *p)
{
    TypeRef t = p->type;
    t.is_const = false;
    return t;
}

/* v broadcast to the tile when its rank is below the tile's. */
static Expr *widen(Ak *a, Expr *v, int rank, const Tile *t)
{
    if (rank >= t->rank) return v;
    Expr *b = ak_call(a, BI_BROADCAST_TO, v->loc, 1, v, NULL, NULL);
    ak_opt(a, b, "shape", ak_list(a, t->ext, t->rank, v->loc));
    return b;
}

void ak_add_tunable(Ak *a, const int64_t *vals, int n, int ref, int dim)
{
    Func *f = a->f;
    Param *np = arena_alloc(a->ar, sizeof *np * (size_t)(f->nparams + 1));
    memcpy(np, f->params, sizeof *np * (size_t)f->nparams);
    Param *p = &np[f->nparams];
    p->name = "TILEC_BLOCK";
    p->loc = f->loc;
    p->kind = PARAM_CONST;
    p->type = (TypeRef){.spelling = "int", .dtype = DT_INT32};
    p->specs = arena_alloc(a->ar, sizeof(int64_t) * (size_t)n);
    memcpy(p->specs, vals, sizeof(int64_t) * (size_t)n);
    p->nspecs = n;
    p->tunable = true;
    p->ak_ref = ref;
    p->ak_dim = dim;
    f->params = np;
    f->nparams++;
}

Expr *ak_bid(Ak *a, int axis)
{
    return ak_call(a, BI_BID, a->f->loc, 1, ak_int(a, axis, a->f->loc), NULL, NULL);
}

/* Loads of the arrays marked in use[] at idx: `T X = tile_load(X, ...)`. */
void ak_load_all(Ak *a, StmtBuf *b, const bool *use, Expr *const *idx, const Tile *t)
{
    for (int i = 0; i < a->f->nparams; i++) {
        const Param *p = &a->f->params[i];
        if (!use[i] || p->kind != PARAM_ARRAY) continue;
        ak_push(a, b, ak_decl(a, p->name, p->type, ak_access(a, BI_LOAD, p, NULL, idx, t, p->loc), p->loc));
    }
}

void ak_lower_elementwise(Ak *a, Stmt *body, int R)
{
    Func *f = a->f;
    SrcLoc loc = f->loc;
    Tile t = {.rank = R};
    int ref = a->assigned_order[0];
    if (R == 1) {
        static const int64_t v[] = {2048, 1024, 4096};
        ak_add_tunable(a, v, 3, -1, 0);
        t.ext[0] = block_name(a);
    } else {
        static const int64_t v[] = {256, 64, 1024};
        ak_add_tunable(a, v, 3, ref, R - 1);
        for (int d = 0; d < R - 2; d++) t.ext[d] = ak_int(a, 1, loc);
        t.ext[R - 2] = elems_per(a, block_name(a));
        t.ext[R - 1] = block_name(a);
    }
    /* grid: the rows of tiles on x (2^31 blocks), the rest on y and z */
    Expr *idx[4];
    if (R == 1) idx[0] = ak_bid(a, 0);
    else if (R == 2) idx[0] = ak_bid(a, 0), idx[1] = ak_bid(a, 1);
    else idx[0] = ak_bid(a, 1), idx[1] = ak_bid(a, 0), idx[2] = ak_bid(a, 2);
    StmtBuf b = {0};
    bool use[64] = {0};
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        /* inputs, and outputs read (or updated, +=) before their first assignment */
        use[i] = a->read_first[i] || (a->used_out[i] && (p->readonly || !a->assigned[i]));
    }
    ak_load_all(a, &b, use, idx, &t);
    bool declared[64];
    memcpy(declared, use, sizeof declared);
    for (int s = 0; s < body->nitems; s++) {
        Stmt *st = body->items[s];
        if (st->kind == ST_DECL && ak_has_reduction(a, st->init)) {
            /* no output reads it (else this were a row kernel) */
            if (!a->quiet) diag_warning("unused-value", st->name_loc, "temporary '%s' is never used", st->name);
            continue;
        }
        int pi = st->kind == ST_ASSIGN ? ak_param_index(f, st->target->name) : -1;
        if (pi < 0 || declared[pi]) {
            ak_push(a, &b, st);
            continue;
        }
        const Param *p = &f->params[pi];
        int r = ak_rank_of(a, st->value); /* analysed before: no new errors */
        ak_push(a, &b, ak_decl(a, p->name, value_type(p), widen(a, st->value, r, &t), st->target->loc));
        declared[pi] = true;
    }
    ak_store_outputs(a, &b, idx, &t);
    f->body = ak_block(a, &b, body->loc);
}

void ak_store_outputs(Ak *a, StmtBuf *b, Expr *const *idx, const Tile *t)
{
    for (int k = 0; k < a->nassigned; k++) {
        const Param *p = &a->f->params[a->assigned_order[k]];
        Stmt *st = ak_stmt(a, ST_EXPR, p->loc);
        st->value = ak_access(a, BI_STORE, p, ak_name(a, p->name, p->loc), idx, t, p->loc);
        ak_push(a, b, st);
    }
}

static const char *acc_name(Ak *a, int j)
{
    return arena_printf(a->ar, "__ak_r%d", j);
}

/* A copy of the (substituted) value e to emit: each reduction becomes its
 * accumulator (kept as rank R; squeezed to the reduced tile ot when reduced
 * is set, for the reduced space's values). */
static Expr *emit_value(Ak *a, const Expr *e, const Tile *ot, bool reduced);

static Expr *emit_node(Ak *a, const Expr *e, const Tile *ot, bool reduced);

enum { AK_MEMO_SIZE = 24 };

int ak_tree_size(const Expr *e, int cap)
{
    if (!e || cap <= 0) return 0;
    int n = 1;
    const Expr *ops[3] = {e->a, e->b, e->c};
    for (int i = 0; i < 3 && n < cap; i++) n += ak_tree_size(ops[i], cap - n);
    for (int i = 0; i < e->nargs && n < cap; i++) n += ak_tree_size(e->args[i], cap - n);
    return n;
}

/* A temporary's value once per context (see Memo), when it is large. */
static Expr *emit_value(Ak *a, const Expr *e, const Tile *ot, bool reduced)
{
    if (!e) return NULL;
    Memo *m = a->memo;
    int k = -1;
    for (int i = 0; m && i < a->ntmp && k < 0; i++)
        if (a->tmp[i].init == e && e->kind != EX_NAME && e->kind != EX_INT && e->kind != EX_FLOAT) k = i;
    /* a small value is recomputed where it is used: a tile kept live across
     * the phases costs registers (and spills) that recomputing does not */
    if (k < 0) return emit_node(a, e, ot, reduced);
    VKind vk = ak_kind_of(a, e);
    if (!m->all && vk != VK_S && vk != VK_K && ak_tree_size(e, AK_MEMO_SIZE) < AK_MEMO_SIZE)
        return emit_node(a, e, ot, reduced);
    for (int i = 0; i < m->n; i++)
        if (m->key[i] == e && m->red[i] == reduced) return ak_name(a, m->name[i], e->loc);
    Expr *v = emit_node(a, e, ot, reduced);
    if (m->n == 64) return v;
    const char *name = arena_printf(a->ar, "__ak_t%d_%d%s", k, m->id, reduced ? "r" : "");
    ak_push(a, m->buf, ak_decl(a, name, ak_auto, v, e->loc));
    m->key[m->n] = e;
    m->red[m->n] = reduced;
    m->name[m->n++] = name;
    return ak_name(a, name, e->loc);
}

static Memo *memo_new(Ak *a, StmtBuf *buf)
{
    Memo *m = arena_alloc(a->ar, sizeof *m);
    m->buf = buf;
    m->id = a->nmemo++;
    return m;
}

static Expr *emit_node(Ak *a, const Expr *e, const Tile *ot, bool reduced)
{
    if (!e) return NULL;
    if (e->kind == EX_NAME) {
        int pi = ak_param_index(a->f, e->name);
        if (pi >= 0 && a->alias[pi]) return ak_name(a, a->alias[pi], e->loc);
    }
    int j = ak_red_index(a, e);
    if (j >= 0) {
        Expr *n = ak_name(a, acc_name(a, j), e->loc);
        if (!reduced) return n;
        Expr *rs = ak_call(a, BI_RESHAPE, e->loc, 1, n, NULL, NULL);
        ak_opt(a, rs, "shape", ak_list(a, ot->ext, ot->rank, e->loc));
        return rs;
    }
    if (e->kind == EX_BUILTIN && e->bi == BI_SQUEEZE) {
        /* the kept value, reshaped to the reduced tile */
        Expr *inner = emit_value(a, e->args[0], ot, false);
        Expr *rs = ak_call(a, BI_RESHAPE, e->loc, 1, inner, NULL, NULL);
        ak_opt(a, rs, "shape", ak_list(a, ot->ext, ot->rank, e->loc));
        return rs;
    }
    Expr *c = arena_alloc(a->ar, sizeof *c);
    *c = *e;
    c->a = emit_value(a, e->a, ot, reduced);
    c->b = emit_value(a, e->b, ot, reduced);
    c->c = emit_value(a, e->c, ot, reduced);
    if (e->nargs) {
        c->args = arena_alloc(a->ar, sizeof(Expr *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = e->kind == EX_BUILTIN && e->bi == BI_DIM && i == 0 ? sem_copy_expr(a->ar, e->args[i])
                                                                         : emit_value(a, e->args[i], ot, reduced);
    }
    if (e->nopts) {
        c->opts = arena_alloc(a->ar, sizeof(Option) * (size_t)e->nopts);
        for (int i = 0; i < e->nopts; i++) {
            c->opts[i] = e->opts[i];
            c->opts[i].value = emit_value(a, e->opts[i].value, ot, reduced);
        }
    }
    return c;
}

static Expr *combine(Ak *a, Builtin bi, Expr *acc, Expr *part)
{
    switch (bi) {
    case BI_SUM: return ak_bin(a, BOP_ADD, acc, part);
    case BI_PROD: return ak_bin(a, BOP_MUL, acc, part);
    case BI_MAX: return ak_call(a, BI_MAXIMUM, part->loc, 2, acc, part, NULL);
    default: return ak_call(a, BI_MINIMUM, part->loc, 2, acc, part, NULL);
    }
}

/* RED(operand, .axis = K, .keepdims = true) */
static Expr *reduce(Ak *a, const Expr *user, Expr *operand)
{
    Expr *r = ak_call(a, user->bi, user->loc, 1, operand, NULL, NULL);
    ak_opt(a, r, "axis", ak_int(a, a->K, user->loc));
    ak_opt(a, r, "keepdims", ak_int(a, 1, user->loc));
    return r;
}

/* Whether some reduction of phase p reads array i (through its operand). */
static bool phase_reads(Ak *a, int p, int i)
{
    bool full[64] = {0}, reduced[64] = {0};
    for (int j = 0; j < a->nred; j++)
        if (a->phase[j] == p) ak_mark_reads(a, a->red[j]->args[0], true, full, reduced);
    return full[i];
}

/* load_all under names of their own (`__ak_pP_x`), which emit_value uses
 * until unprefix: a first chunk loaded beside the loop's. */
static void load_all_prefixed(Ak *a, StmtBuf *b, const bool *use, Expr *const *idx, const Tile *t, int p)
{
    for (int i = 0; i < a->f->nparams; i++) {
        const Param *q = &a->f->params[i];
        if (!use[i] || q->kind != PARAM_ARRAY) continue;
        const char *name = arena_printf(a->ar, "__ak_p%d_%s", p, q->name);
        ak_push(a, b, ak_decl(a, name, q->type, ak_access(a, BI_LOAD, q, NULL, idx, t, q->loc), q->loc));
        a->alias[i] = name;
    }
}

static void unprefix(Ak *a)
{
    memset(a->alias, 0, sizeof a->alias);
}

/* ---- padding instead of masks ------------------------------------------------
 *
 * A reduction whose operand is its identity wherever the arrays read their
 * padding needs no mask: max(x) with x padded by -inf, or sum(exp(x - m)),
 * whose exp(-inf - m) is 0.  pad_value evaluates an operand with every
 * array at padding value P, the reductions it reads (the row's statistics)
 * and the scalars finite; pick_padding chooses a P that frees every
 * reduction of its mask, if there is one (a hand-written softmax loads with -inf
 * padding for the same reason: a compare and a select per element and
 * reduction is what the mask costs). */
enum { PV_ZERO, PV_ONE, PV_NEGINF, PV_POSINF, PV_FIN, PV_ANY };

static int pv_neg(int v)
{
    return v == PV_NEGINF ? PV_POSINF : v == PV_POSINF ? PV_NEGINF : v == PV_ONE ? PV_FIN : v;
}

static int pv_add(int x, int y)
{
    if (x == PV_ANY || y == PV_ANY) return PV_ANY;
    if ((x == PV_NEGINF && y == PV_POSINF) || (x == PV_POSINF && y == PV_NEGINF)) return PV_ANY;
    if (x == PV_NEGINF || x == PV_POSINF) return x;
    if (y == PV_NEGINF || y == PV_POSINF) return y;
    if (x == PV_ZERO) return y;
    if (y == PV_ZERO) return x;
    return PV_FIN;
}

static int pv_mul(int x, int y)
{
    if (x == PV_ANY || y == PV_ANY) return PV_ANY;
    if (x == PV_ONE) return y;
    if (y == PV_ONE) return x;
    bool xi = x == PV_NEGINF || x == PV_POSINF, yi = y == PV_NEGINF || y == PV_POSINF;
    if (x == PV_ZERO || y == PV_ZERO) return xi || yi ? PV_ANY : PV_ZERO;
    if (xi && yi) return x == y ? PV_POSINF : PV_NEGINF;
    return xi || yi ? PV_ANY : PV_FIN; /* inf times a finite of unknown sign */
}

static int pad_value(Ak *a, const Expr *e, int P, int depth)
{
    if (!e || depth > 64) return PV_ANY;
    if (ak_red_index(a, e) >= 0) return PV_FIN;
    switch (e->kind) {
    case EX_INT: return e->ival == 0 ? PV_ZERO : e->ival == 1 ? PV_ONE : PV_FIN;
    case EX_FLOAT:
        if (isnan(e->fval)) return PV_ANY;
        if (isinf(e->fval)) return e->fval < 0 ? PV_NEGINF : PV_POSINF;
        return e->fval == 0 ? PV_ZERO : e->fval == 1 ? PV_ONE : PV_FIN;
    case EX_NAME: {
        int pi = ak_param_index(a->f, e->name);
        return pi >= 0 && a->f->params[pi].kind == PARAM_ARRAY ? P : PV_FIN;
    }
    case EX_CAST: return pad_value(a, e->a, P, depth + 1);
    case EX_UNARY:
        if (e->op == UOP_PLUS) return pad_value(a, e->a, P, depth + 1);
        return e->op == UOP_NEG ? pv_neg(pad_value(a, e->a, P, depth + 1)) : PV_ANY;
    case EX_BINARY: {
        int x = pad_value(a, e->a, P, depth + 1), y = pad_value(a, e->b, P, depth + 1);
        switch (e->op) {
        case BOP_ADD: return pv_add(x, y);
        case BOP_SUB: return pv_add(x, pv_neg(y));
        case BOP_MUL: return pv_mul(x, y);
        case BOP_DIV: return y == PV_ONE ? x : PV_ANY; /* 0 / 0 and inf / inf are NaN */
        default: return PV_ANY;
        }
    }
    case EX_BUILTIN:
        switch (e->bi) {
        case BI_CAST: return e->nargs ? pad_value(a, e->args[0], P, depth + 1) : PV_ANY;
        case BI_EXP: case BI_EXP2: {
            int x = e->nargs ? pad_value(a, e->args[0], P, depth + 1) : PV_ANY;
            return x == PV_NEGINF ? PV_ZERO : x == PV_ZERO ? PV_ONE : x == PV_POSINF ? PV_POSINF : PV_ANY;
        }
        default: return PV_ANY;
        }
    default: return PV_ANY;
    }
}

/* Whether the padding P makes reduction u's operand its identity. */
static bool pad_frees(Ak *a, const Expr *u, int P)
{
    int want = u->bi == BI_SUM ? PV_ZERO : u->bi == BI_PROD ? PV_ONE : u->bi == BI_MAX ? PV_NEGINF : PV_POSINF;
    return ak_float_class(a, u->args[0]) == 1 && pad_value(a, u->args[0], P, 0) == want;
}

/* Sets a->pad (see above): a padding that frees every reduction of its
 * mask, float arrays only.  All or nothing: padded loads beside masks gain
 * little, and their registers cost (layer norm's unaligned loads spilled). */
static void pick_padding(Ak *a)
{
    a->pad = 0;
    for (int i = 0; i < a->f->nparams; i++)
        if (a->used_in_red[i] && !dtype_is_float(a->f->params[i].type.dtype)) return;
    static const int cand[3][2] = {{PV_ZERO, 1 /* TILE_PAD_ZERO */}, {PV_NEGINF, 5 /* TILE_PAD_NEG_INF */},
                                   {PV_POSINF, 4 /* TILE_PAD_POS_INF */}};
    for (int c = 0; c < 3; c++) {
        int j = 0;
        while (j < a->nred && pad_frees(a, a->red[j], cand[c][0])) j++;
        if (j == a->nred) {
            a->pad = cand[c][1];
            return;
        }
    }
}

/* The mask of chunk c (an expression) along K: (c * chunk + arange(chunk)) < extent. */
static Expr *chunk_mask(Ak *a, Expr *c, Expr *chunk, Expr *extent, SrcLoc loc)
{
    Expr *ty = ak_mk(a, EX_TYPE, loc);
    ty->type = ak_int64;
    Expr *ar = ak_call(a, BI_ARANGE, loc, 1, ty, NULL, NULL);
    ak_opt(a, ar, "shape", ak_list(a, &chunk, 1, loc));
    Expr *pos = ak_bin(a, BOP_ADD, ak_bin(a, BOP_MUL, c, sem_copy_expr(a->ar, chunk)), ar);
    if (a->K < a->R - 1) {
        Expr *shp[4] = {chunk};
        for (int d = 1; d < a->R - a->K; d++) shp[d] = ak_int(a, 1, loc);
        Expr *rs = ak_call(a, BI_RESHAPE, loc, 1, pos, NULL, NULL);
        ak_opt(a, rs, "shape", ak_list(a, shp, a->R - a->K, loc));
        pos = rs;
    }
    return ak_bin(a, BOP_LT, pos, sem_copy_expr(a->ar, extent));
}

/* RED(where(mask, v, identity)): reduction j's value over one chunk (RED(v)
 * where the loads' padding gives the identity: pick_padding).  The
 * mask is an expression computed where it is used (a bool tile kept in
 * registers across the phases would cost one register per element); the
 * operand is declared `auto vname = ...` only for a maximum or minimum of
 * integers, whose fill (the chunk's own minimum or maximum) reads it twice. */
static Expr *masked_part(Ak *a, StmtBuf *b, int j, const char *vname, Expr *mask, const Tile *it, const Tile *ot)
{
    const Expr *u = a->red[j];
    SrcLoc l = u->loc;
    Expr *op = widen(a, emit_value(a, u->args[0], ot, false), ak_vrank(a, u->args[0]), it);
    if (a->pad) return reduce(a, u, op); /* the padding is the identity (pick_padding) */
    Expr *fill;
    switch (u->bi) {
    case BI_SUM: fill = ak_int(a, 0, l); break;
    case BI_PROD: fill = ak_int(a, 1, l); break;
    default:
        if (ak_float_class(a, u->args[0]) == 1) { /* -inf for a maximum, +inf for a minimum */
            fill = ak_mk(a, EX_FLOAT, l);
            fill->fval = u->bi == BI_MAX ? -INFINITY : INFINITY;
        } else {
            ak_push(a, b, ak_decl(a, vname, ak_auto, op, l));
            op = ak_name(a, vname, l);
            fill = ak_call(a, u->bi == BI_MAX ? BI_MIN : BI_MAX, l, 1, ak_name(a, vname, l), NULL, NULL);
        }
        break;
    }
    return reduce(a, u, ak_call(a, BI_WHERE, l, 3, mask, op, fill));
}

/* The one-chunk branch's mask: the row fits the chunk, so int32 positions
 * against its extent. */
static Expr *single_mask(Ak *a, Expr *chunk, Expr *extent, SrcLoc loc)
{
    Expr *ty = ak_mk(a, EX_TYPE, loc);
    ty->type = (TypeRef){.spelling = "int32_t", .dtype = DT_INT32};
    Expr *ar = ak_call(a, BI_ARANGE, loc, 1, ty, NULL, NULL);
    ak_opt(a, ar, "shape", ak_list(a, &chunk, 1, loc));
    Expr *pos = ar;
    if (a->K < a->R - 1) {
        Expr *shp[4] = {chunk};
        for (int d = 1; d < a->R - a->K; d++) shp[d] = ak_int(a, 1, loc);
        pos = ak_call(a, BI_RESHAPE, loc, 1, ar, NULL, NULL);
        ak_opt(a, pos, "shape", ak_list(a, shp, a->R - a->K, loc));
    }
    Expr *ty2 = ak_mk(a, EX_TYPE, loc);
    ty2->type = ty->type;
    return ak_bin(a, BOP_LT, pos, ak_call(a, BI_CAST, loc, 2, sem_copy_expr(a->ar, extent), ty2, NULL));
}

static Stmt *for_chunks(Ak *a, int from, const char *var, StmtBuf *body, bool inclusive, SrcLoc loc)
{
    Stmt *loop = ak_stmt(a, ST_FOR, loc);
    StmtBuf init = {0};
    ak_push(a, &init, ak_decl(a, var, ak_int64, ak_int(a, from, loc), loc));
    loop->init_s = ak_block(a, &init, loc);
    loop->cond = ak_bin(a, inclusive ? BOP_LE : BOP_LT, ak_name(a, var, loc), ak_name(a, "__ak_last", loc));
    loop->step_s = ak_assign(a, var, ak_int(a, 1, loc), loc);
    loop->step_s->op = BOP_ADD;
    loop->body = ak_block(a, body, loc);
    return loop;
}

/* The outputs of the reduced space and those kept along K, after the phases. */
static void reduced_outputs(Ak *a, StmtBuf *b, Expr *const *oidx, Expr *const *at_0, const Tile *ot, const Tile *kt)
{
    Func *f = a->f;
    ak_load_all(a, b, a->used_out, oidx, ot);
    for (int k = 0; k < a->nassigned; k++) {
        int pi = a->assigned_order[k];
        const Param *p = &f->params[pi];
        if (a->out_kind[pi] == AK_KEEP_FULL) continue;
        bool red = a->out_kind[pi] == AK_KEEP_REDUCED;
        const Tile *t = red ? ot : kt;
        Expr *v = emit_value(a, a->final_value[pi], ot, red);
        v = widen(a, v, ak_vrank(a, a->final_value[pi]), t);
        ak_push(a, b, ak_decl(a, p->name, value_type(p), v, a->final_loc[pi]));
        Stmt *st = ak_stmt(a, ST_EXPR, p->loc);
        st->value = ak_access(a, BI_STORE, p, ak_name(a, p->name, p->loc), red ? oidx : at_0, t, p->loc);
        ak_push(a, b, st);
    }
}

/* The outputs of the full space at chunk coordinates at (loaded already). */
static void full_outputs(Ak *a, StmtBuf *b, Expr *const *at, const Tile *it, const Tile *ot)
{
    Func *f = a->f;
    for (int k = 0; k < a->nassigned; k++) {
        int pi = a->assigned_order[k];
        const Param *p = &f->params[pi];
        if (a->out_kind[pi] != AK_KEEP_FULL) continue;
        Expr *v = emit_value(a, a->final_value[pi], ot, false);
        v = widen(a, v, ak_vrank(a, a->final_value[pi]), it);
        ak_push(a, b, ak_decl(a, p->name, value_type(p), v, a->final_loc[pi]));
        Stmt *st = ak_stmt(a, ST_EXPR, p->loc);
        st->value = ak_access(a, BI_STORE, p, ak_name(a, p->name, p->loc), at, it, p->loc);
        ak_push(a, b, st);
    }
}

/* The row kernel (see the top of the file).  A row that fits one chunk
 * (__ak_last == 0, the common case) takes a branch that loads it once and
 * computes every phase and output from those registers, as a hand-written
 * kernel would; longer rows take a branch that walks the chunks once per
 * phase, then once more for the full-space outputs, each chunk's tiles live
 * only within its iteration (the first chunk starts the accumulators;
 * every chunk is masked, so the last may be partial). */
void ak_lower_rows(Ak *a, SrcLoc bloc)
{
    Func *f = a->f;
    SrcLoc loc = f->loc;
    const int R = a->R, K = a->K;
    int refp = -1;
    for (int i = 0; i < f->nparams && refp < 0; i++)
        if (a->used_in_red[i] && f->params[i].kind == PARAM_ARRAY && f->params[i].rank == R) refp = i;
    pick_padding(a);
    Tile it = {.rank = R}, ot = {.rank = R - 1}, kt = {.rank = R};
    for (int d = 0; d < R; d++) it.ext[d] = ak_int(a, 1, loc);
    /* along the last axis: TILEC_BLOCK is the chunk of a row that fits one
     * (the one-chunk specializations), 0 for rows walked 1024 elements at a
     * time (a chunk's values are live beside the next's there, and wider
     * chunks spill) */
    const bool rows = K == R - 1;
    if (rows) {
        static const int64_t v[] = {1024, 256, 4096, 8192, 0};
        ak_add_tunable(a, v, 5, refp, K);
        f->params[f->nparams - 1].ak_whole = true;
        Expr *ch = ak_mk(a, EX_COND, loc);
        ch->a = ak_bin(a, BOP_EQ, block_name(a), ak_int(a, 0, loc));
        ch->b = ak_int(a, AK_MULTI_CHUNK, loc);
        ch->c = block_name(a);
        it.ext[K] = ch;
        it.ext[R - 2] = elems_per(a, sem_copy_expr(a->ar, ch));
    } else {
        /* up to 512 columns: wider tiles of a column reduction spill on sm_80 */
        static const int64_t v[] = {256, 64, 512};
        ak_add_tunable(a, v, 3, refp, R - 1);
        it.ext[R - 1] = block_name(a);
        it.ext[K] = elems_per(a, block_name(a));
    }
    for (int d = 0, k = 0; d < R; d++) {
        kt.ext[d] = d == K ? ak_int(a, 1, loc) : it.ext[d];
        if (d != K) ot.ext[k++] = it.ext[d];
    }
    Expr *oidx[4];
    if (R == 2) oidx[0] = ak_bid(a, 0);
    else oidx[0] = ak_bid(a, 1), oidx[1] = ak_bid(a, 0);
    /* operand coordinates at chunk c and with 0 along K */
    Expr *at_c[4], *at_0[4];
    for (int d = 0, k = 0; d < R; d++) {
        at_c[d] = d == K ? ak_name(a, "__ak_c", loc) : oidx[k];
        at_0[d] = d == K ? ak_int(a, 0, loc) : oidx[k];
        if (d != K) k++;
    }
    Expr *chunk = it.ext[K];
    Expr *extent = ak_call(a, BI_DIM, loc, 2, ak_name(a, f->params[refp].name, loc), ak_int(a, K, loc), NULL);
    int P = 0;
    for (int j = 0; j < a->nred; j++)
        if (a->phase[j] > P) P = a->phase[j];
    StmtBuf b = {0};
    /* the multi-chunk branch's int64_t __ak_last = extent > 0 ? (extent + chunk - 1) / chunk - 1 : 0; (an
     * empty axis: one chunk, all masked, so a sum is 0 and a product 1) */
    Expr *last = ak_mk(a, EX_COND, loc);
    last->a = ak_bin(a, BOP_GT, sem_copy_expr(a->ar, extent), ak_int(a, 0, loc));
    last->b = ak_bin(a, BOP_SUB,
                     ak_bin(a, BOP_DIV,
                            ak_bin(a, BOP_SUB, ak_bin(a, BOP_ADD, sem_copy_expr(a->ar, extent), sem_copy_expr(a->ar, it.ext[K])),
                                   ak_int(a, 1, loc)),
                            sem_copy_expr(a->ar, it.ext[K])),
                     ak_int(a, 1, loc));
    last->c = ak_int(a, 0, loc);

    /* one chunk: loaded once */
    StmtBuf one = {0};
    ak_load_all(a, &one, a->used_in_red, at_0, &it);
    a->memo = memo_new(a, &one);
    a->memo->all = true;
    for (int p = 1; p <= P; p++)
        for (int j = 0; j < a->nred; j++)
            if (a->phase[j] == p)
                ak_push(a, &one, ak_decl(a, acc_name(a, j), ak_auto,
                                      masked_part(a, &one, j, arena_printf(a->ar, "__ak_v%d", j),
                                                  single_mask(a, chunk, extent, loc), &it, &ot),
                                      a->red[j]->loc));
    reduced_outputs(a, &one, oidx, at_0, &ot, &kt);
    full_outputs(a, &one, at_0, &it, &ot);

    /* several chunks */
    StmtBuf many = {0};
    ak_push(a, &many, ak_decl(a, "__ak_last", ak_int64, last, loc));
    for (int p = 1; p <= P; p++) {
        bool use[64] = {0};
        for (int i = 0; i < f->nparams; i++) use[i] = a->used_in_red[i] && phase_reads(a, p, i);
        StmtBuf lb = {0};
        a->memo = memo_new(a, &lb);
        ak_load_all(a, &lb, use, at_c, &it);
        for (int j = 0; j < a->nred; j++) {
            if (a->phase[j] != p) continue;
            Expr *part = masked_part(a, &lb, j, arena_printf(a->ar, "__ak_v%d", j),
                                     chunk_mask(a, ak_name(a, "__ak_c", loc), it.ext[K], extent, loc), &it, &ot);
            ak_push(a, &lb, ak_assign(a, acc_name(a, j), combine(a, a->red[j]->bi, ak_name(a, acc_name(a, j), loc), part),
                                   a->red[j]->loc));
        }
        /* chunk 0 under prefixed names at this level, then chunks 1..last */
        a->memo = memo_new(a, &many);
        load_all_prefixed(a, &many, use, at_0, &it, p);
        for (int j = 0; j < a->nred; j++) {
            if (a->phase[j] != p) continue;
            Expr *part = masked_part(a, &many, j, arena_printf(a->ar, "__ak_v%d_0", j),
                                     chunk_mask(a, ak_int(a, 0, loc), it.ext[K], extent, loc), &it, &ot);
            ak_push(a, &many, ak_decl(a, acc_name(a, j), ak_auto, part, a->red[j]->loc));
        }
        unprefix(a);
        ak_push(a, &many, for_chunks(a, 1, "__ak_c", &lb, true, loc));
    }
    a->memo = memo_new(a, &many);
    reduced_outputs(a, &many, oidx, at_0, &ot, &kt);
    bool any_full = false;
    for (int k = 0; k < a->nassigned; k++) any_full |= a->out_kind[a->assigned_order[k]] == AK_KEEP_FULL;
    if (any_full) {
        StmtBuf lb = {0};
        bool use[64] = {0};
        bool reduced[64] = {0};
        for (int k = 0; k < a->nassigned; k++)
            if (a->out_kind[a->assigned_order[k]] == AK_KEEP_FULL)
                ak_mark_reads(a, a->final_value[a->assigned_order[k]], true, use, reduced);
        ak_load_all(a, &lb, use, at_c, &it);
        a->memo = memo_new(a, &lb);
        full_outputs(a, &lb, at_c, &it, &ot);
        ak_push(a, &many, for_chunks(a, 0, "__ak_c", &lb, true, loc));
    }
    a->memo = NULL;
    if (!rows) { /* a column reduction always walks its chunks of rows */
        for (int i = 0; i < many.n; i++) ak_push(a, &b, many.items[i]);
        f->body = ak_block(a, &b, bloc);
        return;
    }
    /* TILEC_BLOCK is a constant of each specialization: the other branch is dead code */
    Stmt *branch = ak_stmt(a, ST_IF, loc);
    branch->cond = ak_bin(a, BOP_EQ, block_name(a), ak_int(a, 0, loc));
    branch->then_s = ak_block(a, &many, loc);
    branch->else_s = ak_block(a, &one, loc);
    ak_push(a, &b, branch);
    f->body = ak_block(a, &b, bloc);
}

