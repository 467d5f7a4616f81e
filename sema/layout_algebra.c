/* layout_algebra.c: the operations of CuTe's layout algebra that build one
 * layout from others (interface and semantics in layout.h, user
 * documentation in docs/layout.md): complement, composition, the divides
 * and products, and the inverses.  The representation, construction,
 * queries, coalescing and views are layout.c's; the text notation and
 * swizzles layout_text.c's.  Like the rest of the module, every operation
 * runs on the stack, validates its inputs and its result, and checks every
 * multiplication. */
#include "sema/layout.h"
#include "sema/layout_impl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- complement ------------------------------------------------------------- */

/* The complement of the subtree at i for cotarget m as a flat list (before
 * coalescing).  With the modes sorted by stride, s0:d0 ... s(n-1):d(n-1),
 * the complement is (d0, d1/(s0*d0), ..., ceil(m/(s(n-1)*d(n-1)))) :
 * (1, s0*d0, ..., s(n-1)*d(n-1)), defined when each d(k) is a multiple of
 * s(k-1)*d(k-1) (admissibility).  CuTe divides without checking; we refuse,
 * because the truncated quotient would give a layout that is not a
 * complement. */
static bool complement_flat(const Node *nd, int i, int64_t m, Flat *out, Err *e)
{
    Flat f;
    lay_filtered_flat(nd, i, &f);
    if (m < 1) return lay_fail(e, "complement: cotarget %" PRId64 " is not positive", m);
    if (m > LAYOUT_MAX_VALUE) return lay_fail(e, "complement: cotarget exceeds the limit 2^48");
    if (f.n == 0) { /* only stride-0/size-1 modes: everything is the rest */
        out->n = 1;
        out->s[0] = m;
        out->d[0] = 1;
        return true;
    }
    for (int k = 0; k < f.n; k++)
        if (f.d[k] < 0)
            return lay_fail(e,
                        "complement: mode %" PRId64 ":%" PRId64
                        " has a negative stride; a complement is defined only for "
                        "non-negative strides",
                        f.s[k], f.d[k]);
    lay_sort_flat(&f);
    out->n = 0;
    int64_t span = 1; /* shape*stride of the previous sorted mode */
    for (int k = 0; k < f.n; k++) {
        if (f.d[k] % span != 0) {
            if (k > 0 && f.d[k] == f.d[k - 1])
                return lay_fail(e,
                            "complement: layout is not injective: two modes have stride %" PRId64,
                            f.d[k]);
            return lay_fail(e,
                        "complement: layout is not admissible: stride %" PRId64
                        " is not a multiple of %" PRId64 " (shape*stride of the mode %" PRId64
                        ":%" PRId64 " below it)",
                        f.d[k], span, f.s[k - 1], f.d[k - 1]);
        }
        out->s[out->n] = f.d[k] / span;
        out->d[out->n] = span;
        out->n++;
        if (lay_mul_ovf(f.s[k], f.d[k], &span))
            return lay_fail(e, "complement: value exceeds the limit 2^48");
    }
    out->s[out->n] = m / span + (m % span != 0); /* CuTe's ceil_div */
    out->d[out->n] = span;
    out->n++;
    return true;
}

static bool complement_sub(const Node *nd, int i, int64_t m, bool raw, Layout *out, Err *e)
{
    Flat f, c;
    if (!complement_flat(nd, i, m, &f, e)) return false;
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    if (raw) {
        lay_b_flat(&b, &f);
    } else {
        lay_coalesce_core(f.s, f.d, f.n, false, &c);
        lay_b_flat(&b, &c);
    }
    return lay_finish(&b, &tmp, out, e, "complement");
}

static int64_t default_cotarget(const Layout *l)
{
    Flat f, c;
    lay_filtered_flat(l->node, 0, &f);
    lay_coalesce_core(f.s, f.d, f.n, false, &c);
    int64_t cs = 1;
    for (int k = 0; k < c.n; k++) cs += (c.s[k] - 1) * lay_abs64(c.d[k]);
    return cs;
}

