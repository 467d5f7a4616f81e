/* simt_dump.c: prints SIMT functions (frontend/simt.h) as indented text,
 * one node per line with its line:col, in the style of ast_dump.c: the
 * signature with each parameter's kind and type, declarations with their
 * storage (shared, dynamic), extents and layout, statements, expressions
 * (with their C types from --emit=typed on), builtins with their axis,
 * dimension, memory order and scope, and target ifs with their description.
 * --emit=tir adds what the target makes of each: the emitted names and
 * storage, and which branch of a target if is compiled and how. */
#include "frontend/simt_dump.h"

#include <inttypes.h>
#include <string.h>

#include "frontend/simt.h"
#include "sema/targetset.h"

typedef struct D {
    FILE *o;
    SimtDumpMode mode;
    bool cuda;
    const SimtFunc *sf;
} D;

/* A type as the source spells it: float32x4, a struct's name, a scalar's C name. */
static const char *tname(SimtType t, const SimtAgg *agg) { return agg && (t == SIMT_VEC || t == SIMT_STRUCT) ? agg->name : simt_type_name(t); }

static void indent(const D *d, int n)
{
    for (int i = 0; i < n; i++) fputs("  ", d->o);
}

static void at(const D *d, SrcLoc l)
{
    fprintf(d->o, " @%d:%d\n", l.line, l.col);
}

/* TILE_RELAXED ... (tilec.h; consume was read as acquire) */
static const char *order_name(int o)
{
    static const char *const n[] = {"?", "relaxed", "acquire", "release", "acq_rel", "seq_cst"};
    return o >= 1 && o <= 5 ? n[o] : "?";
}

/* TILE_SCOPE_BLOCK ... */
static const char *scope_name(int s)
{
    static const char *const n[] = {"?", "block", "device", "system", "thread"};
    return s >= 1 && s <= 4 ? n[s] : "?";
}

static void expr_in(const D *d, const SimtNode *n, int depth, bool chain);
static void expr(const D *d, const SimtNode *n, int depth) { expr_in(d, n, depth, false); }
static void stmt(const D *d, const SimtNode *n, int depth);

/* " : T" after an expression in typed dumps. */
static void type_of(const D *d, const SimtNode *n)
{
    if (d->mode == SIMT_DUMP_AST || n->kind == SX_LIST || n->kind == SX_ARRAY) return;
    if (n->kind == SX_ADDR) fprintf(d->o, " : %s *", tname(n->a->type, n->a->agg));
    else fprintf(d->o, " : %s", tname(n->type, n->agg));
}

/* The name the generated code gives an array or shared variable
 * (--emit=tir). */
static void emitted_name(const D *d, const SimtNode *decl)
{
    if (!d->cuda && decl->shared && !decl->dynamic) fprintf(d->o, "sh_->s%d_%s", decl->id, decl->text);
    else fprintf(d->o, "v_%s", decl->text);
}

static void builtin(const D *d, const SimtNode *n)
{
    FILE *o = d->o;
    fprintf(o, "builtin %s", simt_builtin_name(n->builtin));
    switch (n->builtin) {
    case SB_THREAD_IDX: case SB_BLOCK_IDX: case SB_BLOCK_DIM: case SB_GRID_DIM: case SB_TID: case SB_GRID_SIZE:
        fprintf(o, " axis %d", n->order);
        break;
    case SB_SHAPE: fprintf(o, " dim %d", n->order); break;
    default:
        if (simt_is_atomic(n->builtin) || n->builtin == SB_FENCE) fprintf(o, " order %s scope %s", order_name(n->order), scope_name(n->scope));
        break;
    }
}

static void kids(const D *d, const SimtNode *n, int depth)
{
    for (int i = 0; i < n->nkids; i++) {
        if (n->kids[i]) expr(d, n->kids[i], depth);
        else { /* a vector's lane or a struct's field not given: zero */
            indent(d, depth);
            fputs("zero\n", d->o);
        }
    }
}

