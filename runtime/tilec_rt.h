/* tilec_rt.h: the thin C launch runtime that tilec-generated launchers and
 * applications compile in: array descriptors (the seed 001 interoperable
 * array descriptor), the element types (generated from the one list in
 * tilec_dtypes.h), status codes with a thread-local error detail, the
 * validation every launcher runs before a launch (rank, dtype, shape,
 * strides, overflow, alignment, aliasing, grid limits), grid helpers, the
 * fast-path predicate, DLPack import (legacy and versioned tensors) and the
 * switch of the CUDA launchers' device check.
 *
 * Plain C17 that also compiles as C++ (nvcc builds it in .cu files).  It
 * never prints, never exits, keeps no state but the thread-local error text
 * and the device-check switch, and does not depend on CUDA.  User
 * documentation: docs/runtime.md. */
#ifndef TILEC_RT_H
#define TILEC_RT_H
#include <stddef.h>
#include <stdint.h>

/* DLPack's ABI, declared by tilec (tilec_dlpack.h), so the DLPack functions
 * below always exist and have the same types whatever dlpack.h the build
 * machine has; a system <dlpack/dlpack.h> may be included before or after. */
#include "tilec_dlpack.h"
/* The list of element types (TILEC_DTYPE_LIST) that tilec_dtype, the
 * runtime's tables and the compiler's Dtype are all generated from. */
#include "tilec_dtypes.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TILEC_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define TILEC_PRINTF_LIKE(f, a)
#endif

#define TILEC_MAX_RANK 8

/* Element types, one enumerator per row of TILEC_DTYPE_LIST
 * (tilec_dtypes.h), in its order:
 *
 *   TILEC_DTYPE_INVALID = 0, TILEC_BOOL = 1,
 *   TILEC_INT8, TILEC_INT16, TILEC_INT32, TILEC_INT64,            2..5
 *   TILEC_UINT8, TILEC_UINT16, TILEC_UINT32, TILEC_UINT64,        6..9
 *   TILEC_FLOAT16, TILEC_BFLOAT16, TILEC_FLOAT32, TILEC_FLOAT64,  10..13
 *   TILEC_TFLOAT32, TILEC_FLOAT8_E4M3FN, TILEC_FLOAT8_E5M2        14..16
 *
 * The values are fixed: the compiler's Dtype (sema/dtype.h) comes from the
 * same list, so generated code passes them as plain integers.
 * TILEC_DTYPE_COUNT (17) is one more than the last value; it is a constant
 * expression that #if can test. */
#define TILEC_DTYPE_ENUMERATOR_(suffix, name, bits) , TILEC_##suffix
#define TILEC_DTYPE_PLUS1_(suffix, name, bits) + 1
typedef enum tilec_dtype {
    TILEC_DTYPE_INVALID = 0
    TILEC_DTYPE_LIST(TILEC_DTYPE_ENUMERATOR_)
} tilec_dtype;
#undef TILEC_DTYPE_ENUMERATOR_
#define TILEC_DTYPE_COUNT (1 TILEC_DTYPE_LIST(TILEC_DTYPE_PLUS1_))

/* tilec_array.flags bits.  READONLY: the memory must not be written (a
 * read-only NumPy array, a DLPack tensor flagged READ_ONLY); an output so
 * marked is TILEC_ERR_READONLY.  COPIED: the memory is a copy the DLPack
 * producer made for this export (information only: writes land in the
 * copy). */
#define TILEC_ARRAY_READONLY 1u
#define TILEC_ARRAY_COPIED 2u

/* A global array argument: seed 001's interoperable descriptor with the
 * dtype and rank carried at run time.  shape[i] and strides[i] are valid
 * for i < ndim.  Strides are in elements, not bytes; 0 is a broadcast
 * dimension; negative strides are rejected (TILEC_ERR_STRIDE).  flags and
 * reserved_ come last, so a zero-initialised descriptor (memset, `= {0}`,
 * the constructors) is a writable one; keep reserved_ 0. */
typedef struct tilec_array {
    void *data;
    int32_t dtype; /* a tilec_dtype */
    int32_t ndim;
    int64_t shape[TILEC_MAX_RANK];
    int64_t strides[TILEC_MAX_RANK];
    uint32_t flags; /* TILEC_ARRAY_* bits */
    uint32_t reserved_;
} tilec_array;

typedef struct tilec_grid {
    uint32_t x, y, z;
} tilec_grid;

/* A cudaStream_t on the CUDA target (NULL is the default stream); ignored
 * on the host target. */
typedef void *tilec_stream;

