/* view.c: the algebra of views (sema/view.h): the identity view of an
 * array, permutation, padding, windows, im2col and views parsed from CuTe
 * notation, each a new view computed from the old one by substituting the
 * old coordinates; plus the queries code generation asks and printing.
 * Everything is plain data in the compile's arena. */
#include "sema/view.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static View *copy_view(Arena *ar, const View *v)
{
    View *n = arena_alloc(ar, sizeof *n);
    *n = *v;
    return n;
}

static const ViewExt *ext_new(Arena *ar, int axis, const ViewExt *inner, int64_t mul, int64_t add, int64_t div)
{
    ViewExt *e = arena_alloc(ar, sizeof *e);
    *e = (ViewExt){axis, inner, mul, add, div, NULL};
    return e;
}

/* a * b, two extents that depend on the array's shape */
static const ViewExt *ext_times(Arena *ar, const ViewExt *a, const ViewExt *b)
{
    ViewExt *e = arena_alloc(ar, sizeof *e);
    *e = (ViewExt){-1, a, 1, 0, 1, b};
    return e;
}

static const ViewExt *ext_const(Arena *ar, int64_t v)
{
    return ext_new(ar, -1, NULL, 0, v, 1);
}

/* The constant value of e, when it has one. */
static bool ext_is_const(const ViewExt *e, int64_t *v)
{
    if (e->axis >= 0 || e->times) return false;
    int64_t b = 0;
    if (e->inner && !ext_is_const(e->inner, &b)) return false;
    int64_t num = b * e->mul + e->add;
    *v = num < 0 ? 0 : num / e->div;
    return true;
}

/* e * k + add (k >= 1), folded when possible. */
static const ViewExt *ext_affine(Arena *ar, const ViewExt *e, int64_t k, int64_t add, int64_t div)
{
    int64_t c;
    if (ext_is_const(e, &c)) {
        int64_t num = c * k + add;
        return ext_const(ar, num < 0 ? 0 : num / div);
    }
    if (e->times) return ext_new(ar, -1, e, k, add, div);
    if (e->div == 1 && e->inner == NULL && e->add == 0) return ext_new(ar, e->axis, NULL, e->mul * k, add, div);
    if (e->div == 1 && e->add == 0 && e->mul == 1 && k == 1) return ext_new(ar, e->axis, e->inner, 1, add, div);
    if (e->div == 1 && e->mul == 1 && k == 1 && e->inner == NULL) {
        /* (d + a1) + add: still one affine step, as long as no clamp at 0 is lost (a1 >= 0) */
        if (e->add >= 0) return ext_new(ar, e->axis, NULL, 1, e->add + add, div);
    }
    return ext_new(ar, -1, e, k, add, div);
}

static int mode_of_term_count(const View *v, int k)
{
    int c = 0;
    for (int t = 0; t < v->nterms; t++) c += v->term[t].mode == k;
    return c;
}

int view_mode_terms(const View *v, int k, int *terms)
{
    int n = 0;
    for (int p = 0; n < VIEW_MAX_TERMS; p++) {
        int found = -1;
        for (int t = 0; t < v->nterms; t++)
            if (v->term[t].mode == k && v->term[t].pos == p) found = t;
        if (found < 0) break;
        terms[n++] = found;
    }
    return n;
}

View *view_of_array(Arena *ar, const Param *p)
{
    View *v = arena_alloc(ar, sizeof *v);
    v->base = p;
    v->rank = p->rank;
    v->nterms = p->rank;
    v->padding = 1; /* TILE_PAD_ZERO */
    for (int k = 0; k < p->rank; k++) {
        v->ext[k] = ext_new(ar, k, NULL, 1, 0, 1);
        v->exact[k] = true;
        v->exact_axis[k] = k;
        v->term[k] = (ViewTerm){k, 0, v->ext[k]};
        v->a[k][k] = 1;
    }
    return v;
}

View *view_permute(Arena *ar, const View *v, const int *axes, char *err, size_t n)
{
    bool seen[TILE_MAX_RANK] = {false};
    for (int k = 0; k < v->rank; k++) {
        if (axes[k] < 0 || axes[k] >= v->rank || seen[axes[k]]) {
            snprintf(err, n, ".axes must list each of the %d axes 0..%d once", v->rank, v->rank - 1);
            return NULL;
        }
        seen[axes[k]] = true;
    }
    View *r = copy_view(ar, v);
    int new_of_old[TILE_MAX_RANK];
    for (int k = 0; k < v->rank; k++) {
        new_of_old[axes[k]] = k;
        r->ext[k] = v->ext[axes[k]];
        r->exact[k] = v->exact[axes[k]];
        r->exact_axis[k] = v->exact_axis[axes[k]];
    }
    for (int t = 0; t < r->nterms; t++) r->term[t].mode = new_of_old[v->term[t].mode];
    return r;
}

