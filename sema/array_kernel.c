/* array_kernel.c: array kernels (TILE_ARRAY_KERNEL, docs/language.md "Array
 * kernels") lowered to tile kernels before typing.
 *
 * An array kernel's body is whole-array statements: declarations of
 * temporaries and assignments to its output arrays, element-wise with NumPy
 * broadcasting or reductions along one axis.  This pass rewrites it, in
 * place and before sema types anything, into the tile kernel a user would
 * have written: a tunable tile extent (TILEC_BLOCK, which the launcher picks
 * from the arrays' extents, or the tuning table), one block per output tile,
 * a tile_load of every input at the block's coordinates under the input's
 * own name (so the user's expressions are typed, and their errors reported,
 * exactly as written), and a tile_store of every output.  A reduction walks
 * its axis in chunks: the last chunk first, masked with the reduction's
 * identity (a sum's 0, a product's 1, for max and min the chunk's own minimum
 * or maximum), which also starts the accumulators, then the full chunks
 * unmasked.  The launcher broadcasts the inputs (codegen/launch.c), so the
 * kernel reads every array at the same coordinates.
 *
 * Why a rewrite rather than an IR of its own: the rewritten kernel is an
 * ordinary tile kernel, so typing, promotion, both targets, the launcher's
 * grid, tuning and the Python binding all apply unchanged, and
 * --emit=typed shows what tilec made of the array kernel. */
#include <stdio.h>
#include <string.h>

#include "frontend/diag.h"
#include "sema/sema_impl.h"

enum { AK_MAX_TMPS = 64, AK_MAX_REDS = 16, AK_ELEMS = 2048 };

typedef struct AkTmp {
    const char *name;
    Expr *init; /* reduction kernels: substituted into every use */
    int rank;
} AkTmp;

typedef struct Ak {
    Arena *ar;
    Func *f;
    bool ok;
    AkTmp tmp[AK_MAX_TMPS];
    int ntmp;
    Expr *red[AK_MAX_REDS]; /* the reductions, in source order */
    int nred;
    bool in_red;
    int red_rank;           /* the operand space's rank (max of the operands') */
    int red_axis;           /* its reduced axis, or -1 before the first */
    SrcLoc red_axis_loc;
    bool used_in_red[TILE_MAX_RANK * 8 + 64], used_out[TILE_MAX_RANK * 8 + 64]; /* per param */
    int assigned_order[64]; /* outputs in order of first assignment */
    int nassigned;
    bool read_first[64];    /* an output read before it is first assigned */
    bool assigned[64];
} Ak;

/* ---- small constructors ---------------------------------------------------- */

static Expr *mk(Ak *a, ExprKind k, SrcLoc loc)
{
    Expr *e = arena_alloc(a->ar, sizeof *e);
    e->kind = k;
    e->loc = loc;
    return e;
}

static Expr *mk_int(Ak *a, int64_t v, SrcLoc loc)
{
    Expr *e = mk(a, EX_INT, loc);
    e->ival = v;
    e->uval = (uint64_t)v;
    return e;
}

static Expr *mk_name(Ak *a, const char *name, SrcLoc loc)
{
    Expr *e = mk(a, EX_NAME, loc);
    e->name = name;
    return e;
}

static Expr *mk_bin(Ak *a, BinaryOp op, Expr *l, Expr *r)
{
    Expr *e = mk(a, EX_BINARY, l->loc);
    e->op = op;
    e->a = l;
    e->b = r;
    return e;
}

static Expr *mk_call(Ak *a, Builtin bi, SrcLoc loc, int nargs, Expr *a0, Expr *a1, Expr *a2)
{
    Expr *e = mk(a, EX_BUILTIN, loc);
    e->bi = bi;
    e->name = builtin_info(bi)->name;
    e->args = arena_alloc(a->ar, sizeof(Expr *) * 3);
    e->args[0] = a0;
    e->args[1] = a1;
    e->args[2] = a2;
    e->nargs = nargs;
    return e;
}

static void add_opt(Ak *a, Expr *call, const char *name, Expr *value)
{
    Option *o = arena_alloc(a->ar, sizeof *o * (size_t)(call->nopts + 1));
    if (call->nopts) memcpy(o, call->opts, sizeof *o * (size_t)call->nopts);
    o[call->nopts] = (Option){.name = name, .loc = value->loc, .value = value};
    call->opts = o;
    call->nopts++;
}