/* chain: n is the base of a subscript (an inner link of an index chain). */
static void expr_in(const D *d, const SimtNode *n, int depth, bool chain)
{
    FILE *o = d->o;
    indent(d, depth);
    switch (n->kind) {
    case SX_INT: fprintf(o, "int %s", n->text); break;
    case SX_FLOAT: fprintf(o, "float %s", n->text); break;
    case SX_VAR:
        if (n->param >= 0) fprintf(o, "param %s", n->text);
        else fprintf(o, "var %s", n->text);
        break;
    case SX_ARRAY: fprintf(o, "array %s", n->text); break;
    case SX_UNARY: fprintf(o, "unary %s", n->text); break;
    case SX_POSTFIX: fprintf(o, "postfix %s", n->text); break;
    case SX_BINARY: fprintf(o, "binary %s", n->text); break;
    case SX_COND: fputs("cond ?:", o); break;
    case SX_CAST: fprintf(o, "cast %s", simt_type_name(n->type)); break;
    case SX_INDEX: {
        const SimtNode *root = n->a;
        while (root->kind == SX_INDEX) root = root->a;
        fputs("index", o);
        /* the chain's head tells how the target reads it */
        if (d->mode == SIMT_DUMP_TIR && !chain && root->decl && root->decl->col_major)
            fputs(" (column-major: indices reversed)", o);
        break;
    }
    case SX_ELEM: fprintf(o, "element %s", n->text); break;
    case SX_ADDR: fputs("address", o); break;
    case SX_BUILTIN: builtin(d, n); break;
    case SX_CALL: fprintf(o, "call %s", n->text); break;
    case SX_MATH: fprintf(o, "math %s", n->text); break;
    case SX_LIST: fputs("list", o); break;
    case SX_MAKE: fprintf(o, "make %s", n->agg->name); break;
    case SX_MEMBER: fprintf(o, "member .%s", n->text); break;
    case SX_LANE: fputs("lane [run-time index]", o); break;
    default: fputs("?", o); break;
    }
    type_of(d, n);
    at(d, n->loc);
    if (n->a) expr_in(d, n->a, depth + 1, n->kind == SX_INDEX);
    if (n->b) expr(d, n->b, depth + 1);
    if (n->c) expr(d, n->c, depth + 1);
    kids(d, n, depth + 1);
}

static void labeled(const D *d, const char *label, const SimtNode *n, int depth, bool is_expr)
{
    if (!n) return;
    indent(d, depth);
    fprintf(d->o, "%s:\n", label);
    if (is_expr) expr(d, n, depth + 1);
    else stmt(d, n, depth + 1);
}

static void extents(FILE *o, const SimtNode *n, bool storage)
{
    if (n->dynamic) {
        fputs("[]", o);
        return;
    }
    for (int i = 0; i < n->ndims; i++)
        fprintf(o, "[%" PRId64 "]", n->dims[storage && n->col_major ? n->ndims - 1 - i : i]);
}

static void decl(const D *d, const SimtNode *n, int depth)
{
    FILE *o = d->o;
    indent(d, depth);
    fprintf(o, "decl %s%s%s%s %s", n->shared ? "shared " : "", n->dynamic ? "dynamic " : "", n->is_const ? "const " : "",
            tname(n->type, n->agg), n->text);
    extents(o, n, false);
    if (n->ndims && !n->dynamic) fputs(n->col_major ? " order F" : " order C", o);
    if (n->align) fprintf(o, " align %d", n->align);
    if (n->shared && !n->dynamic) fprintf(o, " id %d", n->id);
    at(d, n->loc);
    if (d->mode == SIMT_DUMP_TIR && (n->ndims || n->shared)) { /* where codegen/simt.c puts it (scalars: v_NAME) */
        indent(d, depth + 1);
        fputs("storage ", o);
        if (n->dynamic) fprintf(o, "v_%s, a %s * into %s (16-byte aligned)", n->text, tname(n->type, n->agg),
                                d->cuda ? "extern __shared__ tilec_dyn_[]" : "the launch's dynamic shared memory");
        else {
            emitted_name(d, n);
            extents(o, n, true);
            if (n->shared && !d->cuda) fputs(", in the block's struct of shared variables", o);
            else if (n->shared) fputs(", __shared__", o);
            if (n->align) fprintf(o, d->cuda ? ", __align__(%d)" : ", _Alignas(%d)", n->align);
        }
        fputc('\n', o);
    }
    /* an array's list as written; with --emit=tir as emitted (storage order) */
    const SimtNode *init = d->mode != SIMT_DUMP_TIR && n->b ? n->b : n->a;
    if (init) expr(d, init, depth + 1);
}

/* `if (tile_target(desc))`: its set, and with --emit=tir how the target
 * compiles it (#if on __CUDA_ARCH__; on the host, one branch or none). */
static void target_if(const D *d, const SimtNode *n, int depth)
{
    char desc[256];
    targetset_describe(n->targets, desc, sizeof desc);
    fprintf(d->o, "if target %s", desc);
    if (d->mode == SIMT_DUMP_TIR) {
        if (d->cuda) {
            char cond[1024];
            targetset_cuda_condition(n->targets, cond, sizeof cond);
            fprintf(d->o, " (#if %s)", cond);
        } else {
            fprintf(d->o, " (%s on the host)", n->targets & TARGETSET_HOST ? "true" : "false");
        }
    }
    at(d, n->loc);
    labeled(d, "then", n->b, depth + 1, false);
    labeled(d, "else", n->c, depth + 1, false);
}

