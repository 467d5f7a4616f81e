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
 * exactly as written), and a tile_store of every output.  A reduction
 * (sema/array_lower.c) loads a row that fits one chunk once and computes
 * every phase from its registers; longer rows are walked in chunks, the
 * first starting the accumulators; each chunk is masked with the
 * reduction's identity (a sum's 0, a product's 1, a maximum's -inf, or for
 * integers the chunk's own minimum) where the axis ends.  The launcher
 * broadcasts the inputs (codegen/launch.c), so the kernel reads every array
 * at the same coordinates.  This file checks the statements and analyses
 * them (ranks, reductions and their phases, what each value varies along);
 * sema/array_lower.c builds the tile kernel.
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
#include "sema/array_kernel_impl.h"
#include "sema/sema_impl.h"

/* ---- analysis ------------------------------------------------------------- */

int ak_param_index(const Func *f, const char *name)
{
    for (int i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name)) return i;
    return -1;
}

AkTmp *ak_find_tmp(Ak *a, const char *name)
{
    for (int i = a->ntmp - 1; i >= 0; i--)
        if (!strcmp(a->tmp[i].name, name)) return &a->tmp[i];
    return NULL;
}

/* e with every temporary replaced by its (substituted) value, shared, not
 * copied: a reduction written once is one node however often its temporary
 * is used, so it is computed once (the emitters copy what they emit). */
