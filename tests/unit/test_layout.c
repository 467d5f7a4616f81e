/* test_layout.c: unit and property tests of the CuTe layout algebra
 * (sema/layout.h).  Worked examples come from the seed (003) and CuTe's
 * documentation; the property tests check the algebra's defining equations
 * on thousands of seeded random hierarchical layouts; the last test times
 * 10,000 `tilec layout --batch` lines. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "layout_check.h"
#include "cmd/layout_cli.h"
#include "sema/layout.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* ---- helpers -------------------------------------------------------------- */

static const char *result(bool ok, const Layout *r, const char *err)
{
    char *b = slot();
    if (ok)
        layout_format(r, b, LAYOUT_STR_MAX);
    else
        snprintf(b, LAYOUT_STR_MAX + 300, "error: %s", err);
    return b;
}

typedef bool (*Op1)(const Layout *, Layout *, char *, size_t);
typedef bool (*Op2)(const Layout *, const Layout *, Layout *, char *, size_t);
typedef bool (*OpT)(const Layout *, const LayoutTiler *, Layout *, char *, size_t);

static const char *run1(Op1 f, const char *a)
{
    Layout x = P(a), r;
    char err[256] = "";
    bool ok = f(&x, &r, err, sizeof err);
    return result(ok, &r, err);
}

static const char *run2(Op2 f, const char *a, const char *b)
{
    Layout x = P(a), y = P(b), r;
    char err[256] = "";
    bool ok = f(&x, &y, &r, err, sizeof err);
    return result(ok, &r, err);
}

static const char *runT(OpT f, const char *a, const char *t)
{
    Layout x = P(a), r;
    LayoutTiler y = PT(t);
    char err[256] = "";
    bool ok = f(&x, &y, &r, err, sizeof err);
    return result(ok, &r, err);
}

static const char *compl(const char *a, int64_t m)
{
    Layout x = P(a), r;
    char err[256] = "";
    bool ok = layout_complement(&x, m, &r, err, sizeof err);
    return result(ok, &r, err);
}

static const char *parse_err(const char *text)
{
    Layout l;
    char *b = slot();
    b[0] = '\0';
    if (layout_parse(text, &l, b, LAYOUT_STR_MAX)) snprintf(b, LAYOUT_STR_MAX, "(parsed)");
    return b;
}

#define CHECK_HAS(got, needle)                                                        \
    do {                                                                              \
        const char *g2_ = (got);                                                      \
        CHECK(strstr(g2_, (needle)) != NULL, "got \"%s\", want it to contain \"%s\"", \
              g2_, (needle));                                                         \
    } while (0)

/* ---- random layouts (the PRNG is layout_check.h's; LAYOUT_TEST_SEED
 * changes its seed, for stress runs by hand) -------------------------------- */

static Layout make_random(const int64_t *s, const int64_t *d, int n)
{
    static const Nesting nz = {.max_depth = 3, .wrap_leaf = 10, .tuple_single = 4};
    Str t;
    layout_text(&nz, &t, s, d, n);
    return P(t.b);
}

/* Any layout: small shapes, strides 0..maxd. */
static Layout rand_any(int maxn, int64_t maxd)
{
    int64_t s[8], d[8];
    int n = (int)rr(1, maxn);
    for (int k = 0; k < n; k++) {
        s[k] = rr(1, 6);
        d[k] = rnd() % 5 == 0 ? 0 : rr(1, maxd);
    }
    return make_random(s, d, n);
}

/* An injective, admissible layout: sorted strides each a multiple of the
 * span below (gap factor 1..maxgap), then the modes shuffled; size-1 modes
 * with arbitrary strides sprinkled in. */
static Layout rand_admissible(int maxn, int maxgap)
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
        int64_t t = s[k]; s[k] = s[j]; s[j] = t;
        t = d[k]; d[k] = d[j]; d[j] = t;
    }
    if (n < 8 && rnd() % 4 == 0) {
        int at = (int)rr(0, n);
        for (int k = n; k > at; k--) {
            s[k] = s[k - 1];
            d[k] = d[k - 1];
        }
        s[at] = 1;
        d[at] = rr(0, 9);
        n++;
    }
    return make_random(s, d, n);
}

static Layout rand_compact(int maxn) { return rand_admissible(maxn, 1); }

static bool coalesced_flat(const Layout *l)
{
    return layout_depth(l) <= 1;
}

/* ---- worked examples: the seed -------------------------------------------------- */

static void test_seed(void)
{
    Layout a = P("(2,4):(2,2)");
    CHECK_INT(layout_eval(&a, 3), 4);
    LayoutTuple c;
    char buf[64];
    CHECK(layout_index_to_coord(&a, 3, &c, NULL, 0), "coord");
    layout_tuple_format(&c, buf, sizeof buf);
    CHECK_STR(buf, "(1,1)");

    /* sorting changes the function: row-major vs column-major 2x2 */
    CHECK_STR(run1(layout_sort, "(2,2):(3,1)"), "(2,2):(1,3)");
    Layout rm = P("(2,2):(3,1)"), cm = P("(2,2):(1,3)");
    CHECK_INT(layout_eval(&rm, 1), 3);
    CHECK_INT(layout_eval(&cm, 1), 1);
    CHECK(!layout_equal_function(&rm, &cm), "sorted layout is a different function");

    CHECK_STR(run1(layout_coalesce, "(2,1):(3,1)"), "2:3");

    Layout l = P("(2,4):(1,2)"), raw, co;
    CHECK(layout_complement_uncoalesced(&l, 16, &raw, NULL, 0), "complement");
    CHECK_STR(S(&raw), "(1,1,2):(1,2,8)");
    CHECK(layout_complement(&l, 16, &co, NULL, 0), "complement");
    CHECK_STR(S(&co), "2:8");
    CHECK(layout_equal_function(&raw, &co), "coalescing keeps the function");
    /* (l, complement) is a bijection onto [0,16) */
    const Layout *parts[2] = {&l, &co};
    Layout cat;
    CHECK(layout_concat(2, parts, &cat, NULL, 0), "concat");
    CHECK_STR(S(&cat), "((2,4),2):((1,2),8)");
    int seen[16] = {0};
    for (int i = 0; i < 16; i++) {
        int64_t v = layout_eval(&cat, i);
        if (v >= 0 && v < 16) seen[v]++;
    }
    int all = 1;
    for (int i = 0; i < 16; i++) all &= seen[i] == 1;
    CHECK(all, "(l, complement(l,16)) must hit each of 0..15 once");
}

/* ---- worked examples: CuTe's documentation ------------------------------------- */

static void test_doc_coalesce(void)
{
    CHECK_STR(run1(layout_coalesce, "(2,(1,6)):(1,(6,2))"), "12:1");
    CHECK_STR(run1(layout_coalesce, "(2,4):(1,2)"), "8:1");
    CHECK_STR(run1(layout_coalesce, "(1,1):(5,7)"), "1:0");
    CHECK_STR(run1(layout_coalesce, "(2,3):(0,0)"), "6:0");
    CHECK_STR(run1(layout_coalesce, "(4,8):(8,1)"), "(4,8):(8,1)");
    Layout a = P("(2,(1,6)):(1,(6,2))"), r;
    LayoutTuple prof;
    CHECK(layout_tuple_parse("(1,1)", &prof, NULL, 0), "profile");
    CHECK(layout_coalesce_profile(&a, &prof, &r, NULL, 0), "by-mode coalesce");
    CHECK_STR(S(&r), "(2,6):(1,2)");
    /* profile shorter than the layout: later modes stay as they are */
    Layout b = P("((2,2),(1,3)):((1,2),(9,4))");
    CHECK(layout_tuple_parse("(1)", &prof, NULL, 0), "profile");
    CHECK(layout_coalesce_profile(&b, &prof, &r, NULL, 0), "by-mode coalesce");
    CHECK_STR(S(&r), "(4,(1,3)):(1,(9,4))");
}

