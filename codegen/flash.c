/* flash.c: the "flash" variant of a kernel whose loop is FlashAttention's
 * online-softmax loop (docs/language.md, "Fused attention loops"):
 *
 *     for (n = n0; n < n1; n++) {
 *         T kt = tile_load(k, ...);                 (D, BN): keys along the loop
 *         T vt = tile_load(v, ...);                 (BN, D)
 *         float s = tile_matmul(q, kt) * c;         q (BM, D) fixed in the loop; `* c` optional
 *         ...index tiles...; s = tile_where(cond, s, -INFINITY);     optional
 *         float mnew = tile_maximum(mi, tile_max(s, .axis = 1, .keepdims = true));
 *         float p = tile_exp2(s - mnew);            (or tile_exp, both)
 *         float alpha = tile_exp2(mi - mnew);
 *         li = li * alpha + tile_sum(p, .axis = 1, .keepdims = true);
 *         acc = tile_mma(tile_cast(p, T), vt, acc * alpha);
 *         mi = mnew;
 *     }
 *
 * The ordinary lowering keeps every tile of that loop in the kernel's
 * blocked register layout and stages each product through shared memory.
 * The variant runs the loop on mma.sync's accumulator layout instead
 * (tilec_flash_fwd in runtime/tilec_flash.h): one warp per 16 query rows, the
 * scores, their softmax and the rescaled output never leave registers, the
 * score tile is the second product's A operand as it stands, and the key
 * and value tiles are copied ahead with cp.async.  The rest of the kernel is
 * the ordinary lowering with BM / 16 warps; q, mi, li and acc cross into the
 * loop and back through shared memory once per block.  The launcher takes
 * the variant when the key and value arrays have the layout the copies need
 * (flash_launch_test), unless TILEC_NO_FLASH is set.
 *
 * Matching is exact: each statement of the body must be one of the forms
 * above (the operands of `*` and `+`, and of tile_maximum, in either order),
 * and the mask's condition must be integer arithmetic, comparisons and
 * logic on tile_arange, the loop variable, scalars and constants (and
 * tiles defined from those, inside or before the loop).  Anything else
 * keeps the ordinary lowering alone: same results, no variant. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "codegen/lower.h"

/* ---- matching ------------------------------------------------------------ */

/* Whether statement list st (recursively) assigns sym. */
static bool assigns(const Stmt *st, const Symbol *sym)
{
    if (!st) return false;
    if (st->kind == ST_ASSIGN && st->target && st->target->sym == sym) return true;
    if (st->kind == ST_BLOCK)
        for (int i = 0; i < st->nitems; i++)
            if (assigns(st->items[i], sym)) return true;
    return assigns(st->then_s, sym) || assigns(st->else_s, sym) || assigns(st->init_s, sym) ||
           assigns(st->step_s, sym) || assigns(st->body, sym);
}

/* The declaration of sym in st, or NULL. */
static const Stmt *decl_of(const Stmt *st, const Symbol *sym)
{
    if (!st) return NULL;
    if (st->kind == ST_DECL && st->sym == sym) return st;
    const Stmt *r = NULL;
    if (st->kind == ST_BLOCK)
        for (int i = 0; i < st->nitems && !r; i++) r = decl_of(st->items[i], sym);
    if (!r) r = decl_of(st->then_s, sym);
    if (!r) r = decl_of(st->else_s, sym);
    if (!r) r = decl_of(st->init_s, sym);
    if (!r) r = decl_of(st->body, sym);
    return r;
}

static bool is_name(const Expr *e, const Symbol *sym)
{
    return e && e->kind == EX_NAME && e->sym == sym && sym;
}

static const Expr *strip_reshape(const Expr *e)
{
    while (e && e->kind == EX_BUILTIN && e->bi == BI_RESHAPE) e = e->args[0];
    return e;
}

/* A scalar the loop does not change: names, literals, operators, casts and
 * the queries, reading no variable the body assigns (nor the loop's own). */
static bool invariant_scalar(const FlashLoop *fl, const Expr *e)
{
    if (!e) return true;
    if (e->shape.rank != 0) return false;
    switch (e->kind) {
    case EX_INT:
    case EX_FLOAT:
        return true;
    case EX_NAME:
        if (!e->sym) return false;
        if (e->sym->kind == SYM_PARAM) return e->sym->param->kind != PARAM_ARRAY;
        return e->sym != fl->n && !assigns(fl->loop->body, e->sym) && !decl_of(fl->loop->body, e->sym);
    case EX_UNARY:
        if (e->op != UOP_NEG && e->op != UOP_PLUS && e->op != UOP_NOT && e->op != UOP_BITNOT) return false;
        return invariant_scalar(fl, e->a);
    case EX_BINARY:
    case EX_COND:
    case EX_CAST:
        return invariant_scalar(fl, e->a) && invariant_scalar(fl, e->b) && invariant_scalar(fl, e->c);
    case EX_BUILTIN:
        return builtin_info(e->bi)->cls == BCLASS_QUERY;
    default:
        return false;
    }
}

/* A load of rows x cols 16-bit elements (after dropping unit axes) of an
 * array whose last axis is contiguous: the key axis indexed by the loop
 * variable, the d axis (the last array axis) by 0, the others (extent 1)
 * by loop-invariant scalars.  key_rows: the key axis is the tile's first
 * non-unit axis. */
