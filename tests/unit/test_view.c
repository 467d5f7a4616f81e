/* test_view.c: unit and property tests of the view algebra (sema/view.h):
 * worked examples of each constructor (its CuTe printing, terms, strides,
 * offsets, constraints and extents), every error of view_parse with its
 * exact message, view_storable and view_is_permutation; then a brute-force
 * check that, for random chains of constructors over small arrays, the
 * element -> array-coordinate map view.h defines (colex split of each view
 * coordinate over its terms, off + a*u, the view box, the constraints and
 * the array's bounds) matches a direct, op-by-op definition of each
 * constructor (e.g. a window reads x[s*o + d*j - p]). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "sema/view.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static Arena *AR;
static char ERR[400];

/* ---- helpers -------------------------------------------------------------- */

static Param *array(int rank)
{
    Param *p = arena_alloc(AR, sizeof *p);
    p->name = "x";
    p->kind = PARAM_ARRAY;
    p->rank = rank;
    return p;
}

/* view_print into a string of the arena; "error: ERR" for a NULL view. */
static const char *str(const View *v)
{
    if (!v) return arena_printf(AR, "error: %s", ERR);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    view_print(f, v);
    fclose(f);
    char *r = arena_strdup(AR, buf);
    free(buf);
    return r;
}

static const char *err_of(const View *v)
{
    return v ? "(no error)" : ERR;
}

/* A ViewExt's value for array extents d, from its definition in view.h:
 * max(0, floor((base * mul + add) / div)). */
static int64_t ev(const ViewExt *e, const int64_t *d)
{
    int64_t base = e->inner ? ev(e->inner, d) : e->axis >= 0 ? d[e->axis] : 0;
    int64_t num = base * e->mul + e->add;
    if (num <= 0) return 0;
    return num / e->div * (e->times ? ev(e->times, d) : 1);
}

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

/* The array element view element w reads, by view.h's definition: false
 * when it reads the padding (outside the view, a constraint or the array). */
static bool vmap(const View *v, const int64_t *d, const int64_t *w, int64_t *x)
{
    int64_t u[VIEW_MAX_TERMS] = {0};
    for (int k = 0; k < v->rank; k++) {
        if (w[k] < 0 || w[k] >= ev(v->ext[k], d)) return false;
        int ts[VIEW_MAX_TERMS];
        int m = view_mode_terms(v, k, ts);
        int64_t rest = w[k];
        for (int q = 0; q < m; q++) {
            if (q == m - 1) {
                u[ts[q]] = rest;
            } else {
                int64_t e = ev(v->term[ts[q]].ext, d);
                if (e <= 0) return false;
                u[ts[q]] = rest % e;
                rest /= e;
            }
        }
    }
    for (int c = 0; c < v->ncons; c++) {
        int64_t val = v->cons[c].c0;
        for (int t = 0; t < v->nterms; t++) val += v->cons[c].coef[t] * u[t];
        if (val < 0 || val >= ev(v->cons[c].ext, d)) return false;
    }
    for (int j = 0; j < v->base->rank; j++) {
        x[j] = v->off[j];
        for (int t = 0; t < v->nterms; t++) x[j] += v->a[j][t] * u[t];
        if (x[j] < 0 || x[j] >= d[j]) return false;
    }
    return true;
}

static const char *terms_of(const View *v, int k)
{
    int ts[VIEW_MAX_TERMS];
    int m = view_mode_terms(v, k, ts);
    char *b = arena_alloc(AR, 128), *p = b;
    for (int q = 0; q < m; q++) p += sprintf(p, "%s%d", q ? "," : "", ts[q]);
    return b;
}

/* ---- worked examples -------------------------------------------------------- */

static void test_identity(void)
{
    const Param *x = array(3);
    View *v = view_of_array(AR, x);
    CHECK_STR(str(v), "(d0,d1,d2):(1@0,1@1,1@2)");
    CHECK_INT(v->rank, 3);
    CHECK_INT(v->nterms, 3);
    CHECK_INT(v->ncons, 0);
    CHECK(v->base == x, "base");
    int64_t d[3] = {2, 5, 7};
    for (int k = 0; k < 3; k++) {
        CHECK(v->exact[k] && v->exact_axis[k] == k, "axis %d exact", k);
        CHECK_INT(ev(v->ext[k], d), d[k]);
        CHECK_STR(terms_of(v, k), k == 0 ? "0" : k == 1 ? "1" : "2");
        for (int j = 0; j < 3; j++) CHECK_INT(v->a[j][k], j == k);
        CHECK_INT(v->off[k], 0);
    }
    int perm[TILE_MAX_RANK];
    CHECK(view_is_permutation(v, perm), "identity is a permutation");
    CHECK(perm[0] == 0 && perm[1] == 1 && perm[2] == 2, "perm %d %d %d", perm[0], perm[1], perm[2]);
    CHECK(view_storable(v, ERR, sizeof ERR), "identity storable: %s", ERR);
    int64_t w[3] = {1, 4, 6}, xc[3];
    CHECK(vmap(v, d, w, xc) && xc[0] == 1 && xc[1] == 4 && xc[2] == 6, "identity map");
    int64_t w2[3] = {2, 0, 0};
    CHECK(!vmap(v, d, w2, xc), "outside the identity view");
}