/* Replaces term t's coordinate by scale * u_t + sum of the given new terms'
 * coordinates times their factors, minus shift, everywhere it is used. */
static void substitute(View *r, int t, int64_t scale, int nnew, const int *nt, const int64_t *factor, int64_t shift)
{
    for (int j = 0; j < r->base->rank; j++) {
        int64_t c = r->a[j][t];
        r->off[j] -= c * shift;
        for (int i = 0; i < nnew; i++) r->a[j][nt[i]] = c * factor[i];
        r->a[j][t] = c * scale;
    }
    for (int q = 0; q < r->ncons; q++) {
        int64_t c = r->cons[q].coef[t];
        r->cons[q].c0 -= c * shift;
        for (int i = 0; i < nnew; i++) r->cons[q].coef[nt[i]] = c * factor[i];
        r->cons[q].coef[t] = c * scale;
    }
}

/* The only term of axis k, or -1 (with err) when the axis is nested. */
static int flat_term(const View *v, int k, const char *what, char *err, size_t n)
{
    int ts[VIEW_MAX_TERMS];
    if (view_mode_terms(v, k, ts) != 1) {
        snprintf(err, n, "axis %d of the view is nested (%d sub-modes); %s applies to flat axes only", k,
                 mode_of_term_count(v, k), what);
        return -1;
    }
    return ts[0];
}

static bool add_cons(View *r, int64_t c0, int nt, const int *t, const int64_t *coef, const ViewExt *ext, char *err,
                     size_t n)
{
    if (r->ncons == VIEW_MAX_CONS) {
        snprintf(err, n, "the view is built from more than %d paddings and windows", VIEW_MAX_CONS);
        return false;
    }
    ViewCons *c = &r->cons[r->ncons++];
    memset(c, 0, sizeof *c);
    c->c0 = c0;
    for (int i = 0; i < nt; i++) c->coef[t[i]] = coef[i];
    c->ext = ext;
    return true;
}

View *view_pad(Arena *ar, const View *v, const int64_t *low, const int64_t *high, char *err, size_t n)
{
    View *r = copy_view(ar, v);
    for (int k = 0; k < v->rank; k++) {
        if (low[k] < 0 || high[k] < 0) {
            snprintf(err, n, "padding of axis %d is negative (%" PRId64 ", %" PRId64 ")", k, low[k], high[k]);
            return NULL;
        }
        if (!low[k] && !high[k]) continue;
        int t = flat_term(r, k, "padding", err, n);
        if (t < 0) return NULL;
        substitute(r, t, 1, 0, NULL, NULL, low[k]);
        /* Where axis k is not the array axis itself, its old bounds are not
         * the array's: keep them as a constraint, so that the new elements
         * read the padding. */
        if (!r->exact[k]) {
            int64_t one = 1;
            if (!add_cons(r, -low[k], 1, &t, &one, r->ext[k], err, n)) return NULL;
        }
        r->ext[k] = ext_affine(ar, r->ext[k], 1, low[k] + high[k], 1);
        r->term[t].ext = r->ext[k];
        r->exact[k] = false;
    }
    return r;
}