static void test_doc_composition(void)
{
    CHECK_STR(run2(layout_compose, "(6,2):(8,2)", "(4,3):(3,1)"), "((2,2),3):((24,2),8)");
    /* the table R(i) = A(B(i)) of the documentation */
    Layout a = P("(6,2):(8,2)"), b = P("(4,3):(3,1)"), r;
    CHECK(layout_compose(&a, &b, &r, NULL, 0), "compose");
    static const int64_t want[12] = {0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42};
    for (int i = 0; i < 12; i++) CHECK_INT(layout_eval(&r, i), want[i]);
    /* reshape 20:2 into a 5x4 row-major matrix */
    CHECK_STR(run2(layout_compose, "20:2", "(5,4):(4,1)"), "(5,4):(8,2)");
    /* (10,2):(16,4) as a column-major 5x4 matrix; CuTe prints this for
     * static integers (dynamic ones keep size-1 modes) */
    CHECK_STR(run2(layout_compose, "(10,2):(16,4)", "(5,4):(1,5)"), "(5,(2,2)):(16,(80,4))");
    /* the "divide out, mod out" worked steps: (3,6,2,8):(w,x,y,z) o 16:9 =
     * (1,2,2,4):(9w,3x,y,z); with w,x,y,z = 1,100,1000,5000 */
    CHECK_STR(run2(layout_compose, "(3,6,2,8):(1,100,1000,5000)", "16:9"),
              "(2,2,4):(300,1000,5000)");
    /* trivial cases: integral A, and a stride-0 B */
    CHECK_STR(run2(layout_compose, "12:59", "3:4"), "3:236");
    CHECK_STR(run2(layout_compose, "(4,8):(1,4)", "5:0"), "5:0");
    /* tilers: by-mode composition */
    CHECK_STR(runT(layout_compose_tiler, "(12,(4,8)):(59,(13,1))", "<3:4,8:2>"),
              "(3,(2,4)):(236,(26,1))");
    CHECK_STR(runT(layout_compose_tiler, "(12,(4,8)):(59,(13,1))", "<3,8>"),
              "(3,(4,2)):(59,(13,1))");
    /* a tiler with fewer modes leaves the rest; one 1-tuple tiler */
    CHECK_STR(runT(layout_compose_tiler, "(4,6,5):(1,4,24)", "<2:2>"), "(2,6,5):(2,4,24)");
    /* a bare shape B is the compact layout (3,8):(1,3), not the by-mode
     * tiler <3,8> that CuTe makes of a Shape */
    CHECK_STR(runT(layout_compose_tiler, "(12,(4,8)):(59,(13,1))", "(3,8)"),
              "(3,(4,2)):(59,(177,13))");
    /* conditions CuTe asserts */
    CHECK_HAS(run2(layout_compose, "(4,3):(1,10)", "2:3"), "stride divisibility");
    CHECK_HAS(run2(layout_compose, "(4,3):(1,10)", "6:1"), "shape divisibility");
    CHECK_HAS(run2(layout_compose, "(4,3):(1,10)", "2:-1"), "negative stride");
    /* overlapping modes of B would carry between modes of A: CuTe returns
     * (6,3):(8,8), whose value at 11 is 48, but A(B(11)) = A(6) = 9 */
    CHECK_HAS(run2(layout_compose, "(6,6):(8,9)", "(6,3):(1,1)"), "overlap in mode 0");
    /* overlapping but carry-free, and broadcast modes, are fine */
    CHECK_STR(run2(layout_compose, "(4,6):(1,8)", "(2,2):(1,1)"), "(2,2):(1,1)");
    CHECK_STR(run2(layout_compose, "(4,6):(1,8)", "(4,3,2):(1,0,4)"), "(4,3,2):(1,0,8)");
    CHECK_HAS(runT(layout_compose_tiler, "(4,3):(1,10)", "<2:1,3:1,1:0>"),
              "tiler has 3 modes but the layout has rank 2");
}

static void test_doc_complement(void)
{
    CHECK_STR(compl("4:1", 24), "6:4");
    CHECK_STR(compl("6:4", 24), "4:1");
    CHECK_STR(compl("(4,6):(1,4)", 24), "1:0");
    CHECK_STR(compl("4:2", 24), "(2,3):(1,8)");
    CHECK_STR(compl("(2,4):(1,6)", 24), "3:2");
    CHECK_STR(compl("(2,2):(1,6)", 24), "(3,2):(2,12)");
    /* default cotarget: cosize of filter(l) */
    CHECK_STR(compl("(2,2):(1,6)", 0), "3:2");
    /* CuTe rounds the last mode up: 6 elements, tiles of 4 */
    CHECK_STR(compl("4:1", 6), "2:4");
    /* only broadcast modes: the whole cotarget is the rest */
    CHECK_STR(compl("(4,1):(0,7)", 8), "8:1");
    /* inadmissible inputs are errors, never wrong answers */
    CHECK_HAS(compl("(2,2):(1,1)", 8), "not injective");
    CHECK_HAS(compl("(3,2):(2,3)", 12), "not admissible");
    CHECK_HAS(compl("(2,2):(1,3)", 12), "not admissible");
    CHECK_HAS(compl("4:-1", 8), "negative stride");
    Layout l = P("4:1"), r;
    char err[128];
    CHECK(!layout_complement_uncoalesced(&l, LAYOUT_MAX_VALUE + 1, &r, err, sizeof err), "limit");
}

