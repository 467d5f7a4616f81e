/* simt.c: SIMT_KERNEL and SIMT_FUNC definitions, from libclang's cursors to
 * the SIMT tree (frontend/simt.h).  Their bodies are C, which clang has
 * typed and checked already; what this file adds is the SIMT subset's own
 * rules, each a diagnostic at the user's text: arrays are TILE_ARRAY
 * parameters read element by element (a[i] at rank 1, SIMT_AT at any rank),
 * local arrays of constant shape and SIMT_SHARED variables; no pointers
 * except `&element` as an atomic's first argument; no tile builtins; the
 * simt_* builtins with constant axes and memory orders. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/diag.h"
#include "frontend/simt_impl.h"
#include "sema/targetset.h"
#include "tilec_fp.h" /* a _Float16 literal's bits */

static const char *const builtin_names[SB_COUNT] = {
#define SIMT_B_(id, name) [SB_##id] = name,
    SIMT_BUILTINS(SIMT_B_)
#undef SIMT_B_
};

const char *simt_builtin_name(SimtBuiltin b)
{
    return b > SB_NONE && b < SB_COUNT ? builtin_names[b] : "?";
}

SimtBuiltin simt_builtin_lookup(const char *name)
{
    for (int b = SB_NONE + 1; b < SB_COUNT; b++)
        if (!strcmp(builtin_names[b], name)) return (SimtBuiltin)b;
    return SB_NONE;
}

static const char *const type_names[] = {
    [SIMT_NONE] = "?", [SIMT_VOID] = "void", [SIMT_BOOL] = "bool", [SIMT_SCHAR] = "signed char",
    [SIMT_UCHAR] = "unsigned char", [SIMT_SHORT] = "short", [SIMT_USHORT] = "unsigned short", [SIMT_INT] = "int",
    [SIMT_UINT] = "unsigned int", [SIMT_LONG] = "long", [SIMT_ULONG] = "unsigned long", [SIMT_LLONG] = "long long",
    [SIMT_ULLONG] = "unsigned long long", [SIMT_FLOAT] = "float", [SIMT_DOUBLE] = "double",
    [SIMT_HALF] = "_Float16", [SIMT_BF16] = "__bf16",
};

const char *simt_type_name(SimtType t) { return type_names[t]; }

SimtType simt_type_of_dtype(Dtype d)
{
    switch (d) {
    case DT_BOOL: return SIMT_BOOL;
    case DT_INT8: return SIMT_SCHAR;
    case DT_INT16: return SIMT_SHORT;
    case DT_INT32: return SIMT_INT;
    case DT_INT64: return SIMT_LLONG;
    case DT_UINT8: return SIMT_UCHAR;
    case DT_UINT16: return SIMT_USHORT;
    case DT_UINT32: return SIMT_UINT;
    case DT_UINT64: return SIMT_ULLONG;
    case DT_FLOAT32: return SIMT_FLOAT;
    case DT_FLOAT64: return SIMT_DOUBLE;
    case DT_FLOAT16: return SIMT_HALF;
    case DT_BFLOAT16: return SIMT_BF16;
    case DT_FLOAT8_E4M3FN: case DT_FLOAT8_E5M2: return SIMT_UCHAR; /* bytes, converted by simt_fp8_* */
    default: return SIMT_NONE;
    }
}

const char *simt_type_suffix(SimtType t)
{
    switch (t) {
    case SIMT_INT: return "i32";
    case SIMT_UINT: return "u32";
    case SIMT_LONG: case SIMT_LLONG: return "i64";
    case SIMT_ULONG: case SIMT_ULLONG: return "u64";
    case SIMT_FLOAT: return "f32";
    case SIMT_DOUBLE: return "f64";
    case SIMT_HALF: return "f16";
    case SIMT_BF16: return "bf16";
    default: return NULL;
    }
}

bool simt_type_is_float(SimtType t) { return t == SIMT_FLOAT || t == SIMT_DOUBLE || simt_type_is_narrow(t); }
bool simt_type_is_64(SimtType t) { return t == SIMT_LONG || t == SIMT_ULONG || t == SIMT_LLONG || t == SIMT_ULLONG || t == SIMT_DOUBLE; }

SimtType simt_scalar_ctype(CXType t)
{
    t = clang_getCanonicalType(t);
    /* SIMT_ATOMIC(T) (C's _Atomic): T, whose accesses are checked in sx_expr() */
    if (t.kind == CXType_Atomic) return simt_scalar_ctype(clang_Type_getValueType(t));
    if (t.kind == CXType_Unexposed) { /* libclang 19 has __bf16 unexposed */
        CXString sp = clang_getTypeSpelling(t);
        bool bf = !strcmp(clang_getCString(sp), "__bf16");
        clang_disposeString(sp);
        return bf ? SIMT_BF16 : SIMT_NONE;
    }
    switch (t.kind) {
    case CXType_Void: return SIMT_VOID;
    case CXType_Bool: return SIMT_BOOL;
    case CXType_Char_S: case CXType_SChar: return SIMT_SCHAR;
    case CXType_Char_U: case CXType_UChar: return SIMT_UCHAR;
    case CXType_Short: return SIMT_SHORT;
    case CXType_UShort: return SIMT_USHORT;
    case CXType_Int: return SIMT_INT;
    case CXType_UInt: return SIMT_UINT;
    case CXType_Long: return SIMT_LONG;
    case CXType_ULong: return SIMT_ULONG;
    case CXType_LongLong: return SIMT_LLONG;
    case CXType_ULongLong: return SIMT_ULLONG;
    case CXType_Float: return SIMT_FLOAT;
    case CXType_Double: return SIMT_DOUBLE;
    case CXType_Float16: return SIMT_HALF;
    case CXType_BFloat16: return SIMT_BF16; /* libclang after 19 */
    default: return SIMT_NONE;
    }
}

static SimtType ctype(CXType t) { return simt_scalar_ctype(t); }

Dtype simt_dtype_of_type(SimtType t)
{
    if (t == SIMT_LONG || t == SIMT_ULONG) t = t == SIMT_LONG ? SIMT_LLONG : SIMT_ULLONG; /* int64_t is a long on Linux */
    for (int d = DT_INVALID + 1; d < DT_COUNT; d++) /* the first: int8 for signed char, uint8 before the float8s */
        if (simt_type_of_dtype((Dtype)d) == t) return (Dtype)d;
    return DT_INVALID;
}

/* ---- the lowering's state ----------------------------------------------- */


SimtNode *sx_node(SCtx *s, SimtKind k, CXCursor c)
{
    SimtNode *n = arena_alloc(s->cx->arena, sizeof *n);
    n->kind = k;
    n->loc = fe_loc_of(s->cx, c);
    n->param = -1;
    return n;
}

SimtNode *sx_fail_at(SCtx *s, SrcLoc at, const char *fix, const char *msg)
{
    if (fix) diag_error_fix(at, fix, "%s", msg);
    else diag_error(at, "%s", msg);
    s->ok = false;
    return NULL;
}

SimtNode *sx_fail(SCtx *s, CXCursor c, const char *fix, const char *msg)
{
    return sx_fail_at(s, fe_loc_of(s->cx, c), fix, msg);
}

void sx_push(SCtx *s, SimtNode *parent, SimtNode *kid, int *cap)
{
    if (parent->nkids == *cap) {
        int nc = *cap ? 2 * *cap : 8;
        SimtNode **k = arena_alloc(s->cx->arena, sizeof *k * (size_t)nc);
        if (parent->nkids) memcpy(k, parent->kids, sizeof *k * (size_t)parent->nkids);
        parent->kids = k;
        *cap = nc;
    }
    parent->kids[parent->nkids++] = kid;
}

bool sx_eval_int(CXCursor c, int64_t *v, bool *is_unsigned)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r) return false;
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) {
        *is_unsigned = clang_EvalResult_isUnsignedInt(r);
        *v = *is_unsigned ? (int64_t)clang_EvalResult_getAsUnsigned(r) : clang_EvalResult_getAsLongLong(r);
    }
    clang_EvalResult_dispose(r);
    return ok;
}

