/* simt.c: code for SIMT kernels and functions (frontend/simt.h) on both
 * targets, and their launchers and header declarations.  A SIMT body is C
 * already, so each statement and expression is printed as it was written
 * (fully parenthesised), with three rewrites: names get prefixes that keep
 * them apart from generated ones (v_ locals, p_ parameters), TILE_ARRAY
 * elements are addressed through the descriptor's strides, and builtins
 * become CUDA intrinsics or calls into the host runtime of
 * runtime/tilec_simt.h, where a block's threads are POSIX threads and the
 * body a function each of them runs (its position in ctx_). */
#include <inttypes.h>
#include <string.h>

#include "codegen/emit.h"
#include "codegen/simt_emit.h"
#include "frontend/simt.h"
#include "sema/targetset.h"

typedef SimtEmit E;

/* Any SIMT type's spelling on a target: a vector's or struct's name, a
 * narrow float's type there (simt_narrow.c), C's otherwise. */
static const char *ttext(bool cuda, SimtType t, const SimtAgg *agg)
{
    return agg && (t == SIMT_VEC || t == SIMT_STRUCT) ? agg->cname : simt_ctype(cuda, t);
}

static void ex(E *e, const SimtNode *n);

static void args(E *e, const SimtNode *n, int from)
{
    for (int i = from; i < n->nkids; i++) {
        if (i > from) fputs(", ", e->o);
        ex(e, n->kids[i]);
    }
}

/* The host runtime's C type of a helper suffix. */
static const char *suffix_type(const char *suf)
{
    return !strcmp(suf, "i32") ? "int32_t" : !strcmp(suf, "u32") ? "uint32_t" : !strcmp(suf, "i64") ? "int64_t"
         : !strcmp(suf, "u64") ? "uint64_t" : !strcmp(suf, "f32") ? "float" : "double";
}

static const char *const host_orders[] = {"", "__ATOMIC_RELAXED", "__ATOMIC_ACQUIRE", "__ATOMIC_RELEASE", "__ATOMIC_ACQ_REL", "__ATOMIC_SEQ_CST"};
static const char *const cuda_orders[] = {"", "cuda::memory_order_relaxed", "cuda::memory_order_acquire", "cuda::memory_order_release",
                                          "cuda::memory_order_acq_rel", "cuda::memory_order_seq_cst"};
static const char *const cuda_scopes[] = {"", "cuda::thread_scope_block", "cuda::thread_scope_device", "cuda::thread_scope_system",
                                          "cuda::thread_scope_thread"};

static void atomic(E *e, const SimtNode *n)
{
    FILE *o = e->o;
    const char *op = simt_builtin_name(n->builtin) + 7; /* after "atomic_" */
    SimtType t = n->kids[0]->a->type;
    const char *tn = simt_type_name(t), *suf = simt_type_suffix(t);
    bool narrow = simt_type_is_narrow(t); /* no casts: conversions of the values (simt_narrow.c) */
    if (e->cuda) {
        fprintf(o, "tilec_simt_atomic_%s<%s>(", op, cuda_scopes[n->scope]);
        ex(e, n->kids[0]);
    } else {
        if (n->builtin != SB_ATOMIC_STORE && !narrow) fprintf(o, "((%s)", tn);
        fprintf(o, "tilec_simt_atomic_%s_%s(", op, suf);
        if (!narrow) fprintf(o, "(%s *)", suffix_type(suf));
        ex(e, n->kids[0]);
    }
    for (int i = 1; i < n->nkids; i++) {
        fputs(", ", o);
        if (narrow || simt_type_is_narrow(n->kids[i]->type)) { /* into or out of a narrow float */
            simt_narrow_convert(e, n->kids[i], t);
            continue;
        }
        fprintf(o, "(%s)(", e->cuda ? tn : suffix_type(suf));
        ex(e, n->kids[i]);
        fputc(')', o);
    }
    if (e->cuda) fprintf(o, ", %s)", cuda_orders[n->order]);
    else {
        fprintf(o, ", %s", host_orders[n->order]);
        /* a failed compare-exchange only loads: no release part */
        static const int fail_order[] = {0, 1, 2, 1, 2, 5};
        if (n->builtin == SB_ATOMIC_CAS) fprintf(o, ", %s", host_orders[fail_order[n->order]]);
        fputs(n->builtin != SB_ATOMIC_STORE && !narrow ? "))" : ")", o);
    }
}

