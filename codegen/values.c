/* values.c: element values in generated code: the storage type of each
 * dtype, loads and stores of narrow floats (float16, bfloat16, float8 are
 * computed in float), rounding back to a narrow type, literals, and
 * conversions between dtypes (tile_cast's rounding modes and saturation). */
#include "codegen/lower.h"

/* ---- types ------------------------------------------------------------- */

const char *emit_storage_type(Dtype d)
{
    return dtype_host_type(d);
}

static bool is_narrow_float(Dtype d)
{
    return d == DT_FLOAT16 || d == DT_BFLOAT16 || d == DT_FLOAT8_E4M3FN || d == DT_FLOAT8_E5M2;
}

static const char *narrow_suffix(Dtype d)
{
    switch (d) {
    case DT_FLOAT16: return "f16";
    case DT_BFLOAT16: return "bf16";
    case DT_FLOAT8_E4M3FN: return "e4m3";
    case DT_FLOAT8_E5M2: return "e5m2";
    default: return NULL;
    }
}

/* storage -> compute */
char *val_ld(Emitter *em, Dtype d, const char *v)
{
    if (is_narrow_float(d)) return S("tilec_ld_%s(%s)", narrow_suffix(d), v);
    return S("%s", v);
}

/* If v is exactly head ("tilec_ld_bf16(", say) then X and ")", returns X,
 * else NULL.  The whole of v must be that one call: the parenthesis opened
 * after the name has to close at v's last character. */
static char *unwrap_call(Emitter *em, const char *head, const char *v)
{
    size_t h = strlen(head), n = strlen(v);
    if (n <= h || strncmp(v, head, h) != 0 || v[n - 1] != ')') return NULL;
    int depth = 1;
    for (size_t i = h; i < n; i++) {
        if (v[i] == '(') depth++;
        else if (v[i] == ')' && --depth == 0) return i == n - 1 ? S("%.*s", (int)(n - 1 - h), v + h) : NULL;
    }
    return NULL;
}

/* compute -> storage (round to nearest even).  The storage of a value
 * already rounded to float16 or bfloat16 (tilec_rnd_*, a cast) rounds the
 * unrounded value instead: the same bits (rounding to nearest twice in the
 * same format is rounding once), two conversions fewer per element. */
char *val_st(Emitter *em, Dtype d, const char *v)
{
    if (!is_narrow_float(d)) return S("%s", v);
    const char *sfx = narrow_suffix(d);
    char *raw = d == DT_FLOAT16 || d == DT_BFLOAT16 ? unwrap_call(em, S("tilec_rnd_%s(", sfx), v) : NULL;
    return S("tilec_st_%s(%s)", sfx, raw ? raw : v);
}

/* val_st() of value's evaluation v, for an assignment.  A value of d's own
 * format that is only moved (a variable, a load or gather, a shape
 * operation: its evaluation is the widening of one stored element) is
 * copied as it is stored: converting it to float and back would cost
 * registers and make the thread wait for a load right there (a prefetched
 * tile, `_Float16 next = tile_load(...)`, would no longer be in flight),
 * and C's assignment of a value to its own type keeps its bits.  Casts
 * keep their conversion (a cast to a narrow format makes NaNs canonical). */
char *val_st_assign(Emitter *em, Dtype d, const Expr *value, const char *v)
{
    bool cast = value->kind == EX_CAST || (value->kind == EX_BUILTIN && value->bi == BI_CAST);
    if (!cast && value->dtype == d && is_narrow_float(d)) {
        char *raw = unwrap_call(em, S("tilec_ld_%s(", narrow_suffix(d)), v);
        if (raw) return raw;
    }
    return val_st(em, d, v);
}

/* Rounds a float result of an operation to d's precision. */
char *val_round(Emitter *em, Dtype d, const char *v)
{
    if (d == DT_FLOAT16) return S("tilec_rnd_f16(%s)", v);
    if (d == DT_BFLOAT16) return S("tilec_rnd_bf16(%s)", v);
    if (d == DT_FLOAT8_E4M3FN || d == DT_FLOAT8_E5M2) return S("tilec_ld_%s(tilec_st_%s(%s))", narrow_suffix(d), narrow_suffix(d), v);
    return S("%s", v);
}