static Expr *mk_list(Ak *a, Expr *const *items, int n, SrcLoc loc)
{
    Expr *e = mk(a, EX_LIST, loc);
    e->args = arena_alloc(a->ar, sizeof(Expr *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) e->args[i] = sem_copy_expr(a->ar, items[i]);
    e->nargs = n;
    return e;
}

static Stmt *mk_stmt(Ak *a, StmtKind k, SrcLoc loc)
{
    Stmt *s = arena_alloc(a->ar, sizeof *s);
    s->kind = k;
    s->loc = loc;
    s->op = -1;
    return s;
}

static Stmt *mk_decl(Ak *a, const char *name, TypeRef t, Expr *init, SrcLoc loc)
{
    Stmt *s = mk_stmt(a, ST_DECL, loc);
    s->name = name;
    s->name_loc = loc;
    s->type = t;
    s->init = init;
    return s;
}

static Stmt *mk_assign(Ak *a, const char *name, Expr *value, SrcLoc loc)
{
    Stmt *s = mk_stmt(a, ST_ASSIGN, loc);
    s->target = mk_name(a, name, loc);
    s->value = value;
    return s;
}

static const TypeRef ak_int64 = {.spelling = "int64_t", .dtype = DT_INT64};
static const TypeRef ak_auto = {.spelling = "auto", .dtype = DT_INVALID, .is_auto = true};

typedef struct StmtBuf {
    Stmt **items;
    int n, cap;
} StmtBuf;

static void push(Ak *a, StmtBuf *b, Stmt *s)
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

static Stmt *block(Ak *a, StmtBuf *b, SrcLoc loc)
{
    Stmt *s = mk_stmt(a, ST_BLOCK, loc);
    s->items = b->items;
    s->nitems = b->n;
    return s;
}

/* ---- analysis ------------------------------------------------------------- */

static int param_index(const Func *f, const char *name)
{
    for (int i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name)) return i;
    return -1;
}

static AkTmp *find_tmp(Ak *a, const char *name)
{
    for (int i = a->ntmp - 1; i >= 0; i--)
        if (!strcmp(a->tmp[i].name, name)) return &a->tmp[i];
    return NULL;
}

/* A copy of e with every temporary replaced by (a copy of) its value: the
 * form a reduction kernel is analysed and lowered in. */
static Expr *substitute(Ak *a, const Expr *e)
{
    if (!e) return NULL;
    if (e->kind == EX_NAME && param_index(a->f, e->name) < 0) {
        AkTmp *t = find_tmp(a, e->name);
        if (t) return sem_copy_expr(a->ar, t->init);
    }
    Expr *n = sem_copy_expr(a->ar, e);
    n->a = substitute(a, e->a);
    n->b = substitute(a, e->b);
    n->c = substitute(a, e->c);
    for (int i = 0; i < e->nargs; i++)
        if (!(e->kind == EX_BUILTIN && e->bi == BI_DIM && i == 0)) n->args[i] = substitute(a, e->args[i]);
    return n;
}

static bool fail(Ak *a)
{
    a->ok = false;
    return false;
}

/* The rank of e's value as a whole array (0 for scalars), checking that it
 * is an array-kernel expression and recording the reductions and which
 * arrays are read inside and outside them; -1 after an error. */
