/* builtins.h: the table of Tile C builtins (builtins.def), shared by every
 * phase.  The frontend tags each builtin call with its Builtin (Expr.bi);
 * sema and code generation switch on it, so that -Wswitch names every place
 * a new builtin must be handled, and no phase dispatches on the name. */
#ifndef TILEC_BUILTINS_H
#define TILEC_BUILTINS_H
#include <stdbool.h>

typedef enum Builtin {
    BI_NONE = 0, /* not a builtin call */
#define BUILTIN(id, name, cls, opts, targ, mat) BI_##id,
#include "frontend/builtins.def"
#undef BUILTIN
    BI_COUNT
} Builtin;

/* What kind of operation a builtin is: which sema rule types it and which
 * part of code generation lowers it. */
typedef enum BuiltinClass {
    BCLASS_MEM,     /* tile_load, tile_store: a tile of an array */
    BCLASS_FACTORY, /* zeros, ones, full, arange: a tile from nothing */
    BCLASS_CAST,    /* tile_cast: a conversion with rounding and saturation */
    BCLASS_MATH1,   /* exp, sqrt ...: one operand, element-wise */
    BCLASS_MATH,    /* pow, fma, minimum, maximum, truediv: element-wise */
    BCLASS_WHERE,   /* where(c, a, b): element-wise select */
    BCLASS_REDUCE,  /* sum, max, argmax, any ...: over axes */
    BCLASS_SCAN,    /* cumsum, cumprod: prefix along an axis */
    BCLASS_INDEXED, /* gather, scatter, atomics: element-wise array access */
    BCLASS_SHAPE,   /* reshape, transpose, cat, extract ...: index maps */
    BCLASS_MMA,     /* mma, matmul: tensor-core products */
    BCLASS_QUERY,   /* bid, num_blocks, dim: scalars of the launch */
    BCLASS_TARGET,  /* target, provides, is_host ...: target specialization (sema/targetset.h) */
    BCLASS_DEBUG,   /* printf, assert: statements the block runs once */
    BCLASS_VIEW,    /* view_transpose, view_pad ...: a view's layout (sema/view.h), only as a TILE_VIEW's value */
} BuiltinClass;

typedef struct BuiltinInfo {
    const char *name;          /* without tile_ */
    BuiltinClass cls;
    const char *const *opts;   /* option names without the dot, NULL-terminated */
    int type_arg;              /* index of the type argument, or -1 */
    bool materialises;         /* computed once before its readers (see .def) */
} BuiltinInfo;

/* The builtin called `name` (with or without "tile_"), or BI_NONE. */
Builtin builtin_lookup(const char *name);
/* The row of b (b != BI_NONE). */
const BuiltinInfo *builtin_info(Builtin b);
#endif
