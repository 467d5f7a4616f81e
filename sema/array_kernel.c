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
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "frontend/diag.h"
#include "sema/sema_impl.h"

enum { AK_MAX_TMPS = 64, AK_MAX_REDS = 16, AK_ELEMS = 2048, AK_MULTI_CHUNK = 1024 };

/* What a value of a row kernel (one with reductions) varies along: a
 * scalar; the operand space (rank R), or an input of lower rank that may
 * align with either space; a reduction kept as rank R with extent 1 along
 * the axis (.keepdims); a reduction without it (rank R - 1).  The first
 * two broadcast against everything, keepdims ones against full ones. */
typedef enum VKind { VK_S, VK_FLO, VK_F, VK_K, VK_O, VK_ERR } VKind;

typedef struct AkTmp {
    const char *name;
    Expr *init; /* reduction kernels: substituted into every use */
    int rank;
} AkTmp;

/* Where a row kernel's temporaries are computed once: the statements of
 * one chunk's context (the last chunk at the top level, or one loop body)
 * get `auto __ak_tK_M = value;` the first time a temporary is needed there. */
typedef struct Memo {
    struct StmtBuf *buf;
    bool all;               /* every temporary (the one-chunk branch: its tiles stay live anyway) */
    const Expr *key[64];
    bool red[64];
    const char *name[64];
    int n, id;
} Memo;

