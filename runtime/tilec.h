/* tilec.h: the Tile C language header.  Kernel sources include it; it makes
 * them valid C23 (clang -std=c2x) so that libclang can parse them, and tilec
 * recognises the annotations and the __tilec_* builtins it declares.  Nothing
 * here is ever executed: the declarations only give the builtins a C type.
 * The language is specified in docs/language.md. */
#ifndef TILEC_H
#define TILEC_H
/* A .tile.c is also a .c: a glob or make's implicit %.o: %.c rule can hand
 * it to a C compiler, which would only warn about the annotations and leave
 * a link that fails far from the cause.  tilec defines __TILEC__ to 1 when
 * it parses; anything else stops here.  (An editor's language server that
 * should read Tile C sources: give it -D__TILEC__=1.) */
#ifndef __TILEC__
#error "this is Tile C: compile it with tilec, not a C compiler (a *.c glob or make's implicit %.o: %.c rule picked up a .tile.c?)"
#endif
#include <stdbool.h>
#include <stdint.h>

/* Element types that C has no name for.  tf32 values live in float
 * containers; float8 values in bytes.  The typedef names are what tilec
 * recognises, so always spell these types through them. */
typedef float tilec_tf32;
typedef unsigned char tilec_fp8_e4m3;
typedef unsigned char tilec_fp8_e5m2;

/* Annotations. */
#define TILE_KERNEL __attribute__((annotate("tilec.kernel")))
#define TILE_FUNC __attribute__((annotate("tilec.func"))) static inline
/* A function defined outside Tile C, applied element by element to tiles:
 * in CUDA C++ (`extern "C" __device__`, linked with -rdc) on the GPU, in C
 * on the host target.  Scalar parameters of element types; no body here. */
#define TILE_EXTERN __attribute__((annotate("tilec.extern"))) extern
/* Spells its arguments after expanding them, so that the rank and the
 * constant lists below may be given through macros (-DBLOCK=128). */
#define TILE_STR_(...) #__VA_ARGS__
#define TILE_XSTR_(...) TILE_STR_(__VA_ARGS__)
/* A global array parameter: element type T (const T for read-only), rank N. */
#define TILE_ARRAY(T, N) __attribute__((annotate("tilec.array:" TILE_XSTR_(N)))) T *
/* An array kernel: a function whose parameters are whole arrays
 * (TILE_NDARRAY), scalars and constants, and whose body assigns whole-array
 * expressions to its output arrays, `A = B + C * D + tile_sin(E) * F + 10;`,
 * with NumPy broadcasting, or reductions along an axis, `s = tile_sum(X * Y,
 * .axis = 1);`.  tilec chooses the tiles and the grid; the launch function
 * takes the stream and the arrays (docs/language.md, "Array kernels"). */
#define TILE_ARRAY_KERNEL __attribute__((annotate("tilec.array_kernel")))
/* An array kernel's array parameter: element type T (const T for an input),
 * rank N; in its body the name is the whole array as a value. */
#define TILE_NDARRAY(T, N) __attribute__((annotate("tilec.ndarray:" TILE_XSTR_(N)))) T
/* A kernel graph: a function that calls array kernels in order on its
 * arrays and on temporary arrays it declares (TILE_TEMP).  tilec fuses the
 * calls it can into one kernel and launches the rest in order; its launch
 * function takes a workspace for the temporaries it keeps in memory
 * (docs/language.md, "Kernel graphs"). */
#define TILE_GRAPH __attribute__((annotate("tilec.graph")))
/* A graph's temporary array of element type T and rank N; its shape is what
 * the call that first writes it gives it. */
#define TILE_TEMP(T, N) __attribute__((annotate("tilec.temp:" TILE_XSTR_(N)), unused)) T
/* A view: a local that sees an array (or another view) through a CuTe
 * layout, built by a tile_view_* constructor and read and written by
 * tile_load and tile_store like an array of rank N (docs/language.md,
 * "Views"): `TILE_VIEW(const _Float16, 3) xt = tile_view_transpose(x);`.
 * Nothing is copied; the layout is folded into the loads' addresses. */
#define TILE_VIEW(T, N) __attribute__((annotate("tilec.view:" TILE_XSTR_(N)))) T *
/* A compile-time constant parameter, compiled once for each listed value;
 * the launcher dispatches on the run-time value. */
#define TILE_CONST(T, ...) __attribute__((annotate("tilec.const:" TILE_XSTR_(__VA_ARGS__)))) const T
/* A TILE_CONST the launcher chooses itself (ahead-of-time autotuning): the
 * launch function takes neither it nor a grid, and picks the value from the
 * tuning table compiled in with --tuning (docs/cli.md). */
#define TILE_TUNABLE(T, ...) __attribute__((annotate("tilec.tunable:" TILE_XSTR_(__VA_ARGS__)))) const T
/* A tunable int that is also the kernel's number of CUDA threads per block
 * (multiples of 32 up to 1024; it overrides --max-threads for this kernel,
 * and the host target, one thread per block, ignores it). */
