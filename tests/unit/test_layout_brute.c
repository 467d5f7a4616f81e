/* test_layout_brute.c: every operation of the layout algebra (sema/layout.h)
 * against brute-force evaluation of the layout functions, over many seeded
 * random small layouts with positive, zero and negative strides and tilers
 * with `_` (CuTe's Underscore).
 *
 * The reference here shares no code with sema/layout.c: it evaluates a
 * layout from its flattened leaves (CuTe's function, the last mode taking
 * whatever is left of the index; a layout that is linear on [0, size] is
 * linear on every integer), and it decides CuTe's admissibility conditions
 * (left divisibility of A's shape by B's stride, then by B's shape; the
 * complement's "each stride a multiple of the span below") from their
 * definitions.  For every operation it checks the defining equation when
 * the library answers, and that the library's error names a condition the
 * reference also finds violated when it refuses. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "layout_check.h"
#include "sema/layout.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- random layouts ------------------------------------------------------------- */

static const Nesting nesting = {.max_depth = 2, .wrap_leaf = 0, .tuple_single = 3};

static Layout make_layout(const int64_t *s, const int64_t *d, int n)
{
    Str t;
    layout_text(&nesting, &t, s, d, n);
    return P(t.b);
}

/* Any small layout; strides in [-maxd, maxd] when neg (one in five 0). */
static Layout rand_any(int maxn, int64_t maxd, bool neg)
{
    int64_t s[8], d[8];
    int n = (int)rr(1, maxn);
    for (int k = 0; k < n; k++) {
        s[k] = rr(1, 6);
        d[k] = rnd() % 5 == 0 ? 0 : rr(1, maxd);
        if (neg && rnd() % 3 == 0) d[k] = -d[k];
    }
    return make_layout(s, d, n);
}

/* An injective, admissible layout (strides each a multiple of the span of
 * the mode below, modes shuffled); with neg, some strides negated. */
static Layout rand_admissible(int maxn, int maxgap, bool neg)
{
    int64_t s[8], d[8];
    int n = (int)rr(1, maxn);
    int64_t span = 1;
    for (int k = 0; k < n; k++) {
        s[k] = rr(2, 4);
        d[k] = span * rr(1, maxgap);
        span = s[k] * d[k];
    }
    for (int k = n - 1; k > 0; k--) {
        int j = (int)rr(0, k);
        int64_t t = s[k];
        s[k] = s[j];
        s[j] = t;
        t = d[k];
        d[k] = d[j];
        d[j] = t;
    }
    if (neg)
        for (int k = 0; k < n; k++)
            if (rnd() % 3 == 0) d[k] = -d[k];
    return make_layout(s, d, n);
}

/* ---- the reference ---------------------------------------------------------------- */

typedef struct Ref {
    int n;
    int64_t s[LAYOUT_MAX_LEAVES + 1], d[LAYOUT_MAX_LEAVES + 1];
} Ref;

static Ref ref_of(const Layout *l)
{
    Ref r;
    r.n = layout_flatten(l, r.s, r.d);
    return r;
}

static int64_t ref_size(const Ref *r)
{
    int64_t p = 1;
    for (int k = 0; k < r->n; k++) p *= r->s[k];
    return p;
}

/* CuTe's layout function for idx >= 0: colexicographic digits, the last
 * mode unbounded. */
static int64_t ref_eval(const Ref *r, int64_t idx)
{
    int64_t off = 0;
    for (int k = 0; k + 1 < r->n; k++) {
        off += (idx % r->s[k]) * r->d[k];
        idx /= r->s[k];
    }
    return off + idx * r->d[r->n - 1];
}

/* Linear on [0, size] (the point size uses the extension): then the layout
 * is slope*i on every integer, which defines it at negative indices. */
static bool ref_linear(const Ref *r, int64_t *slope)
{
    int64_t m = ref_eval(r, 1);
    for (int64_t i = 0; i <= ref_size(r); i++)
        if (ref_eval(r, i) != i * m) return false;
    if (slope) *slope = m;
    return true;
}

/* The layout at any integer: false where it is undefined (a negative index
 * of a layout that is not linear). */
static bool ref_at(const Ref *r, int64_t j, int64_t *v)
{
    int64_t m;
    if (j >= 0) {
        *v = ref_eval(r, j);
        return true;
    }
    if (!ref_linear(r, &m)) return false;
    *v = j * m;
    return true;
}

/* CuTe's coalesce_x: merge s1:d1 into s0:d0 when d1 == s0*d0, drop size-1
 * modes but keep the last mode's stride (it carries the extension). */
static Ref ref_coalesce_x(const Ref *in)
{
    Ref o;
    o.n = 0;
    for (int k = 0; k < in->n; k++) {
        bool last = k == in->n - 1;
        int64_t s = in->s[k], d = in->d[k];
        if (s == 1 && !last) continue;
        if (o.n > 0 && o.s[o.n - 1] * o.d[o.n - 1] == d) {
            o.s[o.n - 1] *= s;
            continue;
        }
        if (o.n > 0 && s == 1 && last) { /* the extension's stride stays */
            o.s[o.n] = 1;
            o.d[o.n] = d;
            o.n++;
            continue;
        }
        o.s[o.n] = s;
        o.d[o.n] = d;
        o.n++;
    }
    if (o.n == 0) {
        o.n = 1;
        o.s[0] = 1;
        o.d[0] = 0;
    }
    return o;
}