static void test_doc_divide(void)
{
    /* 1-D: A = (4,2,3):(2,1,8), B = 4:2 */
    CHECK_STR(compl("4:2", 24), "(2,3):(1,8)");
    CHECK_STR(run2(layout_logical_divide, "(4,2,3):(2,1,8)", "4:2"),
              "((2,2),(2,3)):((4,1),(2,8))");
    /* 2-D with a tiler */
    const char *A = "(9,(4,8)):(59,(13,1))", *T = "<3:3,(2,4):(1,8)>";
    CHECK_STR(runT(layout_logical_divide_tiler, A, T),
              "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
    /* the first mode of each mode is the composition */
    CHECK_STR(runT(layout_compose_tiler, A, T), "(3,(2,4)):(177,(13,2))");
    Layout a = P(A), zd, td, comp;
    LayoutTiler t = PT(T);
    CHECK(layout_zipped_divide(&a, &t, &zd, NULL, 0), "zipped");
    CHECK_STR(S(&zd), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
    Layout z0, z1;
    CHECK(layout_mode(&zd, 0, &z0, NULL, 0) && layout_mode(&zd, 1, &z1, NULL, 0), "modes");
    CHECK_INT(layout_size(&z0), 24); /* the documented shape ((3,8),(3,4)) */
    CHECK_INT(layout_size(&z1), 12);
    CHECK(layout_compose_tiler(&a, &t, &comp, NULL, 0), "compose");
    CHECK(layout_equal(&z0, &comp), "layout<0>(zipped_divide(a,b)) == composition(a,b)");
    CHECK(layout_tiled_divide(&a, &t, &td, NULL, 0), "tiled");
    CHECK_STR(S(&td), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
    CHECK_INT(layout_rank(&td), 3);
    /* untouched modes go to the rest of zipped/tiled divide */
    CHECK_STR(runT(layout_zipped_divide, "(8,6,5):(1,8,48)", "<2:1,3:1>"),
              "((2,3),(4,2,5)):((1,8),(2,24,48))");
    CHECK_STR(runT(layout_tiled_divide, "(8,6,5):(1,8,48)", "<2:1,3:1>"),
              "((2,3),4,2,5):((1,8),2,24,48)");
    /* a layout tiler: zipped divide is the logical divide */
    CHECK_STR(runT(layout_zipped_divide, "24:1", "4:1"), "(4,6):(1,4)");
    /* a tile that does not divide: CuTe rounds the number of tiles up */
    CHECK_STR(run2(layout_logical_divide, "6:1", "4:1"), "(4,2):(1,4)");
    /* inadmissible tile */
    CHECK_HAS(run2(layout_logical_divide, "16:1", "(2,2):(1,1)"),
              "logical-divide: tiler (2,2):(1,1) has no complement for size(A) = 16: complement");
}

static void test_doc_product(void)
{
    CHECK_STR(compl("(2,2):(4,1)", 24), "(2,3):(2,8)");
    CHECK_STR(run2(layout_logical_product, "(2,2):(4,1)", "6:1"), "((2,2),(2,3)):((4,1),(2,8))");
    /* 8 tiles in a different order */
    CHECK_STR(run2(layout_logical_product, "(2,2):(4,1)", "(4,2):(2,1)"),
              "((2,2),(4,2)):((4,1),(8,2))");
    /* a 2x5 row-major block tiled over a 3x4 column-major arrangement */
    CHECK_STR(run2(layout_blocked_product, "(2,5):(5,1)", "(3,4):(1,3)"), "(6,(5,4)):(5,(1,30))");
    CHECK_STR(run2(layout_raked_product, "(2,5):(5,1)", "(3,4):(1,3)"),
              "((3,2),(4,5)):((10,5),(30,1))");
    /* rank padding: a rank-1 block over a 2-D arrangement */
    CHECK_STR(run2(layout_blocked_product, "4:1", "(2,3):(1,2)"), "(8,3):(1,8)");
    /* by-mode logical product with a tiler */
    CHECK_STR(runT(layout_logical_product_tiler, "(2,3):(1,2)", "<2:1,2:1>"),
              "((2,2),(3,2)):((1,2),(2,1))");
    CHECK_HAS(run2(layout_logical_product, "(2,2):(1,1)", "2:1"),
              "logical-product: A = (2,2):(1,1) has no complement for size(A)*cosize(B) = 8");
}

static void test_doc_inverse(void)
{
    CHECK_STR(run1(layout_right_inverse, "(4,8):(8,1)"), "(8,4):(4,1)");
    CHECK_STR(run1(layout_right_inverse, "8:1"), "8:1");
    CHECK_STR(run1(layout_right_inverse, "(2,4):(4,1)"), "(4,2):(2,1)");
    CHECK_STR(run1(layout_right_inverse, "4:2"), "1:0");
    CHECK_STR(run1(layout_right_inverse, "(3,4):(1,6)"), "3:1");
    CHECK_STR(run1(layout_left_inverse, "(4,8):(8,1)"), "(8,4):(4,1)");
    CHECK_STR(run1(layout_left_inverse, "4:2"), "(2,4):(4,1)");
    Layout l = P("4:2"), li;
    CHECK(layout_left_inverse(&l, &li, NULL, 0), "left inverse");
    for (int i = 0; i < 4; i++) CHECK_INT(layout_eval(&li, layout_eval(&l, i)), i);
    CHECK_HAS(run1(layout_left_inverse, "(2,2):(1,0)"), "not injective");
    CHECK_HAS(run1(layout_left_inverse, "(2,2):(1,1)"), "not injective");
    /* negative strides: CuTe follows |stride| and keeps the sign, which is
     * right only where the layout is linear on every integer */
    CHECK_STR(run1(layout_right_inverse, "4:-1"), "4:-1");
    CHECK_STR(run1(layout_right_inverse, "(4,2):(1,-8)"), "4:1");
    CHECK_HAS(run1(layout_right_inverse, "(4,2):(1,-4)"), "negative");
    CHECK_HAS(run1(layout_left_inverse, "4:-1"), "negative stride");
}

/* ---- text ------------------------------------------------------------------------ */

static void test_parse_print(void)
{
    static const char *round[] = {
        "8:1", "(2,4):(1,2)", "(2,(2,2)):(4,(1,2))", "(8):(1)", "((2,2),3):((24,2),8)",
        "(3,4):(-1,0)", "1:0", "((((2)))):((((1))))",
    };
    for (size_t k = 0; k < sizeof round / sizeof round[0]; k++) {
        Layout l = P(round[k]);
        CHECK_STR(S(&l), round[k]);
    }
    Layout l = P("(4,8)");
    CHECK_STR(S(&l), "(4,8):(1,4)");
    l = P("(2,(1,3),4)");
    CHECK_STR(S(&l), "(2,(1,3),4):(1,(0,2),6)");
    l = P("_8:_1");
    CHECK_STR(S(&l), "8:1");
    l = P(" ( 2 , 4 ) : ( 1 , 2 ) ");
    CHECK_STR(S(&l), "(2,4):(1,2)");
    CHECK_INT(layout_rank(&l), 2);
    l = P("(2,(2,2)):(4,(1,2))");
    CHECK_INT(layout_size(&l), 8);
    CHECK_INT(layout_cosize(&l), 8);
    CHECK_INT(layout_rank(&l), 2);
    CHECK_INT(layout_depth(&l), 2);
    l = P("8:1");
    CHECK_INT(layout_depth(&l), 0);
    CHECK_INT(layout_rank(&l), 1);
    l = P("(4,3):(2,-5)");
    CHECK_INT(layout_cosize(&l), 17);

    CHECK_STR(parse_err("(2,4:(1,2)"), "column 5: expected ',' or ')' but found ':'");
    CHECK_STR(parse_err("(2,4):(1,(2,3))"), "column 10: stride is not congruent with the shape: expected an integer");
    CHECK_STR(parse_err("(2,(4,2)):(1,8)"), "column 14: stride is not congruent with the shape: expected a tuple of 2");
    CHECK_STR(parse_err("(0,4)"), "column 2: shape must be positive");
    CHECK_STR(parse_err("(3,-4)"), "column 4: shape must be positive");
    CHECK_STR(parse_err("8:1x"), "column 4: unexpected 'x' after the layout");
    CHECK_STR(parse_err(""), "column 1: expected a number or '(' but found end of input");
    CHECK_STR(parse_err("(2,4):(1,2"), "column 11: expected ',' or ')' but found end of input");
    CHECK_STR(parse_err("()"), "column 2: expected a number or '(' but found ')'");
    CHECK_STR(parse_err("281474976710657:1"), "column 1: integer exceeds the limit 2^48");
    CHECK_STR(parse_err("(65536,65536,65536,2)"), "column 1: layout size exceeds the limit 2^48");
    CHECK_STR(parse_err("<2:1>"), "column 1: expected a number or '(' but found '<'");
    /* 65 leaves */
    Str big = {.n = 0};
    big.b[0] = '\0';
    sput(&big, "(");
    for (int i = 0; i < 65; i++) sput(&big, i ? ",1" : "1");
    sput(&big, ")");
    CHECK_HAS(parse_err(big.b), "too many modes");
    Str deep = {.n = 0};
    deep.b[0] = '\0';
    for (int i = 0; i < 20; i++) sput(&deep, "(");
    sput(&deep, "2");
    for (int i = 0; i < 20; i++) sput(&deep, ")");
    CHECK_HAS(parse_err(deep.b), "nest too deeply");

    LayoutTiler t = PT("<3:3,(2,4):(1,8),<2,4:2>>");
    char buf[256];
    layout_tiler_format(&t, buf, sizeof buf);
    CHECK_STR(buf, "<3:3,(2,4):(1,8),<2:1,4:2>>");
    char err[128];
    CHECK(!layout_tiler_parse("<3:3,", &t, err, sizeof err), "bad tiler");
    CHECK_STR(err, "column 6: expected a number or '(' but found end of input");
    CHECK(!layout_tiler_parse("<3:3;2>", &t, err, sizeof err), "bad tiler");
    CHECK_STR(err, "column 5: expected ',' or '>' but found ';'");

    /* snprintf-like formatting */
    l = P("(2,(2,2)):(4,(1,2))");
    char small[8];
    CHECK_INT(layout_format(&l, small, sizeof small), 19);
    CHECK_STR(small, "(2,(2,2");

    /* a hand-built tree is validated before use */
    Layout bad = l;
    bad.node[0].nchild = 5;
    CHECK(!layout_validate(&bad, err, sizeof err), "malformed");
    Layout r;
    CHECK(!layout_coalesce(&bad, &r, err, sizeof err), "malformed input refused");
    CHECK_HAS(err, "coalesce: invalid layout");
}

static void test_eval_coord(void)
{
    Layout l = P("(2,(2,2)):(4,(1,2))");
    static const int64_t want[8] = {0, 4, 1, 5, 2, 6, 3, 7};
    for (int i = 0; i < 8; i++) CHECK_INT(layout_eval(&l, i), want[i]);
    struct {
        const char *c;
        int64_t off;
    } cs[] = {{"(1,(1,1))", 7}, {"(1,3)", 7}, {"(0,(1,0))", 1}, {"5", 6}, {"(1,2)", 6}};
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
        LayoutTuple c;
        int64_t off = -1;
        CHECK(layout_tuple_parse(cs[k].c, &c, NULL, 0), "coord parse");
        CHECK(layout_eval_coord(&l, &c, &off, NULL, 0), "eval %s", cs[k].c);
        CHECK_INT(off, cs[k].off);
    }
    LayoutTuple c;
    int64_t off;
    char err[128];
    layout_tuple_parse("(2,0)", &c, NULL, 0);
    CHECK(!layout_eval_coord(&l, &c, &off, err, sizeof err), "out of range");
    CHECK_STR(err, "eval: coordinate 2 out of range for a mode of size 2");
    layout_tuple_parse("(0,0,0)", &c, NULL, 0);
    CHECK(!layout_eval_coord(&l, &c, &off, err, sizeof err), "rank");
    CHECK_STR(err, "eval: coordinate has rank 3 but the mode has rank 2");
    /* CuTe's extension past the size runs along the last mode */
    Layout m = P("(4,2):(1,10)");
    CHECK_INT(layout_eval(&m, 8), 20);
    CHECK_INT(layout_eval(&m, 13), 31);
    /* index -> natural coordinate -> offset round trip */
    for (int i = 0; i < 8; i++) {
        LayoutTuple nc;
        CHECK(layout_index_to_coord(&l, i, &nc, NULL, 0), "coord");
        CHECK(layout_eval_coord(&l, &nc, &off, NULL, 0), "eval");
        CHECK_INT(off, want[i]);
    }
    char buf[64];
    layout_index_to_coord(&l, 6, &c, NULL, 0);
    layout_tuple_format(&c, buf, sizeof buf);
    CHECK_STR(buf, "(0,(1,1))");
    CHECK(!layout_index_to_coord(&l, 8, &c, err, sizeof err), "range");
    CHECK_STR(err, "coord: index 8 out of range [0, 8)");
}

static void test_filter_sort(void)
{
    CHECK_STR(run1(layout_filter, "(2,(3,4)):(0,(1,3))"), "12:1");
    CHECK_STR(run1(layout_filter, "(4,1,2):(2,9,0)"), "4:2");
    CHECK_STR(run1(layout_filter, "(4,2):(0,0)"), "1:0");
    CHECK_STR(run1(layout_sort, "(2,(3,4)):(12,(1,3))"), "(3,4,2):(1,3,12)");
    CHECK_STR(run1(layout_sort, "(3,2,5):(4,0,4)"), "(2,3,5):(0,4,4)");
}

/* ---- helpers for codegen ---------------------------------------------------------- */

static void test_codegen_helpers(void)
{
    Layout l, r;
    char err[160];
    int64_t shp[3] = {4, 8, 2};
    int64_t str[3] = {16, 1, 64};
    CHECK(layout_from_shape_strides(3, shp, str, &l, NULL, 0), "from strides");
    CHECK_STR(S(&l), "(4,8,2):(16,1,64)");
    CHECK(layout_from_shape_strides(1, shp, str, &l, NULL, 0), "rank 1");
    CHECK_STR(S(&l), "4:16");
    CHECK(layout_from_shape_strides(0, NULL, NULL, &l, NULL, 0), "rank 0");
    CHECK_STR(S(&l), "1:0");
    int64_t mn[2] = {3, 5};
    CHECK(layout_row_major(2, mn, &l, NULL, 0), "row-major");
    CHECK_STR(S(&l), "(3,5):(5,1)");
    /* row-major (m,n) -> m*N+n */
    LayoutTuple c;
    int64_t off;
    layout_tuple_parse("(2,3)", &c, NULL, 0);
    CHECK(layout_eval_coord(&l, &c, &off, NULL, 0), "eval");
    CHECK_INT(off, 13);
    CHECK(layout_col_major(2, mn, &l, NULL, 0), "col-major");
    CHECK_STR(S(&l), "(3,5):(1,3)");
    int c_order[3] = {0, 1, 2}, f_order[3] = {2, 1, 0}, o[3] = {1, 2, 0};
    CHECK(layout_from_order(3, shp, c_order, &l, NULL, 0), "order C");
    CHECK_STR(S(&l), "(4,8,2):(16,2,1)");
    CHECK(layout_from_order(3, shp, f_order, &l, NULL, 0), "order F");
    CHECK_STR(S(&l), "(4,8,2):(1,4,32)");
    /* tile axis 0 is array axis 1, axis 1 -> 2 (fastest), axis 2 -> 0 */
    CHECK(layout_from_order(3, shp, o, &l, NULL, 0), "order (1,2,0)");
    CHECK_STR(S(&l), "(4,8,2):(8,1,32)");
    int bad_order[3] = {0, 0, 1};
    CHECK(!layout_from_order(3, shp, bad_order, &l, err, sizeof err), "not a permutation");
    CHECK_STR(err, "from-order: not a permutation of 0..2");

    /* contiguous runs (vector widths) */
    static const struct {
        const char *l;
        int64_t run;
    } runs[] = {{"(4,8):(1,4)", 32}, {"(4,8):(8,1)", 1}, {"(2,4):(1,2)", 8},
                {"(4,(2,8)):(1,(4,64))", 8}, {"1:0", 1}, {"(1,4):(7,1)", 4}, {"8:-1", 1}};
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        Layout x = P(runs[k].l);
        CHECK_INT(layout_contiguous_run(&x), runs[k].run);
    }

    /* equal functions */
    Layout a = P("(2,(2,2)):(1,(2,4))"), b = P("8:1"), d = P("(2,4):(1,2)"), e2 = P("(4,2):(1,4)");
    CHECK(layout_equal_function(&a, &b), "same function");
    CHECK(layout_equal_function(&d, &b), "same function");
    CHECK(layout_equal_function(&a, &e2), "(4,2):(1,4) is also 8:1");
    Layout f = P("(4,2):(2,1)"), g = P("(2,2,2):(2,4,1)");
    CHECK(!layout_equal_function(&f, &b), "different function");
    CHECK(layout_equal_function(&f, &g), "(4,2):(2,1) == (2,2,2):(2,4,1)");
    Layout h = P("4:1");
    CHECK(!layout_equal_function(&h, &b), "different size");

    /* views */
    a = P("(3,5,7):(35,7,1)");
    int perm[3] = {2, 0, 1};
    CHECK(layout_permute(&a, 3, perm, &r, NULL, 0), "permute");
    CHECK_STR(S(&r), "(7,3,5):(1,35,7)");
    CHECK(!layout_permute(&a, 2, perm, &r, err, sizeof err), "rank");
    CHECK(layout_transpose(&a, &r, NULL, 0), "transpose");
    CHECK_STR(S(&r), "(7,5,3):(1,7,35)");
    /* reshape a row-major 4x6 to 8x3 and to 24 */
    a = P("(4,6):(6,1)");
    int64_t s83[2] = {8, 3}, s24[1] = {24}, s2_12[2] = {2, 12};
    CHECK(layout_reshape(&a, 2, s83, &r, NULL, 0), "reshape");
    CHECK_STR(S(&r), "(8,3):(3,1)");
    CHECK(layout_reshape(&a, 1, s24, &r, NULL, 0), "flatten");
    CHECK_STR(S(&r), "(24):(1)");
    /* the transposed view (6x4, column-major strides) flattened is not a
     * strided array but still a layout */
    Layout at;
    CHECK(layout_transpose(&a, &at, NULL, 0), "transpose");
    CHECK_STR(S(&at), "(6,4):(1,6)");
    CHECK(layout_reshape(&at, 1, s24, &r, NULL, 0), "flatten transposed");
    CHECK_STR(S(&r), "((4,6)):((6,1))");
    CHECK(layout_reshape(&at, 2, s2_12, &r, NULL, 0), "reshape transposed");
    CHECK_STR(S(&r), "(2,(4,3)):(3,(6,1))");
    /* a view no layout expresses */
    Layout w = P("(3,4):(1,5)");
    int64_t s2_6[2] = {2, 6};
    CHECK(!layout_reshape(&w, 2, s2_6, &r, err, sizeof err), "not expressible");
    CHECK_HAS(err, "reshape: not expressible as a layout: compose:");
    int64_t s5[1] = {5};
    CHECK(!layout_reshape(&w, 1, s5, &r, err, sizeof err), "size");
    CHECK_STR(err, "reshape: new shape has 5 elements, the layout has 12");
    /* broadcast (3,1) row-major to (2,3,4) */
    a = P("(3,1):(1,0)");
    int64_t bs[3] = {2, 3, 4};
    CHECK(layout_broadcast(&a, 3, bs, &r, NULL, 0), "broadcast");
    CHECK_STR(S(&r), "(2,3,4):(0,1,0)");
    a = P("(3,2):(2,1)");
    CHECK(!layout_broadcast(&a, 3, bs, &r, err, sizeof err), "bad broadcast");
    CHECK_STR(err, "broadcast: mode 1 has size 2, cannot broadcast to 4");
    /* slice: fix a coordinate of one mode */
    a = P("(3,(2,4),5):(1,(3,6),24)");
    int64_t offs = -1;
    CHECK(layout_slice(&a, 1, 5, &r, &offs, NULL, 0), "slice");
    CHECK_INT(offs, 15);
    CHECK_STR(S(&r), "(3,5):(1,24)");
    CHECK(layout_slice(&a, 2, 4, &r, &offs, NULL, 0), "slice");
    CHECK_INT(offs, 96);
    CHECK_STR(S(&r), "(3,(2,4)):(1,(3,6))");
    Layout v = P("8:2");
    CHECK(layout_slice(&v, 0, 3, &r, &offs, NULL, 0), "slice rank 1");
    CHECK_INT(offs, 6);
    CHECK_STR(S(&r), "1:0");
    CHECK(!layout_slice(&a, 0, 3, &r, &offs, err, sizeof err), "slice range");
    CHECK_STR(err, "slice: coordinate 3 out of range [0, 3)");
}

static void test_tv_layout(void)
{
    Layout tv, r, arr, arr_rm, mem, vmode;
    char err[160];
    int64_t tile[2] = {8, 64};
    CHECK(layout_tv_row_major(2, tile, 128, 4, &tv, NULL, 0), "tv");
    CHECK_STR(S(&tv), "(128,(4,1)):(4,(1,512))");
    int64_t tile2[2] = {16, 64};
    CHECK(layout_tv_row_major(2, tile2, 128, 4, &tv, NULL, 0), "tv");
    CHECK_STR(S(&tv), "(128,(4,2)):(4,(1,512))");
    /* every element owned exactly once; thread t's values t*4..t*4+3 */
    static int seen[1024];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < 1024; i++) seen[layout_eval(&tv, i)]++;
    int ok = 1;
    for (int i = 0; i < 1024; i++) ok &= seen[i] == 1;
    CHECK(ok, "TV layout is a bijection onto the tile");
    LayoutTuple c;
    int64_t off;
    layout_tuple_parse("(5,(3,1))", &c, NULL, 0);
    CHECK(layout_eval_coord(&tv, &c, &off, NULL, 0), "eval");
    CHECK_INT(off, 5 * 4 + 3 + 512);
    /* memory offsets of the tile inside a row-major 1024x2048 array */
    int64_t ashape[2] = {16, 64}, astride[2] = {2048, 1};
    CHECK(layout_from_shape_strides(2, ashape, astride, &arr, NULL, 0), "array");
    CHECK(layout_transpose(&arr, &arr_rm, NULL, 0), "row-major index layout");
    CHECK(layout_compose(&arr_rm, &tv, &mem, NULL, 0), "compose");
    CHECK_STR(S(&mem), "((16,8),(4,2)):((4,2048),(1,16384))");
    /* thread 16 starts row 1 (element 64 = (1,0)) */
    layout_tuple_parse("(16,0)", &c, NULL, 0);
    CHECK(layout_eval_coord(&mem, &c, &off, NULL, 0), "eval");
    CHECK_INT(off, 2048);
    CHECK(layout_mode(&mem, 1, &vmode, NULL, 0), "value mode");
    CHECK_INT(layout_contiguous_run(&vmode), 4);
    /* a thread's 4 values are adjacent in memory for every thread */
    for (int t = 0; t < 128; t++) {
        LayoutTuple ct;
        char txt[32];
        snprintf(txt, sizeof txt, "(%d,0)", t);
        layout_tuple_parse(txt, &ct, NULL, 0);
        int64_t base;
        layout_eval_coord(&mem, &ct, &base, NULL, 0);
        for (int v = 1; v < 4; v++) {
            snprintf(txt, sizeof txt, "(%d,%d)", t, v);
            layout_tuple_parse(txt, &ct, NULL, 0);
            int64_t o2;
            layout_eval_coord(&mem, &ct, &o2, NULL, 0);
            if (o2 != base + v) CHECK_INT(o2, base + v);
        }
    }
    (void)r;
    int64_t small[1] = {64};
    CHECK(!layout_tv_row_major(1, small, 32, 4, &tv, err, sizeof err), "too small");
    CHECK_STR(err, "tv-layout: tile has 64 elements, not a multiple of threads*vec = 32*4");
    int64_t np2[2] = {8, 12};
    CHECK(!layout_tv_row_major(2, np2, 32, 1, &tv, err, sizeof err), "pow2");
    CHECK_STR(err, "tv-layout: dimension 1 has extent 12, not a power of two");
}