static int rank_of(Ak *a, Expr *e)
{
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: return 0;
    case EX_NAME: {
        int pi = param_index(a->f, e->name);
        if (pi >= 0) {
            Param *p = &a->f->params[pi];
            if (p->kind != PARAM_ARRAY) return 0;
            if (a->in_red) a->used_in_red[pi] = true;
            else a->used_out[pi] = true;
            if (!a->assigned[pi] && !p->readonly) a->read_first[pi] = true;
            return p->rank;
        }
        AkTmp *t = find_tmp(a, e->name);
        return t ? t->rank : 0; /* an unknown name: sema reports it */
    }
    case EX_UNARY:
        if (e->op >= UOP_PREINC) {
            diag_error(e->loc, "increments are statements, not values");
            return fail(a), -1;
        }
        return rank_of(a, e->a);
    case EX_CAST: return rank_of(a, e->a);
    case EX_BINARY: case EX_COND: {
        int r = 0;
        Expr *ops[3] = {e->a, e->b, e->c};
        for (int i = 0; i < 3; i++) {
            if (!ops[i]) continue;
            int k = rank_of(a, ops[i]);
            if (k < 0) return -1;
            if (k > r) r = k;
        }
        return r;
    }
    case EX_CALL: {
        int r = 0;
        for (int i = 0; i < e->nargs; i++) {
            int k = rank_of(a, e->args[i]);
            if (k < 0) return -1;
            if (k > r) r = k;
        }
        return r;
    }
    case EX_BUILTIN: break;
    default:
        diag_error(e->loc, "array kernels compute with arrays, scalars and constants; this expression is not one");
        return fail(a), -1;
    }
    const BuiltinInfo *bi = builtin_info(e->bi);
    switch (bi->cls) {
    case BCLASS_CAST: case BCLASS_MATH1: case BCLASS_MATH: case BCLASS_WHERE: {
        int r = 0;
        for (int i = 0; i < e->nargs; i++) {
            if (e->args[i]->kind == EX_TYPE) continue;
            int k = rank_of(a, e->args[i]);
            if (k < 0) return -1;
            if (k > r) r = k;
        }
        return r;
    }
    case BCLASS_QUERY:
        if (e->bi == BI_DIM && e->nargs == 2 && e->args[0]->kind == EX_NAME) {
            int pi = param_index(a->f, e->args[0]->name);
            if (pi >= 0 && a->f->params[pi].kind == PARAM_ARRAY) return 0;
        }
        if (e->bi == BI_DIM) {
            diag_error(e->loc, "tile_dim takes an array parameter of the array kernel and an axis");
            return fail(a), -1;
        }
        break;
    case BCLASS_REDUCE: {
        if (e->bi != BI_SUM && e->bi != BI_PROD && e->bi != BI_MAX && e->bi != BI_MIN) break;
        if (a->in_red) {
            diag_error(e->loc, "a reduction inside a reduction's operand: reduce once per array kernel, and chain "
                               "array kernels for more");
            return fail(a), -1;
        }
        Option *ax = ast_option(e, "axis"), *kd = ast_option(e, "keepdims");
        if (kd && !(kd->value->kind == EX_INT && kd->value->ival == 0)) {
            diag_error_fix(kd->loc, "drop .keepdims: the result broadcasts against the output's axes",
                           "array kernels reduce without .keepdims");
            return fail(a), -1;
        }
        if (e->nargs != 1) return 0; /* sema reports the arity */
        a->in_red = true;
        int r = rank_of(a, e->args[0]);
        a->in_red = false;
        if (r < 0) return -1;
        if (!ax) {
            diag_error_fix(e->loc, "reduce along an axis (.axis = k); a whole-array total is tile_atomic_add in a tile "
                                   "kernel (examples/array_sum)",
                           "array kernels reduce along one axis; tile_%s without .axis reduces the whole array", e->name);
            return fail(a), -1;
        }
        int64_t k;
        Expr *v = ax->value;
        if (v->kind == EX_INT) k = v->ival;
        else if (v->kind == EX_UNARY && v->op == UOP_NEG && v->a->kind == EX_INT) k = -v->a->ival;
        else {
            diag_error(ax->loc, "an array kernel's .axis must be one integer literal");
            return fail(a), -1;
        }
        if (r < 2) {
            diag_error_fix(e->loc, "reduce a matrix along one of its axes; a whole-array total is tile_atomic_add in a "
                                   "tile kernel (examples/array_sum)",
                           "tile_%s of a %d-d array reduces it to a single value, which array kernels do not compute",
                           e->name, r);
            return fail(a), -1;
        }
        if (k < -r || k >= r) {
            diag_error(ax->loc, "axis %lld is out of range for an operand of rank %d", (long long)k, r);
            return fail(a), -1;
        }
        if (k < 0) k += r;
        if (a->nred == AK_MAX_REDS) {
            diag_error(e->loc, "an array kernel has at most %d reductions", AK_MAX_REDS);
            return fail(a), -1;
        }
        a->red[a->nred++] = e;
        /* the operand space: operands align at their last axes */
        int space = r > a->red_rank ? r : a->red_rank;
        int ks = (int)k + (space - r);
        if (a->red_axis >= 0) {
            int prev = a->red_axis + (space - a->red_rank);
            if (prev != ks) {
                diag_error(ax->loc, "this reduction is along axis %d of the operands' broadcast, an earlier one along "
                                    "axis %d: one array kernel reduces one axis",
                           ks, prev);
                diag_note(a->red_axis_loc, "the earlier reduction's axis");
                return fail(a), -1;
            }
        }
        a->red_rank = space;
        a->red_axis = ks;
        a->red_axis_loc = ax->loc;
        return r - 1;
    }
    default: break;
    }
    diag_error_fix(e->loc, "array kernels take element-wise operations, tile_where, tile_cast, tile_dim, and tile_sum, "
                           "tile_prod, tile_max or tile_min along an axis; write a tile kernel (TILE_KERNEL) for the rest",
                   "tile_%s is not an array-kernel operation", e->name);
    return fail(a), -1;
}