bool layout_complement(const Layout *l, int64_t m, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "complement")) return false;
    if (m <= 0) m = default_cotarget(l);
    return complement_sub(l->node, 0, m, false, out, &e);
}

bool layout_complement_uncoalesced(const Layout *l, int64_t m, Layout *out, char *err,
                                   size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "complement")) return false;
    if (m <= 0) m = default_cotarget(l);
    return complement_sub(l->node, 0, m, true, out, &e);
}

/* ---- composition ------------------------------------------------------------ */

/* a o s:d for a flat, coalesced a whose last mode is unbounded (CuTe's
 * composition_impl for an integral right-hand side).  First divide d out of
 * a's modes from the left (stride divisibility), then keep the first s
 * elements (shape divisibility); the rest goes to the last mode.
 *
 * CuTe composes a tuple B mode by mode, (A o B0, A o B1, ...), which equals
 * A(B(i)) only when adding the modes' contributions never carries from one
 * mode of A into the next.  Leaf s:d uses, in mode k of A, the digits
 * 0, u, ..., (m-1)*u; `carry[k]` sums their maxima over the leaves of B, and
 * we refuse when it reaches a's shape (CuTe would return a layout that is
 * not A o B, e.g. for (6,6):(8,9) o (6,3):(1,1)). */
static bool compose_leaf(const Flat *a, const Node *an, int ai, int64_t s, int64_t d,
                         int64_t *carry, Builder *b, Err *e)
{
    int64_t t;
    if (d == 0) { /* CuTe's static stride-0 shortcut */
        lay_b_leaf(b, s, 0);
        return true;
    }
    int r = a->n;
    if (d < 0 && r > 1) {
        char txt[LAYOUT_STR_MAX];
        Out o = {txt, sizeof txt, 0};
        lay_fmt_layout(&o, an, ai);
        lay_out_end(&o);
        return lay_fail(e,
                    "compose: mode %" PRId64 ":%" PRId64
                    " of the right operand has a negative stride, so it reaches negative "
                    "indices, where the left operand %s is not defined: only a layout that "
                    "coalesces to a single mode (its extension past its size included) is "
                    "linear on every integer",
                    s, d, txt);
    }
    if (r == 1) { /* a single mode s0:d0 is d0*i for every integer i */
        if (lay_mul_ovf(d, a->d[0], &t)) return lay_fail(e, "compose: value exceeds the limit 2^48");
        lay_b_leaf(b, s, t);
        return true;
    }
    Flat res;
    int64_t unit[FLAT_CAP];
    int64_t rest = d;
    for (int k = 0; k < r - 1; k++) {
        int64_t ak = a->s[k], q;
        unit[k] = rest;
        if (ak % rest == 0) {
            q = ak / rest;
            rest = 1;
        } else if (rest % ak == 0) {
            q = 1;
            rest /= ak;
        } else {
            return lay_fail(e,
                        "compose: stride divisibility condition violated: stride %" PRId64
                        " of the right operand leaves %" PRId64
                        ", which neither divides nor is a multiple of shape %" PRId64
                        " of the left operand",
                        d, rest, ak);
        }
        res.s[k] = q;
        if (lay_mul_ovf(a->d[k], ak / q, &res.d[k]))
            return lay_fail(e, "compose: value exceeds the limit 2^48");
    }
    int64_t rest_stride = rest, rest_shape = s;
    for (int k = 0; k < r - 1; k++) {
        int64_t x = res.s[k];
        if (x % rest_shape == 0) {
            res.s[k] = rest_shape;
            rest_shape = 1;
        } else if (rest_shape % x == 0) {
            rest_shape /= x;
        } else {
            return lay_fail(e,
                        "compose: shape divisibility condition violated: shape %" PRId64
                        " of the right operand leaves %" PRId64
                        ", which neither divides nor is a multiple of %" PRId64
                        " (a shape of the left operand after dividing out stride %" PRId64 ")",
                        s, rest_shape, x, d);
        }
        carry[k] += (res.s[k] - 1) * unit[k];
        if (carry[k] >= a->s[k])
            return lay_fail(e,
                        "compose: the modes of the right operand overlap in mode %d (shape %" PRId64
                        ") of the left operand, so the result would not be A(B(i)); "
                        "compose them separately",
                        k, a->s[k]);
    }
    res.s[r - 1] = rest_shape;
    if (lay_mul_ovf(rest_stride, a->d[r - 1], &res.d[r - 1]))
        return lay_fail(e, "compose: value exceeds the limit 2^48");
    res.n = r;
    Flat c;
    lay_coalesce_core(res.s, res.d, res.n, false, &c);
    lay_b_flat(b, &c);
    return true;
}

