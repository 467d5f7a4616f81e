/* dtype.h: the element types of Tile C (cuTile's dtypes), their properties
 * and spellings, and the promotion rules that replace C's usual arithmetic
 * conversions.  See docs/language.md, "Types and promotion".  The element
 * types are the rows of TILEC_DTYPE_LIST (runtime/tilec_dtypes.h), the list
 * the runtime's tilec_dtype comes from too, so DT_X == TILEC_X (asserted in
 * dtype.c); the loose constant kinds follow them. */
#ifndef TILEC_DTYPE_H
#define TILEC_DTYPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tilec_dtypes.h"

/* DT_INVALID = 0, then DT_BOOL, DT_INT8 ... DT_FLOAT8_E5M2 (one per row of
 * TILEC_DTYPE_LIST, in its order), then the compiler's own kinds. */
#define DT_ENUMERATOR_(suffix, name, bits) DT_##suffix,
typedef enum Dtype {
    DT_INVALID = 0,
    TILEC_DTYPE_LIST(DT_ENUMERATOR_)
    DT_INT_CONST,   /* loosely typed integer literal constant */
    DT_FLOAT_CONST, /* loosely typed floating-point literal constant */
    DT_COUNT
} Dtype;
#undef DT_ENUMERATOR_

typedef enum DtypeCategory { DTC_BOOL, DTC_INT, DTC_FLOAT } DtypeCategory;

/* Properties.  Names are cuTile's: "bool_" is accepted on input, "bool" printed. */
const char *dtype_name(Dtype t);            /* "int8", "float8_e4m3fn", "int_const" */
Dtype dtype_from_name(const char *name);    /* DT_INVALID when unknown */
int dtype_bits(Dtype t);                    /* storage width: bool 8, tf32 32; consts 0 */
DtypeCategory dtype_category(Dtype t);
bool dtype_is_signed(Dtype t);              /* signed ints and all floats */
bool dtype_is_loose(Dtype t);               /* DT_INT_CONST or DT_FLOAT_CONST */
bool dtype_is_int(Dtype t);                 /* integer category, bool excluded */
bool dtype_is_float(Dtype t);
/* Spellings.  cuda: the CUDA C++ type (__half, __nv_bfloat16, __nv_fp8_e4m3 ...);
 * host: the C17 storage type the host backend uses (uint16_t for float16 ...);
 * source: how a kernel source spells it (_Float16, __bf16, tilec_tf32 ...). */
const char *dtype_cuda_type(Dtype t);
const char *dtype_host_type(Dtype t);
const char *dtype_source_type(Dtype t);
/* Maps a C type spelling as libclang prints it (after typedef resolution of the
 * tilec.h names: "float", "_Float16", "__bf16", "int", "unsigned char", "bool",
 * "int32_t", "tilec_tf32", "tilec_fp8_e4m3" ...) to a dtype; DT_INVALID if none. */
Dtype dtype_from_c_spelling(const char *spelling);

/* The value of a loose constant, needed to decide whether it fits a type. */
typedef struct ConstValue {
    bool is_float;
    bool is_unsigned;   /* integer value above INT64_MAX, held in u */
    int64_t i;
    uint64_t u;
    double f;
} ConstValue;

/* Operator classes: each has its own result rule (docs/language.md). */
typedef enum PromoteOp {
    PROMOTE_ARITH,    /* + - * and min, max (bool with bool is an error)   */
    PROMOTE_DIV,      /* / : C division; integers truncate, floats divide  */
    PROMOTE_TRUEDIV,  /* tile_truediv: integers give float32 (float64 from 64-bit) */
    PROMOTE_MOD,      /* % : integers and floats (fmod)                     */
    PROMOTE_COMPARE,  /* < <= > >= == != : operands promoted, result bool   */
    PROMOTE_BITWISE,  /* & | ^ : bool or integers only                       */
    PROMOTE_SHIFT,    /* << >> : integers only, result the left operand's type */
    PROMOTE_LOGICAL,  /* && || : any, result bool                            */
    PROMOTE_SELECT    /* the common type of ?: and tile_where (bool?bool:bool ok) */
} PromoteOp;

typedef struct Promotion {
    Dtype operand; /* the type both operands are converted to before the op */
    Dtype result;  /* the type of the result */
} Promotion;

/* Promotes the operand types a and b under op.  ca/cb give the constant values
 * when a/b are loose constants (may be NULL otherwise; when NULL for a loose
 * constant, no fit check is done).  On error returns false and writes a
 * one-line message (no trailing newline, no "error:" prefix) into err, naming
 * the fix where there is one (e.g. "cast one operand: tile_cast(x, int16)"). */
bool dtype_promote(PromoteOp op, Dtype a, const ConstValue *ca, Dtype b,
                   const ConstValue *cb, Promotion *out, char *err, size_t errlen);

/* The concrete type a loose constant takes on its own (int32/int64/uint64 by
 * value; float32). */
Dtype dtype_concretize(Dtype t, const ConstValue *v);

/* Whether a value of type `from` may be implicitly converted to `to` (stores,
 * declarations, returns): true when promote(from, to) == to, loose constants
 * fitting `to` included. */
bool dtype_implicitly_converts(Dtype from, const ConstValue *v, Dtype to);

/* Whether constant v is representable in type t (for ints: in range; floats:
 * always, bool: 0 or 1). */
bool dtype_const_fits(const ConstValue *v, Dtype t);

/* Added by the dtype module (beyond the lead's contract). */
/* tfloat32 and the float8 types: numeric but not arithmetic; they never
 * promote, and only tile_cast and tile_mma accept them. */
bool dtype_is_restricted(Dtype t);
/* Constant values, for callers and tests. */
ConstValue dtype_const_int(int64_t i);
ConstValue dtype_const_uint(uint64_t u); /* is_unsigned set when u > INT64_MAX */
ConstValue dtype_const_float(double f);
/* Prints an integer or floating constant ("300", "-1", "1.5"); returns buf. */
char *dtype_const_format(const ConstValue *v, char *buf, size_t n);
/* A short description of an operator class, used in messages ("arithmetic"). */
const char *dtype_op_description(PromoteOp op);
#endif
