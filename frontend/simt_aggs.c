/* simt_aggs.c: the expressions of SIMT code's vectors and structs (lanes by
 * .x or v[i], fields, compound literals) and the initializers of every
 * object (brace lists of lanes, fields or rows, designators), from
 * libclang's cursors to the SIMT tree (frontend/simt.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/diag.h"
#include "frontend/simt_impl.h"

/* ---- vectors and structs ------------------------------------------------ */

static bool lvalue(const SimtNode *n)
{
    return n->kind == SX_VAR || n->kind == SX_INDEX || n->kind == SX_ELEM || (n->kind == SX_MEMBER && lvalue(n->a));
}

/* v[i]: a lane of vector b; a constant index becomes .x .y .z .w. */
SimtNode *sx_lane_at(SCtx *s, CXCursor c, SimtNode *b, CXCursor idx)
{
    char msg[320];
    int64_t v;
    bool u;
    if (sx_eval_int(idx, &v, &u)) {
        if (v < 0 || v >= b->agg->lanes) {
            snprintf(msg, sizeof msg, "lane %lld of a %s, which has %d lane%s", (long long)v, b->agg->name, b->agg->lanes,
                     b->agg->lanes == 1 ? "" : "s");
            return sx_fail(s, idx, NULL, msg);
        }
        SimtNode *n = sx_node(s, SX_MEMBER, c);
        n->a = b;
        n->text = simt_lane_name((int)v);
        n->type = b->agg->elem;
        return n;
    }
    if (!lvalue(b)) return sx_fail(s, c, "store the vector in a variable first", "a vector's lane at a run-time index needs a vector variable");
    SimtNode *n = sx_node(s, SX_LANE, c);
    n->a = b;
    n->type = b->agg->elem;
    return (n->b = sx_expr(s, idx, 0)) ? n : NULL;
}

/* The identifier that ends c's extent: the accessor of `v.x` (read from
 * the file, as the extent may begin inside a macro: SIMT_AT(m, i).x). */
static const char *last_token(SCtx *s, CXCursor c)
{
    CXFile f;
    unsigned end;
    clang_getFileLocation(clang_getRangeEnd(clang_getCursorExtent(c)), &f, NULL, NULL, &end);
    size_t size = 0;
    const char *text = f ? clang_getFileContents(s->cx->tu, f, &size) : NULL;
    if (!text || end > size) return "";
    unsigned b = end;
    while (b > 0 && (text[b - 1] == '_' || (text[b - 1] >= 'a' && text[b - 1] <= 'z') || (text[b - 1] >= 'A' && text[b - 1] <= 'Z') ||
                     (text[b - 1] >= '0' && text[b - 1] <= '9')))
        b--;
    return arena_printf(s->cx->arena, "%.*s", (int)(end - b), text + b);
}

/* An unexposed expression sstrip stopped at: `v.x`, or a swizzle or splat
 * (errors). */
SimtNode *sx_vector_access(SCtx *s, CXCursor c)
{
    Kids *ks = fe_kids_of(c);
    CXCursor kid = ks->c[0];
    fe_kids_free(ks);
    bool vk = sx_is_vector(clang_getCursorType(kid)), vc = sx_is_vector(clang_getCursorType(c));
    if (!vk) return sx_fail(s, c, "build the vector from its lanes, e.g. (float32x4){v, v, v, v}", "a scalar does not convert to a vector in SIMT code");
    const char *acc = last_token(s, c);
    if (vc || strlen(acc) != 1 || !strchr("xyzw", acc[0]))
        return sx_fail(s, c, "read the lanes one at a time: .x .y .z .w or v[i]", "vector swizzles are not supported in SIMT code");
    SimtNode *b = sx_expr(s, kid, 0);
    if (!b) return NULL;
    int i = (int)(strchr("xyzw", acc[0]) - "xyzw");
    if (i >= b->agg->lanes) {
        char msg[200];
        snprintf(msg, sizeof msg, "a %s has no lane .%s", b->agg->name, acc);
        return sx_fail(s, c, NULL, msg);
    }
    SimtNode *n = sx_node(s, SX_MEMBER, c);
    n->a = b;
    n->text = simt_lane_name(i);
    n->type = b->agg->elem;
    return n;
}

/* s.f: a field of a struct. */
SimtNode *sx_member(SCtx *s, CXCursor c)
{
    Kids *ks = fe_kids_of(c);
    CXCursor base = ks->n ? ks->c[0] : clang_getNullCursor();
    fe_kids_free(ks);
    if (clang_Cursor_isNull(base)) return sx_fail(s, c, NULL, "cannot read this member access");
    if (clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer)
        return sx_fail(s, c, NULL, "'->' is not allowed in SIMT code (there are no pointers)");
    SimtNode *b = sx_expr(s, base, 0);
    if (!b) return NULL;
    if (b->type != SIMT_STRUCT) return sx_fail(s, c, NULL, "only structs have fields in SIMT code");
    const char *name = sx_spelling(s, c);
    const SimtField *f = simt_field(b->agg, name);
    if (!f) return sx_fail(s, c, NULL, "no such field");
    SimtNode *n = sx_node(s, SX_MEMBER, c);
    n->a = b;
    n->text = f->name;
    n->type = f->type;
    n->agg = f->agg;
    n->ndims = f->ndims;
    return n;
}


