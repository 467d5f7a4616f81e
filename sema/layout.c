/* layout.c: CuTe's layout algebra (interface and semantics in layout.h, user
 * documentation in docs/layout.md): the representation and its checks,
 * construction, queries, coalesce/filter/sort, the views, and printing.  The
 * operations that build layouts from layouts (complement, composition,
 * divides, products, inverses) are layout_algebra.c's; the text notation and
 * the swizzles layout_text.c's.  Layouts are preorder trees in fixed
 * arrays, so every operation runs on the stack with no allocation and no
 * global state.  Inputs are validated on entry and results on exit against
 * the limits in layout.h; all multiplications are checked, so no input can
 * make an operation overflow or index out of bounds. */
#include "sema/layout.h"
#include "sema/layout_impl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors and arithmetic ------------------------------------------- */


bool lay_fail(Err *e, const char *fmt, ...)
{
    if (e && e->buf && e->len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->buf, e->len, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Prefix the message already in e (an inner operation's reason) with the
 * outer operation's name, so the user sees where it came from. */
bool lay_wrap(Err *e, const char *prefix)
{
    if (e && e->buf && e->len) {
        char tmp[1024];
        snprintf(tmp, sizeof tmp, "%s%s", prefix, e->buf);
        snprintf(e->buf, e->len, "%s", tmp);
    }
    return false;
}

/* true when a*b overflows int64 (the result is then unusable) */
bool lay_mul_ovf(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_mul_overflow(a, b, r);
}


/* ---- flat lists of modes ------------------------------------------------ */

/* Leaves of the subtree at i, in order.  The last node of any subtree in
 * preorder is a leaf, which several functions below rely on. */
void lay_flatten_sub(const Node *nd, int i, Flat *f)
{
    f->n = 0;
    for (int j = i; j < nd[i].end; j++) {
        if (nd[j].kind == LEAF && f->n < LAYOUT_MAX_LEAVES) {
            f->s[f->n] = nd[j].shape;
            f->d[f->n] = nd[j].stride;
            f->n++;
        }
    }
}

int64_t lay_sub_size(const Node *nd, int i)
{
    int64_t p = 1;
    for (int j = i; j < nd[i].end; j++)
        if (nd[j].kind == LEAF) p *= nd[j].shape; /* <= LAYOUT_MAX_VALUE */
    return p;
}

int64_t lay_sub_cosize(const Node *nd, int i)
{
    int64_t c = 1;
    for (int j = i; j < nd[i].end; j++)
        if (nd[j].kind == LEAF) c += (nd[j].shape - 1) * lay_abs64(nd[j].stride);
    return c; /* validated layouts keep this <= LAYOUT_MAX_VALUE + 1 */
}


/* Mode k of the subtree at i; mode 0 of a leaf is the leaf (as in CuTe). */
int lay_mode_of(const Node *nd, int i, int k)
{
    if (nd[i].kind == LEAF) return i;
    int c = i + 1;
    while (k-- > 0) c = nd[c].end;
    return c;
}

/* CuTe's layout function on the subtree at i, with the last leaf unbounded.
 * Unsigned arithmetic so that indices past the size wrap rather than trap. */
static uint64_t eval_sub(const Node *nd, int i, uint64_t idx)
{
    uint64_t off = 0;
    int last = nd[i].end - 1;
    for (int j = i; j < last; j++) {
        if (nd[j].kind != LEAF) continue;
        uint64_t s = (uint64_t)nd[j].shape;
        off += (idx % s) * (uint64_t)nd[j].stride;
        idx /= s;
    }
    return off + idx * (uint64_t)nd[last].stride;
}

/* ---- building trees ------------------------------------------------------ */


void lay_b_init(Builder *b, Node *nd)
{
    b->nd = nd;
    b->n = b->leaves = b->sp = 0;
    b->full = b->deep = false;
}

bool lay_b_bad(const Builder *b) { return b->full || b->deep; }

static void b_note_child(Builder *b)
{
    if (b->sp > 0) b->nd[b->stack[b->sp - 1]].nchild++;
}

void lay_b_leaf(Builder *b, int64_t s, int64_t d)
{
    if (lay_b_bad(b)) return;
    if (b->n >= LAYOUT_MAX_NODES || b->leaves >= LAYOUT_MAX_LEAVES) {
        b->full = true;
        return;
    }
    b_note_child(b);
    b->nd[b->n] = (Node){.shape = s, .stride = d, .kind = LEAF, .nchild = 0,
                         .end = (int16_t)(b->n + 1)};
    b->n++;
    b->leaves++;
}

/* `_` (CuTe's Underscore), only in a tiler; counted like a leaf. */
void lay_b_under(Builder *b)
{
    if (lay_b_bad(b)) return;
    if (b->n >= LAYOUT_MAX_NODES || b->leaves >= LAYOUT_MAX_LEAVES) {
        b->full = true;
        return;
    }
    b_note_child(b);
    b->nd[b->n] = (Node){.kind = UNDER, .end = (int16_t)(b->n + 1)};
    b->n++;
    b->leaves++;
}

void lay_b_open(Builder *b, int kind)
{
    if (lay_b_bad(b)) return;
    if (b->n >= LAYOUT_MAX_NODES) {
        b->full = true;
        return;
    }
    if (b->sp >= LAYOUT_MAX_DEPTH) {
        b->deep = true;
        return;
    }
    b_note_child(b);
    b->nd[b->n] = (Node){.kind = (int16_t)kind};
    b->stack[b->sp++] = b->n++;
}

void lay_b_close(Builder *b)
{
    if (lay_b_bad(b) || b->sp == 0) return;
    int i = b->stack[--b->sp];
    b->nd[i].end = (int16_t)b->n;
}

void lay_b_copy(Builder *b, const Node *src, int i)
{
    if (src[i].kind == LEAF) {
        lay_b_leaf(b, src[i].shape, src[i].stride);
        return;
    }
    if (src[i].kind == UNDER) {
        lay_b_under(b);
        return;
    }
    lay_b_open(b, src[i].kind);
    for (int c = i + 1; c < src[i].end; c = src[c].end) lay_b_copy(b, src, c);
    lay_b_close(b);
}

/* A flat list as a layout subtree: one mode bare, several as a tuple. */
void lay_b_flat(Builder *b, const Flat *f)
{
    if (f->n <= 0) {
        lay_b_leaf(b, 1, 0);
    } else if (f->n == 1) {
        lay_b_leaf(b, f->s[0], f->d[0]);
    } else {
        lay_b_open(b, TUPLE);
        for (int k = 0; k < f->n; k++) lay_b_leaf(b, f->s[k], f->d[k]);
        lay_b_close(b);
    }
}

bool lay_b_done(const Builder *b, Err *e, const char *op)
{
    if (b->full)
        return lay_fail(e, "%s: result has more than %d modes", op, LAYOUT_MAX_LEAVES);
    if (b->deep)
        return lay_fail(e, "%s: result nests deeper than %d levels", op, LAYOUT_MAX_DEPTH);
    return true;
}

void lay_copy_nodes(int *dn, Node *dst, int n, const Node *src)
{
    memmove(dst, src, (size_t)n * sizeof *src);
    *dn = n;
}

/* ---- validation --------------------------------------------------------- */

bool lay_check_values(const Node *nd, int i, Err *e)
{
    int64_t size = 1, span = 0;
    for (int j = i; j < nd[i].end; j++) {
        if (nd[j].kind != LEAF) continue;
        int64_t s = nd[j].shape, d = nd[j].stride, t;
        if (s < 1) return lay_fail(e, "shape %" PRId64 " is not positive", s);
        if (s > LAYOUT_MAX_VALUE || lay_abs64(d) > LAYOUT_MAX_VALUE)
            return lay_fail(e, "integer exceeds the limit 2^48");
        if (lay_mul_ovf(size, s, &size) || size > LAYOUT_MAX_VALUE)
            return lay_fail(e, "layout size exceeds the limit 2^48");
        if (lay_mul_ovf(s - 1, lay_abs64(d), &t) || t > LAYOUT_MAX_VALUE ||
            (span += t) > LAYOUT_MAX_VALUE)
            return lay_fail(e, "layout cosize exceeds the limit 2^48");
    }
    return true;
}

/* Structure of the subtree at i: ends consistent, child counts right, tile
 * nodes only where allowed (in a tiler, above the layouts), depth and leaf
 * limits; values of each layout subtree when check_vals. */
static bool check_sub(const Node *nd, int n, int i, int depth, bool tile_ok,
                      bool check_vals, int *leaves, Err *e)
{
    const Node *x = &nd[i];
    if (x->kind == LEAF || x->kind == UNDER) {
        if (x->end != i + 1) return lay_fail(e, "malformed layout tree");
        if (x->kind == UNDER && !tile_ok)
            return lay_fail(e, "'_' outside a tiler (it may only be a whole tiler or an element "
                           "of <...>)");
        if (++*leaves > LAYOUT_MAX_LEAVES)
            return lay_fail(e, "more than %d modes", LAYOUT_MAX_LEAVES);
        return true;
    }
    if (x->kind != TUPLE && x->kind != TILE) return lay_fail(e, "malformed layout tree");
    if (x->kind == TILE && !tile_ok) return lay_fail(e, "tiler bracket inside a layout");
    if (depth >= LAYOUT_MAX_DEPTH) return lay_fail(e, "nesting deeper than %d", LAYOUT_MAX_DEPTH);
    if (x->end <= i + 1 || x->end > n) return lay_fail(e, "malformed layout tree");
    int count = 0, c = i + 1;
    while (c < x->end) {
        if (nd[c].end <= c || nd[c].end > x->end) return lay_fail(e, "malformed layout tree");
        if (!check_sub(nd, n, c, depth + 1, tile_ok && x->kind == TILE, check_vals, leaves, e))
            return false;
        if (check_vals && x->kind == TILE && nd[c].kind != TILE && !lay_check_values(nd, c, e))
            return false;
        count++;
        c = nd[c].end;
    }
    if (count != x->nchild) return lay_fail(e, "malformed layout tree");
    return true;
}

static bool check_tree(const Node *nd, int n, bool tiler, bool vals, Err *e)
{
    if (n < 1 || n > LAYOUT_MAX_NODES) return lay_fail(e, "malformed layout tree");
    int leaves = 0;
    if (!check_sub(nd, n, 0, 0, tiler, vals, &leaves, e)) return false;
    if (nd[0].end != n) return lay_fail(e, "malformed layout tree");
    if (vals && nd[0].kind != TILE && !lay_check_values(nd, 0, e)) return false;
    return true;
}

static bool check_layout(const Layout *l, Err *e) { return check_tree(l->node, l->n, false, true, e); }

/* Validate an input and name the operation in the message. */
bool lay_check_in(const Layout *l, Err *e, const char *op)
{
    if (!l) return lay_fail(e, "%s: missing layout", op);
    if (!check_layout(l, e)) {
        char p[64];
        snprintf(p, sizeof p, "%s: invalid layout: ", op);
        return lay_wrap(e, p);
    }
    return true;
}

bool lay_check_tiler_in(const LayoutTiler *t, Err *e, const char *op)
{
    if (!t) return lay_fail(e, "%s: missing tiler", op);
    if (!check_tree(t->node, t->n, true, true, e)) {
        char p[64];
        snprintf(p, sizeof p, "%s: invalid tiler: ", op);
        return lay_wrap(e, p);
    }
    return true;
}

/* Finish a result: builder state, then limits (results of products and
 * compositions can grow past 2^48). */
bool lay_finish(Builder *b, Layout *tmp, Layout *out, Err *e, const char *op)
{
    if (!lay_b_done(b, e, op)) return false;
    tmp->n = b->n;
    if (!check_layout(tmp, e)) {
        char p[64];
        snprintf(p, sizeof p, "%s: result out of range: ", op);
        return lay_wrap(e, p);
    }
    lay_copy_nodes(&out->n, out->node, tmp->n, tmp->node);
    return true;
}

bool layout_validate(const Layout *l, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!l) return lay_fail(&e, "missing layout");
    return check_layout(l, &e);
}

/* ---- text: printing ------------------------------------------------------- */

static void out_ch(Out *o, char c)
{
    if (o->buf && o->len + 1 < o->size) o->buf[o->len] = c;
    o->len++;
}

static void out_i64(Out *o, int64_t v)
{
    char t[24];
    int k = snprintf(t, sizeof t, "%" PRId64, v);
    for (int i = 0; i < k; i++) out_ch(o, t[i]);
}

size_t lay_out_end(Out *o)
{
    if (o->buf && o->size) o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
    return o->len;
}

static void fmt_tree(Out *o, const Node *nd, int i, bool stride)
{
    if (nd[i].kind == LEAF) {
        out_i64(o, stride ? nd[i].stride : nd[i].shape);
        return;
    }
    out_ch(o, '(');
    for (int c = i + 1; c < nd[i].end; c = nd[c].end) {
        if (c != i + 1) out_ch(o, ',');
        fmt_tree(o, nd, c, stride);
    }
    out_ch(o, ')');
}

void lay_fmt_layout(Out *o, const Node *nd, int i)
{
    fmt_tree(o, nd, i, false);
    out_ch(o, ':');
    fmt_tree(o, nd, i, true);
}

static void fmt_tiler(Out *o, const Node *nd, int i)
{
    if (nd[i].kind == UNDER) {
        out_ch(o, '_');
        return;
    }
    if (nd[i].kind != TILE) {
        lay_fmt_layout(o, nd, i);
        return;
    }
    out_ch(o, '<');
    for (int c = i + 1; c < nd[i].end; c = nd[c].end) {
        if (c != i + 1) out_ch(o, ',');
        fmt_tiler(o, nd, c);
    }
    out_ch(o, '>');
}

size_t layout_format(const Layout *l, char *buf, size_t size)
{
    Out o = {buf, size, 0};
    if (l && l->n > 0) lay_fmt_layout(&o, l->node, 0);
    return lay_out_end(&o);
}

size_t layout_tiler_format(const LayoutTiler *t, char *buf, size_t size)
{
    Out o = {buf, size, 0};
    if (t && t->n > 0) fmt_tiler(&o, t->node, 0);
    return lay_out_end(&o);
}

size_t layout_tuple_format(const LayoutTuple *t, char *buf, size_t size)
{
    Out o = {buf, size, 0};
    if (t && t->n > 0) fmt_tree(&o, t->node, 0, false);
    return lay_out_end(&o);
}

/* ---- construction ----------------------------------------------------------- */

bool layout_make(int64_t shape, int64_t stride, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    lay_b_leaf(&b, shape, stride);
    return lay_finish(&b, &tmp, out, &e, "make");
}

bool layout_concat(int count, const Layout *const *modes, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (count < 1 || !modes) return lay_fail(&e, "concat: need at least one layout");
    for (int k = 0; k < count; k++)
        if (!lay_check_in(modes[k], &e, "concat")) return false;
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    lay_b_open(&b, TUPLE);
    for (int k = 0; k < count; k++) lay_b_copy(&b, modes[k]->node, 0);
    lay_b_close(&b);
    return lay_finish(&b, &tmp, out, &e, "concat");
}

bool layout_mode(const Layout *l, int i, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "mode")) return false;
    if (i < 0 || i >= lay_rank_of(l->node, 0))
        return lay_fail(&e, "mode: index %d out of range for rank %d", i, lay_rank_of(l->node, 0));
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    lay_b_copy(&b, l->node, lay_mode_of(l->node, 0, i));
    return lay_finish(&b, &tmp, out, &e, "mode");
}

