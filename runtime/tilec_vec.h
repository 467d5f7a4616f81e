/* tilec_vec.h: the vector types of SIMT code (seed 001's int8xN ... float64xN,
 * N = 1 to 4) as generated code and generated headers spell them:
 * tilec_float32x4 and so on.  On CUDA they are CUDA's own types (float4,
 * int2, longlong4_16a ...), so CUDA C++ callers of interoperable functions
 * and cudaLaunchKernel see the machine representation the seed requires;
 * in C they are unions with the same size and alignment, lanes .x .y .z .w
 * and an array a_ through which a lane is read at a run-time index. */
#ifndef TILEC_VEC_H_
#define TILEC_VEC_H_
#include <stdint.h>
#if defined(__CUDACC__)
#include <vector_types.h>
typedef char1 tilec_int8x1;
typedef char2 tilec_int8x2;
typedef char3 tilec_int8x3;
typedef char4 tilec_int8x4;
typedef short1 tilec_int16x1;
typedef short2 tilec_int16x2;
typedef short3 tilec_int16x3;
typedef short4 tilec_int16x4;
typedef int1 tilec_int32x1;
typedef int2 tilec_int32x2;
typedef int3 tilec_int32x3;
typedef int4 tilec_int32x4;
typedef longlong1 tilec_int64x1;
typedef longlong2 tilec_int64x2;
typedef longlong3 tilec_int64x3;
typedef longlong4_16a tilec_int64x4;
typedef uchar1 tilec_uint8x1;
typedef uchar2 tilec_uint8x2;
typedef uchar3 tilec_uint8x3;
typedef uchar4 tilec_uint8x4;
typedef ushort1 tilec_uint16x1;
typedef ushort2 tilec_uint16x2;
typedef ushort3 tilec_uint16x3;
typedef ushort4 tilec_uint16x4;
typedef uint1 tilec_uint32x1;
typedef uint2 tilec_uint32x2;
typedef uint3 tilec_uint32x3;
typedef uint4 tilec_uint32x4;
typedef ulonglong1 tilec_uint64x1;
typedef ulonglong2 tilec_uint64x2;
typedef ulonglong3 tilec_uint64x3;
typedef ulonglong4_16a tilec_uint64x4;
typedef float1 tilec_float32x1;
typedef float2 tilec_float32x2;
typedef float3 tilec_float32x3;
typedef float4 tilec_float32x4;
typedef double1 tilec_float64x1;
typedef double2 tilec_float64x2;
typedef double3 tilec_float64x3;
typedef double4_16a tilec_float64x4;
#include <cuda_bf16.h>
#include <cuda_fp16.h>
/* float16xN, bfloat16xN: CUDA has __half2 and __nv_bfloat162; the other
 * widths are structs of the lanes, aligned as CUDA aligns its vectors */
typedef __half tilec_float16;
typedef __nv_bfloat16 tilec_bfloat16;
typedef struct { __half x; } tilec_float16x1;
typedef __half2 tilec_float16x2;
typedef struct { __half x, y, z; } tilec_float16x3;
typedef struct __align__(8) { __half x, y, z, w; } tilec_float16x4;
typedef struct { __nv_bfloat16 x; } tilec_bfloat16x1;
typedef __nv_bfloat162 tilec_bfloat16x2;
typedef struct { __nv_bfloat16 x, y, z; } tilec_bfloat16x3;
typedef struct __align__(8) { __nv_bfloat16 x, y, z, w; } tilec_bfloat16x4;
#else
#ifdef __cplusplus
#define TILEC_VEC_ALIGN_(n) alignas(n)
#else
#define TILEC_VEC_ALIGN_(n) _Alignas(n)
#endif
/* the first lane's alignment is CUDA's for the vector; every member is of
 * the lanes' type, so that the C ABI passes them as CUDA C++ passes CUDA's */