/* Statuses.  Values are stable; new ones are only ever appended. */
typedef enum tilec_status {
    TILEC_OK = 0,
    TILEC_ERR_NULL_ARRAY, /* a NULL descriptor pointer */
    TILEC_ERR_NULL_DATA,  /* data == NULL for an array with elements */
    TILEC_ERR_RANK,       /* ndim differs from the kernel's, or is outside 0..8 */
    TILEC_ERR_DTYPE,      /* dtype differs from the kernel's, or is unknown */
    TILEC_ERR_SHAPE,      /* a negative extent, or shapes that disagree */
    TILEC_ERR_STRIDE,     /* a negative stride */
    TILEC_ERR_OVERFLOW,   /* element count or memory extent does not fit in int64 / the address space */
    TILEC_ERR_ALIAS,      /* an output overlaps another argument or itself */
    TILEC_ERR_GRID,       /* grid dimension 0 or over CUDA's limits */
    TILEC_ERR_CONSTANT,   /* a constant parameter value with no compiled specialisation */
    TILEC_ERR_DEVICE,     /* memory on the wrong device for this target */
    TILEC_ERR_CUDA,       /* a CUDA runtime call failed; tilec_last_error() has its text */
    TILEC_ERR_INVALID,    /* any other invalid argument */
    TILEC_ERR_ALIGN,      /* data not aligned to the element size */
    TILEC_ERR_READONLY,   /* an output array is marked read-only (TILEC_ARRAY_READONLY) */
    TILEC_ERR_ASSERT,     /* a tile_assert failed in a block; tilec_last_error() says where */
    TILEC_ERR_WORKSPACE   /* a kernel graph's workspace is missing or too small */
} tilec_status;
#define TILEC_STATUS_COUNT 18

/* "TILEC_OK: success", "TILEC_ERR_RANK: wrong rank" ...: a stable text per
 * code, never NULL; unknown values give "TILEC_ERR_UNKNOWN: unknown status". */
const char *tilec_status_string(tilec_status s);
/* "bool", "int8" ... "float8_e4m3fn", "float8_e5m2" (cuTile's names);
 * "invalid" for anything else. */
const char *tilec_dtype_name(int32_t dtype);
/* Storage bytes of one element (bool 1, tfloat32 4); 0 for invalid. */
int tilec_dtype_size(int32_t dtype);

/* The detail of the calling thread's last failure, e.g. "argument 'x':
 * rank 2, kernel expects 1", or the CUDA error text.  Thread-local; owned
 * by the runtime (never free it; valid until this thread's next failure or
 * clear); "" when none.  The runtime's own functions leave it alone when
 * they succeed, but every generated launcher calls tilec_clear_error()
 * first, so after a launcher returns TILEC_OK it is "". */
const char *tilec_last_error(void);
/* Sets the last error to the printf-formatted detail (truncated at 511
 * bytes) and returns s; used by generated launchers: `return
 * tilec_fail(TILEC_ERR_CONSTANT, "BLOCK = %d is not compiled", v);`. */
tilec_status tilec_fail(tilec_status s, const char *fmt, ...) TILEC_PRINTF_LIKE(2, 3);
void tilec_clear_error(void);

/* Descriptor constructors.  make: contiguous row-major (C order) strides
 * (extents < 1 count as 1, as NumPy does, so no stride is 0).  An ndim
 * outside 0..8 gives a descriptor with that ndim and nothing copied, which
 * tilec_check_array rejects.  shape/strides may be NULL when ndim == 0. */
tilec_array tilec_array_make(void *data, tilec_dtype dtype, int ndim, const int64_t *shape);
tilec_array tilec_array_make_strided(void *data, tilec_dtype dtype, int ndim,
                                     const int64_t *shape, const int64_t *strides);
tilec_array tilec_array_0d(void *data, tilec_dtype dtype);
tilec_array tilec_array_1d(void *data, tilec_dtype dtype, int64_t n);
tilec_array tilec_array_2d(void *data, tilec_dtype dtype, int64_t rows, int64_t cols);
tilec_array tilec_array_3d(void *data, tilec_dtype dtype, int64_t d0, int64_t d1, int64_t d2);
/* The number of elements (1 for rank 0); -1 for a NULL descriptor, a bad
 * rank, a negative extent or a count past INT64_MAX. */
int64_t tilec_array_numel(const tilec_array *a);

