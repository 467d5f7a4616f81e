/* layout_cli.c: `tilec layout OP ARG...` and `tilec layout --batch`, a thin
 * text front end over the layout algebra (layout.h) so it can be explored
 * and golden-tested from the shell.  Both modes go through run_op, so a
 * batch line prints exactly what the same command line prints. */
#include "cmd/layout_cli.h"
#include "sema/layout.h"

#include <ctype.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { RES_OK = 0, RES_ERROR = 1, RES_USAGE = 2 };

typedef struct OpInfo {
    const char *name;
    int min_args, max_args;
    const char *args, *help;
} OpInfo;

static const OpInfo OPS[] = {
    {"eval", 2, 2, "L I", "offset of linear index I or coordinate tuple I"},
    {"coord", 2, 2, "L I", "natural coordinate of linear index I"},
    {"size", 1, 1, "L", "number of elements"},
    {"cosize", 1, 1, "L", "1 + largest |offset|"},
    {"rank", 1, 1, "L", "number of top-level modes"},
    {"depth", 1, 1, "L", "nesting depth (8:1 is 0)"},
    {"swizzle", 2, 2, "Sw<B,M,S> X", "the swizzled offset of offset X"},
    {"coalesce", 1, 2, "L [PROFILE]", "simplify, keeping the function (by mode with PROFILE)"},
    {"filter", 1, 1, "L", "drop stride-0 and size-1 modes, then coalesce"},
    {"sort", 1, 1, "L", "flatten and sort the modes by stride"},
    {"complement", 1, 2, "L [M]", "the layout of the rest, up to cotarget M"},
    {"compose", 2, 2, "A B", "A o B; B a layout or a tiler <B0,B1,...>"},
    {"logical-divide", 2, 2, "A B", "A o (B, complement(B, size(A)))"},
    {"zipped-divide", 2, 2, "A B", "((tiles...),(rests...))"},
    {"tiled-divide", 2, 2, "A B", "((tiles...),rests...)"},
    {"logical-product", 2, 2, "A B", "(A, complement(A, size(A)*cosize(B)) o B)"},
    {"blocked-product", 2, 2, "A B", "A repeated as blocks over B (B a layout)"},
    {"raked-product", 2, 2, "A B", "A interleaved over B (B a layout)"},
    {"right-inverse", 1, 1, "L", "R with L(R(i)) == i"},
    {"left-inverse", 1, 1, "L", "R with R(L(i)) == i (L injective)"},
};

static void usage(FILE *f)
{
    fputs("usage: tilec layout OP ARG...\n"
          "       tilec layout --batch < FILE   (one 'OP ARG...' per line)\n"
          "Layouts are written as CuTe prints them: 8:1, (2,4):(1,2), (2,(2,2)):(4,(1,2));\n"
          "a bare shape such as (4,8) has compact column-major strides.\n"
          "Operations:\n",
          f);
    for (size_t k = 0; k < sizeof OPS / sizeof OPS[0]; k++) {
        char head[48];
        snprintf(head, sizeof head, "%s %s", OPS[k].name, OPS[k].args);
        fprintf(f, "  %-28s %s\n", head, OPS[k].help);
    }
    fputs("See docs/layout.md.\n", f);
}

static int say(char *buf, size_t len, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int say(char *buf, size_t len, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return code;
}

static int get_layout(const char *text, Layout *l, char *err, size_t errlen)
{
    char why[256];
    if (layout_parse(text, l, why, sizeof why)) return RES_OK;
    return say(err, errlen, RES_ERROR, "bad layout '%s': %s", text, why);
}

static int get_tiler(const char *text, LayoutTiler *t, char *err, size_t errlen)
{
    char why[256];
    if (layout_tiler_parse(text, t, why, sizeof why)) return RES_OK;
    return say(err, errlen, RES_ERROR, "bad layout or tiler '%s': %s", text, why);
}

/* A plain decimal integer, optionally negative; nothing else on the token. */
static bool get_int(const char *text, int64_t *v)
{
    const char *p = text;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        p++;
    }
    if (*p < '0' || *p > '9') return false;
    int64_t x = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        x = x * 10 + (*p - '0');
        if (x > LAYOUT_MAX_VALUE) return false;
    }
    if (*p) return false;
    *v = neg ? -x : x;
    return true;
}

static int put_layout(const Layout *l, char *res, size_t reslen)
{
    layout_format(l, res, reslen);
    return RES_OK;
}