typedef struct Ak {
    Arena *ar;
    Memo *memo;             /* row kernels' emission: the current context, or NULL */
    int nmemo;
    Func *f;
    bool ok;
    bool quiet;             /* graph fusion's trial: errors only set why */
    char why[320];          /* quiet: the first error's text */
    SrcLoc why_loc;
    AkTmp tmp[AK_MAX_TMPS];
    int ntmp;
    Expr *red[AK_MAX_REDS]; /* row kernels: the reductions, each once */
    int phase[AK_MAX_REDS]; /* 1 + the deepest phase of a reduction in its operand */
    int nred;
    int R, K;               /* row kernels: the operand space's rank and the reduced axis */
    SrcLoc axis_loc;
    bool in_red;
    bool used_in_red[64], used_out[64]; /* per param: read inside a reduction's operand (or a
                                           full-space value), or in the reduced space */
    int assigned_order[64]; /* outputs in order of first assignment */
    int nassigned;
    bool read_first[64];    /* an output read before it is first assigned */
    bool assigned[64];
    Expr *final_value[64];  /* row kernels: each output's (last) value, substituted */
    SrcLoc final_loc[64];
    int out_kind[64];       /* row kernels: AK_KEEP_* of each output */
    const char *alias[64];  /* row kernels' emission: the local an input is loaded as, when not its own name */
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
static void push(Ak *a, StmtBuf *b, Stmt *s);

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

/* e with every temporary replaced by its (substituted) value, shared, not
 * copied: a reduction written once is one node however often its temporary
 * is used, so it is computed once (the emitters copy what they emit). */
static Expr *substitute(Ak *a, Expr *e)
{
    if (!e) return NULL;
    if (e->kind == EX_NAME && param_index(a->f, e->name) < 0) {
        AkTmp *t = find_tmp(a, e->name);
        if (t && t->init) return t->init;
    }
    if (e->kind == EX_INT || e->kind == EX_FLOAT || e->kind == EX_NAME || e->kind == EX_TYPE) return e;
    Expr *n = arena_alloc(a->ar, sizeof *n);
    *n = *e;
    n->a = substitute(a, e->a);
    n->b = substitute(a, e->b);
    n->c = substitute(a, e->c);
    if (e->nargs) {
        n->args = arena_alloc(a->ar, sizeof(Expr *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++)
            n->args[i] = e->kind == EX_BUILTIN && e->bi == BI_DIM && i == 0 ? e->args[i] : substitute(a, e->args[i]);
    }
    return n;
}

/* An error of array kernel analysis: reported, or in a quiet trial (graph
 * fusion asking whether statements fuse) kept as the reason. */
static void __attribute__((format(printf, 3, 4))) ak_error(Ak *a, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (a->ok && a->quiet) {
        vsnprintf(a->why, sizeof a->why, fmt, ap);
        a->why_loc = loc;
    } else if (!a->quiet) {
        char buf[512];
        vsnprintf(buf, sizeof buf, fmt, ap);
        diag_error(loc, "%s", buf);
    }
    va_end(ap);
    a->ok = false;
}

static void ak_error_fix(Ak *a, SrcLoc loc, const char *fix, const char *msg)
{
    if (a->quiet) ak_error(a, loc, "%s", msg);
    else {
        diag_error_fix(loc, fix, "%s", msg);
        a->ok = false;
    }
}

static bool is_reduction(const Expr *e)
{
    return e->kind == EX_BUILTIN && builtin_info(e->bi)->cls == BCLASS_REDUCE;
}

static bool has_reduction(const Expr *e)
{
    if (!e) return false;
    if (is_reduction(e)) return true;
    if (has_reduction(e->a) || has_reduction(e->b) || has_reduction(e->c)) return true;
    for (int i = 0; i < e->nargs; i++)
        if (has_reduction(e->args[i])) return true;
    return false;
}

/* Whether builtin call e is an operation array kernels take (reductions
 * are checked where they are met); reports it if not. */
static bool allowed_builtin(Ak *a, const Expr *e)
{
    switch (builtin_info(e->bi)->cls) {
    case BCLASS_CAST: case BCLASS_MATH1: case BCLASS_MATH: case BCLASS_WHERE: return true;
    case BCLASS_REDUCE:
        if (e->bi == BI_SUM || e->bi == BI_PROD || e->bi == BI_MAX || e->bi == BI_MIN) return true;
        break;
    case BCLASS_SHAPE:
        /* tile_squeeze(v, .axis = K): a kept reduction as the reduced space's value */
        if (e->bi == BI_SQUEEZE && e->nargs == 1) {
            Option *ax = ast_option(e, "axis");
            if (ax && ax->value->kind == EX_INT) return true; /* the axis is checked with the kinds */
            ak_error(a, e->loc, "an array kernel squeezes the reduced axis only: tile_squeeze(v, .axis = k)");
            return false;
        }
        break;
    case BCLASS_QUERY:
        if (e->bi == BI_DIM && e->nargs == 2 && e->args[0]->kind == EX_NAME) {
            int pi = param_index(a->f, e->args[0]->name);
            if (pi >= 0 && a->f->params[pi].kind == PARAM_ARRAY) return true;
        }
        if (e->bi == BI_DIM) {
            ak_error(a, e->loc, "tile_dim takes an array parameter of the array kernel and an axis");
            return false;
        }
        break;
    default: break;
    }
    char msg[200];
    snprintf(msg, sizeof msg, "tile_%s is not an array-kernel operation", e->name);
    ak_error_fix(a, e->loc,
                 "array kernels take element-wise operations, tile_where, tile_cast, tile_dim, and tile_sum, tile_prod, "
                 "tile_max or tile_min along an axis; write a tile kernel (TILE_KERNEL) for the rest",
                 msg);
    return false;
}

/* ---- element-wise kernels: ranks ------------------------------------------- */

/* The rank of e's value as a whole array (0 for scalars) in a kernel with
 * no reductions, recording which arrays it reads; -1 after an error. */
static int rank_of(Ak *a, Expr *e)
{
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_TYPE: return 0;
    case EX_NAME: {
        int pi = param_index(a->f, e->name);
        if (pi >= 0) {
            Param *p = &a->f->params[pi];
            if (p->kind != PARAM_ARRAY) return 0;
            a->used_out[pi] = true;
            if (!a->assigned[pi] && !p->readonly) a->read_first[pi] = true;
            return p->rank;
        }
        AkTmp *t = find_tmp(a, e->name);
        return t ? t->rank : 0; /* an unknown name: sema reports it */
    }
    case EX_UNARY:
        if (e->op >= UOP_PREINC) {
            ak_error(a, e->loc, "increments are statements, not values");
            return -1;
        }
        return rank_of(a, e->a);
    case EX_CAST: return rank_of(a, e->a);
    case EX_BINARY: case EX_COND: case EX_CALL: case EX_BUILTIN: {
        if (e->kind == EX_BUILTIN) {
            if (!allowed_builtin(a, e)) return -1;
            if (e->bi == BI_DIM) return 0;
        }
        int r = 0;
        Expr *ops[3] = {e->a, e->b, e->c};
        for (int i = 0; i < 3; i++) {
            if (!ops[i]) continue;
            int k = rank_of(a, ops[i]);
            if (k < 0) return -1;
            if (k > r) r = k;
        }
        for (int i = 0; i < e->nargs; i++) {
            int k = rank_of(a, e->args[i]);
            if (k < 0) return -1;
            if (k > r) r = k;
        }
        return r;
    }
    default:
        ak_error(a, e->loc, "array kernels compute with arrays, scalars and constants; this expression is not one");
        return -1;
    }
}

/* ---- row kernels: reductions, phases, kinds ------------------------------- */

static int red_index(const Ak *a, const Expr *e)
{
    for (int j = 0; j < a->nred; j++)
        if (a->red[j] == e) return j;
    return -1;
}

/* The rank of a (substituted) value: inputs' ranks, a reduction's operand
 * rank (kept) or one less. */
static int vrank(Ak *a, const Expr *e)
{
    if (!e) return 0;
    if (e->kind == EX_NAME) {
        int pi = param_index(a->f, e->name);
        return pi >= 0 && a->f->params[pi].kind == PARAM_ARRAY ? a->f->params[pi].rank : 0;
    }
    if (e->kind == EX_BUILTIN && e->bi == BI_DIM) return 0;
    if (e->kind == EX_BUILTIN && e->bi == BI_SQUEEZE) return e->nargs ? vrank(a, e->args[0]) - 1 : 0;
    if (is_reduction(e)) {
        int r = e->nargs ? vrank(a, e->args[0]) : 0;
        Option *kd = ast_option(e, "keepdims");
        return kd && !(kd->value->kind == EX_INT && kd->value->ival == 0) ? r : r - 1;
    }
    int r = 0;
    const Expr *ops[3] = {e->a, e->b, e->c};
    for (int i = 0; i < 3; i++) {
        int k = vrank(a, ops[i]);
        if (k > r) r = k;
    }
    for (int i = 0; i < e->nargs; i++) {
        int k = vrank(a, e->args[i]);
        if (k > r) r = k;
    }
    return r;
}

/* Finds the reductions of e (each shared node once), checks their options
 * and axis, and gives each its phase; returns e's deepest phase, -1 after
 * an error. */
static int scan_reductions(Ak *a, Expr *e)
{
    if (!e) return 0;
    if (e->kind == EX_BUILTIN && !allowed_builtin(a, e)) return -1;
    if (e->kind == EX_UNARY && e->op >= UOP_PREINC) {
        ak_error(a, e->loc, "increments are statements, not values");
        return -1;
    }
    if (e->kind == EX_LIST || e->kind == EX_STRING || e->kind == EX_STRUCT || e->kind == EX_MEMBER) {
        ak_error(a, e->loc, "array kernels compute with arrays, scalars and constants; this expression is not one");
        return -1;
    }
    if (e->kind == EX_BUILTIN && e->bi == BI_DIM) return 0;
    if (is_reduction(e)) {
        int j = red_index(a, e);
        if (j >= 0) return a->phase[j];
        if (e->nargs != 1) return 0; /* sema reports the arity */
        int inner = scan_reductions(a, e->args[0]);
        if (inner < 0) return -1;
        Option *ax = ast_option(e, "axis"), *kd = ast_option(e, "keepdims");
        if (kd && kd->value->kind != EX_INT) {
            ak_error(a, kd->loc, "an array kernel's .keepdims must be true or false, as a literal");
            return -1;
        }
        int r = vrank(a, e->args[0]);
        if (!ax) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "array kernels reduce along one axis; tile_%s without .axis reduces the whole array", e->name);
            ak_error_fix(a, e->loc,
                         "reduce along an axis (.axis = k); a whole-array total is tile_atomic_add in a tile kernel "
                         "(examples/array_sum)",
                         msg);
            return -1;
        }
        int64_t k;
        Expr *v = ax->value;
        if (v->kind == EX_INT) k = v->ival;
        else if (v->kind == EX_UNARY && v->op == UOP_NEG && v->a->kind == EX_INT) k = -v->a->ival;
        else {
            ak_error(a, ax->loc, "an array kernel's .axis must be one integer literal");
            return -1;
        }
        if (r < 2) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "tile_%s of a %d-d array reduces it to a single value, which array kernels do not compute",
                     e->name, r);
            ak_error_fix(a, e->loc,
                         "reduce a matrix along one of its axes; a whole-array total is tile_atomic_add in a tile "
                         "kernel (examples/array_sum)",
                         msg);
            return -1;
        }
        if (k < -r || k >= r) {
            ak_error(a, ax->loc, "axis %lld is out of range for an operand of rank %d", (long long)k, r);
            return -1;
        }
        if (k < 0) k += r;
        if (a->nred == AK_MAX_REDS) {
            ak_error(a, e->loc, "an array kernel has at most %d reductions", AK_MAX_REDS);
            return -1;
        }
        /* the operand space: operands align at their last axes */
        int space = r > a->R ? r : a->R;
        int ks = (int)k + (space - r);
        if (a->K >= 0) {
            int prev = a->K + (space - a->R);
            if (prev != ks) {
                if (!a->quiet) {
                    diag_error(ax->loc, "this reduction is along axis %d of the operands' broadcast, an earlier one "
                                        "along axis %d: one array kernel reduces one axis",
                               ks, prev);
                    diag_note(a->axis_loc, "the earlier reduction's axis");
                    a->ok = false;
                } else {
                    ak_error(a, ax->loc, "it reduces along axis %d, the others along axis %d", ks, prev);
                }
                return -1;
            }
        } else {
            a->axis_loc = ax->loc;
        }
        a->R = space;
        a->K = ks;
        a->red[a->nred] = e;
        a->phase[a->nred++] = inner + 1;
        return inner + 1;
    }
    int p = 0;
    Expr *ops[3] = {e->a, e->b, e->c};
    for (int i = 0; i < 3; i++) {
        int q = scan_reductions(a, ops[i]);
        if (q < 0) return -1;
        if (q > p) p = q;
    }
    for (int i = 0; i < e->nargs; i++) {
        int q = scan_reductions(a, e->args[i]);
        if (q < 0) return -1;
        if (q > p) p = q;
    }
    return p;
}