static void test_permute(void)
{
    View *id = view_of_array(AR, array(3));
    int tr[3] = {0, 2, 1}, p201[3] = {2, 0, 1};
    View *t = view_permute(AR, id, tr, ERR, sizeof ERR);
    CHECK_STR(str(t), "(d0,d2,d1):(1@0,1@2,1@1)");
    /* terms keep their numbers; their modes move */
    CHECK_INT(t->term[0].mode, 0);
    CHECK_INT(t->term[1].mode, 2);
    CHECK_INT(t->term[2].mode, 1);
    CHECK_STR(terms_of(t, 1), "2");
    int perm[TILE_MAX_RANK];
    CHECK(view_is_permutation(t, perm) && perm[0] == 0 && perm[1] == 2 && perm[2] == 1, "transpose perm");
    View *p = view_permute(AR, id, p201, ERR, sizeof ERR);
    CHECK_STR(str(p), "(d2,d0,d1):(1@2,1@0,1@1)");
    CHECK(view_is_permutation(p, perm) && perm[0] == 2 && perm[1] == 0 && perm[2] == 1, "perm 201");
    CHECK(p->exact[0] && p->exact_axis[0] == 2, "exact axis");
    /* permuting twice composes: (2,0,1) after (2,0,1) is (1,2,0) */
    View *pp = view_permute(AR, p, p201, ERR, sizeof ERR);
    CHECK_STR(str(pp), "(d1,d2,d0):(1@1,1@2,1@0)");
    View *back = view_permute(AR, pp, p201, ERR, sizeof ERR);
    CHECK_STR(str(back), "(d0,d1,d2):(1@0,1@1,1@2)");
    CHECK(view_storable(p, ERR, sizeof ERR), "a permutation is storable");
    int dup[3] = {0, 0, 1}, out[3] = {0, 1, 3}, neg[3] = {-1, 0, 1};
    CHECK_STR(err_of(view_permute(AR, id, dup, ERR, sizeof ERR)), ".axes must list each of the 3 axes 0..2 once");
    CHECK_STR(err_of(view_permute(AR, id, out, ERR, sizeof ERR)), ".axes must list each of the 3 axes 0..2 once");
    CHECK_STR(err_of(view_permute(AR, id, neg, ERR, sizeof ERR)), ".axes must list each of the 3 axes 0..2 once");
}

static void test_pad(void)
{
    View *id = view_of_array(AR, array(3));
    int64_t lo[3] = {0, 1, 2}, hi[3] = {0, 3, 0};
    View *p = view_pad(AR, id, lo, hi, ERR, sizeof ERR);
    CHECK_STR(str(p), "(d0,(d1+4),(d2+2)):(1@0,1@1,1@2) + (0,-1,-2)");
    CHECK_INT(p->ncons, 0); /* padding the array's own axes: its bounds suffice */
    CHECK(p->exact[0] && !p->exact[1] && !p->exact[2], "exact after pad");
    int64_t d[3] = {2, 3, 4};
    CHECK_INT(ev(p->ext[0], d), 2);
    CHECK_INT(ev(p->ext[1], d), 7);
    CHECK_INT(ev(p->ext[2], d), 6);
    int64_t w[3] = {1, 0, 2}, xc[3];
    CHECK(!vmap(p, d, w, xc), "low padding reads the padding value");
    int64_t w2[3] = {1, 3, 5};
    CHECK(vmap(p, d, w2, xc) && xc[0] == 1 && xc[1] == 2 && xc[2] == 3, "pad map");
    CHECK(view_storable(p, ERR, sizeof ERR), "a padded view is storable");
    int perm[TILE_MAX_RANK];
    CHECK(!view_is_permutation(p, perm), "a padded view is not a permutation");
    int64_t z[3] = {0, 0, 0};
    View *pz = view_pad(AR, id, z, z, ERR, sizeof ERR);
    CHECK(pz && view_is_permutation(pz, perm), "zero padding is the identity");
    /* padding a permuted axis pads the array axis it is */
    int p201[3] = {2, 0, 1};
    View *pp = view_pad(AR, view_permute(AR, id, p201, ERR, sizeof ERR), lo, hi, ERR, sizeof ERR);
    CHECK_STR(str(pp), "(d2,(d0+4),(d1+2)):(1@2,1@0,1@1) + (-1,-2,0)");
    CHECK_INT(pp->ncons, 0);
    /* padding twice adds up */
    View *p2 = view_pad(AR, p, lo, hi, ERR, sizeof ERR);
    CHECK_STR(str(p2), "(d0,(d1+8),(d2+4)):(1@0,1@1,1@2) + (0,-2,-4), 0 <= 1*u1-1 < (d1+4), 0 <= 1*u2-2 < (d2+2)");
    CHECK_INT(p2->ncons, 2); /* the second pad of axes 1 and 2 pads non-identity axes */
    CHECK_INT(ev(p2->ext[1], d), 11);
    int64_t neg[3] = {0, -1, 0};
    CHECK_STR(err_of(view_pad(AR, id, neg, hi, ERR, sizeof ERR)), "padding of axis 1 is negative (-1, 3)");
    CHECK_STR(err_of(view_pad(AR, id, lo, neg, ERR, sizeof ERR)), "padding of axis 1 is negative (1, -1)");
}

static void test_pad_of_window(void)
{
    View *id = view_of_array(AR, array(1));
    int ax[1] = {0};
    int64_t K[1] = {3}, S[1] = {2}, D[1] = {2}, L[1] = {1}, H[1] = {1};
    View *w = view_window(AR, id, 1, ax, K, S, D, L, H, ERR, sizeof ERR);
    CHECK_STR(str(w), "((d0-1)/2,3):(2@0,2@0) + (-1)");
    CHECK_INT(w->ncons, 0);
    /* the output axis: the constraint keeps the window's bounds */
    int64_t lo[2] = {1, 0}, hi[2] = {2, 0};
    View *po = view_pad(AR, w, lo, hi, ERR, sizeof ERR);
    CHECK_STR(str(po), "(((d0-1)/2+3),3):(2@0,2@0) + (-3), 0 <= 1*u0-1 < (d0-1)/2");
    CHECK_INT(po->ncons, 1);
    CHECK_INT(po->cons[0].c0, -1);
    CHECK_INT(po->cons[0].coef[0], 1);
    CHECK_INT(po->cons[0].coef[1], 0);
    int64_t d[1] = {9};
    CHECK_INT(ev(po->cons[0].ext, d), 4);
    CHECK_INT(ev(po->ext[0], d), 7);
    CHECK_INT(po->off[0], -3);
    /* output 0 is low padding; output 5 would be inside the array (2*4+0-1 = 7)
       but past the window's last output (4 of them): padding too */
    int64_t w0[2] = {0, 1}, w5[2] = {5, 0}, w1[2] = {1, 1}, x[1];
    CHECK(!vmap(po, d, w0, x), "low pad");
    CHECK(!vmap(po, d, w5, x), "high pad past the window's outputs");
    CHECK(vmap(po, d, w1, x) && x[0] == 1, "window output 0, tap 1: x[%" PRId64 "]", x[0]);
    /* the tap axis (a constant extent) */
    int64_t lo2[2] = {0, 1}, hi2[2] = {0, 1};
    View *pt = view_pad(AR, w, lo2, hi2, ERR, sizeof ERR);
    CHECK_STR(str(pt), "((d0-1)/2,5):(2@0,2@0) + (-3), 0 <= 1*u1-1 < 3");
    CHECK_INT(pt->ncons, 1);
    CHECK_INT(ev(pt->ext[1], d), 5);
}