#define TILE_THREADS(...) __attribute__((annotate("tilec.threads"))) TILE_TUNABLE(int, __VA_ARGS__)

/* Option values. */
enum tilec_padding {
    TILE_PAD_UNDETERMINED = 0, TILE_PAD_ZERO, TILE_PAD_NEG_ZERO, TILE_PAD_NAN,
    TILE_PAD_POS_INF, TILE_PAD_NEG_INF
};
enum tilec_rounding {
    TILE_RN = 1, TILE_RZ, TILE_RM, TILE_RP, TILE_FULL, TILE_APPROX, TILE_RZI
};
/* Memory order and scope of atomics (seed 001's atomics): relaxed and
 * device scope unless given. */
enum tilec_memory_order { TILE_RELAXED = 1, TILE_ACQUIRE, TILE_RELEASE, TILE_ACQ_REL, TILE_SEQ_CST, TILE_CONSUME };
enum tilec_scope { TILE_SCOPE_BLOCK = 1, TILE_SCOPE_DEVICE, TILE_SCOPE_SYSTEM, TILE_SCOPE_THREAD };
/* (TILE_CONSUME and TILE_SCOPE_THREAD: SIMT atomics only; consume is
 * compiled as acquire, as C++ compilers do) */
/* order: a permutation of the dimensions, fastest-varying last ('C' order is
 * the identity); TILE_ORDER_F spells Fortran order for any rank. */
#define TILE_ORDER_C {-2}
#define TILE_ORDER_F {-1}

/* Target specialization (seed 001): `if (tile_target(desc))` compiles its
 * branches for the targets desc describes only (#if on __CUDA_ARCH__).  A
 * description is a set of targets built from tile_provides(sm) (sm and every
 * later architecture), tile_is_exactly(sm), tile_is_host, tile_is_device,
 * tile_any_target and tile_no_target with |, &, ^ and ~ (docs/language.md). */
enum tilec_sm {
    TILE_SM_50 = 50, TILE_SM_52 = 52, TILE_SM_53 = 53, TILE_SM_60 = 60, TILE_SM_61 = 61, TILE_SM_62 = 62,
    TILE_SM_70 = 70, TILE_SM_72 = 72, TILE_SM_75 = 75, TILE_SM_80 = 80, TILE_SM_86 = 86, TILE_SM_87 = 87,
    TILE_SM_89 = 89, TILE_SM_90 = 90, TILE_SM_100 = 100, TILE_SM_101 = 101, TILE_SM_103 = 103,
    TILE_SM_110 = 110, TILE_SM_120 = 120, TILE_SM_121 = 121
};
typedef uint64_t tilec_targets;

/* Options, written as designated initializers after the positional
 * arguments: tile_load(a, .index = {i, j}, .shape = {16, 16}). */
struct tilec_mem_opts {
    int64_t index[8];
    int64_t shape[8];
    int order[8];
    int padding;
    int latency;
    int memory_order; /* atomics: TILE_RELAXED ... TILE_SEQ_CST */
    int scope;        /* atomics: TILE_SCOPE_BLOCK, _DEVICE, _SYSTEM */
};
/* View constructors' options (all compile-time constants):
 *   .axes      permute: the source axis of each view axis
 *   .low/.high pad: elements added before/after each axis; window and
 *              im2col: the padding of each windowed axis
 *   .size, .stride, .dilation  window and im2col: per windowed axis
 *   .window_axes  window: the axes windowed (default: the last ones)
 *   .offset    layout: added to the array coordinates
 *   .padding   what elements outside the array read (TILE_PAD_*; zero)
 *   .channels_last  im2col: the array is (N, spatial..., C) */
struct tilec_view_opts {
    int axes[8];
    int64_t low[8];
    int64_t high[8];
    int64_t size[8];
    int64_t stride[8];
    int64_t dilation[8];
    int window_axes[8];
    int64_t offset[8];
    int padding;
    bool channels_last;
};
/* gather/scatter/atomics take tiles of indices in .index; cat and extract
 * use .axis and .index/.shape. */
struct tilec_cat_opts { int axis; };
struct tilec_shape_opts { int64_t shape[8]; };
struct tilec_cast_opts { int rounding; bool saturate; };
struct tilec_math_opts { int rounding; bool approx; bool ftz; };
struct tilec_reduce_opts { int axis[8]; bool keepdims; };
struct tilec_scan_opts { int axis; bool exclusive; bool reverse; };

/* The builtins.  Tile values are typed double here so that any element type
 * converts; tilec types them again with Tile C's rules.  Block indices and
 * counts (int32) and array extents (int64) are integers, so that integer
 * operators (%, <<, &) take them. */