static VKind vk_combine(VKind x, VKind y)
{
    if (x == VK_ERR || y == VK_ERR) return VK_ERR;
    if (x == VK_S) return y;
    if (y == VK_S || x == y) return x;
    if ((x == VK_FLO && y == VK_O) || (x == VK_O && y == VK_FLO)) return VK_O;
    if (x == VK_O || y == VK_O) return VK_ERR;
    return VK_F; /* FLO with K or F, K with F */
}

/* What value e varies along (see VKind), after the reductions are known. */
static VKind kind_of(Ak *a, const Expr *e)
{
    if (!e) return VK_S;
    switch (e->kind) {
    case EX_NAME: {
        int pi = param_index(a->f, e->name);
        if (pi < 0 || a->f->params[pi].kind != PARAM_ARRAY) return VK_S;
        return a->f->params[pi].rank >= a->R ? VK_F : VK_FLO;
    }
    case EX_INT: case EX_FLOAT: case EX_TYPE: return VK_S;
    default: break;
    }
    if (e->kind == EX_BUILTIN && e->bi == BI_DIM) return VK_S;
    if (is_reduction(e)) {
        Option *kd = ast_option(e, "keepdims");
        return kd && kd->value->ival ? VK_K : VK_O;
    }
    if (e->kind == EX_BUILTIN && e->bi == BI_SQUEEZE) {
        VKind k = kind_of(a, e->args[0]);
        if (ast_option(e, "axis")->value->ival != a->K) {
            ak_error(a, e->loc, "an array kernel squeezes the reduced axis only: tile_squeeze(v, .axis = %d)", a->K);
            return VK_ERR;
        }
        if (k == VK_K || k == VK_S) return k == VK_K ? VK_O : VK_S;
        if (k != VK_ERR)
            ak_error(a, e->loc, "tile_squeeze takes a value kept along axis %d (.keepdims = true) here", a->K);
        return VK_ERR;
    }
    VKind k = VK_S;
    const Expr *ops[3] = {e->a, e->b, e->c};
    for (int i = 0; i < 3; i++)
        if (ops[i]) {
            VKind c = vk_combine(k, kind_of(a, ops[i]));
            if (c == VK_ERR && k != VK_ERR) {
                ak_error(a, ops[i]->loc, "a reduction without .keepdims (rank %d) meets a value of rank %d here; give "
                                         "the reduction .keepdims = true to broadcast it along axis %d",
                         a->R - 1, a->R, a->K);
                return VK_ERR;
            }
            k = c;
        }
    for (int i = 0; i < e->nargs; i++) {
        VKind c = vk_combine(k, kind_of(a, e->args[i]));
        if (c == VK_ERR && k != VK_ERR) {
            ak_error(a, e->args[i]->loc, "a reduction without .keepdims (rank %d) meets a value of rank %d here; give "
                                         "the reduction .keepdims = true to broadcast it along axis %d",
                     a->R - 1, a->R, a->K);
            return VK_ERR;
        }
        k = c;
    }
    return k;
}

/* Marks the arrays e reads: inside reductions' operands and in full-space
 * values they are read at operand coordinates (used_in_red), elsewhere at
 * the reduced space's (used_out). */
static void mark_reads(Ak *a, const Expr *e, bool full)
{
    if (!e) return;
    if (e->kind == EX_NAME) {
        int pi = param_index(a->f, e->name);
        if (pi >= 0 && a->f->params[pi].kind == PARAM_ARRAY) {
            if (full) a->used_in_red[pi] = true;
            else a->used_out[pi] = true;
        }
        return;
    }
    if (e->kind == EX_BUILTIN && e->bi == BI_DIM) return;
    if (is_reduction(e)) {
        if (e->nargs) mark_reads(a, e->args[0], true);
        return;
    }
    mark_reads(a, e->a, full);
    mark_reads(a, e->b, full);
    mark_reads(a, e->c, full);
    for (int i = 0; i < e->nargs; i++) mark_reads(a, e->args[i], full);
}

/* ---- lowering ------------------------------------------------------------ */

/* The tile: extents of the space's axes as expressions of TILEC_BLOCK. */
typedef struct Tile {
    int rank;
    Expr *ext[4];
} Tile;

static Expr *block_name(Ak *a)
{
    return mk_name(a, "TILEC_BLOCK", a->f->loc);
}

