/* simt_narrow.c: float16 (_Float16) and bfloat16 (__bf16) in SIMT code, on
 * both targets.  The source is typed as clang types it (the usual arithmetic
 * conversions: _Float16 op _Float16 is a _Float16, _Float16 op float a
 * float), and every operation of a narrow type rounds to that type, as
 * CUDA's __half and __nv_bfloat16 operators do: on the GPU through CUDA's
 * intrinsics (__hadd_rn, __hlt, __float2half_rn ...); on the host each
 * operation is computed in float and rounded once to the narrow type, which
 * gives the correctly rounded result for + - * / (float has at least 2p + 2
 * bits, p = 11 or 8), with host values held as tilec_simt_f16 and
 * tilec_simt_bf16 structs of their bits (runtime/tilec_simt.h) so that no C
 * operator applies to them by mistake.  Clang's excess precision on x86
 * (_Float16 arithmetic in float, rounded only at assignments) is not
 * followed: both targets round each operation, as the GPU does.
 *
 * frontend/simt.c made every conversion to or from a narrow float an
 * explicit cast and every narrow condition a (bool) cast, so this file only
 * prints: casts, literals, arithmetic, comparisons, negation, and compound
 * assignments and ++/-- through helpers (one per operator and types,
 * defined before the file's SIMT functions) that evaluate their lvalue once,
 * through its address. */
#include <stdlib.h>
#include <string.h>

#include "codegen/simt_emit.h"
#include "tilec_fp.h" /* constants' bits */

/* An operand: a node, or C text (the helpers' parameters). */
typedef struct Opd {
    const SimtNode *n;
    const char *s;
} Opd;

static Opd node_opd(const SimtNode *n) { return (Opd){n, NULL}; }
static Opd text_opd(const char *s) { return (Opd){NULL, s}; }

static void opd(SimtEmit *e, Opd x)
{
    if (x.n) simt_emit_expr(e, x.n);
    else fputs(x.s, e->o);
}

const char *simt_ctype(bool cuda, SimtType t)
{
    if (t == SIMT_HALF) return cuda ? "__half" : "tilec_simt_f16";
    if (t == SIMT_BF16) return cuda ? "__nv_bfloat16" : "tilec_simt_bf16";
    return simt_type_name(t);
}

const char *simt_param_ctype(bool cuda, Dtype d)
{
    SimtType t = simt_type_of_dtype(d);
    return simt_type_is_narrow(t) ? simt_ctype(cuda, t) : dtype_host_type(d);
}

static bool is_unsigned(SimtType t)
{
    return t == SIMT_UCHAR || t == SIMT_USHORT || t == SIMT_UINT || t == SIMT_ULONG || t == SIMT_ULLONG;
}

/* The conversions' function names: narrow -> float, float -> narrow ... */
typedef enum Fn { TO_F32, FROM_F32, FROM_F64, FROM_I64, FROM_U64, FROM_BITS } Fn;

static const char *fn(bool cuda, SimtType t, Fn f)
{
    static const char *const gpu[2][6] = {
        {"__half2float", "__float2half_rn", "__double2half", "__ll2half_rn", "__ull2half_rn", "__ushort_as_half"},
        {"__bfloat162float", "__float2bfloat16_rn", "__double2bfloat16", "__ll2bfloat16_rn", "__ull2bfloat16_rn",
         "__ushort_as_bfloat16"},
    };
    static const char *const host[2][6] = {
        {"tilec_simt_f16_to_f32", "tilec_simt_f16_from_f32", "tilec_simt_f16_from_f64", "tilec_simt_f16_from_i64",
         "tilec_simt_f16_from_u64", "tilec_simt_f16_bits"},
        {"tilec_simt_bf16_to_f32", "tilec_simt_bf16_from_f32", "tilec_simt_bf16_from_f64", "tilec_simt_bf16_from_i64",
         "tilec_simt_bf16_from_u64", "tilec_simt_bf16_bits"},
    };
    return (cuda ? gpu : host)[t == SIMT_BF16][f];
}

/* The bits of constant n (an integer or floating literal, maybe negated)
 * rounded to narrow type t, as the conversion would round it at run time;
 * false if n is not a constant. */