const char *val_utype(Dtype d)
{
    return dtype_bits(d) > 32 ? "uint64_t" : "uint32_t";
}

/* ---- literals ---------------------------------------------------------- */

static char *float_lit(Emitter *em, double v, bool dbl)
{
    if (v != v) return S(dbl ? "(double)NAN" : "NAN");
    if (v == 1.0 / 0.0) return S(dbl ? "(double)INFINITY" : "INFINITY");
    if (v == -1.0 / 0.0) return S(dbl ? "(-(double)INFINITY)" : "(-INFINITY)");
    char buf[64];
    /* The ".0" keeps a literal like -0.0 a float: "-0" would be integer 0. */
    snprintf(buf, sizeof buf, dbl ? "%.17g" : "%.9g", dbl ? v : (double)(float)v);
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    if (dbl) return S("%s", buf);
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    return S("%sf", buf);
}

static double cval_double(const ConstValue *c)
{
    if (c->is_float) return c->f;
    if (c->is_unsigned) return (double)c->u;
    return (double)c->i;
}

/* A constant as a compute value of dtype d, rounded at compile time. */
char *val_lit(Emitter *em, const ConstValue *c, Dtype d)
{
    double v = cval_double(c);
    switch (d) {
    case DT_BOOL: return S("%s", v != 0 ? "true" : "false");
    case DT_FLOAT64: return float_lit(em, v, true);
    case DT_FLOAT32: case DT_FLOAT_CONST: return float_lit(em, (float)v, false);
    case DT_FLOAT16: return float_lit(em, tilec_f16_to_double(tilec_f16_from_double(v, TILEC_RN)), false);
    case DT_BFLOAT16: return float_lit(em, tilec_bf16_to_double(tilec_bf16_from_double(v, TILEC_RN)), false);
    case DT_TFLOAT32: return float_lit(em, tilec_tf32_round((float)v), false);
    case DT_FLOAT8_E4M3FN: return float_lit(em, tilec_e4m3_to_double(tilec_e4m3_from_double(v, TILEC_RN, 1)), false);
    case DT_FLOAT8_E5M2: /* finite constants saturate; e5m2 has infinities of its own */
        return float_lit(em, tilec_e5m2_to_double(tilec_e5m2_from_double(v, TILEC_RN, v - v == 0)), false);
    case DT_INT_CONST: d = DT_INT64; /* fallthrough */
    default:
        if (c->is_float) return S("((%s)%.17g)", dtype_host_type(d), v);
        if (c->is_unsigned || (d >= DT_UINT8 && d <= DT_UINT64))
            return S("((%s)UINT64_C(%" PRIu64 "))", dtype_host_type(d), c->is_unsigned ? c->u : (uint64_t)c->i);
        if (c->i == INT64_MIN) return S("((%s)INT64_MIN)", dtype_host_type(d));
        return S("((%s)INT64_C(%" PRId64 "))", dtype_host_type(d), c->i);
    }
}

/* ---- conversions between compute values -------------------------------- */

static int tilec_mode(int64_t tile_mode)
{
    switch (tile_mode) {
    case 2: case 7: return TILEC_RZ;
    case 3: return TILEC_RM;
    case 4: return TILEC_RP;
    default: return TILEC_RN;
    }
}

/* Implicit conversion (promotion) of compute value v from `from` to `to`. */
char *val_conv(Emitter *em, const char *v, Dtype from, Dtype to)
{
    if (from == to) return S("%s", v);
    if (to == DT_BOOL) return S("((%s) != 0)", v);
    if (dtype_is_int(to)) return S("((%s)(%s))", dtype_host_type(to), v);
    /* to a float type */
    if (dtype_is_float(from) || from == DT_FLOAT_CONST) {
        if (to == DT_FLOAT64) return S("((double)(%s))", v);
        return val_round(em, to, v); /* float -> narrower float only via explicit casts */
    }
    if (to == DT_FLOAT64) return S("((double)(%s))", v);
    if (to == DT_BFLOAT16) return S("tilec_ld_bf16(tilec_bf16_from_double((double)(%s), TILEC_RN))", v);
    return val_round(em, to, S("((float)(%s))", v));
}

