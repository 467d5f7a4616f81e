/* lower.h: what the files that lower one typed kernel specialization to
 * C-family code share (internal to codegen/; the entry points are in
 * emit.h).  One file per concern:
 *   values.c    element values: storage types, narrow-float loads/stores,
 *               literals, conversions and casts
 *   tiles.c     where a tile's elements live: the thread-value layout,
 *               element indices, broadcasts, shared-memory mirrors; the
 *               targets' tables (target.h)
 *   expr.c      element-wise expressions, evaluated inside the loop of the
 *               value that reads them (intra-kernel fusion)
 *   scan.c      the analysis before emission: which values materialise,
 *               which need shared-memory mirrors, buffer sizes
 *   memory.c    materialisation, tile_load/tile_store, inlined calls,
 *               gather, scatter and atomics
 *   reduce.c    reductions and scans
 *   mma.c       tensor-core products and fragment-resident accumulators
 *   pipeline.c  K loops as asynchronous copy pipelines
 *   smem.c      shared-memory planning
 *   tir.c       the tile IR (tir.h): values placed, operations lowered
 *   debug.c     tile_printf and tile_assert
 *   body.c      the launch plan, the declarations, emission of the
 *               operations
 *
 * Model.  Every tile value that is named (a variable, a loaded tile, the
 * result of an inlined tile function, a tile about to be stored) is
 * materialised in a per-thread register array; everything else (operators,
 * casts, math, factories) is evaluated element by element inside the loop
 * that fills the next materialised value, so a kernel's intermediates never
 * touch memory (intra-kernel fusion).
 *
 * Thread-value layout (CUDA).  A tile of n elements over T threads with
 * vector runs of V: thread t holds E = n/T elements; its element e is the
 * row-major element i = (e/V)*T*V + t*V + e%V.  Consecutive threads hold
 * consecutive runs of V elements, so a run of a contiguous row is one 16-byte
 * access and a warp's accesses are coalesced.  This is the CuTe layout
 * ((V,T),(E/V)) : ((1,V),(T*V)) from (value, thread) to the tile's row-major
 * index (see docs/design.md).  Tiles smaller than T elements are replicated:
 * thread t holds element t % n.  All tiles of one shape share one layout, so
 * same-shape operands combine register by register; a broadcast operand of a
 * different shape is read through a shared-memory mirror written when it was
 * materialised.  Register arrays are indexed only by the unrolled loop
 * counter, which the compiler resolves to constants.
 *
 * The Hopper variant is the one exception: there tiles of the
 * accumulator's shape take wgmma's accumulator layout (frag_tv, see
 * hopper_regs_layout), with runs of 2.
 *
 * Host target: one "thread" holds the whole tile (E = n, i = e), and a
 * broadcast operand is read from its array directly. */
#ifndef TILEC_LOWER_H
#define TILEC_LOWER_H
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit.h"
#include "codegen/target.h"
#include "codegen/tir.h"
#include "frontend/diag.h"
#include "sema/layout.h"
#include "tilec_fp.h"