/* (T){...}: a vector or struct built from its lanes or fields. */
SimtNode *sx_compound_literal(SCtx *s, CXCursor c)
{
    const SimtAgg *agg = NULL;
    SimtType t = fe_simt_type(s->cx, clang_getCursorType(c), c, &agg, &s->ok);
    if (t != SIMT_VEC && t != SIMT_STRUCT) {
        if (s->ok) sx_fail(s, c, NULL, "compound literals build vectors and structs in SIMT code");
        return NULL;
    }
    CXCursor init = clang_getNullCursor();
    Kids *ks = fe_kids_of(c);
    for (int i = 0; i < ks->n; i++)
        if (clang_getCursorKind(ks->c[i]) == CXCursor_InitListExpr) init = ks->c[i];
    fe_kids_free(ks);
    if (clang_Cursor_isNull(init)) return sx_fail(s, c, NULL, "cannot read this compound literal");
    return sx_init_list(s, init, t, agg, 0);
}

/* An initializer of an object of type elem (agg) with ndims array
 * dimensions: an expression, or a brace list of the rows, lanes or fields
 * (positional or `.field = `), each braced in turn (no brace elision, so
 * that the list reads as the object's shape). */
SimtNode *sx_init_list(SCtx *s, CXCursor c, SimtType elem, const SimtAgg *agg, int ndims)
{
    char msg[320];
    if (clang_getCursorKind(c) != CXCursor_InitListExpr) {
        SimtNode *x = sx_expr(s, c, 0); /* (in an array's list, maybe an element of an elided row: layout_init places it) */
        if (!x) return NULL;
        if (elem == SIMT_VEC || elem == SIMT_STRUCT) {
            if (x->agg != agg && !(agg->vector && x->agg && x->agg->vector && !strcmp(x->agg->name, agg->name))) {
                snprintf(msg, sizeof msg, "a %s is initialized by a brace list of its %s", agg->name, agg->vector ? "lanes" : "fields");
                return sx_fail(s, c, NULL, msg);
            }
            return x;
        }
        SimtNode *n = sx_node(s, SX_CAST, c); /* C++ rejects narrowing in braces; C converts */
        n->type = elem;
        n->a = x;
        return n;
    }
    Kids *ks = fe_kids_of(c);
    bool ok = true;
    SimtNode *n;
    if (ndims || (elem != SIMT_VEC && elem != SIMT_STRUCT)) { /* an array's rows; a braced scalar */
        n = sx_node(s, SX_LIST, c);
        int cap = 0;
        for (int i = 0; i < ks->n && ok; i++) {
            SimtNode *x = sx_init_list(s, sx_strip(ks->c[i]), elem, agg, ndims ? ndims - 1 : 0);
            if (!x) ok = false;
            else sx_push(s, n, x, &cap);
        }
        if (!ndims && ok && n->nkids == 1) n = n->kids[0];
        fe_kids_free(ks);
        return ok ? n : NULL;
    }
    n = sx_node(s, SX_MAKE, c);
    n->type = elem;
    n->agg = agg;
    n->nkids = agg->vector ? agg->lanes : agg->nfields;
    n->kids = arena_alloc(s->cx->arena, sizeof *n->kids * (size_t)n->nkids);
    int at = 0;
    for (int i = 0; i < ks->n && ok; i++) {
        CXCursor item = ks->c[i], value = item;
        Kids *d = NULL;
        if (clang_getCursorKind(item) == CXCursor_UnexposedExpr && clang_getCursorType(item).kind == CXType_Void) {
            d = fe_kids_of(item); /* a designated initializer: .field = value */
            if (agg->vector || d->n != 2 || clang_getCursorKind(d->c[0]) != CXCursor_MemberRef) {
                fe_kids_free(d);
                ok = !!sx_fail(s, item, "initialize the fields in order, or each by `.field = value`",
                            agg->vector ? "a vector's lanes are initialized in order" : "only `.field = value` designators are supported in SIMT code");
                break;
            }
            const char *fname = sx_spelling(s, d->c[0]);
            value = d->c[1];
            at = -1;
            for (int f = 0; f < agg->nfields; f++)
                if (!strcmp(agg->fields[f].name, fname)) at = f;
            fe_kids_free(d);
            if (at < 0) {
                ok = !!sx_fail(s, item, NULL, "no such field");
                break;
            }
        }
        if (at >= n->nkids) {
            ok = !!sx_fail(s, item, NULL, "too many initializers");
            break;
        }
        SimtNode *x = agg->vector ? sx_init_list(s, sx_strip(value), agg->elem, NULL, 0)
                                  : sx_init_list(s, sx_strip(value), agg->fields[at].type, agg->fields[at].agg, agg->fields[at].ndims);
        if (!x) ok = false;
        else n->kids[at++] = x;
    }
    fe_kids_free(ks);
    return ok ? n : NULL;
}

/* ---- array layouts: SIMT_ALIGN, SIMT_ORDER_C, SIMT_ORDER_F -------------- */
