/* simt_layout.c: the layouts of SIMT code's local and shared arrays
 * (SIMT_ALIGN(n), SIMT_ORDER_F / SIMT_ORDER_C before the declaration, seed
 * 001's local_array/shared_array order= and align=), and their
 * initializers rebuilt fully braced in storage order (a column-major array
 * is stored transposed). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/diag.h"
#include "frontend/simt_impl.h"

/* n of SIMT_ALIGN(n): an integer literal, possibly parenthesised, after
 * macro expansion (the annotation holds its text). */
static bool align_value(const char *text, uint64_t *v)
{
    const char *q = text;
    int parens = 0;
    while (*q == ' ' || *q == '(') parens += *q++ == '(';
    if (*q < '0' || *q > '9') return false;
    char *end;
    errno = 0;
    *v = strtoull(q, &end, 0);
    if (errno) return false;
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L') end++;
    for (; *end; end++) {
        if (*end == ')' && parens > 0) parens--;
        else if (*end != ' ') return false;
    }
    return parens == 0;
}

/* Reads d's layout annotations (on declaration c, whose element type is
 * elem): d->align and d->col_major, or errors at the annotation. */
bool sx_layout(SCtx *s, CXCursor c, SimtNode *d, CXType elem)
{
    char msg[400], fix[320];
    CXCursor at_align = clang_getNullCursor(), at_order = clang_getNullCursor();
    const char *align = NULL, *order = NULL;
    bool ok = true;
    Kids *ks = fe_kids_of(c);
    for (int i = 0; i < ks->n && ok; i++) {
        if (clang_getCursorKind(ks->c[i]) != CXCursor_AnnotateAttr) continue;
        const char *a = sx_spelling(s, ks->c[i]);
        if (!strncmp(a, "tilec.align:", 12)) {
            if (align) ok = !!sx_fail(s, ks->c[i], "keep one SIMT_ALIGN", "SIMT_ALIGN is given twice");
            align = a + 12, at_align = ks->c[i];
        } else if (!strncmp(a, "tilec.order:", 12)) {
            if (order && strcmp(order, a + 12))
                ok = !!sx_fail(s, ks->c[i], "keep SIMT_ORDER_F (column-major) or SIMT_ORDER_C (row-major)",
                            "SIMT_ORDER_C and SIMT_ORDER_F are both given");
            order = a + 12, at_order = ks->c[i];
        }
    }
    fe_kids_free(ks);
    if (!ok || (!align && !order)) return ok;
    const char *what = align ? "SIMT_ALIGN" : order[0] == 'F' ? "SIMT_ORDER_F" : "SIMT_ORDER_C";
    CXCursor at = align ? at_align : at_order;
    if (d->dynamic) {
        snprintf(msg, sizeof msg, "%s does not apply to dynamic shared memory ('%s' is 16-byte aligned, of one dimension)",
                 what, d->text);
        snprintf(fix, sizeof fix, "drop %s; declare a SIMT_SHARED array of constant shape for a layout of your own", what);
        return sx_fail(s, at, fix, msg);
    }
    if (d->ndims == 0) {
        snprintf(msg, sizeof msg, "%s applies to arrays; '%s' is a scalar", what, d->text);
        snprintf(fix, sizeof fix, "drop %s", what);
        return sx_fail(s, at, fix, msg);
    }
    d->col_major = order && order[0] == 'F';
    if (!align) return true;
    uint64_t v;
    long long natural = clang_Type_getAlignOf(elem);
    if (d->type == SIMT_VEC || d->type == SIMT_STRUCT) { /* CUDA's, not clang's (float32x3: 4, not 16) */
        int64_t size, al;
        simt_layout(d->type, d->agg, &size, &al);
        natural = al;
    }
    if (!align_value(align, &v)) {
        snprintf(msg, sizeof msg, "SIMT_ALIGN takes an integer literal, not '%s'", align);
        return sx_fail(s, at, "write the byte count, e.g. SIMT_ALIGN(64), or a macro that expands to it", msg);
    }
    if (v == 0 || (v & (v - 1))) {
        uint64_t p = 1;
        while (p < v && p < 4096) p *= 2;
        snprintf(msg, sizeof msg, "alignment %" PRIu64 " of '%s' is not a power of two", v, d->text);
        snprintf(fix, sizeof fix, "use a power of two, e.g. SIMT_ALIGN(%" PRIu64 ")", p);
        return sx_fail(s, at, fix, msg);
    }
    if (v > 4096) {
        snprintf(msg, sizeof msg, "alignment %" PRIu64 " of '%s' is over 4096 bytes, the most SIMT arrays take", v, d->text);
        return sx_fail(s, at, "use SIMT_ALIGN(4096) or less", msg);
    }
    if (natural > 0 && v < (uint64_t)natural) {
        snprintf(msg, sizeof msg, "alignment %" PRIu64 " of '%s' is less than its element type's (%s: %lld bytes)", v, d->text,
                 d->agg ? d->agg->name : simt_type_name(d->type), natural);
        snprintf(fix, sizeof fix, "use SIMT_ALIGN(%lld) or more, or drop SIMT_ALIGN", natural);
        return sx_fail(s, at, fix, msg);
    }
    d->align = (int)v;
    return true;
}