static bool const_bits(const SimtNode *n, SimtType t, unsigned *bits)
{
    bool neg = false;
    while (n->kind == SX_UNARY && (!strcmp(n->text, "-") || !strcmp(n->text, "+"))) {
        neg ^= n->text[0] == '-';
        n = n->a;
    }
    if (n->kind != SX_INT && n->kind != SX_FLOAT) return false;
    if (simt_type_is_narrow(n->type)) return false;
    const char *p = n->text + (n->text[0] == '(');
    bool f16 = t == SIMT_HALF;
    if (strchr(p, ' ')) return false; /* "(-2147483647 - 1)" */
    if (n->kind == SX_FLOAT) { /* the text round-trips to the float or double value, exact in a double */
        double v = n->type == SIMT_FLOAT ? (double)strtof(p, NULL) : strtod(p, NULL);
        *bits = f16 ? tilec_f16_from_double(neg ? -v : v, TILEC_RN) : tilec_bf16_from_double(neg ? -v : v, TILEC_RN);
    } else if (*p == '-' || n->type == SIMT_INT || n->type == SIMT_LONG || n->type == SIMT_LLONG) {
        int64_t v = strtoll(p, NULL, 10);
        v = neg ? -v : v; /* not INT64_MIN, which has a space */
        *bits = f16 ? tilec_f16_from_i64(v, TILEC_RN) : tilec_bf16_from_i64(v, TILEC_RN);
    } else {
        if (neg) return false; /* -1u: an unsigned wrap, at run time */
        uint64_t v = strtoull(p, NULL, 10);
        *bits = f16 ? tilec_f16_from_u64(v, TILEC_RN) : tilec_bf16_from_u64(v, TILEC_RN);
    }
    return true;
}

/* x (of type from) converted to `to`, as C converts: a narrow float widens
 * to float exactly and goes on from there (to an integer: C's truncation,
 * to the other narrow type: one rounding); into a narrow float, every type
 * rounds once, to nearest even. */
static void conv(SimtEmit *e, SimtType from, SimtType to, Opd x)
{
    FILE *o = e->o;
    if (from == to) {
        fputc('(', o);
        opd(e, x);
        fputc(')', o);
        return;
    }
    if (simt_type_is_narrow(from)) {
        if (to == SIMT_FLOAT) fprintf(o, "%s(", fn(e->cuda, from, TO_F32));
        else if (simt_type_is_narrow(to)) fprintf(o, "%s(%s(", fn(e->cuda, to, FROM_F32), fn(e->cuda, from, TO_F32));
        else fprintf(o, "((%s)%s(", simt_ctype(e->cuda, to), fn(e->cuda, from, TO_F32));
        opd(e, x);
        fputs(to == SIMT_FLOAT ? ")" : "))", o);
        return;
    }
    if (!simt_type_is_narrow(to)) { /* C's cast */
        fprintf(o, "((%s)(", simt_ctype(e->cuda, to));
        opd(e, x);
        fputs("))", o);
        return;
    }
    unsigned bits;
    if (x.n && const_bits(x.n, to, &bits)) { /* 1 as a _Float16: its bits */
        fprintf(o, "%s(0x%04xu)", fn(e->cuda, to, FROM_BITS), bits);
        return;
    }
    if (from == SIMT_FLOAT || from == SIMT_DOUBLE) {
        fprintf(o, "%s(", fn(e->cuda, to, from == SIMT_FLOAT ? FROM_F32 : FROM_F64));
        opd(e, x);
        fputc(')', o);
        return;
    }
    bool u = is_unsigned(from); /* integers and bool: from their 64-bit value, exactly */
    fprintf(o, "%s((%s)(", fn(e->cuda, to, u ? FROM_U64 : FROM_I64),
            u ? (e->cuda ? "unsigned long long" : "uint64_t") : (e->cuda ? "long long" : "int64_t"));
    opd(e, x);
    fputs("))", o);
}

void simt_narrow_convert(SimtEmit *e, const SimtNode *n, SimtType to) { conv(e, n->type, to, node_opd(n)); }

void simt_narrow_convert_text(SimtEmit *e, const char *text, SimtType from, SimtType to) { conv(e, from, to, text_opd(text)); }