static bool kv_load(const FlashLoop *fl, const Expr *e, bool key_rows, int64_t rows, int64_t cols, FlashOperand *op)
{
    e = strip_reshape(e);
    if (!e || e->kind != EX_BUILTIN || e->bi != BI_LOAD) return false;
    const Expr *arr = e->args[0];
    if (arr->kind != EX_NAME || !arr->sym || arr->sym->kind != SYM_PARAM || arr->sym->param->kind != PARAM_ARRAY ||
        view_arg(e))
        return false;
    int R = arr->sym->param->rank;
    if (e->dtype != fl->dtype || e->shape.rank != R || R < 2) return false;
    const Option *ix = ast_option(e, "index"), *pad = ast_option(e, "padding");
    if (!ix || ix->value->kind != EX_LIST || ix->value->nargs != R) return false;
    if (pad && (!pad->value->is_const || (pad->value->cval.i != 0 && pad->value->cval.i != 1))) return false;
    int ord[TILE_MAX_RANK];
    mem_tile_order((Expr *)e, R, ord);
    int big[2], nbig = 0;
    for (int a = 0; a < R; a++) {
        if (e->shape.dim[a] == 1) {
            if (!invariant_scalar(fl, ix->value->args[a])) return false;
            continue;
        }
        if (nbig == 2) return false;
        big[nbig++] = a;
    }
    if (nbig != 2 || e->shape.dim[big[0]] != rows || e->shape.dim[big[1]] != cols) return false;
    int ka = key_rows ? big[0] : big[1], da = key_rows ? big[1] : big[0];
    const Expr *kix = ix->value->args[ka], *dix = ix->value->args[da];
    if (!is_name(kix, fl->n) || !dix->is_const || dix->cval.is_float || dix->cval.i != 0) return false;
    if (ord[da] != R - 1) return false; /* d runs along the contiguous axis */
    memset(op, 0, sizeof *op);
    op->load = e;
    op->param = arr->sym->param;
    op->key_axis = ord[ka];
    op->d_axis = ord[da];
    for (int a = 0; a < R; a++) op->unit_axis[a] = e->shape.dim[a] == 1 ? ord[a] : -1;
    return true;
}

/* x * y (either order) with x a name of sym: y, else NULL. */
static const Expr *times_name(const Expr *e, const Symbol *sym)
{
    if (!e || e->kind != EX_BINARY || e->op != BOP_MUL) return NULL;
    if (is_name(e->a, sym)) return e->b;
    if (is_name(e->b, sym)) return e->a;
    return NULL;
}

/* A reduction builtin b of name(sym) along axis 1 with keepdims. */
static bool row_reduce(const Expr *e, Builtin b, const Symbol *sym)
{
    if (!e || e->kind != EX_BUILTIN || e->bi != b || e->nargs != 1 || !is_name(e->args[0], sym)) return false;
    const Option *ax = ast_option(e, "axis"), *kd = ast_option(e, "keepdims");
    if (!ax || !ax->value->is_const || ax->value->cval.is_float || (ax->value->cval.i != 1 && ax->value->cval.i != -1))
        return false;
    return kd && kd->value->is_const && kd->value->cval.i != 0;
}

/* exp2(a - b) or exp(a - b) of names: tilec_flash_exp's mode (0 exp2,
 * 1 approximate exp2, 2 exp, 3 approximate exp), else -1. */
static int exp_of(const Expr *e, const Symbol *a, const Symbol *b)
{
    if (!e || e->kind != EX_BUILTIN || (e->bi != BI_EXP2 && e->bi != BI_EXP) || e->nargs != 1) return -1;
    const Expr *d = e->args[0];
    if (d->kind != EX_BINARY || d->op != BOP_SUB || !is_name(d->a, a) || !is_name(d->b, b)) return -1;
    bool approx = ex_opt_int((Expr *)e, "approx", 0) != 0 || ex_opt_int((Expr *)e, "rounding", 0) == 6;
    return (e->bi == BI_EXP ? 2 : 0) + approx;
}

static bool neg_inf(const Expr *e)
{
    return e && e->is_const && e->cval.is_float && isinf(e->cval.f) && e->cval.f < 0;
}

static bool shape2(const Symbol *s, int64_t r, int64_t c)
{
    return s && s->shape.rank == 2 && s->shape.dim[0] == r && s->shape.dim[1] == c;
}

/* A variable of the kernel declared outside the loop (not a parameter);
 * callers check separately whether the body may assign it. */
static bool outer_var(const FlashLoop *fl, const Symbol *s)
{
    return s && s->kind == SYM_VAR && !decl_of(fl->loop->body, s);
}

/* A constant side of && and || decides the operation or drops out (so
 * that a TILE_CONST switch leaves only what the mask reads): SIDE_TRUE or
 * SIDE_FALSE, or SIDE_REST with *rest the other side; SIDE_NONE where e is
 * no such operation, SIDE_FLOAT where the constant is not an integer. */
enum { SIDE_NONE, SIDE_FLOAT, SIDE_FALSE, SIDE_TRUE, SIDE_REST };
static int const_side(const Expr *e, const Expr **rest)
{
    if (e->kind != EX_BINARY || (e->op != BOP_LAND && e->op != BOP_LOR) || !(e->a->is_const || e->b->is_const))
        return SIDE_NONE;
    const Expr *c = e->a->is_const ? e->a : e->b;
    *rest = c == e->a ? e->b : e->a;
    if (c->cval.is_float) return SIDE_FLOAT;
    bool t = c->cval.i != 0;
    if (t == (e->op == BOP_LOR)) return t ? SIDE_TRUE : SIDE_FALSE;
    return SIDE_REST;
}

/* The mask printer (below); with a NULL emitter it only answers whether
 * it can print e. */
