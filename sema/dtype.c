/* dtype.c: the element types of Tile C, their spellings, and cuTile's
 * promotion rules (loosely typed constants, bool < integer < float
 * categories, no signed/unsigned mixing, no implicit tf32/float8), with one
 * result rule per operator class.  docs/types.md is the user-facing account.
 * The names and widths come from the dtype list shared with the runtime
 * (TILEC_DTYPE_LIST, runtime/tilec_dtypes.h); static assertions tie each
 * DT_X to the runtime's TILEC_X. */
#include "sema/dtype.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tilec_rt.h" /* TILEC_X, for the static assertions */

/* The rows both sides share: name and storage width come from
 * TILEC_DTYPE_LIST, followed by the compiler's loose constant kinds. */
typedef struct DtypeRow {
    const char *name;
    int bits;
} DtypeRow;

#define DTYPE_ROW_(suffix, nm, b) [DT_##suffix] = {nm, b},
static const DtypeRow dtype_row_[DT_COUNT] = {
    [DT_INVALID] = {"invalid", 0},
    TILEC_DTYPE_LIST(DTYPE_ROW_)
    [DT_INT_CONST] = {"int_const", 0},
    [DT_FLOAT_CONST] = {"float_const", 0},
};
#undef DTYPE_ROW_

/* DT_X and the runtime's TILEC_X are the same number (generated launchers
 * pass emit_dtype_enum(DT_X) where the runtime expects TILEC_X), and the
 * compiler-only kinds come right after the listed types.  Both enums are
 * generated from the list, so these hold by construction; they fail the
 * build when one enum stops following it (an enumerator written into Dtype
 * by hand, a row spliced into one enum only, a changed TILEC_DTYPE_COUNT). */