/* floor((L + p + q - d (K - 1) - 1) / s) + 1, and 0 when negative */
static int64_t win_out(int64_t L, int64_t K, int64_t s, int64_t dl, int64_t p, int64_t q)
{
    int64_t r = floordiv(L + p + q - dl * (K - 1) - 1, s) + 1;
    return r < 0 ? 0 : r;
}

static void test_window(void)
{
    static const int64_t cases[][5] = {
        /* K, s, d, p, q */
        {3, 1, 1, 0, 0}, {3, 1, 1, 1, 1}, {3, 2, 1, 1, 1}, {4, 3, 2, 0, 2}, {1, 1, 1, 0, 0},
        {5, 2, 3, 2, 0}, {2, 4, 1, 0, 0}, {3, 3, 2, 3, 3}, {7, 1, 1, 0, 0}, {4, 2, 1, 0, 5},
    };
    View *id = view_of_array(AR, array(1));
    int ax[1] = {0};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const int64_t *k = cases[c];
        View *w = view_window(AR, id, 1, ax, &k[0], &k[1], &k[2], &k[3], &k[4], ERR, sizeof ERR);
        CHECK(w != NULL, "window %zu: %s", c, ERR);
        if (!w) continue;
        CHECK_INT(w->rank, 2);
        for (int64_t L = 0; L <= 14; L++) {
            int64_t d[1] = {L};
            CHECK(ev(w->ext[0], d) == win_out(L, k[0], k[1], k[2], k[3], k[4]),
                  "case %zu L %" PRId64 ": %" PRId64 " outputs, want %" PRId64, c, L, ev(w->ext[0], d),
                  win_out(L, k[0], k[1], k[2], k[3], k[4]));
            CHECK_INT(ev(w->ext[1], d), k[0]);
        }
        /* strides s@0 and d@0, offset -p */
        CHECK_INT(w->a[0][0], k[1]);
        CHECK_INT(w->a[0][1], k[2]);
        CHECK_INT(w->off[0], -k[3]);
    }
    /* L too small: 0 outputs (K=5, d=1: L < 5; K=3, d=2, p=q=0: L < 5) */
    int64_t K5 = 5, K3 = 3, one = 1, two = 2, zero = 0;
    View *w5 = view_window(AR, id, 1, ax, &K5, &one, &one, &zero, &zero, ERR, sizeof ERR);
    View *w3 = view_window(AR, id, 1, ax, &K3, &two, &two, &zero, &zero, ERR, sizeof ERR);
    for (int64_t L = 0; L < 5; L++) {
        int64_t d[1] = {L};
        CHECK_INT(ev(w5->ext[0], d), 0);
        CHECK_INT(ev(w3->ext[0], d), 0);
    }
    int64_t d5[1] = {5}, d6[1] = {6}, d7[1] = {7};
    CHECK_INT(ev(w5->ext[0], d5), 1);
    CHECK_INT(ev(w3->ext[0], d5), 1);
    CHECK_INT(ev(w3->ext[0], d6), 1);
    CHECK_INT(ev(w3->ext[0], d7), 2);
    CHECK_STR(str(w5), "((d0-4),5):(1@0,1@0)");
    CHECK_STR(view_ext_c(AR, w5->ext[0], "p_x.shape[%d]"),
              "((p_x.shape[0] * 1 + -4) > 0 ? (p_x.shape[0] * 1 + -4) : (int64_t)0)");
    CHECK_STR(view_ext_c(AR, w3->ext[0], "s[%d]"), "(((s[0] * 1 + -3) > 0 ? (s[0] * 1 + -3) : (int64_t)0) / 2)");
    CHECK_STR(view_ext_c(AR, w3->ext[1], "s[%d]"), "(int64_t)3");
    CHECK_STR(view_ext_c(AR, id->ext[0], "s[%d]"), "s[0]");

    /* two windowed axes of a rank-3 array: the taps are appended in the order listed */
    View *id3 = view_of_array(AR, array(3));
    int ax2[2] = {2, 1};
    int64_t K2[2] = {2, 3}, S2[2] = {1, 2}, D2[2] = {1, 1}, L2[2] = {0, 1}, H2[2] = {0, 1};
    View *w2 = view_window(AR, id3, 2, ax2, K2, S2, D2, L2, H2, ERR, sizeof ERR);
    CHECK_STR(str(w2), "(d0,(d1+1)/2,(d2-1),2,3):(1@0,2@1,1@2,1@2,1@1) + (0,-1,0)");
    CHECK_INT(w2->rank, 5);
    CHECK(!view_storable(w2, ERR, sizeof ERR), "a window overlaps");
    CHECK_STR(ERR, "2 of its sub-modes move along array axis 1, so its elements overlap");

    /* errors */
    int bad[1] = {3};
    CHECK_STR(err_of(view_window(AR, id3, 1, bad, K2, S2, D2, L2, H2, ERR, sizeof ERR)),
              "window axis 3 is not an axis of a rank-3 view");
    int twice[2] = {1, 1};
    CHECK_STR(err_of(view_window(AR, id3, 2, twice, K2, S2, D2, L2, H2, ERR, sizeof ERR)),
              "window axis 1 is listed twice");
    int64_t S0[1] = {0};
    CHECK_STR(err_of(view_window(AR, id3, 1, ax2, K2, S0, D2, L2, H2, ERR, sizeof ERR)),
              "window of axis 2: size 2, stride 0, dilation 1 must be positive and the padding (0, 0) not negative");
    View *id7 = view_of_array(AR, array(7));
    CHECK_STR(err_of(view_window(AR, id7, 2, ax2, K2, S2, D2, L2, H2, ERR, sizeof ERR)),
              "the window view would have rank 9; at most 8");
}