static bool compose_node(const Flat *a, const Node *an, int ai, const Node *bn, int bi,
                         int64_t *carry, Builder *out, Err *e)
{
    if (bn[bi].kind == LEAF)
        return compose_leaf(a, an, ai, bn[bi].shape, bn[bi].stride, carry, out, e);
    lay_b_open(out, TUPLE);
    for (int c = bi + 1; c < bn[bi].end; c = bn[c].end)
        if (!compose_node(a, an, ai, bn, c, carry, out, e)) return false;
    lay_b_close(out);
    return true;
}

/* Sub-layout a at ai composed with layout subtree b at bi, appended to out. */
bool lay_emit_compose(const Node *an, int ai, const Node *bn, int bi, Builder *out, Err *e)
{
    Flat f, a;
    int64_t carry[FLAT_CAP] = {0};
    lay_flatten_sub(an, ai, &f);
    lay_coalesce_core(f.s, f.d, f.n, true, &a);
    return compose_node(&a, an, ai, bn, bi, carry, out, e);
}

typedef bool (*BinOp)(const Node *an, int ai, const Node *bn, int bi, Builder *out, Err *e);

/* Apply op by mode while the tiler is a bracket <...>: mode k of a with
 * tiler element k, later modes of a copied (CuTe's transform_layout).  A `_`
 * keeps its mode of a whole: composition, divide and product with CuTe's
 * Underscore are the identity. */
static bool bymode(const Node *an, int ai, const Node *tn, int ti, BinOp op, const char *name,
                   Builder *out, Err *e)
{
    if (tn[ti].kind == UNDER) {
        lay_b_copy(out, an, ai);
        return true;
    }
    if (tn[ti].kind != TILE) return op(an, ai, tn, ti, out, e);
    int k = tn[ti].nchild, r = lay_rank_of(an, ai);
    if (k > r) return lay_fail(e, "%s: tiler has %d modes but the layout has rank %d", name, k, r);
    lay_b_open(out, TUPLE);
    int tc = ti + 1;
    for (int m = 0; m < r; m++) {
        int am = lay_mode_of(an, ai, m);
        if (m < k) {
            if (!bymode(an, am, tn, tc, op, name, out, e)) return false;
            tc = tn[tc].end;
        } else {
            lay_b_copy(out, an, am);
        }
    }
    lay_b_close(out);
    return true;
}

/* tn: the right operand's nodes, a tiler's or a (validated) layout's. */
static bool run_op_nodes(const Layout *a, const Node *tn, BinOp op, const char *name, Layout *out,
                         Err *e)
{
    if (!lay_check_in(a, e, name)) return false;
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    if (!bymode(a->node, 0, tn, 0, op, name, &b, e)) return false;
    return lay_finish(&b, &tmp, out, e, name);
}

static bool run_tiler(const Layout *a, const LayoutTiler *t, BinOp op, const char *name,
                      Layout *out, Err *e)
{
    if (!lay_check_tiler_in(t, e, name)) return false;
    return run_op_nodes(a, t->node, op, name, out, e);
}

static bool run_layout(const Layout *a, const Layout *b, BinOp op, const char *name, Layout *out,
                       Err *e)
{
    if (!lay_check_in(b, e, name)) return false;
    return run_op_nodes(a, b->node, op, name, out, e);
}

