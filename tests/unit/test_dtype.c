/* test_dtype.c: table-driven tests of sema/dtype (cuTile promotion, loose
 * constants, operator classes, implicit conversions, spellings) and of the
 * `tilec promote` subcommand.  The expected results are written out by hand
 * from docs/types.md, never computed by the code under test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sema/dtype.h"
#include "cmd/types_cli.h"

/* ---- the full arithmetic promotion matrix --------------------------- */

/* Row and column order: the Dtype enum order. */
static const Dtype order[18] = {
    DT_BOOL,    DT_INT8,     DT_INT16,   DT_INT32,    DT_INT64,         DT_UINT8,
    DT_UINT16,  DT_UINT32,   DT_UINT64,  DT_FLOAT16,  DT_BFLOAT16,      DT_FLOAT32,
    DT_FLOAT64, DT_TFLOAT32, DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2, DT_INT_CONST, DT_FLOAT_CONST,
};

/* Short codes used in the matrix, and the names they stand for. */
static const struct {
    const char *code, *name;
} codes[] = {
    {"b", "bool"},       {"i8", "int8"},       {"i16", "int16"},       {"i32", "int32"},
    {"i64", "int64"},    {"u8", "uint8"},      {"u16", "uint16"},      {"u32", "uint32"},
    {"u64", "uint64"},   {"f16", "float16"},   {"bf", "bfloat16"},     {"f32", "float32"},
    {"f64", "float64"},  {"tf", "tfloat32"},   {"e4", "float8_e4m3fn"}, {"e5", "float8_e5m2"},
    {"ic", "int_const"}, {"fc", "float_const"}, {"--", "ERROR"},
};

/* a + b (PROMOTE_ARITH, constants without values) for a = row, b = column:
 *                b     i8    i16   i32   i64   u8    u16   u32   u64   f16   bf    f32   f64   tf    e4    e5    ic    fc */