void layout_tiler_from_layout(const Layout *l, LayoutTiler *out)
{
    lay_copy_nodes(&out->n, out->node, l->n, l->node);
}

bool layout_tiler_make(int count, const Layout *const *modes, LayoutTiler *out, char *err,
                       size_t errlen)
{
    Err e = {err, errlen};
    if (count < 1 || !modes) return lay_fail(&e, "tiler: need at least one layout");
    for (int k = 0; k < count; k++)
        if (!lay_check_in(modes[k], &e, "tiler")) return false;
    LayoutTiler tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    lay_b_open(&b, TILE);
    for (int k = 0; k < count; k++) lay_b_copy(&b, modes[k]->node, 0);
    lay_b_close(&b);
    if (!lay_b_done(&b, &e, "tiler")) return false;
    lay_copy_nodes(&out->n, out->node, b.n, tmp.node);
    return true;
}

static bool check_dims(int rank, const int64_t *shape, Err *e, const char *op)
{
    if (rank < 0 || rank > LAYOUT_MAX_LEAVES)
        return lay_fail(e, "%s: rank %d out of range", op, rank);
    if (rank > 0 && !shape) return lay_fail(e, "%s: missing shape", op);
    for (int k = 0; k < rank; k++)
        if (shape[k] < 1)
            return lay_fail(e, "%s: dimension %d has extent %" PRId64 ", not positive", op, k,
                        shape[k]);
    return true;
}