bool layout_compose_tiler(const Layout *a, const LayoutTiler *t, Layout *out, char *err,
                          size_t errlen)
{
    Err e = {err, errlen};
    return run_tiler(a, t, lay_emit_compose, "compose", out, &e);
}

bool layout_compose(const Layout *a, const Layout *b, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    return run_layout(a, b, lay_emit_compose, "compose", out, &e);
}

/* ---- divide and product ------------------------------------------------------ */

/* lay_wrap() with a prefix naming the layout subtree at i and a number:
 * "<pre><layout><mid><value>: " before the inner reason. */
static bool wrap_sub(Err *e, const char *pre, const Node *nd, int i, const char *mid, int64_t v)
{
    char txt[LAYOUT_STR_MAX], prefix[LAYOUT_STR_MAX + 256];
    Out o = {txt, sizeof txt, 0};
    lay_fmt_layout(&o, nd, i);
    lay_out_end(&o);
    snprintf(prefix, sizeof prefix, "%s%s%s%" PRId64 ": ", pre, txt, mid, v);
    return lay_wrap(e, prefix);
}

static bool op_logical_divide(const Node *an, int ai, const Node *bn, int bi, Builder *out, Err *e)
{
    Layout c, bc;
    for (int j = bi; j < bn[bi].end; j++)
        if (bn[j].kind == LEAF && bn[j].shape > 1 && bn[j].stride < 0)
            return lay_fail(e,
                        "logical-divide: tiler mode %" PRId64 ":%" PRId64
                        " has a negative stride, so the tiler leaves A's domain [0, %" PRId64
                        ") and has no complement there",
                        bn[j].shape, bn[j].stride, lay_sub_size(an, ai));
    if (!complement_sub(bn, bi, lay_sub_size(an, ai), false, &c, e))
        return wrap_sub(e, "logical-divide: tiler ", bn, bi, " has no complement for size(A) = ",
                        lay_sub_size(an, ai));
    Builder bb;
    lay_b_init(&bb, bc.node);
    lay_b_open(&bb, TUPLE);
    lay_b_copy(&bb, bn, bi);
    lay_b_copy(&bb, c.node, 0);
    lay_b_close(&bb);
    if (!lay_b_done(&bb, e, "logical-divide")) return false;
    bc.n = bb.n;
    if (!lay_emit_compose(an, ai, bc.node, 0, out, e)) return lay_wrap(e, "logical-divide: ");
    return true;
}

static bool op_logical_product(const Node *an, int ai, const Node *bn, int bi, Builder *out,
                               Err *e)
{
    int64_t m;
    if (lay_mul_ovf(lay_sub_size(an, ai), lay_sub_cosize(bn, bi), &m) || m > LAYOUT_MAX_VALUE)
        return lay_fail(e, "logical-product: size(A)*cosize(B) exceeds the limit 2^48");
    Layout c;
    if (!complement_sub(an, ai, m, false, &c, e))
        return wrap_sub(e, "logical-product: A = ", an, ai,
                        " has no complement for size(A)*cosize(B) = ", m);
    lay_b_open(out, TUPLE);
    lay_b_copy(out, an, ai);
    if (!lay_emit_compose(c.node, 0, bn, bi, out, e)) return lay_wrap(e, "logical-product: ");
    lay_b_close(out);
    return true;
}

bool layout_logical_divide_tiler(const Layout *a, const LayoutTiler *t, Layout *out, char *err,
                                 size_t errlen)
{
    Err e = {err, errlen};
    return run_tiler(a, t, op_logical_divide, "logical-divide", out, &e);
}

bool layout_logical_divide(const Layout *a, const Layout *b, Layout *out, char *err,
                           size_t errlen)
{
    Err e = {err, errlen};
    return run_layout(a, b, op_logical_divide, "logical-divide", out, &e);
}

bool layout_logical_product_tiler(const Layout *a, const LayoutTiler *t, Layout *out, char *err,
                                  size_t errlen)
{
    Err e = {err, errlen};
    return run_tiler(a, t, op_logical_product, "logical-product", out, &e);
}