/* AK_ELEMS / TILEC_BLOCK, at least 1 */
static Expr *elems_per(Ak *a)
{
    Expr *c = mk(a, EX_COND, a->f->loc);
    c->a = mk_bin(a, BOP_GE, block_name(a), mk_int(a, AK_ELEMS, a->f->loc));
    c->b = mk_int(a, 1, a->f->loc);
    c->c = mk_bin(a, BOP_DIV, mk_int(a, AK_ELEMS, a->f->loc), block_name(a));
    return c;
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
        use[i] = a->read_first[i] || (a->used_out[i] && (p->readonly || !a->assigned[i]));
    }
    load_all(a, &b, use, idx, &t);
    bool declared[64];
    memcpy(declared, use, sizeof declared);
    for (int s = 0; s < body->nitems; s++) {
        Stmt *st = body->items[s];
        if (st->kind == ST_DECL && has_reduction(st->init)) {
            /* no output reads it (else this were a row kernel) */
            if (!a->quiet) diag_warning("unused-value", st->name_loc, "temporary '%s' is never used", st->name);
            continue;
        }
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

/* The nodes of e as a tree (temporaries expanded), counted up to cap. */
static int tree_size(const Expr *e, int cap)
{
    if (!e || cap <= 0) return 0;
    int n = 1;
    const Expr *ops[3] = {e->a, e->b, e->c};
    for (int i = 0; i < 3 && n < cap; i++) n += tree_size(ops[i], cap - n);
    for (int i = 0; i < e->nargs && n < cap; i++) n += tree_size(e->args[i], cap - n);
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
    VKind vk = kind_of(a, e);
    if (!m->all && vk != VK_S && vk != VK_K && tree_size(e, AK_MEMO_SIZE) < AK_MEMO_SIZE)
        return emit_node(a, e, ot, reduced);
    for (int i = 0; i < m->n; i++)
        if (m->key[i] == e && m->red[i] == reduced) return mk_name(a, m->name[i], e->loc);
    Expr *v = emit_node(a, e, ot, reduced);
    if (m->n == 64) return v;
    const char *name = arena_printf(a->ar, "__ak_t%d_%d%s", k, m->id, reduced ? "r" : "");
    push(a, m->buf, mk_decl(a, name, ak_auto, v, e->loc));
    m->key[m->n] = e;
    m->red[m->n] = reduced;
    m->name[m->n++] = name;
    return mk_name(a, name, e->loc);
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
        int pi = param_index(a->f, e->name);
        if (pi >= 0 && a->alias[pi]) return mk_name(a, a->alias[pi], e->loc);
    }
    int j = red_index(a, e);
    if (j >= 0) {
        Expr *n = mk_name(a, acc_name(a, j), e->loc);
        if (!reduced) return n;
        Expr *rs = mk_call(a, BI_RESHAPE, e->loc, 1, n, NULL, NULL);
        add_opt(a, rs, "shape", mk_list(a, ot->ext, ot->rank, e->loc));
        return rs;
    }
    if (e->kind == EX_BUILTIN && e->bi == BI_SQUEEZE) {
        /* the kept value, reshaped to the reduced tile */
        Expr *inner = emit_value(a, e->args[0], ot, false);
        Expr *rs = mk_call(a, BI_RESHAPE, e->loc, 1, inner, NULL, NULL);
        add_opt(a, rs, "shape", mk_list(a, ot->ext, ot->rank, e->loc));
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
    case BI_SUM: return mk_bin(a, BOP_ADD, acc, part);
    case BI_PROD: return mk_bin(a, BOP_MUL, acc, part);
    case BI_MAX: return mk_call(a, BI_MAXIMUM, part->loc, 2, acc, part, NULL);
    default: return mk_call(a, BI_MINIMUM, part->loc, 2, acc, part, NULL);
    }
}

/* Whether value e (substituted) is floating point: 1 yes, 0 no, -1 not
 * known here (an auto temporary's type, a tile function's result).  A
 * masked maximum of floats fills with -inf, of anything else with the
 * chunk's own minimum (a reduction more). */
static int float_class(Ak *a, const Expr *e)
{
    if (!e) return -1;
    switch (e->kind) {
    case EX_FLOAT: return 1;
    case EX_INT: return 0;
    case EX_CAST: return e->type.dtype == DT_INVALID ? -1 : dtype_is_float(e->type.dtype);
    case EX_NAME: {
        int pi = param_index(a->f, e->name);
        if (pi < 0) return -1;
        return dtype_is_float(a->f->params[pi].type.dtype);
    }
    case EX_UNARY: return e->op == UOP_NOT ? 0 : float_class(a, e->a);
    case EX_BINARY: {
        if (e->op >= BOP_LT) return 0; /* comparisons, logic, bits */
        int x = float_class(a, e->a), y = float_class(a, e->b);
        if (x == 1 || y == 1) return 1;
        return x == 0 && y == 0 ? 0 : -1;
    }
    case EX_COND: {
        int x = float_class(a, e->b), y = float_class(a, e->c);
        if (x == 1 || y == 1) return 1;
        return x == 0 && y == 0 ? 0 : -1;
    }
    case EX_BUILTIN:
        switch (builtin_info(e->bi)->cls) {
        case BCLASS_MATH1: return e->bi == BI_ABS ? float_class(a, e->args[0]) : 1;
        case BCLASS_MATH: return 1;
        case BCLASS_CAST: return e->nargs > 1 && e->args[1]->kind == EX_TYPE ? dtype_is_float(e->args[1]->type.dtype) : -1;
        case BCLASS_WHERE: {
            int x = float_class(a, e->args[1]), y = float_class(a, e->args[2]);
            if (x == 1 || y == 1) return 1;
            return x == 0 && y == 0 ? 0 : -1;
        }
        case BCLASS_REDUCE: return e->nargs ? float_class(a, e->args[0]) : -1;
        case BCLASS_SHAPE: return e->nargs ? float_class(a, e->args[0]) : -1;
        default: return 0;
        }
    default: return -1;
    }
}

/* RED(operand, .axis = K, .keepdims = true) */
static Expr *reduce(Ak *a, const Expr *user, Expr *operand)
{
    Expr *r = mk_call(a, user->bi, user->loc, 1, operand, NULL, NULL);
    add_opt(a, r, "axis", mk_int(a, a->K, user->loc));
    add_opt(a, r, "keepdims", mk_int(a, 1, user->loc));
    return r;
}

/* Whether some reduction of phase p reads array i (through its operand). */
static bool phase_reads(Ak *a, int p, int i)
{
    Ak t = *a;
    memset(t.used_in_red, 0, sizeof t.used_in_red);
    memset(t.used_out, 0, sizeof t.used_out);
    for (int j = 0; j < a->nred; j++)
        if (a->phase[j] == p) mark_reads(&t, a->red[j]->args[0], true);
    return t.used_in_red[i];
}

/* load_all under names of their own (`__ak_pP_x`), which emit_value uses
 * until unprefix: a first chunk loaded beside the loop's. */
static void load_all_prefixed(Ak *a, StmtBuf *b, const bool *use, Expr *const *idx, const Tile *t, int p)
{
    for (int i = 0; i < a->f->nparams; i++) {
        const Param *q = &a->f->params[i];
        if (!use[i] || q->kind != PARAM_ARRAY) continue;
        const char *name = arena_printf(a->ar, "__ak_p%d_%s", p, q->name);
        push(a, b, mk_decl(a, name, q->type, access(a, BI_LOAD, q, NULL, idx, t, q->loc), q->loc));
        a->alias[i] = name;
    }
}

static void unprefix(Ak *a)
{
    memset(a->alias, 0, sizeof a->alias);
}

