/* ast.h: the tilec AST.  The frontend lowers libclang's cursors into these
 * plain structures (one header, chibicc-style), sema annotates every
 * expression with its dtype, shape and constant value, and the emitters
 * walk it.  Every node carries the user's file:line:col.  Nodes live in an
 * arena owned by the Program and are freed together with it. */
#ifndef TILEC_AST_H
#define TILEC_AST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "frontend/builtins.h"
#include "sema/dtype.h"
#include "sema/shape.h"

typedef struct SrcLoc {
    const char *file; /* as given on the command line (or as included) */
    int line, col;    /* 1-based; line 0 means "no location" */
    int len;          /* length of the token/range at loc for the caret, 0 = 1 */
    const char *macro; /* name of the macro this came from, or NULL */
} SrcLoc;

typedef struct StructType StructType;

/* A C type as written in the source, with the dtype it denotes. */
typedef struct TypeRef {
    const char *spelling; /* "float", "_Float16", "int32_t", "auto" ... */
    Dtype dtype;          /* DT_INVALID for auto, structs and unsupported types */
    bool is_auto;
    bool is_const;
    const StructType *stype; /* a struct: a tuple of tiles (docs/language.md), or NULL */
    int view_rank;        /* a TILE_VIEW local: its rank (dtype and is_const: its elements'); else 0 */
    int temp_rank;        /* a TILE_TEMP array of a graph: its rank; else 0 */
} TypeRef;

/* A struct type used as a tuple: its fields, in order, each of an element
 * type (a field holds a tile of that dtype, with the shape of its value). */
struct StructType {
    const char *name;     /* as spelt: "struct stats", "stats_t" */
    int nfields;
    const char **fields;
    TypeRef *types;
    bool bad;             /* a field is not of an element type (reported at its first use) */
    const char *bad_field;
};

typedef enum ExprKind {
    EX_INT,     /* integer literal (also character literals, enum constants) */
    EX_FLOAT,   /* floating literal */
    EX_NAME,    /* a variable or parameter */
    EX_UNARY,   /* op a */
    EX_BINARY,  /* a op b */
    EX_COND,    /* a ? b : c */
    EX_CAST,    /* (type) a */
    EX_CALL,    /* a call of a tile function: name(args) */
    EX_BUILTIN, /* a tilec builtin: name(args, .option = value ...) */
    EX_LIST,    /* a brace list {a, b, c}: tuples */
    EX_TYPE,    /* a type argument of a builtin (tile_cast(x, T)) */
    EX_STRING,  /* a string literal: only tile_printf's format, tile_assert's message */
    EX_MEMBER,  /* var.field of a struct variable (name is "var.field"; a is var); sema makes it an EX_NAME */
    EX_STRUCT,  /* (T){a, b} or (T){.x = a, .y = b}: type is the struct, args its fields in order */
} ExprKind;

typedef enum UnaryOp { UOP_NEG, UOP_PLUS, UOP_NOT, UOP_BITNOT, UOP_PREINC, UOP_PREDEC,
                       UOP_POSTINC, UOP_POSTDEC } UnaryOp;

typedef enum BinaryOp {
    BOP_ADD, BOP_SUB, BOP_MUL, BOP_DIV, BOP_MOD, BOP_SHL, BOP_SHR,
    BOP_LT, BOP_GT, BOP_LE, BOP_GE, BOP_EQ, BOP_NE,
    BOP_AND, BOP_XOR, BOP_OR, BOP_LAND, BOP_LOR,
    BOP_COUNT
} BinaryOp;

typedef struct Expr Expr;
typedef struct Symbol Symbol;

typedef struct Option {
    const char *name; /* "index", "shape", "padding", ... */
    SrcLoc loc;
    Expr *value;
} Option;