View *view_window(Arena *ar, const View *v, int naxes, const int *axes, const int64_t *size, const int64_t *stride,
                  const int64_t *dilation, const int64_t *low, const int64_t *high, char *err, size_t n)
{
    if (v->rank + naxes > TILE_MAX_RANK) {
        snprintf(err, n, "the window view would have rank %d; at most %d", v->rank + naxes, TILE_MAX_RANK);
        return NULL;
    }
    View *r = copy_view(ar, v);
    for (int i = 0; i < naxes; i++) {
        int k = axes[i];
        if (k < 0 || k >= v->rank) {
            snprintf(err, n, "window axis %d is not an axis of a rank-%d view", k, v->rank);
            return NULL;
        }
        for (int i2 = 0; i2 < i; i2++)
            if (axes[i2] == k) {
                snprintf(err, n, "window axis %d is listed twice", k);
                return NULL;
            }
        if (size[i] < 1 || stride[i] < 1 || dilation[i] < 1 || low[i] < 0 || high[i] < 0) {
            snprintf(err, n,
                     "window of axis %d: size %" PRId64 ", stride %" PRId64 ", dilation %" PRId64 " must be positive "
                     "and the padding (%" PRId64 ", %" PRId64 ") not negative",
                     k, size[i], stride[i], dilation[i], low[i], high[i]);
            return NULL;
        }
        int t = flat_term(r, k, "a window", err, n);
        if (t < 0) return NULL;
        if (r->nterms == VIEW_MAX_TERMS) {
            snprintf(err, n, "the view has more than %d sub-modes", VIEW_MAX_TERMS);
            return NULL;
        }
        int tj = r->nterms++;
        int kj = r->rank++;
        /* old u_t = stride * o + dilation * j - low */
        substitute(r, t, stride[i], 1, &tj, &dilation[i], low[i]);
        if (!r->exact[k]) {
            int ts[2] = {t, tj};
            int64_t cs[2] = {stride[i], dilation[i]};
            if (!add_cons(r, -low[i], 2, ts, cs, r->ext[k], err, n)) return NULL;
        }
        /* outputs: floor((L + low + high - dilation (size - 1) - 1) / stride) + 1 */
        int64_t add = low[i] + high[i] - dilation[i] * (size[i] - 1) - 1 + stride[i];
        r->ext[k] = ext_affine(ar, r->ext[k], 1, add, stride[i]);
        r->term[t].ext = r->ext[k];
        r->exact[k] = false;
        r->ext[kj] = ext_const(ar, size[i]);
        r->exact[kj] = false;
        r->term[tj] = (ViewTerm){kj, 0, r->ext[kj]};
    }
    return r;
}

/* Groups the listed axes (fastest first) into one nested axis put at
 * position at of the axes that remain, in their order. */
static View *group_modes(Arena *ar, const View *v, int nm, const int *modes, int at)
{
    View *r = copy_view(ar, v);
    bool grouped[TILE_MAX_RANK] = {false};
    for (int i = 0; i < nm; i++) grouped[modes[i]] = true;
    /* new index of each old axis */
    int new_of_old[TILE_MAX_RANK], k2 = 0;
    for (int k = 0; k < v->rank; k++) {
        if (grouped[k]) continue;
        if (k2 == at) k2++;
        new_of_old[k] = k2++;
    }
    if (at >= k2 && at != k2) at = k2;
    for (int k = 0; k < v->rank; k++) {
        if (grouped[k]) continue;
        r->ext[new_of_old[k]] = v->ext[k];
        r->exact[new_of_old[k]] = v->exact[k];
        r->exact_axis[new_of_old[k]] = v->exact_axis[k];
    }
    int pos = 0;
    const ViewExt *prod = NULL;
    int64_t cprod = 1;
    for (int i = 0; i < nm; i++) {
        int ts[VIEW_MAX_TERMS];
        int m = view_mode_terms(v, modes[i], ts);
        for (int q = 0; q < m; q++) {
            r->term[ts[q]].mode = at;
            r->term[ts[q]].pos = pos++;
        }
        int64_t c;
        if (ext_is_const(v->ext[modes[i]], &c)) cprod *= c;
        else prod = prod ? ext_times(ar, prod, v->ext[modes[i]]) : v->ext[modes[i]];
    }
    for (int t = 0; t < v->nterms; t++)
        if (!grouped[v->term[t].mode]) r->term[t].mode = new_of_old[v->term[t].mode];
    r->rank = v->rank - nm + 1;
    r->ext[at] = prod ? ext_affine(ar, prod, cprod, 0, 1) : ext_const(ar, cprod);
    r->exact[at] = false;
    return r;
}

View *view_im2col(Arena *ar, const View *v, int nsp, const int64_t *size, const int64_t *stride,
                  const int64_t *dilation, const int64_t *low, const int64_t *high, bool channels_last, char *err,
                  size_t n)
{
    if (nsp < 1 || nsp > 3 || v->rank != nsp + 2) {
        snprintf(err, n, "im2col takes an (N, C, spatial...) array (channels_last: (N, spatial..., C)) with 1 to 3 "
                         "spatial axes: a view of rank %d has %d, and .size lists %d",
                 v->rank, v->rank - 2, nsp);
        return NULL;
    }
    int axes[3];
    for (int i = 0; i < nsp; i++) axes[i] = channels_last ? 1 + i : 2 + i;
    View *w = view_window(ar, v, nsp, axes, size, stride, dilation, low, high, err, n);
    if (!w) return NULL;
    /* w: (N, C, O..., K...) or (N, O..., C, K...); the taps are axes nsp+2.. */
    int modes[4], nm = 0;
    int cax = channels_last ? nsp + 1 : 1;
    if (channels_last) modes[nm++] = cax;
    for (int i = nsp - 1; i >= 0; i--) modes[nm++] = nsp + 2 + i;
    if (!channels_last) modes[nm++] = cax;
    return group_modes(ar, w, nm, modes, channels_last ? nsp + 1 : 1);
}