static const char *const arith[18][18] = {
    /* b   */ {"--", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf", "f32", "f64", "--", "--", "--", "i32", "f32"},
    /* i8  */ {"i8", "i8", "i16", "i32", "i64", "--", "--", "--", "--", "f16", "bf", "f32", "f64", "--", "--", "--", "i8", "f32"},
    /* i16 */ {"i16", "i16", "i16", "i32", "i64", "--", "--", "--", "--", "f16", "bf", "f32", "f64", "--", "--", "--", "i16", "f32"},
    /* i32 */ {"i32", "i32", "i32", "i32", "i64", "--", "--", "--", "--", "f16", "bf", "f32", "f64", "--", "--", "--", "i32", "f32"},
    /* i64 */ {"i64", "i64", "i64", "i64", "i64", "--", "--", "--", "--", "f16", "bf", "f32", "f64", "--", "--", "--", "i64", "f32"},
    /* u8  */ {"u8", "--", "--", "--", "--", "u8", "u16", "u32", "u64", "f16", "bf", "f32", "f64", "--", "--", "--", "u8", "f32"},
    /* u16 */ {"u16", "--", "--", "--", "--", "u16", "u16", "u32", "u64", "f16", "bf", "f32", "f64", "--", "--", "--", "u16", "f32"},
    /* u32 */ {"u32", "--", "--", "--", "--", "u32", "u32", "u32", "u64", "f16", "bf", "f32", "f64", "--", "--", "--", "u32", "f32"},
    /* u64 */ {"u64", "--", "--", "--", "--", "u64", "u64", "u64", "u64", "f16", "bf", "f32", "f64", "--", "--", "--", "u64", "f32"},
    /* f16 */ {"f16", "f16", "f16", "f16", "f16", "f16", "f16", "f16", "f16", "f16", "--", "f32", "f64", "--", "--", "--", "f16", "f16"},
    /* bf  */ {"bf", "bf", "bf", "bf", "bf", "bf", "bf", "bf", "bf", "--", "bf", "f32", "f64", "--", "--", "--", "bf", "bf"},
    /* f32 */ {"f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f64", "--", "--", "--", "f32", "f32"},
    /* f64 */ {"f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "--", "--", "--", "f64", "f64"},
    /* tf  */ {"--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--"},
    /* e4  */ {"--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--"},
    /* e5  */ {"--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--", "--"},
    /* ic  */ {"i32", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf", "f32", "f64", "--", "--", "--", "ic", "fc"},
    /* fc  */ {"f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f16", "bf", "f32", "f64", "--", "--", "--", "fc", "fc"},
};

static const char *code_name(const char *code)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(codes[i].code, code) == 0)
            return codes[i].name;
    return "?";
}

static void test_arith_matrix(void)
{
    for (int r = 0; r < 18; r++) {
        for (int c = 0; c < 18; c++) {
            Promotion p;
            char err[256] = "";
            bool ok = dtype_promote(PROMOTE_ARITH, order[r], NULL, order[c], NULL, &p, err,
                                    sizeof err);
            const char *want = code_name(arith[r][c]);
            const char *got = ok ? dtype_name(p.result) : "ERROR";
            CHECK(strcmp(got, want) == 0, "%s + %s: got %s (%s), want %s",
                  dtype_name(order[r]), dtype_name(order[c]), got, err, want);
            if (ok) {
                CHECK(p.operand == p.result, "%s + %s: operand %s", dtype_name(order[r]),
                      dtype_name(order[c]), dtype_name(p.operand));
                CHECK(err[0] == '\0', "%s + %s: message on success: %s",
                      dtype_name(order[r]), dtype_name(order[c]), err);
            } else {
                /* every arithmetic promotion error names the cast to write */
                CHECK(strstr(err, "tile_cast(x, ") != NULL, "%s + %s: message '%s'",
                      dtype_name(order[r]), dtype_name(order[c]), err);
            }
        }
    }
}

/* ---- cases with values and other operator classes ------------------- */

/* An operand: a dtype name, or a literal constant ("300", "-1", "1.5",
 * "u:18446744073709551615" for values above INT64_MAX). */
static void operand(const char *text, Dtype *t, ConstValue *v, const ConstValue **pv)
{
    *pv = NULL;
    *t = dtype_from_name(text);
    if (*t != DT_INVALID)
        return;
    if (strncmp(text, "u:", 2) == 0) {
        *v = dtype_const_uint(strtoull(text + 2, NULL, 10));
        *t = DT_INT_CONST;
    } else if (strpbrk(text, ".e")) {
        *v = dtype_const_float(strtod(text, NULL));
        *t = DT_FLOAT_CONST;
    } else {
        *v = dtype_const_int(strtoll(text, NULL, 10));
        *t = DT_INT_CONST;
    }
    *pv = v;
}

typedef struct Case {
    PromoteOp op;
    const char *a, *b;
    const char *result;  /* "ERROR" when it must fail */
    const char *operand; /* NULL: same as result */
    const char *msg;     /* the whole message (exact), or NULL */
} Case;

#define E(op, a, b, msg) {op, a, b, "ERROR", NULL, msg}

static const Case cases[] = {
    /* loose constants with values */
    {PROMOTE_ARITH, "int8", "127", "int8", NULL, NULL},
    {PROMOTE_ARITH, "int8", "-128", "int8", NULL, NULL},
    E(PROMOTE_ARITH, "int8", "300",
      "integer constant 300 does not fit int8: cast the other operand to a wider type, e.g. "
      "tile_cast(x, int16_t)"),
    E(PROMOTE_ARITH, "300", "int8",
      "integer constant 300 does not fit int8: cast the other operand to a wider type, e.g. "
      "tile_cast(x, int16_t)"),
    E(PROMOTE_ARITH, "int8", "128",
      "integer constant 128 does not fit int8: cast the other operand to a wider type, e.g. "
      "tile_cast(x, int16_t)"),
    E(PROMOTE_ARITH, "uint8", "-1",
      "integer constant -1 does not fit uint8: cast the other operand to a wider type, e.g. "
      "tile_cast(x, int16_t)"),
    E(PROMOTE_ARITH, "uint8", "256",
      "integer constant 256 does not fit uint8: cast the other operand to a wider type, e.g. "
      "tile_cast(x, uint16_t)"),
    {PROMOTE_ARITH, "uint8", "255", "uint8", NULL, NULL},
    E(PROMOTE_ARITH, "int32", "1099511627776",
      "integer constant 1099511627776 does not fit int32: cast the other operand to a wider "
      "type, e.g. tile_cast(x, int64_t)"),
    E(PROMOTE_ARITH, "int64", "u:9223372036854775808",
      "integer constant 9223372036854775808 does not fit int64: cast the other operand to a "
      "wider type, e.g. tile_cast(x, uint64_t)"),
    {PROMOTE_ARITH, "uint64", "u:18446744073709551615", "uint64", NULL, NULL},
    {PROMOTE_ARITH, "int16", "1.5", "float32", NULL, NULL},
    {PROMOTE_ARITH, "int64", "1.5", "float32", NULL, NULL},
    {PROMOTE_ARITH, "int8", "1e300", "float32", NULL, NULL},
    {PROMOTE_ARITH, "bool", "3", "int32", NULL, NULL},
    {PROMOTE_ARITH, "bool", "-3", "int32", NULL, NULL},
    {PROMOTE_ARITH, "bool", "2147483648", "int64", NULL, NULL},
    {PROMOTE_ARITH, "bool", "1099511627776", "int64", NULL, NULL},
    {PROMOTE_ARITH, "bool", "u:9223372036854775808", "uint64", NULL, NULL},
    {PROMOTE_ARITH, "bool", "2.5", "float32", NULL, NULL},
    {PROMOTE_ARITH, "float16", "100000", "float16", NULL, NULL},
    {PROMOTE_ARITH, "float16", "1.5", "float16", NULL, NULL},
    {PROMOTE_ARITH, "bfloat16", "u:18446744073709551615", "bfloat16", NULL, NULL},
    {PROMOTE_ARITH, "float64", "2", "float64", NULL, NULL},
    {PROMOTE_ARITH, "3", "4", "int_const", NULL, NULL},
    {PROMOTE_ARITH, "3", "4.5", "float_const", NULL, NULL},
    {PROMOTE_ARITH, "int32", "float16", "float16", NULL, NULL},
    {PROMOTE_ARITH, "int64", "bfloat16", "bfloat16", NULL, NULL},
    /* error messages naming the fix */
    E(PROMOTE_ARITH, "int8", "uint8",
      "cannot mix signed and unsigned integers (int8 and uint8): cast one operand, e.g. "
      "tile_cast(x, int16_t)"),
    E(PROMOTE_ARITH, "uint16", "int32",
      "cannot mix signed and unsigned integers (uint16 and int32): cast one operand, e.g. "
      "tile_cast(x, int32_t)"),
    E(PROMOTE_ARITH, "int16", "uint32",
      "cannot mix signed and unsigned integers (int16 and uint32): cast one operand, e.g. "
      "tile_cast(x, int64_t)"),
    E(PROMOTE_ARITH, "uint64", "int8",
      "cannot mix signed and unsigned integers (uint64 and int8): cast one operand, e.g. "
      "tile_cast(x, int64_t)"),
    E(PROMOTE_ARITH, "float16", "bfloat16",
      "cannot mix float16 and bfloat16: cast one operand, e.g. tile_cast(x, float)"),
    E(PROMOTE_ARITH, "tfloat32", "float32",
      "cannot combine tfloat32 with float32: tfloat32 does not promote implicitly; cast with "
      "tile_cast(x, float)"),
    E(PROMOTE_ARITH, "1.0", "tfloat32",
      "cannot combine tfloat32 with float_const: tfloat32 does not promote implicitly; cast "
      "with tile_cast(x, float)"),
    E(PROMOTE_ARITH, "float8_e4m3fn", "float8_e5m2",
      "cannot combine float8_e4m3fn with float8_e5m2: float8_e4m3fn does not promote "
      "implicitly; cast with tile_cast(x, float)"),
    E(PROMOTE_ARITH, "tfloat32", "tfloat32",
      "arithmetic on tfloat32 operands is not supported: only tile_cast and tile_mma accept "
      "tfloat32; cast with tile_cast(x, float)"),
    E(PROMOTE_COMPARE, "float8_e5m2", "float8_e5m2",
      "comparison on float8_e5m2 operands is not supported: only tile_cast and tile_mma "
      "accept float8_e5m2; cast with tile_cast(x, float)"),
    E(PROMOTE_ARITH, "bool", "bool",
      "arithmetic on bool operands is not supported: cast one operand, e.g. tile_cast(x, "
      "int32_t)"),

    /* / : C division */
    {PROMOTE_DIV, "int32", "int32", "int32", NULL, NULL},
    {PROMOTE_DIV, "int8", "int16", "int16", NULL, NULL},
    {PROMOTE_DIV, "uint32", "7", "uint32", NULL, NULL},
    {PROMOTE_DIV, "float16", "int32", "float16", NULL, NULL},
    {PROMOTE_DIV, "float32", "0", "float32", NULL, NULL},
    {PROMOTE_DIV, "7", "2", "int_const", NULL, NULL},
    {PROMOTE_DIV, "7", "2.0", "float_const", NULL, NULL},
    E(PROMOTE_DIV, "bool", "bool",
      "division on bool operands is not supported: cast one operand, e.g. tile_cast(x, "
      "int32_t)"),
    E(PROMOTE_DIV, "int32", "0", "integer division by constant zero"),
    E(PROMOTE_DIV, "uint8", "int8", NULL),
    /* tile_truediv */
    {PROMOTE_TRUEDIV, "int32", "int32", "float32", NULL, NULL},
    {PROMOTE_TRUEDIV, "int16", "int8", "float32", NULL, NULL},
    {PROMOTE_TRUEDIV, "uint32", "uint8", "float32", NULL, NULL},
    {PROMOTE_TRUEDIV, "int64", "int32", "float64", NULL, NULL},
    {PROMOTE_TRUEDIV, "uint64", "uint8", "float64", NULL, NULL},
    {PROMOTE_TRUEDIV, "bool", "bool", "float32", NULL, NULL},
    {PROMOTE_TRUEDIV, "bool", "int64", "float64", NULL, NULL},
    {PROMOTE_TRUEDIV, "int32", "5", "float32", NULL, NULL},
    {PROMOTE_TRUEDIV, "1099511627776", "bool", "float64", NULL, NULL},
    {PROMOTE_TRUEDIV, "float16", "int32", "float16", NULL, NULL},
    {PROMOTE_TRUEDIV, "bfloat16", "bfloat16", "bfloat16", NULL, NULL},
    {PROMOTE_TRUEDIV, "float16", "float64", "float64", NULL, NULL},
    {PROMOTE_TRUEDIV, "int32", "0", "float32", NULL, NULL},
    {PROMOTE_TRUEDIV, "7", "2", "float_const", NULL, NULL},
    {PROMOTE_TRUEDIV, "7.0", "2", "float_const", NULL, NULL},
    E(PROMOTE_TRUEDIV, "uint8", "int8", NULL),
    E(PROMOTE_TRUEDIV, "float16", "bfloat16", NULL),
    E(PROMOTE_TRUEDIV, "int8", "300", NULL),
    E(PROMOTE_TRUEDIV, "tfloat32", "tfloat32", NULL),
    /* % */
    {PROMOTE_MOD, "int32", "int32", "int32", NULL, NULL},
    {PROMOTE_MOD, "float32", "float32", "float32", NULL, NULL},
    {PROMOTE_MOD, "int8", "2.5", "float32", NULL, NULL},
    {PROMOTE_MOD, "uint16", "7", "uint16", NULL, NULL},
    {PROMOTE_MOD, "7", "3", "int_const", NULL, NULL},
    {PROMOTE_MOD, "float32", "0", "float32", NULL, NULL},
    E(PROMOTE_MOD, "uint16", "-7", NULL),
    E(PROMOTE_MOD, "bool", "bool", NULL),
    E(PROMOTE_MOD, "int32", "0", "integer remainder by constant zero"),
    /* comparisons: promoted operands, bool result */
    {PROMOTE_COMPARE, "int32", "float16", "bool", "float16", NULL},
    {PROMOTE_COMPARE, "bool", "bool", "bool", "bool", NULL},
    {PROMOTE_COMPARE, "int8", "int64", "bool", "int64", NULL},
    {PROMOTE_COMPARE, "int8", "1.5", "bool", "float32", NULL},
    {PROMOTE_COMPARE, "uint32", "0", "bool", "uint32", NULL},
    {PROMOTE_COMPARE, "3", "4", "bool", "int_const", NULL},
    {PROMOTE_COMPARE, "3", "4.0", "bool", "float_const", NULL},
    E(PROMOTE_COMPARE, "uint8", "int8", NULL),
    E(PROMOTE_COMPARE, "uint8", "-1", NULL),
    E(PROMOTE_COMPARE, "int8", "300", NULL),
    E(PROMOTE_COMPARE, "float16", "bfloat16", NULL),
    E(PROMOTE_COMPARE, "tfloat32", "tfloat32", NULL),
    /* & | ^ */
    {PROMOTE_BITWISE, "bool", "bool", "bool", NULL, NULL},
    {PROMOTE_BITWISE, "int8", "int32", "int32", NULL, NULL},
    {PROMOTE_BITWISE, "bool", "int16", "int16", NULL, NULL},
    {PROMOTE_BITWISE, "bool", "1", "int32", NULL, NULL},
    {PROMOTE_BITWISE, "uint32", "255", "uint32", NULL, NULL},
    {PROMOTE_BITWISE, "12", "10", "int_const", NULL, NULL},
    E(PROMOTE_BITWISE, "float32", "int32",
      "bitwise operators (& | ^) need bool or integer operands, not float32: cast with "
      "tile_cast(x, int32_t) if an integer was meant"),
    E(PROMOTE_BITWISE, "int32", "1.5", NULL),
    E(PROMOTE_BITWISE, "1", "1.5", NULL),
    E(PROMOTE_BITWISE, "int8", "uint8", NULL),
    E(PROMOTE_BITWISE, "uint8", "256", NULL),
    E(PROMOTE_BITWISE, "tfloat32", "tfloat32", NULL),
    /* << >> : the left operand's type */
    {PROMOTE_SHIFT, "int32", "int8", "int32", NULL, NULL},
    {PROMOTE_SHIFT, "int8", "int64", "int8", NULL, NULL},
    {PROMOTE_SHIFT, "uint32", "int32", "uint32", NULL, NULL},
    {PROMOTE_SHIFT, "int64", "uint8", "int64", NULL, NULL},
    {PROMOTE_SHIFT, "int32", "31", "int32", NULL, NULL},
    {PROMOTE_SHIFT, "int32", "0", "int32", NULL, NULL},
    {PROMOTE_SHIFT, "int64", "40", "int64", NULL, NULL},
    {PROMOTE_SHIFT, "1", "int64", "int32", NULL, NULL},
    {PROMOTE_SHIFT, "1099511627776", "int32", "int64", NULL, NULL},
    {PROMOTE_SHIFT, "1", "3", "int_const", NULL, NULL},
    E(PROMOTE_SHIFT, "int32", "32", "shift count 32 is out of range for int32 (0 to 31)"),
    E(PROMOTE_SHIFT, "int32", "-1", "shift count -1 is out of range for int32 (0 to 31)"),
    E(PROMOTE_SHIFT, "uint8", "8", "shift count 8 is out of range for uint8 (0 to 7)"),
    E(PROMOTE_SHIFT, "float32", "int32", "shifts (<< >>) need integer operands, not float32"),
    E(PROMOTE_SHIFT, "int32", "bool",
      "shifts (<< >>) need integer operands, not bool: cast with tile_cast(x, int32_t)"),
    E(PROMOTE_SHIFT, "bool", "int32", NULL),
    E(PROMOTE_SHIFT, "1.5", "2", NULL),
    /* && || : operands tested on their own */
    {PROMOTE_LOGICAL, "uint8", "int8", "bool", NULL, NULL},
    {PROMOTE_LOGICAL, "float32", "int32", "bool", NULL, NULL},
    {PROMOTE_LOGICAL, "float16", "bfloat16", "bool", NULL, NULL},
    {PROMOTE_LOGICAL, "bool", "bool", "bool", NULL, NULL},
    {PROMOTE_LOGICAL, "3", "0.5", "bool", NULL, NULL},
    {PROMOTE_LOGICAL, "uint8", "-1", "bool", NULL, NULL},
    E(PROMOTE_LOGICAL, "tfloat32", "bool", NULL),
    E(PROMOTE_LOGICAL, "float8_e4m3fn", "float8_e4m3fn", NULL),
    /* ?: and tile_where */
    {PROMOTE_SELECT, "bool", "bool", "bool", NULL, NULL},
    {PROMOTE_SELECT, "int32", "float16", "float16", NULL, NULL},
    {PROMOTE_SELECT, "float16", "0.0", "float16", NULL, NULL},
    {PROMOTE_SELECT, "1", "2", "int_const", NULL, NULL},
    {PROMOTE_SELECT, "bool", "0", "int32", NULL, NULL},
    E(PROMOTE_SELECT, "uint8", "int8", NULL),
    E(PROMOTE_SELECT, "int8", "300", NULL),
    E(PROMOTE_SELECT, "tfloat32", "tfloat32", NULL),
};

static void test_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Case *c = &cases[i];
        Dtype a, b;
        ConstValue va, vb;
        const ConstValue *pa, *pb;
        operand(c->a, &a, &va, &pa);
        operand(c->b, &b, &vb, &pb);
        Promotion p;
        char err[512] = "";
        bool ok = dtype_promote(c->op, a, pa, b, pb, &p, err, sizeof err);
        const char *got = ok ? dtype_name(p.result) : "ERROR";
        CHECK(strcmp(got, c->result) == 0, "case %zu: %s %s %s (%s): got %s (%s), want %s", i,
              c->a, dtype_op_description(c->op), c->b, dtype_op_description(c->op), got, err,
              c->result);
        if (ok) {
            const char *want_op = c->operand ? c->operand : (c->op == PROMOTE_LOGICAL ? "bool"
                                                                                       : c->result);
            CHECK(strcmp(dtype_name(p.operand), want_op) == 0, "case %zu: operand %s, want %s",
                  i, dtype_name(p.operand), want_op);
        } else {
            CHECK(err[0] != '\0', "case %zu: empty message", i);
            CHECK(strchr(err, '\n') == NULL && strncmp(err, "error", 5) != 0,
                  "case %zu: message format '%s'", i, err);
            if (c->msg)
                CHECK_STR(err, c->msg);
        }
    }
}