static void builtin_cuda(E *e, const SimtNode *n)
{
    FILE *o = e->o;
    static const char axes[] = "xyz";
    char ax = n->order >= 0 && n->order < 3 ? axes[n->order] : 'x'; /* order is the axis of positions only */
    bool w64 = n->nkids && simt_type_is_64(n->kids[0]->type);
    switch (n->builtin) {
    case SB_SHAPE: fprintf(o, "((long long)p_%s.shape[%d])", n->kids[0]->text, n->order); return;
    case SB_THREAD_IDX: fprintf(o, "((int)threadIdx.%c)", ax); return;
    case SB_BLOCK_IDX: fprintf(o, "((int)blockIdx.%c)", ax); return;
    case SB_BLOCK_DIM: fprintf(o, "((int)blockDim.%c)", ax); return;
    case SB_GRID_DIM: fprintf(o, "((int)gridDim.%c)", ax); return;
    case SB_TID: fprintf(o, "((int)(threadIdx.%c + blockIdx.%c * blockDim.%c))", ax, ax, ax); return;
    case SB_GRID_SIZE: fprintf(o, "((int)(blockDim.%c * gridDim.%c))", ax, ax); return;
    case SB_LANE_ID: fputs("((int)((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u))", o); return;
    case SB_SYNCTHREADS: fputs("__syncthreads()", o); return;
    case SB_SYNCTHREADS_COUNT: fputs("__syncthreads_count(", o); break;
    case SB_SYNCTHREADS_AND: fputs("__syncthreads_and(", o); break;
    case SB_SYNCTHREADS_OR: fputs("__syncthreads_or(", o); break;
    case SB_SYNCWARP: fputs("__syncwarp(", o); break;
    case SB_ACTIVEMASK: fputs("__activemask()", o); return;
    case SB_LANEMASK_LT: fputs("tilec_simt_lanemask_lt()", o); return;
    case SB_BALLOT: fputs("__ballot_sync(", o); break;
    case SB_ALL: fputs("__all_sync(", o); break;
    case SB_ANY: fputs("__any_sync(", o); break;
    case SB_SHFL: fputs("__shfl_sync(", o); break;
    case SB_SHFL_UP: fputs("__shfl_up_sync(", o); break;
    case SB_SHFL_DOWN: fputs("__shfl_down_sync(", o); break;
    case SB_SHFL_XOR: fputs("__shfl_xor_sync(", o); break;
    case SB_MATCH_ANY: case SB_MATCH_ALL:
        fputs(n->builtin == SB_MATCH_ANY ? "__match_any_sync(" : "tilec_simt_match_all(", o);
        if (!simt_type_is_narrow(n->kids[1]->type)) break;
        ex(e, n->kids[0]); /* a narrow float's bits, as float's are compared */
        fprintf(o, ", (unsigned)%s(", n->kids[1]->type == SIMT_HALF ? "__half_as_ushort" : "__bfloat16_as_ushort");
        ex(e, n->kids[1]);
        fputs("))", o);
        return;
    case SB_EQ: fputs("__uni_sync(", o); break;
    case SB_FENCE: /* __threadfence and its forms when sequentially consistent; else libcu++'s fence */
        if (n->order == 5 && n->scope != 4) {
            fputs(n->scope == 1 ? "__threadfence_block()" : n->scope == 3 ? "__threadfence_system()" : "__threadfence()", o);
            return;
        }
        fprintf(o, "cuda::atomic_thread_fence(%s, %s)", cuda_orders[n->order], cuda_scopes[n->scope]);
        return;
    case SB_FENCE_BLOCK: fputs("__threadfence_block()", o); return;
    case SB_FENCE_SYSTEM: fputs("__threadfence_system()", o); return;
    case SB_POPC: fputs(w64 ? "__popcll((unsigned long long)" : "__popc((unsigned int)", o); break;
    case SB_E4M3_TO_F: case SB_E5M2_TO_F: case SB_F_TO_E4M3: case SB_F_TO_E5M2: {
        bool to_f = n->builtin == SB_E4M3_TO_F || n->builtin == SB_E5M2_TO_F;
        fprintf(o, to_f ? "tilec_simt_fp8_to_float((unsigned char)(" : "tilec_simt_fp8_from_float((float)(");
        ex(e, n->kids[0]);
        fprintf(o, "), %s)", n->builtin == SB_E4M3_TO_F || n->builtin == SB_F_TO_E4M3 ? "__NV_E4M3" : "__NV_E5M2");
        return;
    }
    case SB_CLZ: fputs(w64 ? "__clzll((long long)" : "__clz((int)", o); break;
    case SB_FFS: fputs(w64 ? "__ffsll((long long)" : "__ffs((int)", o); break;
    case SB_BREV: fputs(w64 ? "__brevll((unsigned long long)" : "__brev((unsigned int)", o); break;
    default: atomic(e, n); return;
    }
    args(e, n, 0);
    fputc(')', o);
}

static void builtin_host(E *e, const SimtNode *n)
{
    FILE *o = e->o;
    static const char axes[] = "xyz";
    char ax = n->order >= 0 && n->order < 3 ? axes[n->order] : 'x'; /* order is the axis of positions only */
    bool w64 = n->nkids && simt_type_is_64(n->kids[0]->type);
    const char *pred = NULL;
    int mode = -1;
    switch (n->builtin) {
    case SB_SHAPE: fprintf(o, "((long long)p_%s.shape[%d])", n->kids[0]->text, n->order); return;
    case SB_THREAD_IDX: fprintf(o, "ctx_->t%c", ax); return;
    case SB_BLOCK_IDX: fprintf(o, "ctx_->b%c", ax); return;
    case SB_BLOCK_DIM: fprintf(o, "ctx_->bd%c", ax); return;
    case SB_GRID_DIM: fprintf(o, "ctx_->gd%c", ax); return;
    case SB_TID: fprintf(o, "(ctx_->t%c + ctx_->b%c * ctx_->bd%c)", ax, ax, ax); return;
    case SB_GRID_SIZE: fprintf(o, "(ctx_->bd%c * ctx_->gd%c)", ax, ax); return;
    case SB_LANE_ID: fputs("ctx_->lane", o); return;
    case SB_SYNCTHREADS: fputs("tilec_simt_syncthreads(ctx_)", o); return;
    case SB_SYNCTHREADS_COUNT: pred = "tilec_simt_syncthreads_count(ctx_, "; break;
    case SB_SYNCTHREADS_AND: pred = "tilec_simt_syncthreads_and(ctx_, "; break;
    case SB_SYNCTHREADS_OR: pred = "tilec_simt_syncthreads_or(ctx_, "; break;
    case SB_SYNCWARP: fputs("tilec_simt_syncwarp(ctx_, ", o); break;
    case SB_ACTIVEMASK: fputs("tilec_simt_activemask(ctx_)", o); return;
    case SB_LANEMASK_LT: fputs("tilec_simt_lanemask_lt(ctx_)", o); return;
    case SB_BALLOT: pred = "tilec_simt_ballot_sync(ctx_, "; break;
    case SB_ALL: pred = "tilec_simt_all_sync(ctx_, "; break;
    case SB_ANY: pred = "tilec_simt_any_sync(ctx_, "; break;
    case SB_SHFL: mode = 0; break;
    case SB_SHFL_UP: mode = 1; break;
    case SB_SHFL_DOWN: mode = 2; break;
    case SB_SHFL_XOR: mode = 3; break;
    case SB_EQ: pred = "tilec_simt_eq_sync(ctx_, "; break;
    case SB_MATCH_ANY: case SB_MATCH_ALL: {
        const char *suf = simt_type_suffix(n->kids[1]->type);
        fprintf(o, "tilec_simt_match_%s_%s(ctx_, ", n->builtin == SB_MATCH_ANY ? "any" : "all", suf);
        ex(e, n->kids[0]);
        fputs(", ", o);
        if (!simt_type_is_narrow(n->kids[1]->type)) fprintf(o, "(%s)", suffix_type(suf));
        ex(e, n->kids[1]);
        fputc(')', o);
        return;
    }
    case SB_FENCE: fprintf(o, "__atomic_thread_fence(%s)", host_orders[n->order]); return;
    case SB_FENCE_BLOCK: case SB_FENCE_SYSTEM: fputs("__atomic_thread_fence(__ATOMIC_SEQ_CST)", o); return;
    case SB_POPC: fprintf(o, w64 ? "tilec_simt_popc64((uint64_t)" : "tilec_simt_popc32((uint32_t)"); break;
    case SB_E4M3_TO_F: fputs("tilec_e4m3_to_float((uint8_t)(", o); ex(e, n->kids[0]); fputs("))", o); return;
    case SB_E5M2_TO_F: fputs("tilec_e5m2_to_float((uint8_t)(", o); ex(e, n->kids[0]); fputs("))", o); return;
    case SB_F_TO_E4M3: fputs("tilec_e4m3_from_float((float)(", o); ex(e, n->kids[0]); fputs("), TILEC_RN, 1)", o); return;
    case SB_F_TO_E5M2: fputs("tilec_e5m2_from_float((float)(", o); ex(e, n->kids[0]); fputs("), TILEC_RN, 1)", o); return;
    case SB_CLZ: fprintf(o, w64 ? "tilec_simt_clz64((uint64_t)" : "tilec_simt_clz32((uint32_t)"); break;
    case SB_FFS: fprintf(o, w64 ? "tilec_simt_ffs64((uint64_t)" : "tilec_simt_ffs32((uint32_t)"); break;
    case SB_BREV: fprintf(o, w64 ? "tilec_simt_brev64((uint64_t)" : "tilec_simt_brev32((uint32_t)"); break;
    default: atomic(e, n); return;
    }
    if (pred) { /* the mask (if any), then the predicate as an int */
        fputs(pred, o);
        if (n->nkids == 2) {
            ex(e, n->kids[0]);
            fputs(", ", o);
        }
        fputs("(", o);
        ex(e, n->kids[n->nkids - 1]);
        fputs(") != 0)", o);
        return;
    }
    if (mode >= 0) {
        const char *suf = simt_type_suffix(n->type);
        bool narrow = simt_type_is_narrow(n->type); /* no casts of struct values */
        fputc('(', o);
        if (!narrow) fprintf(o, "(%s)", simt_type_name(n->type));
        fprintf(o, "tilec_simt_shfl_%s(ctx_, ", suf);
        ex(e, n->kids[0]);
        fputs(", ", o);
        if (!narrow) fprintf(o, "(%s)", suffix_type(suf));
        ex(e, n->kids[1]);
        fputs(", (int)", o);
        ex(e, n->kids[2]);
        fprintf(o, ", %d))", mode);
        return;
    }
    args(e, n, 0);
    fputc(')', o);
}