static char *mask_str(Emitter *em, const FlashLoop *fl, const Expr *e, const char *const *ix, int depth);

bool flash_match(const Func *f, const Stmt *st, FlashLoop *fl)
{
    memset(fl, 0, sizeof *fl);
    if (st->kind != ST_FOR || !st->cond || !st->step_s || !st->body || st->body->kind != ST_BLOCK) return false;
    fl->loop = st;
    fl->func = f;
    /* n = n + 1 and n < hi, as pipeline.c takes them */
    const Stmt *step = st->step_s;
    if (step->kind == ST_BLOCK) {
        if (step->nitems != 1) return false;
        step = step->items[0];
    }
    if (step->kind != ST_ASSIGN || !step->target->sym) return false;
    Symbol *n = step->target->sym;
    const Expr *inc = step->value;
    if (inc->kind != EX_BINARY || inc->op != BOP_ADD || !is_name(inc->a, n) || inc->b->kind != EX_INT ||
        inc->b->ival != 1)
        return false;
    if (n->kind != SYM_VAR || n->shape.rank != 0 || !dtype_is_int(n->dtype) || !dtype_is_signed(n->dtype)) return false;
    fl->n = n;
    const Expr *c = st->cond;
    if (c->kind != EX_BINARY || c->op != BOP_LT || !is_name(c->a, n) || !invariant_scalar(fl, c->b)) return false;
    if (!c->b->is_const && (!dtype_is_int(c->b->dtype) || !dtype_is_signed(c->b->dtype))) return false;
    fl->hi = c->b;

    /* the body's statements, each given its role */
    const Stmt *body = st->body;
    int at_s = -1, at_mask = -1, at_mnew = -1, at_p = -1, at_alpha = -1, at_l = -1, at_acc = -1, at_m = -1;
    const Stmt *ds = NULL;
    for (int i = 0; i < body->nitems; i++) {
        const Stmt *x = body->items[i];
        if (x->kind == ST_DECL && x->init && x->init->kind == EX_BINARY && x->init->op == BOP_MUL) {
            const Expr *mm = x->init->a->kind == EX_BUILTIN && x->init->a->bi == BI_MATMUL ? x->init->a : x->init->b;
            if (mm->kind == EX_BUILTIN && mm->bi == BI_MATMUL && at_s < 0) {
                at_s = i, ds = x;
                fl->scale = mm == x->init->a ? x->init->b : x->init->a;
                continue;
            }
        }
        if (x->kind == ST_DECL && x->init && x->init->kind == EX_BUILTIN && x->init->bi == BI_MATMUL && at_s < 0) {
            at_s = i, ds = x;
            continue;
        }
    }
    if (!ds) return false;
    fl->s = ds->sym;
    const Expr *mm = strip_reshape(ds->init->kind == EX_BINARY ? (ds->init->a->kind == EX_BUILTIN && ds->init->a->bi == BI_MATMUL ? ds->init->a : ds->init->b) : ds->init);
    if (mm->nargs != 2 || mm->args[0]->kind != EX_NAME) return false;
    fl->q = mm->args[0]->sym;
    if (!outer_var(fl, fl->q) || assigns(st->body, fl->q) || fl->q->shape.rank != 2) return false;
    fl->dtype = fl->q->dtype;
    if (fl->dtype != DT_FLOAT16 && fl->dtype != DT_BFLOAT16) return false;
    fl->BM = fl->q->shape.dim[0];
    fl->D = fl->q->shape.dim[1];
    if (!shape2(fl->s, fl->BM, fl->s->shape.dim[1]) || fl->s->dtype != DT_FLOAT32) return false;
    fl->BN = fl->s->shape.dim[1];
    if (fl->scale && (!invariant_scalar(fl, fl->scale) ||
                      (fl->scale->dtype != DT_FLOAT_CONST && !dtype_is_float(fl->scale->dtype))))
        return false;
    /* k^T and v: declared loads, or loads written in place */
    const Expr *karg = mm->args[1];
    const Stmt *kdecl = NULL, *vdecl = NULL;
    if (karg->kind == EX_NAME) {
        kdecl = decl_of(body, karg->sym);
        if (!kdecl || kdecl->assigned) return false;
        karg = kdecl->init;
    }
    if (!kv_load(fl, karg, false, fl->D, fl->BN, &fl->k)) return false;
    for (int i = 0; i < body->nitems; i++) {
        const Stmt *x = body->items[i];
        if (x->kind == ST_ASSIGN && x->value->kind == EX_BUILTIN && x->value->bi == BI_MMA && x->value->nargs == 3 &&
            x->value->args[1]->kind == EX_NAME) {
            vdecl = decl_of(body, x->value->args[1]->sym);
            if (!vdecl || vdecl->assigned) return false;
        }
    }
    int at_k = -1, at_v = -1;
    for (int i = 0; i < body->nitems; i++) {
        if (body->items[i] == kdecl) at_k = i;
        if (body->items[i] == vdecl) at_v = i;
    }

    for (int i = 0; i < body->nitems; i++) {
        const Stmt *x = body->items[i];
        if (i == at_s || x == kdecl || x == vdecl) continue;
        if (x->kind == ST_ASSIGN && x->op < 0 && is_name(x->target, fl->s) && at_mask < 0 && at_mnew < 0) {
            const Expr *w = x->value;
            if (w->kind != EX_BUILTIN || w->bi != BI_WHERE || w->nargs != 3 || !is_name(w->args[1], fl->s) ||
                !neg_inf(w->args[2]))
                return false;
            fl->mask = w->args[0];
            at_mask = i;
            continue;
        }
        if (x->kind == ST_DECL && x->init && x->init->kind == EX_BUILTIN && x->init->bi == BI_MAXIMUM && at_mnew < 0) {
            const Expr *a = x->init->args[0], *b = x->init->args[1];
            if (a->kind != EX_NAME) a = x->init->args[1], b = x->init->args[0];
            if (a->kind != EX_NAME || !row_reduce(b, BI_MAX, fl->s)) return false;
            fl->m = a->sym;
            fl->mnew = x->sym;
            at_mnew = i;
            continue;
        }
        if (x->kind == ST_DECL && at_mnew >= 0 && fl->mnew && x->init && x->init->kind == EX_BUILTIN &&
            (x->init->bi == BI_EXP2 || x->init->bi == BI_EXP)) {
            int b = exp_of(x->init, fl->s, fl->mnew);
            if (b >= 0 && at_p < 0) {
                if (at_alpha >= 0 && fl->exp != b) return false;
                fl->p = x->sym, at_p = i, fl->exp = b;
                continue;
            }
            b = exp_of(x->init, fl->m, fl->mnew);
            if (b >= 0 && at_alpha < 0) {
                if (at_p >= 0 && fl->exp != b) return false;
                fl->alpha = x->sym, at_alpha = i, fl->exp = b;
                continue;
            }
            return false;
        }
        if (x->kind == ST_ASSIGN && x->op < 0 && fl->m && is_name(x->target, fl->m) && is_name(x->value, fl->mnew)) {
            at_m = i;
            continue;
        }
        if (x->kind == ST_ASSIGN && x->op < 0 && x->value->kind == EX_BINARY && x->value->op == BOP_ADD && fl->p &&
            fl->alpha) {
            const Expr *a = x->value->a, *b = x->value->b;
            if (!row_reduce(b, BI_SUM, fl->p)) a = x->value->b, b = x->value->a;
            const Expr *o = times_name(a, fl->alpha);
            if (row_reduce(b, BI_SUM, fl->p) && o && is_name(o, x->target->sym)) {
                fl->l = x->target->sym, at_l = i;
                continue;
            }
        }
        if (x->kind == ST_ASSIGN && x->op < 0 && x->value->kind == EX_BUILTIN && x->value->bi == BI_MMA && fl->p &&
            fl->alpha && x->value->nargs == 3) {
            const Expr *pa = x->value->args[0], *o = times_name(x->value->args[2], fl->alpha);
            if (pa->kind != EX_BUILTIN || pa->bi != BI_CAST || !is_name(pa->args[0], fl->p) || pa->dtype != fl->dtype)
                return false;
            if (!o || !is_name(o, x->target->sym)) return false;
            const Expr *varg = vdecl ? vdecl->init : x->value->args[1];
            if (!kv_load(fl, varg, true, fl->BN, fl->D, &fl->v)) return false;
            fl->acc = x->target->sym, at_acc = i;
            continue;
        }
        /* an index tile the mask reads: integer or bool, printable */
        if (x->kind == ST_DECL && !x->assigned && x->init && x->sym->shape.rank > 0 &&
            (dtype_is_int(x->sym->dtype) || x->sym->dtype == DT_BOOL)) {
            const char *ix[TILE_MAX_RANK] = {"0", "0", "0", "0", "0", "0", "0", "0"};
            if (mask_str(NULL, fl, x->init, ix, 0)) continue; /* (the mask inlines it where it reads it) */
        }
        return false;
    }
    if (at_mnew < 0 || at_p < 0 || at_alpha < 0 || at_l < 0 || at_acc < 0 || at_m < 0) return false;
    if (!(at_s < at_mnew && (at_mask < 0 || (at_s < at_mask && at_mask < at_mnew)) && at_mnew < at_p &&
          at_mnew < at_alpha && at_p < at_l && at_alpha < at_l && at_p < at_acc && at_alpha < at_acc &&
          at_alpha < at_m))
        return false;
    if (at_k > at_s || at_v > at_acc) return false;
    if (!outer_var(fl, fl->m) || !outer_var(fl, fl->l) || !outer_var(fl, fl->acc)) return false;
    if (fl->m == fl->l || fl->m == fl->acc || fl->l == fl->acc || fl->q == fl->acc) return false;
    if (!shape2(fl->m, fl->BM, 1) || !shape2(fl->l, fl->BM, 1) || !shape2(fl->acc, fl->BM, fl->D)) return false;
    if (fl->m->dtype != DT_FLOAT32 || fl->l->dtype != DT_FLOAT32 || fl->acc->dtype != DT_FLOAT32) return false;
    if (!shape2(fl->mnew, fl->BM, 1) || !shape2(fl->alpha, fl->BM, 1) || !shape2(fl->p, fl->BM, fl->BN)) return false;
    if (fl->mask) {
        const char *ix[2] = {"r_", "c_"};
        if (fl->mask->shape.rank > 2 || !mask_str(NULL, fl, fl->mask, ix + 2 - fl->mask->shape.rank, 0)) return false;
    }
    /* what tilec_flash_fwd is instantiated for: 4 or 8 warps, each with one
     * or two m-tiles of 16 rows, two when their s and o fit in about 160
     * registers a thread (each K and V fragment then serves twice the rows:
     * FlashAttention 2's 128 x 32 blocks of four warps for D = 128) */
    if ((fl->D != 64 && fl->D != 128) || fl->BN % 16 || fl->BN < 16 || fl->BN > 128) return false;
    for (int mt = 2; mt >= 1; mt--) {
        int64_t w = fl->BM / (16 * mt);
        if (fl->BM % (16 * mt) || (w != 4 && w != 8)) continue;
        /* registers a thread: s and o of its m-tiles, and acc in the
         * ordinary layout of the variant's threads before and after the loop */
        if (mt * (fl->D + fl->BN) / 2 > (mt == 1 ? 160 : 96) || fl->BM * fl->D / (32 * w) > 64) continue;
        fl->mt = mt;
        fl->warps = (int)w;
        /* one block of 8 warps a multiprocessor (their registers): a third
         * stage keeps its copies ahead; two blocks of 4 overlap each other */
        fl->stages = w == 8 ? 3 : 2;
        return true;
    }
    return false;
}