/* Runs one operation.  argv[0] is the op name.  On RES_OK the result line
 * (without newline) is in res; otherwise the reason is in err. */
static int run_op(int argc, char **argv, char *res, size_t reslen, char *err, size_t errlen)
{
    const OpInfo *op = NULL;
    for (size_t k = 0; k < sizeof OPS / sizeof OPS[0]; k++)
        if (strcmp(argv[0], OPS[k].name) == 0) op = &OPS[k];
    if (!op) return say(err, errlen, RES_USAGE, "unknown operation '%s'", argv[0]);
    int nargs = argc - 1;
    if (nargs < op->min_args || nargs > op->max_args)
        return say(err, errlen, RES_USAGE, "usage: %s %s", op->name, op->args);

    const char *name = op->name;
    char why[512];
    if (!strcmp(name, "swizzle")) {
        LayoutSwizzle sw;
        int64_t x;
        if (!layout_swizzle_parse(argv[1], &sw, why, sizeof why)) return say(err, errlen, RES_ERROR, "%s", why);
        if (!get_int(argv[2], &x) || x < 0 || x >= ((int64_t)1 << 62))
            return say(err, errlen, RES_ERROR, "bad offset '%s': expected an integer in [0, 2^62)", argv[2]);
        return say(res, reslen, RES_OK, "%" PRId64, layout_swizzle_apply(&sw, x));
    }
    Layout a, r;
    int rc = get_layout(argv[1], &a, err, errlen);
    if (rc != RES_OK) return rc;

    if (!strcmp(name, "size")) return say(res, reslen, RES_OK, "%" PRId64, layout_size(&a));
    if (!strcmp(name, "cosize")) return say(res, reslen, RES_OK, "%" PRId64, layout_cosize(&a));
    if (!strcmp(name, "rank")) return say(res, reslen, RES_OK, "%d", layout_rank(&a));
    if (!strcmp(name, "depth")) return say(res, reslen, RES_OK, "%d", layout_depth(&a));

    if (!strcmp(name, "eval") || !strcmp(name, "coord")) {
        const char *arg = argv[2];
        int64_t idx, off;
        if (!strcmp(name, "eval") && arg[0] == '(') {
            LayoutTuple c;
            if (!layout_tuple_parse(arg, &c, why, sizeof why))
                return say(err, errlen, RES_ERROR, "bad coordinate '%s': %s", arg, why);
            if (!layout_eval_coord(&a, &c, &off, why, sizeof why))
                return say(err, errlen, RES_ERROR, "%s", why);
            return say(res, reslen, RES_OK, "%" PRId64, off);
        }
        if (!get_int(arg, &idx))
            return say(err, errlen, RES_ERROR, "bad index '%s': expected an integer%s", arg,
                       !strcmp(name, "eval") ? " or a coordinate tuple" : "");
        int64_t size = layout_size(&a);
        if (idx < 0 || idx >= size)
            return say(err, errlen, RES_ERROR,
                       "%s: index %" PRId64 " out of range [0, %" PRId64 ")", name, idx, size);
        if (!strcmp(name, "eval")) return say(res, reslen, RES_OK, "%" PRId64, layout_eval(&a, idx));
        LayoutTuple c;
        if (!layout_index_to_coord(&a, idx, &c, why, sizeof why))
            return say(err, errlen, RES_ERROR, "%s", why);
        layout_tuple_format(&c, res, reslen);
        return RES_OK;
    }

    bool ok = true;
    if (!strcmp(name, "coalesce")) {
        if (argc == 3) {
            LayoutTuple prof;
            if (!layout_tuple_parse(argv[2], &prof, why, sizeof why))
                return say(err, errlen, RES_ERROR, "bad profile '%s': %s", argv[2], why);
            ok = layout_coalesce_profile(&a, &prof, &r, why, sizeof why);
        } else {
            ok = layout_coalesce(&a, &r, why, sizeof why);
        }
    } else if (!strcmp(name, "filter")) {
        ok = layout_filter(&a, &r, why, sizeof why);
    } else if (!strcmp(name, "sort")) {
        ok = layout_sort(&a, &r, why, sizeof why);
    } else if (!strcmp(name, "complement")) {
        int64_t m = 0;
        if (argc == 3 && (!get_int(argv[2], &m) || m < 1))
            return say(err, errlen, RES_ERROR, "bad cotarget '%s': expected a positive integer",
                       argv[2]);
        ok = layout_complement(&a, m, &r, why, sizeof why);
    } else if (!strcmp(name, "right-inverse")) {
        ok = layout_right_inverse(&a, &r, why, sizeof why);
    } else if (!strcmp(name, "left-inverse")) {
        ok = layout_left_inverse(&a, &r, why, sizeof why);
    } else if (!strcmp(name, "blocked-product") || !strcmp(name, "raked-product")) {
        LayoutTiler t;
        rc = get_tiler(argv[2], &t, err, errlen);
        if (rc != RES_OK) return rc;
        if (t.node[0].kind == LAYOUT_NODE_TILE || t.node[0].kind == LAYOUT_NODE_UNDERSCORE)
            return say(err, errlen, RES_ERROR, "%s: B must be a layout, not a tiler", name);
        Layout b;
        rc = get_layout(argv[2], &b, err, errlen);
        if (rc != RES_OK) return rc;
        ok = name[0] == 'b' ? layout_blocked_product(&a, &b, &r, why, sizeof why)
                            : layout_raked_product(&a, &b, &r, why, sizeof why);
    } else {
        LayoutTiler t;
        rc = get_tiler(argv[2], &t, err, errlen);
        if (rc != RES_OK) return rc;
        if (!strcmp(name, "compose"))
            ok = layout_compose_tiler(&a, &t, &r, why, sizeof why);
        else if (!strcmp(name, "logical-divide"))
            ok = layout_logical_divide_tiler(&a, &t, &r, why, sizeof why);
        else if (!strcmp(name, "zipped-divide"))
            ok = layout_zipped_divide(&a, &t, &r, why, sizeof why);
        else if (!strcmp(name, "tiled-divide"))
            ok = layout_tiled_divide(&a, &t, &r, why, sizeof why);
        else
            ok = layout_logical_product_tiler(&a, &t, &r, why, sizeof why);
    }
    if (!ok) return say(err, errlen, RES_ERROR, "%s", why);
    return put_layout(&r, res, reslen);
}