static void var_name(E *e, const SimtNode *n)
{
    if (n->param >= 0) fprintf(e->o, "p_%s", n->text);
    else if (!e->cuda && n->decl->shared && !n->decl->dynamic) fprintf(e->o, "sh_->s%d_%s", n->decl->id, n->text);
    else fprintf(e->o, "v_%s", n->text);
}

/* A zero of a field's type as a C initializer (a struct's first field
 * wants a value when no other field is given). */
static void c_zero(FILE *o, SimtType t, const SimtAgg *a, int ndims)
{
    if (ndims) fputs("{0}", o);
    else if (simt_type_is_narrow(t)) fprintf(o, "((%s){0})", simt_ctype(false, t));
    else if (t == SIMT_VEC) {
        fprintf(o, "((%s){{", a->cname);
        for (int i = 0; i < a->lanes; i++) {
            fputs(i ? ", " : "", o);
            c_zero(o, a->elem, NULL, 0);
        }
        fputs("}})", o);
    } else if (t == SIMT_STRUCT) {
        fprintf(o, "((%s){.%s = ", a->cname, a->fields[0].name);
        c_zero(o, a->fields[0].type, a->fields[0].agg, a->fields[0].ndims);
        fputs("})", o);
    } else fputc('0', o);
}

/* A vector or struct built from n's kids (lanes or fields; missing ones
 * are zero): T{...} with every lane or field in CUDA C++; in C a compound
 * literal, a struct's by designators of the fields given (so that C's
 * warnings about missing initializers stay quiet). */
static void make(E *e, const SimtNode *n)
{
    FILE *o = e->o;
    const SimtAgg *a = n->agg;
    if (!e->cuda && a->vector) {
        fprintf(o, "((%s){{", a->cname);
        for (int i = 0; i < n->nkids; i++) {
            if (i) fputs(", ", o);
            if (n->kids[i]) ex(e, n->kids[i]);
            else c_zero(o, a->elem, NULL, 0);
        }
        fputs("}})", o);
        return;
    }
    if (!e->cuda) {
        fprintf(o, "((%s){", a->cname);
        int given = 0;
        for (int i = 0; i < n->nkids; i++) {
            if (!n->kids[i] && (a->fields[i].type == SIMT_VEC || a->fields[i].type == SIMT_STRUCT || a->fields[i].ndims)) continue;
            fprintf(o, "%s.%s = ", given++ ? ", " : "", a->fields[i].name);
            if (n->kids[i]) ex(e, n->kids[i]);
            else c_zero(o, a->fields[i].type, NULL, 0);
        }
        if (!given) {
            fprintf(o, ".%s = ", a->fields[0].name);
            c_zero(o, a->fields[0].type, a->fields[0].agg, a->fields[0].ndims);
        }
        fputs("})", o);
        return;
    }
    fprintf(o, "%s{", a->cname);
    for (int i = 0; i < n->nkids; i++) {
        if (i) fputs(", ", o);
        if (n->kids[i]) {
            ex(e, n->kids[i]);
            continue;
        }
        const SimtField *f = a->vector ? NULL : &a->fields[i];
        SimtType lt = f ? f->type : a->elem;
        if (f && f->ndims) fputs("{}", o);
        else if (f && f->agg) fprintf(o, "%s{}", f->agg->cname);
        else if (simt_type_is_narrow(lt)) fprintf(o, "%s()", simt_ctype(true, lt)); /* +0 */
        else fputc('0', o);
    }
    fputc('}', o);
}

void simt_emit_expr(E *e, const SimtNode *n) { ex(e, n); }