static void test_im2col(void)
{
    int64_t K[1] = {3}, S[1] = {2}, D[1] = {2}, L[1] = {1}, H[1] = {1};
    /* 1-D, channels first: (N, C, L) -> (N, (K, C), O) */
    View *c1 = view_im2col(AR, view_of_array(AR, array(3)), 1, K, S, D, L, H, false, ERR, sizeof ERR);
    CHECK_STR(str(c1), "(d0,(3,d1),(d2-1)/2):(1@0,(2@2,1@1),2@2) + (0,0,-1)");
    CHECK_INT(c1->rank, 3);
    CHECK_STR(terms_of(c1, 1), "3,1"); /* the tap fastest, then C */
    int64_t d[3] = {2, 4, 9};
    CHECK_INT(ev(c1->ext[1], d), 12);
    CHECK_INT(ev(c1->ext[2], d), 4);
    CHECK(!view_storable(c1, ERR, sizeof ERR), "im2col overlaps");
    /* row g = c*3 + k of output o reads x[n, c, 2o + 2k - 1] */
    int64_t w[3] = {1, 2 * 3 + 2, 2}, x[3];
    CHECK(vmap(c1, d, w, x) && x[0] == 1 && x[1] == 2 && x[2] == 2 * 2 + 2 * 2 - 1, "im2col 1-D map");
    int64_t wh[3] = {1, 2 * 3 + 2, 3};
    CHECK(!vmap(c1, d, wh, x), "right padding: x[n, c, 9] of a 9-long axis");
    int64_t w1[3] = {1, 2 * 3 + 2, 4};
    CHECK(!vmap(c1, d, w1, x), "past the outputs");

    /* 2-D, channels first: (N, C, H, W) -> (N, (K2, K1, C), O1, O2) */
    int64_t K2[2] = {2, 3}, S2[2] = {1, 2}, D2[2] = {1, 1}, L2[2] = {0, 1}, H2[2] = {0, 1};
    View *id4 = view_of_array(AR, array(4));
    View *c2 = view_im2col(AR, id4, 2, K2, S2, D2, L2, H2, false, ERR, sizeof ERR);
    CHECK_STR(str(c2), "(d0,(3,2,d1),(d2-1),(d3+1)/2):(1@0,(1@3,1@2,1@1),1@2,2@3) + (0,0,0,-1)");
    CHECK_INT(c2->rank, 4);
    int ts[VIEW_MAX_TERMS];
    CHECK_INT(view_mode_terms(c2, 1, ts), 3);
    CHECK(c2->a[3][ts[0]] == 1 && c2->a[2][ts[1]] == 1 && c2->a[1][ts[2]] == 1, "K2 fastest, then K1, then C");
    CHECK(c2->a[2][ts[0]] == 0 && c2->a[3][ts[1]] == 0, "one array axis per term");
    CHECK(c2->a[2][2] == 1 && c2->a[3][3] == 2, "output strides 1@2 and 2@3");
    int64_t d4[4] = {2, 5, 6, 7};
    CHECK_INT(ev(c2->ext[1], d4), 30);
    CHECK_INT(ev(c2->ext[2], d4), 5);
    CHECK_INT(ev(c2->ext[3], d4), 4);

    /* 2-D, channels last: (N, H, W, C) -> (N, O1, O2, (C, K2, K1)) */
    View *c3 = view_im2col(AR, id4, 2, K2, S2, D2, L2, H2, true, ERR, sizeof ERR);
    CHECK_STR(str(c3), "(d0,(d1-1),(d2+1)/2,(d3,3,2)):(1@0,1@1,2@2,(1@3,1@2,1@1)) + (0,0,-1,0)");
    CHECK_INT(c3->rank, 4);
    CHECK_INT(view_mode_terms(c3, 3, ts), 3);
    CHECK(c3->a[3][ts[0]] == 1 && c3->a[2][ts[1]] == 1 && c3->a[1][ts[2]] == 1, "C fastest, then K2, then K1");
    CHECK_INT(ev(c3->ext[3], d4), 42);
    /* element g = (k1*3 + k2)*C + c of output (o1, o2) reads x[n, o1 + k1, 2 o2 + k2 - 1, c] */
    int64_t wc[4] = {1, 3, 2, (1 * 3 + 2) * 7 + 4}, xc[4];
    CHECK(vmap(c3, d4, wc, xc) && xc[0] == 1 && xc[1] == 4 && xc[2] == 5 && xc[3] == 4, "im2col channels_last map");

    /* 3-D */
    int64_t K3[3] = {2, 2, 2}, S3[3] = {1, 1, 1}, Z3[3] = {0, 0, 0};
    View *c5 = view_im2col(AR, view_of_array(AR, array(5)), 3, K3, S3, S3, Z3, Z3, false, ERR, sizeof ERR);
    CHECK_STR(str(c5), "(d0,(2,2,2,d1),(d2-1),(d3-1),(d4-1)):(1@0,(1@4,1@3,1@2,1@1),1@2,1@3,1@4)");

    /* errors */
    CHECK_STR(err_of(view_im2col(AR, view_of_array(AR, array(3)), 2, K2, S2, D2, L2, H2, false, ERR, sizeof ERR)),
              "im2col takes an (N, C, spatial...) array (channels_last: (N, spatial..., C)) with 1 to 3 spatial "
              "axes: a view of rank 3 has 1, and .size lists 2");
    int64_t one[3] = {1, 1, 1};
    CHECK_STR(err_of(view_pad(AR, c1, one, one, ERR, sizeof ERR)),
              "axis 1 of the view is nested (2 sub-modes); padding applies to flat axes only");
    int a1[1] = {1};
    CHECK_STR(err_of(view_window(AR, c2, 1, a1, K, S, D, L, H, ERR, sizeof ERR)),
              "axis 1 of the view is nested (3 sub-modes); a window applies to flat axes only");
    /* but the flat axes of an im2col view pad fine */
    int64_t lo[3] = {0, 0, 1}, hi[3] = {0, 0, 0};
    View *pc = view_pad(AR, c1, lo, hi, ERR, sizeof ERR);
    CHECK(pc && pc->ncons == 1, "pad of im2col's output axis: %s", ERR);
}