/* ---- concretization, fits, implicit conversions --------------------- */

static void test_concretize(void)
{
    ConstValue v;
    CHECK_INT(dtype_concretize(DT_INT_CONST, NULL), DT_INT32);
    v = dtype_const_int(0);
    CHECK_INT(dtype_concretize(DT_INT_CONST, &v), DT_INT32);
    v = dtype_const_int(INT32_MAX);
    CHECK_INT(dtype_concretize(DT_INT_CONST, &v), DT_INT32);
    v = dtype_const_int(INT32_MIN);
    CHECK_INT(dtype_concretize(DT_INT_CONST, &v), DT_INT32);
    v = dtype_const_int((int64_t)INT32_MAX + 1);
    CHECK_INT(dtype_concretize(DT_INT_CONST, &v), DT_INT64);
    v = dtype_const_int((int64_t)INT32_MIN - 1);
    CHECK_INT(dtype_concretize(DT_INT_CONST, &v), DT_INT64);
    v = dtype_const_int(INT64_C(1) << 40);
    CHECK_INT(dtype_concretize(DT_INT_CONST, &v), DT_INT64);
    v = dtype_const_int(INT64_MAX);
    CHECK_INT(dtype_concretize(DT_INT_CONST, &v), DT_INT64);
    v = dtype_const_uint(UINT64_C(1) << 63);
    CHECK(v.is_unsigned, "2^63 is_unsigned");
    CHECK_INT(dtype_concretize(DT_INT_CONST, &v), DT_UINT64);
    v = dtype_const_uint(UINT64_MAX);
    CHECK_INT(dtype_concretize(DT_INT_CONST, &v), DT_UINT64);
    v = dtype_const_uint(5);
    CHECK(!v.is_unsigned && v.i == 5, "small uint constant held in i");
    v = dtype_const_float(2.5);
    CHECK_INT(dtype_concretize(DT_FLOAT_CONST, &v), DT_FLOAT32);
    CHECK_INT(dtype_concretize(DT_FLOAT_CONST, NULL), DT_FLOAT32);
    CHECK_INT(dtype_concretize(DT_INT8, NULL), DT_INT8);
    CHECK_INT(dtype_concretize(DT_BFLOAT16, NULL), DT_BFLOAT16);
}