/* Validation run by every generated launcher before a launch; name is the
 * parameter's name for the message.  Checks in this order: a != NULL
 * (NULL_ARRAY); expect_ndim in 0..8 and expect_dtype valid (INVALID);
 * a->ndim == expect_ndim (RANK); a->dtype == expect_dtype (DTYPE); every
 * extent >= 0 (SHAPE); every stride >= 0 (STRIDE); the element count, the
 * highest element offset sum((shape-1)*stride), its end in bytes and
 * data + that end fit in int64 / the address space (OVERFLOW); data !=
 * NULL unless the array is empty (NULL_DATA); data aligned to the element
 * size (ALIGN).  An empty array (some extent 0) passes with any data. */
tilec_status tilec_check_array(const tilec_array *a, const char *name, int expect_ndim,
                               tilec_dtype expect_dtype);
/* An output must be writable: flags without TILEC_ARRAY_READONLY, else
 * TILEC_ERR_READONLY (checked first, after NULL).  And it must not write
 * one element twice: with its zero-extent and
 * extent-1 dimensions dropped and the rest sorted by stride, each stride
 * must be >= the previous stride times its extent (so stride-0 broadcast
 * outputs and interleaved self-overlapping views are TILEC_ERR_ALIAS).
 * Conservative: a few exotic injective layouts are refused too. */
tilec_status tilec_check_output(const tilec_array *out, const char *name);
/* Aliasing of an output with another argument (an input).  Allowed: no
 * shared bytes, or the very same view (same data, shape, strides and
 * element size: in-place element-wise work).  Anything else whose memory
 * ranges [data, data + extent) intersect is TILEC_ERR_ALIAS; the test is on
 * ranges, so interleaved views of one buffer (even and odd columns) are
 * refused too.  Empty arrays never alias. */
tilec_status tilec_check_alias(const tilec_array *out, const char *out_name,
                               const tilec_array *other, const char *other_name);
/* Two outputs (or anything that must not share memory at all): like
 * tilec_check_alias but the same view is refused as well. */
tilec_status tilec_check_disjoint(const tilec_array *a, const char *a_name,
                                  const tilec_array *b, const char *b_name);

/* NumPy broadcasting for array kernels (docs/language.md, "Array kernels"),
 * called by their launchers after the checks above.  Shapes align at their
 * last axes; an axis of extent 1 stretches to any extent; other extents
 * must agree, else TILEC_ERR_SHAPE naming both arrays.
 * tilec_broadcast_shape: the broadcast of n arrays' shapes, of rank `rank`
 * (at least each array's), into shape[rank].
 * tilec_broadcast_to: a, broadcast to shape[rank], as *out: the same data
 * with rank `rank`, stretched axes of stride 0 (space_name, e.g. "'y'",
 * names the shape in the error).
 * tilec_check_reduced: out must be shape[rank] without axis `axis` (keep 0),
 * with extent 1 there (keep 1, .keepdims), or shape itself (keep 2).
 * tilec_check_same_shape: a and b must have the same shape. */
tilec_status tilec_broadcast_shape(int n, const tilec_array *const *arrays, const char *const *names, int rank,
                                   int64_t *shape);
/* An array kernel's matrix product: its operands' spaces a (M, K) and
 * b (K, N) must agree on K, else TILEC_ERR_SHAPE; out is (M, N).
 * tilec_check_product: an output must have that shape. */
tilec_status tilec_product_shape(const int64_t *a, const int64_t *b, int64_t *out);
tilec_status tilec_check_product(const tilec_array *out, const char *name, const int64_t *shape);
tilec_status tilec_broadcast_to(const tilec_array *a, const char *name, const int64_t *shape, int rank,
                                const char *space_name, tilec_array *out);
tilec_status tilec_check_reduced(const tilec_array *out, const char *name, const int64_t *shape, int rank, int axis,
                                 int keep);
tilec_status tilec_check_same_shape(const tilec_array *a, const char *a_name, const tilec_array *b,
                                    const char *b_name);

/* Grid helpers.  tilec_check_grid: each dimension >= 1, x <= 2^31-1,
 * y, z <= 65535 (CUDA's limits); launchers skip the launch for empty
 * problems before calling it.  tilec_cdiv: ceil(n / d) for d > 0 (any n);
 * 0 for d <= 0.  tilec_grid_Nd: dimension i of the problem (tile_bid(i))
 * maps to grid x, y, z in that order; each count is cdiv(extent, tile),
 * saturated to UINT32_MAX so an oversized problem fails tilec_check_grid
 * instead of wrapping; an empty problem gives a 0 dimension. */