static void test_parse(void)
{
    const Param *x3 = array(3), *x2 = array(2);
    int64_t z[3] = {0, 0, 0};
    View *v = view_parse(AR, x3, "(_,(4,_),_):(1@0,(1@2,1@1),1@2)", z, ERR, sizeof ERR);
    CHECK_STR(str(v), "(d0,(4,d1),d2):(1@0,(1@2,1@1),1@2)");
    CHECK_INT(v->rank, 3);
    CHECK_INT(v->nterms, 4);
    CHECK_STR(terms_of(v, 1), "1,2");
    int64_t d[3] = {2, 3, 8};
    CHECK_INT(ev(v->ext[1], d), 12);
    {
        /* two extents from the array in one nested mode: (co, ci*kw) of a (co, ci, kw) weight */
        View *w = view_parse(AR, x3, "(_,(_,_)):(1@0,(1@2,1@1))", z, ERR, sizeof ERR);
        CHECK_STR(str(w), "(d0,(d2,d1)):(1@0,(1@2,1@1))");
        CHECK_INT(w->rank, 2);
        CHECK_INT(ev(w->ext[1], d), 24);
        CHECK_INT(ev(w->ext[0], d), 2);
    }
    /* mode 2 is not exact: mode 1's tap term also moves along array axis 2 */
    CHECK(v->exact[0] && !v->exact[1] && !v->exact[2], "exact modes");
    CHECK(!view_storable(v, ERR, sizeof ERR), "two terms on axis 2");
    CHECK_STR(ERR, "2 of its sub-modes move along array axis 2, so its elements overlap");

    View *t = view_parse(AR, x2, "(_,_):(1@1,1@0)", z, ERR, sizeof ERR);
    CHECK_STR(str(t), "(d1,d0):(1@1,1@0)");
    int perm[TILE_MAX_RANK];
    CHECK(view_is_permutation(t, perm) && perm[0] == 1 && perm[1] == 0, "parsed transpose is a permutation");
    CHECK(view_storable(t, ERR, sizeof ERR), "parsed transpose storable");
    /* with an offset: not a permutation; the offset prints */
    int64_t off[2] = {1, 0};
    View *to = view_parse(AR, x2, " ( _ , _ ) : ( 1@1 , 1@0 ) ", off, ERR, sizeof ERR);
    CHECK_STR(str(to), "(d1,d0):(1@1,1@0) + (1,0)");
    CHECK(!view_is_permutation(to, perm), "offset view is not a permutation");
    /* '_' with stride c: ceil(extent / |c|) */
    View *s2 = view_parse(AR, x2, "(_,_):(2@0,1@1)", z, ERR, sizeof ERR);
    CHECK_STR(str(s2), "((d0+1)/2,d1):(2@0,1@1)");
    int64_t d2[2] = {7, 3};
    CHECK_INT(ev(s2->ext[0], d2), 4);
    CHECK(!s2->exact[0] && s2->exact[1], "a strided '_' is not exact");
    /* constants, CuTe's _N, a rank-1 layout without parentheses */
    CHECK_STR(str(view_parse(AR, x2, "(2,3):(3@0,1@1)", z, ERR, sizeof ERR)), "(2,3):(3@0,1@1)");
    CHECK_STR(str(view_parse(AR, x2, "_5:1@0", z, ERR, sizeof ERR)), "(5):(1@0)");
    CHECK_STR(str(view_parse(AR, x2, "_:1@1", z, ERR, sizeof ERR)), "(d1):(1@1)");
    /* a broadcast (stride 0) with a constant extent */
    View *b = view_parse(AR, x2, "(4,_):(0,1@0)", z, ERR, sizeof ERR);
    CHECK_STR(str(b), "(4,d0):(0,1@0)");
    CHECK(!view_storable(b, ERR, sizeof ERR), "broadcast");
    CHECK_STR(ERR, "its axis 0 has stride 0 (a broadcast), so its elements overlap");
    View *b1 = view_parse(AR, x2, "(1,_):(0,1@0)", z, ERR, sizeof ERR);
    CHECK(view_storable(b1, ERR, sizeof ERR), "a broadcast of extent 1 stores once: %s", ERR);
    /* nested deeper than one level: one top-level mode */
    View *n = view_parse(AR, x3, "((2,(3,_)),_):((1@1,(2@1,1@2)),1@0)", z, ERR, sizeof ERR);
    CHECK_STR(str(n), "((2,3,d2),d0):((1@1,2@1,1@2),1@0)");
    CHECK_INT(n->rank, 2);
    CHECK_INT(ev(n->ext[0], d), 48);

    /* every error, with its message */
    static const char *const errs[][2] = {
        {"(_,_)(1@1,1@0)", "bad view layout '(_,_)(1@1,1@0)': column 6: expected ':' and the strides (c@j: c steps "
                           "along array axis j)"},
        {"(_,_)", "bad view layout '(_,_)': column 6: expected ':' and the strides (c@j: c steps along array axis j)"},
        {"(_,_):(1@1,1#0)", "bad view layout '(_,_):(1@1,1#0)': column 13: a stride is c@j, c steps along array axis "
                            "j (or 0)"},
        {"(_,_):(1@1,2)", "bad view layout '(_,_):(1@1,2)': column 13: a stride is c@j, c steps along array axis j "
                          "(or 0)"},
        {"(_,_):(1@1,1@3)", "bad view layout '(_,_):(1@1,1@3)': column 15: the basis index after '@' is not an axis "
                            "of the array"},
        {"(_,_):(1@1,1@-1)", "bad view layout '(_,_):(1@1,1@-1)': column 16: the basis index after '@' is not an "
                             "axis of the array"},
        {"(_,_):(1@0,1@)", "bad view layout '(_,_):(1@0,1@)': column 14: expected an integer"},
        {"(_,_):(1@0,@1)", "bad view layout '(_,_):(1@0,@1)': column 12: expected an integer"},
        {"_:0", "bad view layout '_:0': a '_' extent needs a stride c@j to take array axis j's extent"},
        {"(4,_):(1@0,0)", "bad view layout '(4,_):(1@0,0)': a '_' extent needs a stride c@j to take array axis j's "
                          "extent"},
        {"_:0@1", "bad view layout '_:0@1': a '_' extent needs a stride c@j to take array axis j's extent"},
        {"(_,_,_,_,_,_,_,_,_):(1@0,1@0,1@0,1@0,1@0,1@0,1@0,1@0,1@0)",
         "bad view layout '(_,_,_,_,_,_,_,_,_):(1@0,1@0,1@0,1@0,1@0,1@0,1@0,1@0,1@0)': column 18: more than 8 modes"},
        {"(_,_):(1@0)", "bad view layout '(_,_):(1@0)': column 12: the stride has fewer entries than the shape"},
        {"(_,_):(1@0,1@1,1@2)", "bad view layout '(_,_):(1@0,1@1,1@2)': column 16: the stride has more entries than "
                                "the shape"},
        {"(_,_):(1@1,1@0) x", "bad view layout '(_,_):(1@1,1@0) x': column 17: unexpected text after the layout"},
        {"(0,_):(1@0,1@1)", "bad view layout '(0,_):(1@0,1@1)': column 3: a shape must be positive"},
        {"(-2,_):(1@0,1@1)", "bad view layout '(-2,_):(1@0,1@1)': column 4: a shape must be positive"},
        {"(_,_:(1@0,1@1)", "bad view layout '(_,_:(1@0,1@1)': column 5: expected ',' or ')'"},
        {"(_,x):(1@0,1@1)", "bad view layout '(_,x):(1@0,1@1)': column 4: expected an integer"},
        {"", "bad view layout '': column 1: expected an integer"},
        {"(2,2):(1@0,1@1", "bad view layout '(2,2):(1@0,1@1': column 15: expected ',' or ')'"},
    };
    for (size_t i = 0; i < sizeof errs / sizeof *errs; i++)
        CHECK_STR(err_of(view_parse(AR, x3, errs[i][0], z, ERR, sizeof ERR)), errs[i][1]);
    /* 24 sub-modes at most: the 25th leaf, at column 51, is refused */
    char big[400] = "((", *p = big + 2;
    for (int i = 0; i < 25; i++) p += sprintf(p, "%s2", i ? "," : "");
    strcpy(p, "))");
    strcat(big, ":((");
    for (int i = 0; i < 25; i++) strcat(big, i ? ",1@0" : "1@0");
    strcat(big, "))");
    View *vb = view_parse(AR, x3, big, z, ERR, sizeof ERR);
    CHECK(!vb && strstr(ERR, ": column 51: more than 24 sub-modes"), "25 leaves: %s", err_of(vb));
}