int32_t __tilec_bid(int axis);
int32_t __tilec_num_blocks(int axis);
/* variadic: an array kernel passes a TILE_NDARRAY, which C sees as an element */
int64_t __tilec_dim(...);
double __tilec_load(const void *array, struct tilec_mem_opts o);
void __tilec_store(const void *array, double tile, struct tilec_mem_opts o); /* const: tilec checks */
double __tilec_zeros(double dtype, struct tilec_shape_opts o);
double __tilec_ones(double dtype, struct tilec_shape_opts o);
double __tilec_full(double dtype, double value, struct tilec_shape_opts o);
double __tilec_arange(double dtype, struct tilec_shape_opts o);
double __tilec_cast(double x, double dtype, struct tilec_cast_opts o);
double __tilec_exp(double x, struct tilec_math_opts o);
double __tilec_exp2(double x, struct tilec_math_opts o);
double __tilec_log(double x, struct tilec_math_opts o);
double __tilec_log2(double x, struct tilec_math_opts o);
double __tilec_sqrt(double x, struct tilec_math_opts o);
double __tilec_rsqrt(double x, struct tilec_math_opts o);
double __tilec_sin(double x, struct tilec_math_opts o);
double __tilec_cos(double x, struct tilec_math_opts o);
double __tilec_tanh(double x, struct tilec_math_opts o);
double __tilec_abs(double x, struct tilec_math_opts o);
double __tilec_floor(double x, struct tilec_math_opts o);
double __tilec_ceil(double x, struct tilec_math_opts o);
double __tilec_pow(double x, double y, struct tilec_math_opts o);
double __tilec_fma(double x, double y, double z, struct tilec_math_opts o);
double __tilec_minimum(double x, double y, struct tilec_math_opts o);
double __tilec_maximum(double x, double y, struct tilec_math_opts o);
double __tilec_truediv(double x, double y, struct tilec_math_opts o);
double __tilec_where(double cond, double x, double y);
double __tilec_sum(double x, struct tilec_reduce_opts o);
double __tilec_prod(double x, struct tilec_reduce_opts o);
double __tilec_max(double x, struct tilec_reduce_opts o);
double __tilec_min(double x, struct tilec_reduce_opts o);
double __tilec_argmax(double x, struct tilec_reduce_opts o);
double __tilec_argmin(double x, struct tilec_reduce_opts o);
double __tilec_any(double x, struct tilec_reduce_opts o);
double __tilec_all(double x, struct tilec_reduce_opts o);
double __tilec_cumsum(double x, struct tilec_scan_opts o);
double __tilec_cumprod(double x, struct tilec_scan_opts o);
double __tilec_reshape(double x, struct tilec_shape_opts o);
double __tilec_broadcast_to(double x, struct tilec_shape_opts o);
double __tilec_permute(double x, struct tilec_reduce_opts o);
double __tilec_transpose(double x);
double __tilec_expand_dims(double x, struct tilec_reduce_opts o);
double __tilec_squeeze(double x, struct tilec_reduce_opts o);
double __tilec_cat(double a, double b, struct tilec_cat_opts o);
double __tilec_extract(double x, struct tilec_mem_opts o);
double __tilec_gather(const void *array, struct tilec_mem_opts o);
void __tilec_scatter(const void *array, double tile, struct tilec_mem_opts o);
double __tilec_atomic_add(void *array, double tile, struct tilec_mem_opts o);
double __tilec_atomic_max(void *array, double tile, struct tilec_mem_opts o);
double __tilec_atomic_min(void *array, double tile, struct tilec_mem_opts o);
double __tilec_atomic_xchg(void *array, double tile, struct tilec_mem_opts o);
double __tilec_atomic_cas(void *array, double expected, double desired, struct tilec_mem_opts o);
double __tilec_atomic_sub(void *array, double tile, struct tilec_mem_opts o);
double __tilec_atomic_and(void *array, double tile, struct tilec_mem_opts o);
double __tilec_atomic_or(void *array, double tile, struct tilec_mem_opts o);
double __tilec_atomic_xor(void *array, double tile, struct tilec_mem_opts o);
bool __tilec_target(tilec_targets desc);
tilec_targets __tilec_provides(int sm);
tilec_targets __tilec_is_exactly(int sm);
tilec_targets __tilec_is_host(void);
tilec_targets __tilec_is_device(void);
tilec_targets __tilec_any_target(void);
tilec_targets __tilec_no_target(void);
void *__tilec_view_transpose(const void *a);
void *__tilec_view_permute(const void *a, struct tilec_view_opts o);
void *__tilec_view_pad(const void *a, struct tilec_view_opts o);
void *__tilec_view_window(const void *a, struct tilec_view_opts o);
void *__tilec_view_im2col(const void *a, struct tilec_view_opts o);
void *__tilec_view_layout(const void *a, const char *layout, struct tilec_view_opts o);
double __tilec_mma(double a, double b, double acc);
double __tilec_matmul(double a, double b);
/* tile_printf and tile_assert: the leading 0 keeps C happy with a format or
 * condition of any type (tilec checks them). */
void __tilec_printf(int tilec_unused_, ...);
void __tilec_assert(int tilec_unused_, ...);