tilec_status tilec_check_grid(tilec_grid g);
int64_t tilec_cdiv(int64_t n, int64_t d);
tilec_grid tilec_grid_1d(int64_t n, int64_t tile);
tilec_grid tilec_grid_2d(int64_t rows, int64_t cols, int64_t tile_r, int64_t tile_c);
tilec_grid tilec_grid_3d(int64_t d0, int64_t d1, int64_t d2, int64_t t0, int64_t t1, int64_t t2);
/* Number of blocks of the grid, x*y*z (UINT64_MAX if that overflows). */
uint64_t tilec_grid_size(tilec_grid g);

/* Fast-path predicate for generated launchers: 1 when a has rank ndim,
 * every extent is a multiple of tile_shape[i] (> 0), the last dimension is
 * contiguous (stride 1) with an extent that is a multiple of vec_elems, the
 * other strides are multiples of vec_elems, and data is aligned to
 * vec_elems * element size bytes; 0 otherwise (always safe: the masked
 * path handles everything).  vec_elems < 1 gives 0. */
int tilec_array_fast_path(const tilec_array *a, int ndim, const int64_t *tile_shape,
                          int vec_elems);

/* DLPack type codes newer than some <dlpack/dlpack.h> versions (Debian 12
 * ships 0.6): DLPack 1.x numbers, compared as plain integers, so they work
 * whichever dlpack.h came first. */
#ifndef TILEC_KDL_BOOL
#define TILEC_KDL_BOOL 6
#endif
#ifndef TILEC_KDL_FLOAT8_E4M3FN
#define TILEC_KDL_FLOAT8_E4M3FN 10
#endif
#ifndef TILEC_KDL_FLOAT8_E5M2
#define TILEC_KDL_FLOAT8_E5M2 12
#endif
/* Converts a DLTensor (borrowed: nothing is copied or owned; the caller
 * keeps the producer's capsule or managed tensor alive while the
 * descriptor is used and calls its deleter afterwards) to a descriptor.
 * data = t->data + byte_offset; strides NULL means compact row-major;
 * lanes != 1, complex and unknown types give TILEC_ERR_DTYPE, ndim outside
 * 0..8 TILEC_ERR_RANK, a NULL shape with ndim > 0 TILEC_ERR_INVALID.  flags
 * is 0: a legacy DLTensor cannot say it is read-only.  The device is not
 * checked: use tilec_array_from_dlpack_on for that.  On failure *out is
 * zeroed.  A legacy DLManagedTensor *m converts as &m->dl_tensor. */
tilec_status tilec_array_from_dlpack(const DLTensor *t, tilec_array *out);
/* The same, also requiring t->device.device_type == device_type (e.g.
 * kDLCUDA for the CUDA target, kDLCPU for the host target), else
 * TILEC_ERR_DEVICE. */
tilec_status tilec_array_from_dlpack_on(const DLTensor *t, int device_type, tilec_array *out);
/* A DLPack 1.x versioned tensor (PyCapsule "dltensor_versioned"), borrowed
 * like the above.  m->version.major must be TILEC_DLPACK_MAJOR (1), else
 * TILEC_ERR_INVALID naming both versions (the layout of everything after
 * the version may differ); any minor version is accepted.  The flag
 * DLPACK_FLAG_BITMASK_READ_ONLY sets TILEC_ARRAY_READONLY (so passing the
 * array as an output gives TILEC_ERR_READONLY) and IS_COPIED sets
 * TILEC_ARRAY_COPIED; other bits are ignored.  The rest is
 * tilec_array_from_dlpack(&m->dl_tensor, out). */
tilec_status tilec_array_from_dlpack_versioned(const DLManagedTensorVersioned *m, tilec_array *out);
tilec_status tilec_array_from_dlpack_versioned_on(const DLManagedTensorVersioned *m, int device_type,
                                                  tilec_array *out);
/* The DLPack dtype of a tilec dtype (lanes 1); TILEC_ERR_DTYPE for
 * tfloat32 (no DLPack code) and invalid values. */
tilec_status tilec_dtype_to_dlpack(int32_t dtype, DLDataType *out);

/* The device check of the CUDA target's launchers (tilec_check_device in
 * tilec_ops.h): on by default; off when the environment variable
 * TILEC_NO_DEVICE_CHECK is set to anything but "" or "0" (read once, at the
 * first launch), or after tilec_set_device_check(0), which overrides the
 * environment either way.  The switch is process-wide and atomic; it is
 * meant to be set once, before the hot loop. */
void tilec_set_device_check(int on);
int tilec_device_check_enabled(void);

#ifdef __cplusplus
}
#endif
#endif /* TILEC_RT_H */