/* ---- lowering ------------------------------------------------------------ */

/* The tile: extents of the space's axes as expressions of TILEC_BLOCK. */
typedef struct Tile {
    int rank;
    Expr *ext[4];
    int bid[4]; /* the grid axis of each output axis */
} Tile;

static Expr *block_name(Ak *a)
{
    return mk_name(a, "TILEC_BLOCK", a->f->loc);
}

static Expr *elems_per(Ak *a) /* AK_ELEMS / TILEC_BLOCK */
{
    return mk_bin(a, BOP_DIV, mk_int(a, AK_ELEMS, a->f->loc), block_name(a));
}

/* An access of array p (rank r <= t->rank, aligned at the last axes) at
 * the tile's coordinates idx (rank t->rank). */
static Expr *access(Ak *a, Builtin bi, const Param *p, Expr *value, Expr *const *idx, const Tile *t, SrcLoc loc)
{
    Expr *call = mk_call(a, bi, loc, bi == BI_STORE ? 2 : 1, mk_name(a, p->name, loc), value, NULL);
    int off = t->rank - p->rank;
    add_opt(a, call, "index", mk_list(a, idx + off, p->rank, loc));
    add_opt(a, call, "shape", mk_list(a, t->ext + off, p->rank, loc));
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
    Expr *b = mk_call(a, BI_BROADCAST_TO, v->loc, 1, v, NULL, NULL);
    add_opt(a, b, "shape", mk_list(a, t->ext, t->rank, v->loc));
    return b;
}

static void add_tunable(Ak *a, const int64_t *vals, int n, int ref, int dim)
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

static Expr *bid(Ak *a, int axis)
{
    return mk_call(a, BI_BID, a->f->loc, 1, mk_int(a, axis, a->f->loc), NULL, NULL);
}

/* The rewritten value of an output statement: reductions replaced by their
 * accumulators. */
static Expr *replace_reductions(Ak *a, Expr *e)
{
    if (!e) return NULL;
    for (int j = 0; j < a->nred; j++)
        if (e == a->red[j]) return mk_name(a, arena_printf(a->ar, "__ak_r%d", j), e->loc);
    e->a = replace_reductions(a, e->a);
    e->b = replace_reductions(a, e->b);
    e->c = replace_reductions(a, e->c);
    for (int i = 0; i < e->nargs; i++) e->args[i] = replace_reductions(a, e->args[i]);
    for (int i = 0; i < e->nopts; i++) e->opts[i].value = replace_reductions(a, e->opts[i].value);
    return e;
}

/* Loads of the arrays marked in use[] at idx: `T X = tile_load(X, ...)`. */
static void load_all(Ak *a, StmtBuf *b, const bool *use, Expr *const *idx, const Tile *t)
{
    for (int i = 0; i < a->f->nparams; i++) {
        const Param *p = &a->f->params[i];
        if (!use[i] || p->kind != PARAM_ARRAY) continue;
        push(a, b, mk_decl(a, p->name, p->type, access(a, BI_LOAD, p, NULL, idx, t, p->loc), p->loc));
    }
}