/* The spellings kernels use. */
#define tile_bid(axis) __tilec_bid(axis)
#define tile_num_blocks(axis) __tilec_num_blocks(axis)
#define tile_dim(array, axis) __tilec_dim(array, axis)
#define tile_load(array, ...) __tilec_load(array, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_store(array, tile, ...) __tilec_store(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_zeros(T, ...) __tilec_zeros((T)0, (struct tilec_shape_opts){__VA_ARGS__})
#define tile_ones(T, ...) __tilec_ones((T)0, (struct tilec_shape_opts){__VA_ARGS__})
#define tile_full(T, value, ...) __tilec_full((T)0, value, (struct tilec_shape_opts){__VA_ARGS__})
#define tile_arange(T, ...) __tilec_arange((T)0, (struct tilec_shape_opts){__VA_ARGS__})
#define tile_cast(x, T, ...) __tilec_cast(x, (T)0, (struct tilec_cast_opts){__VA_ARGS__})
#define tile_exp(x, ...) __tilec_exp(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_exp2(x, ...) __tilec_exp2(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_log(x, ...) __tilec_log(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_log2(x, ...) __tilec_log2(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_sqrt(x, ...) __tilec_sqrt(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_rsqrt(x, ...) __tilec_rsqrt(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_sin(x, ...) __tilec_sin(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_cos(x, ...) __tilec_cos(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_tanh(x, ...) __tilec_tanh(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_abs(x, ...) __tilec_abs(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_floor(x, ...) __tilec_floor(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_ceil(x, ...) __tilec_ceil(x, (struct tilec_math_opts){__VA_ARGS__})
#define tile_pow(x, y, ...) __tilec_pow(x, y, (struct tilec_math_opts){__VA_ARGS__})
#define tile_fma(x, y, z, ...) __tilec_fma(x, y, z, (struct tilec_math_opts){__VA_ARGS__})
#define tile_minimum(x, y, ...) __tilec_minimum(x, y, (struct tilec_math_opts){__VA_ARGS__})
#define tile_maximum(x, y, ...) __tilec_maximum(x, y, (struct tilec_math_opts){__VA_ARGS__})
#define tile_truediv(x, y, ...) __tilec_truediv(x, y, (struct tilec_math_opts){__VA_ARGS__})
#define tile_where(cond, x, y) __tilec_where(cond, x, y)
#define tile_sum(x, ...) __tilec_sum(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_prod(x, ...) __tilec_prod(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_max(x, ...) __tilec_max(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_min(x, ...) __tilec_min(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_argmax(x, ...) __tilec_argmax(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_argmin(x, ...) __tilec_argmin(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_any(x, ...) __tilec_any(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_all(x, ...) __tilec_all(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_cumsum(x, ...) __tilec_cumsum(x, (struct tilec_scan_opts){__VA_ARGS__})
#define tile_cumprod(x, ...) __tilec_cumprod(x, (struct tilec_scan_opts){__VA_ARGS__})
#define tile_reshape(x, ...) __tilec_reshape(x, (struct tilec_shape_opts){__VA_ARGS__})
#define tile_broadcast_to(x, ...) __tilec_broadcast_to(x, (struct tilec_shape_opts){__VA_ARGS__})
#define tile_permute(x, ...) __tilec_permute(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_transpose(x) __tilec_transpose(x)
#define tile_expand_dims(x, ...) __tilec_expand_dims(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_squeeze(x, ...) __tilec_squeeze(x, (struct tilec_reduce_opts){__VA_ARGS__})
#define tile_cat(a, b, ...) __tilec_cat(a, b, (struct tilec_cat_opts){__VA_ARGS__})
#define tile_extract(x, ...) __tilec_extract(x, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_gather(array, ...) __tilec_gather(array, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_scatter(array, tile, ...) __tilec_scatter(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_atomic_add(array, tile, ...) __tilec_atomic_add(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_atomic_max(array, tile, ...) __tilec_atomic_max(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_atomic_min(array, tile, ...) __tilec_atomic_min(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_atomic_xchg(array, tile, ...) __tilec_atomic_xchg(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_atomic_sub(array, tile, ...) __tilec_atomic_sub(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_atomic_and(array, tile, ...) __tilec_atomic_and(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_atomic_or(array, tile, ...) __tilec_atomic_or(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_atomic_xor(array, tile, ...) __tilec_atomic_xor(array, tile, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_atomic_cas(array, expected, desired, ...) \
    __tilec_atomic_cas(array, expected, desired, (struct tilec_mem_opts){__VA_ARGS__})