typedef struct Emitter {
    FILE *o;
    int ind;
    Arena *ar;
    const Target *tg;   /* the target's table (target.h) */
    Program *p;
    Func *k;
    const CodegenOptions *co;
    int T, Vk;
    /* indexed by expression id */
    const char **tmp;   /* materialised name of a load / call / store value */
    Expr **tmp_expr;    /* the materialised expression itself */
    Dtype *tmp_dt;
    Shape *tmp_shape;
    bool *tmp_smem;
    /* indexed by symbol id */
    Symbol **syms;
    bool *sym_smem;
    int nlabels;
    int cont_label[64];
    int nloops;
    bool ok;
    int smem_bytes;
    int64_t red_bytes;  /* size of the shared buffer the generic reductions share */
    int64_t mma_bytes;  /* size of the shared buffer tile_mma stages through */
    int64_t vbox_bytes; /* size of the shared buffer view loads stage their boxes in (view.c) */
    bool *sym_frag;     /* symbol lives in WMMA accumulator fragments */
    int *mma_target;    /* expr id of a `v = tile_mma(a, b, v)` value -> v's id + 1 */
    Expr **mma_exprs;   /* expr id -> the tile_mma / tile_matmul expression */
    int *sym_kk;        /* the WMMA k of its updates */
    PipeLoop pipes[16]; /* K loops lowered as copy pipelines (pipeline.c) */
    int npipes;
    /* shared-memory mirrors: the transposes that read them (scan), and the
     * swizzle each was given (declaration) */
    Expr *perm_reads[32];
    int nperm_reads;
    struct MirrorRead {
        const Expr *x;     /* the mirrored value (a name or a materialised node) */
        const Shape *ctx;  /* read broadcast into this shape, in its threads' order */
    } bc_reads[64];
    int nbc_reads;
    struct MirrorSwz {
        const char *name;
        LayoutSwizzle sw[2]; /* element i at sw[1](sw[0](i)) */
        int nsw;
        int vec; /* > 1: written by runs of vec elements, each one vector store */
    } mswz[64];
    int nmswz;
    /* bcast_local's answers: the scan and every evaluation ask again */
    struct LocalBcast {
        Shape s, ctx;
        bool local;
    } lbc[16];
    int nlbc;
    TirKernel *tir;     /* the placed values and the operations (tir.h) */
    const char *bar;    /* a barrier of the block's T threads (a named barrier in hopper.c's variant) */
    const struct HopperPlan *hp; /* emitting the sm_90a variant (hopper.c), or NULL */
    const TirOp *early[4]; /* the sm_90a variant: loads after its K loop issued before it */
    int nearly;
    bool early_now;        /* emitting them (before the K loop), not skipping them */
    bool sm90_try;      /* planning it: pipeline_find also takes float8 loops */
    /* the variant's accumulator layout: tiles of frag_shape (the
     * accumulator's) are laid out as wgmma holds it (frag_tv), so the
     * epilogue runs on its registers (hopper_regs_layout) */
    bool frag_lay;
    Shape frag_shape;
    Layout frag_tv;
    const Param *tma_store; /* the array its epilogue stores with TMA (hopper_tma_store), or NULL */
    Shape tma_store_tile;   /* the tile it stores (rank 2 to 5, the box's shape) */
    const char *sym_prefix; /* read variables as <prefix>v<id> (hopper.c: another tile's scalars), or NULL */
    const char **sym_alias; /* by symbol id: read that variable under this name instead (a loop's next values), or NULL */
    Expr *prefetched[8];    /* view loads a loop already fetched one iteration ahead: not emitted in place */
    const struct FlashLoop *fp; /* emitting the flash variant (flash.c): its loop, or NULL */
    int nprefetched;
} Emitter;

/* The sm_90a variant of a kernel (hopper.c): its consumer warpgroups and
 * how they share the accumulator, and the ring of operand stages. */
/* An operand of the Hopper variant's K loop read through a view
 * (hopper_view.c): each step's tile is one TMA box of the view's array,
 * shape box[] along the array's axes, every estr[]-th element. */
typedef struct HopperBox {
    const struct View *v;     /* NULL: the operand is an array (the 2-D maps of hopper.c) */
    int ord[TILE_MAX_RANK];   /* by tile axis: the view axis it runs along */
    int axis[TILE_MAX_RANK];  /* by tile axis: the array axis of its first term (-1: extent 1) */
    int64_t box[TILE_MAX_RANK], estr[TILE_MAX_RANK]; /* by array axis */
    int k_tile;               /* the tile axis of K */
    bool nmajor;              /* B with N along the array's contiguous axis: boxes of 64 of it */
} HopperBox;