/* Array dimensions as a layout: rank 1 bare, rank 0 the scalar 1:0. */
static bool build_dims(int rank, const int64_t *shape, const int64_t *stride, Layout *out,
                       Err *e, const char *op)
{
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    if (rank == 0) {
        lay_b_leaf(&b, 1, 0);
    } else if (rank == 1) {
        lay_b_leaf(&b, shape[0], stride[0]);
    } else {
        lay_b_open(&b, TUPLE);
        for (int k = 0; k < rank; k++) lay_b_leaf(&b, shape[k], stride[k]);
        lay_b_close(&b);
    }
    return lay_finish(&b, &tmp, out, e, op);
}

bool layout_from_shape_strides(int rank, const int64_t *shape, const int64_t *strides,
                               Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!check_dims(rank, shape, &e, "from-shape-strides")) return false;
    if (rank > 0 && !strides) return lay_fail(&e, "from-shape-strides: missing strides");
    return build_dims(rank, shape, strides, out, &e, "from-shape-strides");
}

/* Compact strides where dimension order[k] ranks the dimensions from
 * slowest (0) to fastest (rank-1); shared by row, column and cuTile order. */
static bool compact_by_rank(int rank, const int64_t *shape, const int *pos, Layout *out, Err *e,
                            const char *op)
{
    int64_t stride[LAYOUT_MAX_LEAVES];
    int64_t prod = 1;
    for (int r = rank - 1; r >= 0; r--) {
        for (int k = 0; k < rank; k++) {
            if (pos[k] != r) continue;
            stride[k] = prod;
            if (lay_mul_ovf(prod, shape[k], &prod) || prod > LAYOUT_MAX_VALUE)
                return lay_fail(e, "%s: size exceeds the limit 2^48", op);
        }
    }
    return build_dims(rank, shape, stride, out, e, op);
}