#define tile_target(desc) __tilec_target(desc)
#define tile_provides(sm) __tilec_provides(sm)
#define tile_is_exactly(sm) __tilec_is_exactly(sm)
#define tile_is_host __tilec_is_host()
#define tile_is_device __tilec_is_device()
#define tile_any_target __tilec_any_target()
#define tile_no_target __tilec_no_target()
/* Views (docs/language.md, "Views"). */
#define tile_view_transpose(a) __tilec_view_transpose(a)
#define tile_view_permute(a, ...) __tilec_view_permute(a, (struct tilec_view_opts){__VA_ARGS__})
#define tile_view_pad(a, ...) __tilec_view_pad(a, (struct tilec_view_opts){__VA_ARGS__})
#define tile_view_window(a, ...) __tilec_view_window(a, (struct tilec_view_opts){__VA_ARGS__})
#define tile_view_im2col(a, ...) __tilec_view_im2col(a, (struct tilec_view_opts){__VA_ARGS__})
#define tile_view_layout(a, layout, ...) __tilec_view_layout(a, layout, (struct tilec_view_opts){__VA_ARGS__})
#define tile_mma(a, b, acc) __tilec_mma(a, b, acc)
#define tile_matmul(a, b) __tilec_matmul(a, b)
/* tile_printf(fmt, args...): the block prints once; tile arguments print all
 * their elements.  tile_assert(cond) and tile_assert(cond, "message"): a
 * block whose cond is false (a tile: any element zero) stops and its
 * launcher returns TILEC_ERR_ASSERT.  -DNDEBUG removes asserts, as C's. */
#define tile_printf(...) __tilec_printf(0, __VA_ARGS__)
#ifdef NDEBUG
#define tile_assert(...)
#else
#define tile_assert(...) __tilec_assert(0, __VA_ARGS__)
#endif

/* ---- SIMT kernels (docs/language.md, "SIMT kernels") ----------------------
 * A SIMT_KERNEL's body is what one CUDA thread runs, in C: its arrays are
 * TILE_ARRAY parameters read and written element by element (a[i] at rank
 * 1, SIMT_AT(a, i, j) at any rank, both through the descriptor's strides),
 * its scalars C scalars with C's arithmetic.  SIMT_FUNC marks a helper they
 * call.  Tile builtins are not available in SIMT code, nor simt_* builtins
 * in tile code. */
#define SIMT_KERNEL __attribute__((annotate("tilec.simt_kernel")))
#define SIMT_FUNC __attribute__((annotate("tilec.simt_func"))) static inline
/* Before SIMT_FUNC: the function is also emitted as `extern "C" __device__`
 * under its own name, and declared in the generated header, for CUDA C++
 * callers (arrays as tilec_array by value, scalars by value; link with
 * -rdc=true); on the host target as a C function of that name for C
 * callers, each call running it as one thread (docs/runtime.md). */
#define SIMT_INTEROP __attribute__((annotate("tilec.interop")))
/* Shared by the block: `SIMT_SHARED float buf[256];`, `SIMT_SHARED int n;`;
 * `SIMT_SHARED extern float dyn[];` is the launch's dynamic shared memory. */
#define SIMT_SHARED __attribute__((annotate("tilec.shared")))
/* A local or shared array's layout (seed 001's local_array/shared_array
 * order= and align=), written before the declaration:
 *   SIMT_SHARED SIMT_ALIGN(128) float t[32][32];   t starts at a multiple of 128 bytes
 *   SIMT_ORDER_F float m[4][8];                    column-major: m[i][j] is element i + 4 * j
 * SIMT_ALIGN(n) takes an integer literal (or a macro that expands to one), a
 * power of two from the element type's alignment to 4096.  SIMT_ORDER_C is
 * the default, row-major order.  Neither applies to scalars or to dynamic
 * shared memory. */
#define SIMT_ALIGN(n) __attribute__((annotate("tilec.align:" TILE_XSTR_(n))))
#define SIMT_ORDER_C __attribute__((annotate("tilec.order:C")))
#define SIMT_ORDER_F __attribute__((annotate("tilec.order:F")))
int __tilec_simt_offset(const void *array, ...);
/* The element of array at the given indices (one per dimension), an lvalue. */
#define SIMT_AT(array, ...) (array)[__tilec_simt_offset(array, __VA_ARGS__)]
/* The extent of dimension dim (a constant) of an array parameter. */
int64_t __tilec_simt_shape(const void *array, int dim);
#define simt_shape(array, dim) __tilec_simt_shape(array, dim)
/* Thread positioning; axis is 0 (x), 1 (y) or 2 (z), a constant. */
int __tilec_simt_thread_idx(int axis);
int __tilec_simt_block_idx(int axis);
int __tilec_simt_block_dim(int axis);
int __tilec_simt_grid_dim(int axis);
int __tilec_simt_tid(int axis);
int __tilec_simt_grid_size(int axis);
int __tilec_simt_lane_id(void);
#define simt_thread_idx(axis) __tilec_simt_thread_idx(axis)
#define simt_block_idx(axis) __tilec_simt_block_idx(axis)
#define simt_block_dim(axis) __tilec_simt_block_dim(axis)
#define simt_grid_dim(axis) __tilec_simt_grid_dim(axis)
/* thread_idx + block_idx * block_dim, and block_dim * grid_dim, of an axis */
#define simt_tid(axis) __tilec_simt_tid(axis)
#define simt_grid_size(axis) __tilec_simt_grid_size(axis)
#define simt_lane_id() __tilec_simt_lane_id()
#define simt_warp_size 32
/* Vectors of SIMT code (seed 001's int8xN ... float64xN, float16xN and
 * bfloat16xN, N = 1 to 4): built
 * as `(float32x4){a, b, c, d}` or `float32x4 v = {a, b, c, d};` (missing
 * lanes are 0), read and written through .x .y .z .w or v[i]; passed to and
 * returned from SIMT functions, and kernels' parameters by value.  Their
 * machine representation is CUDA's (float4, int2, longlong4_16a ...), which
 * the generated code uses.  No arithmetic on whole vectors (operate on the
 * lanes) and no swizzles (.xy). */