/* v is left-divisible by the shapes sh[0..m) (the last mode of A, which is
 * unbounded, not among them): some prefix product p = sh[0]*...*sh[i-1]
 * divides v and, unless the prefix is all of them, v/p divides sh[i].
 * *at and *q say where it ends: sh[at] is entered with quotient q. */
static bool left_divisible(const int64_t *sh, int m, int64_t v, int *at, int64_t *q)
{
    int64_t p = 1;
    for (int i = 0; i <= m; i++) {
        if (v % p != 0) return false;
        if (i == m || sh[i] % (v / p) == 0) {
            *at = i;
            *q = v / p;
            return true;
        }
        p *= sh[i];
    }
    return false;
}

enum { OK_LEAF, BAD_STRIDE, BAD_SHAPE, BAD_NEGATIVE };

/* CuTe's conditions for A o (s:d), from their definitions. */
static int ref_leaf_admissible(const Ref *a, int64_t s, int64_t d)
{
    if (d == 0) return OK_LEAF;
    Ref c = ref_coalesce_x(a);
    if (d < 0) return ref_linear(a, NULL) ? OK_LEAF : BAD_NEGATIVE;
    if (c.n == 1) return OK_LEAF;
    int m = c.n - 1, at;
    int64_t q;
    if (!left_divisible(c.s, m, d, &at, &q)) return BAD_STRIDE;
    if (at == m) return OK_LEAF; /* all in the unbounded last mode */
    int64_t rest[LAYOUT_MAX_LEAVES];
    int rn = 0;
    rest[rn++] = c.s[at] / q;
    for (int k = at + 1; k < m; k++) rest[rn++] = c.s[k];
    if (!left_divisible(rest, rn, s, &at, &q)) return BAD_SHAPE;
    return OK_LEAF;
}

/* The values of a layout on [0, size), sorted. */
static int cmp64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

static int64_t vals_buf[2][1 << 16];

static bool sorted_values(const Layout *l, int which, int64_t *n)
{
    Ref r = ref_of(l);
    *n = ref_size(&r);
    if (*n > (int64_t)(sizeof vals_buf[0] / sizeof vals_buf[0][0])) return false;
    for (int64_t i = 0; i < *n; i++) vals_buf[which][i] = ref_eval(&r, i);
    qsort(vals_buf[which], (size_t)*n, sizeof(int64_t), cmp64);
    return true;
}

static bool injective(const Layout *l)
{
    int64_t n;
    if (!sorted_values(l, 0, &n)) return false;
    for (int64_t i = 1; i < n; i++)
        if (vals_buf[0][i] == vals_buf[0][i - 1]) return false;
    return true;
}

static bool has_negative(const Layout *l)
{
    Ref r = ref_of(l);
    for (int k = 0; k < r.n; k++)
        if (r.s[k] > 1 && r.d[k] < 0) return true;
    return false;
}

/* (L, C) is a bijection onto [0, size(L)*size(C)): L's values plus C's. */
static bool tiles_range(const Ref *l, const Ref *c)
{
    static unsigned char hit[1 << 16];
    int64_t nl = ref_size(l), nc = ref_size(c), n = nl * nc;
    if (n > (int64_t)sizeof hit) return true; /* too big to check here */
    memset(hit, 0, (size_t)n);
    for (int64_t j = 0; j < nc; j++)
        for (int64_t i = 0; i < nl; i++) {
            int64_t v = ref_eval(l, i) + ref_eval(c, j);
            if (v < 0 || v >= n || hit[v]) return false;
            hit[v] = 1;
        }
    return true;
}

/* filter(L) as a Ref: the leaves with shape > 1 and stride != 0. */
static Ref ref_filter(const Layout *l)
{
    Ref r = ref_of(l), f;
    f.n = 0;
    for (int k = 0; k < r.n; k++)
        if (r.s[k] > 1 && r.d[k] != 0) {
            f.s[f.n] = r.s[k];
            f.d[f.n] = r.d[k];
            f.n++;
        }
    if (f.n == 0) {
        f.n = 1;
        f.s[0] = 1;
        f.d[0] = 0;
    }
    return f;
}

/* ---- text: `_` and negative strides ------------------------------------------------- */