bool layout_row_major(int rank, const int64_t *shape, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!check_dims(rank, shape, &e, "row-major")) return false;
    int pos[LAYOUT_MAX_LEAVES];
    for (int k = 0; k < rank; k++) pos[k] = k;
    return compact_by_rank(rank, shape, pos, out, &e, "row-major");
}

bool layout_col_major(int rank, const int64_t *shape, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!check_dims(rank, shape, &e, "col-major")) return false;
    int pos[LAYOUT_MAX_LEAVES];
    for (int k = 0; k < rank; k++) pos[k] = rank - 1 - k;
    return compact_by_rank(rank, shape, pos, out, &e, "col-major");
}

static bool check_perm(int n, const int *perm, Err *e, const char *op)
{
    bool seen[LAYOUT_MAX_LEAVES] = {false};
    if (n > 0 && !perm) return lay_fail(e, "%s: missing permutation", op);
    for (int k = 0; k < n; k++) {
        if (perm[k] < 0 || perm[k] >= n || seen[perm[k]])
            return lay_fail(e, "%s: not a permutation of 0..%d", op, n - 1);
        seen[perm[k]] = true;
    }
    return true;
}

bool layout_from_order(int rank, const int64_t *shape, const int *order, Layout *out, char *err,
                       size_t errlen)
{
    Err e = {err, errlen};
    if (!check_dims(rank, shape, &e, "from-order") || !check_perm(rank, order, &e, "from-order"))
        return false;
    return compact_by_rank(rank, shape, order, out, &e, "from-order");
}

