/* types_cli.c: `tilec promote` and `tilec broadcast`, thin command-line
 * fronts for dtype_promote and shape_broadcast (docs/types.md). */
#include "cmd/types_cli.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sema/dtype.h"
#include "sema/shape.h"

static const struct {
    const char *text;
    PromoteOp op;
} types_cli_ops_[] = {
    {"+", PROMOTE_ARITH},       {"-", PROMOTE_ARITH},          {"*", PROMOTE_ARITH},
    {"arith", PROMOTE_ARITH},   {"min", PROMOTE_ARITH},        {"max", PROMOTE_ARITH},
    {"tile_minimum", PROMOTE_ARITH},                           {"tile_maximum", PROMOTE_ARITH},
    {"/", PROMOTE_DIV},         {"div", PROMOTE_DIV},          {"truediv", PROMOTE_TRUEDIV},
    {"tile_truediv", PROMOTE_TRUEDIV},                         {"%", PROMOTE_MOD},
    {"mod", PROMOTE_MOD},       {"<", PROMOTE_COMPARE},        {"<=", PROMOTE_COMPARE},
    {">", PROMOTE_COMPARE},     {">=", PROMOTE_COMPARE},       {"==", PROMOTE_COMPARE},
    {"!=", PROMOTE_COMPARE},    {"compare", PROMOTE_COMPARE},  {"&", PROMOTE_BITWISE},
    {"|", PROMOTE_BITWISE},     {"^", PROMOTE_BITWISE},        {"bitwise", PROMOTE_BITWISE},
    {"<<", PROMOTE_SHIFT},      {">>", PROMOTE_SHIFT},         {"shift", PROMOTE_SHIFT},
    {"&&", PROMOTE_LOGICAL},    {"||", PROMOTE_LOGICAL},       {"logical", PROMOTE_LOGICAL},
    {"?:", PROMOTE_SELECT},     {"select", PROMOTE_SELECT},    {"where", PROMOTE_SELECT},
    {"tile_where", PROMOTE_SELECT},
};

static void types_cli_promote_usage_(FILE *f)
{
    fputs("usage: tilec promote TYPE TYPE [OP]\n"
          "  TYPE: bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16\n"
          "        bfloat16 float32 float64 tfloat32 float8_e4m3fn float8_e5m2,\n"
          "        int_const, float_const, or a literal constant (300, -1, 1.5)\n"
          "  OP:   + - * / % < <= > >= == != & | ^ << >> && || ?: truediv min max\n"
          "        (default +), or a class: arith div truediv mod compare bitwise\n"
          "        shift logical select\n"
          "Prints the result type, or \"error: ...\" and exits 1.\n",
          f);
}

/* A dtype name, or a literal: an integer (decimal, 0x hex, 0 octal) becomes
 * int_const with its value, anything else strtod accepts float_const. */
static bool types_cli_parse_type_(const char *text, Dtype *t, ConstValue *v, bool *has_value)
{
    *has_value = false;
    *t = dtype_from_name(text);
    if (*t != DT_INVALID)
        return true;
    if (!*text)
        return false;
    char *end;
    errno = 0;
    long long i = strtoll(text, &end, 0);
    if (end != text && *end == '\0') {
        if (errno == ERANGE) {
            if (strchr(text, '-'))
                return false;
            errno = 0;
            unsigned long long u = strtoull(text, &end, 0);
            if (errno == ERANGE || *end)
                return false;
            *v = dtype_const_uint((uint64_t)u);
        } else {
            *v = dtype_const_int((int64_t)i);
        }
        *t = DT_INT_CONST;
        *has_value = true;
        return true;
    }
    errno = 0;
    double f = strtod(text, &end);
    if (end != text && *end == '\0') {
        *v = dtype_const_float(f);
        *t = DT_FLOAT_CONST;
        *has_value = true;
        return true;
    }
    return false;
}

int types_cli_promote(int argc, char **argv, FILE *out, FILE *err)
{
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        types_cli_promote_usage_(out);
        return 0;
    }
    if (argc < 3 || argc > 4) {
        types_cli_promote_usage_(err);
        return 2;
    }
    Dtype t[2];
    ConstValue v[2] = {{0}, {0}};
    bool has[2];
    for (int k = 0; k < 2; k++) {
        if (!types_cli_parse_type_(argv[1 + k], &t[k], &v[k], &has[k])) {
            fprintf(err, "tilec promote: unknown type '%s' (try tilec promote --help)\n",
                    argv[1 + k]);
            return 2;
        }
    }
    PromoteOp op = PROMOTE_ARITH;
    if (argc == 4) {
        bool found = false;
        for (size_t i = 0; i < sizeof types_cli_ops_ / sizeof types_cli_ops_[0]; i++) {
            if (strcmp(argv[3], types_cli_ops_[i].text) == 0) {
                op = types_cli_ops_[i].op;
                found = true;
                break;
            }
        }
        if (!found) {
            fprintf(err, "tilec promote: unknown operator '%s' (try tilec promote --help)\n",
                    argv[3]);
            return 2;
        }
    }
    Promotion p;
    char msg[512];
    if (!dtype_promote(op, t[0], has[0] ? &v[0] : NULL, t[1], has[1] ? &v[1] : NULL, &p, msg,
                       sizeof msg)) {
        fprintf(err, "error: %s\n", msg);
        return 1;
    }
    fprintf(out, "%s\n", dtype_name(p.result));
    return 0;
}

int types_cli_broadcast(int argc, char **argv, FILE *out, FILE *err)
{
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        fputs("usage: tilec broadcast SHAPE SHAPE...\n"
              "  SHAPE: a tuple such as \"(16,8)\", \"(8,)\" or \"()\"\n"
              "Prints the NumPy broadcast of the shapes, or \"error: ...\" and exits 1.\n",
              out);
        return 0;
    }
    if (argc < 3) {
        fputs("usage: tilec broadcast SHAPE SHAPE...\n", err);
        return 2;
    }
    Shape acc = {0};
    char msg[512];
    for (int k = 1; k < argc; k++) {
        Shape s;
        if (!shape_parse(argv[k], &s, msg, sizeof msg)) {
            fprintf(err, "tilec broadcast: %s\n", msg);
            return 2;
        }
        if (k == 1) {
            acc = s;
        } else if (!shape_broadcast(&acc, &s, &acc, msg, sizeof msg)) {
            fprintf(err, "error: %s\n", msg);
            return 1;
        }
    }
    char buf[SHAPE_FMT_MAX];
    fprintf(out, "%s\n", shape_format(&acc, buf, sizeof buf));
    return 0;
}