#define DTYPE_SAME_(suffix, nm, b)                                                          \
    _Static_assert((int)DT_##suffix == (int)TILEC_##suffix, "DT_" #suffix " != TILEC_" #suffix);
TILEC_DTYPE_LIST(DTYPE_SAME_)
#undef DTYPE_SAME_
_Static_assert((int)DT_INVALID == (int)TILEC_DTYPE_INVALID, "DT_INVALID != TILEC_DTYPE_INVALID");
_Static_assert(DT_INT_CONST == TILEC_DTYPE_COUNT, "the listed dtypes end where DT_INT_CONST begins");
_Static_assert(DT_COUNT == TILEC_DTYPE_COUNT + 2, "DT_INT_CONST and DT_FLOAT_CONST end Dtype");

/* The compiler's own columns: category, signedness and the spellings. */
typedef struct DtypeInfo {
    DtypeCategory cat;
    bool is_signed;
    const char *cuda;
    const char *host;
    const char *source;
} DtypeInfo;

static const DtypeInfo dtype_info_[DT_COUNT] = {
    [DT_INVALID] = {DTC_BOOL, false, NULL, NULL, NULL},
    [DT_BOOL] = {DTC_BOOL, false, "bool", "bool", "bool"},
    [DT_INT8] = {DTC_INT, true, "int8_t", "int8_t", "int8_t"},
    [DT_INT16] = {DTC_INT, true, "int16_t", "int16_t", "int16_t"},
    [DT_INT32] = {DTC_INT, true, "int32_t", "int32_t", "int32_t"},
    [DT_INT64] = {DTC_INT, true, "int64_t", "int64_t", "int64_t"},
    [DT_UINT8] = {DTC_INT, false, "uint8_t", "uint8_t", "uint8_t"},
    [DT_UINT16] = {DTC_INT, false, "uint16_t", "uint16_t", "uint16_t"},
    [DT_UINT32] = {DTC_INT, false, "uint32_t", "uint32_t", "uint32_t"},
    [DT_UINT64] = {DTC_INT, false, "uint64_t", "uint64_t", "uint64_t"},
    [DT_FLOAT16] = {DTC_FLOAT, true, "__half", "uint16_t", "_Float16"},
    [DT_BFLOAT16] = {DTC_FLOAT, true, "__nv_bfloat16", "uint16_t", "__bf16"},
    [DT_FLOAT32] = {DTC_FLOAT, true, "float", "float", "float"},
    [DT_FLOAT64] = {DTC_FLOAT, true, "double", "double", "double"},
    [DT_TFLOAT32] = {DTC_FLOAT, true, "float", "float", "tilec_tf32"},
    [DT_FLOAT8_E4M3FN] = {DTC_FLOAT, true, "__nv_fp8_e4m3", "uint8_t", "tilec_fp8_e4m3"},
    [DT_FLOAT8_E5M2] = {DTC_FLOAT, true, "__nv_fp8_e5m2", "uint8_t", "tilec_fp8_e5m2"},
    [DT_INT_CONST] = {DTC_INT, true, NULL, NULL, NULL},
    [DT_FLOAT_CONST] = {DTC_FLOAT, true, NULL, NULL, NULL},
};

static bool dtype_valid_(Dtype t) { return t > DT_INVALID && t < DT_COUNT; }

const char *dtype_name(Dtype t)
{
    return dtype_valid_(t) ? dtype_row_[t].name : "invalid";
}

Dtype dtype_from_name(const char *name)
{
    if (!name)
        return DT_INVALID;
    if (strcmp(name, "bool_") == 0)
        return DT_BOOL;
    for (int t = DT_BOOL; t < DT_COUNT; t++)
        if (strcmp(name, dtype_row_[t].name) == 0)
            return (Dtype)t;
    return DT_INVALID;
}

int dtype_bits(Dtype t) { return dtype_valid_(t) ? dtype_row_[t].bits : 0; }
DtypeCategory dtype_category(Dtype t) { return dtype_valid_(t) ? dtype_info_[t].cat : DTC_BOOL; }
bool dtype_is_signed(Dtype t) { return dtype_valid_(t) && dtype_info_[t].is_signed; }
bool dtype_is_loose(Dtype t) { return t == DT_INT_CONST || t == DT_FLOAT_CONST; }
bool dtype_is_int(Dtype t) { return dtype_valid_(t) && dtype_info_[t].cat == DTC_INT; }
bool dtype_is_float(Dtype t) { return dtype_valid_(t) && dtype_info_[t].cat == DTC_FLOAT; }
bool dtype_is_restricted(Dtype t)
{
    return t == DT_TFLOAT32 || t == DT_FLOAT8_E4M3FN || t == DT_FLOAT8_E5M2;
}

const char *dtype_cuda_type(Dtype t) { return dtype_valid_(t) ? dtype_info_[t].cuda : NULL; }
const char *dtype_host_type(Dtype t) { return dtype_valid_(t) ? dtype_info_[t].host : NULL; }
const char *dtype_source_type(Dtype t) { return dtype_valid_(t) ? dtype_info_[t].source : NULL; }

/* ---- C spellings ---------------------------------------------------- */

/* Typedef names that stand for one dtype, as written or as <stdint.h> and
 * glibc spell them on the way to the builtin type. */
static const struct {
    const char *name;
    Dtype t;
} dtype_typedefs_[] = {
    {"int8_t", DT_INT8},       {"int16_t", DT_INT16},     {"int32_t", DT_INT32},
    {"int64_t", DT_INT64},     {"uint8_t", DT_UINT8},     {"uint16_t", DT_UINT16},
    {"uint32_t", DT_UINT32},   {"uint64_t", DT_UINT64},   {"__int8_t", DT_INT8},
    {"__int16_t", DT_INT16},   {"__int32_t", DT_INT32},   {"__int64_t", DT_INT64},
    {"__uint8_t", DT_UINT8},   {"__uint16_t", DT_UINT16}, {"__uint32_t", DT_UINT32},
    {"__uint64_t", DT_UINT64}, {"bool", DT_BOOL},         {"_Bool", DT_BOOL},
    {"float", DT_FLOAT32},     {"_Float32", DT_FLOAT32},  {"_Float64", DT_FLOAT64},
    {"_Float16", DT_FLOAT16},  {"__bf16", DT_BFLOAT16},   {"tilec_tf32", DT_TFLOAT32},
    {"tilec_fp8_e4m3", DT_FLOAT8_E4M3FN},                 {"tilec_fp8_e5m2", DT_FLOAT8_E5M2},
};

/* Builtin integer and floating specifiers, counted the way a C parser does,
 * so that "unsigned long long int" and "long long unsigned" agree. */
typedef struct CSpec {
    int n_signed, n_unsigned, n_short, n_long, n_int, n_char, n_double, n_other_words;
    Dtype named; /* a typedef name or a single-word type (float, bool ...) */
    int n_named;
} CSpec;

static void dtype_spec_word_(CSpec *s, const char *w, size_t len)
{
#define DTYPE_IS_(lit) (len == sizeof(lit) - 1 && memcmp(w, lit, len) == 0)
    if (DTYPE_IS_("const") || DTYPE_IS_("volatile") || DTYPE_IS_("restrict") ||
        DTYPE_IS_("__restrict"))
        return;
    if (DTYPE_IS_("signed") || DTYPE_IS_("__signed__")) {
        s->n_signed++;
        return;
    }
    if (DTYPE_IS_("unsigned")) {
        s->n_unsigned++;
        return;
    }
    if (DTYPE_IS_("short")) {
        s->n_short++;
        return;
    }
    if (DTYPE_IS_("long")) {
        s->n_long++;
        return;
    }
    if (DTYPE_IS_("int")) {
        s->n_int++;
        return;
    }
    if (DTYPE_IS_("char")) {
        s->n_char++;
        return;
    }
    if (DTYPE_IS_("double")) {
        s->n_double++;
        return;
    }
#undef DTYPE_IS_
    for (size_t i = 0; i < sizeof dtype_typedefs_ / sizeof dtype_typedefs_[0]; i++) {
        const char *n = dtype_typedefs_[i].name;
        if (strlen(n) == len && memcmp(n, w, len) == 0) {
            s->named = dtype_typedefs_[i].t;
            s->n_named++;
            return;
        }
    }
    s->n_other_words++;
}

Dtype dtype_from_c_spelling(const char *spelling)
{
    if (!spelling)
        return DT_INVALID;
    CSpec s = {0};
    const char *p = spelling;
    while (*p) {
        if (*p == ' ' || *p == '\t' || *p == '\n') {
            p++;
            continue;
        }
        const char *w = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
        dtype_spec_word_(&s, w, (size_t)(p - w));
    }
    if (s.n_other_words || s.n_named > 1 || (s.n_signed && s.n_unsigned) || s.n_signed > 1 ||
        s.n_unsigned > 1 || s.n_int > 1 || s.n_char > 1 || s.n_short > 1 || s.n_long > 2 ||
        (s.n_short && s.n_long))
        return DT_INVALID;
    int n_builtin = s.n_signed + s.n_unsigned + s.n_short + s.n_long + s.n_int + s.n_char +
                    s.n_double;
    if (s.n_named)
        return n_builtin ? DT_INVALID : s.named;
    if (s.n_double) /* double; long double has no dtype */
        return (n_builtin == 1) ? DT_FLOAT64 : DT_INVALID;
    if (n_builtin == 0)
        return DT_INVALID;
    bool uns = s.n_unsigned > 0;
    if (s.n_char) {
        if (s.n_short || s.n_long || s.n_int)
            return DT_INVALID;
        /* Plain char has implementation-defined signedness: no dtype. */
        if (!s.n_signed && !s.n_unsigned)
            return DT_INVALID;
        return uns ? DT_UINT8 : DT_INT8;
    }
    if (s.n_short)
        return uns ? DT_UINT16 : DT_INT16;
    if (s.n_long) /* LP64: long and long long are both 64-bit */
        return uns ? DT_UINT64 : DT_INT64;
    return uns ? DT_UINT32 : DT_INT32;
}

/* ---- constants ------------------------------------------------------ */

ConstValue dtype_const_int(int64_t i)
{
    ConstValue v = {0};
    v.i = i;
    v.u = (uint64_t)i;
    v.f = (double)i;
    return v;
}

ConstValue dtype_const_uint(uint64_t u)
{
    if (u <= (uint64_t)INT64_MAX)
        return dtype_const_int((int64_t)u);
    ConstValue v = {0};
    v.is_unsigned = true;
    v.u = u;
    v.f = (double)u;
    return v;
}

ConstValue dtype_const_float(double f)
{
    ConstValue v = {0};
    v.is_float = true;
    v.f = f;
    return v;
}

char *dtype_const_format(const ConstValue *v, char *buf, size_t n)
{
    if (!buf || n == 0)
        return buf;
    if (!v)
        snprintf(buf, n, "?");
    else if (v->is_float)
        snprintf(buf, n, "%.17g", v->f);
    else if (v->is_unsigned)
        snprintf(buf, n, "%" PRIu64, v->u);
    else
        snprintf(buf, n, "%" PRId64, v->i);
    return buf;
}

/* Whether integer constant v lies in [lo, hi] (signed) or [0, uhi]. */
static bool dtype_int_fits_(const ConstValue *v, Dtype t)
{
    int bits = dtype_bits(t);
    if (dtype_is_signed(t)) {
        if (v->is_unsigned)
            return false;
        if (bits == 64)
            return true;
        int64_t hi = (INT64_C(1) << (bits - 1)) - 1;
        return v->i >= -hi - 1 && v->i <= hi;
    }
    uint64_t x;
    if (v->is_unsigned)
        x = v->u;
    else if (v->i < 0)
        return false;
    else
        x = (uint64_t)v->i;
    return bits == 64 || x <= (UINT64_C(1) << bits) - 1;
}

bool dtype_const_fits(const ConstValue *v, Dtype t)
{
    if (!v || !dtype_valid_(t))
        return false;
    if (dtype_is_float(t)) /* floats (and the float constant kind) take any value */
        return true;
    if (v->is_float) /* a floating constant never becomes an integer implicitly */
        return false;
    if (t == DT_INT_CONST)
        return true;
    if (t == DT_BOOL)
        return !v->is_unsigned && (v->i == 0 || v->i == 1);
    return dtype_int_fits_(v, t);
}

Dtype dtype_concretize(Dtype t, const ConstValue *v)
{
    if (t == DT_FLOAT_CONST)
        return DT_FLOAT32;
    if (t != DT_INT_CONST)
        return t;
    if (!v || v->is_float)
        return DT_INT32;
    if (v->is_unsigned)
        return DT_UINT64;
    if (v->i >= INT32_MIN && v->i <= INT32_MAX)
        return DT_INT32;
    return DT_INT64;
}

/* ---- promotion ------------------------------------------------------ */

const char *dtype_op_description(PromoteOp op)
{
    switch (op) {
    case PROMOTE_ARITH: return "arithmetic";
    case PROMOTE_DIV: return "division";
    case PROMOTE_TRUEDIV: return "tile_truediv";
    case PROMOTE_MOD: return "remainder (%)";
    case PROMOTE_COMPARE: return "comparison";
    case PROMOTE_BITWISE: return "bitwise operators (& | ^)";
    case PROMOTE_SHIFT: return "shifts (<< >>)";
    case PROMOTE_LOGICAL: return "logical operators (&& ||)";
    case PROMOTE_SELECT: return "selection (?: and tile_where)";
    }
    return "operator";
}

static const Dtype dtype_signed_by_width_[] = {DT_INT8, DT_INT16, DT_INT32, DT_INT64};
static const Dtype dtype_unsigned_by_width_[] = {DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64};

static int dtype_width_index_(int bits)
{
    return bits <= 8 ? 0 : bits <= 16 ? 1 : bits <= 32 ? 2 : 3;
}

/* The signed type to suggest for a signed/unsigned mix: wide enough for both
 * where one exists (int64 for anything with uint64). */
static Dtype dtype_mixed_sign_fix_(Dtype s, Dtype u)
{
    int need = dtype_bits(s);
    if (2 * dtype_bits(u) > need)
        need = 2 * dtype_bits(u);
    return dtype_signed_by_width_[dtype_width_index_(need)];
}

/* The type to suggest when constant v does not fit integer type t: the
 * narrowest wider type of t's signedness that holds v, else a signed one,
 * else uint64. */
static Dtype dtype_const_fix_(const ConstValue *v, Dtype t)
{
    const Dtype *same = dtype_is_signed(t) ? dtype_signed_by_width_ : dtype_unsigned_by_width_;
    for (int i = 0; i < 4; i++)
        if (dtype_bits(same[i]) > dtype_bits(t) && dtype_int_fits_(v, same[i]))
            return same[i];
    for (int i = 0; i < 4; i++)
        if (dtype_bits(dtype_signed_by_width_[i]) > dtype_bits(t) &&
            dtype_int_fits_(v, dtype_signed_by_width_[i]))
            return dtype_signed_by_width_[i];
    return v->is_unsigned ? DT_UINT64 : DT_INT64;
}

static void dtype_err_(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void dtype_err_(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* The common type of a loose constant (kind c, value cv) and a concrete type t. */
static bool dtype_common_loose_(Dtype c, const ConstValue *cv, Dtype t, Dtype *out, char *err,
                                size_t errlen)
{
    DtypeCategory cc = dtype_category(c), tc = dtype_category(t);
    if (cc == tc) {
        if (c == DT_INT_CONST && cv && !dtype_const_fits(cv, t)) {
            char vb[40];
            Dtype fix = dtype_const_fix_(cv, t);
            dtype_err_(err, errlen,
                       "integer constant %s does not fit %s: cast the other operand to a "
                       "wider type, e.g. tile_cast(x, %s)",
                       dtype_const_format(cv, vb, sizeof vb), dtype_name(t),
                       dtype_source_type(fix));
            return false;
        }
        *out = t;
        return true;
    }
    *out = cc > tc ? dtype_concretize(c, cv) : t;
    return true;
}

/* cuTile's common dtype of two operand types, without operator rules.
 * Restricted types are their own common type only with themselves. */
static bool dtype_common_(Dtype a, const ConstValue *ca, Dtype b, const ConstValue *cb,
                          Dtype *out, char *err, size_t errlen)
{
    if (dtype_is_restricted(a) || dtype_is_restricted(b)) {
        if (a == b) {
            *out = a;
            return true;
        }
        Dtype r = dtype_is_restricted(a) ? a : b;
        Dtype o = r == a ? b : a;
        dtype_err_(err, errlen,
                   "cannot combine %s with %s: %s does not promote implicitly; cast with "
                   "tile_cast(x, float)",
                   dtype_name(r), dtype_name(o), dtype_name(r));
        return false;
    }
    bool la = dtype_is_loose(a), lb = dtype_is_loose(b);
    if (la && lb) {
        *out = (a == DT_FLOAT_CONST || b == DT_FLOAT_CONST) ? DT_FLOAT_CONST : DT_INT_CONST;
        return true;
    }
    if (la)
        return dtype_common_loose_(a, ca, b, out, err, errlen);
    if (lb)
        return dtype_common_loose_(b, cb, a, out, err, errlen);
    if (a == b) {
        *out = a;
        return true;
    }
    DtypeCategory ka = dtype_category(a), kb = dtype_category(b);
    if (ka != kb) {
        *out = ka > kb ? a : b;
        return true;
    }
    if (ka == DTC_INT) {
        if (dtype_is_signed(a) != dtype_is_signed(b)) {
            Dtype s = dtype_is_signed(a) ? a : b, u = s == a ? b : a;
            dtype_err_(err, errlen,
                       "cannot mix signed and unsigned integers (%s and %s): cast one "
                       "operand, e.g. tile_cast(x, %s)",
                       dtype_name(a), dtype_name(b),
                       dtype_source_type(dtype_mixed_sign_fix_(s, u)));
            return false;
        }
        *out = dtype_bits(a) >= dtype_bits(b) ? a : b;
        return true;
    }
    /* both float (float16, bfloat16, float32, float64) */
    if ((a == DT_FLOAT16 && b == DT_BFLOAT16) || (a == DT_BFLOAT16 && b == DT_FLOAT16)) {
        dtype_err_(err, errlen,
                   "cannot mix %s and %s: cast one operand, e.g. tile_cast(x, float)",
                   dtype_name(a), dtype_name(b));
        return false;
    }
    *out = dtype_bits(a) >= dtype_bits(b) ? a : b;
    return true;
}

static bool dtype_is_int_zero_(Dtype t, const ConstValue *v)
{
    return t == DT_INT_CONST && v && !v->is_float && !v->is_unsigned && v->i == 0;
}

bool dtype_promote(PromoteOp op, Dtype a, const ConstValue *ca, Dtype b, const ConstValue *cb,
                   Promotion *out, char *err, size_t errlen)
{
    Promotion res = {DT_INVALID, DT_INVALID};
    if (out)
        *out = res;
    if (err && errlen)
        err[0] = '\0';
    if (!dtype_valid_(a) || !dtype_valid_(b)) {
        dtype_err_(err, errlen, "invalid operand type");
        return false;
    }
    if ((unsigned)op > (unsigned)PROMOTE_SELECT) {
        dtype_err_(err, errlen, "invalid operator class");
        return false;
    }
    const char *what = dtype_op_description(op);

    /* tfloat32 and float8: only tile_cast and tile_mma accept them. */
    if (dtype_is_restricted(a) || dtype_is_restricted(b)) {
        Dtype r = dtype_is_restricted(a) ? a : b;
        if (a == b)
            dtype_err_(err, errlen,
                       "%s on %s operands is not supported: only tile_cast and tile_mma "
                       "accept %s; cast with tile_cast(x, float)",
                       what, dtype_name(r), dtype_name(r));
        else
            dtype_common_(a, ca, b, cb, &res.result, err, errlen);
        return false;
    }

    Dtype common = DT_INVALID;
    switch (op) {
    case PROMOTE_LOGICAL:
        /* Each operand is tested against zero on its own: no common type. */
        res.operand = DT_BOOL;
        res.result = DT_BOOL;
        break;

    case PROMOTE_SHIFT: {
        if (dtype_category(a) != DTC_INT || dtype_category(b) != DTC_INT) {
            Dtype bad = dtype_category(a) != DTC_INT ? a : b;
            dtype_err_(err, errlen, "shifts (<< >>) need integer operands, not %s%s",
                       dtype_name(bad),
                       bad == DT_BOOL ? ": cast with tile_cast(x, int32_t)" : "");
            return false;
        }
        if (dtype_is_loose(a) && dtype_is_loose(b))
            res.result = DT_INT_CONST;
        else
            res.result = dtype_concretize(a, ca);
        res.operand = res.result;
        if (!dtype_is_loose(res.result) && b == DT_INT_CONST && cb && !cb->is_float) {
            int bits = dtype_bits(res.result);
            if (cb->is_unsigned || cb->i < 0 || cb->i >= bits) {
                char vb[40];
                dtype_err_(err, errlen, "shift count %s is out of range for %s (0 to %d)",
                           dtype_const_format(cb, vb, sizeof vb), dtype_name(res.result),
                           bits - 1);
                return false;
            }
        }
        break;
    }

    case PROMOTE_BITWISE:
        if (dtype_category(a) == DTC_FLOAT || dtype_category(b) == DTC_FLOAT) {
            Dtype bad = dtype_category(a) == DTC_FLOAT ? a : b;
            dtype_err_(err, errlen,
                       "bitwise operators (& | ^) need bool or integer operands, not %s: "
                       "cast with tile_cast(x, int32_t) if an integer was meant",
                       dtype_name(bad));
            return false;
        }
        if (!dtype_common_(a, ca, b, cb, &common, err, errlen))
            return false;
        res.operand = res.result = common;
        break;

    case PROMOTE_ARITH:
    case PROMOTE_DIV:
    case PROMOTE_MOD:
    case PROMOTE_TRUEDIV:
    case PROMOTE_COMPARE:
    case PROMOTE_SELECT:
        if (!dtype_common_(a, ca, b, cb, &common, err, errlen))
            return false;
        res.operand = res.result = common;
        if (op == PROMOTE_COMPARE) {
            res.result = DT_BOOL;
        } else if (op == PROMOTE_TRUEDIV) {
            if (common == DT_INT_CONST)
                res.result = DT_FLOAT_CONST;
            else if (dtype_category(common) != DTC_FLOAT)
                res.result = dtype_bits(common) == 64 ? DT_FLOAT64 : DT_FLOAT32;
            res.operand = res.result;
        } else if (op != PROMOTE_SELECT && common == DT_BOOL) {
            dtype_err_(err, errlen,
                       "%s on bool operands is not supported: cast one operand, e.g. "
                       "tile_cast(x, int32_t)",
                       what);
            return false;
        }
        if ((op == PROMOTE_DIV || op == PROMOTE_MOD) && dtype_category(common) == DTC_INT &&
            dtype_is_int_zero_(b, cb)) {
            dtype_err_(err, errlen, "integer %s by constant zero",
                       op == PROMOTE_DIV ? "division" : "remainder");
            return false;
        }
        break;
    }
    if (out)
        *out = res;
    return true;
}

bool dtype_implicitly_converts(Dtype from, const ConstValue *v, Dtype to)
{
    if (!dtype_valid_(from) || !dtype_valid_(to))
        return false;
    if (from == to)
        return true;
    if (dtype_is_restricted(from) || dtype_is_restricted(to))
        return false;
    Dtype common;
    if (!dtype_common_(from, v, to, NULL, &common, NULL, 0))
        return false;
    return common == to;
}