static void ex(E *e, const SimtNode *n)
{
    FILE *o = e->o;
    if (simt_narrow_handles(n)) { /* operations on float16 and bfloat16 */
        simt_narrow_expr(e, n);
        return;
    }
    switch (n->kind) {
    case SX_INT: case SX_FLOAT: fputs(n->text, o); return;
    case SX_VAR: var_name(e, n); return;
    case SX_ARRAY: fprintf(o, "p_%s", n->text); return;
    case SX_UNARY:
        fprintf(o, "(%s", n->text);
        ex(e, n->a);
        fputc(')', o);
        return;
    case SX_POSTFIX:
        fputc('(', o);
        ex(e, n->a);
        fprintf(o, "%s)", n->text);
        return;
    case SX_BINARY:
        fputc('(', o);
        ex(e, n->a);
        fprintf(o, " %s ", n->text);
        ex(e, n->b);
        fputc(')', o);
        return;
    case SX_COND:
        fputc('(', o);
        ex(e, n->a);
        fputs(" ? ", o);
        ex(e, n->b);
        fputs(" : ", o);
        ex(e, n->c);
        fputc(')', o);
        return;
    case SX_CAST: /* (void)x too */
        fprintf(o, "((%s)(", simt_type_name(n->type));
        ex(e, n->a);
        fputs("))", o);
        return;
    case SX_INDEX: {
        const SimtNode *root = n->a;
        while (root->kind == SX_INDEX) root = root->a;
        if (root->decl && root->decl->col_major) { /* stored transposed: m[i][j] is v_m[j][i] */
            var_name(e, root);
            for (const SimtNode *k = n; k->kind == SX_INDEX; k = k->a) {
                fputc('[', o);
                ex(e, k->b);
                fputc(']', o);
            }
            return;
        }
        ex(e, n->a);
        fputc('[', o);
        ex(e, n->b);
        fputc(']', o);
        return;
    }
    case SX_ELEM: { /* through the descriptor: strides are in elements (an array of vectors': in lanes) */
        const Param *p = &e->sf->f.params[n->param];
        const char *cq = p->readonly ? "const " : "";
        if (n->type == SIMT_VEC) fprintf(o, "(*(%s%s *)((%s%s *)p_%s.data + ", cq, n->agg->cname, cq, simt_ctype(e->cuda, n->agg->elem), p->name);
        else if (n->type == SIMT_STRUCT) fprintf(o, "(*(%s%s *)((%sunsigned char *)p_%s.data + ", cq, n->agg->cname, cq, p->name);
        else fprintf(o, "((%s%s *)p_%s.data)[", cq, simt_ctype(e->cuda, n->type), p->name);
        for (int i = 0; i < n->nkids; i++) {
            fputs(i ? " + (int64_t)(" : "(int64_t)(", o);
            ex(e, n->kids[i]);
            fprintf(o, ") * p_%s.strides[%d]", p->name, i);
        }
        fputs(n->type == SIMT_VEC || n->type == SIMT_STRUCT ? "))" : "]", o);
        return;
    }
    case SX_ADDR:
        fputs("&", o);
        ex(e, n->a);
        return;
    case SX_BUILTIN:
        if (e->cuda) builtin_cuda(e, n);
        else builtin_host(e, n);
        return;
    case SX_CALL:
        fprintf(o, "tilec_sf_%s(%s", n->text, e->cuda || !n->nkids ? "" : "ctx_, ");
        if (!e->cuda && !n->nkids) fputs("ctx_", o);
        args(e, n, 0);
        fputc(')', o);
        return;
    case SX_MATH:
        fprintf(o, "%s(", n->text);
        args(e, n, 0);
        fputc(')', o);
        return;
    case SX_LIST:
        fputc('{', o);
        args(e, n, 0);
        fputc('}', o);
        return;
    case SX_MEMBER:
        fputc('(', o);
        ex(e, n->a);
        fprintf(o, ").%s", n->text);
        return;
    case SX_LANE: /* CUDA's vectors are structs of lanes in order; the host's unions have a_ */
        fputs(e->cuda ? "(&(" : "(", o);
        ex(e, n->a);
        fputs(e->cuda ? ").x)[" : ").a_[", o);
        ex(e, n->b);
        fputc(']', o);
        return;
    case SX_MAKE: make(e, n); return;
    default: fputs("/* ? */", o); return;
    }
}

/* n without its outer parentheses: conditions (clang warns of `if ((a == b))`),
 * statements, initializers. */
static void ex_top(E *e, const SimtNode *n)
{
    if (n->kind != SX_BINARY || simt_narrow_handles(n)) {
        ex(e, n);
        return;
    }
    ex(e, n->a);
    fprintf(e->o, " %s ", n->text);
    ex(e, n->b);
}

static void indent(E *e, int d)
{
    for (int i = 0; i < d; i++) fputs("    ", e->o);
}

/* An array's extents in storage order: reversed for column-major arrays. */
static void extents(FILE *o, const SimtNode *d)
{
    for (int i = 0; i < d->ndims; i++) fprintf(o, "[%" PRId64 "]", d->dims[d->col_major ? d->ndims - 1 - i : i]);
}

/* SIMT_ALIGN(n) of a declaration: __align__(n) in CUDA C++, _Alignas(n) in C. */
static void alignment(FILE *o, bool cuda, const SimtNode *d)
{
    if (d->align) fprintf(o, cuda ? "__align__(%d) " : "_Alignas(%d) ", d->align);
}

/* A declaration without its ';' (also a for header's). */
static void decl(E *e, const SimtNode *d)
{
    FILE *o = e->o;
    const char *t = ttext(e->cuda, d->type, d->agg);
    if (d->dynamic) { /* CUDA's extern __shared__ array is declared just before (stmt) */
        fprintf(o, "%s *const v_%s = (%s *)%s", t, d->text, t, e->cuda ? "tilec_dyn_" : "ctx_->dyn");
        return;
    }
    fputs(d->shared ? "__shared__ " : "", o);
    alignment(o, e->cuda, d);
    fprintf(o, "%s%s v_%s", d->is_const ? "const " : "", t, d->text);
    extents(o, d);
    if (d->a) {
        fputs(" = ", o);
        ex_top(e, d->a);
    }
}