typedef struct HopperPlan {
    PipeLoop loop;      /* the K loop (a copy: the plan outlives the emitter) */
    const PipeLoop *pl; /* &loop */
    int nwg;            /* consumer warpgroups (T / 128) */
    int wg_m, wg_n;     /* their grid over the M x N accumulator */
    int64_t wm, wn;     /* rows and columns of a warpgroup's share */
    int mb;             /* 64-row wgmma blocks per warpgroup */
    int stages;
    int blocks_per_sm;  /* 2: two blocks share an SM (one consumer warpgroup) */
    bool persistent;    /* a persistent grid: each block walks tiles (hopper_emit_body) */
    bool pingpong;      /* two consumer warpgroups, each the kernel's 128 threads on a tile of its own */
    int64_t cstage_bytes; /* the persistent grid's staging of TMA stores, after the ring (each warpgroup's, ping-pong) */
    bool kmajor_b;      /* float8, tf32, int8: B read column-major (K-major), wgmma without transpose */
    bool fp8;           /* float8 operands: each K step's products summed apart (fp8_step) */
    bool acc_int;       /* int8 operands: an int32 accumulator (wgmma .s32) */
    int kstep;          /* K of one wgmma: 32 bytes of it (k16, k32 for bytes, k8 for tf32) */
    int64_t row_bytes;  /* of a K-long row of A (and of B's rows, K-major) */
    int swz_a;          /* bytes of A's swizzle: its row */
    const char *ptx_type; /* bf16, f16, e4m3, e5m2, tf32, s8 */
    int64_t a_bytes, stage_bytes;
    const char *arr[2]; /* the kernel's array parameters read as A and B */
    bool tma_only[2];   /* and read nowhere else */
    const Param *store; /* the array the epilogue stores with TMA (tma_c_: boxes of 128 bytes by M rows), or NULL */
    Shape store_tile;   /* the tile stored: its leading axes are the box's outer dimensions */
    const char *wgmma;  /* the name of its wgmma function (hopper_write_wgmma) */
    bool cluster;       /* launched in clusters of two that share loads by TMA multicast (hopper_check_ops) */
    bool streamk;       /* a persistent grid whose blocks may share the K steps of the last tiles (stream-K:
                         * streamk.c) */
    const char *why;    /* without the variant: why not (for --remarks), NULL when the kernel has no K loop of
                         * tile_mma for it to take */
    const Stmt *at;     /* that K loop (the first, of several) */
    HopperBox vbox[2];  /* operands read through views (vbox[i].v), as TMA boxes */
    bool views;         /* either is */
    bool share_ok[2];   /* and A's (B's) .index entries that read the K loop's variable read nothing of the
                         * tile, so that the two tiles share the operand at every step or at none */
} HopperPlan;

/* A fused attention loop (flash.c): the loop, the roles of its
 * variables, and the key and value loads. */
typedef struct FlashOperand {
    const Expr *load;   /* the tile_load (without its reshapes) */
    const Param *param; /* the array */
    int key_axis, d_axis; /* its axes of keys (the loop's) and of d (the last) */
    int unit_axis[TILE_MAX_RANK]; /* by tile axis: the array axis of a unit tile axis, or -1 */
} FlashOperand;

typedef struct FlashLoop {
    const Func *func;
    const Stmt *loop;
    Symbol *n;          /* the loop variable */
    const Expr *hi;     /* n < hi */
    Symbol *q, *s, *m, *mnew, *p, *alpha, *l, *acc;
    const Expr *scale;  /* s = q @ k^T * scale, or NULL */
    const Expr *mask;   /* s = where(mask, s, -inf), or NULL */
    FlashOperand k, v;
    Dtype dtype;        /* of q, k and v: float16 or bfloat16 */
    int exp;            /* tile_exp2, .approx tile_exp2, tile_exp, .approx tile_exp: 0 .. 3 */
    int64_t BM, BN, D;
    int warps, mt;      /* BM = 16 * mt * warps: mt m-tiles of 16 rows a warp */
    int stages;         /* of the key and value copies */
} FlashLoop;

typedef struct Ctx {
    const Shape *shape; /* the shape of the value being filled */
    const char *idx;    /* its linear (row-major) element index */
    bool home;          /* idx is this thread's own element of shape: its
                         * register is e_, or eidx where that is set (a
                         * broadcast operand held by the same thread) */
    const char *eidx;
} Ctx;