struct Expr {
    ExprKind kind;
    SrcLoc loc;
    int64_t ival;        /* EX_INT (two's complement of uval) */
    uint64_t uval;       /* EX_INT: the value as written */
    bool big_unsigned;   /* EX_INT: an unsigned literal above INT64_MAX */
    double fval;         /* EX_FLOAT */
    const char *name;    /* EX_NAME, EX_CALL, EX_BUILTIN ("load", "exp" ...) */
    Builtin bi;          /* EX_BUILTIN: which one (frontend/builtins.def) */
    int op;              /* UnaryOp or BinaryOp */
    Expr *a, *b, *c;     /* operands */
    TypeRef type;        /* EX_CAST, EX_TYPE */
    Expr **args;         /* EX_CALL, EX_BUILTIN positional args; EX_LIST items */
    int nargs;
    Option *opts;        /* EX_BUILTIN options */
    int nopts;
    const char *str;     /* EX_STRING: the bytes, escapes decoded (NUL-terminated) */
    int64_t nstr;        /* EX_STRING: their number */
    SrcLoc *str_loc;     /* EX_STRING: where each byte was written, or NULL (loc) */
    const char *text;    /* tile_assert: its condition as written, or NULL */

    /* Filled in by sema. */
    Dtype dtype;
    Shape shape;
    bool is_const;       /* a compile-time constant scalar (value in cval) */
    ConstValue cval;
    Symbol *sym;         /* EX_NAME: what it refers to */
    struct Func *callee; /* EX_CALL */
    struct Inline *inl;  /* EX_CALL: the typed, inlined copy of the callee (sema) */
    Dtype op_dtype;      /* EX_BINARY: the type both operands convert to before
                            the operation (sema's promotion; loose for two
                            untyped constants) */
    int id;              /* numbering for emitters (unique per function) */
};

typedef enum StmtKind {
    ST_DECL,     /* type name = init; */
    ST_ASSIGN,   /* name op= value;  (op is -1 for plain '=') */
    ST_EXPR,     /* a builtin call used as a statement (tile_store ...) */
    ST_IF, ST_FOR, ST_WHILE, ST_RETURN, ST_BLOCK, ST_BREAK, ST_CONTINUE,
} StmtKind;

typedef struct Stmt Stmt;
struct Stmt {
    StmtKind kind;
    SrcLoc loc;
    /* ST_DECL */
    const char *name;
    SrcLoc name_loc;
    TypeRef type;
    Expr *init;
    Symbol *sym;
    bool assigned;     /* sema: the variable is assigned after its declaration */
    /* ST_ASSIGN: target = value; op is a BinaryOp for compound assignment,
     * -1 for '=' */
    Expr *target;
    int op;
    Expr *value; /* also ST_EXPR, ST_RETURN (may be NULL) */
    bool desugared; /* sema rewrote `x op= v` as `x = x op v`: op is now -1
                       and value the typed binary (dumps print it as written) */
    /* ST_IF, ST_FOR, ST_WHILE */
    Expr *cond;        /* may be NULL in a for */
    bool is_target;    /* ST_IF: `if (tile_target(desc))`, compiled to #if (sema) */
    uint64_t targets;  /* ...and desc as a set of targets (sema/targetset.h) */
    Stmt *then_s, *else_s;
    Stmt *init_s, *step_s; /* ST_FOR */
    Stmt *body;
    /* ST_BLOCK */
    Stmt **items;
    int nitems;
};

typedef enum ParamKind { PARAM_ARRAY, PARAM_SCALAR, PARAM_CONST } ParamKind;

/* An array kernel's array parameter, for the launcher's NumPy broadcasting:
 * the output that fixes the iteration space (the first one written), another
 * output (same shape as it), an input broadcast to the output space, or an
 * input of a reduction's operand, broadcast to the operand space (the
 * broadcast of all such inputs; the outputs are it without the reduced
 * axis). */
/* A matrix product's kernel (ak_matmul) also has inputs of its first
 * operand, broadcast to (M, K), and of its second, broadcast to (K, N); its
 * other inputs broadcast to the product's (M, N). */