static void test_fits(void)
{
    static const struct {
        int64_t v;
        Dtype t;
        bool fits;
    } t[] = {
        {127, DT_INT8, true},       {128, DT_INT8, false},     {-128, DT_INT8, true},
        {-129, DT_INT8, false},     {255, DT_UINT8, true},     {256, DT_UINT8, false},
        {-1, DT_UINT8, false},      {0, DT_UINT8, true},       {32767, DT_INT16, true},
        {32768, DT_INT16, false},   {65535, DT_UINT16, true},  {65536, DT_UINT16, false},
        {INT32_MAX, DT_INT32, true}, {(int64_t)INT32_MAX + 1, DT_INT32, false},
        {INT32_MIN, DT_INT32, true}, {(int64_t)INT32_MIN - 1, DT_INT32, false},
        {UINT32_MAX, DT_UINT32, true}, {(int64_t)UINT32_MAX + 1, DT_UINT32, false},
        {INT64_MIN, DT_INT64, true}, {INT64_MAX, DT_INT64, true}, {INT64_MAX, DT_UINT64, true},
        {-1, DT_UINT64, false},     {0, DT_BOOL, true},        {1, DT_BOOL, true},
        {2, DT_BOOL, false},        {-1, DT_BOOL, false},      {INT64_MAX, DT_FLOAT16, true},
        {-5, DT_FLOAT8_E4M3FN, true}, {-5, DT_INT_CONST, true}, {-5, DT_FLOAT_CONST, true},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        ConstValue v = dtype_const_int(t[i].v);
        CHECK(dtype_const_fits(&v, t[i].t) == t[i].fits, "%lld in %s: want %d",
              (long long)t[i].v, dtype_name(t[i].t), t[i].fits);
    }
    ConstValue big = dtype_const_uint(UINT64_MAX);
    CHECK(dtype_const_fits(&big, DT_UINT64), "u64 max fits uint64");
    CHECK(!dtype_const_fits(&big, DT_INT64), "u64 max does not fit int64");
    CHECK(dtype_const_fits(&big, DT_FLOAT32), "u64 max fits float32");
    ConstValue f = dtype_const_float(2.0);
    CHECK(!dtype_const_fits(&f, DT_INT32), "2.0 does not fit int32");
    CHECK(!dtype_const_fits(&f, DT_BOOL), "2.0 does not fit bool");
    CHECK(!dtype_const_fits(&f, DT_INT_CONST), "2.0 is not an int constant");
    CHECK(dtype_const_fits(&f, DT_FLOAT16), "2.0 fits float16");
    CHECK(!dtype_const_fits(NULL, DT_INT32), "NULL fits nothing");
}