/* Writes one line of generated code at the current indentation. */
static inline void line(Emitter *em, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void line(Emitter *em, const char *fmt, ...)
{
    for (int i = 0; i < em->ind; i++) fputs("    ", em->o);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(em->o, fmt, ap);
    va_end(ap);
    fputc('\n', em->o);
}

/* A string of generated code, in the compile's arena (needs `em` in scope). */
#define S(...) arena_printf(em->ar, __VA_ARGS__)

/* An array parameter's layout as the tile sees it: a layout whose strides
 * are run-time values (C expressions), its modes in the tile's dimension
 * order (`.order` applied), and the tile's corner.  Element offsets are this
 * layout applied to the tile's coordinates (tv_array_offset). */
typedef struct ArrayView {
    int rank;
    const char *origin[TILE_MAX_RANK]; /* o_k: the tile's corner along tile dimension k */
    const char *stride[TILE_MAX_RANK]; /* its stride; NULL: 1, known (the ALIGNED last dimension) */
    const char *extent[TILE_MAX_RANK]; /* the array's extent along it (bounds) */
} ArrayView;

/* A tile's thread-value layout as numbers (tiles.c): n elements, E per
 * thread in vector runs of V; repl: fewer elements than threads, so thread
 * t holds element t % n. */
typedef struct Lay {
    int64_t n;
    int E, V;
    bool repl;
} Lay;

typedef struct MmaKind {
    const char *sty;   /* staging type in shared memory */
    const char *fmt;   /* compute value -> staging value */
    const char *frag;  /* WMMA element type */
    const char *cty;   /* accumulator type */
    int kk;            /* WMMA k */
    int esize;         /* staging element bytes */
    int pad;           /* row padding (elements) against bank conflicts */
    bool bits_match;   /* staging bits equal the storage bits (vector copy) */
    const char *raw;   /* 16-bit operands: the mma.sync helper (tilec_ops.h), not WMMA */
} MmaKind;

/* How the warps share the 16x16 output blocks of an M x N tile_mma.  When
 * the blocks divide evenly, the warps form a wm x wn grid and each owns an
 * fm x fn rectangle of blocks, chosen to minimise fm + fn: per k step a
 * warp loads fm A and fn B fragments for fm * fn mma_sync (a 2x2 rectangle
 * loads 4 fragments for 4 products where a column of 4 loads 8).
 * Otherwise (fewer blocks than warps, or no fitting grid) warp w owns blocks
 * w, w + nw, ... in row-major order (fm = 0). */
typedef struct MmaTiling {
    int64_t blocks, bpw; /* blocks in all, per warp */
    int wn;              /* warps along N */
    int64_t fm, fn;      /* blocks per warp along M and N; fm = 0: 1-D */
    /* wgmma's arrangement (the accumulator of a K loop that runs on wgmma
     * in sm_90a builds, pipeline.c): warpgroups in a grid of wgn along N,
     * row-major, each on 64 rows, its four warps on consecutive 16-row
     * strips of them (fm = 1); 0 for the wm x wn grid above */
    int wgn;
} MmaTiling;

/* values.c */
char *val_ld(Emitter *em, Dtype d, const char *v);
char *val_st(Emitter *em, Dtype d, const char *v);
char *val_st_assign(Emitter *em, Dtype d, const Expr *value, const char *v);
char *val_round(Emitter *em, Dtype d, const char *v);
const char *val_utype(Dtype d);
char *val_lit(Emitter *em, const ConstValue *c, Dtype d);
char *val_conv(Emitter *em, const char *v, Dtype from, Dtype to);
char *val_cast(Emitter *em, const char *v, Dtype from, Dtype to, int64_t mode, bool sat);

/* tiles.c */
int tv_log2(int64_t v);
char *tv_view_index(Emitter *em, const char *idx, const Shape *ishape, const Layout *v, int64_t offset);
char *tv_bcast_index(Emitter *em, const char *idx, const Shape *from, const Shape *to);
bool tv_view_layout(const Expr *e, Layout *v, int64_t *offset);
char *tv_coord(Emitter *em, const char *idx, const Shape *s, int k);
bool tv_frag(const Emitter *em, const Shape *s);
Lay tv_lay(Emitter *em, const Shape *s);
char *tv_run_index(Emitter *em, const Shape *s, const char *r, const char *elem);
char *tv_run_index_of(Emitter *em, const Shape *s, const char *t, const char *r, const char *elem);
char *tv_layout_expr(Emitter *em, const Layout *tv, const char *t, const char *e);
int tv_vector_width(Emitter *em, const Shape *s, const int *ord);
char *tv_array_offset(Emitter *em, const char *ix, const Shape *s, const ArrayView *a);
char *tv_padded_index(Emitter *em, const char *ix, int64_t rows, int64_t cols, int64_t ld);
char *tv_array_inbounds(Emitter *em, const char *ix, const Shape *s, const ArrayView *a);
bool tv_agree(Emitter *em, const Shape *a, const Shape *b);
bool tv_bcast_local(Emitter *em, const Shape *s, const Shape *ctx);
const char *tv_home_idx(Emitter *em);
const char *tv_ctx_reg(Emitter *em, Ctx c);
void tv_open_loop(Emitter *em, const Shape *s);
void tv_close_loop(Emitter *em);
char *tv_mirror_at(Emitter *em, const char *name, const char *ix);
bool tv_same_home(Emitter *em, const Shape *s, const Shape *ctx);
char *tv_read(Emitter *em, const char *name, Dtype d, const Shape *s, bool smem, Ctx c);
const char *tv_sym_name(Emitter *em, const Symbol *sym);
void tv_mirror_swizzle(Emitter *em, const char *name, Dtype d, const Shape *s, const Symbol *sym, int tmp_id);
int tv_mirror_vec(Emitter *em, const char *name);
const struct MirrorSwz *tv_mirror_find(const Emitter *em, const char *name);
void tv_open_runs(Emitter *em, const Shape *s, int runs);

/* expr.c */
char *ex_evc(Emitter *em, Expr *e, Ctx c, Dtype to);
Ctx ex_sub_ctx(Emitter *em, Expr *e, Ctx c);
Dtype ex_concrete(Dtype d, const ConstValue *v);
int64_t ex_opt_int(Expr *e, const char *name, int64_t dflt);
bool ex_same_order_view(Builtin b);
char *ex_ev(Emitter *em, Expr *e, Ctx c);

/* scan.c */
void scan_stmt(Emitter *em, Stmt *st);

/* memory.c */
void mem_write_mirror(Emitter *em, const char *name, const Shape *s);
void mem_materialize(Emitter *em, const char *name, Dtype d, const Shape *s, Expr *value);
void mem_load(Emitter *em, Expr *e);
void mem_store(Emitter *em, Expr *e);
/* The tile's corner o<k>_ along each tile axis, from e's .index. */
void mem_origin(Emitter *em, Expr *e, const Shape *s);
void mem_prologue(Emitter *em, Expr *e, const Shape *s, const int *ord, const char *arr);
void mem_indexed(Emitter *em, Expr *e);
/* The array (or view) axis each tile axis runs along (.order). */
void mem_tile_order(Expr *e, int rank, int *ord);
/* The value TILE_PAD_* pad gives an element of dtype d. */
const char *mem_pad_value(Emitter *em, Dtype d, int64_t pad);

/* view.c */
/* The view e's first argument names, or NULL (an array). */
const struct View *view_arg(const Expr *e);
void view_split_terms(Emitter *em, const struct View *v, const char *const *te);
char *view_array_coord(Emitter *em, const struct View *v, int j);
/* tile_dim of array or view a along axis. */
char *view_dim(Emitter *em, const Expr *a, int64_t axis);
void view_load(Emitter *em, Expr *e);
/* Fetching a view load one K-loop iteration ahead (body.c): whether e can
 * be; its registers (before the loop); the fetch, with the variables'
 * current names (em->sym_alias: the next iteration's); and, in the
 * iteration, its value from those registers. */
bool view_prefetchable(Emitter *em, Expr *e);
void view_prefetch_declare(Emitter *em, Expr *e);
void view_prefetch_issue(Emitter *em, Expr *e);
void view_prefetch_consume(Emitter *em, Expr *e);
/* Bytes of the shared-memory box that load e stages its view through, or
 * 0 when it reads global memory element by element (view.c). */
int64_t view_box_bytes(Emitter *em, Expr *e);
/* A view load as an operand of a pipelined K loop (pipeline.c): the
 * elements of its box (0: it cannot be one), the box's copies into dst, and
 * the gather of the rows x cols operand from the box at `box` into dst, in
 * tilec_swz<cols>'s layout (mn: tilec_swz_mn<rows>'s, wgmma's B). */
int64_t view_pipe_box(Emitter *em, Expr *e);
/* Whether load e's view nests an extent of its array inside a mode (its
 * footprint is then a box only under a run-time condition). */
bool view_inner_dynamic(const Expr *e);
void view_box_issue(Emitter *em, Expr *e, const char *dst);
void view_box_gather(Emitter *em, Expr *e, const char *box, const char *dst, int64_t rows, int64_t cols, bool mn);
/* tile_store e through its view: the value already in name's registers,
 * in tile order ord and layout l (mem_store). */
void view_store(Emitter *em, Expr *e, const char *name, const int *ord, Lay l);

/* reduce.c */
void red_note(Emitter *em, Expr *e);
void red_emit(Emitter *em, Expr *e);
void red_scan(Emitter *em, Expr *e);

/* mma.c */
MmaKind mma_kind(Dtype t);
char *mma_frag_acc_type(Emitter *em, Dtype acc, int kk);
int64_t mma_acc_ld(int64_t N);
MmaTiling mma_tiling(const Emitter *em, int64_t M, int64_t N);
void mma_products(Emitter *em, const MmaKind *k, const MmaTiling *g, int64_t N, int64_t K, int64_t lda, int64_t ldb, bool swz, const char *cf);
void mma_core(Emitter *em, Expr *e, const char *frag_sym);
void mma_emit(Emitter *em, Expr *e);
int64_t mma_bytes(const Expr *e);
bool mma_is_frag_update(const Stmt *st);
void mma_frag_to_registers(Emitter *em, Symbol *sym);
void mma_registers_to_frag(Emitter *em, Symbol *sym, Expr *init);
void mma_staged_to_registers(Emitter *em, Symbol *sym);
char *mma_uniform_init(Emitter *em, Expr *e, Dtype d);

/* flash.c */
bool flash_match(const Func *f, const Stmt *st, FlashLoop *fl);
int64_t flash_smem_bytes(const FlashLoop *fl);
bool flash_may_wgmma(const FlashLoop *fl);
void flash_emit_for(Emitter *em, const TirOp *op);
char *flash_launch_test(Arena *ar, const FlashLoop *fl);
bool flash_homes_ok(Emitter *em);
bool flash_find(const Func *k, FlashLoop *fl);
bool codegen_has_flash(const Program *p, const CodegenOptions *co);

/* hopper.c */
bool hopper_plan(Emitter *em, HopperPlan *hp, bool regs);
/* false, with why the kernel has no sm_90a variant (HopperPlan.why, for --remarks) */
bool hopper_no_plan(HopperPlan *hp, const char *why);
int hopper_block_threads(const HopperPlan *hp, int T);
int64_t hopper_ring_bytes(const HopperPlan *hp);
const Target *hopper_target(const HopperPlan *hp);
bool hopper_check_ops(Emitter *em, HopperPlan *hp);
const char *hopper_wgmma_name(const HopperPlan *hp);
const char *hopper_acc_type(const HopperPlan *hp);
void hopper_write_wgmma(FILE *o, const HopperPlan *hp);
void hopper_emit_for(Emitter *em, const TirOp *op);
void hopper_to_frag(Emitter *em, const TirOp *op);
void hopper_to_regs(Emitter *em, const TirOp *op);
bool hopper_regs_layout(Emitter *em);
bool hopper_tma_store(Emitter *em, Expr *e);
bool hopper_regs_ok(const Emitter *em);
void hopper_emit_body(Emitter *em);
/* hopper.c's pieces that streamk.c writes with: the tile vt's coordinates,
 * the scalars before the K loop, the loop's bounds (pk0_, pn_), the
 * consumers' steps [kb_, ke_) on accumulator f; whether the loop has the
 * same bounds for every tile. */
void hopper_tile_coords(Emitter *em, const char *vt);
void hopper_tile_scalars(Emitter *em, const TirOp *loop);
void hopper_loop_bounds(Emitter *em, const TirOp *op);
void hopper_consumer_steps(Emitter *em, const TirOp *op, const char *f);
bool hopper_bounds_fixed(Emitter *em, const HopperPlan *hp, const TirOp *loop);
/* hopper_view.c: view operands as TMA boxes */
bool hview_plan(Emitter *em, HopperPlan *hp);
const Param *hview_array(const HopperPlan *hp, int i);
char *hview_ksteps(Emitter *em);
void hview_issue(Emitter *em, int i);
void hview_zero_outside(Emitter *em, const char *f);
void hview_launch_test(FILE *o, Arena *ar, const HopperPlan *hp, int i);
void hview_launch_map(FILE *o, const HopperPlan *hp, int i, const char *var, const char *dt, const char *sw);
/* streamk.c: stream-K on the persistent grid (hp->streamk). */
bool streamk_ok(Emitter *em, const HopperPlan *hp, const TirOp *loop);
void streamk_setup(Emitter *em, const TirOp *loop);
void streamk_units(Emitter *em);
void streamk_consumers(Emitter *em, const TirOp *loop);
void streamk_finish(Emitter *em, const char *f);

/* pipeline.c (emission) */
int pipeline_smem_limit(int arch);
int pipeline_smem_limit_of(const CodegenOptions *co);
void pipeline_emit_for(Emitter *em, const TirOp *op);
void pipeline_find(Emitter *em, Stmt *st);
/* Whether a K loop under st would take view operands (guarded: whose
 * footprints are boxes only under a run-time condition), before lowering:
 * the kernel's launch bounds, codegen/cuda.c. */
bool pipeline_has_views(const Stmt *st, bool guarded);
/* After pipeline_find: drops the shared memory the scan planned for loads
 * that pipelines with view operands now stage themselves. */
void pipeline_release(Emitter *em, Stmt *body);
int64_t pipeline_bytes(const Emitter *em, const PipeLoop *pl);
/* The operand stage buffers of pipelined loop pl, as IR values (tir.c). */
void pipeline_buffers(Emitter *em, const PipeLoop *pl, TirValue *a, TirValue *b);
/* The stages of the ring of loop pl. */
int pipeline_stages(const Emitter *em, const PipeLoop *pl);

/* debug.c: tile_printf and tile_assert at their operations */
void dbg_emit_printf(Emitter *em, Expr *e);
void dbg_emit_assert(Emitter *em, Expr *e);

/* body.c */
void body_emit_ops(Emitter *em, const TirOp *ops);
void body_emit_op(Emitter *em, const TirOp *op);
/* emit_kernel_body, also handing back the IR it emitted from (tir may be NULL). */
bool body_lower(FILE *out, Program *p, Func *f, bool cuda, const CodegenOptions *o, KernelPlan *plan, TirKernel **tir);
bool body_lower_sm90(FILE *out, Program *p, Func *f, const CodegenOptions *o, KernelPlan *plan, HopperPlan *hp, bool regs);
bool body_lower_flash(FILE *out, Program *p, Func *f, const CodegenOptions *o, KernelPlan *plan, const FlashLoop *fl);

/* smem.c */
bool smem_plan(Emitter *em);

/* tir.c */
void tir_place(Emitter *em);
void tir_lower(Emitter *em);
#endif