/* ---- CuTe notation ------------------------------------------------------- */

typedef struct Parser {
    const char *s, *p;
    char *err;
    size_t n;
    int *pos; /* the offending byte's offset, or NULL */
} Parser;

static void skip_ws(Parser *ps)
{
    while (isspace((unsigned char)*ps->p)) ps->p++;
}

static bool perr(Parser *ps, const char *what)
{
    if (ps->pos) *ps->pos = (int)(ps->p - ps->s);
    snprintf(ps->err, ps->n, "bad view layout '%s': column %d: %s", ps->s, (int)(ps->p - ps->s) + 1, what);
    return false;
}

static bool parse_int(Parser *ps, int64_t *v)
{
    skip_ws(ps);
    const char *q = ps->p;
    if (*q == '_' && isdigit((unsigned char)q[1])) q++;
    bool neg = *q == '-';
    if (neg) q++;
    if (!isdigit((unsigned char)*q)) return perr(ps, "expected an integer");
    int64_t x = 0;
    while (isdigit((unsigned char)*q)) {
        if (x > (INT64_C(1) << 48)) return perr(ps, "integer too large");
        x = x * 10 + (*q++ - '0');
    }
    ps->p = q;
    *v = neg ? -x : x;
    return true;
}

/* One leaf of the shape: an integer, or `_` (-1). */
typedef struct Leaf {
    int64_t shape;   /* -1: `_` */
    int64_t coef;
    int axis;        /* -1: stride 0 */
} Leaf;

/* A tuple or leaf; leaves are appended to lv[*nl] with their top-level mode. */
static bool parse_shape(Parser *ps, int depth, int mode, Leaf *lv, int *mode_of, int *nl, int *nmodes)
{
    skip_ws(ps);
    if (*ps->p == '(') {
        ps->p++;
        for (;;) {
            int m = depth == 0 ? (*nmodes)++ : mode;
            if (depth == 0 && *nmodes > TILE_MAX_RANK) return perr(ps, "more than 8 modes");
            if (!parse_shape(ps, depth + 1, m, lv, mode_of, nl, nmodes)) return false;
            skip_ws(ps);
            if (*ps->p == ',') {
                ps->p++;
                continue;
            }
            if (*ps->p == ')') {
                ps->p++;
                return true;
            }
            return perr(ps, "expected ',' or ')'");
        }
    }
    if (*nl == VIEW_MAX_TERMS) return perr(ps, "more than 24 sub-modes");
    if (depth == 0) mode = (*nmodes)++;
    if (*ps->p == '_' && !isdigit((unsigned char)ps->p[1])) {
        ps->p++;
        lv[*nl].shape = -1;
    } else {
        int64_t v;
        if (!parse_int(ps, &v)) return false;
        if (v < 1) return perr(ps, "a shape must be positive");
        lv[*nl].shape = v;
    }
    mode_of[(*nl)++] = mode;
    return true;
}

/* The strides, congruent with the shape: leaf i gets c@j or 0. */
static bool parse_stride(Parser *ps, Leaf *lv, int nl, int *li, int rank)
{
    skip_ws(ps);
    if (*ps->p == '(') {
        ps->p++;
        for (;;) {
            if (!parse_stride(ps, lv, nl, li, rank)) return false;
            skip_ws(ps);
            if (*ps->p == ',') {
                ps->p++;
                continue;
            }
            if (*ps->p == ')') {
                ps->p++;
                return true;
            }
            return perr(ps, "expected ',' or ')'");
        }
    }
    if (*li >= nl) return perr(ps, "the stride has more entries than the shape");
    int64_t c;
    if (!parse_int(ps, &c)) return false;
    skip_ws(ps);
    Leaf *l = &lv[(*li)++];
    l->coef = c;
    l->axis = -1;
    if (*ps->p == '@') {
        ps->p++;
        int64_t j;
        if (!parse_int(ps, &j)) return false;
        if (j < 0 || j >= rank) return perr(ps, "the basis index after '@' is not an axis of the array");
        l->axis = (int)j;
    } else if (c != 0) {
        return perr(ps, "a stride is c@j, c steps along array axis j (or 0)");
    }
    if (l->axis < 0 || c == 0) l->coef = 0, l->axis = -1;
    return true;
}

