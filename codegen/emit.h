/* emit.h: what the kernel-body lowering (codegen/lower.h and its files)
 * shares with the per-target file writers (codegen/cuda.c, codegen/host.c),
 * the launchers and the header writer.  Internal to codegen/. */
#ifndef TILEC_EMIT_H
#define TILEC_EMIT_H
#include <stdio.h>

#include "codegen/codegen.h"
#include "frontend/ast.h"

#ifndef TILEC_VERSION
#define TILEC_VERSION "0.0.0"
#endif

typedef struct KernelPlan {
    int threads;      /* CUDA threads per block (1 on the host) */
    int vec;          /* elements per vector run (CUDA) */
    int smem_bytes;   /* static shared memory used for broadcast mirrors */
    int dyn_smem_bytes; /* dynamic shared memory (tile_mma staging and pipelines) */
} KernelPlan;

/* Writes the body of f, one typed specialization (Spec.typed) of a kernel,
 * to out, including its local declarations.  cuda selects
 * the thread mapping; the caller writes the function signature around it. */
bool emit_kernel_body(FILE *out, Program *p, Func *f, bool cuda, const CodegenOptions *o,
                      KernelPlan *plan);

/* Chooses threads per block and the vector width for f (typed). */
KernelPlan emit_plan(const Func *f, bool cuda, int max_threads);


/* The C type a scalar kernel parameter has in the launch API and kernels. */
const char *emit_scalar_api_type(Dtype d);
/* The storage C type of an element of dtype d (both targets). */
const char *emit_storage_type(Dtype d);
/* "TILEC_FLOAT32" ... */
const char *emit_dtype_enum(Dtype d);
/* The launcher's argument validation (shared by both targets). */
/* With TILE_CONST parameters it also sets `int spec_`, the index in
 * f->specs of the specialization to launch. */
/* With TILE_TUNABLE parameters it first picks their values from the tuning
 * table (co->tuning) and, after the specialization, sets the grid from
 * grids[spec_] (grid_emit's C initializers). */
void emit_launch_checks(FILE *o, const CodegenOptions *co, const Func *f, char **grids);
/* f has TILE_TUNABLE parameters (its launcher takes neither them nor a grid). */
bool emit_has_tunable(const Func *f);
/* The helpers the dispatch of tunable kernels calls (once per file when a
 * kernel of p has tunables): the device's compute capability, the bucket of
 * an extent. */
void emit_tune_helpers(FILE *o, const CodegenOptions *co, const Program *p, bool cuda);
/* Whether output `out` may be given the very view of array `other` (in
 * place) without a block reading what another block writes (inplace.c). */
bool inplace_same_view_ok(const Func *f, const Param *out, const Param *other);
/* A K loop `for (..; k < hi; k += 1) { x = load; y = load; acc = tile_mma(x, y, acc); }`
 * whose operand loads can be issued asynchronously, stages ahead
 * (pipeline.c). */
typedef struct PipeLoop {
    const Stmt *loop; /* the for statement */
    Symbol *k;       /* the loop counter */
    Expr *hi;        /* its exclusive bound */
    Expr *load[2];   /* the tile_load of the A and of the B operand */
    Stmt *update;    /* acc = tile_mma(x, y, acc) */
    Symbol *acc;
    int64_t M, N, K; /* acc is M x N; the operands M x K and K x N */
    Dtype dtype;     /* of the operands: float16 or bfloat16 */
    /* operand i is a view load (possibly reshaped to the operand's shape):
     * its footprint's box is what a stage holds (box[i] elements, padded),
     * and the operand is gathered from it (view.c, view_box_issue) */
    bool boxed[2];
    int64_t box[2];
    Expr *opnd[2]; /* the operand as written: the load, its reshape, or a declaration's value */
    /* sm_90a builds run the products on wgmma (both operands boxed): the
     * consumer warpgroups form an M / 64 x wg_n grid, each on 64 x wn of
     * the accumulator; 0 where the loop has only the mma.sync products
     * (pipeline_find decides) */
    int wg_n;
    int64_t wn;
} PipeLoop;
bool pipeline_match(const Stmt *st, PipeLoop *pl);
/* A scalar parameter as passed to the kernel (rounded to its dtype). */
void emit_scalar_arg(FILE *o, const Param *p);
/* Whether kernel f (any specialization, inlined calls included) has a
 * tile_assert; its launcher then checks the file's record (debug.c). */
bool dbg_has_assert(const Program *p, const Func *f);
/* The file's assertion record, its table of sites and tilec_assert_check_,
 * when any kernel has a tile_assert (debug.c). */
void dbg_emit_assert_support(FILE *o, const CodegenOptions *co, Program *p, bool cuda);
/* Writes the launch-function prototype (no trailing ';' or body). */
void emit_launch_prototype(FILE *o, const CodegenOptions *co, const Func *f);
/* Kernel graphs (codegen/graph.c): the launch function, or with size_fn
 * the workspace-size function; their definitions (after every kernel's
 * launcher; cuda: extern "C"); their declarations in the header. */
void emit_graph_prototype(FILE *o, const CodegenOptions *co, const Func *g, bool size_fn);
void emit_graph_launchers(FILE *o, const CodegenOptions *co, const Program *p, bool cuda);
void emit_graph_header(FILE *o, const CodegenOptions *co, const Program *p);
/* The launch function's name: --rename's, else --symbol-prefix + the kernel's. */
void emit_launcher_name(FILE *o, const CodegenOptions *co, const Func *f);
/* #line directive when enabled. */
void emit_line(FILE *o, const CodegenOptions *co, SrcLoc loc);
/* A path's last component (generated text never names directories). */
const char *emit_base_name(const char *path);
/* The comment that heads every generated file. */
void emit_banner(FILE *o, const CodegenOptions *co, const char *what);
void emit_extern_decls(FILE *o, const Program *p, bool cuda);
void emit_doc_lines(FILE *o, const char *doc);
/* The grid kernel f (typed) implies, from its tile_store/tile_load .index
 * entries that are block coordinates (grid.c): written as a Python tuple
 * over descriptors d_NAME ("None" when unknown) or a C initializer of three
 * int64 values over the launcher's tilec_array pointers; false when the
 * grid cannot be worked out. */
bool grid_emit(FILE *o, const Func *f, bool python);
/* The first grid axis that cannot be worked out (3: the kernel asks
 * tile_num_blocks), or -1 when the grid is known. */
int grid_unknown_axis(const Func *f);
/* grid_emit's C initializer as a malloc'd string in *out (the launcher of a
 * kernel with TILE_TUNABLE constants); false, *out NULL, when the grid
 * cannot be worked out (codegen_check_tunable reported it). */
bool grid_c_initializer(const Func *f, char **out);
/* SIMT kernels and functions (simt.c), after the tile kernels: the .cu's
 * and the host .c's code with their launchers, and the header's launch
 * declarations; nothing when the file has none. */
void simt_emit_cuda(FILE *o, const CodegenOptions *co, const Program *p);
void simt_emit_host(FILE *o, const CodegenOptions *co, const Program *p);
void simt_emit_header(FILE *o, const CodegenOptions *co, const Program *p);
/* The header's SIMT types, before its declarations: tilec_vec.h and the
 * user structs of SIMT code (each under its own guard). */
void simt_emit_header_types(FILE *o, const Program *p);
#endif