/* An integer constant of type t as C text. */
SimtNode *sx_int_node(SCtx *s, CXCursor c, int64_t v, SimtType t)
{
    SimtNode *n = sx_node(s, SX_INT, c);
    n->type = t;
    Arena *a = s->cx->arena;
    switch (t) {
    case SIMT_UINT: n->text = arena_printf(a, "%" PRIu64 "u", (uint64_t)v & 0xffffffffu); break;
    case SIMT_ULONG: case SIMT_ULLONG: n->text = arena_printf(a, "%" PRIu64 "ull", (uint64_t)v); break;
    case SIMT_LONG: case SIMT_LLONG:
        n->text = v == INT64_MIN ? "(-9223372036854775807ll - 1)" : arena_printf(a, v < 0 ? "(%" PRId64 "ll)" : "%" PRId64 "ll", v);
        break;
    default:
        n->type = SIMT_INT;
        n->text = v == INT32_MIN ? "(-2147483647 - 1)" : arena_printf(a, v < 0 ? "(%" PRId64 ")" : "%" PRId64, v);
        break;
    }
    return n;
}

static SimtNode *float_node(SCtx *s, CXCursor c)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r || clang_EvalResult_getKind(r) != CXEval_Float) {
        if (r) clang_EvalResult_dispose(r);
        return sx_fail(s, c, NULL, "cannot read this floating-point literal");
    }
    double v = clang_EvalResult_getAsDouble(r);
    clang_EvalResult_dispose(r);
    SimtNode *n = sx_node(s, SX_FLOAT, c);
    SimtType t = ctype(clang_getCursorType(c));
    n->type = t == SIMT_FLOAT || simt_type_is_narrow(t) ? t : SIMT_DOUBLE;
    if (simt_type_is_narrow(n->type)) { /* 1.5f16: clang has rounded it already, so this is exact */
        if (v != v || v - v != 0) return sx_fail(s, c, NULL, "this floating-point literal is not finite");
        unsigned bits = t == SIMT_HALF ? tilec_f16_from_double(v, TILEC_RN) : tilec_bf16_from_double(v, TILEC_RN);
        n->text = arena_printf(s->cx->arena, "0x%04xu", bits);
        return n;
    }
    char buf[64];
    snprintf(buf, sizeof buf, n->type == SIMT_FLOAT ? "%.9g" : "%.17g", v);
    if (!strpbrk(buf, ".en")) strcat(buf, ".0"); /* 1e30 and 1.5 are floating already; 2 is not */
    if (strpbrk(buf, "n")) return sx_fail(s, c, NULL, "this floating-point literal is not finite");
    n->text = arena_printf(s->cx->arena, "%s%s", buf, n->type == SIMT_FLOAT ? "f" : "");
    return n;
}

char *sx_spelling(SCtx *s, CXCursor c) { return fe_str_take(s->cx, clang_getCursorSpelling(c)); }

bool sx_is_vector(CXType t) { return clang_getCanonicalType(t).kind == CXType_ExtVector; }

/* Whether c (an unexposed expression with one operand) is not an implicit
 * conversion but a vector's lane access (clang's ExtVectorElementExpr,
 * `v.x`, which libclang does not expose), or a conversion to or from a
 * vector (a splat): both end where their operand does not, or change
 * vector-ness. */
static bool vector_boundary(CXCursor c, CXCursor kid)
{
    bool vk = sx_is_vector(clang_getCursorType(kid)), vc = sx_is_vector(clang_getCursorType(c));
    if (vk != vc) return true;
    if (!vk) return false;
    unsigned ce, ke;
    clang_getFileLocation(clang_getRangeEnd(clang_getCursorExtent(c)), NULL, NULL, NULL, &ce);
    clang_getFileLocation(clang_getRangeEnd(clang_getCursorExtent(kid)), NULL, NULL, NULL, &ke);
    return ce != ke;
}

/* fe_strip, stopping at a vector's lane access and at splats. */
CXCursor sx_strip(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) return c;
        Kids *ks = fe_kids_of(c);
        if (ks->n != 1 || !clang_isExpression(clang_getCursorKind(ks->c[0])) ||
            (k == CXCursor_UnexposedExpr && vector_boundary(c, ks->c[0]))) {
            fe_kids_free(ks);
            return c;
        }
        c = ks->c[0];
        fe_kids_free(ks);
    }
}

static int param_index(SCtx *s, CXCursor decl)
{
    int np = clang_Cursor_getNumArguments(s->fn);
    for (int i = 0; i < np; i++)
        if (clang_equalCursors(clang_Cursor_getArgument(s->fn, (unsigned)i), decl)) return i;
    return -1;
}

static SimtNode *find_var(SCtx *s, CXCursor decl)
{
    for (int i = s->nvars - 1; i >= 0; i--)
        if (clang_equalCursors(s->vars[i].c, decl)) return s->vars[i].decl;
    return NULL;
}


/* The last expression child of c (a cast's operand, a declaration's
 * initializer), or a null cursor. */
static CXCursor last_expr_kid(CXCursor c)
{
    Kids *ks = fe_kids_of(c);
    CXCursor r = clang_getNullCursor();
    for (int i = 0; i < ks->n; i++)
        if (clang_isExpression(clang_getCursorKind(ks->c[i]))) r = ks->c[i];
    fe_kids_free(ks);
    return r;
}

static bool is_simt_call(SCtx *s, CXCursor c, const char *which)
{
    c = fe_strip(c);
    if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
    const char *n = sx_spelling(s, c);
    return which ? !strcmp(n, which) : !strncmp(n, "__tilec_simt_", 13);
}

/* ---- names and element access ------------------------------------------ */

static SimtNode *name_ref(SCtx *s, CXCursor c, int flags)
{
    CXCursor r = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(r);
    const char *name = sx_spelling(s, c);
    char msg[320], fix[320];
    if (k == CXCursor_EnumConstantDecl) {
        int64_t v;
        bool u;
        if (!sx_eval_int(c, &v, &u)) return sx_fail(s, c, NULL, "cannot evaluate this enumerator");
        return sx_int_node(s, c, v, SIMT_INT);
    }
    if (k == CXCursor_ParmDecl) {
        int i = param_index(s, r);
        if (i < 0) return sx_fail(s, c, NULL, "a parameter of another function");
        const Param *p = &s->sf->f.params[i];
        SimtNode *n = sx_node(s, SX_VAR, c);
        n->param = i;
        n->text = p->name;
        if (p->kind == PARAM_ARRAY) {
            if (!(flags & ALLOW_ARRAY)) {
                snprintf(msg, sizeof msg, "array parameter '%s' is used as a value; SIMT code reads and writes its elements", name);
                snprintf(fix, sizeof fix, p->rank == 1 ? "index it: '%s[i]'" : "index it: 'SIMT_AT(%s, i, ...)' with one index per dimension", name);
                return sx_fail(s, c, fix, msg);
            }
            n->kind = SX_ARRAY;
            return n;
        }
        if (s->sf->param_aggs && s->sf->param_aggs[i]) {
            n->agg = s->sf->param_aggs[i];
            n->type = n->agg->vector ? SIMT_VEC : SIMT_STRUCT;
        } else n->type = simt_type_of_dtype(p->type.dtype);
        return n;
    }
    if (k == CXCursor_VarDecl) {
        SimtNode *d = find_var(s, r);
        if (!d && clang_getCursorKind(clang_getCursorLexicalParent(r)) != CXCursor_TranslationUnit) {
            s->ok = false; /* a local (extern ones too) whose declaration was an error: reported there */
            return NULL;
        }
        if (!d) {
            snprintf(msg, sizeof msg, "global variable '%s' cannot be used in SIMT code", name);
            return sx_fail(s, c, "pass it as a kernel parameter, or use an enum or #define constant", msg);
        }
        SimtNode *n = sx_node(s, SX_VAR, c);
        n->decl = d;
        n->text = d->text;
        n->type = d->type;
        n->agg = d->agg;
        n->ndims = d->ndims;
        return n;
    }
    snprintf(msg, sizeof msg, "'%s' cannot be used as a value in SIMT code", name);
    return sx_fail(s, c, NULL, msg);
}