bool fe_simt_no_layout(Ctx *cx, CXCursor c, const char *what)
{
    const char *v;
    bool align = fe_annotation(c, "tilec.align:", &v, cx);
    if (!align && !fe_annotation(c, "tilec.order:", &v, cx)) return true;
    const char *m = align ? "SIMT_ALIGN" : v[0] == 'F' ? "SIMT_ORDER_F" : "SIMT_ORDER_C";
    char fix[64];
    snprintf(fix, sizeof fix, "drop %s", m);
    diag_error_fix(fe_loc_of(cx, c), fix, "%s lays out local and shared arrays of SIMT code, not %s", m, what);
    return false;
}

/* ---- array initializers ------------------------------------------------
 * C places an initializer's items (with brace elision) at row-major
 * positions; a column-major array is stored transposed, so its initializer
 * is rebuilt, fully braced, in storage order.  Row-major ones are rebuilt
 * fully braced too (gcc's -Wall warns of brace elision in the generated C),
 * and the walk finds excess items in either order. */
typedef struct Flat {
    SCtx *s;
    const SimtNode *d;
    SimtNode **slot; /* row-major element -> its item (column-major arrays only) */
    int64_t stride[8];
    bool ok;
} Flat;

static void flat_elided(Flat *f, const SimtNode *list, int *pos, int level, int64_t base);

static void flat_braced(Flat *f, const SimtNode *list, int level, int64_t base)
{
    int pos = 0;
    flat_elided(f, list, &pos, level, base);
    if (f->ok && pos < list->nkids) {
        char msg[320];
        int w = snprintf(msg, sizeof msg, "excess elements in the initializer of '%s', of type %s", f->d->text,
                         f->d->agg ? f->d->agg->name : simt_type_name(f->d->type));
        for (int i = 0; i < f->d->ndims && w > 0 && w < (int)sizeof msg; i++)
            w += snprintf(msg + w, sizeof msg - (size_t)w, "[%" PRId64 "]", f->d->dims[i]);
        sx_fail_at(f->s, list->kids[pos]->loc, NULL, msg);
        f->ok = false;
    }
}

static void flat_elided(Flat *f, const SimtNode *list, int *pos, int level, int64_t base)
{
    for (int64_t k = 0; k < f->d->dims[level] && *pos < list->nkids && f->ok; k++) {
        int64_t at = base + k * f->stride[level];
        SimtNode *x = list->kids[*pos];
        if (level < f->d->ndims - 1) {
            if (x->kind == SX_LIST) {
                (*pos)++;
                flat_braced(f, x, level + 1, at);
            } else {
                flat_elided(f, list, pos, level + 1, at); /* brace elision */
            }
            continue;
        }
        (*pos)++;
        if (x->kind == SX_LIST) { /* a scalar in braces */
            if (x->nkids != 1 || x->kids[0]->kind == SX_LIST) {
                sx_fail_at(f->s, x->loc, NULL, "braces around an element hold one value");
                f->ok = false;
                return;
            }
            x = x->kids[0];
        }
        if (f->slot) f->slot[at] = x;
    }
}