bool layout_logical_product(const Layout *a, const Layout *b, Layout *out, char *err,
                            size_t errlen)
{
    Err e = {err, errlen};
    return run_layout(a, b, op_logical_product, "logical-product", out, &e);
}

/* CuTe's zip2_by: split each rank-2 (tile, rest) mode at the tiler's
 * terminals into `first` (tiles) and `second` (rests, then the modes the
 * tiler did not reach).  A `_` terminal left its mode of the layout whole,
 * and zip2_by splits that mode as it stands: CuTe requires it to have rank 2
 * (sub-mode 0 goes with the tiles, sub-mode 1 with the rests) and does not
 * compile otherwise; we fail with the reason. */
/* Out of line so that the recursion below does not carry its buffer. */
static __attribute__((noinline)) bool zip2_kept_rank(const Node *ln, int li, Err *e,
                                                     const char *name)
{
    char mode[LAYOUT_STR_MAX];
    Out o = {mode, sizeof mode, 0};
    lay_fmt_layout(&o, ln, li);
    lay_out_end(&o);
    return lay_fail(e,
                "%s: a '_' in the tiler keeps the mode %s whole, and the zip (CuTe's "
                "zip2_by) can only split a kept mode of rank 2 into (tile, rest); "
                "this one has rank %d",
                name, mode, lay_rank_of(ln, li));
}

static bool zip2(const Node *ln, int li, const Node *tn, int ti, Builder *first, Builder *second,
                 Err *e, const char *name)
{
    if (tn[ti].kind == UNDER && (ln[li].kind != TUPLE || ln[li].nchild != 2))
        return zip2_kept_rank(ln, li, e, name);
    if (tn[ti].kind != TILE) {
        if (ln[li].kind != TUPLE || ln[li].nchild != 2)
            return lay_fail(e, "%s: internal error: divided mode is not rank 2", name);
        int c0 = li + 1;
        lay_b_copy(first, ln, c0);
        lay_b_copy(second, ln, ln[c0].end);
        return true;
    }
    int k = tn[ti].nchild, r = lay_rank_of(ln, li);
    lay_b_open(first, TUPLE);
    lay_b_open(second, TUPLE);
    int tc = ti + 1;
    for (int m = 0; m < r; m++) {
        int lm = lay_mode_of(ln, li, m);
        if (m < k) {
            if (!zip2(ln, lm, tn, tc, first, second, e, name)) return false;
            tc = tn[tc].end;
        } else {
            lay_b_copy(second, ln, lm);
        }
    }
    lay_b_close(first);
    lay_b_close(second);
    return true;
}

static bool zipped(const Layout *a, const LayoutTiler *t, bool tiled, Layout *out, Err *e,
                   const char *name)
{
    Layout ld, f, s, tmp;
    if (!run_tiler(a, t, op_logical_divide, name, &ld, e)) return false;
    Builder bf, bs, b;
    lay_b_init(&bf, f.node);
    lay_b_init(&bs, s.node);
    if (!zip2(ld.node, 0, t->node, 0, &bf, &bs, e, name)) return false;
    if (!lay_b_done(&bf, e, name) || !lay_b_done(&bs, e, name)) return false;
    lay_b_init(&b, tmp.node);
    lay_b_open(&b, TUPLE);
    lay_b_copy(&b, f.node, 0);
    if (tiled && s.node[0].kind == TUPLE) {
        for (int c = 1; c < s.node[0].end; c = s.node[c].end) lay_b_copy(&b, s.node, c);
    } else {
        lay_b_copy(&b, s.node, 0);
    }
    lay_b_close(&b);
    return lay_finish(&b, &tmp, out, e, name);
}

bool layout_zipped_divide(const Layout *a, const LayoutTiler *t, Layout *out, char *err,
                          size_t errlen)
{
    Err e = {err, errlen};
    return zipped(a, t, false, out, &e, "zipped-divide");
}

bool layout_tiled_divide(const Layout *a, const LayoutTiler *t, Layout *out, char *err,
                         size_t errlen)
{
    Err e = {err, errlen};
    return zipped(a, t, true, out, &e, "tiled-divide");
}