static SimtNode *subscript(SCtx *s, CXCursor c, int flags)
{
    Kids *ks = fe_kids_of(c);
    if (ks->n != 2) {
        fe_kids_free(ks);
        return sx_fail(s, c, NULL, "cannot read this subscript");
    }
    CXCursor base = sx_strip(ks->c[0]), idx = ks->c[1];
    fe_kids_free(ks);
    if (clang_getCursorKind(base) == CXCursor_DeclRefExpr && clang_getCursorKind(clang_getCursorReferenced(base)) == CXCursor_ParmDecl) {
        int pi = param_index(s, clang_getCursorReferenced(base));
        const Param *p = pi >= 0 ? &s->sf->f.params[pi] : NULL;
        if (p && p->kind == PARAM_ARRAY) {
            SimtNode *n = sx_node(s, SX_ELEM, c);
            n->param = pi;
            n->text = p->name;
            n->type = simt_type_of_dtype(p->type.dtype);
            if (s->sf->param_aggs && s->sf->param_aggs[pi]) { /* an array of vectors or structs */
                n->agg = s->sf->param_aggs[pi];
                n->type = n->agg->vector ? SIMT_VEC : SIMT_STRUCT;
            }
            int cap = 0;
            char msg[320], fix[320];
            if (is_simt_call(s, idx, "__tilec_simt_offset")) { /* SIMT_AT(a, i, ...) */
                CXCursor call = fe_strip(idx);
                int na = clang_Cursor_getNumArguments(call);
                if (na - 1 != p->rank) {
                    snprintf(msg, sizeof msg, "SIMT_AT of '%s' takes %d ind%s (its rank), not %d", p->name, p->rank,
                             p->rank == 1 ? "ex" : "ices", na - 1);
                    return sx_fail(s, call, NULL, msg);
                }
                for (int i = 1; i < na; i++) {
                    SimtNode *x = sx_expr(s, clang_Cursor_getArgument(call, (unsigned)i), 0);
                    if (!x) return NULL;
                    sx_push(s, n, x, &cap);
                }
                return n;
            }
            if (p->rank != 1) {
                snprintf(msg, sizeof msg, "array parameter '%s' has rank %d; a[i] indexes rank-1 arrays", p->name, p->rank);
                snprintf(fix, sizeof fix, "write 'SIMT_AT(%s, i, ...)' with %d indices", p->name, p->rank);
                return sx_fail(s, c, fix, msg);
            }
            SimtNode *x = sx_expr(s, idx, 0);
            if (!x) return NULL;
            sx_push(s, n, x, &cap);
            return n;
        }
    }
    if (is_simt_call(s, idx, "__tilec_simt_offset"))
        return sx_fail(s, c, "index local and shared arrays with a[i][j]", "SIMT_AT takes a TILE_ARRAY parameter");
    SimtNode *b = sx_expr(s, base, ALLOW_ROW);
    if (!b) return NULL;
    if (sx_is_vector(clang_getCursorType(base))) return sx_lane_at(s, c, b, idx);
    if (b->ndims < 1 || (b->kind != SX_VAR && b->kind != SX_INDEX && b->kind != SX_MEMBER))
        return sx_fail(s, c, NULL, "only arrays and vectors can be subscripted");
    SimtNode *n = sx_node(s, SX_INDEX, c);
    n->a = b;
    n->type = b->type;
    n->agg = b->agg;
    n->ndims = b->ndims - 1;
    if (!(n->b = sx_expr(s, idx, 0))) return NULL;
    /* a column-major array is stored transposed: only whole index chains
     * (m[i][j], reversed by codegen) name its elements */
    int depth = 1;
    const SimtNode *root = b;
    for (; root->kind == SX_INDEX; root = root->a) depth++;
    if (!(flags & ALLOW_ROW) && root->decl && root->decl->col_major && depth < root->decl->ndims) {
        char msg[320], fix[320];
        snprintf(msg, sizeof msg, "'%s' is a column-major array of %d dimensions; SIMT code reads its elements, not its rows",
                 root->text, root->decl->ndims);
        char ix[32] = "";
        for (int i = 0; i < root->decl->ndims; i++) snprintf(ix + 3 * i, sizeof ix - 3 * (size_t)i, "[%c]", "ijklmnop"[i]);
        snprintf(fix, sizeof fix, "index all %d dimensions: '%s%s'", root->decl->ndims, root->text, ix);
        return sx_fail(s, c, fix, msg);
    }
    return n;
}

/* ---- builtin calls ------------------------------------------------------ */

/* .memory_order and .scope of an atomic's option literal. */
static bool atomic_options(SCtx *s, SimtNode *n, CXCursor lit)
{
    n->order = n->builtin == SB_FENCE ? 5 : 1; /* TILE_RELAXED as tile atomics; a fence: TILE_SEQ_CST, as __threadfence */
    n->scope = 2; /* TILE_SCOPE_DEVICE */
    CXCursor init = clang_getNullCursor();
    Kids *ks = fe_kids_of(fe_strip(lit));
    for (int i = 0; i < ks->n; i++)
        if (clang_getCursorKind(ks->c[i]) == CXCursor_InitListExpr) init = ks->c[i];
    fe_kids_free(ks);
    if (clang_Cursor_isNull(init)) return true;
    Kids *items = fe_kids_of(init);
    bool ok = true;
    for (int i = 0; i < items->n && ok; i++) {
        Kids *d = fe_kids_of(items->c[i]);
        int64_t v = 0;
        bool u;
        if (d->n != 2 || clang_getCursorKind(d->c[0]) != CXCursor_MemberRef) {
            sx_fail(s, items->c[i], "write '.memory_order = TILE_ACQUIRE' or '.scope = TILE_SCOPE_BLOCK'",
                 "options of SIMT atomics and fences must be written as designated initializers");
            ok = false;
        } else if (!sx_eval_int(d->c[1], &v, &u)) {
            sx_fail(s, d->c[1], "use an enumerator of tilec.h, e.g. TILE_ACQ_REL", "a memory order and a scope must be constants");
            ok = false;
        } else {
            const char *f = sx_spelling(s, d->c[0]);
            bool order = !strcmp(f, "memory_order");
            if ((order && (v < 1 || v > 6)) || (!order && (v < 1 || v > 4))) {
                sx_fail(s, d->c[1], order ? "use TILE_RELAXED, TILE_CONSUME, TILE_ACQUIRE, TILE_RELEASE, TILE_ACQ_REL or TILE_SEQ_CST"
                                       : "use TILE_SCOPE_THREAD, TILE_SCOPE_BLOCK, TILE_SCOPE_DEVICE or TILE_SCOPE_SYSTEM",
                     order ? "not a memory order" : "not a thread scope");
                ok = false;
            } else if (order) n->order = v == 6 ? 2 : (int)v; /* consume: acquire, as C++ compilers do */
            else n->scope = (int)v;
        }
        fe_kids_free(d);
    }
    fe_kids_free(items);
    if (!ok) return false;
    /* C++'s rules: a load does not release, a store does not acquire */
    if (n->builtin == SB_ATOMIC_LOAD && (n->order == 3 || n->order == 4))
        return sx_fail(s, lit, "use TILE_ACQUIRE, TILE_SEQ_CST or TILE_RELAXED", "an atomic load cannot have release semantics"), false;
    if (n->builtin == SB_ATOMIC_STORE && (n->order == 2 || n->order == 4))
        return sx_fail(s, lit, "use TILE_RELEASE, TILE_SEQ_CST or TILE_RELAXED", "an atomic store cannot have acquire semantics"), false;
    return true;
}