static void stmt(E *e, const SimtNode *n, int d);

/* A statement as a braced block (if, loops). */
static void braced(E *e, const SimtNode *n, int d)
{
    if (n->kind == SS_BLOCK) {
        fputs("{\n", e->o);
        for (int i = 0; i < n->nkids; i++) stmt(e, n->kids[i], d + 1);
        indent(e, d);
        fputc('}', e->o);
    } else {
        fputs("{\n", e->o);
        stmt(e, n, d + 1);
        indent(e, d);
        fputc('}', e->o);
    }
}

static void stmt(E *e, const SimtNode *n, int d)
{
    FILE *o = e->o;
    if (n->kind == SS_DECL && n->shared && !n->dynamic && !e->cuda) return; /* in the block's struct */
    indent(e, d);
    switch (n->kind) {
    case SS_DECL:
        if (n->dynamic && e->cuda) {
            fputs("extern __shared__ __align__(16) unsigned char tilec_dyn_[];\n", o);
            indent(e, d);
        }
        decl(e, n);
        fputs(";\n", o);
        return;
    case SS_EXPR:
        /* a builtin's value unused: the host's cast of it would be a warning */
        if (n->a->kind == SX_BUILTIN && n->a->type != SIMT_VOID) fputs("(void)", o);
        ex_top(e, n->a);
        fputs(";\n", o);
        return;
    case SS_IF:
        if (n->target) { /* tile_target: #if on the GPU, the host's branch on the host */
            char cond[1024], desc[256];
            targetset_describe(n->targets, desc, sizeof desc);
            if (!e->cuda) {
                bool host = n->targets & TARGETSET_HOST;
                fprintf(o, "/* tile_target(%s): %s on the host */ ", desc, host ? "true" : "false");
                if (host || n->c) braced(e, host ? n->b : n->c, d);
                else fputs("{}", o);
                fputc('\n', o);
                return;
            }
            targetset_cuda_condition(n->targets, cond, sizeof cond);
            fprintf(o, "{\n#if %s /* tile_target(%s) */\n", cond, desc);
            indent(e, d + 1);
            braced(e, n->b, d + 1);
            if (n->c) {
                fputs("\n#else\n", o);
                indent(e, d + 1);
                braced(e, n->c, d + 1);
            }
            fputs("\n#endif\n", o);
            indent(e, d);
            fputs("}\n", o);
            return;
        }
        fputs("if (", o);
        ex_top(e, n->a);
        fputs(") ", o);
        braced(e, n->b, d);
        if (n->c) {
            fputs(" else ", o);
            braced(e, n->c, d);
        }
        fputc('\n', o);
        return;
    case SS_FOR:
        fputs("for (", o);
        if (n->a && n->a->kind == SS_DECL) decl(e, n->a);
        else if (n->a && n->a->kind == SS_EXPR) ex_top(e, n->a->a);
        fputs("; ", o);
        if (n->b) ex_top(e, n->b);
        fputs("; ", o);
        if (n->c) ex_top(e, n->c);
        fputs(") ", o);
        if (n->d) braced(e, n->d, d);
        else fputs("{\n}", o);
        fputc('\n', o);
        return;
    case SS_WHILE:
        fputs("while (", o);
        ex_top(e, n->a);
        fputs(") ", o);
        braced(e, n->b, d);
        fputc('\n', o);
        return;
    case SS_DO:
        fputs("do ", o);
        braced(e, n->b, d);
        fputs(" while (", o);
        ex_top(e, n->a);
        fputs(");\n", o);
        return;
    case SS_RETURN:
        fputs("return", o);
        if (n->a) {
            fputc(' ', o);
            ex_top(e, n->a);
        }
        fputs(";\n", o);
        return;
    case SS_BLOCK:
        braced(e, n, d);
        fputc('\n', o);
        return;
    case SS_BREAK: fputs("break;\n", o); return;
    case SS_CONTINUE: fputs("continue;\n", o); return;
    case SS_EMPTY: fputs(";\n", o); return;
    default: fputs("/* ? */\n", o); return;
    }
}

static void body(E *e, const SimtFunc *sf)
{
    for (int i = 0; sf->body && i < sf->body->nkids; i++) stmt(e, sf->body->kids[i], 1);
}

/* The C type of scalar (or vector, or struct) parameter i of SIMT function f. */
static const char *param_type(bool cuda, const Func *f, int i)
{
    const SimtFunc *sf = (const SimtFunc *)f; /* f is the first member */
    if (sf->param_aggs && sf->param_aggs[i]) return sf->param_aggs[i]->cname;
    return simt_param_ctype(cuda, f->params[i].type.dtype);
}

/* `const tilec_array p_a, int32_t p_n`: a kernel's or SIMT function's parameters. */
static void params(FILE *o, bool cuda, const Func *f, bool first)
{
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        fputs(first && i == 0 ? "" : ", ", o);
        if (p->kind == PARAM_ARRAY) fprintf(o, "const tilec_array p_%s", p->name);
        else fprintf(o, "%s p_%s", param_type(cuda, f, i), p->name);
    }
}

static bool has_static_shared(const SimtFunc *sf)
{
    for (int i = 0; i < sf->nshared; i++)
        if (!sf->shared[i]->dynamic) return true;
    return false;
}

static void launch_prototype(FILE *o, const CodegenOptions *co, const Func *f)
{
    fputs("tilec_status ", o);
    emit_launcher_name(o, co, f);
    fputs("(tilec_stream stream, tilec_grid grid, tilec_grid block, size_t dyn_smem", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind == PARAM_ARRAY) fprintf(o, ", const tilec_array *%s", p->name);
        else if (p->type.dtype == DT_INVALID) fprintf(o, ", %s %s", param_type(false, f, i), p->name);
        else fprintf(o, ", %s %s", emit_scalar_api_type(p->type.dtype), p->name);
    }
    fputc(')', o);
}

/* The checks every SIMT launcher runs first: arrays as tile kernels' are
 * (rank, dtype, writable outputs; no alias checks: which thread touches
 * what is the kernel's business, as in CUDA), the block shape, the grid. */