typedef signed char int8x1 __attribute__((ext_vector_type(1))); typedef signed char int8x2 __attribute__((ext_vector_type(2)));
typedef signed char int8x3 __attribute__((ext_vector_type(3))); typedef signed char int8x4 __attribute__((ext_vector_type(4)));
typedef short int16x1 __attribute__((ext_vector_type(1))); typedef short int16x2 __attribute__((ext_vector_type(2)));
typedef short int16x3 __attribute__((ext_vector_type(3))); typedef short int16x4 __attribute__((ext_vector_type(4)));
typedef int int32x1 __attribute__((ext_vector_type(1))); typedef int int32x2 __attribute__((ext_vector_type(2)));
typedef int int32x3 __attribute__((ext_vector_type(3))); typedef int int32x4 __attribute__((ext_vector_type(4)));
typedef long long int64x1 __attribute__((ext_vector_type(1))); typedef long long int64x2 __attribute__((ext_vector_type(2)));
typedef long long int64x3 __attribute__((ext_vector_type(3))); typedef long long int64x4 __attribute__((ext_vector_type(4)));
typedef unsigned char uint8x1 __attribute__((ext_vector_type(1))); typedef unsigned char uint8x2 __attribute__((ext_vector_type(2)));
typedef unsigned char uint8x3 __attribute__((ext_vector_type(3))); typedef unsigned char uint8x4 __attribute__((ext_vector_type(4)));
typedef unsigned short uint16x1 __attribute__((ext_vector_type(1))); typedef unsigned short uint16x2 __attribute__((ext_vector_type(2)));
typedef unsigned short uint16x3 __attribute__((ext_vector_type(3))); typedef unsigned short uint16x4 __attribute__((ext_vector_type(4)));
typedef unsigned int uint32x1 __attribute__((ext_vector_type(1))); typedef unsigned int uint32x2 __attribute__((ext_vector_type(2)));
typedef unsigned int uint32x3 __attribute__((ext_vector_type(3))); typedef unsigned int uint32x4 __attribute__((ext_vector_type(4)));
typedef unsigned long long uint64x1 __attribute__((ext_vector_type(1))); typedef unsigned long long uint64x2 __attribute__((ext_vector_type(2)));
typedef unsigned long long uint64x3 __attribute__((ext_vector_type(3))); typedef unsigned long long uint64x4 __attribute__((ext_vector_type(4)));
typedef float float32x1 __attribute__((ext_vector_type(1))); typedef float float32x2 __attribute__((ext_vector_type(2)));
typedef float float32x3 __attribute__((ext_vector_type(3))); typedef float float32x4 __attribute__((ext_vector_type(4)));
typedef double float64x1 __attribute__((ext_vector_type(1))); typedef double float64x2 __attribute__((ext_vector_type(2)));
typedef double float64x3 __attribute__((ext_vector_type(3))); typedef double float64x4 __attribute__((ext_vector_type(4)));
typedef _Float16 float16x1 __attribute__((ext_vector_type(1))); typedef _Float16 float16x2 __attribute__((ext_vector_type(2)));
typedef _Float16 float16x3 __attribute__((ext_vector_type(3))); typedef _Float16 float16x4 __attribute__((ext_vector_type(4)));
typedef __bf16 bfloat16x1 __attribute__((ext_vector_type(1))); typedef __bf16 bfloat16x2 __attribute__((ext_vector_type(2)));
typedef __bf16 bfloat16x3 __attribute__((ext_vector_type(3))); typedef __bf16 bfloat16x4 __attribute__((ext_vector_type(4)));
/* float8e4m3xN, float8e5m2xN: vectors of float8 bytes, CUDA's __nv_fp8x2_e4m3 ...
 * in memory (as uint8xN: their lanes are converted as the scalars are) */
typedef tilec_fp8_e4m3 float8e4m3x1 __attribute__((ext_vector_type(1))); typedef tilec_fp8_e4m3 float8e4m3x2 __attribute__((ext_vector_type(2)));
typedef tilec_fp8_e4m3 float8e4m3x3 __attribute__((ext_vector_type(3))); typedef tilec_fp8_e4m3 float8e4m3x4 __attribute__((ext_vector_type(4)));
typedef tilec_fp8_e5m2 float8e5m2x1 __attribute__((ext_vector_type(1))); typedef tilec_fp8_e5m2 float8e5m2x2 __attribute__((ext_vector_type(2)));
typedef tilec_fp8_e5m2 float8e5m2x3 __attribute__((ext_vector_type(3))); typedef tilec_fp8_e5m2 float8e5m2x4 __attribute__((ext_vector_type(4)));
/* The thread's position on 2 or 3 axes at once (seed 001's tid(n) and
 * grid_size(n) for n > 1): .x, .y, .z are simt_tid(0), (1), (2). */