static void test_implicit(void)
{
    static const struct {
        const char *from, *to;
        bool yes;
    } t[] = {
        {"int8", "int32", true},        {"int32", "int8", false},
        {"float32", "float16", false},  {"float16", "float32", true},
        {"bfloat16", "float32", true},  {"float16", "bfloat16", false},
        {"int32", "float16", true},     {"int64", "bfloat16", true},
        {"bool", "int32", true},        {"bool", "float32", true},
        {"int32", "bool", false},       {"bool", "bool", true},
        {"uint8", "int16", false},      {"uint8", "uint64", true},
        {"float64", "float32", false},  {"tfloat32", "tfloat32", true},
        {"tfloat32", "float32", false}, {"float32", "tfloat32", false},
        {"float8_e4m3fn", "float16", false}, {"5", "float16", true},
        {"300", "int8", false},         {"127", "int8", true},
        {"-1", "uint32", false},        {"1", "bool", false},
        {"1.5", "int32", false},        {"1.5", "float16", true},
        {"1.5", "float64", true},       {"int_const", "int8", true},
        {"int_const", "int_const", true}, {"int32", "int_const", false},
        {"int_const", "float_const", true}, {"float_const", "int_const", false},
        {"float_const", "float_const", true},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        Dtype from, to;
        ConstValue v, w;
        const ConstValue *pv, *pw;
        operand(t[i].from, &from, &v, &pv);
        operand(t[i].to, &to, &w, &pw);
        CHECK(dtype_implicitly_converts(from, pv, to) == t[i].yes, "%s -> %s: want %d",
              t[i].from, t[i].to, t[i].yes);
    }
    CHECK(!dtype_implicitly_converts(DT_INVALID, NULL, DT_INT32), "invalid from");
}