View *view_parse(Arena *ar, const Param *p, const char *text, const int64_t *offset, char *err, size_t n)
{
    return view_parse_at(ar, p, text, offset, err, n, NULL);
}

View *view_parse_at(Arena *ar, const Param *p, const char *text, const int64_t *offset, char *err, size_t n, int *pos)
{
    if (pos) *pos = -1;
    Parser ps = {text, text, err, n, pos};
    Leaf lv[VIEW_MAX_TERMS];
    int mode_of[VIEW_MAX_TERMS], nl = 0, nmodes = 0;
    if (!parse_shape(&ps, 0, 0, lv, mode_of, &nl, &nmodes)) return NULL;
    skip_ws(&ps);
    if (*ps.p != ':') {
        perr(&ps, "expected ':' and the strides (c@j: c steps along array axis j)");
        return NULL;
    }
    ps.p++;
    int li = 0;
    if (!parse_stride(&ps, lv, nl, &li, p->rank)) return NULL;
    skip_ws(&ps);
    if (*ps.p) {
        perr(&ps, "unexpected text after the layout");
        return NULL;
    }
    if (li != nl) {
        perr(&ps, "the stride has fewer entries than the shape");
        return NULL;
    }
    View *v = arena_alloc(ar, sizeof *v);
    v->base = p;
    v->rank = nmodes;
    v->nterms = nl;
    v->padding = 1;
    for (int j = 0; j < p->rank; j++) v->off[j] = offset[j];
    int sub[TILE_MAX_RANK] = {0};
    for (int t = 0; t < nl; t++) {
        const ViewExt *e;
        if (lv[t].shape < 0) {
            if (lv[t].axis < 0) {
                snprintf(err, n, "bad view layout '%s': a '_' extent needs a stride c@j to take array axis j's extent",
                         text);
                return NULL;
            }
            int64_t c = llabs(lv[t].coef);
            e = ext_new(ar, lv[t].axis, NULL, 1, c - 1, c);
        } else {
            e = ext_const(ar, lv[t].shape);
        }
        v->term[t] = (ViewTerm){mode_of[t], sub[mode_of[t]]++, e};
        if (lv[t].axis >= 0) v->a[lv[t].axis][t] = lv[t].coef;
    }
    for (int k = 0; k < nmodes; k++) {
        int ts[VIEW_MAX_TERMS];
        int m = view_mode_terms(v, k, ts);
        const ViewExt *prod = NULL;
        int64_t cprod = 1;
        for (int q = 0; q < m; q++) {
            int64_t c;
            if (ext_is_const(v->term[ts[q]].ext, &c)) cprod *= c;
            else prod = prod ? ext_times(ar, prod, v->term[ts[q]].ext) : v->term[ts[q]].ext;
        }
        v->ext[k] = prod ? ext_affine(ar, prod, cprod, 0, 1) : ext_const(ar, cprod);
        /* exact: the array axis itself, which no other term moves along */
        v->exact[k] = m == 1 && lv[ts[0]].shape < 0 && lv[ts[0]].coef == 1 && offset[lv[ts[0]].axis] == 0;
        for (int t = 0; v->exact[k] && t < nl; t++)
            if (t != ts[0] && lv[t].axis == lv[ts[0]].axis) v->exact[k] = false;
        v->exact_axis[k] = v->exact[k] ? lv[ts[0]].axis : 0;
    }
    return v;
}

/* ---- queries and printing ------------------------------------------------ */

bool view_storable(const View *v, char *err, size_t n)
{
    for (int j = 0; j < v->base->rank; j++) {
        int c = 0;
        for (int t = 0; t < v->nterms; t++) c += v->a[j][t] != 0;
        if (c > 1) {
            snprintf(err, n, "%d of its sub-modes move along array axis %d, so its elements overlap", c, j);
            return false;
        }
    }
    for (int t = 0; t < v->nterms; t++) {
        bool any = false;
        int64_t e;
        for (int j = 0; j < v->base->rank; j++) any |= v->a[j][t] != 0;
        if (!any && !(ext_is_const(v->term[t].ext, &e) && e == 1)) {
            snprintf(err, n, "its axis %d has stride 0 (a broadcast), so its elements overlap", v->term[t].mode);
            return false;
        }
    }
    return true;
}