static void test_storable_permutation(void)
{
    View *id = view_of_array(AR, array(2));
    int perm[TILE_MAX_RANK];
    int tr[2] = {1, 0};
    View *t = view_permute(AR, id, tr, ERR, sizeof ERR);
    CHECK(view_storable(t, ERR, sizeof ERR), "transpose storable");
    CHECK(view_is_permutation(t, perm) && perm[0] == 1 && perm[1] == 0, "transpose");
    int64_t lo[2] = {1, 0}, hi[2] = {0, 0};
    View *p = view_pad(AR, t, lo, hi, ERR, sizeof ERR);
    CHECK(view_storable(p, ERR, sizeof ERR), "pad storable");
    CHECK(!view_is_permutation(p, perm), "pad not a permutation");
    int ax[1] = {1};
    int64_t one = 1, zero = 0;
    View *w = view_window(AR, id, 1, ax, &one, &one, &one, &zero, &zero, ERR, sizeof ERR);
    /* a window of size 1 reads each element once, but has two terms on the axis: refused */
    CHECK(!view_storable(w, ERR, sizeof ERR), "window of size 1");
    CHECK_STR(ERR, "2 of its sub-modes move along array axis 1, so its elements overlap");
    CHECK(!view_is_permutation(w, perm), "window not a permutation");
    int64_t z[2] = {0, 0};
    CHECK(!view_is_permutation(view_parse(AR, id->base, "(_,_):(1@0,1@0)", z, ERR, sizeof ERR), perm),
          "two modes on one axis");
    CHECK(!view_is_permutation(view_parse(AR, id->base, "(_,_,1):(1@0,1@1,0)", z, ERR, sizeof ERR), perm),
          "rank 3 of a rank-2 array");
    CHECK(!view_is_permutation(view_parse(AR, id->base, "(_,(2,_)):(1@0,(1@1,2@1))", z, ERR, sizeof ERR), perm),
          "nested");
    View *l = view_parse(AR, id->base, "(_,_):(-1@0,1@1)", z, ERR, sizeof ERR);
    CHECK(l && !view_is_permutation(l, perm), "reversed");
    CHECK(l && view_storable(l, ERR, sizeof ERR), "reversed storable");
}

/* ---- brute force: random chains of constructors against direct definitions -- */

enum { OP_PERMUTE, OP_PAD, OP_WINDOW, OP_IM2COL, OP_NKINDS };

typedef struct Op {
    int kind;
    int axes[TILE_MAX_RANK], naxes;
    int64_t size[3], stride[3], dil[3], lo[TILE_MAX_RANK], hi[TILE_MAX_RANK];
    bool cl;
} Op;

typedef struct Ref {
    const View *base; /* level 0: a parsed layout (its own definition), or NULL: the array */
    int nops;
    Op op[4];
    int rank[5];
    int64_t ext[5][TILE_MAX_RANK];
    bool nested[5][TILE_MAX_RANK];
} Ref;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int rnd(int n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (uint64_t)n);
}

/* The array element that level lv's element w reads (direct definition), or false for the padding. */
static bool ref_map(const Ref *r, const int64_t *d, int lv, const int64_t *w, int64_t *x)
{
    for (int k = 0; k < r->rank[lv]; k++)
        if (w[k] < 0 || w[k] >= r->ext[lv][k]) return false;
    if (lv == 0) {
        if (r->base) return vmap(r->base, d, w, x);
        for (int k = 0; k < r->rank[0]; k++) x[k] = w[k];
        return true;
    }
    const Op *o = &r->op[lv - 1];
    int ir = r->rank[lv - 1];
    int64_t in[TILE_MAX_RANK];
    switch (o->kind) {
    case OP_PERMUTE:
        for (int k = 0; k < ir; k++) in[o->axes[k]] = w[k];
        break;
    case OP_PAD:
        for (int k = 0; k < ir; k++) in[k] = w[k] - o->lo[k];
        break;
    case OP_WINDOW:
        for (int k = 0; k < ir; k++) in[k] = w[k];
        for (int i = 0; i < o->naxes; i++) {
            int k = o->axes[i];
            in[k] = o->stride[i] * w[k] + o->dil[i] * w[ir + i] - o->lo[i];
        }
        break;
    case OP_IM2COL: {
        int nsp = ir - 2;
        int64_t P = 1;
        for (int i = 0; i < nsp; i++) P *= o->size[i];
        int64_t g = o->cl ? w[nsp + 1] : w[1], C = r->ext[lv - 1][o->cl ? nsp + 1 : 1];
        int64_t c = o->cl ? g % C : g / P, kk = o->cl ? g / C : g % P, kidx[3];
        for (int i = nsp - 1; i >= 0; i--) {
            kidx[i] = kk % o->size[i];
            kk /= o->size[i];
        }
        in[0] = w[0];
        in[o->cl ? nsp + 1 : 1] = c;
        for (int i = 0; i < nsp; i++) {
            int sk = o->cl ? 1 + i : 2 + i;
            int wk = o->cl ? 1 + i : 2 + i;
            in[sk] = o->stride[i] * w[wk] + o->dil[i] * kidx[i] - o->lo[i];
        }
        break;
    }
    }
    return ref_map(r, d, lv - 1, in, x);
}