static void test_text(void)
{
    char err[256];
    Layout l;
    LayoutTiler t;
    /* `_` is a tiler element or a whole tiler, printed back as `_` */
    const char *tilers[] = {"<2,_>", "<_,4:1>", "_", "<_,<2:3,_>,(2,2):(1,-4)>", "<_>"};
    for (size_t k = 0; k < sizeof tilers / sizeof *tilers; k++) {
        t = PT(tilers[k]);
        CHECK_STR(ST(&t), k == 0 ? "<2:1,_>" : k == 1 ? "<_,4:1>" : tilers[k]);
    }
    /* `_8` is still CuTe's static integer */
    t = PT("<_8,_>");
    CHECK_STR(ST(&t), "<8:1,_>");
    /* `_` outside a tiler is an error naming the column */
    const char *bad[] = {"_", "(4,_):(1,4)", "(4,8):(_,1)", "<2,(4,_)>"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        bool ok = k < 3 ? layout_parse(bad[k], &l, err, sizeof err)
                        : layout_tiler_parse(bad[k], &t, err, sizeof err);
        CHECK(!ok, "%s parsed", bad[k]);
        CHECK(strstr(err, "'_'") && strstr(err, "tiler"), "%s: %s", bad[k], err);
    }
    CHECK(!layout_parse("(4,_):(1,4)", &l, err, sizeof err), "parsed");
    CHECK_STR(err, "column 4: '_' (CuTe's Underscore) may only stand for a whole mode of a "
                   "tiler, such as <2,_>, not inside a layout or tuple");
    LayoutTuple c;
    CHECK(!layout_tuple_parse("(1,_)", &c, err, sizeof err), "a coordinate with _");
    /* a hand-built layout with an underscore node is invalid */
    l = P("(2,3):(1,2)");
    l.node[1].kind = LAYOUT_NODE_UNDERSCORE;
    l.node[1].shape = l.node[1].stride = 0;
    CHECK(!layout_validate(&l, err, sizeof err), "underscore in a layout validated");
    CHECK(strstr(err, "'_' outside a tiler") != NULL, "%s", err);

    /* negative strides parse, print and evaluate */
    for (int it = 0; it < 2000 * scale(); it++) {
        Layout a = rand_any(5, 9, true), b;
        const char *txt = S(&a);
        CHECK(layout_parse(txt, &b, err, sizeof err), "reparse %s: %s", txt, err);
        CHECK(layout_equal(&a, &b), "round trip of %s", txt);
        Ref r = ref_of(&a);
        int64_t cos = 1, sz = ref_size(&r);
        for (int k = 0; k < r.n; k++) cos += (r.s[k] - 1) * (r.d[k] < 0 ? -r.d[k] : r.d[k]);
        CHECK_INT(layout_size(&a), sz);
        CHECK_INT(layout_cosize(&a), cos);
        for (int64_t i = 0; i < sz; i++)
            if (layout_eval(&a, i) != ref_eval(&r, i)) {
                CHECK(0, "eval %s at %" PRId64, txt, i);
                break;
            }
    }
}

/* ---- coalesce, filter -------------------------------------------------------------- */

static void prop_coalesce(void)
{
    for (int it = 0; it < 3000 * scale(); it++) {
        Layout l = rand_any(6, 9, rnd() % 4 != 0), c, f;
        Ref r = ref_of(&l);
        CHECK(layout_coalesce(&l, &c, NULL, 0), "coalesce %s", S(&l));
        CHECK(layout_depth(&c) <= 1, "coalesce %s = %s is not flat", S(&l), S(&c));
        CHECK_INT(layout_size(&c), ref_size(&r));
        Ref rc = ref_of(&c);
        for (int64_t i = 0; i < ref_size(&r); i++)
            if (ref_eval(&rc, i) != ref_eval(&r, i)) {
                CHECK(0, "coalesce %s = %s differs at %" PRId64, S(&l), S(&c), i);
                break;
            }
        /* no two adjacent modes of the result could merge, no size-1 mode */
        for (int k = 0; k < rc.n; k++) {
            CHECK(rc.n == 1 || rc.s[k] > 1, "size-1 mode left in %s", S(&c));
            if (k > 0) CHECK(rc.s[k - 1] * rc.d[k - 1] != rc.d[k], "%s not merged", S(&c));
        }
        /* filter: the same set of offsets, no broadcast modes */
        CHECK(layout_filter(&l, &f, NULL, 0), "filter %s", S(&l));
        Ref rf = ref_of(&f);
        for (int k = 0; k < rf.n; k++)
            CHECK(rf.n == 1 || (rf.d[k] != 0 && rf.s[k] > 1), "filter %s = %s", S(&l), S(&f));
        int64_t n0, n1;
        if (sorted_values(&l, 0, &n0) && sorted_values(&f, 1, &n1)) {
            int64_t u0 = 0, u1 = 0; /* distinct values must agree */
            for (int64_t i = 0; i < n0; i++)
                if (i == 0 || vals_buf[0][i] != vals_buf[0][i - 1])
                    vals_buf[0][u0++] = vals_buf[0][i];
            for (int64_t i = 0; i < n1; i++)
                if (i == 0 || vals_buf[1][i] != vals_buf[1][i - 1])
                    vals_buf[1][u1++] = vals_buf[1][i];
            bool same = u0 == u1;
            for (int64_t i = 0; same && i < u0; i++) same = vals_buf[0][i] == vals_buf[1][i];
            CHECK(same, "filter %s = %s has other offsets", S(&l), S(&f));
        }
    }
}

/* ---- complement ------------------------------------------------------------------ */

/* What CuTe's complement formula gives when the layout is not admissible
 * (truncating divisions): false if a shape comes out 0 (CuTe asserts). */
static bool cute_raw_complement(const Ref *f, int64_t m, Ref *out)
{
    Ref s = *f;
    for (int i = 1; i < s.n; i++) /* stable sort by stride */
        for (int j = i; j > 0 && s.d[j - 1] > s.d[j]; j--) {
            int64_t t = s.d[j];
            s.d[j] = s.d[j - 1];
            s.d[j - 1] = t;
            t = s.s[j];
            s.s[j] = s.s[j - 1];
            s.s[j - 1] = t;
        }
    out->n = 0;
    int64_t span = 1;
    for (int k = 0; k < s.n; k++) {
        out->s[out->n] = s.d[k] / span;
        out->d[out->n] = span;
        if (out->s[out->n] == 0) return false;
        out->n++;
        span = s.s[k] * s.d[k];
    }
    out->s[out->n] = (m + span - 1) / span;
    out->d[out->n] = span;
    out->n++;
    return true;
}