static SimtNode *builtin(SCtx *s, CXCursor c, const char *name)
{
    SimtBuiltin b = simt_builtin_lookup(name);
    char msg[320];
    if (b == SB_NONE) {
        snprintf(msg, sizeof msg, "simt_%s is not supported by this version of tilec yet", name);
        return sx_fail(s, c, NULL, msg);
    }
    SimtNode *n = sx_node(s, SX_BUILTIN, c);
    n->builtin = b;
    n->type = ctype(clang_getCursorType(c));
    int na = clang_Cursor_getNumArguments(c), cap = 0;
    bool atomic = simt_is_atomic(b);
    if (atomic || b == SB_FENCE) na--; /* the options */
    /* the operands tilec.h passes as double or unsigned long long */
    bool bits = b == SB_POPC || b == SB_CLZ || b == SB_FFS || b == SB_BREV;
    bool xchg = (b >= SB_SHFL && b <= SB_SHFL_XOR) || b == SB_MATCH_ANY || b == SB_MATCH_ALL;
    for (int i = 0; i < na; i++) {
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
        bool value = atomic ? i > 0 : xchg ? i == 1 : bits && i == 0;
        SimtNode *x = sx_expr(s, a, atomic && i == 0 ? ALLOW_ADDR : b == SB_SHAPE && i == 0 ? ALLOW_ARRAY : value ? ARG_VALUE : 0);
        if (!x) return NULL;
        /* a value's type is the operand's, before tilec.h's conversion to double */
        x->type = x->type ? x->type : ctype(clang_getCursorType(fe_strip(a)));
        sx_push(s, n, x, &cap);
    }
    switch (b) {
    case SB_THREAD_IDX: case SB_BLOCK_IDX: case SB_BLOCK_DIM: case SB_GRID_DIM: case SB_TID: case SB_GRID_SIZE: {
        int64_t v;
        bool u;
        CXCursor a = clang_Cursor_getArgument(c, 0);
        if (!sx_eval_int(a, &v, &u))
            return sx_fail(s, a, "write 0 (x), 1 (y) or 2 (z)", "the axis of a thread position must be a constant");
        if (v < 0 || v > 2) {
            snprintf(msg, sizeof msg, "axis %" PRId64 " of simt_%s is out of range", v, name);
            return sx_fail(s, a, "write 0 (x), 1 (y) or 2 (z)", msg);
        }
        n->order = (int)v;
        break;
    }
    case SB_SHAPE: {
        int64_t v;
        bool u;
        CXCursor a = clang_Cursor_getArgument(c, 1);
        if (n->kids[0]->kind != SX_ARRAY)
            return sx_fail(s, clang_Cursor_getArgument(c, 0), "pass a TILE_ARRAY parameter", "simt_shape takes an array parameter");
        int rank = s->sf->f.params[n->kids[0]->param].rank;
        if (!sx_eval_int(a, &v, &u) || v < 0 || v >= rank) {
            snprintf(msg, sizeof msg, "the dimension of simt_shape must be a constant from 0 to %d (the array's rank less 1)", rank - 1);
            return sx_fail(s, a, NULL, msg);
        }
        n->order = (int)v;
        n->type = SIMT_LLONG;
        break;
    }
    case SB_SHFL: case SB_SHFL_UP: case SB_SHFL_DOWN: case SB_SHFL_XOR: case SB_MATCH_ANY: case SB_MATCH_ALL:
        if (!simt_type_suffix(n->kids[1]->type)) {
            snprintf(msg, sizeof msg, "simt_%s exchanges 32- and 64-bit integers and floating-point values, not '%s'", name,
                     simt_type_name(n->kids[1]->type));
            return sx_fail(s, clang_Cursor_getArgument(c, 1), "convert the value to int, unsigned, long long, float or double", msg);
        }
        if (b != SB_MATCH_ANY && b != SB_MATCH_ALL) n->type = n->kids[1]->type;
        break;
    case SB_POPC: case SB_CLZ: case SB_FFS: case SB_BREV: {
        SimtType t = n->kids[0]->type;
        if (t == SIMT_NONE || simt_type_is_float(t) || t == SIMT_BOOL)
            return sx_fail(s, clang_Cursor_getArgument(c, 0), NULL, "bit operations take an integer operand");
        if (b == SB_BREV) n->type = simt_type_is_64(t) ? SIMT_ULLONG : SIMT_UINT;
        break;
    }
    default: break;
    }
    if (b == SB_FENCE) { /* seed 001's threadfence(memory, scope) */
        if (!atomic_options(s, n, clang_Cursor_getArgument(c, (unsigned)na))) return NULL;
        if (n->order == 1)
            return sx_fail(s, c, "give TILE_ACQUIRE, TILE_RELEASE, TILE_ACQ_REL or TILE_SEQ_CST", "a relaxed fence orders nothing");
        return n;
    }
    if (!atomic) return n;
    SimtNode *p = n->kids[0];
    if (p->kind != SX_ADDR) {
        snprintf(msg, sizeof msg, "the first argument of simt_%s is the address of the element to update", name);
        return sx_fail(s, clang_Cursor_getArgument(c, 0), "write '&a[i]', '&SIMT_AT(a, i, j)' or '&shared_variable'", msg);
    }
    SimtType t = p->a->type;
    const char *suf = simt_type_suffix(t);
    bool bitwise = b == SB_ATOMIC_AND || b == SB_ATOMIC_OR || b == SB_ATOMIC_XOR;
    if (!suf || (bitwise && simt_type_is_float(t))) {
        snprintf(msg, sizeof msg, "simt_%s needs an element of type %s, not '%s'", name,
                 bitwise ? "int32, uint32, int64 or uint64" : "int32, uint32, int64, uint64, float16, bfloat16, float32 or float64",
                 simt_type_name(t));
        return sx_fail(s, clang_Cursor_getArgument(c, 0), NULL, msg);
    }
    if (p->a->kind == SX_ELEM && s->sf->f.params[p->a->param].readonly) {
        snprintf(msg, sizeof msg, "array '%s' is read-only (const elements); atomics write", p->a->text);
        return sx_fail(s, clang_Cursor_getArgument(c, 0), "drop the const of its TILE_ARRAY element type", msg);
    }
    n->type = b == SB_ATOMIC_STORE ? SIMT_VOID : t;
    return atomic_options(s, n, clang_Cursor_getArgument(c, (unsigned)na)) ? n : NULL;
}

/* <math.h> functions both CUDA and C have, with the same name and types. */
static const char *const math_fns[] = {
    "sqrt", "sqrtf", "cbrt", "cbrtf", "exp", "expf", "exp2", "exp2f", "log", "logf", "log2", "log2f", "sin", "sinf",
    "cos", "cosf", "tan", "tanf", "tanh", "tanhf", "pow", "powf", "fma", "fmaf", "fabs", "fabsf", "floor", "floorf",
    "ceil", "ceilf", "fmin", "fminf", "fmax", "fmaxf", "round", "roundf", "trunc", "truncf", "fmod", "fmodf", NULL,
};

