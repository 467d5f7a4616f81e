/* tilec_dtypes.h: the one list of tilec's element types, shared by the
 * runtime and the compiler.  TILEC_DTYPE_LIST(X) expands X(SUFFIX, NAME,
 * BITS) once per element type, in value order (the first row is 1; 0 is
 * invalid):
 *
 *   SUFFIX  the enumerator suffix: tilec_rt.h's TILEC_##SUFFIX and the
 *           compiler's DT_##SUFFIX (sema/dtype.h), which a static assertion
 *           in sema/dtype.c holds equal;
 *   NAME    cuTile's name, a string literal: tilec_dtype_name() and the
 *           compiler's dtype_name();
 *   BITS    the storage width in bits (bool 8, tfloat32 32): tilec_dtype_size()
 *           is BITS / 8, the compiler's dtype_bits() is BITS.
 *
 * Values are part of the ABI (generated launchers pass them as plain
 * integers): rows are only ever appended, never reordered or removed.  Only
 * macros, so the header suits C89 to C17 and C++ alike; tilec_rt.h includes
 * it, and users need not include it themselves. */
#ifndef TILEC_DTYPES_H
#define TILEC_DTYPES_H

/* clang-format off */
#define TILEC_DTYPE_LIST(X)                      \
    X(BOOL,          "bool",          8)         \
    X(INT8,          "int8",          8)         \
    X(INT16,         "int16",         16)        \
    X(INT32,         "int32",         32)        \
    X(INT64,         "int64",         64)        \
    X(UINT8,         "uint8",         8)         \
    X(UINT16,        "uint16",        16)        \
    X(UINT32,        "uint32",        32)        \
    X(UINT64,        "uint64",        64)        \
    X(FLOAT16,       "float16",       16)        \
    X(BFLOAT16,      "bfloat16",      16)        \
    X(FLOAT32,       "float32",       32)        \
    X(FLOAT64,       "float64",       64)        \
    X(TFLOAT32,      "tfloat32",      32)        \
    X(FLOAT8_E4M3FN, "float8_e4m3fn", 8)         \
    X(FLOAT8_E5M2,   "float8_e5m2",   8)
/* clang-format on */

#endif /* TILEC_DTYPES_H */
