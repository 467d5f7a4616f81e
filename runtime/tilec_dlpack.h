/* tilec_dlpack.h: DLPack's C ABI, declared by tilec so that the runtime's
 * DLPack functions, and their types, never depend on which dlpack.h the
 * build machine has (Debian 12 ships DLPack 0.6, which lacks the versioned
 * tensor that NumPy >= 2.1 and PyTorch hand out).
 *
 * The declarations are written for this project from DLPack's documented
 * binary layout (version 1.1): the same type names, enumerator values,
 * member order and sizes, so a DLTensor or DLManagedTensorVersioned made by
 * any DLPack 1.x producer can be passed straight in.  tests/unit/test_rt.c
 * pins the sizes and offsets.
 *
 * Three cases, all harmless:
 *  - nothing else included: the whole ABI is declared here under DLPack's
 *    own include guard (DLPACK_DLPACK_H_), so a later
 *    #include <dlpack/dlpack.h> of any version is skipped;
 *  - a DLPack 1.x dlpack.h included first: it already declares everything,
 *    and nothing is added;
 *  - an older dlpack.h included first (0.6 ... 0.8: no
 *    DLPACK_MAJOR_VERSION): only what it lacks is added, that is
 *    DLPackVersion, DLManagedTensorVersioned and the flag bits.  Its
 *    DLDataTypeCode then lacks kDLBool and the float8 codes: compare with
 *    the TILEC_KDL_* macros (tilec_rt.h) instead. */
#ifndef TILEC_DLPACK_H
#define TILEC_DLPACK_H
#include <stddef.h>
#include <stdint.h>

#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_
#define TILEC_DLPACK_DECLARED_ 1 /* the ABI below is ours, not a system header's */

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif
#ifndef DLPACK_DLL
#define DLPACK_DLL
#endif

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* Where a tensor's memory lives.  32 bits in C and C++ alike. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
    kDLCPU = 1,          /* ordinary host memory */
    kDLCUDA = 2,         /* CUDA device memory */
    kDLCUDAHost = 3,     /* pinned host memory (cudaMallocHost) */
    kDLOpenCL = 4,
    kDLVulkan = 7,
    kDLMetal = 8,
    kDLVPI = 9,
    kDLROCM = 10,
    kDLROCMHost = 11,
    kDLExtDev = 12,
    kDLCUDAManaged = 13, /* CUDA managed memory (cudaMallocManaged) */
    kDLOneAPI = 14,
    kDLWebGPU = 15,
    kDLHexagon = 16,
    kDLMAIA = 17
} DLDeviceType;

typedef struct {
    DLDeviceType device_type;
    int32_t device_id; /* 0 for host, pinned and managed memory */
} DLDevice;

/* DLDataType.code values. */
typedef enum {
    kDLInt = 0U,
    kDLUInt = 1U,
    kDLFloat = 2U,
    kDLOpaqueHandle = 3U,
    kDLBfloat = 4U,
    kDLComplex = 5U,
    kDLBool = 6U,
    kDLFloat8_e3m4 = 7U,
    kDLFloat8_e4m3 = 8U,
    kDLFloat8_e4m3b11fnuz = 9U,
    kDLFloat8_e4m3fn = 10U,
    kDLFloat8_e4m3fnuz = 11U,
    kDLFloat8_e5m2 = 12U,
    kDLFloat8_e5m2fnuz = 13U,
    kDLFloat8_e8m0fnu = 14U,
    kDLFloat6_e2m3fn = 15U,
    kDLFloat6_e3m2fn = 16U,
    kDLFloat4_e2m1fn = 17U
} DLDataTypeCode;

/* An element type: float32 is {kDLFloat, 32, 1}. */
typedef struct {
    uint8_t code;   /* a DLDataTypeCode */
    uint8_t bits;
    uint16_t lanes; /* > 1 for vector types */
} DLDataType;

/* A borrowed view of memory; owns nothing. */
typedef struct {
    void *data;           /* base pointer (a device address for device memory) */
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;       /* ndim extents */
    int64_t *strides;     /* ndim strides in elements, or NULL: compact row-major */
    uint64_t byte_offset; /* bytes from data to the first element */
} DLTensor;

/* The pre-1.0 ("legacy") managed tensor: PyCapsule name "dltensor". */
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self); /* the consumer calls it when done */
} DLManagedTensor;

#ifdef __cplusplus
}
#endif
#endif /* DLPACK_DLPACK_H_ */

/* The versioned managed tensor (DLPack >= 1.0; PyCapsule name
 * "dltensor_versioned"): declared with the ABI above, or added to a system
 * dlpack.h that predates it. */
#if defined(TILEC_DLPACK_DECLARED_) || !defined(DLPACK_MAJOR_VERSION)
#ifdef __cplusplus
extern "C" {
#endif
typedef struct {
    uint32_t major; /* an incompatible ABI change increments it */
    uint32_t minor;
} DLPackVersion;

typedef struct DLManagedTensorVersioned {
    DLPackVersion version; /* first, so a consumer can check it before anything else */
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;        /* DLPACK_FLAG_BITMASK_* */
    DLTensor dl_tensor;
} DLManagedTensorVersioned;
#ifdef __cplusplus
}
#endif
#endif

#ifndef DLPACK_FLAG_BITMASK_READ_ONLY
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL) /* the consumer must not write */
#endif
#ifndef DLPACK_FLAG_BITMASK_IS_COPIED
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL) /* the producer made a copy for this export */
#endif
#ifndef DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL) /* DLPack 1.1 */
#endif

/* The major version of DLManagedTensorVersioned this runtime reads. */
#define TILEC_DLPACK_MAJOR 1

#endif /* TILEC_DLPACK_H */