/* CuTe's append<R>: pad with 1:0 modes up to rank R. */
static void pad_rank(const Layout *l, int r, Builder *b)
{
    int have = lay_rank_of(l->node, 0);
    if (have >= r) {
        lay_b_copy(b, l->node, 0);
        return;
    }
    lay_b_open(b, TUPLE);
    for (int m = 0; m < have; m++) lay_b_copy(b, l->node, lay_mode_of(l->node, 0, m));
    for (int m = have; m < r; m++) lay_b_leaf(b, 1, 0);
    lay_b_close(b);
}

static bool rank_product(const Layout *a, const Layout *bl, bool raked, Layout *out, Err *e,
                         const char *name)
{
    if (!lay_check_in(a, e, name) || !lay_check_in(bl, e, name)) return false;
    int ra = layout_rank(a), rb = layout_rank(bl), r = ra > rb ? ra : rb;
    Layout ap, bp, c, cc;
    Builder b;
    lay_b_init(&b, ap.node);
    pad_rank(a, r, &b);
    if (!lay_b_done(&b, e, name)) return false;
    ap.n = b.n;
    lay_b_init(&b, bp.node);
    pad_rank(bl, r, &b);
    if (!lay_b_done(&b, e, name)) return false;
    bp.n = b.n;
    int64_t m;
    if (lay_mul_ovf(layout_size(&ap), layout_cosize(&bp), &m) || m > LAYOUT_MAX_VALUE)
        return lay_fail(e, "%s: size(A)*cosize(B) exceeds the limit 2^48", name);
    if (!complement_sub(ap.node, 0, m, false, &c, e)) {
        char p[64];
        snprintf(p, sizeof p, "%s: ", name);
        return lay_wrap(e, p);
    }
    lay_b_init(&b, cc.node);
    if (!lay_emit_compose(c.node, 0, bp.node, 0, &b, e)) {
        char p[64];
        snprintf(p, sizeof p, "%s: ", name);
        return lay_wrap(e, p);
    }
    if (!lay_b_done(&b, e, name)) return false;
    cc.n = b.n;
    Layout tmp;
    lay_b_init(&b, tmp.node);
    lay_b_open(&b, TUPLE);
    for (int m2 = 0; m2 < r; m2++) {
        /* mode m2 of A' and of the product's second mode, concatenated */
        int ai = r == 1 ? 0 : lay_mode_of(ap.node, 0, m2);
        int ci = r == 1 ? 0 : lay_mode_of(cc.node, 0, m2);
        Flat fa, fc, both, co;
        lay_flatten_sub(ap.node, ai, &fa);
        lay_flatten_sub(cc.node, ci, &fc);
        if (fa.n + fc.n > LAYOUT_MAX_LEAVES)
            return lay_fail(e, "%s: result has more than %d modes", name, LAYOUT_MAX_LEAVES);
        const Flat *x = raked ? &fc : &fa, *y = raked ? &fa : &fc;
        both.n = 0;
        for (int k = 0; k < x->n; k++, both.n++) {
            both.s[both.n] = x->s[k];
            both.d[both.n] = x->d[k];
        }
        for (int k = 0; k < y->n; k++, both.n++) {
            both.s[both.n] = y->s[k];
            both.d[both.n] = y->d[k];
        }
        lay_coalesce_core(both.s, both.d, both.n, false, &co);
        lay_b_flat(&b, &co);
    }
    lay_b_close(&b);
    return lay_finish(&b, &tmp, out, e, name);
}

bool layout_blocked_product(const Layout *a, const Layout *b, Layout *out, char *err,
                            size_t errlen)
{
    Err e = {err, errlen};
    return rank_product(a, b, false, out, &e, "blocked-product");
}

bool layout_raked_product(const Layout *a, const Layout *b, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    return rank_product(a, b, true, out, &e, "raked-product");
}

/* ---- inverses ------------------------------------------------------------------ */