/* a op b in type t (+ - * /): the narrow types' rounded operation. */
static void arith(SimtEmit *e, char op, SimtType t, Opd a, Opd b)
{
    FILE *o = e->o;
    if (!simt_type_is_narrow(t)) {
        fputc('(', o);
        opd(e, a);
        fprintf(o, " %c ", op);
        opd(e, b);
        fputc(')', o);
        return;
    }
    const char *name = op == '+' ? "add" : op == '-' ? "sub" : op == '*' ? "mul" : "div";
    /* overloaded for __half and __nv_bfloat16; the _rn forms are never
     * contracted with another operation into an fma (__hadd may be) */
    if (e->cuda) fprintf(o, "__h%s%s(", name, op == '/' ? "" : "_rn");
    else fprintf(o, "tilec_simt_%s_%s(", simt_type_suffix(t), name);
    opd(e, a);
    fputs(", ", o);
    opd(e, b);
    fputc(')', o);
}

/* a op b, a comparison of narrow floats, as C's int: ordered, except !=
 * (true when either is NaN). */
static void compare(SimtEmit *e, const char *op, SimtType t, Opd a, Opd b)
{
    FILE *o = e->o;
    static const char *const ops[][3] = {{"==", "eq", "eq"}, {"!=", "neu", "ne"}, {"<", "lt", "lt"},
                                         {"<=", "le", "le"}, {">", "gt", "gt"},   {">=", "ge", "ge"}};
    int i = 0;
    while (i < 5 && strcmp(ops[i][0], op)) i++;
    if (e->cuda) fprintf(o, "((int)__h%s(", ops[i][1]);
    else fprintf(o, "tilec_simt_%s_%s(", simt_type_suffix(t), ops[i][2]);
    opd(e, a);
    fputs(", ", o);
    opd(e, b);
    fputs(e->cuda ? "))" : ")", o);
}

static bool is_compound(const char *op)
{
    return !strcmp(op, "+=") || !strcmp(op, "-=") || !strcmp(op, "*=") || !strcmp(op, "/=");
}

static bool is_arith(const char *op)
{
    return !strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "*") || !strcmp(op, "/");
}

static bool is_compare(const char *op)
{
    return !strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "<") || !strcmp(op, "<=") || !strcmp(op, ">") ||
           !strcmp(op, ">=");
}

bool simt_narrow_handles(const SimtNode *n)
{
    switch (n->kind) {
    case SX_FLOAT: return simt_type_is_narrow(n->type);
    case SX_CAST: return n->type != SIMT_VOID && (simt_type_is_narrow(n->type) || simt_type_is_narrow(n->a->type));
    case SX_UNARY: case SX_POSTFIX: return simt_type_is_narrow(n->type); /* - + ++ -- (! takes a (bool) operand) */
    case SX_BINARY:
        if (is_compound(n->text)) return simt_type_is_narrow(n->type) || simt_type_is_narrow(n->b->type);
        if (is_arith(n->text)) return simt_type_is_narrow(n->type);
        return is_compare(n->text) && simt_type_is_narrow(n->a->type);
    default: return false;
    }
}

/* The helper of a compound assignment or ++/-- n: lvalue type, computation
 * type (the right operand's, which the frontend converted to it, as C
 * does), operator. */
static void helper_name(const SimtNode *n, char *buf, size_t size)
{
    const char *op = n->text[0] == '+' ? "add" : n->text[0] == '-' ? "sub" : n->text[0] == '*' ? "mul" : "div";
    if (n->kind == SX_BINARY) {
        SimtType lt = n->type, ct = n->b->type;
        snprintf(buf, size, "tilec_simt_%s_%s_%s_", op, simt_type_is_narrow(lt) ? simt_type_suffix(lt) : simt_type_name(lt),
                 simt_type_is_narrow(ct) ? simt_type_suffix(ct) : simt_type_name(ct));
        for (char *c = buf; *c; c++) /* "unsigned char" ... in a name */
            if (*c == ' ') *c = '_';
        return;
    }
    snprintf(buf, size, "tilec_simt_%s%s_%s_", n->kind == SX_POSTFIX ? "post" : "pre", n->text[0] == '+' ? "inc" : "dec",
             simt_type_suffix(n->type));
}

