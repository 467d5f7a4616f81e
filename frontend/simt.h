/* simt.h: SIMT kernels and functions (SIMT_KERNEL, SIMT_FUNC): the tree
 * frontend/simt.c lowers their C bodies into and codegen/simt.c prints for
 * each target.  SIMT code is C with C's types and arithmetic, so the tree
 * keeps C's operators and the scalar C type of every expression (clang's,
 * which already checked it), and needs no sema of its own: tile sema never
 * sees SIMT functions (they live in Program.simt, not Program.funcs). */
#ifndef TILEC_SIMT_H_
#define TILEC_SIMT_H_
#include "frontend/ast.h"

/* The C types of SIMT code: scalars, and vectors and user structs (SIMT_VEC,
 * SIMT_STRUCT, described by a SimtAgg); SIMT_NONE for anything else
 * (arrays, unions, pointers). */
typedef enum SimtType {
    SIMT_NONE = 0, SIMT_VOID, SIMT_BOOL, SIMT_SCHAR, SIMT_UCHAR, SIMT_SHORT, SIMT_USHORT, SIMT_INT, SIMT_UINT,
    SIMT_LONG, SIMT_ULONG, SIMT_LLONG, SIMT_ULLONG, SIMT_FLOAT, SIMT_DOUBLE,
    SIMT_HALF, SIMT_BF16, /* _Float16 and __bf16: every operation rounds to the type (codegen/simt_narrow.c) */
    SIMT_VEC, SIMT_STRUCT,
} SimtType;

typedef struct SimtAgg SimtAgg;

/* A field of a user struct: a scalar, vector or struct, or an array of them. */
typedef struct SimtField {
    const char *name;
    SimtType type;
    const SimtAgg *agg;  /* SIMT_VEC, SIMT_STRUCT */
    int ndims;
    int64_t dims[8];
} SimtField;

/* A vector type (seed 001's float32x4 ...: lanes of one scalar type, CUDA's
 * float4 in memory) or a user struct (C's struct, fields in order, aligned
 * to at least `align` bytes when SIMT_STRUCT_ALIGN asks). */
struct SimtAgg {
    const char *name;    /* "float32x4"; a struct's tag, or its typedef name */
    const char *cname;   /* in generated code: tilec_float32x4; a struct's name */
    SrcLoc loc;          /* structs: the definition */
    bool vector;
    SimtType elem;       /* vectors: the lanes' type */
    int lanes;           /* vectors: 1 to 4 */
    SimtField *fields;   /* structs */
    int nfields;
    int align;           /* structs: SIMT_STRUCT_ALIGN's n, or 0 */
};

/* The builtins, simt_NAME in tilec.h (calls of __tilec_simt_NAME). */
#define SIMT_BUILTINS(X)                                                                           \
    X(THREAD_IDX, "thread_idx") X(BLOCK_IDX, "block_idx") X(BLOCK_DIM, "block_dim")                \
    X(GRID_DIM, "grid_dim") X(TID, "tid") X(GRID_SIZE, "grid_size") X(LANE_ID, "lane_id")          \
    X(SYNCTHREADS, "syncthreads") X(SYNCTHREADS_COUNT, "syncthreads_count")                        \
    X(SYNCTHREADS_AND, "syncthreads_and") X(SYNCTHREADS_OR, "syncthreads_or")                      \
    X(SYNCWARP, "syncwarp") X(ACTIVEMASK, "activemask") X(LANEMASK_LT, "lanemask_lt")              \
    X(BALLOT, "ballot_sync") X(ALL, "all_sync") X(ANY, "any_sync") X(SHFL, "shfl_sync")            \
    X(SHFL_UP, "shfl_up_sync") X(SHFL_DOWN, "shfl_down_sync") X(SHFL_XOR, "shfl_xor_sync")         \
    X(MATCH_ANY, "match_any_sync") X(MATCH_ALL, "match_all_sync") X(EQ, "eq_sync") X(FENCE, "threadfence") X(FENCE_BLOCK, "threadfence_block")    \
    X(FENCE_SYSTEM, "threadfence_system") X(ATOMIC_LOAD, "atomic_load")                            \
    X(ATOMIC_STORE, "atomic_store") X(ATOMIC_EXCH, "atomic_exch") X(ATOMIC_CAS, "atomic_cas")      \
    X(ATOMIC_ADD, "atomic_add") X(ATOMIC_SUB, "atomic_sub") X(ATOMIC_AND, "atomic_and")            \
    X(ATOMIC_OR, "atomic_or") X(ATOMIC_XOR, "atomic_xor") X(ATOMIC_MAX, "atomic_max")              \
    X(ATOMIC_MIN, "atomic_min") X(ATOMIC_NANMAX, "atomic_nanmax") X(ATOMIC_NANMIN, "atomic_nanmin") X(POPC, "popc") X(CLZ, "clz") X(FFS, "ffs") X(BREV, "brev")     \
    X(SHAPE, "shape") X(E4M3_TO_F, "fp8_e4m3_to_float") X(F_TO_E4M3, "fp8_e4m3_from_float")                   \
    X(E5M2_TO_F, "fp8_e5m2_to_float") X(F_TO_E5M2, "fp8_e5m2_from_float")