/* The first loop of st (outside other loops) that flash_match takes. */
static bool find_in(const Func *k, const Stmt *st, FlashLoop *fl)
{
    if (!st) return false;
    if (st->kind == ST_FOR || st->kind == ST_WHILE) return st->kind == ST_FOR && flash_match(k, st, fl);
    if (st->kind == ST_BLOCK)
        for (int i = 0; i < st->nitems; i++)
            if (find_in(k, st->items[i], fl)) return true;
    return st->kind == ST_IF && !st->is_target && (find_in(k, st->then_s, fl) || find_in(k, st->else_s, fl));
}

bool flash_find(const Func *k, FlashLoop *fl)
{
    return find_in(k, k->body, fl);
}

bool codegen_has_flash(const Program *p, const CodegenOptions *co)
{
    if (co->opt_level == 0) return false;
    for (int i = 0; i < p->nfuncs; i++) {
        const Func *f = p->funcs[i];
        if (!f->is_kernel) continue;
        for (int s = 0; s < f->nspecs; s++) {
            FlashLoop fl;
            if (f->specs[s].typed && flash_find(f->specs[s].typed, &fl)) return true;
        }
    }
    return false;
}

/* ---- the mask ------------------------------------------------------------ */

/* C for element ix of integer / bool tile e (ix: one index per axis of e's
 * shape; "0" for its unit axes), or NULL where e is not index arithmetic.
 * With em NULL, only whether it can be written (nothing is allocated). */