/* ---- queries -------------------------------------------------------------- */

int64_t layout_size(const Layout *l) { return lay_sub_size(l->node, 0); }
int64_t layout_cosize(const Layout *l) { return lay_sub_cosize(l->node, 0); }
int layout_rank(const Layout *l) { return lay_rank_of(l->node, 0); }

static int depth_sub(const Node *nd, int i)
{
    if (nd[i].kind == LEAF) return 0;
    int m = 0;
    for (int c = i + 1; c < nd[i].end; c = nd[c].end) {
        int d = depth_sub(nd, c);
        if (d > m) m = d;
    }
    return m + 1;
}

int layout_depth(const Layout *l) { return depth_sub(l->node, 0); }

int layout_flatten(const Layout *l, int64_t *shape, int64_t *stride)
{
    Flat f;
    lay_flatten_sub(l->node, 0, &f);
    for (int k = 0; k < f.n; k++) {
        if (shape) shape[k] = f.s[k];
        if (stride) stride[k] = f.d[k];
    }
    return f.n;
}

bool layout_equal(const Layout *a, const Layout *b)
{
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++) {
        const Node *x = &a->node[i], *y = &b->node[i];
        if (x->kind != y->kind || x->nchild != y->nchild || x->end != y->end) return false;
        if (x->kind == LEAF && (x->shape != y->shape || x->stride != y->stride)) return false;
    }
    return true;
}

int64_t layout_eval(const Layout *l, int64_t idx)
{
    return (int64_t)eval_sub(l->node, 0, (uint64_t)idx);
}

static bool crd2idx(const Node *cn, int ci, const Node *ln, int li, int64_t *off, Err *e)
{
    if (cn[ci].kind == LEAF) {
        int64_t c = cn[ci].shape, size = lay_sub_size(ln, li);
        if (c < 0 || c >= size)
            return lay_fail(e, "eval: coordinate %" PRId64 " out of range for a mode of size %" PRId64,
                        c, size);
        *off = (int64_t)eval_sub(ln, li, (uint64_t)c);
        return true;
    }
    int k = cn[ci].nchild;
    if (ln[li].kind == LEAF && k == 1) return crd2idx(cn, ci + 1, ln, li, off, e);
    if (k != lay_rank_of(ln, li))
        return lay_fail(e, "eval: coordinate has rank %d but the mode has rank %d", k,
                    lay_rank_of(ln, li));
    int64_t sum = 0;
    int c = ci + 1;
    for (int m = 0; m < k; m++, c = cn[c].end) {
        int64_t o;
        if (!crd2idx(cn, c, ln, lay_mode_of(ln, li, m), &o, e)) return false;
        sum += o;
    }
    *off = sum;
    return true;
}

bool layout_eval_coord(const Layout *l, const LayoutTuple *coord, int64_t *offset, char *err,
                       size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "eval")) return false;
    if (!coord || !check_tree(coord->node, coord->n, false, false, &e))
        return lay_wrap(&e, "eval: invalid coordinate: ");
    return crd2idx(coord->node, 0, l->node, 0, offset, &e);
}