typedef enum SimtBuiltin {
    SB_NONE = 0,
#define SIMT_B_(id, name) SB_##id,
    SIMT_BUILTINS(SIMT_B_)
#undef SIMT_B_
    SB_COUNT
} SimtBuiltin;
/* "thread_idx" ...: the name after simt_. */
const char *simt_builtin_name(SimtBuiltin b);
/* The builtin simt_NAME for "NAME", or SB_NONE. */
SimtBuiltin simt_builtin_lookup(const char *name);
/* An atomic builtin: its pointer is the first argument. */
static inline bool simt_is_atomic(SimtBuiltin b) { return b >= SB_ATOMIC_LOAD && b <= SB_ATOMIC_NANMIN; }

typedef enum SimtKind {
    /* expressions */
    SX_INT,     /* text: the value with its C suffix */
    SX_FLOAT,   /* text: the value, round-trip exact, with f for float; _Float16: its bits (0x3e00u) */
    SX_VAR,     /* a local or shared variable (decl), or a scalar parameter (param >= 0) */
    SX_ARRAY,   /* a TILE_ARRAY parameter passed to a SIMT_FUNC (param) */
    SX_UNARY,   /* text a: prefix - + ! ~ ++ -- */
    SX_POSTFIX, /* a text: ++ -- */
    SX_BINARY,  /* a text b: arithmetic, comparison, logic, comma and every assignment */
    SX_COND,    /* a ? b : c */
    SX_CAST,    /* (type) a */
    SX_INDEX,   /* a[b]: a local or shared array (a is SX_VAR or SX_INDEX; a column-major
                   array's chains index every dimension) */
    SX_ELEM,    /* an element of TILE_ARRAY parameter param at kids (one index per dimension) */
    SX_ADDR,    /* &a: only an atomic's first argument */
    SX_BUILTIN, /* builtin(kids); order and scope for atomics */
    SX_CALL,    /* a SIMT_FUNC (text) called with kids */
    SX_MATH,    /* a <math.h> function (text) called with kids */
    SX_LIST,    /* {kids}: an array's initializer */
    SX_MAKE,    /* a vector or struct (agg) built from kids, one per lane or field (missing ones are 0) */
    SX_MEMBER,  /* a.text: a struct's field, or a vector's lane (.x .y .z .w) */
    SX_LANE,    /* a[b]: a vector's lane at an index computed at run time */
    /* statements */
    SS_DECL, SS_EXPR, SS_IF, SS_FOR, SS_WHILE, SS_DO, SS_RETURN, SS_BLOCK, SS_BREAK, SS_CONTINUE, SS_EMPTY,
} SimtKind;