static void launch_checks(FILE *o, const Func *f)
{
    const SimtFunc *sf = (const SimtFunc *)f;
    fputs("    tilec_status st_;\n    tilec_clear_error();\n", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        const SimtAgg *v = sf->param_aggs ? sf->param_aggs[i] : NULL; /* an array of vectors: the lanes are a last dimension */
        fprintf(o, "    if ((st_ = tilec_check_array(%s, \"%s\", %d, %s)) != TILEC_OK) return st_;\n", p->name, p->name,
                p->rank + (v != NULL), emit_dtype_enum(p->type.dtype));
        if (v) { /* the lanes, or the struct's bytes */
            int64_t size, align;
            simt_layout(v->vector ? SIMT_VEC : SIMT_STRUCT, v, &size, &align);
            fprintf(o, "    if ((st_ = tilec_simt_check_vectors(%s, \"%s\", %d, %d)) != TILEC_OK) return st_;\n", p->name, p->name,
                    v->vector ? v->lanes : (int)size, (int)align);
        }
        if (!p->readonly) fprintf(o, "    if ((st_ = tilec_check_output(%s, \"%s\")) != TILEC_OK) return st_;\n", p->name, p->name);
    }
    fputs("    if ((st_ = tilec_simt_check_block(block)) != TILEC_OK) return st_;\n", o);
    fputs("    if (grid.x == 0 || grid.y == 0 || grid.z == 0) return TILEC_OK; /* an empty problem */\n", o);
    fputs("    if ((st_ = tilec_check_grid(grid)) != TILEC_OK) return st_;\n", o);
}

/* The launcher's arguments: a float16 or bfloat16 scalar comes as a float
 * (as tile kernels take it) and is rounded to nearest even. */
static void call_args(FILE *o, bool cuda, const Func *f)
{
    E e = {o, cuda, NULL};
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        SimtType t = p->kind == PARAM_ARRAY ? SIMT_NONE : simt_type_of_dtype(p->type.dtype);
        fputs(i ? ", " : "", o);
        if (simt_type_is_narrow(t)) simt_narrow_convert_text(&e, p->name, SIMT_FLOAT, t);
        else fprintf(o, "%s%s", p->kind == PARAM_ARRAY ? "*" : "", p->name);
    }
}

void simt_emit_cuda(FILE *o, const CodegenOptions *co, const Program *p)
{
    if (!p->nsimt) return;
    fputs("/* ---- SIMT kernels ---- */\n#include \"tilec_simt.h\"\n\n", o);
    simt_narrow_helpers(o, true, p);
    for (int i = 0; i < p->nsimt; i++) {
        const SimtFunc *sf = p->simt[i];
        const Func *f = &sf->f;
        E e = {o, true, sf};
        if (f->is_kernel) fprintf(o, "static __global__ void tilec_sk_%s(", f->name);
        else fprintf(o, "static __device__ __forceinline__ %s tilec_sf_%s(", ttext(true, sf->ret, sf->ret_agg), f->name);
        params(o, true, f, true);
        if (!f->nparams) fputs("void", o);
        fputs(")\n{\n", o);
        body(&e, sf);
        fputs("}\n\n", o);
        if (!f->is_kernel && sf->interop) { /* SIMT_INTEROP: the same function for CUDA C++ callers */
            fprintf(o, "extern \"C\" __device__ %s %s(", ttext(true, sf->ret, sf->ret_agg), f->name);
            params(o, true, f, true);
            if (!f->nparams) fputs("void", o);
            fprintf(o, ")\n{\n    %stilec_sf_%s(", sf->ret == SIMT_VOID ? "" : "return ", f->name);
            for (int j = 0; j < f->nparams; j++) fprintf(o, "%sp_%s", j ? ", " : "", f->params[j].name);
            fputs(");\n}\n\n", o);
        }
        if (!f->is_kernel) continue;
        /* the __global__ for cudaLaunchKernel from CUDA C++ (docs/runtime.md) */
        fputs("extern \"C\" const void *tilec_kernel_", o);
        emit_launcher_name(o, co, f);
        fprintf(o, "(void)\n{\n    return (const void *)tilec_sk_%s;\n}\n\n", f->name);
        fputs("extern \"C\" ", o);
        launch_prototype(o, co, f);
        fputs("\n{\n", o);
        launch_checks(o, f);
        bool first = true;
        for (int j = 0; j < f->nparams; j++) {
            const Param *q = &f->params[j];
            if (q->kind != PARAM_ARRAY) continue;
            if (first) fputs("    int dev_ = -1; /* the current device, queried once */\n", o);
            first = false;
            fprintf(o, "    if ((st_ = tilec_check_device(%s, \"%s\", &dev_)) != TILEC_OK) return st_;\n", q->name, q->name);
        }
        fputs("    if (dyn_smem > 0x7fffffff) return tilec_fail(TILEC_ERR_INVALID, \"dyn_smem = %zu bytes\", dyn_smem);\n", o);
        fprintf(o, "    if (dyn_smem > 48 * 1024 && (st_ = tilec_smem_opt_in((const void *)tilec_sk_%s, (int)dyn_smem)) != TILEC_OK) return st_;\n",
                f->name);
        fprintf(o, "    tilec_sk_%s<<<dim3(grid.x, grid.y, grid.z), dim3(block.x, block.y, block.z), dyn_smem, (cudaStream_t)stream>>>(",
                f->name);
        call_args(o, true, f);
        fputs(");\n    cudaError_t e_ = cudaGetLastError();\n", o);
        fputs("    if (e_ != cudaSuccess) return tilec_fail(TILEC_ERR_CUDA, \"%s: %s\", cudaGetErrorName(e_), cudaGetErrorString(e_));\n", o);
        fputs("    return TILEC_OK;\n}\n\n", o);
    }
}