/* Follow strides 1, s*d, ... through the coalesced modes (CuTe's
 * inverse_seq, which compares |stride|); the inverse's strides are the
 * colexicographic strides of the modes found, with the sign of the mode's
 * stride.  A negative-stride mode reaches its offsets only from negative
 * indices, so it may be followed only when the layout coalesces to that one
 * mode (a linear function, defined on every integer); otherwise CuTe's answer
 * would not satisfy l(r(i)) == i and we fail. */
static bool right_inverse_node(const Node *nd, int i, Layout *out, Err *e, const char *name)
{
    Flat f, c, cx;
    lay_flatten_sub(nd, i, &f);
    lay_coalesce_core(f.s, f.d, f.n, false, &c);
    lay_coalesce_core(f.s, f.d, f.n, true, &cx); /* one mode: linear on every integer */
    int64_t rstride[LAYOUT_MAX_LEAVES], prod = 1;
    for (int k = 0; k < c.n; k++) {
        rstride[k] = prod;
        prod *= c.s[k];
    }
    Flat r;
    r.n = 0;
    bool used[LAYOUT_MAX_LEAVES] = {false};
    int64_t next = 1;
    for (;;) {
        int found = -1;
        for (int k = 0; k < c.n; k++)
            if (!used[k] && lay_abs64(c.d[k]) == next && c.s[k] > 1) {
                found = k;
                break;
            }
        if (found < 0) break;
        if (c.d[found] < 0 && cx.n > 1)
            return lay_fail(e,
                        "%s: offset %" PRId64 " is reached through mode %" PRId64 ":%" PRId64
                        ", whose stride is negative, so the inverse would need negative "
                        "indices, where the layout is not defined: only a layout that "
                        "coalesces to a single mode (its extension past its size included) is "
                        "linear on every integer",
                        name, next, c.s[found], c.d[found]);
        used[found] = true;
        r.s[r.n] = c.s[found];
        r.d[r.n] = c.d[found] < 0 ? -rstride[found] : rstride[found];
        r.n++;
        if (lay_mul_ovf(c.s[found], lay_abs64(c.d[found]), &next)) break;
    }
    Layout tmp;
    Builder b;
    lay_b_init(&b, tmp.node);
    if (r.n == 0)
        lay_b_leaf(&b, 1, 0);
    else
        lay_b_flat(&b, &r);
    return lay_finish(&b, &tmp, out, e, name);
}

bool layout_right_inverse(const Layout *l, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "right-inverse")) return false;
    return right_inverse_node(l->node, 0, out, &e, "right-inverse");
}

bool layout_left_inverse(const Layout *l, Layout *out, char *err, size_t errlen)
{
    Err e = {err, errlen};
    if (!lay_check_in(l, &e, "left-inverse")) return false;
    Flat f;
    lay_flatten_sub(l->node, 0, &f);
    for (int k = 0; k < f.n; k++) {
        if (f.s[k] > 1 && f.d[k] == 0)
            return lay_fail(&e, "left-inverse: layout is not injective (mode %" PRId64
                            ":0 repeats offsets)", f.s[k]);
        if (f.s[k] > 1 && f.d[k] < 0)
            return lay_fail(&e,
                        "left-inverse: mode %" PRId64 ":%" PRId64
                        " has a negative stride; the left inverse is right-inverse((L, "
                        "complement(L))), and a complement is defined only for non-negative "
                        "strides",
                        f.s[k], f.d[k]);
    }
    Layout c, lc;
    if (!complement_sub(l->node, 0, default_cotarget(l), false, &c, &e))
        return lay_wrap(&e, "left-inverse: ");
    Builder b;
    lay_b_init(&b, lc.node);
    lay_b_open(&b, TUPLE);
    lay_b_copy(&b, l->node, 0);
    lay_b_copy(&b, c.node, 0);
    lay_b_close(&b);
    if (!lay_b_done(&b, &e, "left-inverse")) return false;
    lc.n = b.n;
    return right_inverse_node(lc.node, 0, out, &e, "left-inverse");
}