static SimtNode *call(SCtx *s, CXCursor c)
{
    const char *name = sx_spelling(s, c);
    char msg[320], fix[320];
    if (!strncmp(name, "__tilec_simt_", 13)) {
        if (!strcmp(name, "__tilec_simt_offset")) return sx_fail(s, c, "write 'SIMT_AT(a, i, ...)' as an expression of its own", "SIMT_AT's offset used alone");
        return builtin(s, c, name + 13);
    }
    if (!strncmp(name, "__tilec_", 8)) {
        snprintf(msg, sizeof msg, "tile_%s is a tile builtin; SIMT code cannot call it", name + 8);
        return sx_fail(s, c, "use C and the simt_* builtins in SIMT code, or write a TILE_KERNEL", msg);
    }
    SimtNode *n = sx_node(s, SX_CALL, c);
    n->text = name;
    n->type = fe_simt_type(s->cx, clang_getCursorType(c), c, &n->agg, &s->ok);
    if (!s->ok) return NULL;
    CXCursor callee = clang_getCursorReferenced(c);
    const SimtFunc *target = NULL;
    for (int i = 0; i < s->cx->prog->nsimt; i++)
        if (!strcmp(s->cx->prog->simt[i]->f.name, name) && !s->cx->prog->simt[i]->f.is_kernel) target = s->cx->prog->simt[i];
    if (!target) {
        for (int i = 0; math_fns[i]; i++)
            if (!strcmp(math_fns[i], name)) n->kind = SX_MATH;
        if (n->kind != SX_MATH) {
            bool annotated = !clang_Cursor_isNull(callee) && fe_annotation(callee, "tilec.simt_func", NULL, s->cx);
            if (!strcmp(name, s->sf->f.name)) {
                snprintf(msg, sizeof msg, "recursive call of SIMT function '%s': recursion is not supported in SIMT code", name);
                return sx_fail(s, c, "write it as a loop", msg);
            }
            for (int i = 0; i < s->cx->nsimt_bad; i++)
                if (!strcmp(s->cx->simt_bad[i], name)) { /* reported at its definition */
                    s->ok = false;
                    return NULL;
                }
            snprintf(msg, sizeof msg, annotated ? "SIMT function '%s' is called before its definition, or its definition has errors"
                                                : "call to '%s', which is not a SIMT function", name);
            snprintf(fix, sizeof fix, annotated ? "define '%s' above its first call" : "mark the function SIMT_FUNC", name);
            return sx_fail(s, c, fix, msg);
        }
    }
    int na = clang_Cursor_getNumArguments(c), cap = 0;
    for (int i = 0; i < na; i++) {
        bool arr = target && i < target->f.nparams && target->f.params[i].kind == PARAM_ARRAY;
        SimtNode *x = sx_expr(s, clang_Cursor_getArgument(c, (unsigned)i), arr ? ALLOW_ARRAY : 0);
        if (!x) return NULL;
        if (arr && x->kind != SX_ARRAY) {
            snprintf(msg, sizeof msg, "parameter '%s' of '%s' is an array: pass an array parameter of the caller",
                     target->f.params[i].name, name);
            return sx_fail(s, clang_Cursor_getArgument(c, (unsigned)i), NULL, msg);
        }
        if (arr) {
            const Param *mine = &s->sf->f.params[x->param], *theirs = &target->f.params[i];
            const SimtAgg *ma = s->sf->param_aggs ? s->sf->param_aggs[x->param] : NULL,
                          *ta = target->param_aggs ? target->param_aggs[i] : NULL;
            bool lanes_differ = (ma == NULL) != (ta == NULL) || (ma && (ma->lanes != ta->lanes || ma->vector != ta->vector)) ||
                                (ma && !ma->vector && ma != ta);
            if (mine->rank != theirs->rank || mine->type.dtype != theirs->type.dtype || (mine->readonly && !theirs->readonly) || lanes_differ) {
                snprintf(msg, sizeof msg, "array '%s' does not match parameter '%s' of '%s' (element type, rank or const)",
                         mine->name, theirs->name, name);
                return sx_fail(s, clang_Cursor_getArgument(c, (unsigned)i), NULL, msg);
            }
        }
        sx_push(s, n, x, &cap);
    }
    return n;
}

/* ---- expressions -------------------------------------------------------- */

/* n as a condition (if, loops, !, &&, ||, ?:): C compares a scalar with 0,
 * which CUDA's __half and __nv_bfloat16 do not do implicitly, so a narrow
 * float becomes an explicit (bool)n. */
static SimtNode *truth(SCtx *s, SimtNode *n)
{
    if (!n || !simt_type_is_narrow(n->type)) return n;
    SimtNode *b = arena_alloc(s->cx->arena, sizeof *b);
    b->kind = SX_CAST;
    b->loc = n->loc;
    b->param = -1;
    b->type = SIMT_BOOL;
    b->a = n;
    return b;
}

/* Whether operands x and y of c are a _Float16 and a __bf16: clang converts
 * the __bf16 one to _Float16 (bfloat16's range lost), CUDA has no such
 * conversion, so SIMT code asks for an explicit one (an error). */
static bool mixed_narrow(SCtx *s, CXCursor c, CXCursor x, CXCursor y)
{
    SimtType a = ctype(clang_getCursorType(fe_strip(x))), b = ctype(clang_getCursorType(fe_strip(y)));
    if (!simt_type_is_narrow(a) || !simt_type_is_narrow(b) || a == b) return false;
    CXCursor bf = fe_strip(a == SIMT_BF16 ? x : y); /* named in the fix when it is a name */
    char fix[320];
    snprintf(fix, sizeof fix, "convert one operand explicitly, e.g. to float: '(float)%s'",
             clang_getCursorKind(bf) == CXCursor_DeclRefExpr ? sx_spelling(s, bf) : "x");
    sx_fail(s, c, fix, "operands of types _Float16 and __bf16: SIMT code does not convert one to the other implicitly");
    return true;
}

static SimtNode *expr_of(SCtx *s, CXCursor c, int flags);

/* c without its parentheses and implicit conversions (as sx_strip), except
 * the conversions to or from a narrow float, which become explicit casts:
 * C converts implicitly where CUDA's __half and __nv_bfloat16 take a call,
 * and the host target emulates every one.  ARG_VALUE skips the first: the
 * one to a builtin's generic parameter. */
/* 1 when t is tilec_fp8_e4m3 (maybe const), 2 for tilec_fp8_e5m2, else 0:
 * clang sees unsigned char, the sugar of the typedef tells float8. */
static int fp8_kind(CXType t)
{
    CXString sp = clang_getTypeSpelling(t);
    const char *n = clang_getCString(sp);
    int r = strstr(n, "tilec_fp8_e4m3") ? 1 : strstr(n, "tilec_fp8_e5m2") ? 2 : 0;
    clang_disposeString(sp);
    return r;
}

SimtNode *sx_expr(SCtx *s, CXCursor c, int flags)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) break;
        Kids *ks = fe_kids_of(c);
        bool one = ks->n == 1 && clang_isExpression(clang_getCursorKind(ks->c[0]));
        CXCursor in = one ? ks->c[0] : c;
        fe_kids_free(ks);
        if (!one || (k == CXCursor_UnexposedExpr && vector_boundary(c, in))) break; /* v.x, a splat: sx_vector_access */
        SimtType to = ctype(clang_getCursorType(c)), from = ctype(clang_getCursorType(in));
        bool bytes = k == CXCursor_UnexposedExpr && (to == SIMT_UCHAR || from == SIMT_UCHAR); /* a float8 is one */
        int f8 = bytes ? fp8_kind(clang_getCursorType(in)) : 0, t8 = bytes ? fp8_kind(clang_getCursorType(c)) : 0;
        if (f8 != t8 && to > SIMT_VOID && from > SIMT_VOID) { /* a float8 byte converted as a number: the byte's value, not the float8's */
            const char *ty = (f8 ? f8 : t8) == 1 ? "e4m3" : "e5m2";
            char msg[320], fix[320];
            snprintf(msg, sizeof msg, "a float8 %s value is a byte in C; SIMT code converts it %s float explicitly", ty, f8 ? "to" : "from");
            snprintf(fix, sizeof fix, f8 ? "write simt_fp8_%s_to_float(x)" : "write simt_fp8_%s_from_float(x)", ty);
            return sx_fail(s, c, fix, msg);
        }
        if (to != from && to > SIMT_VOID && from > SIMT_VOID && (simt_type_is_narrow(to) || simt_type_is_narrow(from))) {
            if (flags & ARG_VALUE) {
                flags &= ~ARG_VALUE;
                c = in;
                continue;
            }
            SimtNode *n = sx_node(s, SX_CAST, c);
            n->type = to;
            return (n->a = sx_expr(s, in, 0)) ? n : NULL;
        }
        c = in;
    }
    return expr_of(s, c, flags & ~ARG_VALUE);
}