/* ---- properties ------------------------------------------------------------------- */

/* CuTe's compatible(b, r): an integer of b's shape may stand for a tuple of
 * the same size in r's; tuples must have the same rank. */
static bool compat_node(const LayoutNode *bn, int bi, const LayoutNode *rn, int ri)
{
    int64_t bs = 1, rs = 1;
    for (int j = bi; j < bn[bi].end; j++)
        if (bn[j].kind == LAYOUT_NODE_LEAF) bs *= bn[j].shape;
    for (int j = ri; j < rn[ri].end; j++)
        if (rn[j].kind == LAYOUT_NODE_LEAF) rs *= rn[j].shape;
    if (bs != rs) return false;
    if (bn[bi].kind == LAYOUT_NODE_LEAF) return true;
    if (rn[ri].kind == LAYOUT_NODE_LEAF || rn[ri].nchild != bn[bi].nchild) return false;
    for (int bc = bi + 1, rc = ri + 1; bc < bn[bi].end; bc = bn[bc].end, rc = rn[rc].end)
        if (!compat_node(bn, bc, rn, rc)) return false;
    return true;
}

static bool sizes_compatible(const Layout *b, const Layout *r)
{
    return compat_node(b->node, 0, r->node, 0);
}

static void prop_compose(void)
{
    int ok = 0, tried = 0, bad = 0, overlap = 0;
    for (int it = 0; it < 4000 * scale(); it++) {
        Layout a = rnd() % 2 ? rand_any(4, 12) : rand_compact(4);
        Layout b = rnd() % 2 ? rand_any(3, 8) : rand_admissible(3, 2);
        Layout r;
        char why[256];
        tried++;
        if (!layout_compose(&a, &b, &r, why, sizeof why)) {
            /* the carry check only ever rejects non-injective B */
            Layout fb, inv;
            bool inj = layout_filter(&b, &fb, NULL, 0) && layout_size(&fb) == layout_size(&b) &&
                       layout_left_inverse(&b, &inv, NULL, 0);
            if (strstr(why, "overlap")) {
                overlap++;
                CHECK(!inj, "injective %s refused: %s", S(&b), why);
            }
            continue;
        }
        ok++;
        if (!sizes_compatible(&b, &r)) {
            bad++;
            CHECK(0, "compose %s o %s = %s: shape not compatible", S(&a), S(&b), S(&r));
            continue;
        }
        for (int64_t i = 0; i < layout_size(&b); i++) {
            int64_t want = layout_eval(&a, layout_eval(&b, i)), got = layout_eval(&r, i);
            if (want != got) {
                bad++;
                CHECK(0, "compose %s o %s = %s at %" PRId64 ": %" PRId64 " != %" PRId64, S(&a),
                      S(&b), S(&r), i, got, want);
                break;
            }
        }
    }
    CHECK(bad == 0, "%d bad compositions", bad);
    CHECK(ok > tried / 3, "only %d of %d compositions defined", ok, tried);
    CHECK(overlap > 0, "no overlapping compositions sampled");
    if (getenv("LAYOUT_TEST_VERBOSE"))
        fprintf(stderr, "compose: %d defined, %d overlap errors of %d\n", ok, overlap, tried);
}