static SimtNode *zero_item(SCtx *s, SrcLoc at, SimtType t, const SimtAgg *agg)
{
    if (t == SIMT_VEC || t == SIMT_STRUCT) { /* a vector or struct of no given lanes or fields */
        SimtNode *m = arena_alloc(s->cx->arena, sizeof *m);
        int n = agg->vector ? agg->lanes : agg->nfields;
        *m = (SimtNode){.kind = SX_MAKE, .loc = at, .type = t, .agg = agg, .param = -1, .nkids = n,
                        .kids = arena_alloc(s->cx->arena, sizeof(SimtNode *) * (size_t)n)};
        return m;
    }
    SimtNode *z = arena_alloc(s->cx->arena, sizeof *z), *c = arena_alloc(s->cx->arena, sizeof *c);
    *z = (SimtNode){.kind = SX_INT, .loc = at, .text = "0", .type = SIMT_INT, .param = -1};
    *c = (SimtNode){.kind = SX_CAST, .loc = at, .type = t, .a = z, .param = -1};
    return c;
}

/* Storage level `level` of the array (logical dimension ndims - 1 - level
 * if column-major) with the outer logical indices in idx; NULL when no
 * element under it has an item (trailing ones are left out, inner gaps are
 * zeros). */
static SimtNode *rebuilt(Flat *f, int level, int64_t *idx, SrcLoc at)
{
    SCtx *s = f->s;
    int n = f->d->ndims, dim = f->d->col_major ? n - 1 - level : level;
    int64_t extent = f->d->dims[dim];
    SimtNode **items = arena_alloc(s->cx->arena, sizeof *items * (size_t)extent);
    int64_t used = 0;
    for (int64_t k = 0; k < extent; k++) {
        idx[dim] = k;
        if (level == n - 1) {
            int64_t r = 0;
            for (int i = 0; i < n; i++) r += idx[i] * f->stride[i];
            items[k] = f->slot[r];
        } else {
            items[k] = rebuilt(f, level + 1, idx, at);
        }
        if (items[k]) used = k + 1;
    }
    if (!used) return NULL;
    SimtNode *l = arena_alloc(s->cx->arena, sizeof *l);
    *l = (SimtNode){.kind = SX_LIST, .loc = at, .param = -1, .nkids = (int)used, .kids = items};
    for (int64_t k = 0; k < used; k++) {
        if (items[k]) continue;
        items[k] = zero_item(s, at, f->d->type, f->d->agg);
        if (level < n - 1) { /* an empty row: {0} */
            SimtNode *z = arena_alloc(s->cx->arena, sizeof *z);
            SimtNode **one = arena_alloc(s->cx->arena, sizeof *one);
            one[0] = items[k];
            *z = (SimtNode){.kind = SX_LIST, .loc = at, .param = -1, .nkids = 1, .kids = one};
            items[k] = z;
        }
    }
    return l;
}

/* d's initializer list (d->a) checked for excess items and rebuilt in
 * storage order (arrays of up to 2^20 elements: larger ones keep their list,
 * as long as they are row-major). */
bool sx_layout_init(SCtx *s, SimtNode *d)
{
    if (!d->a || d->a->kind != SX_LIST) return true;
    Flat f = {.s = s, .d = d, .ok = true};
    int64_t total = 1;
    for (int i = d->ndims - 1; i >= 0; i--) {
        f.stride[i] = total;
        total = total > (int64_t)1 << 40 || d->dims[i] > (int64_t)1 << 20 ? (int64_t)1 << 60 : total * d->dims[i];
    }
    if (total >= (int64_t)1 << 60 && !d->col_major) return true; /* clang has checked it; C's rules hold */
    bool rebuild = d->col_major || total <= (int64_t)1 << 20;
    if (d->col_major && total > (int64_t)1 << 20) {
        char msg[320];
        snprintf(msg, sizeof msg, "column-major array '%s' of %" PRId64 " elements is too large to initialize", d->text, total);
        return !!sx_fail_at(s, d->a->loc, "assign its elements in the body", msg);
    }
    if (rebuild) f.slot = arena_alloc(s->cx->arena, sizeof *f.slot * (size_t)total); /* zeroed */
    flat_braced(&f, d->a, 0, 0);
    if (!f.ok || !rebuild) return f.ok;
    int64_t idx[8] = {0};
    SimtNode *t = rebuilt(&f, 0, idx, d->a->loc);
    if (!t) { /* {} */
        t = arena_alloc(s->cx->arena, sizeof *t);
        SimtNode **one = arena_alloc(s->cx->arena, sizeof *one);
        one[0] = zero_item(s, d->a->loc, d->type, d->agg);
        *t = (SimtNode){.kind = SX_LIST, .loc = d->a->loc, .param = -1, .nkids = 1, .kids = one};
    }
    d->b = d->a; /* as written, for --emit=ast */
    d->a = t;
    return true;
}