/* Level lv + 1's rank, extents and nesting from level lv's. */
static void ref_step(Ref *r, int lv)
{
    const Op *o = &r->op[lv];
    int ir = r->rank[lv];
    const int64_t *e = r->ext[lv];
    int64_t *ne = r->ext[lv + 1];
    bool *nn = r->nested[lv + 1];
    const bool *on = r->nested[lv];
    switch (o->kind) {
    case OP_PERMUTE:
        r->rank[lv + 1] = ir;
        for (int k = 0; k < ir; k++) ne[k] = e[o->axes[k]], nn[k] = on[o->axes[k]];
        break;
    case OP_PAD:
        r->rank[lv + 1] = ir;
        for (int k = 0; k < ir; k++) ne[k] = e[k] + o->lo[k] + o->hi[k], nn[k] = on[k];
        break;
    case OP_WINDOW:
        r->rank[lv + 1] = ir + o->naxes;
        for (int k = 0; k < ir; k++) ne[k] = e[k], nn[k] = on[k];
        for (int i = 0; i < o->naxes; i++) {
            int k = o->axes[i];
            ne[k] = win_out(e[k], o->size[i], o->stride[i], o->dil[i], o->lo[i], o->hi[i]);
            ne[ir + i] = o->size[i];
            nn[ir + i] = false;
        }
        break;
    case OP_IM2COL: {
        int nsp = ir - 2;
        int64_t P = 1;
        for (int i = 0; i < nsp; i++) P *= o->size[i];
        r->rank[lv + 1] = ir;
        ne[0] = e[0];
        nn[0] = on[0];
        int gk = o->cl ? nsp + 1 : 1;
        ne[gk] = e[o->cl ? nsp + 1 : 1] * P;
        nn[gk] = true;
        for (int i = 0; i < nsp; i++) {
            int k = o->cl ? 1 + i : 2 + i;
            ne[k] = win_out(e[k], o->size[i], o->stride[i], o->dil[i], o->lo[i], o->hi[i]);
            nn[k] = on[k];
        }
        break;
    }
    }
}

static void random_op(Op *o, int rank)
{
    memset(o, 0, sizeof *o);
    for (;;) {
        o->kind = rnd(OP_NKINDS);
        if (o->kind == OP_IM2COL && (rank < 3 || rank > 5)) continue;
        if (o->kind == OP_WINDOW && rank >= TILE_MAX_RANK) continue;
        break;
    }
    switch (o->kind) {
    case OP_PERMUTE:
        for (int k = 0; k < rank; k++) o->axes[k] = k;
        for (int k = rank - 1; k > 0; k--) {
            int i = rnd(k + 1), t = o->axes[k];
            o->axes[k] = o->axes[i];
            o->axes[i] = t;
        }
        break;
    case OP_PAD:
        for (int k = 0; k < rank; k++) {
            o->lo[k] = rnd(3) ? 0 : rnd(3);
            o->hi[k] = rnd(3) ? 0 : rnd(3);
        }
        break;
    case OP_WINDOW:
    case OP_IM2COL:
        o->naxes = o->kind == OP_IM2COL ? rank - 2 : 1 + rnd(rank < 2 || rank + 2 > TILE_MAX_RANK ? 1 : 2);
        o->cl = rnd(2);
        for (int i = 0; i < o->naxes; i++) {
            int k;
            bool dup;
            do {
                k = rnd(rank);
                dup = false;
                for (int i2 = 0; i2 < i; i2++) dup |= o->axes[i2] == k;
            } while (dup);
            o->axes[i] = k;
            o->size[i] = 1 + rnd(3);
            o->stride[i] = 1 + rnd(2);
            o->dil[i] = 1 + rnd(2);
            o->lo[i] = rnd(3);
            o->hi[i] = rnd(2);
        }
        break;
    }
}

static View *apply(const View *v, const Op *o)
{
    switch (o->kind) {
    case OP_PERMUTE: return view_permute(AR, v, o->axes, ERR, sizeof ERR);
    case OP_PAD: return view_pad(AR, v, o->lo, o->hi, ERR, sizeof ERR);
    case OP_WINDOW:
        return view_window(AR, v, o->naxes, o->axes, o->size, o->stride, o->dil, o->lo, o->hi, ERR, sizeof ERR);
    default:
        return view_im2col(AR, v, o->naxes, o->size, o->stride, o->dil, o->lo, o->hi, o->cl, ERR, sizeof ERR);
    }
}

/* Whether the op must fail on a nested axis of the level it applies to. */
static bool touches_nested(const Ref *r, int lv, const Op *o)
{
    const bool *on = r->nested[lv];
    int ir = r->rank[lv];
    switch (o->kind) {
    case OP_PAD:
        for (int k = 0; k < ir; k++)
            if ((o->lo[k] || o->hi[k]) && on[k]) return true;
        return false;
    case OP_WINDOW:
        for (int i = 0; i < o->naxes; i++)
            if (on[o->axes[i]]) return true;
        return false;
    case OP_IM2COL:
        for (int i = 0; i < ir - 2; i++)
            if (on[o->cl ? 1 + i : 2 + i]) return true;
        return false;
    default: return false;
    }
}

static int compared, chains, refused;