static char *mask_str(Emitter *em, const FlashLoop *fl, const Expr *e, const char *const *ix, int depth)
{
#define OUT(...) (em ? arena_printf(em->ar, __VA_ARGS__) : (char *)"")
    if (!e || depth > 32) return NULL;
    int R = e->shape.rank;
    if (e->is_const) {
        if (e->cval.is_float) return NULL;
        return OUT("((int64_t)%" PRId64 ")", e->cval.i);
    }
    if (e->dtype != DT_BOOL && e->dtype != DT_INT_CONST && !dtype_is_int(e->dtype)) return NULL;
    switch (e->kind) {
    case EX_NAME: {
        const Symbol *s = e->sym;
        if (!s) return NULL;
        if (s == fl->n) return OUT("n_");
        if (s->kind == SYM_PARAM) return s->param->kind == PARAM_SCALAR && R == 0 ? OUT("((int64_t)p_%s)", s->name) : NULL;
        if (R == 0) /* a scalar the loop does not change: its register */
            return !decl_of(fl->loop->body, s) && !assigns(fl->loop->body, s) ? OUT("((int64_t)%s)", em && em->tir ? tv_sym_name(em, s) : s->name) : NULL;
        const Stmt *d = decl_of(fl->func->body, s);
        if (!d || d->assigned || !d->init || assigns(fl->func->body, s)) return NULL;
        return mask_str(em, fl, d->init, ix, depth + 1);
    }
    case EX_BUILTIN:
        if (e->bi == BI_ARANGE && R == 1) return OUT("((int64_t)(%s))", ix[0]);
        if (e->bi == BI_RESHAPE) {
            const Expr *a = e->args[0];
            const char *cix[TILE_MAX_RANK];
            int j = 0;
            for (int k = 0; k < a->shape.rank; k++) {
                if (a->shape.dim[k] == 1) {
                    cix[k] = "0";
                    continue;
                }
                while (j < R && e->shape.dim[j] == 1) j++;
                if (j == R || e->shape.dim[j] != a->shape.dim[k]) return NULL;
                cix[k] = ix[j++];
            }
            while (j < R && e->shape.dim[j] == 1) j++;
            if (j != R) return NULL;
            return mask_str(em, fl, a, cix, depth + 1);
        }
        return NULL;
    case EX_UNARY: {
        if (e->op != UOP_NOT && e->op != UOP_NEG) return NULL;
        char *a = mask_str(em, fl, e->a, ix, depth + 1);
        return a ? OUT("(%s%s)", e->op == UOP_NOT ? "!" : "-", a) : NULL;
    }
    case EX_CAST: {
        char *a = mask_str(em, fl, e->a, ix, depth + 1);
        if (!a) return NULL;
        return e->dtype == DT_BOOL ? OUT("((%s) != 0)", a) : OUT("((int64_t)(%s))", a);
    }
    case EX_BINARY: {
        static const char *const ops[BOP_COUNT] = {
            [BOP_ADD] = "+", [BOP_SUB] = "-", [BOP_MUL] = "*", [BOP_LT] = "<", [BOP_GT] = ">", [BOP_LE] = "<=",
            [BOP_GE] = ">=", [BOP_EQ] = "==", [BOP_NE] = "!=", [BOP_AND] = "&", [BOP_XOR] = "^", [BOP_OR] = "|",
            [BOP_LAND] = "&&", [BOP_LOR] = "||"};
        if (e->op < 0 || e->op >= BOP_COUNT || !ops[e->op]) return NULL;
        const Expr *rest;
        switch (const_side(e, &rest)) {
        case SIDE_NONE: break;
        case SIDE_FLOAT: return NULL;
        case SIDE_FALSE: return OUT("false");
        case SIDE_TRUE: return OUT("true");
        case SIDE_REST: return mask_str(em, fl, rest, ix, depth + 1); /* (rest has e's shape or broadcasts to it) */
        }
        const Expr *kids[2] = {e->a, e->b};
        char *ks[2];
        for (int i = 0; i < 2; i++) {
            const Expr *k = kids[i];
            int Rk = k->shape.rank;
            if (Rk > R) return NULL;
            const char *cix[TILE_MAX_RANK];
            for (int a = 0; a < Rk; a++) cix[a] = k->shape.dim[a] == 1 ? "0" : ix[a + R - Rk];
            if (!(ks[i] = mask_str(em, fl, k, cix, depth + 1))) return NULL;
        }
        return OUT("(%s %s %s)", ks[0], ops[e->op], ks[1]);
    }
    default:
        return NULL;
    }
#undef OUT
}