typedef enum AkRole { AK_NONE, AK_OUT_REF, AK_OUT, AK_IN, AK_IN_OPERAND, AK_IN_A, AK_IN_B } AkRole;
/* The shape of a reduction kernel's output against the operand space: the
 * space without the reduced axis, the space with extent 1 there
 * (.keepdims), or the space itself (a value computed for every element). */
typedef enum AkKeep { AK_KEEP_REDUCED, AK_KEEP_DIMS, AK_KEEP_FULL } AkKeep;

typedef struct Param {
    const char *name;
    SrcLoc loc;
    ParamKind kind;
    TypeRef type;     /* element type for arrays, value type otherwise */
    int rank;         /* PARAM_ARRAY */
    bool readonly;    /* PARAM_ARRAY with const elements */
    int64_t *specs;   /* PARAM_CONST: the listed values */
    int nspecs;
    bool tunable;     /* PARAM_CONST declared TILE_TUNABLE: the launcher picks the value */
    bool threads;     /* TILE_THREADS: a tunable whose value is also the CUDA block size */
    Symbol *sym;
    /* Array kernels (TILE_ARRAY_KERNEL, sema/array_kernel.c). */
    bool whole;       /* PARAM_ARRAY declared TILE_NDARRAY: the whole array as a value */
    AkRole ak_role;   /* how the launcher broadcasts it (AK_NONE for tile kernels) */
    AkKeep ak_keep;   /* an output of a reduction kernel: its shape against the operand space */
    int ak_ref, ak_dim; /* a tunable tile extent: the array param and dimension whose
                           run-time extent picks its default (-1: the first listed) */
    bool ak_whole;    /* a row reduction's TILEC_BLOCK: a chunk the row must fit, or 0 for
                         rows walked in chunks (the launcher enforces it) */
} Param;

/* Most TILE_CONST parameters one kernel may have. */
enum { AST_MAX_CONSTS = 16 };

/* One specialization of a kernel: the values of its TILE_CONST parameters
 * (one per PARAM_CONST parameter, in order) and the typed copy of the kernel
 * sema made for them.  Code generation reads only these copies. */
typedef struct Spec {
    int64_t vals[AST_MAX_CONSTS];
    struct Func *typed;
} Spec;

typedef struct Func {
    const char *name;
    SrcLoc loc;
    bool is_kernel;   /* TILE_KERNEL; otherwise a TILE_FUNC helper */
    bool is_extern;   /* TILE_EXTERN: an element function defined in CUDA C++ (or C on the host); no body */
    bool is_array_kernel; /* TILE_ARRAY_KERNEL: whole-array statements, lowered to a tile
                             kernel by sema/array_kernel.c before typing */
    int ak_space_rank;    /* array kernel: rank of the operand space (reductions) or output space */
    int ak_axis;          /* array kernel: the reduced axis of the operand space, or -1 */
    bool ak_matmul;       /* array kernel: one matrix product, its outputs (M, N) (sema/array_matmul.c) */
    bool is_graph;        /* TILE_GRAPH: calls of array kernels, fused by sema/graph.c */
    bool internal;        /* a kernel tilec made (a graph's fused part): its launcher is static */
    struct Graph *graph;  /* TILE_GRAPH: the plan (sema/graph.h) */
    TypeRef ret;      /* void for kernels */
    Param *params;
    int nparams;
    Stmt *body;
    const char *doc;  /* the comment before the definition, cleaned; or NULL */
    int nsyms;        /* symbols created by sema (ids 0..nsyms-1) */
    int nexprs;       /* expressions numbered by sema (ids 0..nexprs-1) */
    Spec *specs;      /* kernels: every specialization, typed (sema_program) */
    int nspecs;
    const struct Func *origin; /* a typed copy: the parsed kernel it was made from */
} Func;