static void stmt(const D *d, const SimtNode *n, int depth)
{
    FILE *o = d->o;
    if (n->kind == SS_DECL) {
        decl(d, n, depth);
        return;
    }
    indent(d, depth);
    switch (n->kind) {
    case SS_EXPR:
        fputs("expr", o);
        at(d, n->loc);
        expr(d, n->a, depth + 1);
        return;
    case SS_IF:
        if (n->target) {
            target_if(d, n, depth);
            return;
        }
        fputs("if", o);
        at(d, n->loc);
        expr(d, n->a, depth + 1);
        labeled(d, "then", n->b, depth + 1, false);
        labeled(d, "else", n->c, depth + 1, false);
        return;
    case SS_FOR:
        fputs("for", o);
        at(d, n->loc);
        labeled(d, "init", n->a, depth + 1, false);
        labeled(d, "cond", n->b, depth + 1, true);
        labeled(d, "step", n->c, depth + 1, true);
        labeled(d, "body", n->d, depth + 1, false);
        return;
    case SS_WHILE:
        fputs("while", o);
        at(d, n->loc);
        expr(d, n->a, depth + 1);
        labeled(d, "body", n->b, depth + 1, false);
        return;
    case SS_DO:
        fputs("do", o);
        at(d, n->loc);
        labeled(d, "body", n->b, depth + 1, false);
        labeled(d, "cond", n->a, depth + 1, true);
        return;
    case SS_RETURN:
        fputs("return", o);
        at(d, n->loc);
        if (n->a) expr(d, n->a, depth + 1);
        return;
    case SS_BLOCK:
        fputs("block", o);
        at(d, n->loc);
        for (int i = 0; i < n->nkids; i++) stmt(d, n->kids[i], depth + 1);
        return;
    case SS_BREAK: fputs("break", o); break;
    case SS_CONTINUE: fputs("continue", o); break;
    case SS_EMPTY: fputs("empty", o); break;
    default: fputs("?", o); break;
    }
    at(d, n->loc);
}

static void doc(FILE *o, const char *s)
{
    fputs("  doc \"", o);
    for (; *s; s++) {
        if (*s == '\n') fputs("\\n", o);
        else if (*s == '"' || *s == '\\') fprintf(o, "\\%c", *s);
        else fputc(*s, o);
    }
    fputs("\"\n", o);
}

/* --emit=tir: what codegen/simt.c emits the function as. */
static void emitted(const D *d)
{
    const SimtFunc *sf = d->sf;
    const char *name = sf->f.name;
    FILE *o = d->o;
    fputs("  emitted as ", o);
    if (sf->f.is_kernel && d->cuda) fprintf(o, "__global__ tilec_sk_%s, launched by its launcher or cudaLaunchKernel", name);
    else if (sf->f.is_kernel) fprintf(o, "tilec_sk_%s, run by each thread of a block (POSIX threads), blocks one after another", name);
    else if (d->cuda) fprintf(o, "__device__ tilec_sf_%s", name);
    else fprintf(o, "tilec_sf_%s, with the calling thread's position", name);
    if (sf->interop) fprintf(o, d->cuda ? "; exported as extern \"C\" __device__ %s" : "; exported as %s for C, run as one thread", name);
    fputc('\n', o);
    int nstatic = 0;
    for (int i = 0; i < sf->nshared; i++) nstatic += !sf->shared[i]->dynamic;
    if (nstatic || sf->uses_dyn)
        fprintf(o, "  shared memory: %d static variable%s%s\n", nstatic, nstatic == 1 ? "" : "s",
                sf->uses_dyn ? ", and the launch's dynamic shared memory" : "");
}

static void func(const D *d)
{
    const SimtFunc *sf = d->sf;
    const Func *f = &sf->f;
    FILE *o = d->o;
    fprintf(o, "simt %s %s %s%s", f->is_kernel ? "kernel" : "function", tname(sf->ret, sf->ret_agg), f->name,
            sf->interop ? " interop" : "");
    at(d, f->loc);
    if (f->doc) doc(o, f->doc);
    for (int j = 0; j < f->nparams; j++) {
        const Param *pa = &f->params[j];
        if (pa->kind == PARAM_ARRAY)
            fprintf(o, "  param array %s: %s%s rank %d", pa->name, pa->readonly ? "const " : "", pa->type.spelling, pa->rank);
        else fprintf(o, "  param scalar %s: %s", pa->name, pa->type.spelling);
        const SimtAgg *ag = sf->param_aggs ? sf->param_aggs[j] : NULL;
        if (ag && pa->kind == PARAM_ARRAY)
            fprintf(o, " (of %s: a %s descriptor of rank %d)", ag->vector ? "vectors" : "structs", dtype_name(pa->type.dtype), pa->rank + 1);
        else if (ag) fprintf(o, " (%s, by value)", ag->vector ? "vector" : "struct");
        else fprintf(o, " (%s)", dtype_name(pa->type.dtype));
        at(d, pa->loc);
    }
    if (d->mode == SIMT_DUMP_TIR) emitted(d);
    if (sf->body) stmt(d, sf->body, 1);
}

void simt_dump_program(FILE *out, const Program *p, SimtDumpMode mode, bool cuda)
{
    for (int i = 0; i < p->nsimt; i++) {
        D d = {out, mode, cuda, p->simt[i]};
        func(&d);
    }
}