#define simt_tid2() ((int32x2){simt_tid(0), simt_tid(1)})
#define simt_tid3() ((int32x3){simt_tid(0), simt_tid(1), simt_tid(2)})
#define simt_grid_size2() ((int32x2){simt_grid_size(0), simt_grid_size(1)})
#define simt_grid_size3() ((int32x3){simt_grid_size(0), simt_grid_size(1), simt_grid_size(2)})
/* seed 001's Atomic: an object of scalar type T that SIMT code reads and
 * writes by atomics only (simt_atomic_load(&x) ..., never `x` itself):
 * `SIMT_SHARED SIMT_ATOMIC(int32_t) next;`, or a struct's field.  In
 * memory it is a T. */
#define SIMT_ATOMIC(T) _Atomic(T)
/* A user struct of SIMT code aligned to at least n bytes (seed 001's
 * @struct(align=n)): `typedef struct SIMT_STRUCT_ALIGN(16) { float re, im; }
 * complex64;`.  n is an integer literal, a power of two. */
#define SIMT_STRUCT_ALIGN(n) __attribute__((aligned(n), annotate("tilec.struct_align:" TILE_XSTR_(n))))
/* The options of atomics and fences (.memory_order, .scope; below). */
struct tilec_simt_atomic_opts {
    int memory_order;
    int scope;
};
/* Barriers and warp collectives (CUDA's __syncthreads, __shfl_sync ...). */
void __tilec_simt_syncthreads(void);
int __tilec_simt_syncthreads_count(int pred);
int __tilec_simt_syncthreads_and(int pred);
int __tilec_simt_syncthreads_or(int pred);
void __tilec_simt_syncwarp(unsigned mask);
unsigned __tilec_simt_activemask(void);
unsigned __tilec_simt_lanemask_lt(void);
unsigned __tilec_simt_ballot_sync(unsigned mask, int pred);
int __tilec_simt_all_sync(unsigned mask, int pred);
int __tilec_simt_any_sync(unsigned mask, int pred);
double __tilec_simt_shfl_sync(unsigned mask, double v, int lane);
double __tilec_simt_shfl_up_sync(unsigned mask, double v, unsigned delta);
double __tilec_simt_shfl_down_sync(unsigned mask, double v, unsigned delta);
double __tilec_simt_shfl_xor_sync(unsigned mask, double v, int lane_mask);
unsigned __tilec_simt_match_any_sync(unsigned mask, double v);
unsigned __tilec_simt_match_all_sync(unsigned mask, double v);
int __tilec_simt_eq_sync(unsigned mask, int pred);
void __tilec_simt_threadfence(struct tilec_simt_atomic_opts o);
void __tilec_simt_threadfence_block(void);
void __tilec_simt_threadfence_system(void);
#define simt_syncthreads() __tilec_simt_syncthreads()
#define simt_syncthreads_count(pred) __tilec_simt_syncthreads_count(pred)
#define simt_syncthreads_and(pred) __tilec_simt_syncthreads_and(pred)
#define simt_syncthreads_or(pred) __tilec_simt_syncthreads_or(pred)
#define simt_syncwarp(mask) __tilec_simt_syncwarp(mask)
#define simt_activemask() __tilec_simt_activemask()
#define simt_lanemask_lt() __tilec_simt_lanemask_lt()
#define simt_ballot_sync(mask, pred) __tilec_simt_ballot_sync(mask, pred)
#define simt_all_sync(mask, pred) __tilec_simt_all_sync(mask, pred)
#define simt_any_sync(mask, pred) __tilec_simt_any_sync(mask, pred)
#define simt_shfl_sync(mask, v, lane) ((__typeof__(v))__tilec_simt_shfl_sync(mask, v, lane))
#define simt_shfl_up_sync(mask, v, delta) ((__typeof__(v))__tilec_simt_shfl_up_sync(mask, v, delta))
#define simt_shfl_down_sync(mask, v, delta) ((__typeof__(v))__tilec_simt_shfl_down_sync(mask, v, delta))
#define simt_shfl_xor_sync(mask, v, lane_mask) ((__typeof__(v))__tilec_simt_shfl_xor_sync(mask, v, lane_mask))
#define simt_match_any_sync(mask, v) __tilec_simt_match_any_sync(mask, v)
/* mask when v is the same in every lane of mask, 0 otherwise (seed 001's
 * (mask, pred) pair: pred is the result's being non-zero) */