/* ---- properties and spellings -------------------------------------- */

static void test_properties(void)
{
    static const struct {
        Dtype t;
        const char *name;
        int bits;
        DtypeCategory cat;
        bool is_signed, is_int, is_float, loose, restricted;
        const char *cuda, *host, *source;
    } t[] = {
        {DT_BOOL, "bool", 8, DTC_BOOL, false, false, false, false, false, "bool", "bool", "bool"},
        {DT_INT8, "int8", 8, DTC_INT, true, true, false, false, false, "int8_t", "int8_t", "int8_t"},
        {DT_INT16, "int16", 16, DTC_INT, true, true, false, false, false, "int16_t", "int16_t",
         "int16_t"},
        {DT_INT32, "int32", 32, DTC_INT, true, true, false, false, false, "int32_t", "int32_t",
         "int32_t"},
        {DT_INT64, "int64", 64, DTC_INT, true, true, false, false, false, "int64_t", "int64_t",
         "int64_t"},
        {DT_UINT8, "uint8", 8, DTC_INT, false, true, false, false, false, "uint8_t", "uint8_t",
         "uint8_t"},
        {DT_UINT16, "uint16", 16, DTC_INT, false, true, false, false, false, "uint16_t",
         "uint16_t", "uint16_t"},
        {DT_UINT32, "uint32", 32, DTC_INT, false, true, false, false, false, "uint32_t",
         "uint32_t", "uint32_t"},
        {DT_UINT64, "uint64", 64, DTC_INT, false, true, false, false, false, "uint64_t",
         "uint64_t", "uint64_t"},
        {DT_FLOAT16, "float16", 16, DTC_FLOAT, true, false, true, false, false, "__half",
         "uint16_t", "_Float16"},
        {DT_BFLOAT16, "bfloat16", 16, DTC_FLOAT, true, false, true, false, false,
         "__nv_bfloat16", "uint16_t", "__bf16"},
        {DT_FLOAT32, "float32", 32, DTC_FLOAT, true, false, true, false, false, "float", "float",
         "float"},
        {DT_FLOAT64, "float64", 64, DTC_FLOAT, true, false, true, false, false, "double",
         "double", "double"},
        {DT_TFLOAT32, "tfloat32", 32, DTC_FLOAT, true, false, true, false, true, "float", "float",
         "tilec_tf32"},
        {DT_FLOAT8_E4M3FN, "float8_e4m3fn", 8, DTC_FLOAT, true, false, true, false, true,
         "__nv_fp8_e4m3", "uint8_t", "tilec_fp8_e4m3"},
        {DT_FLOAT8_E5M2, "float8_e5m2", 8, DTC_FLOAT, true, false, true, false, true,
         "__nv_fp8_e5m2", "uint8_t", "tilec_fp8_e5m2"},
        {DT_INT_CONST, "int_const", 0, DTC_INT, true, true, false, true, false, NULL, NULL, NULL},
        {DT_FLOAT_CONST, "float_const", 0, DTC_FLOAT, true, false, true, true, false, NULL, NULL,
         NULL},
    };
    CHECK_INT(sizeof t / sizeof t[0], DT_COUNT - 1);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        Dtype d = t[i].t;
        CHECK_STR(dtype_name(d), t[i].name);
        CHECK_INT(dtype_from_name(t[i].name), d);
        CHECK_INT(dtype_bits(d), t[i].bits);
        CHECK_INT(dtype_category(d), t[i].cat);
        CHECK(dtype_is_signed(d) == t[i].is_signed, "%s signed", t[i].name);
        CHECK(dtype_is_int(d) == t[i].is_int, "%s is_int", t[i].name);
        CHECK(dtype_is_float(d) == t[i].is_float, "%s is_float", t[i].name);
        CHECK(dtype_is_loose(d) == t[i].loose, "%s loose", t[i].name);
        CHECK(dtype_is_restricted(d) == t[i].restricted, "%s restricted", t[i].name);
        if (t[i].cuda) {
            CHECK_STR(dtype_cuda_type(d), t[i].cuda);
            CHECK_STR(dtype_host_type(d), t[i].host);
            CHECK_STR(dtype_source_type(d), t[i].source);
        } else {
            CHECK(dtype_cuda_type(d) == NULL && dtype_host_type(d) == NULL &&
                      dtype_source_type(d) == NULL,
                  "%s has no spelling", t[i].name);
        }
    }
    CHECK_INT(dtype_from_name("bool_"), DT_BOOL);
    CHECK_INT(dtype_from_name("float"), DT_INVALID);
    CHECK_INT(dtype_from_name("invalid"), DT_INVALID);
    CHECK_INT(dtype_from_name(""), DT_INVALID);
    CHECK_INT(dtype_from_name(NULL), DT_INVALID);
    CHECK_STR(dtype_name(DT_INVALID), "invalid");
    CHECK_STR(dtype_name(DT_COUNT), "invalid");
    CHECK_INT(dtype_bits(DT_INVALID), 0);
    CHECK(dtype_cuda_type(DT_INVALID) == NULL, "no cuda type for invalid");
}