/* complement: whenever defined, (filter(l), c) is a bijection onto
 * [0, size), size >= m and < m + span; c is ordered (increasing). */
static void prop_complement(void)
{
    static int hit[1 << 14];
    int ok = 0, adm = 0;
    for (int it = 0; it < 3000 * scale(); it++) {
        bool admissible = rnd() % 2;
        Layout l = admissible ? rand_admissible(4, 3) : rand_any(3, 10);
        int64_t cos = layout_cosize(&l);
        int64_t m = rr(1, 3 * cos);
        Layout c, craw, f;
        bool defined = layout_complement(&l, m, &c, NULL, 0);
        if (admissible) {
            adm++;
            CHECK(defined, "admissible %s has no complement for %" PRId64, S(&l), m);
        }
        if (!defined) continue;
        ok++;
        CHECK(layout_complement_uncoalesced(&l, m, &craw, NULL, 0), "raw complement");
        CHECK(layout_equal_function(&c, &craw), "raw and coalesced complement differ");
        CHECK(coalesced_flat(&c), "complement is coalesced");
        for (int64_t i = 1; i < layout_size(&c); i++)
            if (layout_eval(&c, i) <= layout_eval(&c, i - 1)) {
                CHECK(0, "complement %s of %s not ordered", S(&c), S(&l));
                break;
            }
        layout_filter(&l, &f, NULL, 0);
        const Layout *parts[2] = {&f, &c};
        Layout cat;
        CHECK(layout_concat(2, parts, &cat, NULL, 0), "concat");
        int64_t n = layout_size(&cat);
        CHECK(n >= m, "(l, complement) covers %" PRId64 " < %" PRId64, n, m);
        if (n > (int64_t)(sizeof hit / sizeof hit[0])) continue;
        memset(hit, 0, (size_t)n * sizeof hit[0]);
        bool bij = true;
        for (int64_t i = 0; i < n && bij; i++) {
            int64_t v = layout_eval(&cat, i);
            if (v < 0 || v >= n || hit[v]++) bij = false;
        }
        CHECK(bij, "(filter(%s), %s) is not a bijection onto [0,%" PRId64 ")", S(&l), S(&c), n);
    }
    CHECK(ok > 1500, "only %d complements defined", ok);
    CHECK(adm > 1000, "too few admissible samples");
}

static void prop_inverses(void)
{
    int full = 0;
    for (int it = 0; it < 3000 * scale(); it++) {
        int kind = (int)(rnd() % 3);
        Layout l = kind == 0 ? rand_any(4, 10) : kind == 1 ? rand_admissible(4, 2) : rand_compact(4);
        Layout r, li;
        CHECK(layout_right_inverse(&l, &r, NULL, 0), "right inverse of %s", S(&l));
        for (int64_t i = 0; i < layout_size(&r); i++)
            if (layout_eval(&l, layout_eval(&r, i)) != i) {
                CHECK(0, "right inverse %s of %s fails at %" PRId64, S(&r), S(&l), i);
                break;
            }
        if (kind == 2) {
            full++;
            CHECK_INT(layout_size(&r), layout_size(&l));
        }
        if (kind == 0) continue;
        CHECK(layout_left_inverse(&l, &li, NULL, 0), "left inverse of %s", S(&l));
        for (int64_t i = 0; i < layout_size(&l); i++)
            if (layout_eval(&li, layout_eval(&l, i)) != i) {
                CHECK(0, "left inverse %s of %s fails at %" PRId64, S(&li), S(&l), i);
                break;
            }
    }
    CHECK(full > 500, "too few bijective samples");
}