/* Explicit cast with an optional rounding mode (0 = default). */
char *val_cast(Emitter *em, const char *v, Dtype from, Dtype to, int64_t mode, bool sat)
{
    if (from == DT_INT_CONST) from = DT_INT64;
    if (from == DT_FLOAT_CONST) from = DT_FLOAT64;
    if (from == to && mode == 0) return S("%s", v);
    int m = tilec_mode(mode);
    if (to == DT_BOOL) return S("((%s) != 0)", v);
    bool ffrom = dtype_is_float(from);
    if (dtype_is_int(to)) {
        if (!ffrom) return S("((%s)(%s))", dtype_host_type(to), v);
        int mm = mode == 0 ? TILEC_RZ : m;
        if (dtype_is_signed(to))
            return S("((%s)tilec_cvt_float_to_int((double)(%s), %d, %d, %d))", dtype_host_type(to), v, mm,
                     dtype_bits(to), from == DT_FLOAT64 ? 64 : 32);
        return S("((%s)tilec_cvt_float_to_uint((double)(%s), %d, %d, %d))", dtype_host_type(to), v, mm,
                 dtype_bits(to), from == DT_FLOAT64 ? 64 : 32);
    }
    /* to a float type */
    if (mode == 7) { /* RZI: round to an integral value toward zero, then convert */
        v = S("%s(%s)", from == DT_FLOAT64 ? "trunc" : "truncf", v);
        mode = 0;
        m = TILEC_RN;
    }
    const char *sig = dtype_is_signed(from) || from == DT_BOOL ? "i64" : "u64";
    const char *icast = dtype_is_signed(from) || from == DT_BOOL ? "int64_t" : "uint64_t";
    switch (to) {
    case DT_FLOAT64:
        if (ffrom) return S("((double)(%s))", v);
        return S("tilec_f64_from_%s((%s)(%s), %d)", sig, icast, v, m);
    case DT_FLOAT32:
        if (ffrom) return from == DT_FLOAT64 ? S("tilec_f32_from_double(%s, %d)", v, m) : S("%s", v);
        return S("tilec_f32_from_%s((%s)(%s), %d)", sig, icast, v, m);
    case DT_TFLOAT32:
        if (ffrom && from != DT_FLOAT64 && mode == 0) return S("tilec_st_tf32(%s)", v);
        if (ffrom) return S("tilec_tf32_from_float(%s, %d)",
                            from == DT_FLOAT64 ? S("tilec_f32_from_double(%s, %d)", v, m) : v,
                            mode == 0 ? TILEC_RNA : m);
        return S("tilec_tf32_from_float(tilec_f32_from_%s((%s)(%s), %d), %d)", sig, icast, v, m, mode == 0 ? TILEC_RNA : m);
    case DT_FLOAT16:
    case DT_BFLOAT16: {
        const char *sx = narrow_suffix(to);
        if (ffrom && from != DT_FLOAT64 && mode == 0) return val_round(em, to, v);
        if (ffrom) return S("tilec_ld_%s(tilec_%s_from_double((double)(%s), %d))", sx, sx, v, m);
        return S("tilec_ld_%s(tilec_%s_from_%s((%s)(%s), %d))", sx, sx, sig, icast, v, m);
    }
    case DT_FLOAT8_E4M3FN:
    case DT_FLOAT8_E5M2: {
        const char *sx = narrow_suffix(to);
        if (ffrom) return S("tilec_ld_%s(tilec_%s_from_double((double)(%s), %d, %d))", sx, sx, v, m, sat);
        /* Every uint64 above INT64_MAX overflows float8 exactly as INT64_MAX
         * does (in every mode), so clamping keeps one integer path. */
        if (from == DT_UINT64)
            v = S("((uint64_t)(%s) > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(%s))", v, v);
        return S("tilec_ld_%s(tilec_%s_from_i64((int64_t)(%s), %d, %d))", sx, sx, v, m, sat);
    }
    default:
        break;
    }
    em->ok = false;
    return S("0");
}