static void lower_elementwise(Ak *a, Stmt *body, int R)
{
    Func *f = a->f;
    SrcLoc loc = f->loc;
    Tile t = {.rank = R};
    int ref = a->assigned_order[0];
    if (R == 1) {
        static const int64_t v[] = {2048, 1024, 4096};
        add_tunable(a, v, 3, -1, 0);
        t.ext[0] = block_name(a);
    } else {
        static const int64_t v[] = {256, 64, 1024};
        add_tunable(a, v, 3, ref, R - 1);
        for (int d = 0; d < R - 2; d++) t.ext[d] = mk_int(a, 1, loc);
        t.ext[R - 2] = elems_per(a);
        t.ext[R - 1] = block_name(a);
    }
    /* grid: the rows of tiles on x (2^31 blocks), the rest on y and z */
    Expr *idx[4];
    if (R == 1) idx[0] = bid(a, 0);
    else if (R == 2) idx[0] = bid(a, 0), idx[1] = bid(a, 1);
    else idx[0] = bid(a, 1), idx[1] = bid(a, 0), idx[2] = bid(a, 2);
    StmtBuf b = {0};
    bool use[64] = {0};
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        /* inputs, and outputs read (or updated, +=) before their first assignment */
        use[i] = a->read_first[i] || ((a->used_out[i] || a->used_in_red[i]) && (p->readonly || !a->assigned[i]));
    }
    load_all(a, &b, use, idx, &t);
    bool declared[64];
    memcpy(declared, use, sizeof declared);
    for (int s = 0; s < body->nitems; s++) {
        Stmt *st = body->items[s];
        int pi = st->kind == ST_ASSIGN ? param_index(f, st->target->name) : -1;
        if (pi < 0 || declared[pi]) {
            push(a, &b, st);
            continue;
        }
        const Param *p = &f->params[pi];
        int r = rank_of(a, st->value); /* analysed before: no new errors */
        push(a, &b, mk_decl(a, p->name, value_type(p), widen(a, st->value, r, &t), st->target->loc));
        declared[pi] = true;
    }
    for (int k = 0; k < a->nassigned; k++) {
        const Param *p = &f->params[a->assigned_order[k]];
        Stmt *st = mk_stmt(a, ST_EXPR, p->loc);
        st->value = access(a, BI_STORE, p, mk_name(a, p->name, p->loc), idx, &t, p->loc);
        push(a, &b, st);
    }
    f->body = block(a, &b, body->loc);
}

static Expr *combine(Ak *a, Builtin bi, Expr *acc, Expr *part)
{
    switch (bi) {
    case BI_SUM: return mk_bin(a, BOP_ADD, acc, part);
    case BI_PROD: return mk_bin(a, BOP_MUL, acc, part);
    case BI_MAX: return mk_call(a, BI_MAXIMUM, part->loc, 2, acc, part, NULL);
    default: return mk_call(a, BI_MINIMUM, part->loc, 2, acc, part, NULL);
    }
}

static Expr *reduce(Ak *a, const Expr *user, Expr *operand, int axis)
{
    Expr *r = mk_call(a, user->bi, user->loc, 1, operand, NULL, NULL);
    add_opt(a, r, "axis", mk_int(a, axis, user->loc));
    return r;
}