void simt_narrow_expr(SimtEmit *e, const SimtNode *n)
{
    FILE *o = e->o;
    char name[96];
    switch (n->kind) {
    case SX_FLOAT: fprintf(o, "%s(%s)", fn(e->cuda, n->type, FROM_BITS), n->text); return;
    case SX_CAST: conv(e, n->a->type, n->type, node_opd(n->a)); return;
    case SX_UNARY: case SX_POSTFIX:
        if (!strcmp(n->text, "-")) {
            if (e->cuda) fputs("__hneg(", o);
            else fprintf(o, "tilec_simt_%s_neg(", simt_type_suffix(n->type));
            simt_emit_expr(e, n->a);
            fputc(')', o);
            return;
        }
        if (!strcmp(n->text, "+")) {
            conv(e, n->type, n->type, node_opd(n->a));
            return;
        }
        helper_name(n, name, sizeof name); /* ++ and -- */
        fprintf(o, "%s(&", name);
        simt_emit_expr(e, n->a);
        fputc(')', o);
        return;
    case SX_BINARY:
        if (is_compound(n->text)) {
            helper_name(n, name, sizeof name);
            fprintf(o, "%s(&", name);
            simt_emit_expr(e, n->a);
            fputs(", ", o);
            simt_emit_expr(e, n->b);
            fputc(')', o);
        } else if (is_arith(n->text)) arith(e, n->text[0], n->type, node_opd(n->a), node_opd(n->b));
        else compare(e, n->text, n->a->type, node_opd(n->a), node_opd(n->b));
        return;
    default: fputs("/* ? */", o); return;
    }
}

/* ---- the helpers -------------------------------------------------------- */

typedef struct Seen {
    char names[256][96];
    int n;
} Seen;

static void helper_def(SimtEmit *e, const SimtNode *n, const char *name)
{
    FILE *o = e->o;
    const char *q = e->cuda ? "static __device__ __forceinline__" : "static inline";
    SimtType lt = n->type;
    const char *lts = simt_ctype(e->cuda, lt);
    if (n->kind == SX_BINARY) { /* *p_ op= v_: *p_ = (LT)((CT)*p_ op v_) */
        SimtType ct = n->b->type;
        const char *cts = simt_ctype(e->cuda, ct);
        fprintf(o, "/* %s %s %s */\n%s %s %s(%s *p_, %s v_)\n{\n    %s a_ = ", simt_type_name(lt), n->text, simt_type_name(ct),
                q, lts, name, lts, cts, cts);
        conv(e, lt, ct, text_opd("*p_"));
        fprintf(o, ";\n    %s r_ = ", cts);
        arith(e, n->text[0], ct, text_opd("a_"), text_opd("v_"));
        fputs(";\n    return *p_ = ", o);
        conv(e, ct, lt, text_opd("r_"));
        fputs(";\n}\n\n", o);
        return;
    }
    bool post = n->kind == SX_POSTFIX;
    fprintf(o, "/* %s%s%s */\n%s %s %s(%s *p_)\n{\n    %s old_ = *p_, one_ = ", post ? "" : n->text, simt_type_name(lt),
            post ? n->text : "", q, lts, name, lts, lts);
    fprintf(o, "%s(0x%04xu)", fn(e->cuda, lt, FROM_BITS), lt == SIMT_HALF ? tilec_f16_from_i64(1, TILEC_RN) : tilec_bf16_from_i64(1, TILEC_RN));
    fputs(";\n    *p_ = ", o);
    arith(e, n->text[0], lt, text_opd("old_"), text_opd("one_"));
    fprintf(o, ";\n    return %s;\n}\n\n", post ? "old_" : "*p_");
}

static void walk(SimtEmit *e, const SimtNode *n, Seen *seen)
{
    if (!n) return;
    walk(e, n->a, seen);
    walk(e, n->b, seen);
    walk(e, n->c, seen);
    walk(e, n->d, seen);
    for (int i = 0; i < n->nkids; i++) walk(e, n->kids[i], seen);
    bool incdec = (n->kind == SX_UNARY && (!strcmp(n->text, "++") || !strcmp(n->text, "--"))) || n->kind == SX_POSTFIX;
    if (!simt_narrow_handles(n) || !(incdec || (n->kind == SX_BINARY && is_compound(n->text)))) return;
    char name[96];
    helper_name(n, name, sizeof name);
    for (int i = 0; i < seen->n; i++)
        if (!strcmp(seen->names[i], name)) return;
    if (seen->n < (int)(sizeof seen->names / sizeof seen->names[0])) strcpy(seen->names[seen->n++], name);
    helper_def(e, n, name);
}

void simt_narrow_helpers(FILE *o, bool cuda, const Program *p)
{
    Seen *seen = calloc(1, sizeof *seen);
    SimtEmit e = {o, cuda, NULL};
    for (int i = 0; seen && i < p->nsimt; i++) walk(&e, p->simt[i]->body, seen);
    free(seen);
}