/* The mask of chunk c (an expression) along K: (c * chunk + arange(chunk)) < extent. */
static Expr *chunk_mask(Ak *a, Expr *c, Expr *chunk, Expr *extent, SrcLoc loc)
{
    Expr *ty = mk(a, EX_TYPE, loc);
    ty->type = ak_int64;
    Expr *ar = mk_call(a, BI_ARANGE, loc, 1, ty, NULL, NULL);
    add_opt(a, ar, "shape", mk_list(a, &chunk, 1, loc));
    Expr *pos = mk_bin(a, BOP_ADD, mk_bin(a, BOP_MUL, c, sem_copy_expr(a->ar, chunk)), ar);
    if (a->K < a->R - 1) {
        Expr *shp[4] = {chunk};
        for (int d = 1; d < a->R - a->K; d++) shp[d] = mk_int(a, 1, loc);
        Expr *rs = mk_call(a, BI_RESHAPE, loc, 1, pos, NULL, NULL);
        add_opt(a, rs, "shape", mk_list(a, shp, a->R - a->K, loc));
        pos = rs;
    }
    return mk_bin(a, BOP_LT, pos, sem_copy_expr(a->ar, extent));
}

/* RED(where(mask, v, identity)): reduction j's value over one chunk.  The
 * mask is an expression computed where it is used (a bool tile kept in
 * registers across the phases would cost one register per element); the
 * operand is declared `auto vname = ...` only for a maximum or minimum of
 * integers, whose fill (the chunk's own minimum or maximum) reads it twice. */
static Expr *masked_part(Ak *a, StmtBuf *b, int j, const char *vname, Expr *mask, const Tile *it, const Tile *ot)
{
    const Expr *u = a->red[j];
    SrcLoc l = u->loc;
    Expr *op = widen(a, emit_value(a, u->args[0], ot, false), vrank(a, u->args[0]), it);
    Expr *fill;
    switch (u->bi) {
    case BI_SUM: fill = mk_int(a, 0, l); break;
    case BI_PROD: fill = mk_int(a, 1, l); break;
    default:
        if (float_class(a, u->args[0]) == 1) { /* -inf for a maximum, +inf for a minimum */
            fill = mk(a, EX_FLOAT, l);
            fill->fval = u->bi == BI_MAX ? -INFINITY : INFINITY;
        } else {
            push(a, b, mk_decl(a, vname, ak_auto, op, l));
            op = mk_name(a, vname, l);
            fill = mk_call(a, u->bi == BI_MAX ? BI_MIN : BI_MAX, l, 1, mk_name(a, vname, l), NULL, NULL);
        }
        break;
    }
    return reduce(a, u, mk_call(a, BI_WHERE, l, 3, mask, op, fill));
}

/* The one-chunk branch's mask: the row fits the chunk, so int32 positions
 * against its extent. */
static Expr *single_mask(Ak *a, Expr *chunk, Expr *extent, SrcLoc loc)
{
    Expr *ty = mk(a, EX_TYPE, loc);
    ty->type = (TypeRef){.spelling = "int32_t", .dtype = DT_INT32};
    Expr *ar = mk_call(a, BI_ARANGE, loc, 1, ty, NULL, NULL);
    add_opt(a, ar, "shape", mk_list(a, &chunk, 1, loc));
    Expr *pos = ar;
    if (a->K < a->R - 1) {
        Expr *shp[4] = {chunk};
        for (int d = 1; d < a->R - a->K; d++) shp[d] = mk_int(a, 1, loc);
        pos = mk_call(a, BI_RESHAPE, loc, 1, ar, NULL, NULL);
        add_opt(a, pos, "shape", mk_list(a, shp, a->R - a->K, loc));
    }
    Expr *ty2 = mk(a, EX_TYPE, loc);
    ty2->type = ty->type;
    return mk_bin(a, BOP_LT, pos, mk_call(a, BI_CAST, loc, 2, sem_copy_expr(a->ar, extent), ty2, NULL));
}

static Stmt *for_chunks(Ak *a, int from, const char *var, StmtBuf *body, bool inclusive, SrcLoc loc)
{
    Stmt *loop = mk_stmt(a, ST_FOR, loc);
    StmtBuf init = {0};
    push(a, &init, mk_decl(a, var, ak_int64, mk_int(a, from, loc), loc));
    loop->init_s = block(a, &init, loc);
    loop->cond = mk_bin(a, inclusive ? BOP_LE : BOP_LT, mk_name(a, var, loc), mk_name(a, "__ak_last", loc));
    loop->step_s = mk_assign(a, var, mk_int(a, 1, loc), loc);
    loop->step_s->op = BOP_ADD;
    loop->body = block(a, body, loc);
    return loop;
}

/* The outputs of the reduced space and those kept along K, after the phases. */
static void reduced_outputs(Ak *a, StmtBuf *b, Expr *const *oidx, Expr *const *at_0, const Tile *ot, const Tile *kt)
{
    Func *f = a->f;
    load_all(a, b, a->used_out, oidx, ot);
    for (int k = 0; k < a->nassigned; k++) {
        int pi = a->assigned_order[k];
        const Param *p = &f->params[pi];
        if (a->out_kind[pi] == AK_KEEP_FULL) continue;
        bool red = a->out_kind[pi] == AK_KEEP_REDUCED;
        const Tile *t = red ? ot : kt;
        Expr *v = emit_value(a, a->final_value[pi], ot, red);
        v = widen(a, v, vrank(a, a->final_value[pi]), t);
        push(a, b, mk_decl(a, p->name, value_type(p), v, a->final_loc[pi]));
        Stmt *st = mk_stmt(a, ST_EXPR, p->loc);
        st->value = access(a, BI_STORE, p, mk_name(a, p->name, p->loc), red ? oidx : at_0, t, p->loc);
        push(a, b, st);
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
        v = widen(a, v, vrank(a, a->final_value[pi]), it);
        push(a, b, mk_decl(a, p->name, value_type(p), v, a->final_loc[pi]));
        Stmt *st = mk_stmt(a, ST_EXPR, p->loc);
        st->value = access(a, BI_STORE, p, mk_name(a, p->name, p->loc), at, it, p->loc);
        push(a, b, st);
    }
}

/* The row kernel (see the top of the file).  A row that fits one chunk
 * (__ak_last == 0, the common case) takes a branch that loads it once and
 * computes every phase and output from those registers, as a hand-written
 * kernel would; longer rows take a branch that walks the chunks once per
 * phase, then once more for the full-space outputs, each chunk's tiles live
 * only within its iteration (the first chunk starts the accumulators;
 * every chunk is masked, so the last may be partial). */