static void prop_coalesce_filter(void)
{
    for (int it = 0; it < 3000 * scale(); it++) {
        Layout l = rand_any(5, 12), c, f, bm;
        CHECK(layout_coalesce(&l, &c, NULL, 0), "coalesce");
        CHECK_INT(layout_size(&c), layout_size(&l));
        CHECK(coalesced_flat(&c), "depth <= 1");
        for (int64_t i = 0; i < layout_size(&l); i++)
            if (layout_eval(&c, i) != layout_eval(&l, i)) {
                CHECK(0, "coalesce %s -> %s differs at %" PRId64, S(&l), S(&c), i);
                break;
            }
        /* coalescing again changes nothing */
        Layout cc;
        layout_coalesce(&c, &cc, NULL, 0);
        CHECK(layout_equal(&c, &cc), "coalesce is idempotent on %s", S(&l));
        /* by-mode coalesce keeps every mode's function */
        int r = layout_rank(&l);
        char prof[64] = "(";
        for (int k = 0; k < r; k++) strcat(prof, k ? ",1" : "1");
        strcat(prof, ")");
        LayoutTuple p;
        layout_tuple_parse(prof, &p, NULL, 0);
        CHECK(layout_coalesce_profile(&l, &p, &bm, NULL, 0), "by-mode coalesce");
        CHECK_INT(layout_rank(&bm), r);
        for (int k = 0; k < r; k++) {
            Layout lm, cm;
            layout_mode(&l, k, &lm, NULL, 0);
            layout_mode(&bm, k, &cm, NULL, 0);
            CHECK(layout_equal_function(&lm, &cm), "mode %d of %s changed", k, S(&l));
        }
        /* filter: the value at each non-broadcast point is kept */
        CHECK(layout_filter(&l, &f, NULL, 0), "filter");
        int64_t s[LAYOUT_MAX_LEAVES], d[LAYOUT_MAX_LEAVES], ks[LAYOUT_MAX_LEAVES],
            kd[LAYOUT_MAX_LEAVES];
        int n = layout_flatten(&l, s, d), kn = 0;
        int64_t keep = 1;
        for (int k = 0; k < n; k++)
            if (s[k] > 1 && d[k] != 0) {
                ks[kn] = s[k];
                kd[kn++] = d[k];
                keep *= s[k];
            }
        CHECK_INT(layout_size(&f), keep);
        for (int64_t i = 0; i < keep; i++) {
            int64_t rem = i, want = 0;
            for (int k = 0; k < kn; k++) {
                want += (rem % ks[k]) * kd[k];
                rem /= ks[k];
            }
            if (layout_eval(&f, i) != want) {
                CHECK(0, "filter %s -> %s differs at %" PRId64, S(&l), S(&f), i);
                break;
            }
        }
        /* equal_function agrees with pointwise comparison */
        Layout m = rand_any(3, 6);
        bool same = layout_size(&m) == layout_size(&l);
        for (int64_t i = 0; same && i < layout_size(&l); i++)
            same = layout_eval(&m, i) == layout_eval(&l, i);
        CHECK(layout_equal_function(&l, &m) == same, "equal_function(%s, %s)", S(&l), S(&m));
        CHECK(layout_equal_function(&l, &c), "equal_function(l, coalesce(l))");
    }
}

static void prop_divide_product(void)
{
    int divs = 0, prods = 0;
    for (int it = 0; it < 2000 * scale(); it++) {
        Layout a = rnd() % 2 ? rand_compact(4) : rand_any(3, 8);
        Layout b = rand_admissible(2, 2);
        Layout ld, c, bc, ref;
        if (layout_logical_divide(&a, &b, &ld, NULL, 0)) {
            divs++;
            /* logical_divide(A,B) == A o (B, complement(B, size(A))) */
            CHECK(layout_complement(&b, layout_size(&a), &c, NULL, 0), "complement");
            const Layout *parts[2] = {&b, &c};
            layout_concat(2, parts, &bc, NULL, 0);
            CHECK(layout_compose(&a, &bc, &ref, NULL, 0), "compose");
            CHECK(layout_equal(&ld, &ref), "divide %s by %s: %s != %s", S(&a), S(&b), S(&ld),
                  S(&ref));
            CHECK_INT(layout_rank(&ld), 2);
            Layout t0;
            layout_mode(&ld, 0, &t0, NULL, 0);
            CHECK_INT(layout_size(&t0), layout_size(&b));
            for (int64_t i = 0; i < layout_size(&ld); i++)
                if (layout_eval(&ld, i) != layout_eval(&a, layout_eval(&bc, i))) {
                    CHECK(0, "divide %s by %s wrong at %" PRId64, S(&a), S(&b), i);
                    break;
                }
        }
        Layout pa = rand_admissible(3, 2), pb = rnd() % 2 ? rand_compact(2) : rand_any(2, 4);
        Layout lp, comp, d2, ref2;
        if (layout_logical_product(&pa, &pb, &lp, NULL, 0)) {
            prods++;
            /* logical_product(A,B) == (A, complement(A, size(A)*cosize(B)) o B) */
            CHECK(layout_complement(&pa, layout_size(&pa) * layout_cosize(&pb), &comp, NULL, 0),
                  "complement");
            CHECK(layout_compose(&comp, &pb, &d2, NULL, 0), "compose");
            const Layout *parts[2] = {&pa, &d2};
            layout_concat(2, parts, &ref2, NULL, 0);
            CHECK(layout_equal(&lp, &ref2), "product %s x %s", S(&pa), S(&pb));
            Layout m0;
            layout_mode(&lp, 0, &m0, NULL, 0);
            CHECK(layout_equal(&m0, &pa), "mode 0 of a product is A");
            /* an injective A replicated by an injective B stays injective */
            Layout fb;
            layout_filter(&pb, &fb, NULL, 0);
            bool inj_b = layout_size(&fb) == layout_size(&pb);
            int64_t n = layout_size(&lp);
            if (inj_b && n <= 4096) {
                int64_t vals[4096];
                for (int64_t i = 0; i < n; i++) vals[i] = layout_eval(&lp, i);
                bool dup = false;
                for (int64_t i = 0; i < n && !dup; i++)
                    for (int64_t j = i + 1; j < n; j++)
                        if (vals[i] == vals[j]) {
                            dup = true;
                            break;
                        }
                if (layout_right_inverse(&pb, &fb, NULL, 0) &&
                    layout_size(&fb) == layout_size(&pb)) /* B a bijection */
                    CHECK(!dup, "product %s x %s = %s not injective", S(&pa), S(&pb), S(&lp));
            }
        }
    }
    CHECK(divs > 600, "only %d divides defined", divs);
    CHECK(prods > 600, "only %d products defined", prods);
}

/* zipped/tiled divide rearrange the logical divide's modes; the values at
 * corresponding coordinates agree. */