static void prop_complement(void)
{
    int ok = 0, refused = 0;
    for (int it = 0; it < 3000 * scale(); it++) {
        int kind = (int)(rnd() % 4);
        Layout l = kind == 0 ? rand_any(4, 10, false)
                   : kind == 1 ? rand_any(3, 6, true)
                               : rand_admissible(4, 3, kind == 3 && rnd() % 2);
        int64_t m = rr(1, 3 * layout_cosize(&l));
        Layout c;
        char why[512] = "";
        Ref f = ref_filter(&l);
        bool neg = has_negative(&l);
        if (!layout_complement(&l, m, &c, why, sizeof why)) {
            refused++;
            if (neg) {
                CHECK(strstr(why, "negative stride") != NULL, "%s: %s", S(&l), why);
            } else if (strstr(why, "not injective")) {
                Layout fl;
                layout_filter(&l, &fl, NULL, 0);
                CHECK(!injective(&fl), "filter(%s) is injective: %s", S(&l), why);
            } else {
                /* not admissible: CuTe's truncating formula is no complement */
                CHECK(strstr(why, "not admissible") != NULL, "%s: %s", S(&l), why);
                Ref raw;
                if (cute_raw_complement(&f, m, &raw))
                    CHECK(!tiles_range(&f, &raw), "refused %s, but CuTe's answer tiles: %s",
                          S(&l), why);
            }
            continue;
        }
        ok++;
        CHECK(!neg, "complement of %s with a negative stride", S(&l));
        Ref rc = ref_of(&c);
        int64_t nc = ref_size(&rc);
        /* ordered */
        for (int64_t i = 1; i < nc; i++)
            if (ref_eval(&rc, i) <= ref_eval(&rc, i - 1)) {
                CHECK(0, "complement %s of %s is not ordered", S(&c), S(&l));
                break;
            }
        /* disjoint from the image of L (but for 0), and together they tile */
        CHECK(tiles_range(&f, &rc), "(filter(%s), %s) is not a bijection", S(&l), S(&c));
        CHECK(ref_size(&f) * nc >= m, "complement %s of %s covers less than %" PRId64, S(&c),
              S(&l), m);
        int64_t span = 1; /* the smallest cover: less than one span more than m */
        for (int k = 0; k < f.n; k++) {
            int64_t t = f.s[k] * f.d[k];
            if (t > span) span = t;
        }
        CHECK(ref_size(&f) * nc < m + span, "complement %s of %s for %" PRId64 " too large",
              S(&c), S(&l), m);
    }
    CHECK(ok > 1000, "only %d complements", ok);
    CHECK(refused > 200, "only %d refusals", refused);
}

/* ---- composition ----------------------------------------------------------------- */

/* The mode-by-mode composition CuTe returns for B = (leaves...): each
 * leaf composed on its own.  false if one of them is refused. */
static bool per_leaf_compose(const Layout *a, const Ref *b, Ref *out)
{
    out->n = 0;
    for (int k = 0; k < b->n; k++) {
        Layout leaf, r;
        if (!layout_make(b->s[k], b->d[k], &leaf, NULL, 0)) return false;
        if (!layout_compose(a, &leaf, &r, NULL, 0)) return false;
        Ref rr_ = ref_of(&r);
        /* a leaf's result is a sub-layout of size s: append its leaves */
        for (int j = 0; j < rr_.n && out->n < LAYOUT_MAX_LEAVES; j++) {
            out->s[out->n] = rr_.s[j];
            out->d[out->n] = rr_.d[j];
            out->n++;
        }
    }
    return true;
}

/* Checks R = A o B against A(B(i)); returns false and reports on mismatch. */
static bool check_composed(const Layout *a, const Layout *b, const Layout *r, const char *what)
{
    Ref ra = ref_of(a), rb = ref_of(b), rres = ref_of(r);
    if (layout_size(r) != layout_size(b)) {
        CHECK(0, "%s: %s o %s = %s has the wrong size", what, S(a), S(b), S(r));
        return false;
    }
    for (int64_t i = 0; i < ref_size(&rb); i++) {
        int64_t j = ref_eval(&rb, i), want;
        if (!ref_at(&ra, j, &want)) {
            CHECK(0, "%s: %s o %s = %s, but A is undefined at B(%" PRId64 ") = %" PRId64, what,
                  S(a), S(b), S(r), i, j);
            return false;
        }
        if (ref_eval(&rres, i) != want) {
            CHECK(0, "%s: %s o %s = %s at %" PRId64 ": %" PRId64 " != A(B(i)) = %" PRId64, what,
                  S(a), S(b), S(r), i, ref_eval(&rres, i), want);
            return false;
        }
    }
    return true;
}