typedef union { struct { signed char x; }; signed char a_[1]; } tilec_int8x1;
typedef union { struct { TILEC_VEC_ALIGN_(2) signed char x; signed char y; }; signed char a_[2]; } tilec_int8x2;
typedef union { struct { signed char x; signed char y, z; }; signed char a_[3]; } tilec_int8x3;
typedef union { struct { TILEC_VEC_ALIGN_(4) signed char x; signed char y, z, w; }; signed char a_[4]; } tilec_int8x4;
typedef union { struct { short x; }; short a_[1]; } tilec_int16x1;
typedef union { struct { TILEC_VEC_ALIGN_(4) short x; short y; }; short a_[2]; } tilec_int16x2;
typedef union { struct { short x; short y, z; }; short a_[3]; } tilec_int16x3;
typedef union { struct { TILEC_VEC_ALIGN_(8) short x; short y, z, w; }; short a_[4]; } tilec_int16x4;
typedef union { struct { int x; }; int a_[1]; } tilec_int32x1;
typedef union { struct { TILEC_VEC_ALIGN_(8) int x; int y; }; int a_[2]; } tilec_int32x2;
typedef union { struct { int x; int y, z; }; int a_[3]; } tilec_int32x3;
typedef union { struct { TILEC_VEC_ALIGN_(16) int x; int y, z, w; }; int a_[4]; } tilec_int32x4;
typedef union { struct { long long x; }; long long a_[1]; } tilec_int64x1;
typedef union { struct { TILEC_VEC_ALIGN_(16) long long x; long long y; }; long long a_[2]; } tilec_int64x2;
typedef union { struct { long long x; long long y, z; }; long long a_[3]; } tilec_int64x3;
typedef union { struct { TILEC_VEC_ALIGN_(16) long long x; long long y, z, w; }; long long a_[4]; } tilec_int64x4;
typedef union { struct { unsigned char x; }; unsigned char a_[1]; } tilec_uint8x1;
typedef union { struct { TILEC_VEC_ALIGN_(2) unsigned char x; unsigned char y; }; unsigned char a_[2]; } tilec_uint8x2;
typedef union { struct { unsigned char x; unsigned char y, z; }; unsigned char a_[3]; } tilec_uint8x3;
typedef union { struct { TILEC_VEC_ALIGN_(4) unsigned char x; unsigned char y, z, w; }; unsigned char a_[4]; } tilec_uint8x4;
typedef union { struct { unsigned short x; }; unsigned short a_[1]; } tilec_uint16x1;
typedef union { struct { TILEC_VEC_ALIGN_(4) unsigned short x; unsigned short y; }; unsigned short a_[2]; } tilec_uint16x2;
typedef union { struct { unsigned short x; unsigned short y, z; }; unsigned short a_[3]; } tilec_uint16x3;
typedef union { struct { TILEC_VEC_ALIGN_(8) unsigned short x; unsigned short y, z, w; }; unsigned short a_[4]; } tilec_uint16x4;
typedef union { struct { unsigned int x; }; unsigned int a_[1]; } tilec_uint32x1;
typedef union { struct { TILEC_VEC_ALIGN_(8) unsigned int x; unsigned int y; }; unsigned int a_[2]; } tilec_uint32x2;
typedef union { struct { unsigned int x; unsigned int y, z; }; unsigned int a_[3]; } tilec_uint32x3;
typedef union { struct { TILEC_VEC_ALIGN_(16) unsigned int x; unsigned int y, z, w; }; unsigned int a_[4]; } tilec_uint32x4;
typedef union { struct { unsigned long long x; }; unsigned long long a_[1]; } tilec_uint64x1;
typedef union { struct { TILEC_VEC_ALIGN_(16) unsigned long long x; unsigned long long y; }; unsigned long long a_[2]; } tilec_uint64x2;
typedef union { struct { unsigned long long x; unsigned long long y, z; }; unsigned long long a_[3]; } tilec_uint64x3;
typedef union { struct { TILEC_VEC_ALIGN_(16) unsigned long long x; unsigned long long y, z, w; }; unsigned long long a_[4]; } tilec_uint64x4;
typedef union { struct { float x; }; float a_[1]; } tilec_float32x1;
typedef union { struct { TILEC_VEC_ALIGN_(8) float x; float y; }; float a_[2]; } tilec_float32x2;
typedef union { struct { float x; float y, z; }; float a_[3]; } tilec_float32x3;
typedef union { struct { TILEC_VEC_ALIGN_(16) float x; float y, z, w; }; float a_[4]; } tilec_float32x4;
typedef union { struct { double x; }; double a_[1]; } tilec_float64x1;
typedef union { struct { TILEC_VEC_ALIGN_(16) double x; double y; }; double a_[2]; } tilec_float64x2;
typedef union { struct { double x; double y, z; }; double a_[3]; } tilec_float64x3;
typedef union { struct { TILEC_VEC_ALIGN_(16) double x; double y, z, w; }; double a_[4]; } tilec_float64x4;
/* float16 and bfloat16 on the host: their bits, in a struct so that no C
 * operator applies to them by mistake (tilec_simt.h has the operations) */
typedef struct tilec_simt_f16 {
    uint16_t bits;
} tilec_simt_f16;
typedef struct tilec_simt_bf16 {
    uint16_t bits;
} tilec_simt_bf16;
typedef tilec_simt_f16 tilec_float16;
typedef tilec_simt_bf16 tilec_bfloat16;
typedef union { struct { tilec_simt_f16 x; }; tilec_simt_f16 a_[1]; } tilec_float16x1;
typedef union { struct { TILEC_VEC_ALIGN_(4) tilec_simt_f16 x; tilec_simt_f16 y; }; tilec_simt_f16 a_[2]; } tilec_float16x2;
typedef union { struct { tilec_simt_f16 x; tilec_simt_f16 y, z; }; tilec_simt_f16 a_[3]; } tilec_float16x3;
typedef union { struct { TILEC_VEC_ALIGN_(8) tilec_simt_f16 x; tilec_simt_f16 y, z, w; }; tilec_simt_f16 a_[4]; } tilec_float16x4;
typedef union { struct { tilec_simt_bf16 x; }; tilec_simt_bf16 a_[1]; } tilec_bfloat16x1;
typedef union { struct { TILEC_VEC_ALIGN_(4) tilec_simt_bf16 x; tilec_simt_bf16 y; }; tilec_simt_bf16 a_[2]; } tilec_bfloat16x2;
typedef union { struct { tilec_simt_bf16 x; tilec_simt_bf16 y, z; }; tilec_simt_bf16 a_[3]; } tilec_bfloat16x3;
typedef union { struct { TILEC_VEC_ALIGN_(8) tilec_simt_bf16 x; tilec_simt_bf16 y, z, w; }; tilec_simt_bf16 a_[4]; } tilec_bfloat16x4;
#endif
/* A struct member aligned to at least n bytes (SIMT_STRUCT_ALIGN) */
#ifdef __cplusplus
#define TILEC_ALIGNAS(n) alignas(n)
#else
#define TILEC_ALIGNAS(n) _Alignas(n)
#endif
#endif
