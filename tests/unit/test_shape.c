/* test_shape.c: table-driven tests of sema/shape (NumPy broadcasting and its
 * messages, one-directional broadcast_to, the tuple text form, power-of-two
 * checks) and of the `tilec broadcast` subcommand. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sema/shape.h"
#include "cmd/types_cli.h"

static Shape parse_ok(const char *text)
{
    Shape s = {0};
    char err[256];
    bool ok = shape_parse(text, &s, err, sizeof err);
    CHECK(ok, "parse '%s': %s", text, err);
    return s;
}

static void test_broadcast(void)
{
    static const struct {
        const char *a, *b;
        const char *want; /* the result, or the whole error message */
        bool ok;
    } t[] = {
        /* the seed's compatible pairs */
        {"(16,)", "(16,)", "(16,)", true},
        {"(16,8)", "(16,8)", "(16,8)", true},
        {"(16,8)", "(1,8)", "(16,8)", true},
        {"(16,8)", "(16,1)", "(16,8)", true},
        {"(16,8)", "(8,)", "(16,8)", true},
        {"(16,8,4)", "(8,4)", "(16,8,4)", true},
        {"(16,)", "()", "(16,)", true},
        /* more valid ones */
        {"()", "()", "()", true},
        {"()", "(4,8)", "(4,8)", true},
        {"(1,)", "(16,)", "(16,)", true},
        {"(16,)", "(1,)", "(16,)", true},
        {"(4,8)", "(1,8)", "(4,8)", true},
        {"(4,8)", "(4,1)", "(4,8)", true},
        {"(4,1)", "(1,8)", "(4,8)", true},
        {"(1,8)", "(4,1)", "(4,8)", true},
        {"(4,8,16)", "(8,16)", "(4,8,16)", true},
        {"(8,16)", "(4,8,16)", "(4,8,16)", true},
        {"(2,1,4)", "(1,3,1)", "(2,3,4)", true},
        {"(1,1,1)", "(5,)", "(1,1,5)", true},
        {"(1,)", "()", "(1,)", true},
        {"(1,1)", "(1,)", "(1,1)", true},
        {"(8,1,6,1)", "(7,1,5)", "(8,7,6,5)", true},
        {"(2,1,1,1,1,1,1,4)", "(3,1,1,1,1,1,1)", "(2,3,1,1,1,1,1,4)", true},
        {"(16,1)", "(16,)", "(16,16)", true},
        {"(32,)", "(32,1)", "(32,32)", true},
        /* invalid: the seed's two, and others */
        {"(16,8)", "(16,4)", "shapes (16,8) and (16,4) cannot be broadcast: dimension 1 is 8 vs 4",
         false},
        {"(16,8)", "(8,16)", "shapes (16,8) and (8,16) cannot be broadcast: dimension 0 is 16 vs 8",
         false},
        {"(16,8)", "(4,)", "shapes (16,8) and (4,) cannot be broadcast: dimension 1 is 8 vs 4",
         false},
        {"(4,)", "(16,8)", "shapes (4,) and (16,8) cannot be broadcast: dimension 1 is 4 vs 8",
         false},
        {"(3,)", "(4,)", "shapes (3,) and (4,) cannot be broadcast: dimension 0 is 3 vs 4", false},
        {"(2,3,4)", "(3,5)",
         "shapes (2,3,4) and (3,5) cannot be broadcast: dimension 2 is 4 vs 5", false},
        {"(2,3,4)", "(2,4)",
         "shapes (2,3,4) and (2,4) cannot be broadcast: dimension 1 is 3 vs 2", false},
        {"(8,1,6,1)", "(7,2,5)",
         "shapes (8,1,6,1) and (7,2,5) cannot be broadcast: dimension 2 is 6 vs 2", false},
        {"(2,16)", "(4,16)",
         "shapes (2,16) and (4,16) cannot be broadcast: dimension 0 is 2 vs 4", false},
        {"(16,1,8)", "(4,8,1)",
         "shapes (16,1,8) and (4,8,1) cannot be broadcast: dimension 0 is 16 vs 4", false},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        Shape a = parse_ok(t[i].a), b = parse_ok(t[i].b), r = {0};
        char err[256] = "x", buf[SHAPE_FMT_MAX];
        bool ok = shape_broadcast(&a, &b, &r, err, sizeof err);
        CHECK(ok == t[i].ok, "broadcast %s %s: ok %d (%s)", t[i].a, t[i].b, ok, err);
        if (ok && t[i].ok) {
            CHECK_STR(shape_format(&r, buf, sizeof buf), t[i].want);
            CHECK_STR(err, "");
        } else if (!ok && !t[i].ok) {
            CHECK_STR(err, t[i].want);
        }
    }
    /* out may alias an operand */
    Shape a = parse_ok("(4,1)"), b = parse_ok("(8,)");
    char buf[SHAPE_FMT_MAX];
    CHECK(shape_broadcast(&a, &b, &a, NULL, 0), "aliasing");
    CHECK_STR(shape_format(&a, buf, sizeof buf), "(4,8)");
}