static void prop_compose(void)
{
    int ok = 0, neg_ok = 0, refused[4] = {0}, overlap = 0;
    for (int it = 0; it < 6000 * scale(); it++) {
        int ka = (int)(rnd() % 3), kb = (int)(rnd() % 3);
        Layout a = ka == 0 ? rand_any(4, 12, true) : rand_admissible(4, ka, rnd() % 3 == 0);
        Layout b = kb == 0 ? rand_any(3, 8, rnd() % 2) : rand_admissible(3, kb, rnd() % 4 == 0);
        if (rnd() % 8 == 0) { /* a single linear A, so negative strides in B compose */
            int64_t s[2] = {rr(1, 6), rr(1, 6)}, d0 = rr(-3, 3), d[2] = {d0, d0 * s[0]};
            a = make_layout(s, d, 2);
        }
        Ref ra = ref_of(&a), rb = ref_of(&b);
        Layout r;
        char why[512] = "";
        /* the reference's verdict, leaf by leaf */
        int first_bad = OK_LEAF;
        for (int k = 0; k < rb.n && first_bad == OK_LEAF; k++)
            first_bad = ref_leaf_admissible(&ra, rb.s[k], rb.d[k]);
        if (layout_compose(&a, &b, &r, why, sizeof why)) {
            ok++;
            if (has_negative(&b)) neg_ok++;
            CHECK(first_bad == OK_LEAF, "%s o %s = %s, but condition %d fails", S(&a), S(&b),
                  S(&r), first_bad);
            check_composed(&a, &b, &r, "compose");
            continue;
        }
        if (strstr(why, "overlap")) {
            overlap++;
            /* CuTe's mode-by-mode answer would be wrong somewhere */
            Ref pl;
            if (first_bad == OK_LEAF && per_leaf_compose(&a, &rb, &pl)) {
                bool wrong = false;
                for (int64_t i = 0; i < ref_size(&rb) && !wrong; i++) {
                    int64_t want;
                    if (!ref_at(&ra, ref_eval(&rb, i), &want) || ref_eval(&pl, i) != want)
                        wrong = true;
                }
                CHECK(wrong, "%s o %s refused as overlapping, but CuTe's answer is right: %s",
                      S(&a), S(&b), why);
            }
            continue;
        }
        bool stride = strstr(why, "stride divisibility") != NULL;
        bool shape = strstr(why, "shape divisibility") != NULL;
        bool negative = strstr(why, "negative stride") != NULL;
        CHECK(stride || shape || negative, "%s o %s: unexpected reason: %s", S(&a), S(&b), why);
        /* some leaf violates the condition named */
        bool found = false;
        for (int k = 0; k < rb.n; k++) {
            int v = ref_leaf_admissible(&ra, rb.s[k], rb.d[k]);
            if ((stride && v == BAD_STRIDE) || (shape && v == BAD_SHAPE) ||
                (negative && v == BAD_NEGATIVE))
                found = true;
        }
        CHECK(found, "%s o %s refused, but no leaf violates it: %s", S(&a), S(&b), why);
        refused[stride ? 1 : shape ? 2 : 3]++;
    }
    CHECK(ok > 1500, "only %d compositions", ok);
    CHECK(neg_ok > 50, "only %d compositions with negative strides in B", neg_ok);
    CHECK(refused[1] > 50 && refused[2] > 20 && refused[3] > 20,
          "too few refusals: stride %d, shape %d, negative %d", refused[1], refused[2],
          refused[3]);
    CHECK(overlap > 0, "no overlapping composition sampled");
}

/* ---- tilers with `_` ------------------------------------------------------------------- */

/* A rank-r layout whose modes are random small layouts. */
static Layout rand_ranked(int r, bool neg)
{
    Str t = {.n = 0}, sh = {.n = 0}, st = {.n = 0};
    t.b[0] = sh.b[0] = st.b[0] = '\0';
    sput(&sh, "(");
    sput(&st, "(");
    for (int k = 0; k < r; k++) {
        Layout m = rnd() % 2 ? rand_admissible(2, 2, neg && rnd() % 3 == 0) : rand_any(2, 6, neg);
        char txt[512];
        layout_format(&m, txt, sizeof txt);
        char *colon = strchr(txt, ':');
        *colon = '\0';
        if (k) {
            sput(&sh, ",");
            sput(&st, ",");
        }
        sput(&sh, txt);
        sput(&st, colon + 1);
    }
    sput(&sh, ")");
    sput(&st, ")");
    sput(&t, sh.b);
    sput(&t, ":");
    sput(&t, st.b);
    return P(t.b);
}

/* A tiler <T0,...> of k elements, each `_` (with probability 1/3) or a
 * small layout; elem[] gets the layouts and under[] the `_`s. */
static LayoutTiler rand_tiler(int k, Layout *elem, bool *under, bool divide)
{
    Str t = {.n = 0};
    t.b[0] = '\0';
    sput(&t, "<");
    for (int m = 0; m < k; m++) {
        if (m) sput(&t, ",");
        under[m] = rnd() % 3 == 0;
        if (under[m]) {
            sput(&t, "_");
            continue;
        }
        elem[m] = divide || rnd() % 2 ? rand_admissible(2, 2, false) : rand_any(2, 4, false);
        char txt[512];
        layout_format(&elem[m], txt, sizeof txt);
        sput(&t, txt);
    }
    sput(&t, ">");
    return PT(t.b);
}

typedef bool (*OpL)(const Layout *, const Layout *, Layout *, char *, size_t);
typedef bool (*OpT)(const Layout *, const LayoutTiler *, Layout *, char *, size_t);

/* A by-mode operation with a tiler: mode m of the result is op(A_m, T_m),
 * or A_m itself for `_`; modes past the tiler stay. */