typedef struct SimtNode SimtNode;
struct SimtNode {
    SimtKind kind;
    SrcLoc loc;
    const char *text;  /* literal, operator, function or variable name */
    SimtType type;     /* an expression's C type; a declaration's element type */
    const SimtAgg *agg; /* ...when it is SIMT_VEC or SIMT_STRUCT */
    SimtNode *a, *b, *c, *d; /* operands; if: cond then else; for: init cond step body;
                                while/do: cond body; decl: initializer (an array's in storage
                                order, fully braced; b: its list as written) */
    SimtNode **kids;   /* arguments, indices, block items, list items */
    int nkids;
    SimtBuiltin builtin;
    int order, scope;  /* atomics: TILE_RELAXED..., TILE_SCOPE_... (tilec.h);
                          order is the axis of positions, the dimension of simt_shape */
    int param;         /* SX_VAR of a parameter, SX_ARRAY, SX_ELEM: its index; -1 otherwise */
    SimtNode *decl;    /* SX_VAR of a local: its SS_DECL */
    /* SS_DECL */
    bool is_const, shared, dynamic; /* dynamic: `SIMT_SHARED extern T name[];` */
    int ndims;
    int64_t dims[8];   /* as declared: m[4][8] is {4, 8} in either order */
    int align;         /* SIMT_ALIGN(n): n bytes; 0 for the type's own alignment */
    bool col_major;    /* SIMT_ORDER_F: m[i][j] is element i + 4 * j (stored as [8][4]) */
    int id;            /* shared variables: their index in the function's list */
    bool target;       /* SS_IF: `if (tile_target(desc))`, compiled to #if (sema/targetset.h) */
    uint64_t targets;  /* ...and desc as a set of targets */
};

typedef struct SimtFunc {
    Func f;            /* name, location, parameters (PARAM_ARRAY, PARAM_SCALAR), doc; is_kernel */
    SimtType ret;
    const SimtAgg *ret_agg;
    const SimtAgg **param_aggs; /* per parameter: the vector or struct type of a by-value parameter, else NULL */
    SimtNode *body;
    SimtNode **shared; /* every SIMT_SHARED declaration, in order (ids) */
    int nshared;
    bool uses_dyn;
    bool interop;      /* SIMT_INTEROP: also an extern "C" __device__ function for CUDA C++ callers */
} SimtFunc;

/* "int", "unsigned long long" ...: the spelling of a scalar SIMT type. */
const char *simt_type_name(SimtType t);
/* The spelling of any SIMT type in generated headers (the same on both
 * targets): a scalar's C name, tilec_float16 and tilec_bfloat16,
 * tilec_float32x4 for a vector, a struct's name. */
const char *simt_type_text(SimtType t, const SimtAgg *agg);
/* "x", "y", "z", "w": the name of lane i of a vector. */
const char *simt_lane_name(int i);
/* The size and alignment in bytes of a SIMT type as CUDA lays it out (a
 * vector as CUDA's float4 ..., a struct as C does with those). */
void simt_layout(SimtType t, const SimtAgg *agg, int64_t *size, int64_t *align);
/* The field of struct a called name, or NULL. */
const SimtField *simt_field(const SimtAgg *a, const char *name);
/* The dtype's C type (SIMT_NONE for tf32 and float8, which SIMT code does
 * not have). */
SimtType simt_type_of_dtype(Dtype d);
/* Its inverse: the first dtype whose C type is t (int64 for long and long
 * long, uint8 for unsigned char), DT_INVALID for none. */
Dtype simt_dtype_of_type(SimtType t);
/* i32, u32, i64, u64, f32, f64, f16, bf16: the host helpers' suffix of a
 * type, or NULL (bool, narrow integers). */
const char *simt_type_suffix(SimtType t);
bool simt_type_is_float(SimtType t); /* the narrow floats too */
static inline bool simt_type_is_narrow(SimtType t) { return t == SIMT_HALF || t == SIMT_BF16; }
bool simt_type_is_64(SimtType t);
#endif