/* Whether integer tile e (mask_str's index arithmetic) is affine in the
 * element's indices: arange, and sums, differences and negations of affine
 * terms, products only by a term that is the same for every element (a
 * rank-0 value), widening integer casts; the loop variable, scalars and
 * constants are the same for every element of a block. */
static bool mask_affine(const FlashLoop *fl, const Expr *e, int depth)
{
    if (!e || depth > 32) return false;
    if (e->is_const) return !e->cval.is_float;
    if (!dtype_is_int(e->dtype) && e->dtype != DT_INT_CONST) return false;
    switch (e->kind) {
    case EX_NAME: {
        const Symbol *s = e->sym;
        if (!s) return false;
        if (s == fl->n || s->kind == SYM_PARAM || e->shape.rank == 0) return true; /* (mask_str vets them) */
        const Stmt *d = decl_of(fl->func->body, s);
        return d && d->init && mask_affine(fl, d->init, depth + 1);
    }
    case EX_BUILTIN:
        return e->bi == BI_ARANGE || (e->bi == BI_RESHAPE && mask_affine(fl, e->args[0], depth + 1));
    case EX_UNARY:
        return e->op == UOP_NEG && mask_affine(fl, e->a, depth + 1);
    case EX_CAST:
        /* a cast that cannot wrap an index: to 64 bits, or to the operand's own type */
        return (e->dtype == DT_INT64 || e->dtype == e->a->dtype) && mask_affine(fl, e->a, depth + 1);
    case EX_BINARY:
        if (e->op == BOP_ADD || e->op == BOP_SUB) return mask_affine(fl, e->a, depth + 1) && mask_affine(fl, e->b, depth + 1);
        if (e->op == BOP_MUL)
            return (e->a->shape.rank == 0 || e->b->shape.rank == 0) && mask_affine(fl, e->a, depth + 1) &&
                   mask_affine(fl, e->b, depth + 1);
        return false;
    default:
        return false;
    }
}

/* Whether the mask's value on a rectangle of rows and columns is decided by
 * its four corners: a conjunction of <, <=, >, >= between affine terms
 * (after mask_str's folding of a constant side of && and ||).  Each
 * comparison is true on a half-plane of (row, column), so the conjunction is
 * true on a convex set, which holds the rectangle exactly when it holds the
 * rectangle's corners.  (== and != are not: a line can pass between them.) */
static bool mask_by_corners(const FlashLoop *fl, const Expr *e, int depth)
{
    if (!e || depth > 32) return false;
    if (e->is_const) return !e->cval.is_float;
    switch (e->kind) {
    case EX_NAME: {
        const Symbol *s = e->sym;
        if (!s || s == fl->n || s->kind == SYM_PARAM || e->shape.rank == 0) return e->dtype == DT_BOOL;
        const Stmt *d = decl_of(fl->func->body, s);
        return d && d->init && mask_by_corners(fl, d->init, depth + 1);
    }
    case EX_BUILTIN:
        return e->bi == BI_RESHAPE && mask_by_corners(fl, e->args[0], depth + 1);
    case EX_BINARY: {
        const Expr *rest;
        switch (const_side(e, &rest)) {
        case SIDE_NONE: break;
        case SIDE_FLOAT: return false;
        case SIDE_FALSE: case SIDE_TRUE: return true; /* a constant */
        case SIDE_REST: return mask_by_corners(fl, rest, depth + 1);
        }
        if (e->op == BOP_LAND || (e->op == BOP_AND && e->dtype == DT_BOOL))
            return mask_by_corners(fl, e->a, depth + 1) && mask_by_corners(fl, e->b, depth + 1);
        if (e->op == BOP_LT || e->op == BOP_LE || e->op == BOP_GT || e->op == BOP_GE)
            return mask_affine(fl, e->a, depth + 1) && mask_affine(fl, e->b, depth + 1);
        return false;
    }
    default:
        return false;
    }
}

/* ---- emission ------------------------------------------------------------ */

/* Whether tilec_flash_fwd may run the loop's products on wgmma (its
 * tilec_flash_wg, in a binary built for sm_90a): then q and the stages
 * take wgmma's swizzled layout, whose 1024-byte atoms need their buffer
 * aligned to 1024 bytes. */
bool flash_may_wgmma(const FlashLoop *fl)
{
    return fl->mt == 1 && fl->warps % 4 == 0 && (fl->D == 64 || fl->D == 128) && (fl->BN == 64 || fl->BN == 128);
}