/* What a name refers to, created by sema's scope resolution. */
typedef enum SymKind { SYM_VAR, SYM_PARAM } SymKind;
struct Symbol {
    SymKind kind;
    const char *name;
    SrcLoc loc;
    Param *param;    /* SYM_PARAM */
    Dtype dtype;
    Shape shape;
    bool is_const;   /* a compile-time constant (const param in a specialization,
                        or a never-assigned variable with a constant init) */
    ConstValue cval;
    bool assigned;   /* assigned after its declaration */
    int id;          /* unique within its function */
    const StructType *stype; /* a struct variable (a tuple): its fields are the variables "name.field" */
    const struct View *view;  /* a TILE_VIEW variable: its layout over an array (sema/view.h) */
};

/* Per-call inlining data, attached to EX_CALL expressions by sema. */
typedef struct Inline {
    Stmt *body;       /* a private copy of the callee's body */
    Symbol **params;  /* one symbol per callee parameter */
    Symbol *result;   /* holds the return value (NULL for void) */
    Expr *ret_expr;   /* the final return expression of the copy */
    Symbol **fields;  /* a struct-returning function: the returned fields' variables */
} Inline;

typedef struct Arena Arena;

typedef struct Program {
    Func **funcs;
    int nfuncs;
    const char *main_file;   /* the input path as given */
    const char **deps;       /* every file the translation unit included */
    bool *dep_system;        /* deps[i] is in a system directory (-MM leaves it out) */
    int ndeps;
    struct SimtFunc **simt;  /* SIMT_KERNEL and SIMT_FUNC definitions (frontend/simt.h), in order */
    int nsimt;
    struct SimtAgg **simt_structs; /* the user structs SIMT code uses (frontend/simt.h), each after its fields' */
    int nsimt_structs;
    Arena *arena;
    bool remarks;            /* --remarks: sema says which graph calls fused (sema/graph.c); codegen, the Hopper and flash variants (cuda.c) */
} Program;

/* Arena allocation for AST nodes and strings; everything is freed at once. */
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size);        /* zeroed */
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void program_free(Program *p);
/* n bytes of s as the inside of a C string literal (escapes for quotes,
 * backslashes, '?', control and non-ASCII bytes): written to o, or copied
 * into the arena. */
void ast_write_escaped(FILE *o, const char *s, int64_t n);
char *ast_escape(Arena *a, const char *s, int64_t n);

const char *ast_binary_op_spelling(BinaryOp op);
const char *ast_unary_op_spelling(UnaryOp op);
Func *ast_find_func(const Program *p, const char *name);
/* The one walk over statements and expressions.  Before a node's children
 * it calls expr or stmt (either may be NULL); a false return skips that
 * node's children, and setting stop ends the walk.  Children in source
 * order: a builtin's options, then operands and arguments; a statement's
 * expressions (init, target, value, cond), then its statements.  With
 * inlined set, a typed call's copy of the callee's body is walked after its
 * arguments. */
typedef struct AstVisitor {
    bool (*expr)(struct AstVisitor *v, const Expr *e);
    bool (*stmt)(struct AstVisitor *v, const Stmt *s);
    bool inlined;
    bool stop;
    void *ctx;
} AstVisitor;
void ast_walk_expr(AstVisitor *v, const Expr *e);
void ast_walk_stmt(AstVisitor *v, const Stmt *s);
/* Whether e reads symbol sym anywhere (not looking inside skip, nor inside
 * inlined bodies). */
bool ast_reads(const Expr *e, const Symbol *sym, const Expr *skip);

/* The option .name of builtin call e, or NULL: the one option lookup. */
Option *ast_option(const Expr *e, const char *name);
/* The number of f's TILE_CONST parameters. */
int ast_nconst(const Func *f);
/* "N=64, BM=128": f's constant parameters bound to vals, for notes and dumps. */
void ast_spec_label(const Func *f, const int64_t *vals, char *buf, size_t len);
#endif