static void lower_rows(Ak *a, SrcLoc bloc)
{
    Func *f = a->f;
    SrcLoc loc = f->loc;
    const int R = a->R, K = a->K;
    int refp = -1;
    for (int i = 0; i < f->nparams && refp < 0; i++)
        if (a->used_in_red[i] && f->params[i].kind == PARAM_ARRAY && f->params[i].rank == R) refp = i;
    Tile it = {.rank = R}, ot = {.rank = R - 1}, kt = {.rank = R};
    for (int d = 0; d < R; d++) it.ext[d] = mk_int(a, 1, loc);
    if (K == R - 1) {
        static const int64_t v[] = {1024, 256, 4096, 8192};
        add_tunable(a, v, 4, refp, K);
        it.ext[K] = block_name(a);
        it.ext[R - 2] = elems_per(a);
    } else {
        /* up to 512 columns: wider tiles of a column reduction spill on sm_80 */
        static const int64_t v[] = {256, 64, 512};
        add_tunable(a, v, 3, refp, R - 1);
        it.ext[R - 1] = block_name(a);
        it.ext[K] = elems_per(a);
    }
    for (int d = 0, k = 0; d < R; d++) {
        kt.ext[d] = d == K ? mk_int(a, 1, loc) : it.ext[d];
        if (d != K) ot.ext[k++] = it.ext[d];
    }
    /* rows over several chunks walk them 1024 elements at a time whatever
     * TILEC_BLOCK is: a chunk's values are live beside the next's, and
     * wider chunks spill */
    Tile itm = it;
    if (K == R - 1) {
        Expr *cm = mk(a, EX_COND, loc);
        cm->a = mk_bin(a, BOP_GT, block_name(a), mk_int(a, AK_MULTI_CHUNK, loc));
        cm->b = mk_int(a, AK_MULTI_CHUNK, loc);
        cm->c = block_name(a);
        itm.ext[K] = cm;
    }
    /* TILEC_WHOLE: 1 where the reduced axis fits one chunk (the launcher says so) */
    static const int64_t whole[] = {1, 0};
    add_tunable(a, whole, 2, refp, K);
    f->params[f->nparams - 1].name = "TILEC_WHOLE";
    f->params[f->nparams - 1].ak_whole = true;
    Expr *oidx[4];
    if (R == 2) oidx[0] = bid(a, 0);
    else oidx[0] = bid(a, 1), oidx[1] = bid(a, 0);
    /* operand coordinates at chunk c and with 0 along K */
    Expr *at_c[4], *at_0[4];
    for (int d = 0, k = 0; d < R; d++) {
        at_c[d] = d == K ? mk_name(a, "__ak_c", loc) : oidx[k];
        at_0[d] = d == K ? mk_int(a, 0, loc) : oidx[k];
        if (d != K) k++;
    }
    Expr *chunk = it.ext[K];
    Expr *extent = mk_call(a, BI_DIM, loc, 2, mk_name(a, f->params[refp].name, loc), mk_int(a, K, loc), NULL);
    int P = 0;
    for (int j = 0; j < a->nred; j++)
        if (a->phase[j] > P) P = a->phase[j];
    StmtBuf b = {0};
    /* the multi-chunk branch's int64_t __ak_last = extent > 0 ? (extent + chunk - 1) / chunk - 1 : 0; (an
     * empty axis: one chunk, all masked, so a sum is 0 and a product 1) */
    Expr *last = mk(a, EX_COND, loc);
    last->a = mk_bin(a, BOP_GT, sem_copy_expr(a->ar, extent), mk_int(a, 0, loc));
    last->b = mk_bin(a, BOP_SUB,
                     mk_bin(a, BOP_DIV,
                            mk_bin(a, BOP_SUB, mk_bin(a, BOP_ADD, sem_copy_expr(a->ar, extent), sem_copy_expr(a->ar, itm.ext[K])),
                                   mk_int(a, 1, loc)),
                            sem_copy_expr(a->ar, itm.ext[K])),
                     mk_int(a, 1, loc));
    last->c = mk_int(a, 0, loc);

    /* one chunk: loaded once */
    StmtBuf one = {0};
    load_all(a, &one, a->used_in_red, at_0, &it);
    a->memo = memo_new(a, &one);
    a->memo->all = true;
    for (int p = 1; p <= P; p++)
        for (int j = 0; j < a->nred; j++)
            if (a->phase[j] == p)
                push(a, &one, mk_decl(a, acc_name(a, j), ak_auto,
                                      masked_part(a, &one, j, arena_printf(a->ar, "__ak_v%d", j),
                                                  single_mask(a, chunk, extent, loc), &it, &ot),
                                      a->red[j]->loc));
    reduced_outputs(a, &one, oidx, at_0, &ot, &kt);
    full_outputs(a, &one, at_0, &it, &ot);

    /* several chunks */
    StmtBuf many = {0};
    push(a, &many, mk_decl(a, "__ak_last", ak_int64, last, loc));
    for (int p = 1; p <= P; p++) {
        bool use[64] = {0};
        for (int i = 0; i < f->nparams; i++) use[i] = a->used_in_red[i] && phase_reads(a, p, i);
        StmtBuf lb = {0};
        a->memo = memo_new(a, &lb);
        load_all(a, &lb, use, at_c, &itm);
        for (int j = 0; j < a->nred; j++) {
            if (a->phase[j] != p) continue;
            Expr *part = masked_part(a, &lb, j, arena_printf(a->ar, "__ak_v%d", j),
                                     chunk_mask(a, mk_name(a, "__ak_c", loc), itm.ext[K], extent, loc), &itm, &ot);
            push(a, &lb, mk_assign(a, acc_name(a, j), combine(a, a->red[j]->bi, mk_name(a, acc_name(a, j), loc), part),
                                   a->red[j]->loc));
        }
        /* chunk 0 under prefixed names at this level, then chunks 1..last */
        a->memo = memo_new(a, &many);
        load_all_prefixed(a, &many, use, at_0, &itm, p);
        for (int j = 0; j < a->nred; j++) {
            if (a->phase[j] != p) continue;
            Expr *part = masked_part(a, &many, j, arena_printf(a->ar, "__ak_v%d_0", j),
                                     chunk_mask(a, mk_int(a, 0, loc), itm.ext[K], extent, loc), &itm, &ot);
            push(a, &many, mk_decl(a, acc_name(a, j), ak_auto, part, a->red[j]->loc));
        }
        unprefix(a);
        push(a, &many, for_chunks(a, 1, "__ak_c", &lb, true, loc));
    }
    a->memo = memo_new(a, &many);
    reduced_outputs(a, &many, oidx, at_0, &ot, &kt);
    bool any_full = false;
    for (int k = 0; k < a->nassigned; k++) any_full |= a->out_kind[a->assigned_order[k]] == AK_KEEP_FULL;
    if (any_full) {
        StmtBuf lb = {0};
        bool use[64] = {0};
        Ak t = *a;
        memset(t.used_in_red, 0, sizeof t.used_in_red);
        for (int k = 0; k < a->nassigned; k++)
            if (a->out_kind[a->assigned_order[k]] == AK_KEEP_FULL) mark_reads(&t, a->final_value[a->assigned_order[k]], true);
        memcpy(use, t.used_in_red, sizeof use);
        load_all(a, &lb, use, at_c, &itm);
        a->memo = memo_new(a, &lb);
        full_outputs(a, &lb, at_c, &itm, &ot);
        push(a, &many, for_chunks(a, 0, "__ak_c", &lb, true, loc));
    }
    a->memo = NULL;
    /* TILEC_WHOLE is a constant of each specialization: the other branch is dead code */
    Stmt *branch = mk_stmt(a, ST_IF, loc);
    branch->cond = mk_name(a, "TILEC_WHOLE", loc);
    branch->then_s = block(a, &one, loc);
    branch->else_s = block(a, &many, loc);
    push(a, &b, branch);
    f->body = block(a, &b, bloc);
}