static void lower_reduction(Ak *a, Stmt **stmts, int n, SrcLoc bloc)
{
    Func *f = a->f;
    SrcLoc loc = f->loc;
    const int R = a->red_rank, K = a->red_axis;
    int refp = -1;
    for (int i = 0; i < f->nparams && refp < 0; i++)
        if (a->used_in_red[i] && f->params[i].kind == PARAM_ARRAY && f->params[i].rank == R) refp = i;
    Tile it = {.rank = R}, ot = {.rank = R - 1};
    for (int d = 0; d < R; d++) it.ext[d] = mk_int(a, 1, loc);
    if (K == R - 1) {
        static const int64_t v[] = {512, 128, 2048};
        add_tunable(a, v, 3, refp, K);
        it.ext[K] = block_name(a);
        it.ext[R - 2] = elems_per(a);
    } else {
        static const int64_t v[] = {256, 64, 1024};
        add_tunable(a, v, 3, refp, R - 1);
        it.ext[R - 1] = block_name(a);
        it.ext[K] = elems_per(a);
    }
    for (int d = 0, k = 0; d < R; d++)
        if (d != K) ot.ext[k++] = it.ext[d];
    Expr *oidx[4];
    if (R == 2) oidx[0] = bid(a, 0);
    else oidx[0] = bid(a, 1), oidx[1] = bid(a, 0);
    /* the operand coordinates at chunk c */
    Expr *iidx_last[4], *iidx_c[4];
    for (int d = 0, k = 0; d < R; d++) {
        iidx_last[d] = d == K ? mk_name(a, "__ak_last", loc) : oidx[k];
        iidx_c[d] = d == K ? mk_name(a, "__ak_c", loc) : oidx[k];
        if (d != K) k++;
    }
    Expr *chunk = it.ext[K];
    Expr *extent = mk_call(a, BI_DIM, loc, 2, mk_name(a, f->params[refp].name, loc), mk_int(a, K, loc), NULL);
    StmtBuf b = {0};
    /* const int64_t __ak_last = (extent + chunk - 1) / chunk - 1; */
    Expr *last = mk_bin(a, BOP_SUB,
                        mk_bin(a, BOP_DIV, mk_bin(a, BOP_SUB, mk_bin(a, BOP_ADD, extent, sem_copy_expr(a->ar, chunk)),
                                                  mk_int(a, 1, loc)),
                               sem_copy_expr(a->ar, chunk)),
                        mk_int(a, 1, loc));
    push(a, &b, mk_decl(a, "__ak_last", ak_int64, last, loc));
    load_all(a, &b, a->used_in_red, iidx_last, &it);
    /* the last chunk's mask along K: (last * chunk + arange(chunk)) < extent */
    Expr *ty = mk(a, EX_TYPE, loc);
    ty->type = ak_int64;
    Expr *ar = mk_call(a, BI_ARANGE, loc, 1, ty, NULL, NULL);
    add_opt(a, ar, "shape", mk_list(a, &chunk, 1, loc));
    Expr *pos = mk_bin(a, BOP_ADD, mk_bin(a, BOP_MUL, mk_name(a, "__ak_last", loc), sem_copy_expr(a->ar, chunk)), ar);
    if (K < R - 1) {
        Expr *shp[4] = {chunk};
        for (int d = 1; d < R - K; d++) shp[d] = mk_int(a, 1, loc);
        Expr *rs = mk_call(a, BI_RESHAPE, loc, 1, pos, NULL, NULL);
        add_opt(a, rs, "shape", mk_list(a, shp, R - K, loc));
        pos = rs;
    }
    push(a, &b, mk_decl(a, "__ak_m", ak_auto, mk_bin(a, BOP_LT, pos, sem_copy_expr(a->ar, extent)), loc));
    /* each reduction's operand, kept for the loop before the tail's copy is used */
    Expr *ops[AK_MAX_REDS];
    int oprank[AK_MAX_REDS];
    for (int j = 0; j < a->nred; j++) {
        ops[j] = sem_copy_expr(a->ar, a->red[j]->args[0]);
        a->in_red = true;
        oprank[j] = rank_of(a, ops[j]);
        a->in_red = false;
    }
    for (int j = 0; j < a->nred; j++) {
        const Expr *u = a->red[j];
        SrcLoc l = u->loc;
        const char *v = arena_printf(a->ar, "__ak_v%d", j);
        push(a, &b, mk_decl(a, v, ak_auto, widen(a, u->args[0], oprank[j], &it), l));
        Expr *fill;
        switch (u->bi) {
        case BI_SUM: fill = mk_int(a, 0, l); break;
        case BI_PROD: fill = mk_int(a, 1, l); break;
        case BI_MAX: fill = mk_call(a, BI_MIN, l, 1, mk_name(a, v, l), NULL, NULL); break;
        default: fill = mk_call(a, BI_MAX, l, 1, mk_name(a, v, l), NULL, NULL); break;
        }
        Expr *masked = mk_call(a, BI_WHERE, l, 3, mk_name(a, "__ak_m", l), mk_name(a, v, l), fill);
        push(a, &b, mk_decl(a, arena_printf(a->ar, "__ak_r%d", j), ak_auto, reduce(a, u, masked, K), l));
    }
    /* for (int64_t __ak_c = 0; __ak_c < __ak_last; __ak_c += 1) { loads; r = r op reduce(...); } */
    Stmt *loop = mk_stmt(a, ST_FOR, loc);
    StmtBuf init = {0};
    push(a, &init, mk_decl(a, "__ak_c", ak_int64, mk_int(a, 0, loc), loc));
    loop->init_s = block(a, &init, loc);
    loop->cond = mk_bin(a, BOP_LT, mk_name(a, "__ak_c", loc), mk_name(a, "__ak_last", loc));
    loop->step_s = mk_assign(a, "__ak_c", mk_int(a, 1, loc), loc);
    loop->step_s->op = BOP_ADD;
    StmtBuf lb = {0};
    load_all(a, &lb, a->used_in_red, iidx_c, &it);
    for (int j = 0; j < a->nred; j++) {
        const char *r = arena_printf(a->ar, "__ak_r%d", j);
        Expr *part = reduce(a, a->red[j], widen(a, ops[j], oprank[j], &it), K);
        push(a, &lb, mk_assign(a, r, combine(a, a->red[j]->bi, mk_name(a, r, loc), part), a->red[j]->loc));
    }
    loop->body = block(a, &lb, loc);
    push(a, &b, loop);
    /* the outputs: the statements with the reductions' accumulators */
    load_all(a, &b, a->used_out, oidx, &ot);
    bool declared[64] = {0};
    for (int s = 0; s < n; s++) {
        Stmt *st = stmts[s];
        int pi = param_index(f, st->target->name);
        Expr *v = replace_reductions(a, st->value);
        if (declared[pi]) {
            st->value = v;
            push(a, &b, st);
            continue;
        }
        /* widened: the accumulators' names say nothing of the value's rank */
        const Param *p = &f->params[pi];
        push(a, &b, mk_decl(a, p->name, value_type(p), widen(a, v, 0, &ot), st->target->loc));
        declared[pi] = true;
    }
    for (int k = 0; k < a->nassigned; k++) {
        const Param *p = &f->params[a->assigned_order[k]];
        Stmt *st = mk_stmt(a, ST_EXPR, p->loc);
        st->value = access(a, BI_STORE, p, mk_name(a, p->name, p->loc), oidx, &ot, p->loc);
        push(a, &b, st);
    }
    f->body = block(a, &b, bloc);
}