static void prop_zipped_tiled(void)
{
    int n_ok = 0;
    for (int it = 0; it < 1500 * scale(); it++) {
        /* a rank-2 or rank-3 A and a rank-2 tiler */
        int64_t s[3], d[3];
        int r = (int)rr(2, 3);
        int64_t span = 1;
        for (int k = 0; k < r; k++) {
            s[k] = (int64_t)1 << rr(1, 3);
            d[k] = span * (rnd() % 3 == 0 ? 2 : 1);
            span = s[k] * d[k];
        }
        char txt[128];
        if (r == 2)
            snprintf(txt, sizeof txt, "(%" PRId64 ",%" PRId64 "):(%" PRId64 ",%" PRId64 ")", s[0],
                     s[1], d[0], d[1]);
        else
            snprintf(txt, sizeof txt,
                     "(%" PRId64 ",%" PRId64 ",%" PRId64 "):(%" PRId64 ",%" PRId64 ",%" PRId64 ")",
                     s[0], s[1], s[2], d[0], d[1], d[2]);
        Layout a = P(txt);
        int64_t t0 = (int64_t)1 << rr(0, 2), t1 = (int64_t)1 << rr(0, 2);
        int64_t g0 = rr(1, 2), g1 = rr(1, 2);
        snprintf(txt, sizeof txt, "<%" PRId64 ":%" PRId64 ",%" PRId64 ":%" PRId64 ">", t0, g0, t1,
                 g1);
        LayoutTiler t = PT(txt);
        Layout ld, zd, td, comp;
        if (!layout_logical_divide_tiler(&a, &t, &ld, NULL, 0)) {
            CHECK(!layout_zipped_divide(&a, &t, &zd, NULL, 0), "zipped defined, logical not");
            continue;
        }
        n_ok++;
        CHECK(layout_zipped_divide(&a, &t, &zd, NULL, 0), "zipped");
        CHECK(layout_tiled_divide(&a, &t, &td, NULL, 0), "tiled");
        CHECK(layout_compose_tiler(&a, &t, &comp, NULL, 0), "compose");
        Layout z0, z1, l0, l1, tile0, rest0, tile1, rest1;
        layout_mode(&zd, 0, &z0, NULL, 0);
        layout_mode(&zd, 1, &z1, NULL, 0);
        /* the tile mode is the composition's modes the tiler reached */
        Layout c0, c1, comp2;
        layout_mode(&comp, 0, &c0, NULL, 0);
        layout_mode(&comp, 1, &c1, NULL, 0);
        const Layout *cm[2] = {&c0, &c1};
        layout_concat(2, cm, &comp2, NULL, 0);
        CHECK(layout_equal(&z0, r == 2 ? &comp : &comp2), "zipped mode 0 %s != composition %s",
              S(&z0), S(&comp));
        CHECK_INT(layout_rank(&td), 1 + layout_rank(&z1));
        /* tiled divide has the zipped divide's leaves in the same order */
        CHECK_INT(layout_size(&td), layout_size(&zd));
        for (int64_t i = 0; i < layout_size(&zd); i++)
            if (layout_eval(&td, i) != layout_eval(&zd, i)) {
                CHECK(0, "tiled != zipped at %" PRId64, i);
                break;
            }
        layout_mode(&ld, 0, &l0, NULL, 0);
        layout_mode(&ld, 1, &l1, NULL, 0);
        layout_mode(&l0, 0, &tile0, NULL, 0);
        layout_mode(&l0, 1, &rest0, NULL, 0);
        layout_mode(&l1, 0, &tile1, NULL, 0);
        layout_mode(&l1, 1, &rest1, NULL, 0);
        int64_t T0 = layout_size(&tile0), T1 = layout_size(&tile1);
        int64_t R0 = layout_size(&rest0), R1 = layout_size(&rest1);
        int64_t L = layout_size(&a) / (layout_size(&l0) * layout_size(&l1));
        bool same = true;
        for (int64_t i0 = 0; i0 < T0 && same; i0++)
            for (int64_t i1 = 0; i1 < T1 && same; i1++)
                for (int64_t j0 = 0; j0 < R0 && same; j0++)
                    for (int64_t j1 = 0; j1 < R1 && same; j1++)
                        for (int64_t k = 0; k < L && same; k++) {
                            /* ld((i0,j0),(i1,j1),k) vs zd((i0,i1),(j0,j1,k)) */
                            int64_t li = (i0 + T0 * j0) + T0 * R0 * ((i1 + T1 * j1) + T1 * R1 * k);
                            int64_t zi = (i0 + T0 * i1) + T0 * T1 * (j0 + R0 * (j1 + R1 * k));
                            same = layout_eval(&ld, li) == layout_eval(&zd, zi);
                        }
        CHECK(same, "zipped divide of %s by %s is not a rearrangement of %s", S(&a), txt, S(&ld));
    }
    CHECK(n_ok > 500, "only %d divides", n_ok);
}

/* reshape against its definition: new coordinate -> row-major index ->
 * old coordinate (row-major) -> offset. */
static void prop_reshape(void)
{
    int done = 0;
    for (int it = 0; it < 800 * scale(); it++) {
        int r = (int)rr(1, 3);
        int64_t shp[3], str[3];
        int64_t span = 1;
        for (int k = r - 1; k >= 0; k--) {
            shp[k] = rr(1, 4) * (rnd() % 2 ? 2 : 1);
            str[k] = span;
            span *= shp[k];
        }
        Layout a, v, res;
        layout_from_shape_strides(r, shp, str, &a, NULL, 0);
        int perm[3] = {0, 1, 2};
        for (int k = r - 1; k > 0; k--) {
            int j = (int)rr(0, k), t = perm[k];
            perm[k] = perm[j];
            perm[j] = t;
        }
        layout_permute(&a, r, perm, &v, NULL, 0);
        int64_t vshape[3];
        for (int k = 0; k < r; k++) vshape[k] = shp[perm[k]];
        /* a random factorization of the size into up to 3 dimensions */
        int64_t n = layout_size(&v), ns[3];
        int nr = (int)rr(1, 3);
        int64_t left = n;
        for (int k = 0; k < nr - 1; k++) {
            int64_t f = 1;
            for (int64_t cand = rr(1, 6); cand >= 1; cand--)
                if (left % cand == 0) {
                    f = cand;
                    break;
                }
            ns[k] = f;
            left /= f;
        }
        ns[nr - 1] = left;
        if (!layout_reshape(&v, nr, ns, &res, NULL, 0)) continue;
        done++;
        CHECK_INT(layout_rank(&res), nr);
        for (int64_t idx = 0; idx < n; idx++) {
            /* new coordinate of row-major index idx */
            int64_t nc[3], oc[3], rem = idx;
            for (int k = nr - 1; k >= 0; k--) {
                nc[k] = rem % ns[k];
                rem /= ns[k];
            }
            rem = idx;
            for (int k = r - 1; k >= 0; k--) {
                oc[k] = rem % vshape[k];
                rem /= vshape[k];
            }
            char t1[96], t2[96];
            if (nr == 1) snprintf(t1, sizeof t1, "(%" PRId64 ")", nc[0]);
            else if (nr == 2) snprintf(t1, sizeof t1, "(%" PRId64 ",%" PRId64 ")", nc[0], nc[1]);
            else snprintf(t1, sizeof t1, "(%" PRId64 ",%" PRId64 ",%" PRId64 ")", nc[0], nc[1], nc[2]);
            if (r == 1) snprintf(t2, sizeof t2, "%" PRId64, oc[0]);
            else if (r == 2) snprintf(t2, sizeof t2, "(%" PRId64 ",%" PRId64 ")", oc[0], oc[1]);
            else snprintf(t2, sizeof t2, "(%" PRId64 ",%" PRId64 ",%" PRId64 ")", oc[0], oc[1], oc[2]);
            LayoutTuple c1, c2;
            int64_t got = -1, want = -2;
            layout_tuple_parse(t1, &c1, NULL, 0);
            layout_tuple_parse(t2, &c2, NULL, 0);
            bool ok1 = layout_eval_coord(&res, &c1, &got, NULL, 0);
            bool ok2 = layout_eval_coord(&v, &c2, &want, NULL, 0);
            if (!ok1 || !ok2 || got != want) {
                CHECK(0, "reshape of %s to %s = %s wrong at %s", S(&v), t1, S(&res), t1);
                break;
            }
        }
    }
    CHECK(done > 400, "only %d reshapes", done);
}

/* ---- the command line ---------------------------------------------------------------- */

static int cli(const char *a1, const char *a2, const char *a3, char *out, size_t outlen,
               char *errb, size_t errlen)
{
    char *argv[5] = {"layout", (char *)a1, (char *)a2, (char *)a3, NULL};
    int argc = a1 ? (a2 ? (a3 ? 4 : 3) : 2) : 1;
    FILE *fo = tmpfile(), *fe = tmpfile();
    if (!fo || !fe) {
        CHECK(0, "tmpfile");
        return -1;
    }
    int rc = layout_cli_main(argc, argv, fo, fe);
    rewind(fo);
    rewind(fe);
    size_t n = fread(out, 1, outlen - 1, fo);
    out[n] = '\0';
    n = fread(errb, 1, errlen - 1, fe);
    errb[n] = '\0';
    fclose(fo);
    fclose(fe);
    return rc;
}

static void test_cli(void)
{
    char o[4096], e[4096];
    CHECK_INT(cli("eval", "(2,4):(2,2)", "3", o, sizeof o, e, sizeof e), 0);
    CHECK_STR(o, "4\n");
    CHECK_INT(cli("eval", "(2,(2,2)):(4,(1,2))", "(1,3)", o, sizeof o, e, sizeof e), 0);
    CHECK_STR(o, "7\n");
    CHECK_INT(cli("complement", "(2,4):(1,2)", "16", o, sizeof o, e, sizeof e), 0);
    CHECK_STR(o, "2:8\n");
    CHECK_INT(cli("compose", "(12,(4,8)):(59,(13,1))", "<3:4,8:2>", o, sizeof o, e, sizeof e), 0);
    CHECK_STR(o, "(3,(2,4)):(236,(26,1))\n");
    CHECK_INT(cli("compose", "(4,3):(1,10)", "2:3", o, sizeof o, e, sizeof e), 1);
    CHECK_HAS(e, "error: compose: stride divisibility condition violated");
    CHECK_INT(cli("eval", "8:1", "8", o, sizeof o, e, sizeof e), 1);
    CHECK_STR(e, "error: eval: index 8 out of range [0, 8)\n");
    CHECK_INT(cli("size", "(2,4:(1,2)", NULL, o, sizeof o, e, sizeof e), 1);
    CHECK_STR(e, "error: bad layout '(2,4:(1,2)': column 5: expected ',' or ')' but found ':'\n");
    CHECK_INT(cli("frobnicate", "8:1", NULL, o, sizeof o, e, sizeof e), 2);
    CHECK_HAS(e, "error: unknown operation 'frobnicate'");
    CHECK_INT(cli("compose", "8:1", NULL, o, sizeof o, e, sizeof e), 2);
    CHECK_HAS(e, "usage: compose");
    CHECK_INT(cli(NULL, NULL, NULL, o, sizeof o, e, sizeof e), 2);
    CHECK_HAS(e, "usage: tilec layout");
    CHECK_INT(cli("--help", NULL, NULL, o, sizeof o, e, sizeof e), 0);
    CHECK_HAS(o, "logical-divide");
    CHECK_INT(cli("blocked-product", "4:1", "<2:1>", o, sizeof o, e, sizeof e), 1);
    CHECK_STR(e, "error: blocked-product: B must be a layout, not a tiler\n");
    CHECK_INT(cli("coalesce", "(2,(1,6)):(1,(6,2))", "(1,1)", o, sizeof o, e, sizeof e), 0);
    CHECK_STR(o, "(2,6):(1,2)\n");
    CHECK_INT(cli("complement", "4:1", "0", o, sizeof o, e, sizeof e), 1);
    CHECK_HAS(e, "bad cotarget");
}