void simt_emit_host(FILE *o, const CodegenOptions *co, const Program *p)
{
    if (!p->nsimt) return;
    fputs("/* ---- SIMT kernels: each block's threads are POSIX threads (tilec_simt.h) ---- */\n"
          "#include \"tilec_simt.h\"\n\n", o);
    simt_narrow_helpers(o, false, p);
    for (int i = 0; i < p->nsimt; i++) {
        const SimtFunc *sf = p->simt[i];
        const Func *f = &sf->f;
        E e = {o, false, sf};
        if (!f->is_kernel) {
            fprintf(o, "static inline %s tilec_sf_%s(tilec_simt_ctx *ctx_", ttext(false, sf->ret, sf->ret_agg), f->name);
            params(o, false, f, false);
            fputs(")\n{\n", o);
            body(&e, sf);
            fputs("}\n\n", o);
            if (sf->interop) { /* SIMT_INTEROP: the same function for C callers, run as one thread */
                fprintf(o, "%s %s(", ttext(false, sf->ret, sf->ret_agg), f->name);
                params(o, false, f, true);
                if (!f->nparams) fputs("void", o);
                fputs(")\n{\n    tilec_simt_solo solo_;\n    tilec_simt_ctx *const ctx_ = tilec_simt_solo_begin(&solo_);\n", o);
                fprintf(o, "    %stilec_sf_%s(ctx_", sf->ret == SIMT_VOID ? "" : arena_printf(p->arena, "const %s r_ = ", ttext(false, sf->ret, sf->ret_agg)),
                        f->name);
                for (int j = 0; j < f->nparams; j++) fprintf(o, ", p_%s", f->params[j].name);
                fprintf(o, ");\n    tilec_simt_solo_end(&solo_);\n%s}\n\n", sf->ret == SIMT_VOID ? "" : "    return r_;\n");
            }
            continue;
        }
        fprintf(o, "struct tilec_sk_%s_args_ {\n", f->name);
        for (int j = 0; j < f->nparams; j++) {
            const Param *q = &f->params[j];
            if (q->kind == PARAM_ARRAY) fprintf(o, "    tilec_array %s;\n", q->name);
            else fprintf(o, "    %s %s;\n", param_type(false, f, j), q->name);
        }
        if (!f->nparams) fputs("    int none_;\n", o);
        fputs("};\n\n", o);
        bool sh = has_static_shared(sf), over_aligned = false;
        if (sh) { /* the block's shared variables */
            fprintf(o, "struct tilec_sk_%s_shared_ {\n", f->name);
            for (int j = 0; j < sf->nshared; j++) {
                const SimtNode *d = sf->shared[j];
                if (d->dynamic) continue;
                fputs("    ", o);
                alignment(o, false, d);
                fprintf(o, "%s s%d_%s", ttext(false, d->type, d->agg), d->id, d->text);
                extents(o, d);
                fputs(";\n", o);
                if (d->align > 16) over_aligned = true;
            }
            fputs("};\n\n", o);
        }
        fprintf(o, "static void tilec_sk_%s(tilec_simt_ctx *ctx_, const void *args_)\n{\n", f->name);
        fprintf(o, "    const struct tilec_sk_%s_args_ *a_ = (const struct tilec_sk_%s_args_ *)args_;\n", f->name, f->name);
        if (sh) fprintf(o, "    struct tilec_sk_%s_shared_ *const sh_ = (struct tilec_sk_%s_shared_ *)ctx_->shared;\n", f->name, f->name);
        for (int j = 0; j < f->nparams; j++) {
            const Param *q = &f->params[j];
            if (q->kind == PARAM_ARRAY) fprintf(o, "    const tilec_array p_%s = a_->%s;\n", q->name, q->name);
            else fprintf(o, "    %s p_%s = a_->%s;\n", param_type(false, f, j), q->name, q->name);
        }
        if (!f->nparams) fputs("    (void)a_;\n", o);
        body(&e, sf);
        fputs("}\n\n", o);
        launch_prototype(o, co, f);
        fputs("\n{\n", o);
        launch_checks(o, f);
        fprintf(o, "    (void)stream;\n    const struct tilec_sk_%s_args_ args_ = {", f->name);
        call_args(o, false, f);
        if (!f->nparams) fputc('0', o);
        if (over_aligned) /* SIMT_ALIGN over malloc's 16 bytes: the block's struct at its own alignment */
            fprintf(o, "};\n    return tilec_simt_run_aligned(grid, block, dyn_smem, sizeof(struct tilec_sk_%s_shared_),\n"
                       "                                  _Alignof(struct tilec_sk_%s_shared_), tilec_sk_%s, &args_);\n}\n\n",
                    f->name, f->name, f->name);
        else
            fprintf(o, "};\n    return tilec_simt_run(grid, block, dyn_smem, %s, tilec_sk_%s, &args_);\n}\n\n",
                    sh ? arena_printf(p->arena, "sizeof(struct tilec_sk_%s_shared_)", f->name) : "0", f->name);
        fputs("const void *tilec_kernel_", o); /* no __global__ to launch on the host */
        emit_launcher_name(o, co, f);
        fputs("(void)\n{\n    return NULL;\n}\n\n", o);
    }
}

/* `float table_at(tilec_array table, int64_t i);` for each SIMT_INTEROP
 * function, in the types of a target. */
static void interop_prototypes(FILE *o, const Program *p, bool cuda)
{
    for (int i = 0; i < p->nsimt; i++) {
        const SimtFunc *sf = p->simt[i];
        const Func *f = &sf->f;
        if (!sf->interop) continue;
        fprintf(o, "%s%s %s(", cuda ? "__device__ " : "", ttext(cuda, sf->ret, sf->ret_agg), f->name);
        for (int j = 0; j < f->nparams; j++) {
            const Param *pa = &f->params[j];
            if (pa->kind == PARAM_ARRAY) fprintf(o, "%stilec_array %s", j ? ", " : "", pa->name);
            else fprintf(o, "%s%s %s", j ? ", " : "", param_type(cuda, f, j), pa->name);
        }
        fputs(f->nparams ? ");\n" : "void);\n", o);
    }
}

/* Whether a SIMT_INTEROP function takes or returns a float16 or bfloat16. */
static bool narrow_interop(const Program *p)
{
    for (int i = 0; i < p->nsimt; i++) {
        const SimtFunc *sf = p->simt[i];
        bool n = sf->interop && simt_type_is_narrow(sf->ret);
        for (int j = 0; sf->interop && j < sf->f.nparams; j++)
            n |= sf->f.params[j].kind != PARAM_ARRAY && simt_type_is_narrow(simt_type_of_dtype(sf->f.params[j].type.dtype));
        if (n) return true;
    }
    return false;
}