static void prop_underscore_bymode(OpT opt, OpL opl, const char *name, bool divide)
{
    int ok = 0, unders = 0;
    for (int it = 0; it < 1500 * scale(); it++) {
        int r = (int)rr(1, 3), k = (int)rr(1, r);
        Layout a = rand_ranked(r, rnd() % 3 == 0), elem[3], res;
        bool under[3];
        LayoutTiler t = rand_tiler(k, elem, under, divide);
        char why[512] = "";
        bool defined = opt(&a, &t, &res, why, sizeof why);
        /* the reference: mode by mode */
        bool ref_defined = true;
        Layout want[3];
        for (int m = 0; m < r; m++) {
            Layout am;
            layout_mode(&a, m, &am, NULL, 0);
            if (m >= k || under[m])
                want[m] = am;
            else if (!opl(&am, &elem[m], &want[m], NULL, 0))
                ref_defined = false;
        }
        CHECK(defined == ref_defined, "%s %s %s: %s", name, S(&a), ST(&t),
              defined ? "defined, a mode is not" : why);
        if (!defined || !ref_defined) continue;
        ok++;
        CHECK_INT(layout_rank(&res), r);
        for (int m = 0; m < r; m++) {
            Layout rm;
            layout_mode(&res, m, &rm, NULL, 0);
            CHECK(layout_equal(&rm, &want[m]), "%s %s %s: mode %d is %s, want %s", name, S(&a),
                  ST(&t), m, S(&rm), S(&want[m]));
            if (m < k && under[m]) unders++;
            if (m < k && !under[m] && !divide && opl == layout_compose) {
                Layout am;
                layout_mode(&a, m, &am, NULL, 0);
                check_composed(&am, &elem[m], &rm, "compose by mode");
            }
        }
    }
    CHECK(ok > 300, "%s: only %d defined", name, ok);
    CHECK(unders > 200, "%s: only %d `_` modes", name, unders);
    /* the whole tiler `_` is the identity */
    Layout a = P("(4,(2,3)):(-3,(1,12))"), res;
    LayoutTiler t = PT("_");
    CHECK(opt(&a, &t, &res, NULL, 0) && layout_equal(&res, &a), "%s with _", name);
}

/* zipped and tiled divide: tiles gather in mode 0, rests in mode 1; a `_`
 * mode is split as it stands (CuTe's zip2_by), so it must have rank 2. */
static void prop_underscore_zipped(void)
{
    int ok = 0, refused = 0;
    for (int it = 0; it < 1500 * scale(); it++) {
        int r = (int)rr(1, 3), k = (int)rr(1, r);
        Layout a = rand_ranked(r, rnd() % 3 == 0), elem[3], ld, zd, td;
        bool under[3];
        LayoutTiler t = rand_tiler(k, elem, under, true);
        char why[512] = "";
        if (!layout_logical_divide_tiler(&a, &t, &ld, NULL, 0)) {
            CHECK(!layout_zipped_divide(&a, &t, &zd, NULL, 0), "zipped without logical");
            continue;
        }
        bool rank2 = true;
        for (int m = 0; m < k; m++) {
            Layout am;
            layout_mode(&a, m, &am, NULL, 0);
            if (under[m] && (layout_depth(&am) == 0 || layout_rank(&am) != 2)) rank2 = false;
        }
        bool zok = layout_zipped_divide(&a, &t, &zd, why, sizeof why);
        CHECK(zok == rank2, "zipped-divide %s %s: %s", S(&a), ST(&t), zok ? "defined" : why);
        if (!zok) {
            refused++;
            CHECK(strstr(why, "rank 2") != NULL, "%s", why);
            CHECK(!layout_tiled_divide(&a, &t, &td, NULL, 0), "tiled without zipped");
            continue;
        }
        ok++;
        CHECK(layout_tiled_divide(&a, &t, &td, NULL, 0), "tiled");
        /* build the expected ((tiles...),(rests..., A's modes past the tiler)) */
        Layout tiles[3], rests[6];
        int nr = 0;
        for (int m = 0; m < r; m++) {
            Layout lm;
            layout_mode(&ld, m, &lm, NULL, 0);
            if (m < k) {
                layout_mode(&lm, 0, &tiles[m], NULL, 0);
                layout_mode(&lm, 1, &rests[nr++], NULL, 0);
            } else {
                rests[nr++] = lm;
            }
        }
        const Layout *tp[3] = {&tiles[0], &tiles[1], &tiles[2]};
        const Layout *rp[6] = {&rests[0], &rests[1], &rests[2], &rests[3], &rests[4], &rests[5]};
        Layout t0, r1, want, wantt;
        layout_concat(k, tp, &t0, NULL, 0);
        layout_concat(nr, rp, &r1, NULL, 0);
        const Layout *both[2] = {&t0, &r1};
        layout_concat(2, both, &want, NULL, 0);
        CHECK(layout_equal(&zd, &want), "zipped-divide %s %s = %s, want %s", S(&a), ST(&t),
              S(&zd), S(&want));
        const Layout *flat[7] = {&t0};
        for (int j = 0; j < nr; j++) flat[j + 1] = rp[j];
        layout_concat(nr + 1, flat, &wantt, NULL, 0);
        CHECK(layout_equal(&td, &wantt), "tiled-divide %s %s = %s, want %s", S(&a), ST(&t),
              S(&td), S(&wantt));
    }
    CHECK(ok > 300, "only %d zipped divides", ok);
    CHECK(refused > 30, "only %d refused `_` zips", refused);
}

/* ---- divide and product ------------------------------------------------------------- */