static void test_batch_basic(void)
{
    FILE *in = tmpfile(), *out = tmpfile();
    if (!in || !out) {
        CHECK(0, "tmpfile");
        return;
    }
    fputs("# a comment\n\n   \nsize (2,4):(1,2)\n  coalesce   (2,1):(3,1)  \nbogus 1\n"
          "compose 20:2 (5,4):(4,1)\nsize 8:1 extra\n",
          in);
    rewind(in);
    CHECK_INT(layout_cli_batch(in, out), 0);
    rewind(out);
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, out);
    buf[n] = '\0';
    CHECK_STR(buf, "8\n2:3\nerror: unknown operation 'bogus'\n(5,4):(8,2)\n"
                   "error: usage: size L\n");
    fclose(in);
    fclose(out);
}

/* The golden pair tests/layout/batch_{cases,expected}.txt, when the test
 * runs from the repository root (tests/run.sh also diffs it through the
 * tilec binary). */
static void test_batch_golden(void)
{
    FILE *in = fopen("tests/layout/batch_cases.txt", "r");
    FILE *want = fopen("tests/layout/batch_expected.txt", "r");
    FILE *got = tmpfile();
    if (!in || !want || !got) {
        if (in) fclose(in);
        if (want) fclose(want);
        if (got) fclose(got);
        return;
    }
    CHECK_INT(layout_cli_batch(in, got), 0);
    rewind(got);
    char a[LAYOUT_STR_MAX + 300], b[LAYOUT_STR_MAX + 300];
    int line = 0;
    for (;;) {
        char *x = fgets(a, sizeof a, got), *y = fgets(b, sizeof b, want);
        line++;
        if (!x || !y) {
            CHECK(!x && !y, "batch_expected.txt: output and expected differ in length at line %d",
                  line);
            break;
        }
        if (strcmp(a, b) != 0) CHECK(0, "batch_expected.txt line %d: got %s want %s", line, a, b);
    }
    CHECK(line > 100, "golden pair has only %d lines", line);
    fclose(in);
    fclose(want);
    fclose(got);
}

static void test_batch_speed(void)
{
    static const char *ops2[] = {"compose", "logical-divide", "zipped-divide", "tiled-divide",
                                 "logical-product", "blocked-product", "raked-product"};
    static const char *ops1[] = {"coalesce", "filter", "sort", "complement", "right-inverse",
                                 "left-inverse", "size", "cosize"};
    FILE *in = tmpfile(), *out = tmpfile();
    if (!in || !out) {
        CHECK(0, "tmpfile");
        return;
    }
    char a[LAYOUT_STR_MAX], b[LAYOUT_STR_MAX];
    for (int i = 0; i < 10000; i++) {
        Layout la = rnd() % 2 ? rand_compact(4) : rand_any(4, 12);
        Layout lb = rand_admissible(2, 2);
        layout_format(&la, a, sizeof a);
        layout_format(&lb, b, sizeof b);
        if (i % 3 == 0)
            fprintf(in, "%s %s\n", ops1[rnd() % 8], a);
        else if (i % 3 == 1)
            fprintf(in, "%s %s %s\n", ops2[rnd() % 7], a, b);
        else
            fprintf(in, "eval %s %" PRId64 "\n", a, (int64_t)(rnd() % (uint64_t)layout_size(&la)));
    }
    rewind(in);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = layout_cli_batch(in, out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK_INT(rc, 0);
    CHECK(secs < 1.0, "10,000 batch lines took %.3f s", secs);
    rewind(out);
    int lines = 0, errors = 0, ch, col = 0;
    char head[8];
    while ((ch = fgetc(out)) != EOF) {
        if (col < 7) head[col] = (char)ch;
        col++;
        if (ch == '\n') {
            if (col >= 7 && memcmp(head, "error: ", 7) == 0) errors++;
            lines++;
            col = 0;
        }
    }
    CHECK_INT(lines, 10000);
    CHECK(errors < 5000, "%d of 10000 lines were errors", errors);
    fclose(in);
    fclose(out);
}

/* Swizzle<B,M,S>: parse and print, the conditions, and the function
 * against its definition bit by bit. */
static void test_swizzle(void)
{
    LayoutSwizzle sw;
    char err[256], buf[64];
    CHECK(layout_swizzle_parse("Sw<3,3,3>", &sw, err, sizeof err), "%s", err);
    layout_swizzle_format(&sw, buf, sizeof buf);
    CHECK_STR(buf, "Sw<3,3,3>");
    CHECK(layout_swizzle_parse(" Sw < 5 , 0 , 7 > ", &sw, err, sizeof err), "%s", err);
    CHECK_INT(sw.bits, 5);
    CHECK_INT(sw.shift, 7);
    CHECK(!layout_swizzle_parse("Sw<3,3,2>", &sw, err, sizeof err), "overlapping fields accepted");
    CHECK(strstr(err, "at least B") != NULL, "%s", err);
    CHECK(!layout_swizzle_parse("Sw<3,3>", &sw, err, sizeof err), "two numbers accepted");
    CHECK(!layout_swizzle_parse("Sw<3,3,3> x", &sw, err, sizeof err), "trailing text accepted");
    CHECK(!layout_swizzle_parse("Sx<3,3,3>", &sw, err, sizeof err), "Sx accepted");
    CHECK(!layout_swizzle_make(17, 0, 17, &sw, err, sizeof err), "B = 17 accepted");
    CHECK(!layout_swizzle_make(5, 40, 20, &sw, err, sizeof err), "bits above 62 accepted");
    /* Sw<3,3,3> on 64 x 8 runs: x ^ (bits 6..8 moved to 3..5) */
    CHECK(layout_swizzle_make(3, 3, 3, &sw, NULL, 0), "Sw<3,3,3>");
    CHECK_INT(layout_swizzle_apply(&sw, 0x40), 0x48);
    CHECK_INT(layout_swizzle_apply(&sw, 0x1c7), 0x1ff);
    /* every valid small swizzle, positive and negative S: the definition
     * (bit k of the result is bit k, XOR bit k + S of the input for k in
     * [M, M + B) when S > 0; bit k - |S| for k in [M + |S|, M + |S| + B) when
     * S < 0), and its own inverse */
    int bad = 0, n = 0;
    for (int B = 0; B <= 4; B++)
        for (int M = 0; M <= 4; M++)
            for (int S = -8; S <= 8; S++) {
                if (!layout_swizzle_make(B, M, S, &sw, NULL, 0)) continue;
                n++;
                for (int64_t x = 0; x < 4096; x++) {
                    int64_t want = x;
                    for (int k = 0; k < B; k++) {
                        if (S >= 0) want ^= ((x >> (M + S + k)) & 1) << (M + k);
                        else want ^= ((x >> (M + k)) & 1) << (M - S + k);
                    }
                    int64_t y = layout_swizzle_apply(&sw, x);
                    bad += y != want || layout_swizzle_apply(&sw, y) != x;
                }
            }
    CHECK(n > 100 && bad == 0, "%d swizzles, %d wrong values", n, bad);
}

int main(void)
{
    test_swizzle();
    if (getenv("LAYOUT_TEST_SEED")) rng = strtoull(getenv("LAYOUT_TEST_SEED"), NULL, 0) | 1;
    test_seed();
    test_doc_coalesce();
    test_doc_composition();
    test_doc_complement();
    test_doc_divide();
    test_doc_product();
    test_doc_inverse();
    test_parse_print();
    test_eval_coord();
    test_filter_sort();
    test_codegen_helpers();
    test_tv_layout();
    prop_compose();
    prop_complement();
    prop_inverses();
    prop_coalesce_filter();
    prop_divide_product();
    prop_zipped_tiled();
    prop_reshape();
    test_cli();
    test_batch_basic();
    test_batch_golden();
    test_batch_speed();
    return check_done("layout");
}