int layout_cli_main(int argc, char **argv, FILE *out, FILE *err)
{
    if (argc < 2) {
        usage(err);
        return RES_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(out);
        return RES_OK;
    }
    if (!strcmp(argv[1], "--batch")) {
        if (argc != 2) {
            fprintf(err, "error: --batch takes no arguments (it reads standard input)\n");
            return RES_USAGE;
        }
        return layout_cli_batch(stdin, out);
    }
    char res[LAYOUT_STR_MAX], msg[1024];
    int rc = run_op(argc - 1, argv + 1, res, sizeof res, msg, sizeof msg);
    if (rc == RES_OK) {
        fprintf(out, "%s\n", res);
    } else {
        fprintf(err, "error: %s\n", msg);
        if (rc == RES_USAGE) fputs("run 'tilec layout --help' for the operations\n", err);
    }
    return rc;
}

enum { BATCH_LINE_MAX = 16384, BATCH_ARGS_MAX = 8 };

int layout_cli_batch(FILE *in, FILE *out)
{
    char line[BATCH_LINE_MAX];
    char res[LAYOUT_STR_MAX], msg[1024];
    while (fgets(line, sizeof line, in)) {
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            /* overlong: skip the rest of it, answer with one error line */
            int c;
            while ((c = fgetc(in)) != EOF && c != '\n') {
            }
            fprintf(out, "error: line longer than %d characters\n", BATCH_LINE_MAX - 2);
            continue;
        }
        char *argv[BATCH_ARGS_MAX + 1];
        int argc = 0;
        bool too_many = false;
        char *p = line;
        for (;;) {
            while (*p && isspace((unsigned char)*p)) p++;
            if (!*p) break;
            if (argc == 0 && *p == '#') break;
            if (argc == BATCH_ARGS_MAX) {
                too_many = true;
                break;
            }
            argv[argc++] = p;
            while (*p && !isspace((unsigned char)*p)) p++;
            if (*p) *p++ = '\0';
        }
        if (argc == 0) continue;
        if (too_many) {
            fprintf(out, "error: too many arguments\n");
            continue;
        }
        argv[argc] = NULL;
        if (run_op(argc, argv, res, sizeof res, msg, sizeof msg) == RES_OK)
            fprintf(out, "%s\n", res);
        else
            fprintf(out, "error: %s\n", msg);
    }
    return ferror(in) ? 1 : 0;
}