static void test_c_spellings(void)
{
    static const struct {
        const char *s;
        Dtype t;
    } t[] = {
        {"bool", DT_BOOL},
        {"_Bool", DT_BOOL},
        {"signed char", DT_INT8},
        {"unsigned char", DT_UINT8},
        {"char", DT_INVALID}, /* implementation-defined signedness */
        {"short", DT_INT16},
        {"short int", DT_INT16},
        {"signed short", DT_INT16},
        {"unsigned short", DT_UINT16},
        {"unsigned short int", DT_UINT16},
        {"int", DT_INT32},
        {"signed", DT_INT32},
        {"signed int", DT_INT32},
        {"unsigned", DT_UINT32},
        {"unsigned int", DT_UINT32},
        {"long", DT_INT64},
        {"long int", DT_INT64},
        {"unsigned long", DT_UINT64},
        {"long long", DT_INT64},
        {"long long int", DT_INT64},
        {"unsigned long long", DT_UINT64},
        {"long long unsigned int", DT_UINT64},
        {"int8_t", DT_INT8},
        {"int16_t", DT_INT16},
        {"int32_t", DT_INT32},
        {"int64_t", DT_INT64},
        {"uint8_t", DT_UINT8},
        {"uint16_t", DT_UINT16},
        {"uint32_t", DT_UINT32},
        {"uint64_t", DT_UINT64},
        {"__int32_t", DT_INT32},
        {"__uint64_t", DT_UINT64},
        {"_Float16", DT_FLOAT16},
        {"__bf16", DT_BFLOAT16},
        {"float", DT_FLOAT32},
        {"double", DT_FLOAT64},
        {"tilec_tf32", DT_TFLOAT32},
        {"tilec_fp8_e4m3", DT_FLOAT8_E4M3FN},
        {"tilec_fp8_e5m2", DT_FLOAT8_E5M2},
        {"const float", DT_FLOAT32},
        {"  const  int32_t ", DT_INT32},
        {"volatile unsigned char", DT_UINT8},
        {"long double", DT_INVALID},
        {"size_t", DT_INVALID},
        {"float *", DT_INVALID},
        {"unsigned float", DT_INVALID},
        {"signed unsigned int", DT_INVALID},
        {"long short", DT_INVALID},
        {"long long long", DT_INVALID},
        {"int int", DT_INVALID},
        {"unsigned int32_t", DT_INVALID},
        {"", DT_INVALID},
        {"const", DT_INVALID},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        CHECK(dtype_from_c_spelling(t[i].s) == t[i].t, "'%s': got %s, want %s", t[i].s,
              dtype_name(dtype_from_c_spelling(t[i].s)), dtype_name(t[i].t));
    CHECK_INT(dtype_from_c_spelling(NULL), DT_INVALID);
    /* every source spelling maps back to its dtype */
    for (int d = DT_BOOL; d <= DT_FLOAT8_E5M2; d++)
        CHECK_INT(dtype_from_c_spelling(dtype_source_type((Dtype)d)), d);
}

static void test_misc(void)
{
    char buf[64];
    ConstValue v = dtype_const_int(-42);
    CHECK_STR(dtype_const_format(&v, buf, sizeof buf), "-42");
    v = dtype_const_uint(UINT64_MAX);
    CHECK_STR(dtype_const_format(&v, buf, sizeof buf), "18446744073709551615");
    v = dtype_const_float(1.5);
    CHECK_STR(dtype_const_format(&v, buf, sizeof buf), "1.5");
    CHECK_STR(dtype_op_description(PROMOTE_ARITH), "arithmetic");
    CHECK_STR(dtype_op_description(PROMOTE_SHIFT), "shifts (<< >>)");
    /* NULL out/err are allowed; out is cleared on failure */
    CHECK(dtype_promote(PROMOTE_ARITH, DT_INT8, NULL, DT_INT16, NULL, NULL, NULL, 0), "no out");
    Promotion p = {DT_INT8, DT_INT8};
    CHECK(!dtype_promote(PROMOTE_ARITH, DT_INT8, NULL, DT_UINT8, NULL, &p, NULL, 0), "no err");
    CHECK(p.result == DT_INVALID && p.operand == DT_INVALID, "out cleared on failure");
    char small[8];
    CHECK(!dtype_promote(PROMOTE_ARITH, DT_INT8, NULL, DT_UINT8, NULL, &p, small, sizeof small),
          "small err");
    CHECK_INT(strlen(small), 7);
    CHECK(!dtype_promote(PROMOTE_ARITH, DT_INVALID, NULL, DT_INT8, NULL, &p, buf, sizeof buf),
          "invalid operand");
    CHECK_STR(buf, "invalid operand type");
    CHECK(!dtype_promote((PromoteOp)99, DT_INT8, NULL, DT_INT8, NULL, &p, buf, sizeof buf),
          "invalid op");
}

/* ---- tilec promote ------------------------------------------------- */

static int run_promote(int argc, const char *const *argv, char *out, char *err, size_t n)
{
    FILE *fo = tmpfile(), *fe = tmpfile();
    if (!fo || !fe) {
        fprintf(stderr, "tmpfile failed\n");
        exit(1);
    }
    int rc = types_cli_promote(argc, (char **)argv, fo, fe);
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
        const char *out, *err; /* err: a prefix */
    } t[] = {
        {{"promote", "int32", "float16"}, 0, "float16\n", ""},
        {{"promote", "int16", "1.5"}, 0, "float32\n", ""},
        {{"promote", "bool", "3"}, 0, "int32\n", ""},
        {{"promote", "bool_", "bool", "=="}, 0, "bool\n", ""},
        {{"promote", "bool", "bool", "&"}, 0, "bool\n", ""},
        {{"promote", "bool", "bool", "?:"}, 0, "bool\n", ""},
        {{"promote", "int32", "int32", "truediv"}, 0, "float32\n", ""},
        {{"promote", "int64", "int32", "tile_truediv"}, 0, "float64\n", ""},
        {{"promote", "uint32", "int32", ">>"}, 0, "uint32\n", ""},
        {{"promote", "uint8", "int8", "&&"}, 0, "bool\n", ""},
        {{"promote", "int8", "int16", "max"}, 0, "int16\n", ""},
        {{"promote", "1099511627776", "bool"}, 0, "int64\n", ""},
        {{"promote", "18446744073709551615", "uint64"}, 0, "uint64\n", ""},
        {{"promote", "0x10", "int8", "%"}, 0, "int8\n", ""},
        {{"promote", "int_const", "float_const"}, 0, "float_const\n", ""},
        {{"promote", "int8", "300"}, 1, "",
         "error: integer constant 300 does not fit int8: cast the other operand to a wider "
         "type, e.g. tile_cast(x, int16_t)\n"},
        {{"promote", "-1", "uint8"}, 1, "", "error: integer constant -1 does not fit uint8"},
        {{"promote", "int8", "uint8", "+"}, 1, "",
         "error: cannot mix signed and unsigned integers (int8 and uint8)"},
        {{"promote", "float32", "int32", "|"}, 1, "", "error: bitwise operators"},
        {{"promote", "int32", "32", "<<"}, 1, "", "error: shift count 32 is out of range"},
        {{"promote", "float16", "bfloat16"}, 1, "", "error: cannot mix float16 and bfloat16"},
        {{"promote", "tfloat32", "tfloat32"}, 1, "", "error: arithmetic on tfloat32"},
        {{"promote", "int8"}, 2, "", "usage: tilec promote"},
        {{"promote"}, 2, "", "usage: tilec promote"},
        {{"promote", "int8", "int8", "+", "x"}, 2, "", "usage: tilec promote"},
        {{"promote", "int9", "int8"}, 2, "", "tilec promote: unknown type 'int9'"},
        {{"promote", "int8", ""}, 2, "", "tilec promote: unknown type ''"},
        {{"promote", "99999999999999999999", "int8"}, 2, "", "tilec promote: unknown type"},
        {{"promote", "-9999999999999999999", "int8"}, 2, "", "tilec promote: unknown type"},
        {{"promote", "int8", "int8", "@"}, 2, "", "tilec promote: unknown operator '@'"},
        {{"promote", "--help"}, 0, NULL, ""},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int argc = 0;
        while (argc < 5 && t[i].argv[argc])
            argc++;
        char out[2048], err[2048];
        int rc = run_promote(argc, t[i].argv, out, err, sizeof out);
        CHECK(rc == t[i].rc, "cli case %zu: rc %d, want %d (err %s)", i, rc, t[i].rc, err);
        if (t[i].out)
            CHECK_STR(out, t[i].out);
        else
            CHECK(strstr(out, "usage: tilec promote") == out, "cli case %zu: help '%s'", i, out);
        CHECK(strncmp(err, t[i].err, strlen(t[i].err)) == 0, "cli case %zu: err '%s', want '%s'",
              i, err, t[i].err);
    }
}

int main(void)
{
    test_arith_matrix();
    test_cases();
    test_concretize();
    test_fits();
    test_implicit();
    test_properties();
    test_c_spellings();
    test_misc();
    test_cli();
    return check_done("dtype");
}