static void prop_divide(void)
{
    int ok = 0, neg_a = 0, neg_b = 0;
    for (int it = 0; it < 3000 * scale(); it++) {
        Layout a = rnd() % 2 ? rand_any(4, 8, true) : rand_admissible(4, 1, rnd() % 2);
        Layout b = rnd() % 3 ? rand_admissible(2, 2, rnd() % 5 == 0) : rand_any(2, 4, false);
        Layout ld, c;
        char why[512] = "";
        bool defined = layout_logical_divide(&a, &b, &ld, why, sizeof why);
        if (has_negative(&b)) {
            neg_b++;
            CHECK(!defined && strstr(why, "negative stride"), "divide %s by %s: %s", S(&a),
                  S(&b), defined ? S(&ld) : why);
            continue;
        }
        bool cdef = layout_complement(&b, layout_size(&a), &c, NULL, 0);
        if (!cdef) {
            CHECK(!defined && strstr(why, "complement"), "divide %s by %s: %s", S(&a), S(&b),
                  defined ? S(&ld) : why);
            continue;
        }
        /* the tiler and its complement: B(i % size B) + C(i / size B) */
        const Layout *parts[2] = {&b, &c};
        Layout bc;
        layout_concat(2, parts, &bc, NULL, 0);
        Layout ref;
        bool rdef = layout_compose(&a, &bc, &ref, NULL, 0);
        CHECK(defined == rdef, "divide %s by %s: %s", S(&a), S(&b), defined ? S(&ld) : why);
        if (!defined) {
            CHECK(strstr(why, "logical-divide: compose:") != NULL, "%s", why);
            continue;
        }
        ok++;
        if (has_negative(&a)) neg_a++;
        CHECK(layout_equal(&ld, &ref), "divide %s by %s = %s, want %s", S(&a), S(&b), S(&ld),
              S(&ref));
        check_composed(&a, &bc, &ld, "logical-divide");
        /* mode 0 has B's size; (B, C) covers A's domain */
        Layout m0;
        layout_mode(&ld, 0, &m0, NULL, 0);
        CHECK_INT(layout_size(&m0), layout_size(&b));
        CHECK(layout_size(&ld) >= layout_size(&a), "divide %s by %s covers less", S(&a), S(&b));
    }
    CHECK(ok > 800, "only %d divides", ok);
    CHECK(neg_a > 200 && neg_b > 50, "negative samples: A %d, B %d", neg_a, neg_b);
}

static void prop_product(void)
{
    int ok = 0, neg_b = 0, blocked = 0;
    for (int it = 0; it < 3000 * scale(); it++) {
        Layout a = rand_admissible(3, 2, rnd() % 5 == 0);
        bool nb = rnd() % 3 == 0;
        Layout b = rnd() % 2 ? rand_admissible(2, 2, nb) : rand_any(2, 4, nb);
        Layout lp;
        char why[512] = "";
        bool defined = layout_logical_product(&a, &b, &lp, why, sizeof why);
        if (has_negative(&a)) {
            CHECK(!defined && strstr(why, "negative stride"), "product %s x %s: %s", S(&a),
                  S(&b), defined ? S(&lp) : why);
            continue;
        }
        Layout c;
        int64_t m = layout_size(&a) * layout_cosize(&b);
        CHECK(layout_complement(&a, m, &c, NULL, 0), "complement of admissible %s", S(&a));
        Layout cb;
        bool rdef = layout_compose(&c, &b, &cb, NULL, 0);
        CHECK(defined == rdef, "product %s x %s: %s", S(&a), S(&b), defined ? S(&lp) : why);
        if (!defined) continue;
        ok++;
        if (has_negative(&b)) neg_b++;
        Layout m0, m1;
        CHECK_INT(layout_rank(&lp), 2);
        layout_mode(&lp, 0, &m0, NULL, 0);
        layout_mode(&lp, 1, &m1, NULL, 0);
        CHECK(layout_equal(&m0, &a), "product mode 0 of %s x %s is %s", S(&a), S(&b), S(&m0));
        check_composed(&c, &b, &m1, "logical-product");
        /* blocked and raked products rearrange the logical product */
        Layout bp, rp;
        int64_t n0, n1;
        if (layout_blocked_product(&a, &b, &bp, NULL, 0) && sorted_values(&lp, 0, &n0) &&
            sorted_values(&bp, 1, &n1)) {
            blocked++;
            CHECK(n0 == n1 && !memcmp(vals_buf[0], vals_buf[1], (size_t)n0 * sizeof(int64_t)),
                  "blocked product of %s x %s = %s has other offsets", S(&a), S(&b), S(&bp));
            int ra = layout_rank(&a), rb = layout_rank(&b);
            CHECK_INT(layout_rank(&bp), ra > rb ? ra : rb);
        }
        if (layout_raked_product(&a, &b, &rp, NULL, 0) && sorted_values(&lp, 0, &n0) &&
            sorted_values(&rp, 1, &n1))
            CHECK(n0 == n1 && !memcmp(vals_buf[0], vals_buf[1], (size_t)n0 * sizeof(int64_t)),
                  "raked product of %s x %s = %s has other offsets", S(&a), S(&b), S(&rp));
    }
    CHECK(ok > 800, "only %d products", ok);
    CHECK(neg_b > 50, "only %d products with negative B", neg_b);
    CHECK(blocked > 500, "only %d blocked products", blocked);
}

/* ---- inverses ------------------------------------------------------------------------ */