/* Analyses a row kernel's outputs (their substituted values are in
 * final_value): reductions, the space, what each value varies along, which
 * arrays are read where, and the outputs' shapes.  False after an error. */
static bool analyse_rows(Ak *a)
{
    Func *f = a->f;
    for (int k = 0; k < a->nassigned; k++) {
        int pi = a->assigned_order[k];
        if (scan_reductions(a, a->final_value[pi]) < 0) return false;
    }
    if (a->R > 3) {
        ak_error(a, a->axis_loc, "array kernels reduce operands of rank 2 and 3; this one has rank %d", a->R);
        return false;
    }
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind == PARAM_ARRAY && p->rank > a->R && !a->assigned[i]) {
            /* read anywhere? */
            Ak t = *a;
            memset(t.used_in_red, 0, sizeof t.used_in_red);
            memset(t.used_out, 0, sizeof t.used_out);
            for (int k = 0; k < a->nassigned; k++) mark_reads(&t, a->final_value[a->assigned_order[k]], false);
            if (t.used_in_red[i] || t.used_out[i]) {
                ak_error(a, p->loc, "'%s' has rank %d, more than the reduction's operands' %d", p->name, p->rank, a->R);
                return false;
            }
        }
    }
    for (int j = 0; j < a->nred; j++) {
        VKind k = kind_of(a, a->red[j]->args[0]);
        if (k == VK_ERR) return false;
        if (k == VK_O) {
            ak_error(a, a->red[j]->args[0]->loc, "a reduction inside another's operand needs .keepdims = true to "
                                                 "broadcast along axis %d",
                     a->K);
            return false;
        }
    }
    for (int k = 0; k < a->nassigned; k++) {
        int pi = a->assigned_order[k];
        const Param *p = &f->params[pi];
        const Expr *v = a->final_value[pi];
        VKind vk = kind_of(a, v);
        if (vk == VK_ERR) return false;
        if (p->rank == a->R - 1) {
            if (vk == VK_F || vk == VK_K) {
                ak_error(a, a->final_loc[pi], "output '%s' has rank %d, but its value has the rank %d of the "
                                              "reduction's operands%s",
                         p->name, p->rank, a->R, vk == VK_K ? " (drop .keepdims)" : "");
                return false;
            }
            a->out_kind[pi] = AK_KEEP_REDUCED;
            mark_reads(a, v, false);
        } else if (p->rank == a->R) {
            if (vk == VK_O) {
                ak_error(a, a->final_loc[pi], "output '%s' has rank %d, but a reduction without .keepdims gives rank %d",
                         p->name, p->rank, a->R - 1);
                return false;
            }
            a->out_kind[pi] = vk == VK_K ? AK_KEEP_DIMS : AK_KEEP_FULL;
            mark_reads(a, v, true);
        } else {
            ak_error(a, p->loc, "output '%s' has rank %d; this array kernel reduces rank-%d operands along one axis, "
                                "which gives rank %d (or %d with .keepdims)",
                     p->name, p->rank, a->R, a->R - 1, a->R);
            return false;
        }
    }
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        if (a->used_in_red[i] && a->used_out[i]) {
            ak_error(a, p->loc, "'%s' is read both at the operands' coordinates and at the reduced ones; an array "
                                "kernel reads each array in one of the two",
                     p->name);
            return false;
        }
        if ((a->used_in_red[i] || a->used_out[i]) && a->assigned[i]) {
            ak_error(a, p->loc, "output '%s' is also read; a reduction's array kernel reads only its inputs", p->name);
            return false;
        }
    }
    bool any = false;
    for (int i = 0; i < f->nparams; i++) any |= a->used_in_red[i] && f->params[i].rank == a->R;
    if (!any) {
        ak_error(a, f->loc, "no array of the operands' rank %d is read", a->R);
        return false;
    }
    return true;
}

/* Pass 1 over an array kernel's statements: forms, temporaries, outputs. */
static bool collect(Ak *a, Stmt *body, bool *rows, int *out_rank, int *tmp_assign, SrcLoc *tmp_assign_loc)
{
    Func *f = a->f;
    *rows = false;
    bool compound[64] = {0};
    for (int s = 0; s < body->nitems; s++) {
        Stmt *st = body->items[s];
        if (st->kind == ST_DECL) {
            if (st->type.view_rank || st->type.stype || !st->init) {
                ak_error(a, st->loc, "an array kernel declares whole-array temporaries of an element type, with a "
                                     "value");
                continue;
            }
            if (!strcmp(st->name, "TILEC_BLOCK") || !strcmp(st->name, "TILEC_WHOLE") || !strncmp(st->name, "__ak_", 5)) {
                ak_error(a, st->name_loc, "'%s' is a name tilec gives to what it adds to array kernels; rename the "
                                          "temporary",
                         st->name);
                continue;
            }
            if (a->ntmp == AK_MAX_TMPS) {
                ak_error(a, st->loc, "an array kernel has at most %d temporaries", AK_MAX_TMPS);
                return false;
            }
            int r = rank_of(a, st->init); /* checks the operations too */
            if (r < 0) continue;
            Expr *init = substitute(a, st->init);
            if (st->type.dtype != DT_INVALID && !st->type.is_auto) {
                /* a row kernel substitutes it: the declared type converts the value */
                Expr *c = mk(a, EX_CAST, st->init->loc);
                c->type = st->type;
                c->a = init;
                init = c;
            }
            a->tmp[a->ntmp++] = (AkTmp){.name = st->name, .init = init, .rank = r};
            continue;
        }
        if (st->kind != ST_ASSIGN || !st->target || st->target->kind != EX_NAME) {
            ak_error_fix(a, st->loc, "write a tile kernel (TILE_KERNEL) for loops, conditions and stores",
                         "an array kernel's body is whole-array statements: temporaries and assignments to its output "
                         "arrays");
            continue;
        }
        int pi = param_index(f, st->target->name);
        if (rank_of(a, st->value) < 0) continue;
        if (pi < 0) { /* a temporary reassigned */
            if (!(*tmp_assign)++) *tmp_assign_loc = st->loc;
            AkTmp *t = find_tmp(a, st->target->name);
            if (t) t->init = NULL; /* no single value to substitute */
            continue;
        }
        Param *p = &f->params[pi];
        if (p->readonly) {
            char msg[200];
            snprintf(msg, sizeof msg, "array '%s' is an input (const): it cannot be assigned", p->name);
            ak_error_fix(a, st->target->loc, "drop 'const' from its TILE_NDARRAY declaration", msg);
            continue;
        }
        if (st->op >= 0) a->read_first[pi] |= !a->assigned[pi];
        if (!a->assigned[pi]) {
            a->assigned[pi] = true;
            a->assigned_order[a->nassigned++] = pi;
        }
        if (*out_rank < 0) *out_rank = p->rank;
        Expr *v = substitute(a, st->value);
        if (st->op >= 0) {
            compound[pi] = true;
            v = mk_bin(a, (BinaryOp)st->op, mk_name(a, p->name, st->target->loc), v);
        }
        a->final_value[pi] = v;
        a->final_loc[pi] = st->target->loc;
        *rows |= has_reduction(v);
    }
    if (!a->ok || !*rows) return a->ok;
    /* a row kernel: its outputs are written once each, from inputs */
    for (int k = 0; k < a->nassigned; k++) {
        int pi = a->assigned_order[k];
        Ak t = *a;
        memset(t.used_in_red, 0, sizeof t.used_in_red);
        memset(t.used_out, 0, sizeof t.used_out);
        mark_reads(&t, a->final_value[pi], false);
        for (int i = 0; i < f->nparams; i++)
            if ((t.used_in_red[i] || t.used_out[i]) && a->assigned[i]) {
                if (compound[pi] && i == pi)
                    ak_error_fix(a, a->final_loc[pi], "write 'y = y0 + ...' with the old values as an input array",
                                 "a reduction's array kernel cannot update its output in place (+=): it reads only "
                                 "its inputs");
                else
                    ak_error(a, a->final_loc[pi],
                             "output '%s' is also read; a reduction's array kernel reads only its inputs",
                             f->params[i].name);
                return false;
            }
    }
    return a->ok;
}