int64_t flash_smem_bytes(const FlashLoop *fl)
{
    /* q, then the four stages; q, then acc, mi and li on the way in and out
     * (and the slack that aligns them for wgmma) */
    int64_t q = fl->BM * fl->D * 2, stages = 2 * fl->stages * fl->BN * fl->D * 2,
            xfer = (fl->BM * (fl->D + 4) + 2 * fl->BM) * 4;
    return q + (stages > xfer ? stages : xfer) + (flash_may_wgmma(fl) ? 1024 : 0);
}

/* Pointer to the operand's first key row of this block's head. */
static char *operand_base(Emitter *em, const FlashOperand *op)
{
    const Option *ix = ast_option(op->load, "index");
    char *s = S("(const uint16_t *)p_%s.data", op->param->name);
    for (int a = 0; a < op->load->shape.rank; a++) {
        if (op->unit_axis[a] < 0) continue;
        Expr *i = ix->value->args[a];
        Ctx cc = {.shape = &i->shape, .idx = "0"};
        s = S("%s + (int64_t)(%s) * p_%s.strides[%d]", s, ex_evc(em, i, cc, DT_INT64), op->param->name, op->unit_axis[a]);
    }
    return s;
}

void flash_emit_for(Emitter *em, const TirOp *op)
{
    const FlashLoop *fl = em->fp;
    int64_t BM = fl->BM, D = fl->D, LD = D + 4;
    const char *qn = tv_sym_name(em, fl->q), *mn = tv_sym_name(em, fl->m), *ln = tv_sym_name(em, fl->l);
    const char *an = tv_sym_name(em, fl->acc), *nn = tv_sym_name(em, fl->n);
    line(em, "{ /* the attention loop on tensor cores (tilec_flash_fwd, flash.c) */");
    em->ind++;
    body_emit_ops(em, op->init);
    Ctx cc = {.shape = &fl->hi->shape, .idx = "0"};
    line(em, "const int64_t fn0_ = %s, fn1_ = %s;", nn, ex_evc(em, (Expr *)fl->hi, cc, DT_INT64));
    if (flash_may_wgmma(fl))
        line(em, "uint16_t *const fs_ = (uint16_t *)(s_mma_ + ((1024u - ((unsigned)__cvta_generic_to_shared(s_mma_) & 1023u)) & "
                 "1023u)); /* wgmma's 1024-byte atoms */");
    else
        line(em, "uint16_t *const fs_ = (uint16_t *)s_mma_;");
    line(em, "float *const ff_ = (float *)(fs_ + %" PRId64 "); /* after q */", BM * D);
    line(em, "const int fw_ = t_ >> 5, fg_ = (t_ & 31) >> 2, fq_ = t_ & 3;");
    /* q into the swizzled buffer, then this warp's A fragments */
    line(em, "__syncthreads();");
    tv_open_loop(em, &fl->q->shape);
    Lay lq = tv_lay(em, &fl->q->shape);
    if (lq.repl) line(em, "if (t_ < %" PRId64 ")", lq.n);
    line(em, "fs_[tilec_flash_at<%" PRId64 ", %" PRId64 ", tilec_flash_wg<%" PRId64 ", %" PRId64 ", %d, %d>()>(i_ / %" PRId64
             ", (i_ %% %" PRId64 ") >> 3) + (i_ & 7)] = %s[e_];",
         D, BM, D, fl->BN, fl->warps, fl->mt, D, D, qn);
    tv_close_loop(em);
    /* acc, mi, li into rows of LD floats after q, then into this thread's fragments */
    const Symbol *ins[3] = {fl->acc, fl->m, fl->l};
    const char *names[3] = {an, mn, ln};
    for (int i = 0; i < 3; i++) {
        tv_open_loop(em, &ins[i]->shape);
        Lay l = tv_lay(em, &ins[i]->shape);
        if (l.repl) line(em, "if (t_ < %" PRId64 ")", l.n);
        if (i == 0) line(em, "ff_[(i_ / %" PRId64 ") * %" PRId64 " + i_ %% %" PRId64 "] = %s[e_];", D, LD, D, an);
        else line(em, "ff_[%" PRId64 " + i_] = %s[e_];", BM * LD + (i - 1) * BM, names[i]);
        tv_close_loop(em);
    }
    line(em, "__syncthreads();");
    int MT = fl->mt;
    line(em, "float fo_[%d][%" PRId64 "][4], fm_[%d][2], fl_[%d][2];", MT, D / 8, MT, MT);
    line(em, "#pragma unroll");
    line(em, "for (int x_ = 0; x_ < %d; ++x_) {", 2 * MT);
    line(em, "    const int mt_ = x_ >> 1, h_ = x_ & 1, r_ = %d * fw_ + 16 * mt_ + fg_ + 8 * h_;", 16 * MT);
    line(em, "    fm_[mt_][h_] = ff_[%" PRId64 " + r_];", BM * LD);
    line(em, "    fl_[mt_][h_] = fq_ == 0 ? ff_[%" PRId64 " + r_] : 0.0f; /* partial sums: the row's start once */", BM * LD + BM);
    line(em, "    #pragma unroll");
    line(em, "    for (int j_ = 0; j_ < %" PRId64 "; ++j_) {", D / 8);
    line(em, "        fo_[mt_][j_][2 * h_] = ff_[r_ * %" PRId64 " + 8 * j_ + 2 * fq_];", LD);
    line(em, "        fo_[mt_][j_][2 * h_ + 1] = ff_[r_ * %" PRId64 " + 8 * j_ + 2 * fq_ + 1];", LD);
    line(em, "    }");
    line(em, "}");
    line(em, "__syncthreads();");
    /* the mask, as the user wrote it, at row r_ and column c_ of block n_ */
    if (fl->mask) {
        const char *ix[2] = {"r_", "c_"};
        char *m = mask_str(em, fl, fl->mask, ix + 2 - fl->mask->shape.rank, 0);
        line(em, "auto fmask_ = [&](int r_, int c_, int64_t n_) -> bool { (void)r_; (void)c_; (void)n_; return %s; };", m);
    } else {
        line(em, "auto fmask_ = [](int, int, int64_t) -> bool { return true; };");
    }
    /* whether the mask holds on rows r0_ .. r1_ of block n_, every column
     * (tilec_flash_fwd then skips it): its corners, where they decide it */
    if (fl->mask && mask_by_corners(fl, fl->mask, 0))
        line(em, "auto ffull_ = [&](int r0_, int r1_, int64_t n_) -> bool { return fmask_(r0_, 0, n_) && fmask_(r0_, %" PRId64
                 ", n_) && fmask_(r1_, 0, n_) && fmask_(r1_, %" PRId64 ", n_); };", fl->BN - 1, fl->BN - 1);
    else
        line(em, "auto ffull_ = [](int, int, int64_t) -> bool { return false; };");
    char *scale = "1.0f";
    if (fl->scale) {
        Ctx sc = {.shape = &fl->scale->shape, .idx = "0"};
        scale = ex_evc(em, (Expr *)fl->scale, sc, DT_FLOAT32);
    }
    line(em, "tilec_flash_fwd<%s, %" PRId64 ", %" PRId64 ", %d, %d, %d, %d, %s>(fs_, fs_ + %" PRId64 ", %s, p_%s.strides[%d], p_%s.shape[%d],",
         fl->dtype == DT_BFLOAT16 ? "true" : "false", D, fl->BN, fl->warps, MT, fl->stages, fl->exp,
         fl->mask ? "true" : "false", BM * D, operand_base(em, &fl->k), fl->k.param->name, fl->k.key_axis, fl->k.param->name,
         fl->k.key_axis);
    line(em, "    %s, p_%s.strides[%d], p_%s.shape[%d], fn0_, fn1_, %s, fmask_, ffull_, fo_, fm_, fl_);",
         operand_base(em, &fl->v), fl->v.param->name, fl->v.key_axis, fl->v.param->name, fl->v.key_axis, scale);
    /* back: the four partial sums of each row added; the tiles through rows again */
    line(em, "#pragma unroll");
    line(em, "for (int x_ = 0; x_ < %d; ++x_) {", 2 * MT);
    line(em, "    const int mt_ = x_ >> 1, h_ = x_ & 1, r_ = %d * fw_ + 16 * mt_ + fg_ + 8 * h_;", 16 * MT);
    line(em, "    const float sum_ = tilec_flash_row_sum(fl_[mt_][h_]);");
    line(em, "    if (fq_ == 0) ff_[%" PRId64 " + r_] = fm_[mt_][h_], ff_[%" PRId64 " + r_] = sum_;", BM * LD, BM * LD + BM);
    line(em, "    #pragma unroll");
    line(em, "    for (int j_ = 0; j_ < %" PRId64 "; ++j_) {", D / 8);
    line(em, "        ff_[r_ * %" PRId64 " + 8 * j_ + 2 * fq_] = fo_[mt_][j_][2 * h_];", LD);
    line(em, "        ff_[r_ * %" PRId64 " + 8 * j_ + 2 * fq_ + 1] = fo_[mt_][j_][2 * h_ + 1];", LD);
    line(em, "    }");
    line(em, "}");
    line(em, "__syncthreads();");
    for (int i = 0; i < 3; i++) {
        tv_open_loop(em, &ins[i]->shape);
        if (i == 0) line(em, "%s[e_] = ff_[(i_ / %" PRId64 ") * %" PRId64 " + i_ %% %" PRId64 "];", an, D, LD, D);
        else line(em, "%s[e_] = ff_[%" PRId64 " + i_];", names[i], BM * LD + (i - 1) * BM);
        tv_close_loop(em);
    }
    line(em, "__syncthreads();");
    for (int i = 0; i < 3; i++) {
        const TirValue *v = em->tir->by_sym[ins[i]->id];
        if (v && v->mirror) mem_write_mirror(em, names[i], &ins[i]->shape);
    }
    line(em, "%s = fn0_ < fn1_ ? fn1_ : fn0_; /* the loop variable's last value */", nn);
    em->ind--;
    line(em, "}");
}

/* Whether the launcher may take the variant for these arrays (besides
 * aligned_): the d axis holds at least D elements. */
char *flash_launch_test(Arena *ar, const FlashLoop *fl)
{
    return arena_printf(ar, "%s->shape[%d] >= %" PRId64 " && %s->shape[%d] >= %" PRId64, fl->k.param->name, fl->k.d_axis,
                        fl->D, fl->v.param->name, fl->v.d_axis, fl->D);
}

/* Whether every value the variant exchanges lives in registers (not in
 * fragments or a pipeline's stages). */
bool flash_homes_ok(Emitter *em)
{
    const Symbol *s[4] = {em->fp->q, em->fp->m, em->fp->l, em->fp->acc};
    for (int i = 0; i < 4; i++) {
        const TirValue *v = em->tir->by_sym[s[i]->id];
        if (!v || (v->home != TIR_REGS && v->home != TIR_REPL)) return false;
    }
    return em->T == 32 * em->fp->warps;
}