static SimtNode *expr_of(SCtx *s, CXCursor c, int flags)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    SimtType t = ctype(clang_getCursorType(c));
    switch (k) {
    case CXCursor_IntegerLiteral: case CXCursor_CharacterLiteral: case CXCursor_CXXBoolLiteralExpr: /* C23 true, false */
    case CXCursor_UnaryExpr: { /* sizeof, _Alignof */
        int64_t v;
        bool u;
        if (k == CXCursor_UnaryExpr) { /* of a vector or struct: CUDA's layout, not clang's (float32x3 is 12 bytes) */
            Kids *ks = fe_kids_of(c);
            CXType ot = ks->n ? clang_getCursorType(ks->c[0]) : clang_getCursorType(c);
            fe_kids_free(ks);
            int64_t dims = 1;
            while (clang_getCanonicalType(ot).kind == CXType_ConstantArray) {
                dims *= clang_getArraySize(clang_getCanonicalType(ot));
                ot = clang_getArrayElementType(clang_getCanonicalType(ot));
            }
            enum CXTypeKind tk = clang_getCanonicalType(ot).kind;
            if (tk == CXType_ExtVector || tk == CXType_Record) {
                const SimtAgg *agg;
                SimtType at = fe_simt_type(s->cx, ot, c, &agg, &s->ok);
                if (at == SIMT_NONE) return s->ok ? sx_fail(s, c, NULL, "sizeof of a type SIMT code does not have") : NULL;
                int64_t size, align, whole = 0, one = clang_Type_getSizeOf(ot);
                simt_layout(at, agg, &size, &align);
                if (sx_eval_int(c, &whole, &u) && one > 0) dims = whole / one; /* sizeof(T[3]) names T alone */
                CXToken *toks = NULL;
                unsigned nt = 0;
                clang_tokenize(s->cx->tu, clang_getCursorExtent(c), &toks, &nt);
                bool is_size = nt && !strcmp(fe_str_take(s->cx, clang_getTokenSpelling(s->cx->tu, toks[0])), "sizeof");
                if (toks) clang_disposeTokens(s->cx->tu, toks, nt);
                return sx_int_node(s, c, is_size ? size * dims : align, t);
            }
        }
        if (!sx_eval_int(c, &v, &u)) return sx_fail(s, c, NULL, "cannot evaluate this constant");
        return sx_int_node(s, c, v, t);
    }
    case CXCursor_FloatingLiteral: return float_node(s, c);
    case CXCursor_DeclRefExpr: case CXCursor_ArraySubscriptExpr: case CXCursor_MemberRefExpr: {
        /* an object of SIMT_ATOMIC type (seed 001's Atomic) is accessed through atomics only */
        bool is_atomic = clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Atomic;
        if (is_atomic && !(flags & ALLOW_ATOMIC)) {
            char msg[320];
            snprintf(msg, sizeof msg, "'%s' is SIMT_ATOMIC: it is read and written by atomics only", sx_spelling(s, c));
            return sx_fail(s, c, "use simt_atomic_load(&x), simt_atomic_store(&x, v) or another simt_atomic_*", msg);
        }
        return k == CXCursor_DeclRefExpr ? name_ref(s, c, flags) : k == CXCursor_MemberRefExpr ? sx_member(s, c) : subscript(s, c, flags);
    }
    case CXCursor_CallExpr: return call(s, c);
    case CXCursor_CompoundLiteralExpr: return sx_compound_literal(s, c);
    case CXCursor_UnexposedExpr: return sx_vector_access(s, c);
    case CXCursor_InitListExpr:
        return sx_fail(s, c, "write a compound literal, e.g. (float32x4){a, b, c, d}", "a brace list here is not an initializer");
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        Kids *ks = fe_kids_of(c);
        CXCursor a = ks->n ? ks->c[0] : clang_getNullCursor();
        fe_kids_free(ks);
        if (op == CXUnaryOperator_AddrOf) {
            if (!(flags & ALLOW_ADDR))
                return sx_fail(s, c, "pointers exist in SIMT code only as an atomic's operand, e.g. simt_atomic_add(&a[i], v)",
                            "address-of '&' is not allowed here in SIMT code");
            SimtNode *x = sx_expr(s, a, ALLOW_ATOMIC);
            if (!x) return NULL;
            const SimtNode *root = x; /* a field (or lane) of one of those: seed 001's atomic struct members */
            while (root->kind == SX_MEMBER) root = root->a;
            bool shared_scalar = root->kind == SX_VAR && root->decl && root->decl->shared && root->decl->ndims == 0;
            if ((root->kind != SX_ELEM && root->kind != SX_INDEX && !shared_scalar) || x->type == SIMT_VEC || x->type == SIMT_STRUCT)
                return sx_fail(s, c, "write '&a[i]', '&SIMT_AT(a, i, j)' or '&shared_variable'",
                            "an atomic updates an array element or a shared variable");
            SimtNode *n = sx_node(s, SX_ADDR, c);
            n->a = x;
            return n;
        }
        if (op == CXUnaryOperator_Deref) return sx_fail(s, c, "index arrays instead", "pointer dereference '*' is not allowed in SIMT code");
        if (t == SIMT_NONE && !clang_Cursor_isNull(a) && clang_getCanonicalType(clang_getCursorType(a)).kind != CXType_Pointer)
            return sx_fail(s, c, "apply it to the lanes or fields one at a time", "operators apply to scalars in SIMT code, not to vectors or structs");
        bool post = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec;
        if (!post && op != CXUnaryOperator_PreInc && op != CXUnaryOperator_PreDec && op != CXUnaryOperator_Plus &&
            op != CXUnaryOperator_Minus && op != CXUnaryOperator_Not && op != CXUnaryOperator_LNot)
            return sx_fail(s, c, NULL, "this operator is not supported in SIMT code");
        SimtNode *n = sx_node(s, post ? SX_POSTFIX : SX_UNARY, c);
        n->text = fe_str_take(s->cx, clang_getUnaryOperatorKindSpelling(op));
        n->type = t;
        n->a = sx_expr(s, a, 0);
        if (op == CXUnaryOperator_LNot) n->a = truth(s, n->a);
        return n->a ? n : NULL;
    }
    case CXCursor_BinaryOperator: case CXCursor_CompoundAssignOperator: {
        Kids *ks = fe_kids_of(c);
        if (ks->n != 2) {
            fe_kids_free(ks);
            return sx_fail(s, c, NULL, "cannot read this operator");
        }
        SimtNode *n = sx_node(s, SX_BINARY, c);
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
        n->text = fe_str_take(s->cx, clang_getBinaryOperatorKindSpelling(op));
        n->type = t;
        bool mixed = op != CXBinaryOperator_Assign && op != CXBinaryOperator_Comma && mixed_narrow(s, c, ks->c[0], ks->c[1]);
        n->a = mixed ? NULL : sx_expr(s, ks->c[0], 0);
        n->b = n->a ? sx_expr(s, ks->c[1], 0) : NULL;
        fe_kids_free(ks);
        if (!n->a || !n->b) return NULL;
        if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) n->a = truth(s, n->a), n->b = truth(s, n->b);
        bool whole = n->a->type == SIMT_VEC || n->a->type == SIMT_STRUCT || n->b->type == SIMT_VEC || n->b->type == SIMT_STRUCT;
        if (whole && strcmp(n->text, "=") != 0 && strcmp(n->text, ",") != 0)
            return sx_fail(s, c, "apply it to the lanes or fields one at a time",
                        "operators apply to scalars in SIMT code, not to vectors or structs (which are assigned whole)");
        if (whole) {
            const SimtNode *r = !strcmp(n->text, ",") ? n->b : n->a;
            n->type = r->type;
            n->agg = r->agg;
        }
        return n;
    }
    case CXCursor_ConditionalOperator: {
        Kids *ks = fe_kids_of(c);
        SimtNode *n = sx_node(s, SX_COND, c);
        n->type = t;
        bool ok = ks->n == 3 && !mixed_narrow(s, c, ks->c[1], ks->c[2]) && (n->a = truth(s, sx_expr(s, ks->c[0], 0))) &&
                  (n->b = sx_expr(s, ks->c[1], 0)) && (n->c = sx_expr(s, ks->c[2], 0));
        fe_kids_free(ks);
        if (ok && (n->b->type == SIMT_VEC || n->b->type == SIMT_STRUCT)) {
            n->type = n->b->type;
            n->agg = n->b->agg;
        }
        return ok ? n : NULL;
    }
    case CXCursor_CStyleCastExpr: {
        CXCursor a = last_expr_kid(c);
        /* tilec.h's (__typeof__(v)) around a builtin whose C declaration
         * returns double: the builtin has v's type already */
        if (is_simt_call(s, a, NULL) && strstr(fe_str_take(s->cx, clang_getTypeSpelling(clang_getCursorType(c))), "typeof"))
            return sx_expr(s, a, flags);
        if (t == SIMT_NONE) return sx_fail(s, c, NULL, "SIMT code casts only to scalar types (and void)");
        SimtNode *n = sx_node(s, SX_CAST, c);
        n->type = t;
        return (n->a = sx_expr(s, a, 0)) ? n : NULL;
    }
    default: {
        char msg[200];
        snprintf(msg, sizeof msg, "this expression (%s) is not supported in SIMT code",
                 fe_str_take(s->cx, clang_getCursorKindSpelling(k)));
        return sx_fail(s, c, NULL, msg);
    }
    }
}