/* Checks array kernel f's statements and rewrites it (see the top). */
static bool lower_func(Arena *ar, Func *f)
{
    Ak a = {.ar = ar, .f = f, .ok = true, .red_axis = -1};
    if (f->nparams > 64) {
        diag_error(f->loc, "array kernel '%s' has more than 64 parameters", f->name);
        return false;
    }
    if (param_index(f, "TILEC_BLOCK") >= 0) {
        diag_error(f->params[param_index(f, "TILEC_BLOCK")].loc,
                   "TILEC_BLOCK is the name of the tile extent tilec adds to array kernels; rename the parameter");
        return false;
    }
    Stmt *body = f->body;
    if (!body || body->kind != ST_BLOCK) return true;
    /* pass 1: statement forms, temporaries (substituted), ranks */
    Stmt **subst = arena_alloc(ar, sizeof *subst * (size_t)(body->nitems + 1));
    int nsubst = 0;
    int out_rank = -1, tmp_assign = 0;
    SrcLoc tmp_assign_loc = {0};
    for (int s = 0; s < body->nitems; s++) {
        Stmt *st = body->items[s];
        if (st->kind == ST_DECL) {
            if (st->type.view_rank || st->type.stype || !st->init) {
                diag_error(st->loc, "an array kernel declares whole-array temporaries of an element type, with a value");
                fail(&a);
                continue;
            }
            if (a.ntmp == AK_MAX_TMPS) {
                diag_error(st->loc, "an array kernel has at most %d temporaries", AK_MAX_TMPS);
                return false;
            }
            Expr *init = substitute(&a, st->init);
            int r = rank_of(&a, st->init);
            a.tmp[a.ntmp++] = (AkTmp){.name = st->name, .init = init, .rank = r};
            continue;
        }
        if (st->kind != ST_ASSIGN || !st->target || st->target->kind != EX_NAME) {
            diag_error_fix(st->loc, "write a tile kernel (TILE_KERNEL) for loops, conditions and stores",
                           "an array kernel's body is whole-array statements: temporaries and assignments to its "
                           "output arrays");
            fail(&a);
            continue;
        }
        int pi = param_index(f, st->target->name);
        int r = rank_of(&a, st->value);
        if (pi < 0) { /* a temporary reassigned */
            if (!tmp_assign++) tmp_assign_loc = st->loc;
            AkTmp *t = find_tmp(&a, st->target->name);
            if (t && r > t->rank) t->rank = r;
            continue;
        }
        Param *p = &f->params[pi];
        if (p->readonly) {
            char fix[200];
            snprintf(fix, sizeof fix, "drop 'const' from its TILE_NDARRAY declaration");
            diag_error_fix(st->target->loc, fix, "array '%s' is an input (const): it cannot be assigned", p->name);
            fail(&a);
            continue;
        }
        if (st->op >= 0) a.read_first[pi] |= !a.assigned[pi];
        if (!a.assigned[pi]) {
            a.assigned[pi] = true;
            a.assigned_order[a.nassigned++] = pi;
        }
        if (out_rank < 0) out_rank = p->rank;
        Stmt *c = sem_copy_stmt(ar, st);
        c->value = substitute(&a, st->value);
        subst[nsubst++] = c;
        (void)r;
    }
    if (!a.ok) return false;
    if (!a.nassigned) {
        diag_error_fix(f->loc, "assign a whole-array expression to an output: 'out = a + b;'",
                       "array kernel '%s' writes no output array", f->name);
        return false;
    }
    /* outputs agree on one space */
    if (a.nred) {
        if (tmp_assign) {
            diag_error(tmp_assign_loc, "a reduction's array kernel cannot reassign a temporary; declare a new one");
            return false;
        }
        /* re-run the analysis on the substituted statements: which arrays
         * the reductions read (through temporaries too) */
        memset(a.used_in_red, 0, sizeof a.used_in_red);
        memset(a.used_out, 0, sizeof a.used_out);
        a.nred = 0;
        a.red_axis = -1;
        a.red_rank = 0;
        for (int s = 0; s < nsubst; s++)
            if (rank_of(&a, subst[s]->value) < 0) return false;
        if (a.red_rank > 3) {
            diag_error(a.red_axis_loc, "array kernels reduce operands of rank 2 and 3; this one has rank %d",
                       a.red_rank);
            return false;
        }
        for (int k = 0; k < a.nassigned; k++) {
            const Param *p = &f->params[a.assigned_order[k]];
            if (p->rank != a.red_rank - 1) {
                diag_error(p->loc, "output '%s' has rank %d, but the reduction of rank-%d operands along one axis "
                                   "gives rank %d",
                           p->name, p->rank, a.red_rank, a.red_rank - 1);
                return false;
            }
        }
        for (int i = 0; i < f->nparams; i++) {
            const Param *p = &f->params[i];
            if (p->kind != PARAM_ARRAY) continue;
            if (a.used_in_red[i] && a.used_out[i]) {
                diag_error(p->loc, "'%s' is read both inside a reduction and outside it; an array kernel reads each "
                                   "array in one of the two",
                           p->name);
                return false;
            }
            if ((a.used_in_red[i] || a.used_out[i]) && a.assigned[i]) {
                diag_error(p->loc, "output '%s' is also read; a reduction's array kernel reads only its inputs",
                           p->name);
                return false;
            }
            if (a.used_out[i] && p->rank > a.red_rank - 1) {
                diag_error(p->loc, "'%s' has rank %d, more than the outputs' %d: reduce it, or use it inside the "
                                   "reduction",
                           p->name, p->rank, a.red_rank - 1);
                return false;
            }
        }
        f->ak_space_rank = a.red_rank;
        f->ak_axis = a.red_axis;
        for (int i = 0; i < f->nparams; i++) {
            Param *p = &f->params[i];
            if (p->kind != PARAM_ARRAY) continue;
            p->ak_role = a.used_in_red[i] ? AK_IN_OPERAND : a.used_out[i] ? AK_IN : AK_NONE;
        }
        for (int k = 0; k < a.nassigned; k++) f->params[a.assigned_order[k]].ak_role = k ? AK_OUT : AK_OUT_REF;
        lower_reduction(&a, subst, nsubst, body->loc);
        return true;
    }
    int R = out_rank;
    for (int k = 0; k < a.nassigned; k++) {
        const Param *p = &f->params[a.assigned_order[k]];
        if (p->rank != R) {
            diag_error(p->loc, "output '%s' has rank %d and '%s' rank %d: an element-wise array kernel writes "
                               "arrays of one shape",
                       p->name, p->rank, f->params[a.assigned_order[0]].name, R);
            return false;
        }
    }
    if (R > 3) {
        diag_error(f->params[a.assigned_order[0]].loc, "element-wise array kernels write arrays of rank 1 to 3; "
                                                       "'%s' has rank %d",
                   f->params[a.assigned_order[0]].name, R);
        return false;
    }
    for (int i = 0; i < f->nparams; i++) {
        Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        if (a.used_out[i] && p->rank > R) {
            diag_error(p->loc, "input '%s' has rank %d, more than the outputs' %d: reduce it along an axis "
                               "(tile_sum(%s, .axis = k))",
                       p->name, p->rank, R, p->name);
            return false;
        }
        p->ak_role = a.assigned[i] ? AK_OUT : a.used_out[i] ? AK_IN : AK_NONE;
    }
    f->params[a.assigned_order[0]].ak_role = AK_OUT_REF;
    f->ak_space_rank = R;
    f->ak_axis = -1;
    lower_elementwise(&a, body, R);
    return true;
}

bool sem_array_kernels(Program *p)
{
    bool ok = true;
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->is_array_kernel && !lower_func(p->arena, p->funcs[i])) ok = false;
    return ok;
}