static void idx2crd(const Node *ln, int li, int64_t idx, Builder *b)
{
    if (ln[li].kind == LEAF) {
        lay_b_leaf(b, idx, 0);
        return;
    }
    lay_b_open(b, TUPLE);
    for (int c = li + 1; c < ln[li].end; c = ln[c].end) {
        int64_t s = lay_sub_size(ln, c);
        idx2crd(ln, c, idx % s, b);
        idx /= s;
    }
    lay_b_close(b);
}

bool layout_index_to_coord(const Layout *l, int64_t idx, LayoutTuple *coord, char *err,
                           size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "coord")) return false;
    int64_t size = layout_size(l);
    if (idx < 0 || idx >= size)
        return lay_fail(&e, "coord: index %" PRId64 " out of range [0, %" PRId64 ")", idx, size);
    LayoutTuple tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    idx2crd(l->node, 0, idx, &b);
    if (!lay_b_done(&b, &e, "coord")) return false;
    lay_copy_nodes(&coord->n, coord->node, b.n, tmp.node);
    return true;
}

/* ---- coalesce, filter, sort ----------------------------------------------- */

/* CuTe's bw_coalesce over a flat list: walk from the last mode to the first,
 * skipping size-1 modes and merging s:d into the front mode when s*d equals
 * the front's stride.  keep_last is CuTe's coalesce_x: the last mode's
 * stride survives even when its size is 1, because composition treats the
 * last mode as unbounded (layout_eval). */
void lay_coalesce_core(const int64_t *s, const int64_t *d, int n, bool keep_last, Flat *out)
{
    int64_t rs[FLAT_CAP], rd[FLAT_CAP];
    int k = 1;
    if (n <= 0) {
        out->n = 1;
        out->s[0] = 1;
        out->d[0] = 0;
        return;
    }
    rs[0] = s[n - 1];
    rd[0] = d[n - 1];
    if (keep_last && rs[0] == 1) rs[0] = 2;
    for (int i = n - 2; i >= 0; i--) {
        int64_t p;
        if (s[i] == 1) continue;
        if (k == 1 && rs[0] == 1) {
            rs[0] = s[i];
            rd[0] = d[i];
        } else if (!lay_mul_ovf(s[i], d[i], &p) && p == rd[k - 1]) {
            rs[k - 1] *= s[i];
            rd[k - 1] = d[i];
        } else {
            rs[k] = s[i];
            rd[k] = d[i];
            k++;
        }
    }
    if (k == 1 && rs[0] == 1) {
        out->n = 1;
        out->s[0] = 1;
        out->d[0] = 0;
        return;
    }
    out->n = k;
    for (int j = 0; j < k; j++) {
        out->s[j] = rs[k - 1 - j];
        out->d[j] = rd[k - 1 - j];
    }
}

static void emit_coalesced(Builder *b, const Node *nd, int i)
{
    Flat f, c;
    lay_flatten_sub(nd, i, &f);
    lay_coalesce_core(f.s, f.d, f.n, false, &c);
    lay_b_flat(b, &c);
}

bool layout_coalesce(const Layout *l, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "coalesce")) return false;
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    emit_coalesced(&b, l->node, 0);
    return lay_finish(&b, &tmp, out, &e, "coalesce");
}

static bool coalesce_prof(const Node *ln, int li, const Node *pn, int pi, Builder *b, Err *e)
{
    if (pn[pi].kind == LEAF) {
        emit_coalesced(b, ln, li);
        return true;
    }
    int k = pn[pi].nchild, r = lay_rank_of(ln, li);
    if (k > r) return lay_fail(e, "coalesce: profile has %d modes but the layout has rank %d", k, r);
    lay_b_open(b, TUPLE);
    int pc = pi + 1;
    for (int m = 0; m < r; m++) {
        int lm = lay_mode_of(ln, li, m);
        if (m < k) {
            if (!coalesce_prof(ln, lm, pn, pc, b, e)) return false;
            pc = pn[pc].end;
        } else {
            lay_b_copy(b, ln, lm);
        }
    }
    lay_b_close(b);
    return true;
}

bool layout_coalesce_profile(const Layout *l, const LayoutTuple *profile, Layout *out, char *err,
                             size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "coalesce")) return false;
    if (!profile || !check_tree(profile->node, profile->n, false, false, &e))
        return lay_wrap(&e, "coalesce: invalid profile: ");
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    if (!coalesce_prof(l->node, 0, profile->node, 0, &b, &e)) return false;
    return lay_finish(&b, &tmp, out, &e, "coalesce");
}