/* ---- statements --------------------------------------------------------- */

static bool stmt_into(SCtx *s, CXCursor c, SimtNode *block, int *cap);

static SimtNode *single(SCtx *s, CXCursor c)
{
    SimtNode *b = sx_node(s, SS_BLOCK, c);
    int cap = 0;
    if (!stmt_into(s, c, b, &cap)) return NULL;
    return b->nkids == 1 ? b->kids[0] : b;
}

static SimtNode *var_decl(SCtx *s, CXCursor c)
{
    SimtNode *d = sx_node(s, SS_DECL, c);
    const char *name = sx_spelling(s, c);
    d->text = name;
    d->loc = fe_loc_of(s->cx, c);
    char msg[320];
    d->shared = fe_annotation(c, "tilec.shared", NULL, s->cx);
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(c);
    CXType t = clang_getCursorType(c);
    while (t.kind == CXType_ConstantArray && d->ndims < 8) {
        d->dims[d->ndims++] = clang_getArraySize(t);
        t = clang_getArrayElementType(t);
    }
    if (t.kind == CXType_IncompleteArray && d->ndims == 0) {
        d->dynamic = true;
        d->ndims = 1;
        t = clang_getArrayElementType(t);
    }
    d->type = fe_simt_type(s->cx, t, c, &d->agg, &s->ok);
    if (!s->ok) return NULL;
    d->is_const = clang_isConstQualifiedType(t);
    if (d->type == SIMT_NONE || d->type == SIMT_VOID) {
        snprintf(msg, sizeof msg, "variable '%s' has type '%s'; SIMT code has scalars of C's arithmetic types, vectors, structs and arrays of them",
                 name, fe_str_take(s->cx, clang_getTypeSpelling(clang_getCursorType(c))));
        return sx_fail(s, c, NULL, msg);
    }
    if (d->dynamic != (sc == CX_SC_Extern) || (d->dynamic && !d->shared)) {
        return sx_fail(s, c, "declare the launch's dynamic shared memory as 'SIMT_SHARED extern T name[];'",
                    "only SIMT_SHARED arrays of unknown size may be extern");
    }
    if (sc == CX_SC_Static && !d->shared)
        return sx_fail(s, c, "declare it SIMT_SHARED to share it across the block, or drop 'static'",
                    "static local variables are not allowed in SIMT code");
    if (d->shared && !s->sf->f.is_kernel)
        return sx_fail(s, c, "declare it in the kernel", "shared variables belong to SIMT kernels, not SIMT functions");
    if (!sx_layout(s, c, d, t)) return NULL;
    CXCursor init = clang_Cursor_getVarDeclInitializer(c);
    if (!clang_Cursor_isNull(init)) {
        if (d->shared) return sx_fail(s, c, "assign it in the body (after a barrier before it is read)", "shared variables cannot be initialized");
        if (d->ndims || d->type == SIMT_VEC || d->type == SIMT_STRUCT) d->a = sx_init_list(s, sx_strip(init), d->type, d->agg, d->ndims);
        else d->a = sx_expr(s, init, 0);
        if (!d->a || !sx_layout_init(s, d)) return NULL;
    }
    if (d->shared) {
        SimtFunc *f = s->sf;
        SimtNode **ns = arena_alloc(s->cx->arena, sizeof *ns * (size_t)(f->nshared + 1));
        if (f->nshared) memcpy(ns, f->shared, sizeof *ns * (size_t)f->nshared);
        d->id = f->nshared;
        ns[f->nshared++] = d;
        f->shared = ns;
        f->uses_dyn |= d->dynamic;
    }
    if (s->nvars == s->capvars) {
        s->capvars = s->capvars ? 2 * s->capvars : 32;
        Var *nv = arena_alloc(s->cx->arena, sizeof *nv * (size_t)s->capvars);
        if (s->nvars) memcpy(nv, s->vars, sizeof *nv * (size_t)s->nvars);
        s->vars = nv;
    }
    s->vars[s->nvars++] = (Var){c, d};
    return d;
}

/* Whether cond is `tile_target(desc)`: then n becomes a target if (its
 * set in n->targets, or s->ok false after an error), as in tile code. */
static bool target_cond(SCtx *s, CXCursor cond, SimtNode *n)
{
    CXCursor c = fe_strip(cond);
    if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
    char *name = fe_str_take(s->cx, clang_getCursorSpelling(c));
    if (strcmp(name, "__tilec_target") != 0) return false;
    Expr *e = fe_lower_expr(s->cx, c); /* the description as tile code's frontend sees it */
    if (!e) {
        s->ok = false;
        return true;
    }
    if (!targetset_eval(e->args[0], &n->targets)) {
        s->ok = false;
        return true;
    }
    n->target = true;
    return true;
}

static bool stmt_into(SCtx *s, CXCursor c, SimtNode *block, int *cap)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    SimtNode *n = NULL;
    Kids *ks = fe_kids_of(c);
    bool ok = true;
    switch (k) {
    case CXCursor_CompoundStmt: {
        n = sx_node(s, SS_BLOCK, c);
        int ncap = 0, mark = s->nvars;
        for (int i = 0; i < ks->n; i++)
            if (!stmt_into(s, ks->c[i], n, &ncap)) ok = false;
        s->nvars = mark; /* the block's names go out of scope */
        break;
    }
    case CXCursor_DeclStmt:
        for (int i = 0; i < ks->n; i++) {
            if (clang_getCursorKind(ks->c[i]) != CXCursor_VarDecl) {
                sx_fail(s, ks->c[i], NULL, "only variables may be declared in SIMT code");
                ok = false;
                continue;
            }
            SimtNode *d = var_decl(s, ks->c[i]);
            if (!d) ok = false;
            else sx_push(s, block, d, cap);
        }
        fe_kids_free(ks);
        return ok;
    case CXCursor_IfStmt:
        n = sx_node(s, SS_IF, c);
        if (ks->n >= 2 && target_cond(s, ks->c[0], n)) {
            if (!s->ok) { ok = false; break; }
            ok = (n->b = single(s, ks->c[1])) && (ks->n < 3 || (n->c = single(s, ks->c[2])));
            break;
        }
        ok = ks->n >= 2 && (n->a = truth(s, sx_expr(s, ks->c[0], 0))) && (n->b = single(s, ks->c[1])) &&
             (ks->n < 3 || (n->c = single(s, ks->c[2])));
        break;
    case CXCursor_WhileStmt:
        n = sx_node(s, SS_WHILE, c);
        ok = ks->n == 2 && (n->a = truth(s, sx_expr(s, ks->c[0], 0))) && (n->b = single(s, ks->c[1]));
        break;
    case CXCursor_DoStmt:
        n = sx_node(s, SS_DO, c);
        ok = ks->n == 2 && (n->b = single(s, ks->c[0])) && (n->a = truth(s, sx_expr(s, ks->c[1], 0)));
        break;
    case CXCursor_ForStmt: {
        unsigned semi[2], rparen;
        bool spelling;
        n = sx_node(s, SS_FOR, c);
        if (!fe_for_header(s->cx, c, semi, &rparen, &spelling)) {
            sx_fail(s, c, NULL, "cannot understand this for statement (is its header made by a macro?)");
            ok = false;
            break;
        }
        int mark = s->nvars;
        for (int i = 0; i < ks->n && ok; i++) {
            CXCursor x = ks->c[i];
            unsigned off = fe_for_offset(x, spelling);
            if (off < semi[0]) {
                SimtNode *b = sx_node(s, SS_BLOCK, x);
                int bc = 0;
                ok = stmt_into(s, x, b, &bc);
                if (ok && b->nkids != 1) ok = !!sx_fail(s, x, "declare the other variables before the loop", "declare one variable in a for header");
                if (ok) n->a = b->kids[0];
            } else if (off < semi[1]) ok = (n->b = truth(s, sx_expr(s, x, 0))) != NULL;
            else if (off < rparen) ok = (n->c = sx_expr(s, x, 0)) != NULL;
            else ok = (n->d = single(s, x)) != NULL;
        }
        s->nvars = mark;
        break;
    }
    case CXCursor_ReturnStmt:
        n = sx_node(s, SS_RETURN, c);
        if (ks->n) ok = (n->a = sx_expr(s, ks->c[0], 0)) != NULL;
        break;
    case CXCursor_BreakStmt: n = sx_node(s, SS_BREAK, c); break;
    case CXCursor_ContinueStmt: n = sx_node(s, SS_CONTINUE, c); break;
    case CXCursor_NullStmt: n = sx_node(s, SS_EMPTY, c); break;
    default:
        if (clang_isExpression(k)) {
            n = sx_node(s, SS_EXPR, c);
            ok = (n->a = sx_expr(s, c, 0)) != NULL;
        } else if (k == CXCursor_LabelStmt && s->cx->goto_reported) {
            ok = false; /* the label of a goto already reported */
        } else {
            sx_fail(s, c, k == CXCursor_GotoStmt ? "use a loop with break or continue, or an if" : NULL,
                 k == CXCursor_SwitchStmt ? "switch statements are not supported in SIMT code yet; use if/else"
                 : k == CXCursor_GotoStmt  ? "goto is not allowed in SIMT code"
                 : k == CXCursor_LabelStmt ? "labels are not allowed in SIMT code"
                                           : "this statement is not supported in SIMT code");
            if (k == CXCursor_GotoStmt) s->cx->goto_reported = true;
            ok = false;
        }
        break;
    }
    fe_kids_free(ks);
    if (ok && n) sx_push(s, block, n, cap);
    return ok;
}