Expr *ak_substitute(Ak *a, Expr *e)
{
    if (!e) return NULL;
    if (e->kind == EX_NAME && ak_param_index(a->f, e->name) < 0) {
        AkTmp *t = ak_find_tmp(a, e->name);
        if (t && t->init) return t->init;
    }
    if (e->kind == EX_INT || e->kind == EX_FLOAT || e->kind == EX_NAME || e->kind == EX_TYPE) return e;
    Expr *n = arena_alloc(a->ar, sizeof *n);
    *n = *e;
    n->a = ak_substitute(a, e->a);
    n->b = ak_substitute(a, e->b);
    n->c = ak_substitute(a, e->c);
    if (e->nargs) {
        n->args = arena_alloc(a->ar, sizeof(Expr *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++)
            n->args[i] = e->kind == EX_BUILTIN && e->bi == BI_DIM && i == 0 ? e->args[i] : ak_substitute(a, e->args[i]);
    }
    return n;
}

/* An error of array kernel analysis: reported, or in a quiet trial (graph
 * fusion asking whether statements fuse) kept as the reason. */
void ak_error(Ak *a, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (a->ok && a->quiet) {
        vsnprintf(a->why, sizeof a->why, fmt, ap);
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

/* e's entry in the node cache (made on first sight). */
static AkNode *node(Ak *a, const Expr *e)
{
    if (2 * (a->nused + 1) > a->ncap) {
        int cap = a->ncap ? 2 * a->ncap : 256;
        AkNode *n = arena_alloc(a->ar, sizeof *n * (size_t)cap);
        for (int i = 0; i < a->ncap; i++) {
            if (!a->nodes[i].e) continue;
            size_t h = ((uintptr_t)a->nodes[i].e >> 4) & (size_t)(cap - 1);
            while (n[h].e) h = (h + 1) & (size_t)(cap - 1);
            n[h] = a->nodes[i];
        }
        a->nodes = n;
        a->ncap = cap;
    }
    size_t h = ((uintptr_t)e >> 4) & (size_t)(a->ncap - 1);
    while (a->nodes[h].e && a->nodes[h].e != e) h = (h + 1) & (size_t)(a->ncap - 1);
    if (!a->nodes[h].e) {
        a->nodes[h] = (AkNode){.e = e, .vrank = AK_UNKNOWN, .kind = AK_UNKNOWN, .fclass = AK_UNKNOWN,
                               .hasred = AK_UNKNOWN};
        a->nused++;
    }
    return &a->nodes[h];
}

bool ak_has_reduction(Ak *a, const Expr *e)
{
    if (!e) return false;
    if (is_reduction(e)) return true;
    AkNode *n = node(a, e);
    if (n->hasred != AK_UNKNOWN) return n->hasred;
    bool r = ak_has_reduction(a, e->a) || ak_has_reduction(a, e->b) || ak_has_reduction(a, e->c);
    for (int i = 0; i < e->nargs && !r; i++) r = ak_has_reduction(a, e->args[i]);
    node(a, e)->hasred = r; /* (the table may have grown) */
    return r;
}

/* Whether builtin call e is an operation array kernels take (reductions
 * are checked where they are met); reports it if not. */
static bool allowed_builtin(Ak *a, const Expr *e)
{
    switch (builtin_info(e->bi)->cls) {
    case BCLASS_CAST: case BCLASS_MATH1: case BCLASS_MATH: case BCLASS_WHERE: return true;
    case BCLASS_MMA:
        if (e->bi == BI_MATMUL) return true; /* one a kernel: array_matmul.c */
        break;
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
            int pi = ak_param_index(a->f, e->args[0]->name);
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
                 "array kernels take element-wise operations, tile_where, tile_cast, tile_dim, tile_sum, tile_prod, "
                 "tile_max or tile_min along an axis, and one tile_matmul; write a tile kernel (TILE_KERNEL) for the "
                 "rest",
                 msg);
    return false;
}

/* A tile function called from an array kernel must compute element by
 * element: a reduction, a product or a shape operation in its body would
 * work on the tile tilec chose, not on the whole array. */
typedef struct FnScan {
    const Expr *bad;     /* the first operation that is not element-wise */
    const Func *in;      /* the function it is in */
    const Program *prog;
    int depth;
} FnScan;

static bool fn_scan_expr(AstVisitor *v, const Expr *e);

static void fn_scan(FnScan *fs, const Func *fn)
{
    if (!fn || !fn->body || fs->depth > 16) return;
    fs->depth++;
    AstVisitor v = {.expr = fn_scan_expr, .ctx = fs};
    const Func *outer = fs->in;
    fs->in = fn;
    ast_walk_stmt(&v, fn->body);
    if (!fs->bad) fs->in = outer;
    fs->depth--;
}

static bool fn_scan_expr(AstVisitor *v, const Expr *e)
{
    FnScan *fs = v->ctx;
    if (fs->bad) {
        v->stop = true;
        return false;
    }
    if (e->kind == EX_BUILTIN) {
        BuiltinClass c = builtin_info(e->bi)->cls;
        if (c != BCLASS_CAST && c != BCLASS_MATH1 && c != BCLASS_MATH && c != BCLASS_WHERE) {
            fs->bad = e;
            v->stop = true;
            return false;
        }
    }
    if (e->kind == EX_CALL) fn_scan(fs, ast_find_func(fs->prog, e->name));
    return !fs->bad;
}

static bool elementwise_call(Ak *a, const Expr *call)
{
    if (!a->prog) return true;
    FnScan fs = {.prog = a->prog};
    fn_scan(&fs, ast_find_func(a->prog, call->name));
    if (!fs.bad) return true;
    if (!a->quiet) {
        diag_error(fs.bad->loc, "tile_%s in tile function '%s' works on a tile, not element by element: an array kernel "
                                "calls tile functions of element-wise operations only",
                   fs.bad->name ? fs.bad->name : "?", fs.in->name);
        diag_note(call->loc, "in the call from array kernel '%s' here", a->f->name);
        a->ok = false;
    } else {
        ak_error(a, call->loc, "tile function '%s' is not element-wise", call->name);
    }
    return false;
}

/* ---- element-wise kernels: ranks ------------------------------------------- */

/* The rank of e's value as a whole array (0 for scalars) in a kernel with
 * no reductions, recording which arrays it reads; -1 after an error. */
int ak_rank_of(Ak *a, Expr *e)
{
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_TYPE: return 0;
    case EX_NAME: {
        int pi = ak_param_index(a->f, e->name);
        if (pi >= 0) {
            Param *p = &a->f->params[pi];
            if (p->kind != PARAM_ARRAY) return 0;
            a->used_out[pi] = true;
            if (!a->assigned[pi] && !p->readonly) a->read_first[pi] = true;
            return p->rank;
        }
        AkTmp *t = ak_find_tmp(a, e->name);
        return t ? t->rank : 0; /* an unknown name: sema reports it */
    }
    case EX_UNARY:
        if (e->op >= UOP_PREINC) {
            ak_error(a, e->loc, "increments are statements, not values");
            return -1;
        }
        return ak_rank_of(a, e->a);
    case EX_CAST: return ak_rank_of(a, e->a);
    case EX_BINARY: case EX_COND: case EX_CALL: case EX_BUILTIN: {
        if (e->kind == EX_CALL && !elementwise_call(a, e)) return -1;
        if (e->kind == EX_BUILTIN) {
            if (!allowed_builtin(a, e)) return -1;
            if (e->bi == BI_DIM) return 0;
        }
        int r = 0;
        Expr *ops[3] = {e->a, e->b, e->c};
        for (int i = 0; i < 3; i++) {
            if (!ops[i]) continue;
            int k = ak_rank_of(a, ops[i]);
            if (k < 0) return -1;
            if (k > r) r = k;
        }
        for (int i = 0; i < e->nargs; i++) {
            int k = ak_rank_of(a, e->args[i]);
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

int ak_red_index(const Ak *a, const Expr *e)
{
    for (int j = 0; j < a->nred; j++)
        if (a->red[j] == e) return j;
    return -1;
}

/* The rank of a (substituted) value: inputs' ranks, a reduction's operand
 * rank (kept) or one less. */
static int vrank_of(Ak *a, const Expr *e);

int ak_vrank(Ak *a, const Expr *e)
{
    if (!e) return 0;
    int r = node(a, e)->vrank;
    if (r == AK_UNKNOWN) node(a, e)->vrank = r = vrank_of(a, e);
    return r;
}

static int vrank_of(Ak *a, const Expr *e)
{
    if (e->kind == EX_NAME) {
        int pi = ak_param_index(a->f, e->name);
        return pi >= 0 && a->f->params[pi].kind == PARAM_ARRAY ? a->f->params[pi].rank : 0;
    }
    if (e->kind == EX_BUILTIN && e->bi == BI_DIM) return 0;
    if (e->kind == EX_BUILTIN && e->bi == BI_SQUEEZE) return e->nargs ? ak_vrank(a, e->args[0]) - 1 : 0;
    if (is_reduction(e)) {
        int r = e->nargs ? ak_vrank(a, e->args[0]) : 0;
        Option *kd = ast_option(e, "keepdims");
        return kd && !(kd->value->kind == EX_INT && kd->value->ival == 0) ? r : r - 1;
    }
    int r = 0;
    const Expr *ops[3] = {e->a, e->b, e->c};
    for (int i = 0; i < 3; i++) {
        int k = ak_vrank(a, ops[i]);
        if (k > r) r = k;
    }
    for (int i = 0; i < e->nargs; i++) {
        int k = ak_vrank(a, e->args[i]);
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
        int j = ak_red_index(a, e);
        if (j >= 0) return a->phase[j];
        if (e->nargs != 1) return 0; /* sema reports the arity */
        int inner = scan_reductions(a, e->args[0]);
        if (inner < 0) return -1;
        Option *ax = ast_option(e, "axis"), *kd = ast_option(e, "keepdims");
        if (kd && kd->value->kind != EX_INT) {
            ak_error(a, kd->loc, "an array kernel's .keepdims must be true or false, as a literal");
            return -1;
        }
        int r = ak_vrank(a, e->args[0]);
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
    if (node(a, e)->scanned) return node(a, e)->phase;
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
    AkNode *n = node(a, e);
    n->scanned = 1;
    n->phase = p;
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
static VKind kind_of(Ak *a, const Expr *e);

VKind ak_kind_of(Ak *a, const Expr *e)
{
    if (!e) return VK_S;
    int k = node(a, e)->kind;
    if (k == AK_UNKNOWN) node(a, e)->kind = k = kind_of(a, e);
    return (VKind)k;
}

static VKind kind_of(Ak *a, const Expr *e)
{
    switch (e->kind) {
    case EX_NAME: {
        int pi = ak_param_index(a->f, e->name);
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
        VKind k = ak_kind_of(a, e->args[0]);
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
            VKind c = vk_combine(k, ak_kind_of(a, ops[i]));
            if (c == VK_ERR && k != VK_ERR) {
                ak_error(a, ops[i]->loc, "a reduction without .keepdims (rank %d) meets a value of rank %d here; give "
                                         "the reduction .keepdims = true to broadcast it along axis %d",
                         a->R - 1, a->R, a->K);
                return VK_ERR;
            }
            k = c;
        }
    for (int i = 0; i < e->nargs; i++) {
        VKind c = vk_combine(k, ak_kind_of(a, e->args[i]));
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

static void mark(Ak *a, const Expr *e, bool full, bool *in_full, bool *in_reduced)
{
    if (!e) return;
    if (e->kind == EX_NAME) {
        int pi = ak_param_index(a->f, e->name);
        if (pi >= 0 && a->f->params[pi].kind == PARAM_ARRAY) {
            if (full) in_full[pi] = true;
            else in_reduced[pi] = true;
        }
        return;
    }
    if (e->kind == EX_BUILTIN && e->bi == BI_DIM) return;
    AkNode *n = node(a, e);
    if (n->mark[full] == a->stamp) return; /* seen in this walk */
    n->mark[full] = a->stamp;
    if (is_reduction(e)) {
        if (e->nargs) mark(a, e->args[0], true, in_full, in_reduced);
        return;
    }
    mark(a, e->a, full, in_full, in_reduced);
    mark(a, e->b, full, in_full, in_reduced);
    mark(a, e->c, full, in_full, in_reduced);
    for (int i = 0; i < e->nargs; i++) mark(a, e->args[i], full, in_full, in_reduced);
}

void ak_mark_reads(Ak *a, const Expr *e, bool full, bool *in_full, bool *in_reduced)
{
    a->stamp++;
    mark(a, e, full, in_full, in_reduced);
}

static void reads(Ak *a, const Expr *e, bool *seen)
{
    if (!e) return;
    if (e->kind == EX_NAME) {
        int pi = ak_param_index(a->f, e->name);
        if (pi >= 0 && a->f->params[pi].kind == PARAM_ARRAY) seen[pi] = true;
        return;
    }
    if (e->kind == EX_BUILTIN && (e->bi == BI_DIM || e->bi == BI_MATMUL)) return;
    AkNode *n = node(a, e);
    if (n->mark[0] == a->stamp) return;
    n->mark[0] = a->stamp;
    reads(a, e->a, seen);
    reads(a, e->b, seen);
    reads(a, e->c, seen);
    for (int i = 0; i < e->nargs; i++) reads(a, e->args[i], seen);
}

void ak_reads_outside_matmul(Ak *a, const Expr *e, bool *seen)
{
    a->stamp++;
    reads(a, e, seen);
}

/* Whether value e (substituted) is floating point: 1 yes, 0 no, -1 not
 * known here (an auto temporary's type, a tile function's result).  A
 * masked maximum of floats fills with -inf, of anything else with the
 * chunk's own minimum (a reduction more). */
static int float_class(Ak *a, const Expr *e);

int ak_float_class(Ak *a, const Expr *e)
{
    if (!e) return -1;
    int c = node(a, e)->fclass;
    if (c == AK_UNKNOWN) node(a, e)->fclass = c = float_class(a, e);
    return c;
}

static int float_class(Ak *a, const Expr *e)
{
    switch (e->kind) {
    case EX_FLOAT: return 1;
    case EX_INT: return 0;
    case EX_CAST: return e->type.dtype == DT_INVALID ? -1 : dtype_is_float(e->type.dtype);
    case EX_NAME: {
        int pi = ak_param_index(a->f, e->name);
        if (pi < 0) return -1;
        return dtype_is_float(a->f->params[pi].type.dtype);
    }
    case EX_UNARY: return e->op == UOP_NOT ? 0 : ak_float_class(a, e->a);
    case EX_BINARY: {
        if (e->op >= BOP_LT) return 0; /* comparisons, logic, bits */
        int x = ak_float_class(a, e->a), y = ak_float_class(a, e->b);
        if (x == 1 || y == 1) return 1;
        return x == 0 && y == 0 ? 0 : -1;
    }
    case EX_COND: {
        int x = ak_float_class(a, e->b), y = ak_float_class(a, e->c);
        if (x == 1 || y == 1) return 1;
        return x == 0 && y == 0 ? 0 : -1;
    }
    case EX_BUILTIN:
        switch (builtin_info(e->bi)->cls) {
        case BCLASS_MATH1: return e->bi == BI_ABS ? ak_float_class(a, e->args[0]) : 1;
        case BCLASS_MATH: return 1;
        case BCLASS_CAST: return e->nargs > 1 && e->args[1]->kind == EX_TYPE ? dtype_is_float(e->args[1]->type.dtype) : -1;
        case BCLASS_WHERE: {
            int x = ak_float_class(a, e->args[1]), y = ak_float_class(a, e->args[2]);
            if (x == 1 || y == 1) return 1;
            return x == 0 && y == 0 ? 0 : -1;
        }
        case BCLASS_REDUCE: return e->nargs ? ak_float_class(a, e->args[0]) : -1;
        case BCLASS_SHAPE: return e->nargs ? ak_float_class(a, e->args[0]) : -1;
        default: return 0;
        }
    default: return -1;
    }
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
            bool full[64] = {0}, reduced[64] = {0};
            for (int k = 0; k < a->nassigned; k++) ak_mark_reads(a, a->final_value[a->assigned_order[k]], false, full, reduced);
            if (full[i] || reduced[i]) {
                ak_error(a, p->loc, "'%s' has rank %d, more than the reduction's operands' %d", p->name, p->rank, a->R);
                return false;
            }
        }
    }
    for (int j = 0; j < a->nred; j++) {
        VKind k = ak_kind_of(a, a->red[j]->args[0]);
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
        VKind vk = ak_kind_of(a, v);
        if (vk == VK_ERR) return false;
        if (p->rank == a->R - 1) {
            if (vk == VK_F || vk == VK_K) {
                ak_error(a, a->final_loc[pi], "output '%s' has rank %d, but its value has the rank %d of the "
                                              "reduction's operands%s",
                         p->name, p->rank, a->R, vk == VK_K ? " (drop .keepdims)" : "");
                return false;
            }
            a->out_kind[pi] = AK_KEEP_REDUCED;
            ak_mark_reads(a, v, false, a->used_in_red, a->used_out);
        } else if (p->rank == a->R) {
            if (vk == VK_O) {
                ak_error(a, a->final_loc[pi], "output '%s' has rank %d, but a reduction without .keepdims gives rank %d",
                         p->name, p->rank, a->R - 1);
                return false;
            }
            a->out_kind[pi] = vk == VK_K ? AK_KEEP_DIMS : AK_KEEP_FULL;
            ak_mark_reads(a, v, true, a->used_in_red, a->used_out);
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
            if (!strcmp(st->name, "TILEC_BLOCK") || !strncmp(st->name, "__ak_", 5)) {
                ak_error(a, st->name_loc, "'%s' is a name tilec gives to what it adds to array kernels; rename the "
                                          "temporary",
                         st->name);
                continue;
            }
            if (a->ntmp == AK_MAX_TMPS) {
                ak_error(a, st->loc, "an array kernel has at most %d temporaries", AK_MAX_TMPS);
                return false;
            }
            int r = ak_rank_of(a, st->init); /* checks the operations too */
            if (r < 0) continue;
            Expr *init = ak_substitute(a, st->init);
            if (st->type.dtype != DT_INVALID && !st->type.is_auto) {
                /* a row kernel substitutes it: the declared type converts the value */
                Expr *c = ak_mk(a, EX_CAST, st->init->loc);
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
        int pi = ak_param_index(f, st->target->name);
        if (ak_rank_of(a, st->value) < 0) continue;
        if (pi < 0) { /* a temporary reassigned */
            if (!(*tmp_assign)++) *tmp_assign_loc = st->loc;
            AkTmp *t = ak_find_tmp(a, st->target->name);
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
        Expr *v = ak_substitute(a, st->value);
        if (st->op >= 0) {
            compound[pi] = true;
            v = ak_bin(a, (BinaryOp)st->op, ak_name(a, p->name, st->target->loc), v);
        }
        a->final_value[pi] = v;
        a->final_loc[pi] = st->target->loc;
        *rows |= ak_has_reduction(a, v);
    }
    if (!a->ok || !*rows) return a->ok;
    /* a row kernel: its outputs are written once each, from inputs */
    for (int k = 0; k < a->nassigned; k++) {
        int pi = a->assigned_order[k];
        bool full[64] = {0}, reduced[64] = {0};
        ak_mark_reads(a, a->final_value[pi], false, full, reduced);
        for (int i = 0; i < f->nparams; i++)
            if ((full[i] || reduced[i]) && a->assigned[i]) {
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
    if (ak_param_index(f, "TILEC_BLOCK") >= 0) {
        ak_error(a, f->params[ak_param_index(f, "TILEC_BLOCK")].loc,
                 "TILEC_BLOCK is the name of the tile extent tilec adds to array kernels; rename the parameter");
        return false;
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
    int nmm = 0;
    const Expr *found[2] = {NULL, NULL}, *mm;
    for (int s = 0; s < body->nitems; s++)
        ak_find_matmuls(body->items[s]->kind == ST_DECL ? body->items[s]->init : body->items[s]->value, found, &nmm);
    if ((mm = found[0])) {
        if (rows) {
            if (a->quiet) ak_error(a, mm->loc, "a reduction and a matrix product are not fused into one kernel");
            else
                ak_error_fix(a, mm->loc, "reduce in an array kernel of its own",
                             "an array kernel with a matrix product (tile_matmul) has no reductions");
            return false;
        }
        if (tmp_assign) {
            ak_error(a, tmp_assign_loc, "an array kernel with a matrix product cannot reassign a temporary; declare a "
                                        "new one");
            return false;
        }
        return ak_lower_matmul(a, body);
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
        ak_lower_rows(a, body->loc);
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
    ak_lower_elementwise(a, body, R);
    return true;
}

bool sem_array_kernel_fuses(Arena *ar, Func *f, char *why, size_t len)
{
    Ak a = {.ar = ar, .f = f, .ok = true, .quiet = true, .K = -1};
    bool ok = lower_kernel(&a) && a.ok;
    if (!ok) {
        snprintf(why, len, "%s", a.why);
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
        Ak a = {.ar = p->arena, .prog = p, .f = p->funcs[i], .ok = true, .K = -1};
        if (!lower_kernel(&a) || !a.ok) ok = false;
    }
    return ok;
}