/* Leaves that matter to the image: drop stride-0 and size-1 modes. */
void lay_filtered_flat(const Node *nd, int i, Flat *f)
{
    Flat all;
    lay_flatten_sub(nd, i, &all);
    f->n = 0;
    for (int k = 0; k < all.n; k++) {
        if (all.s[k] == 1 || all.d[k] == 0) continue;
        f->s[f->n] = all.s[k];
        f->d[f->n] = all.d[k];
        f->n++;
    }
}

bool layout_filter(const Layout *l, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "filter")) return false;
    Flat f, c;
    lay_filtered_flat(l->node, 0, &f);
    lay_coalesce_core(f.s, f.d, f.n, false, &c);
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    lay_b_flat(&b, &c);
    return lay_finish(&b, &tmp, out, &e, "filter");
}

/* Stable insertion sort by stride (at most 64 modes). */
void lay_sort_flat(Flat *f)
{
    for (int i = 1; i < f->n; i++) {
        int64_t s = f->s[i], d = f->d[i];
        int j = i;
        while (j > 0 && f->d[j - 1] > d) {
            f->s[j] = f->s[j - 1];
            f->d[j] = f->d[j - 1];
            j--;
        }
        f->s[j] = s;
        f->d[j] = d;
    }
}

bool layout_sort(const Layout *l, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "sort")) return false;
    Flat f;
    lay_flatten_sub(l->node, 0, &f);
    lay_sort_flat(&f);
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    lay_b_flat(&b, &f);
    return lay_finish(&b, &tmp, out, &e, "sort");
}

bool layout_equal_function(const Layout *a, const Layout *b)
{
    Layout ca, cb;
    if (!layout_validate(a, NULL, 0) || !layout_validate(b, NULL, 0)) return false;
    int64_t n = layout_size(a);
    if (n != layout_size(b)) return false;
    if (!layout_coalesce(a, &ca, NULL, 0) || !layout_coalesce(b, &cb, NULL, 0)) return false;
    if (layout_equal(&ca, &cb)) return true;
    if (n > 65536) return false;
    for (int64_t i = 0; i < n; i++)
        if (layout_eval(a, i) != layout_eval(b, i)) return false;
    return true;
}

int64_t layout_contiguous_run(const Layout *l)
{
    Flat f, c;
    lay_flatten_sub(l->node, 0, &f);
    lay_coalesce_core(f.s, f.d, f.n, false, &c);
    return c.d[0] == 1 ? c.s[0] : 1;
}

/* ---- views --------------------------------------------------------------------- */

bool layout_permute(const Layout *l, int n, const int *perm, Layout *out, char *err,
                    size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "permute")) return false;
    int r = layout_rank(l);
    if (n != r) return lay_fail(&e, "permute: %d axes given for a layout of rank %d", n, r);
    if (!check_perm(n, perm, &e, "permute")) return false;
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    if (l->node[0].kind == LEAF) {
        lay_b_copy(&b, l->node, 0);
    } else {
        lay_b_open(&b, TUPLE);
        for (int k = 0; k < n; k++) lay_b_copy(&b, l->node, lay_mode_of(l->node, 0, perm[k]));
        lay_b_close(&b);
    }
    return lay_finish(&b, &tmp, out, &e, "permute");
}

bool layout_transpose(const Layout *l, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "transpose")) return false;
    int r = layout_rank(l), perm[LAYOUT_MAX_LEAVES];
    for (int k = 0; k < r; k++) perm[k] = r - 1 - k;
    return layout_permute(l, r, perm, out, err, errlen);
}

bool layout_reshape(const Layout *l, int rank, const int64_t *shape, Layout *out, char *err,
                    size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "reshape") || !check_dims(rank, shape, &e, "reshape")) return false;
    int64_t n = 1;
    for (int k = 0; k < rank; k++)
        if (lay_mul_ovf(n, shape[k], &n) || n > LAYOUT_MAX_VALUE)
            return lay_fail(&e, "reshape: size exceeds the limit 2^48");
    if (n != layout_size(l))
        return lay_fail(&e, "reshape: new shape has %" PRId64 " elements, the layout has %" PRId64, n,
                    layout_size(l));
    if (rank == 0) return layout_make(1, 0, out, err, errlen);
    Layout lr, rm, tmp;
    if (!layout_transpose(l, &lr, err, errlen)) return false;
    /* the row-major layout of the new shape, always a tuple of `rank` modes
     * so that the result has exactly `rank` modes */
    int64_t st[LAYOUT_MAX_LEAVES], prod = 1;
    for (int k = rank - 1; k >= 0; k--) {
        st[k] = shape[k] == 1 ? 0 : prod;
        prod *= shape[k];
    }
    Builder b;
    lay_b_init(&b, rm.node);
    lay_b_open(&b, TUPLE);
    for (int k = 0; k < rank; k++) lay_b_leaf(&b, shape[k], st[k]);
    lay_b_close(&b);
    if (!lay_b_done(&b, &e, "reshape")) return false;
    rm.n = b.n;
    lay_b_init(&b, tmp.node);
    if (!lay_emit_compose(lr.node, 0, rm.node, 0, &b, &e))
        return lay_wrap(&e, "reshape: not expressible as a layout: ");
    return lay_finish(&b, &tmp, out, &e, "reshape");
}