bool view_is_permutation(const View *v, int *perm)
{
    if (v->rank != v->base->rank || v->nterms != v->rank || v->ncons) return false;
    bool seen[TILE_MAX_RANK] = {false};
    for (int k = 0; k < v->rank; k++) {
        if (!v->exact[k] || seen[v->exact_axis[k]]) return false;
        perm[k] = v->exact_axis[k];
        seen[perm[k]] = true;
    }
    for (int j = 0; j < v->base->rank; j++) {
        if (v->off[j]) return false;
        for (int t = 0; t < v->nterms; t++)
            if (v->a[j][t] != (v->term[t].mode < v->rank && perm[v->term[t].mode] == j)) return false;
    }
    return true;
}

static void print_ext(FILE *o, const ViewExt *e)
{
    int64_t c;
    if (ext_is_const(e, &c)) {
        fprintf(o, "%" PRId64, c);
        return;
    }
    bool paren = e->mul != 1 || e->add || e->div != 1;
    if (e->times) fputc('(', o);
    if (paren) fputc('(', o);
    if (e->inner) print_ext(o, e->inner);
    else fprintf(o, "d%d", e->axis);
    if (e->mul != 1) fprintf(o, "*%" PRId64, e->mul);
    if (e->add) fprintf(o, "%+" PRId64, e->add);
    if (paren) fputc(')', o);
    if (e->div != 1) fprintf(o, "/%" PRId64, e->div);
    if (e->times) {
        fputc('*', o);
        print_ext(o, e->times);
        fputc(')', o);
    }
}

static void print_stride(FILE *o, const View *v, int t)
{
    bool any = false;
    for (int j = 0; j < v->base->rank; j++) {
        if (!v->a[j][t]) continue;
        fprintf(o, "%s%" PRId64 "@%d", any ? "+" : "", v->a[j][t], j);
        any = true;
    }
    if (!any) fputc('0', o);
}

void view_print(FILE *o, const View *v)
{
    for (int pass = 0; pass < 2; pass++) {
        if (pass) fputc(':', o);
        fputc('(', o);
        for (int k = 0; k < v->rank; k++) {
            int ts[VIEW_MAX_TERMS];
            int m = view_mode_terms(v, k, ts);
            if (k) fputc(',', o);
            if (m > 1) fputc('(', o);
            for (int q = 0; q < m; q++) {
                if (q) fputc(',', o);
                if (pass) print_stride(o, v, ts[q]);
                else print_ext(o, m > 1 ? v->term[ts[q]].ext : v->ext[k]);
            }
            if (m > 1) fputc(')', o);
        }
        fputc(')', o);
    }
    bool off = false;
    for (int j = 0; j < v->base->rank; j++) off |= v->off[j] != 0;
    if (off) {
        fputs(" + (", o);
        for (int j = 0; j < v->base->rank; j++) fprintf(o, "%s%" PRId64, j ? "," : "", v->off[j]);
        fputc(')', o);
    }
    for (int q = 0; q < v->ncons; q++) {
        fputs(", 0 <= ", o);
        bool any = false;
        for (int t = 0; t < v->nterms; t++) {
            if (!v->cons[q].coef[t]) continue;
            fprintf(o, "%s%" PRId64 "*u%d", any ? "+" : "", v->cons[q].coef[t], t);
            any = true;
        }
        if (v->cons[q].c0) fprintf(o, "%+" PRId64, v->cons[q].c0);
        fputs(" < ", o);
        print_ext(o, v->cons[q].ext);
    }
}

char *view_ext_c(Arena *ar, const ViewExt *e, const char *fmt)
{
    int64_t c;
    if (ext_is_const(e, &c)) return arena_printf(ar, "(int64_t)%" PRId64, c);
    char *base = e->inner ? view_ext_c(ar, e->inner, fmt) : arena_printf(ar, fmt, e->axis);
    if (e->times) {
        const ViewExt plain = {e->axis, e->inner, e->mul, e->add, e->div, NULL};
        return arena_printf(ar, "(%s * %s)", view_ext_c(ar, &plain, fmt), view_ext_c(ar, e->times, fmt));
    }
    if (e->mul == 1 && !e->add && e->div == 1) return base;
    char *num = arena_printf(ar, "(%s * %" PRId64 " + %" PRId64 ")", base, e->mul, e->add);
    if (e->div == 1) return arena_printf(ar, "(%s > 0 ? %s : (int64_t)0)", num, num);
    return arena_printf(ar, "((%s > 0 ? %s : (int64_t)0) / %" PRId64 ")", num, num, e->div);
}