/* ---- definitions -------------------------------------------------------- */

bool fe_simt_lower_func(Ctx *cx, CXCursor c, bool kernel)
{
    SimtFunc *sf = arena_alloc(cx->arena, sizeof *sf);
    Func *f = &sf->f;
    f->name = fe_str_take(cx, clang_getCursorSpelling(c));
    f->loc = fe_loc_of(cx, c);
    f->is_kernel = kernel;
    SCtx s = {.cx = cx, .sf = sf, .fn = c, .ok = fe_simt_no_layout(cx, c, "functions")};
    sf->interop = fe_annotation(c, "tilec.interop", NULL, cx);
    if (sf->interop && kernel)
        sx_fail(&s, c, "SIMT kernels are reached from CUDA C++ through tilec_kernel_NAME() and cudaLaunchKernel",
             "SIMT_INTEROP marks a SIMT_FUNC, not a kernel");
    char msg[320];
    sf->ret = fe_simt_type(cx, clang_getResultType(clang_getCursorType(c)), c, &sf->ret_agg, &s.ok);
    if (!s.ok) {
    } else if (kernel && sf->ret != SIMT_VOID)
        sx_fail(&s, c, "SIMT kernels write results to their arrays; declare it 'void'", "SIMT kernel must return void");
    else if (sf->ret == SIMT_NONE)
        sx_fail(&s, c, NULL, "a SIMT function returns void, a scalar of C's arithmetic types, a vector or a struct");
    if (clang_Cursor_isVariadic(c)) sx_fail(&s, c, NULL, "SIMT functions cannot be variadic");
    int np = clang_Cursor_getNumArguments(c);
    f->params = arena_alloc(cx->arena, sizeof(Param) * (size_t)(np + 1));
    for (int i = 0; i < np; i++) {
        Param *p = &f->params[f->nparams++];
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
        const SimtAgg *agg = NULL;
        CXType at = clang_getCursorType(a);
        const char *rank_text;
        enum CXTypeKind pk = clang_getCanonicalType(clang_getPointeeType(at)).kind;
        if (fe_annotation(a, "tilec.array:", &rank_text, cx) && (pk == CXType_ExtVector || pk == CXType_Record)) {
            /* an array of vectors: a tilec_array of the lanes' dtype with one more dimension, the lanes;
               of structs: of bytes (uint8), the last dimension the struct's bytes */
            CXType pt = clang_getPointeeType(at);
            if (fe_simt_type(cx, pt, a, &agg, &s.ok) == SIMT_NONE) continue;
            if (!sf->param_aggs) sf->param_aggs = arena_alloc(cx->arena, sizeof *sf->param_aggs * (size_t)(np + 1));
            sf->param_aggs[i] = agg;
            p->name = fe_str_take(cx, clang_getCursorSpelling(a));
            p->loc = fe_loc_of(cx, a);
            p->type.spelling = agg->name;
            p->kind = PARAM_ARRAY;
            p->rank = atoi(rank_text);
            p->readonly = clang_isConstQualifiedType(pt);
            p->type.dtype = agg->vector ? simt_dtype_of_type(agg->elem) : DT_UINT8;
            CXString psp = clang_getTypeSpelling(pt); /* float8e4m3x4: float8 lanes, a float8 descriptor */
            const char *pn = clang_getCString(psp);
            int f8 = !agg->vector ? 0 : strstr(pn, "float8e4m3") ? 1 : strstr(pn, "float8e5m2") ? 2 : 0;
            clang_disposeString(psp);
            if (f8) p->type.dtype = f8 == 1 ? DT_FLOAT8_E4M3FN : DT_FLOAT8_E5M2;
            if (p->rank < 1 || p->rank + 1 > TILE_MAX_RANK) {
                snprintf(msg, sizeof msg, "array of vectors '%s' has rank %s; ranks 1 to %d are supported (the lanes are one more dimension)",
                         p->name, rank_text, TILE_MAX_RANK - 1);
                sx_fail(&s, a, NULL, msg);
            }
            continue;
        }
        if (clang_getCanonicalType(at).kind == CXType_ExtVector || clang_getCanonicalType(at).kind == CXType_Record) {
            /* a vector or struct by value */
            if (fe_simt_type(cx, at, a, &agg, &s.ok) == SIMT_NONE) continue;
            if (!sf->param_aggs) sf->param_aggs = arena_alloc(cx->arena, sizeof *sf->param_aggs * (size_t)(np + 1));
            sf->param_aggs[i] = agg;
            p->name = fe_str_take(cx, clang_getCursorSpelling(a));
            p->loc = fe_loc_of(cx, a);
            p->type.spelling = agg->name;
            p->kind = PARAM_SCALAR;
            p->type.dtype = DT_INVALID;
            continue;
        }
        if (!fe_lower_param(cx, a, p)) s.ok = false;
        else if (p->kind == PARAM_CONST) {
            sx_fail(&s, a, "pass it as a plain scalar parameter", "TILE_CONST parameters are not supported in SIMT code yet");
        } else if (simt_type_of_dtype(p->type.dtype) == SIMT_NONE) {
            snprintf(msg, sizeof msg, "parameter '%s' has element type %s; SIMT code has bool, integers, float16, bfloat16, float32 and float64",
                     p->name, dtype_name(p->type.dtype));
            sx_fail(&s, a, NULL, msg);
        }
    }
    CXString raw = clang_Cursor_getRawCommentText(c);
    f->doc = fe_clean_comment(cx, clang_getCString(raw));
    clang_disposeString(raw);
    Kids *ks = fe_kids_of(c);
    if (s.ok)
        for (int i = 0; i < ks->n; i++)
            if (clang_getCursorKind(ks->c[i]) == CXCursor_CompoundStmt) {
                SimtNode *b = sx_node(&s, SS_BLOCK, ks->c[i]);
                int cap = 0;
                if (stmt_into(&s, ks->c[i], b, &cap)) sf->body = b->kids[0];
            }
    fe_kids_free(ks);
    if (!s.ok) {
        const char **nb = arena_alloc(cx->arena, sizeof *nb * (size_t)(cx->nsimt_bad + 1));
        if (cx->nsimt_bad) memcpy(nb, cx->simt_bad, sizeof *nb * (size_t)cx->nsimt_bad);
        nb[cx->nsimt_bad++] = f->name;
        cx->simt_bad = nb;
        return false;
    }
    Program *p = cx->prog;
    for (int i = 0; i < p->nsimt; i++)
        if (!strcmp(p->simt[i]->f.name, f->name)) return true; /* a header's definition seen twice */
    SimtFunc **nf = arena_alloc(cx->arena, sizeof *nf * (size_t)(p->nsimt + 1));
    if (p->nsimt) memcpy(nf, p->simt, sizeof *nf * (size_t)p->nsimt);
    nf[p->nsimt++] = sf;
    p->simt = nf;
    return true;
}