static void brute_chain(int trial)
{
    Ref r;
    memset(&r, 0, sizeof r);
    /* layouts that view_parse builds, over arrays of rank 1 and 2 (none with
     * an unstrided '_' mode on an array axis that another term also moves
     * along, e.g. "(_,_):(1@0,1@0)": padding or windowing such a mode
     * misses the padding, see REPORT.md) */
    static const char *const parsed[][2] = {
        {"1", "(2,_):(0,1@0)"},        {"1", "_:2@0"},
        {"2", "(_,_):(1@1,1@0)"},      {"2", "(_,(2,_)):(1@0,(1@1,2@1))"},
        {"2", "(4,_):(1@0,1@1)"},      {"2", "(_,(2,3)):(1@1,(1@0,2@0))"},
        {"2", "(_,_):(2@1,-1@0)"},     {"1", "((2,_),3):((1@0,2@0),0)"},
        /* modes that share their array axis with another term (not exact) */
        {"1", "(_,_):(1@0,1@0)"},      {"1", "(3,_):(1@0,1@0)"},
        {"2", "(_,_,_):(1@0,1@1,1@0)"}, {"2", "((2,_),_):((1@1,1@0),1@1)"},
    };
    int rank = 1 + rnd(5), which = -1;
    if (rnd(3) == 0) {
        which = rnd((int)(sizeof parsed / sizeof *parsed));
        rank = parsed[which][0][0] - '0';
    }
    const Param *p = array(rank);
    int64_t d[TILE_MAX_RANK];
    for (int k = 0; k < rank; k++) d[k] = rnd(7) ? 1 + rnd(5) : rnd(2);
    const View *v = view_of_array(AR, p);
    if (which >= 0) {
        int64_t off[TILE_MAX_RANK] = {0};
        if (rnd(2)) off[0] = rnd(3) - 1;
        v = view_parse(AR, p, parsed[which][1], off, ERR, sizeof ERR);
        CHECK(v != NULL, "%s: %s", parsed[which][1], ERR);
        if (!v) return;
        r.base = v;
    }
    r.rank[0] = v->rank;
    for (int k = 0; k < v->rank; k++) {
        int ts[VIEW_MAX_TERMS];
        r.ext[0][k] = ev(v->ext[k], d);
        r.nested[0][k] = view_mode_terms(v, k, ts) > 1;
    }
    char trace[512] = "";
    if (which >= 0) snprintf(trace, sizeof trace, " '%s' + (%" PRId64 ")", parsed[which][1], v->off[0]);
    int want = 1 + rnd(3);
    while (r.nops < want) {
        Op o;
        random_op(&o, r.rank[r.nops]);
        const View *nv = apply(v, &o);
        size_t tl = strlen(trace);
        snprintf(trace + tl, sizeof trace - tl, " op%d", o.kind);
        bool nested = touches_nested(&r, r.nops, &o);
        if (!nv) {
            refused++;
            CHECK(nested || strstr(ERR, "more than"), "trial %d:%s refused: %s", trial, trace, ERR);
            if (!nested && !strstr(ERR, "more than")) return;
            want--;
            continue;
        }
        CHECK(!nested, "trial %d:%s accepted an op on a nested axis", trial, trace);
        r.op[r.nops] = o;
        ref_step(&r, r.nops);
        r.nops++;
        v = nv;
    }
    chains++;
    int lv = r.nops, R = r.rank[lv];
    CHECK(v->rank == R, "trial %d:%s rank %d, want %d", trial, trace, v->rank, R);
    if (v->rank != R) return;
    int64_t total = 1;
    for (int k = 0; k < R; k++) {
        int64_t e = ev(v->ext[k], d);
        CHECK(e == r.ext[lv][k], "trial %d:%s %s: axis %d extent %" PRId64 ", want %" PRId64, trial, trace, str(v), k,
              e, r.ext[lv][k]);
        if (e != r.ext[lv][k]) return;
        total *= e;
    }
    if (total > 20000) return;
    /* every element, and injectivity where the view says it is storable */
    bool storable = view_storable(v, ERR, sizeof ERR);
    int64_t asize = 1;
    for (int j = 0; j < rank; j++) asize *= d[j];
    unsigned char *hit = calloc((size_t)asize + 1, 1);
    int64_t w[TILE_MAX_RANK] = {0};
    int bad = 0;
    for (int64_t i = 0; i < total && bad < 3; i++) {
        int64_t rest = i;
        for (int k = 0; k < R; k++) {
            w[k] = rest % r.ext[lv][k];
            rest /= r.ext[lv][k];
        }
        int64_t xa[TILE_MAX_RANK], xr[TILE_MAX_RANK];
        bool ga = vmap(v, d, w, xa), gr = ref_map(&r, d, lv, w, xr);
        bool same = ga == gr;
        for (int j = 0; same && ga && j < rank; j++) same = xa[j] == xr[j];
        compared++;
        if (!same) {
            bad++;
            CHECK(same, "trial %d:%s %s, element %" PRId64 ": view %s x[%" PRId64 "..], direct %s x[%" PRId64 "..]",
                  trial, trace, str(v), i, ga ? "reads" : "pads", ga ? xa[0] : 0, gr ? "reads" : "pads",
                  gr ? xr[0] : 0);
        }
        if (ga && storable && !r.base) {
            int64_t lin = 0;
            for (int j = rank - 1; j >= 0; j--) lin = lin * d[j] + xa[j];
            CHECK(!hit[lin], "trial %d:%s storable view %s writes element %" PRId64 " twice", trial, trace, str(v),
                  lin);
            hit[lin] = 1;
        }
    }
    free(hit);
    /* only permutations are permutations */
    bool only_perm = true;
    for (int q = 0; q < r.nops; q++) only_perm &= r.op[q].kind == OP_PERMUTE;
    only_perm &= r.base == NULL;
    int perm[TILE_MAX_RANK];
    if (only_perm) CHECK(view_is_permutation(v, perm), "trial %d:%s a chain of permutations", trial, trace);
}

static void test_brute(void)
{
    int before = check_failed_;
    for (int trial = 0; trial < 3000 && check_failed_ - before < 10; trial++) brute_chain(trial);
    CHECK(chains > 2000 && compared > 100000, "%d chains, %d elements compared", chains, compared);
    CHECK(refused > 0, "no op was refused");
}

int main(void)
{
    AR = arena_new();
    if (getenv("VIEW_TEST_SEED")) rng = strtoull(getenv("VIEW_TEST_SEED"), NULL, 0) | 1;
    test_identity();
    test_permute();
    test_pad();
    test_pad_of_window();
    test_window();
    test_im2col();
    test_parse();
    test_storable_permutation();
    test_brute();
    arena_free(AR);
    return check_done("view");
}