#define simt_match_all_sync(mask, v) __tilec_simt_match_all_sync(mask, v)
/* whether pred is the same (all true or all false) in every lane of mask */
#define simt_eq_sync(mask, pred) __tilec_simt_eq_sync(mask, pred)
/* simt_threadfence(.memory_order = TILE_ACQ_REL, .scope = TILE_SCOPE_BLOCK):
 * seed 001's threadfence(memory, scope); sequentially consistent at device
 * scope unless given (CUDA's __threadfence) */
#define simt_threadfence(...) __tilec_simt_threadfence(SIMT_OPTS_(__VA_ARGS__))
#define simt_threadfence_block() __tilec_simt_threadfence_block()
#define simt_threadfence_system() __tilec_simt_threadfence_system()
/* Atomics on one element: simt_atomic_add(&a[i], v) returns the old value.
 * Options .memory_order (TILE_RELAXED ... TILE_SEQ_CST) and .scope
 * (TILE_SCOPE_BLOCK, _DEVICE, _SYSTEM), relaxed and device scope unless
 * given, as tile atomics. */
double __tilec_simt_atomic_load(void *p, struct tilec_simt_atomic_opts o);
void __tilec_simt_atomic_store(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_exch(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_cas(void *p, double expected, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_add(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_sub(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_and(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_or(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_xor(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_max(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_min(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_nanmax(void *p, double v, struct tilec_simt_atomic_opts o);
double __tilec_simt_atomic_nanmin(void *p, double v, struct tilec_simt_atomic_opts o);
#define SIMT_ATOMIC_(op, p, ...) \
    ((__typeof_unqual__(*(p)))__tilec_simt_atomic_##op(p, __VA_ARGS__))
#define SIMT_OPTS_(...) (struct tilec_simt_atomic_opts){__VA_ARGS__}
#define simt_atomic_load(p, ...) SIMT_ATOMIC_(load, p, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_store(p, v, ...) __tilec_simt_atomic_store(p, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_exch(p, v, ...) SIMT_ATOMIC_(exch, p, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_cas(p, expected, v, ...) SIMT_ATOMIC_(cas, p, expected, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_add(p, v, ...) SIMT_ATOMIC_(add, p, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_sub(p, v, ...) SIMT_ATOMIC_(sub, p, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_and(p, v, ...) SIMT_ATOMIC_(and, p, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_or(p, v, ...) SIMT_ATOMIC_(or, p, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_xor(p, v, ...) SIMT_ATOMIC_(xor, p, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_max(p, v, ...) SIMT_ATOMIC_(max, p, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_min(p, v, ...) SIMT_ATOMIC_(min, p, v, SIMT_OPTS_(__VA_ARGS__))
/* max and min with NaN as a missing value: nanmax(a, NaN) = a, nanmax(NaN, b) = b */
#define simt_atomic_nanmax(p, v, ...) SIMT_ATOMIC_(nanmax, p, v, SIMT_OPTS_(__VA_ARGS__))
#define simt_atomic_nanmin(p, v, ...) SIMT_ATOMIC_(nanmin, p, v, SIMT_OPTS_(__VA_ARGS__))
/* Bit operations (CUDA's __popc, __clz, __ffs, __brev; 64-bit operands use
 * the 64-bit forms).  brev's result has its operand's type. */
int __tilec_simt_popc(unsigned long long x);
int __tilec_simt_clz(unsigned long long x);
int __tilec_simt_ffs(unsigned long long x);
unsigned long long __tilec_simt_brev(unsigned long long x);
#define simt_popc(x) __tilec_simt_popc(x)
#define simt_clz(x) __tilec_simt_clz(x)
#define simt_ffs(x) __tilec_simt_ffs(x)
#define simt_brev(x) ((__typeof__(x))__tilec_simt_brev(x))
/* float8 (seed 001's float8e4m3, float8e5m2): in C a byte (tilec_fp8_e4m3,
 * tilec_fp8_e5m2, as tile code's arrays hold them), converted explicitly,
 * as CUDA's __nv_fp8_e4m3 is: to float exactly, from float rounded to
 * nearest even and saturated to the largest finite value (__NV_SATFINITE,
 * the __nv_fp8_e4m3 constructor's default).  A float8 byte used as a
 * number without these (float v = x[i]) is an error in SIMT code. */
float __tilec_simt_fp8_e4m3_to_float(tilec_fp8_e4m3 v);
tilec_fp8_e4m3 __tilec_simt_fp8_e4m3_from_float(float f);
float __tilec_simt_fp8_e5m2_to_float(tilec_fp8_e5m2 v);
tilec_fp8_e5m2 __tilec_simt_fp8_e5m2_from_float(float f);
#define simt_fp8_e4m3_to_float(v) __tilec_simt_fp8_e4m3_to_float(v)
#define simt_fp8_e4m3_from_float(f) __tilec_simt_fp8_e4m3_from_float(f)
#define simt_fp8_e5m2_to_float(v) __tilec_simt_fp8_e5m2_to_float(v)
#define simt_fp8_e5m2_from_float(f) __tilec_simt_fp8_e5m2_from_float(f)
#endif