/* Checks array kernel f's statements and rewrites it (see the top).  In a
 * quiet trial (graph fusion) nothing is reported: the reason is in why. */
static bool lower_kernel(Ak *a)
{
    Func *f = a->f;
    if (f->nparams > 63) {
        ak_error(a, f->loc, "array kernel '%s' has more than 63 parameters", f->name);
        return false;
    }
    for (int r = 0; r < 2; r++) {
        const char *nm = r ? "TILEC_WHOLE" : "TILEC_BLOCK";
        if (param_index(f, nm) >= 0) {
            ak_error(a, f->params[param_index(f, nm)].loc,
                     "%s is the name of a constant tilec adds to array kernels; rename the parameter", nm);
            return false;
        }
    }
    Stmt *body = f->body;
    if (!body || body->kind != ST_BLOCK) return true;
    bool rows;
    int out_rank = -1, tmp_assign = 0;
    SrcLoc tmp_assign_loc = {0};
    if (!collect(a, body, &rows, &out_rank, &tmp_assign, &tmp_assign_loc)) return false;
    if (!a->nassigned) {
        char msg[200];
        snprintf(msg, sizeof msg, "array kernel '%s' writes no output array", f->name);
        ak_error_fix(a, f->loc, "assign a whole-array expression to an output: 'out = a + b;'", msg);
        return false;
    }
    if (rows) {
        if (tmp_assign) {
            ak_error(a, tmp_assign_loc, "a reduction's array kernel cannot reassign a temporary; declare a new one");
            return false;
        }
        /* rank_of's marks were for element-wise kernels: analyse_rows marks again */
        memset(a->used_in_red, 0, sizeof a->used_in_red);
        memset(a->used_out, 0, sizeof a->used_out);
        if (!analyse_rows(a)) return false;
        if (a->quiet) return true;
        f->ak_space_rank = a->R;
        f->ak_axis = a->K;
        for (int i = 0; i < f->nparams; i++) {
            Param *p = &f->params[i];
            if (p->kind != PARAM_ARRAY) continue;
            p->ak_role = a->used_in_red[i] ? AK_IN_OPERAND : a->used_out[i] ? AK_IN : AK_NONE;
        }
        for (int k = 0; k < a->nassigned; k++) {
            Param *p = &f->params[a->assigned_order[k]];
            p->ak_role = k ? AK_OUT : AK_OUT_REF;
            p->ak_keep = (AkKeep)a->out_kind[a->assigned_order[k]];
        }
        lower_rows(a, body->loc);
        return true;
    }
    int R = out_rank;
    for (int k = 0; k < a->nassigned; k++) {
        const Param *p = &f->params[a->assigned_order[k]];
        if (p->rank != R) {
            ak_error(a, p->loc, "output '%s' has rank %d and '%s' rank %d: an element-wise array kernel writes "
                                "arrays of one shape",
                     p->name, p->rank, f->params[a->assigned_order[0]].name, R);
            return false;
        }
    }
    if (R > 3) {
        ak_error(a, f->params[a->assigned_order[0]].loc,
                 "element-wise array kernels write arrays of rank 1 to 3; '%s' has rank %d",
                 f->params[a->assigned_order[0]].name, R);
        return false;
    }
    for (int i = 0; i < f->nparams; i++) {
        Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        if (a->used_out[i] && p->rank > R) {
            ak_error(a, p->loc, "input '%s' has rank %d, more than the outputs' %d: reduce it along an axis "
                                "(tile_sum(%s, .axis = k))",
                     p->name, p->rank, R, p->name);
            return false;
        }
    }
    if (a->quiet) return true;
    for (int i = 0; i < f->nparams; i++) {
        Param *p = &f->params[i];
        if (p->kind == PARAM_ARRAY) p->ak_role = a->assigned[i] ? AK_OUT : a->used_out[i] ? AK_IN : AK_NONE;
    }
    f->params[a->assigned_order[0]].ak_role = AK_OUT_REF;
    f->ak_space_rank = R;
    f->ak_axis = -1;
    lower_elementwise(a, body, R);
    return true;
}

bool sem_array_kernel_fuses(Arena *ar, Func *f, char *why, size_t len, SrcLoc *why_loc)
{
    Ak a = {.ar = ar, .f = f, .ok = true, .quiet = true, .K = -1};
    bool ok = lower_kernel(&a) && a.ok;
    if (!ok) {
        snprintf(why, len, "%s", a.why);
        *why_loc = a.why_loc;
    }
    return ok;
}

bool sem_array_kernel_lower(Arena *ar, Func *f)
{
    Ak a = {.ar = ar, .f = f, .ok = true, .K = -1};
    return lower_kernel(&a) && a.ok;
}

bool sem_array_kernels(Program *p)
{
    bool ok = true;
    for (int i = 0; i < p->nfuncs; i++) {
        if (!p->funcs[i]->is_array_kernel) continue;
        Ak a = {.ar = p->arena, .f = p->funcs[i], .ok = true, .K = -1};
        if (!lower_kernel(&a) || !a.ok) ok = false;
    }
    return ok;
}