static void prop_inverses(void)
{
    int right = 0, right_neg = 0, left = 0, full = 0;
    for (int it = 0; it < 3000 * scale(); it++) {
        int kind = (int)(rnd() % 4);
        Layout l = kind == 0   ? rand_any(4, 8, true)
                   : kind == 1 ? rand_admissible(4, 2, rnd() % 2)
                               : rand_admissible(4, 1, kind == 3);
        Ref rl = ref_of(&l);
        Layout r;
        char why[512] = "";
        if (!layout_right_inverse(&l, &r, why, sizeof why)) {
            CHECK(has_negative(&l) && !ref_linear(&rl, NULL) && strstr(why, "negative"),
                  "right inverse of %s refused: %s", S(&l), why);
        } else {
            right++;
            if (has_negative(&l)) right_neg++;
            Ref rr_ = ref_of(&r);
            for (int64_t i = 0; i < ref_size(&rr_); i++) {
                int64_t j = ref_eval(&rr_, i), v;
                bool in = j >= 0 && j < ref_size(&rl);
                if (!(in || ref_linear(&rl, NULL)) || !ref_at(&rl, j, &v) || v != i) {
                    CHECK(0, "right inverse %s of %s fails at %" PRId64, S(&r), S(&l), i);
                    break;
                }
            }
            /* a compact layout (a bijection onto [0, size)) is inverted whole */
            if (kind == 2) {
                full++;
                CHECK_INT(layout_size(&r), layout_size(&l));
            }
        }
        Layout li;
        if (!layout_left_inverse(&l, &li, why, sizeof why)) {
            CHECK(has_negative(&l) || !injective(&l) || strstr(why, "complement"),
                  "left inverse of injective %s refused: %s", S(&l), why);
            if (has_negative(&l))
                CHECK(strstr(why, "negative stride") ||
                          (!injective(&l) && strstr(why, "injective")),
                      "%s", why);
            continue;
        }
        left++;
        CHECK(!has_negative(&l) && injective(&l), "left inverse of %s", S(&l));
        Ref ri = ref_of(&li);
        for (int64_t i = 0; i < ref_size(&rl); i++)
            if (ref_eval(&ri, ref_eval(&rl, i)) != i) {
                CHECK(0, "left inverse %s of %s fails at %" PRId64, S(&li), S(&l), i);
                break;
            }
    }
    CHECK(right > 2000, "only %d right inverses", right);
    CHECK(right_neg > 100, "only %d right inverses with negative strides", right_neg);
    CHECK(left > 1000, "only %d left inverses", left);
    CHECK(full > 500, "only %d compact layouts", full);
}

/* ---- worked examples (computed by hand from CuTe's definitions) ------------------------- */

static const char *run_t(OpT f, const char *a, const char *t)
{
    Layout x = P(a), r;
    LayoutTiler y = PT(t);
    char err[512];
    char *b = slot();
    if (f(&x, &y, &r, err, sizeof err))
        layout_format(&r, b, LAYOUT_STR_MAX);
    else
        snprintf(b, LAYOUT_STR_MAX, "error: %s", err);
    return b;
}

static void test_examples(void)
{
    /* (4,8):(8,1) o <2,_>: mode 0 is 4:8 o 2:1 = 2:8, mode 1 stays 8:1 */
    CHECK_STR(run_t(layout_compose_tiler, "(4,8):(8,1)", "<2,_>"), "(2,8):(8,1)");
    CHECK_STR(run_t(layout_compose_tiler, "(4,8):(8,1)", "<_,4:1>"), "(4,4):(8,1)");
    CHECK_STR(run_t(layout_compose_tiler, "(4,8):(8,1)", "_"), "(4,8):(8,1)");
    /* 4:8 / 2:1 = (2,2):(8,16); 8:1 stays */
    CHECK_STR(run_t(layout_logical_divide_tiler, "(4,8):(8,1)", "<2,_>"),
              "((2,2),8):((8,16),1)");
    /* zip2_by splits the kept mode (2,4):(1,2) into tile 2:1 and rest 4:2 */
    CHECK_STR(run_t(layout_zipped_divide, "(4,(2,4)):(8,(1,2))", "<2,_>"),
              "((2,2),(2,4)):((8,1),(16,2))");
    CHECK_STR(run_t(layout_tiled_divide, "(4,(2,4)):(8,(1,2))", "<2,_>"),
              "((2,2),2,4):((8,1),16,2)");
    CHECK(strstr(run_t(layout_zipped_divide, "(4,8):(8,1)", "<2,_>"), "rank 2") != NULL,
          "zip of a rank-1 kept mode");
    /* 8:1 x 2:1 = (8,2):(1,8) in mode 1; mode 0 kept */
    CHECK_STR(run_t(layout_logical_product_tiler, "(4,8):(8,1)", "<_,2:1>"),
              "(4,(8,2)):(8,(1,8))");
    /* negative strides: 8:2 o 4:-1 = 4:-2; 8:-2 / 4:1 = (4,2):(-2,-8) */
    CHECK_STR(run_t(layout_compose_tiler, "8:2", "4:-1"), "4:-2");
    CHECK_STR(run_t(layout_logical_divide_tiler, "8:-2", "4:1"), "(4,2):(-2,-8)");
    CHECK_STR(run_t(layout_compose_tiler, "(4,2):(-1,4)", "<2:2,_>"), "(2,2):(-2,4)");
    CHECK(strstr(run_t(layout_compose_tiler, "(4,8):(8,1)", "2:-1"), "negative stride") != NULL,
          "negative B over a non-linear A");
}

int main(void)
{
    rng = 0x9E3779B97F4A7C15ULL; /* this test's own sequence */
    test_text();
    test_examples();
    prop_coalesce();
    prop_complement();
    prop_compose();
    prop_underscore_bymode(layout_compose_tiler, layout_compose, "compose", false);
    prop_underscore_bymode(layout_logical_divide_tiler, layout_logical_divide, "logical-divide",
                           true);
    prop_underscore_bymode(layout_logical_product_tiler, layout_logical_product,
                           "logical-product", true);
    prop_underscore_zipped();
    prop_divide();
    prop_product();
    prop_inverses();
    return check_done("test_layout_brute");
}