static void test_broadcast_to(void)
{
    static const struct {
        const char *from, *to;
        const char *msg; /* NULL: valid */
    } t[] = {
        {"()", "(16,8)", NULL},
        {"(8,)", "(16,8)", NULL},
        {"(1,8)", "(16,8)", NULL},
        {"(16,1)", "(16,8)", NULL},
        {"(16,8)", "(16,8)", NULL},
        {"(1,)", "(4,4,4)", NULL},
        {"()", "()", NULL},
        {"(4,)", "(16,8)", "shape (4,) cannot be broadcast to (16,8): dimension 1 is 4 vs 8"},
        {"(16,8)", "(8,)",
         "shape (16,8) cannot be broadcast to (8,): it has more dimensions (2 > 1)"},
        {"(16,8)", "(1,8)", "shape (16,8) cannot be broadcast to (1,8): dimension 0 is 16 vs 1"},
        {"(8,)", "()", "shape (8,) cannot be broadcast to (): it has more dimensions (1 > 0)"},
        {"(16,)", "(16,8)", "shape (16,) cannot be broadcast to (16,8): dimension 1 is 16 vs 8"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        Shape f = parse_ok(t[i].from), to = parse_ok(t[i].to);
        char err[256] = "x";
        bool ok = shape_broadcast_to(&f, &to, err, sizeof err);
        CHECK(ok == (t[i].msg == NULL), "broadcast_to %s -> %s: %d (%s)", t[i].from, t[i].to,
              ok, err);
        CHECK_STR(err, t[i].msg ? t[i].msg : "");
    }
}

static void test_format_parse(void)
{
    static const struct {
        const char *in, *out;
        int rank;
    } ok[] = {
        {"(16,8)", "(16,8)", 2},  {"(8,)", "(8,)", 1},       {"(8)", "(8,)", 1},
        {"()", "()", 0},          {" ( 16 , 8 ) ", "(16,8)", 2}, {"( )", "()", 0},
        {"(8 ,)", "(8,)", 1},     {"16,8", "(16,8)", 2},     {"8", "(8,)", 1},
        {"(1,2,4,8,16,32,64,128)", "(1,2,4,8,16,32,64,128)", 8},
        {"(9223372036854775807,)", "(9223372036854775807,)", 1},
        {"(16,8,)", "(16,8)", 2},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        Shape s = parse_ok(ok[i].in);
        char buf[SHAPE_FMT_MAX];
        CHECK_INT(s.rank, ok[i].rank);
        CHECK_STR(shape_format(&s, buf, sizeof buf), ok[i].out);
    }
    static const struct {
        const char *in, *msg;
    } bad[] = {
        {"", "empty shape: write () for a scalar"},
        {"(16,8", "invalid shape '(16,8': missing ')'"},
        {"(16;8)", "invalid shape '(16;8)': expected ',' or ')' at ';8)'"},
        {"(0,8)", "invalid shape '(0,8)': dimensions must be positive"},
        {"(-4,8)", "invalid shape '(-4,8)': dimensions must be positive"},
        {"(,)", "invalid shape '(,)': expected a dimension at ',)'"},
        {"(8,,)", "invalid shape '(8,,)': expected a dimension at ',)'"},
        {"(a)", "invalid shape '(a)': expected a dimension at 'a)'"},
        {"(1,2,3,4,5,6,7,8,9)", "invalid shape '(1,2,3,4,5,6,7,8,9)': more than 8 dimensions"},
        {"(99999999999999999999)", "invalid shape '(99999999999999999999)': dimension too large"},
        {"(8))", "invalid shape '(8))': unexpected text ')'"},
        {"8)", "invalid shape '8)': unbalanced ')'"},
        {"(8) x", "invalid shape '(8) x': unexpected text 'x'"},
        {"(8 8)", "invalid shape '(8 8)': expected ',' or ')' at '8)'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Shape s = {3, {1, 2, 3}};
        char err[256] = "";
        CHECK(!shape_parse(bad[i].in, &s, err, sizeof err), "'%s' must not parse", bad[i].in);
        CHECK_STR(err, bad[i].msg);
        CHECK_INT(s.rank, 3); /* out untouched on failure */
    }
    CHECK(!shape_parse(NULL, NULL, NULL, 0), "NULL text");
    /* truncation */
    Shape s = parse_ok("(16,8)");
    char small[4];
    CHECK_STR(shape_format(&s, small, sizeof small), "(16");
    char one[1];
    CHECK_STR(shape_format(&s, one, sizeof one), "");
    Shape big = {8, {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX,
                     INT64_MAX, INT64_MAX}};
    char buf[SHAPE_FMT_MAX];
    shape_format(&big, buf, sizeof buf);
    CHECK_INT(strlen(buf), 8 * 19 + 7 + 2);
}

static void test_numel_equal_pow2(void)
{
    static const struct {
        const char *s;
        int64_t numel;
        bool pow2;
        int bad;
    } t[] = {
        {"()", 1, true, -1},          {"(1,)", 1, true, -1},       {"(16,8)", 128, true, -1},
        {"(1024,)", 1024, true, -1},  {"(3,)", 3, false, 0},       {"(16,6)", 96, false, 1},
        {"(4,8,12,16)", 6144, false, 2}, {"(12,24)", 288, false, 0},
        {"(2,2,2,2,2,2,2,2)", 256, true, -1},
        {"(4294967296,4294967296)", -1, true, -1},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        Shape s = parse_ok(t[i].s);
        CHECK(shape_numel(&s) == t[i].numel, "numel %s: %lld", t[i].s,
              (long long)shape_numel(&s));
        int bad = 99;
        CHECK(shape_is_pow2(&s, &bad) == t[i].pow2, "pow2 %s", t[i].s);
        CHECK_INT(bad, t[i].bad);
        CHECK(shape_is_pow2(&s, NULL) == t[i].pow2, "pow2 %s (NULL)", t[i].s);
    }
    Shape a = parse_ok("(16,8)"), b = parse_ok("(16,8)"), c = parse_ok("(16,)"),
          d = parse_ok("(8,16)"), e = parse_ok("()");
    CHECK(shape_equal(&a, &b), "equal");
    CHECK(!shape_equal(&a, &c), "rank differs");
    CHECK(!shape_equal(&a, &d), "dims differ");
    CHECK(shape_equal(&e, &e), "scalar");
}

static int run_broadcast(int argc, const char *const *argv, char *out, char *err, size_t n)
{
    FILE *fo = tmpfile(), *fe = tmpfile();
    if (!fo || !fe) {
        fprintf(stderr, "tmpfile failed\n");
        exit(1);
    }
    int rc = types_cli_broadcast(argc, (char **)argv, fo, fe);
    FILE *fs[2] = {fo, fe};
    char *bufs[2] = {out, err};
    for (int k = 0; k < 2; k++) {
        rewind(fs[k]);
        size_t m = fread(bufs[k], 1, n - 1, fs[k]);
        bufs[k][m] = '\0';
        fclose(fs[k]);
    }
    return rc;
}

static void test_cli(void)
{
    static const struct {
        const char *argv[5];
        int rc;
        const char *out, *err;
    } t[] = {
        {{"broadcast", "(16,8)", "(8,)"}, 0, "(16,8)\n", ""},
        {{"broadcast", "(4,1)", "(1,8)", "(2,1,1)"}, 0, "(2,4,8)\n", ""},
        {{"broadcast", "()", "()"}, 0, "()\n", ""},
        {{"broadcast", "(16,8)", "(4,)"}, 1, "",
         "error: shapes (16,8) and (4,) cannot be broadcast: dimension 1 is 8 vs 4\n"},
        {{"broadcast", "(16,8)", "(1,8)", "(3,)"}, 1, "",
         "error: shapes (16,8) and (3,) cannot be broadcast: dimension 1 is 8 vs 3\n"},
        {{"broadcast", "(16,8)"}, 2, "", "usage: tilec broadcast SHAPE SHAPE...\n"},
        {{"broadcast", "(16,x)", "(8,)"}, 2, "",
         "tilec broadcast: invalid shape '(16,x)': expected a dimension at 'x)'\n"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int argc = 0;
        while (argc < 5 && t[i].argv[argc])
            argc++;
        char out[1024], err[1024];
        int rc = run_broadcast(argc, t[i].argv, out, err, sizeof out);
        CHECK(rc == t[i].rc, "cli case %zu: rc %d, want %d", i, rc, t[i].rc);
        CHECK_STR(out, t[i].out);
        CHECK_STR(err, t[i].err);
    }
    const char *help[] = {"broadcast", "--help", NULL};
    char out[1024], err[1024];
    CHECK_INT(run_broadcast(2, help, out, err, sizeof out), 0);
    CHECK(strncmp(out, "usage: tilec broadcast", 22) == 0, "help: %s", out);
}

int main(void)
{
    test_broadcast();
    test_broadcast_to();
    test_format_parse();
    test_numel_equal_pow2();
    test_cli();
    return check_done("shape");
}