void simt_emit_header(FILE *o, const CodegenOptions *co, const Program *p)
{
    for (int i = 0; i < p->nsimt; i++) {
        const Func *f = &p->simt[i]->f;
        if (!f->is_kernel) continue;
        fputs("/*\n", o);
        if (f->doc) {
            emit_doc_lines(o, f->doc);
            fputs(" *\n", o);
        }
        fprintf(o, " * Launches SIMT kernel '%s' (%s:%d): `grid` blocks of `block` threads, each\n"
                   " * block with `dyn_smem` bytes of dynamic shared memory, on `stream` (a\n"
                   " * cudaStream_t; ignored by the host target).\n",
                f->name, emit_base_name(co->source_name ? co->source_name : "(stdin)"), f->loc.line);
        for (int j = 0; j < f->nparams; j++) {
            const Param *pa = &f->params[j];
            const SimtAgg *va = pa->kind == PARAM_ARRAY && p->simt[i]->param_aggs ? p->simt[i]->param_aggs[j] : NULL;
            int64_t vsize = 0, valign = 0;
            if (va) simt_layout(va->vector ? SIMT_VEC : SIMT_STRUCT, va, &vsize, &valign);
            if (va)
                fprintf(o, " *   %s: %s%s array of rank %d%s: a %s tilec_array of rank %d whose last\n"
                           " *     dimension is the %d %s (stride 1), aligned as %s (%d bytes)\n",
                        pa->name, pa->readonly ? "read-only " : "", va->name, pa->rank, pa->readonly ? "" : " (written)",
                        dtype_name(pa->type.dtype), pa->rank + 1, va->vector ? va->lanes : (int)vsize,
                        va->vector ? "lanes" : "bytes of each struct", va->cname, (int)valign);
            else if (pa->kind == PARAM_ARRAY)
                fprintf(o, " *   %s: %s%s array of rank %d%s\n", pa->name, pa->readonly ? "read-only " : "", dtype_name(pa->type.dtype),
                        pa->rank, pa->readonly ? "" : " (written)");
            else if (pa->type.dtype == DT_INVALID) {
                const SimtAgg *ag = p->simt[i]->param_aggs[j];
                fprintf(o, " *   %s: %s %s, by value\n", pa->name, ag->vector ? "vector" : "struct", ag->cname);
            } else fprintf(o, " *   %s: %s scalar\n", pa->name, dtype_name(pa->type.dtype));
        }
        fputs(" * Returns TILEC_OK, or the reason the launch was refused or failed\n"
              " * (tilec_status_string(); tilec_last_error() has the detail). */\n", o);
        launch_prototype(o, co, f);
        fputs(";\n", o);
        fputs("/* The kernel itself, for cudaLaunchKernel(tilec_kernel_...(), grid, block, args, dyn_smem,\n"
              " * stream) from CUDA C++: args[i] points to parameter i, a tilec_array (by value) for\n"
              " * an array, the scalar, vector or struct otherwise, in the order above; no checks\n"
              " * are made.  NULL on the host target. */\n", o);
        fputs("const void *tilec_kernel_", o);
        emit_launcher_name(o, co, f);
        fputs("(void);\n\n", o);
    }
    int ninterop = 0;
    for (int i = 0; i < p->nsimt; i++) ninterop += p->simt[i]->interop;
    if (!ninterop) return;
    /* the header serves both targets: the device functions for CUDA C++,
     * the host target's C functions for everything else */
    fputs("#ifdef __CUDACC__\n/* SIMT_INTEROP functions, callable from CUDA C++ device code (CUDA target; link\n"
          " * the .cu with -rdc=true): arrays as tilec_array by value, scalars by value. */\n", o);
    if (narrow_interop(p)) /* __half, __nv_bfloat16: C++ headers, outside the extern "C" block */
        fputs("}\n#include <cuda_bf16.h>\n#include <cuda_fp16.h>\nextern \"C\" {\n", o);
    interop_prototypes(o, p, true);
    fputs("#else\n/* SIMT_INTEROP functions, callable from C (host target): arrays as tilec_array by\n"
          " * value, scalars by value.  Each call runs the function as one thread, thread 0\n"
          " * of block 0 of a 1 x 1 x 1 grid and lane 0 of a warp of one lane: barriers pass\n"
          " * at once, collectives see this lane only (runtime/tilec_simt.h). */\n", o);
    if (narrow_interop(p)) fputs("#include \"tilec_simt.h\" /* tilec_simt_f16, tilec_simt_bf16 */\n", o);
    interop_prototypes(o, p, false);
    fputs("#endif\n\n", o);
}

/* Whether the header needs tilec_vec.h: SIMT structs, or vectors passed to
 * or returned from SIMT functions. */
static bool header_needs_vec(const Program *p)
{
    if (p->nsimt_structs) return true;
    for (int i = 0; i < p->nsimt; i++) {
        const SimtFunc *sf = p->simt[i];
        if (sf->ret_agg) return true;
        for (int j = 0; sf->param_aggs && j < sf->f.nparams; j++)
            if (sf->param_aggs[j]) return true;
    }
    return false;
}

void simt_emit_header_types(FILE *o, const Program *p)
{
    if (!header_needs_vec(p)) return;
    fputs("#include \"tilec_vec.h\"\n\n", o);
    for (int i = 0; i < p->nsimt_structs; i++) {
        const SimtAgg *a = p->simt_structs[i];
        fprintf(o, "/* SIMT struct '%s' (%s:%d)%s */\n", a->name, emit_base_name(a->loc.file ? a->loc.file : "(stdin)"), a->loc.line,
                a->align ? ", aligned to at least SIMT_STRUCT_ALIGN's bytes" : "");
        fprintf(o, "#ifndef TILEC_STRUCT_%s_\n#define TILEC_STRUCT_%s_\ntypedef struct %s %s;\nstruct %s {\n", a->name, a->name, a->name,
                a->name, a->name);
        for (int j = 0; j < a->nfields; j++) {
            const SimtField *f = &a->fields[j];
            fputs("    ", o);
            if (j == 0 && a->align) fprintf(o, "TILEC_ALIGNAS(%d) ", a->align);
            fprintf(o, "%s %s", simt_type_text(f->type, f->agg), f->name);
            for (int k = 0; k < f->ndims; k++) fprintf(o, "[%" PRId64 "]", f->dims[k]);
            fputs(";\n", o);
        }
        fputs("};\n#endif\n\n", o);
    }
}