bool layout_broadcast(const Layout *l, int rank, const int64_t *shape, Layout *out, char *err,
                      size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "broadcast") || !check_dims(rank, shape, &e, "broadcast")) return false;
    int r = layout_rank(l);
    if (rank < r) return lay_fail(&e, "broadcast: cannot broadcast rank %d to rank %d", r, rank);
    if (rank == 0) return layout_make(1, 0, out, err, errlen);
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    if (rank > 1) lay_b_open(&b, TUPLE);
    for (int j = 0; j < rank; j++) {
        int k = j - (rank - r);
        if (k < 0) {
            lay_b_leaf(&b, shape[j], 0);
            continue;
        }
        int mi = lay_mode_of(l->node, 0, k);
        int64_t ms = lay_sub_size(l->node, mi);
        if (ms == shape[j])
            lay_b_copy(&b, l->node, mi);
        else if (ms == 1)
            lay_b_leaf(&b, shape[j], 0);
        else
            return lay_fail(&e, "broadcast: mode %d has size %" PRId64 ", cannot broadcast to %" PRId64,
                        k, ms, shape[j]);
    }
    if (rank > 1) lay_b_close(&b);
    return lay_finish(&b, &tmp, out, &e, "broadcast");
}

bool layout_slice(const Layout *l, int mode, int64_t coord, Layout *rest, int64_t *offset,
                  char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "slice")) return false;
    int r = layout_rank(l);
    if (mode < 0 || mode >= r) return lay_fail(&e, "slice: mode %d out of range for rank %d", mode, r);
    int mi = lay_mode_of(l->node, 0, mode);
    int64_t ms = lay_sub_size(l->node, mi);
    if (coord < 0 || coord >= ms)
        return lay_fail(&e, "slice: coordinate %" PRId64 " out of range [0, %" PRId64 ")", coord, ms);
    int64_t off = (int64_t)eval_sub(l->node, mi, (uint64_t)coord);
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    if (r == 1) {
        lay_b_leaf(&b, 1, 0);
    } else if (r == 2) {
        lay_b_copy(&b, l->node, lay_mode_of(l->node, 0, 1 - mode));
    } else {
        lay_b_open(&b, TUPLE);
        for (int k = 0; k < r; k++)
            if (k != mode) lay_b_copy(&b, l->node, lay_mode_of(l->node, 0, k));
        lay_b_close(&b);
    }
    if (!lay_finish(&b, &tmp, rest, &e, "slice")) return false;
    if (offset) *offset = off;
    return true;
}

static bool pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

bool layout_tv_row_major(int rank, const int64_t *shape, int64_t threads, int64_t vec,
                         Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (rank < 0 || rank > 8) return lay_fail(&e, "tv-layout: rank %d out of range 0..8", rank);
    if (!check_dims(rank, shape, &e, "tv-layout")) return false;
    int64_t n = 1;
    for (int k = 0; k < rank; k++) {
        if (!pow2(shape[k]))
            return lay_fail(&e, "tv-layout: dimension %d has extent %" PRId64 ", not a power of two",
                        k, shape[k]);
        if (lay_mul_ovf(n, shape[k], &n) || n > LAYOUT_MAX_VALUE)
            return lay_fail(&e, "tv-layout: tile size exceeds the limit 2^48");
    }
    if (!pow2(threads)) return lay_fail(&e, "tv-layout: thread count %" PRId64 " is not a power of two", threads);
    if (!pow2(vec)) return lay_fail(&e, "tv-layout: vector width %" PRId64 " is not a power of two", vec);
    int64_t tv;
    if (lay_mul_ovf(threads, vec, &tv) || n % tv != 0)
        return lay_fail(&e,
                    "tv-layout: tile has %" PRId64 " elements, not a multiple of threads*vec = %" PRId64
                    "*%" PRId64,
                    n, threads, vec);
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    lay_b_open(&b, TUPLE);
    lay_b_leaf(&b, threads, vec);
    lay_b_open(&b, TUPLE);
    lay_b_leaf(&b, vec, 1);
    lay_b_leaf(&b, n / tv, tv);
    lay_b_close(&b);
    lay_b_close(&b);
    return lay_finish(&b, &tmp, out, &e, "tv-layout");
}
