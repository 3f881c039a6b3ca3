// cudalint's stand-in for the CUDA headers: enough of the CUDA device API for Clang to build the
// AST of kernels without a toolkit. Declarations are deliberately permissive (any arguments,
// a result that converts to anything): cudalint checks which features code uses, not types.
// Per-arch macros and the declarations of every feature in data/cuda_features.tsv follow it.
#pragma clang system_header
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __grid_constant__ __attribute__((grid_constant))
#define __cudart_builtin__
#define CUDART_CB
// __CUDACC_VER_MAJOR__/_MINOR__ (the build's toolkit, else 13.0) are defined per parse, after
// this part: it is precompiled once for every arch and version.
#define __CUDACC_VER_BUILD__ 0
#define CUDART_VERSION (__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10)
#define __CUDART_API_VERSION CUDART_VERSION
#define CUDA_VERSION CUDART_VERSION
#define __NVCC__ 1

template <bool B, class T> struct __cl_enable_if {};
template <class T> struct __cl_enable_if<true, T> { using type = T; };
// The operators of __cl_any and of the value types below are hidden friends, found only through
// an operand of their type: as namespace-scope functions every `a * b` on class types (torch's
// Half, a user's struct) weighed all of them, each through a converting template (a fifth of a
// template-heavy file's parse).
#define __CL_BINOP(op)                                                                         \
  template <class T> friend __host__ __device__ __cl_any operator op(const __cl_any&, const T&); \
  template <class T> friend __host__ __device__ __cl_any operator op(const T&, const __cl_any&); \
  friend __host__ __device__ __cl_any operator op(const __cl_any&, const __cl_any&);
// `float v; v += __shfl_down(v, o)`: without these every builtin `+=` candidate is viable
// through the conversion template, the call is ambiguous and (in a template instantiation) the
// whole instantiated function is dropped as invalid.
#define __CL_CASSIGN(op)                                                                                \
  template <class T>                                                                                    \
  friend __host__ __device__ typename __cl_enable_if<__is_arithmetic(T), T&>::type operator op(T&, const __cl_any&);
struct __cl_any {
  template <class T> __host__ __device__ operator T() const;
  template <class T> __host__ __device__ __cl_any& operator=(const T&);
  __host__ __device__ __cl_any operator[](long) const;
  __host__ __device__ __cl_any operator*() const;
  __host__ __device__ __cl_any operator-() const;
  __host__ __device__ __cl_any operator~() const;
  __host__ __device__ bool operator!() const;
  __host__ __device__ __cl_any* operator->() const;
  __CL_BINOP(+) __CL_BINOP(-) __CL_BINOP(*) __CL_BINOP(/) __CL_BINOP(%) __CL_BINOP(&) __CL_BINOP(|) __CL_BINOP(^)
  __CL_BINOP(<<) __CL_BINOP(>>) __CL_BINOP(<) __CL_BINOP(>) __CL_BINOP(<=) __CL_BINOP(>=) __CL_BINOP(==)
  __CL_BINOP(!=) __CL_BINOP(&&) __CL_BINOP(||)
  __CL_CASSIGN(+=) __CL_CASSIGN(-=) __CL_CASSIGN(*=) __CL_CASSIGN(/=) __CL_CASSIGN(%=) __CL_CASSIGN(&=)
  __CL_CASSIGN(|=) __CL_CASSIGN(^=) __CL_CASSIGN(<<=) __CL_CASSIGN(>>=)
};
#undef __CL_BINOP
#undef __CL_CASSIGN

// A value type that converts to and from anything (half, bfloat16, fp8 and friends), as wide as
// CUDA's (the coalescing analysis measures accesses by the element's size); `.x`/`.y` are static
// so that they take no room.
#define __CL_VALUE_TYPE(T, STORAGE)                                  \
  struct T {                                                         \
    STORAGE __x;                                                     \
    T() = default; /* trivial, as CUDA 12+ declares it: unions hold these */ \
    template <class U> __host__ __device__ T(const U&);              \
    /* __half2{lo, hi}, __nv_bfloat162(a, b) */                      \
    template <class U, class V> __host__ __device__ T(const U&, const V&); \
    /* non-template: `return __hfma2(...)` in a T-returning template */ \
    __host__ __device__ T(const __cl_any&);                          \
    template <class U> __host__ __device__ operator U() const;       \
    template <class U> __host__ __device__ T& operator=(const U&);   \
    template <class U> __host__ __device__ T& operator+=(const U&);  \
    template <class U> __host__ __device__ T& operator-=(const U&);  \
    template <class U> __host__ __device__ T& operator*=(const U&);  \
    template <class U> __host__ __device__ T& operator/=(const U&);  \
    static __cl_any x, y;                                            \
    friend __host__ __device__ T operator+(const T&, const T&);      \
    friend __host__ __device__ T operator-(const T&, const T&);      \
    friend __host__ __device__ T operator*(const T&, const T&);      \
    friend __host__ __device__ T operator/(const T&, const T&);      \
    friend __host__ __device__ T operator-(const T&);                \
    friend __host__ __device__ bool operator<(const T&, const T&);   \
    friend __host__ __device__ bool operator>(const T&, const T&);   \
    friend __host__ __device__ bool operator==(const T&, const T&);  \
  };
__CL_VALUE_TYPE(__half, unsigned short) __CL_VALUE_TYPE(__half2, unsigned)
__CL_VALUE_TYPE(__nv_bfloat16, unsigned short) __CL_VALUE_TYPE(__nv_bfloat162, unsigned)
__CL_VALUE_TYPE(__nv_fp8_e4m3, unsigned char) __CL_VALUE_TYPE(__nv_fp8_e5m2, unsigned char)
__CL_VALUE_TYPE(__nv_fp8x2_e4m3, unsigned short) __CL_VALUE_TYPE(__nv_fp8x2_e5m2, unsigned short)
__CL_VALUE_TYPE(__nv_fp8x4_e4m3, unsigned) __CL_VALUE_TYPE(__nv_fp8x4_e5m2, unsigned)
__CL_VALUE_TYPE(__nv_fp8_e8m0, unsigned char) __CL_VALUE_TYPE(__nv_fp6_e2m3, unsigned char)
__CL_VALUE_TYPE(__nv_fp6_e3m2, unsigned char) __CL_VALUE_TYPE(__nv_fp4_e2m1, unsigned char)
__CL_VALUE_TYPE(__nv_fp4x2_e2m1, unsigned char) __CL_VALUE_TYPE(__half_raw, unsigned short)
__CL_VALUE_TYPE(__nv_bfloat16_raw, unsigned short) __CL_VALUE_TYPE(__half2_raw, unsigned)
__CL_VALUE_TYPE(__nv_bfloat162_raw, unsigned)
#undef __CL_VALUE_TYPE
typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;

#define __CL_VEC(T, B)                                                                                  \
  struct T##1 { B x; };                                                                                 \
  struct T##2 { B x, y; };                                                                              \
  struct T##3 { B x, y, z; };                                                                           \
  struct __attribute__((aligned(sizeof(B) * 4))) T##4 { B x, y, z, w; };                                \
  __host__ __device__ T##1 make_##T##1(B);                                                              \
  __host__ __device__ T##2 make_##T##2(B, B);                                                           \
  __host__ __device__ T##3 make_##T##3(B, B, B);                                                        \
  __host__ __device__ T##4 make_##T##4(B, B, B, B);
__CL_VEC(char, signed char) __CL_VEC(uchar, unsigned char) __CL_VEC(short, short) __CL_VEC(ushort, unsigned short)
__CL_VEC(int, int) __CL_VEC(uint, unsigned) __CL_VEC(long, long) __CL_VEC(ulong, unsigned long)
__CL_VEC(longlong, long long) __CL_VEC(ulonglong, unsigned long long) __CL_VEC(float, float) __CL_VEC(double, double)
#undef __CL_VEC
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
// Result types of the common intrinsics, from their arguments (see kTypedResults): an
// arithmetic result keeps `v += __shfl_xor_sync(m, v, o)` a builtin `+=`, where a __cl_any
// result makes Clang weigh over a thousand builtin `+=` candidates (0.5 ms per expression).
template <unsigned K, class... A> struct __cl_arg { using type = __cl_any; };
template <class A0, class... A> struct __cl_arg<0, A0, A...> { using type = __decay(A0); };
template <unsigned K, class A0, class... A> struct __cl_arg<K, A0, A...> { using type = typename __cl_arg<K - 1, A...>::type; };
template <class P> struct __cl_ptr { using type = __cl_any; };
template <class T> struct __cl_ptr<T*> { using type = __remove_cv(T); };
template <unsigned K, class... A> using __cl_arg_t = typename __cl_arg<K, A...>::type;
template <class... A> using __cl_pointee_t = typename __cl_ptr<__cl_arg_t<0, A...>>::type;
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
// A variable, as in CUDA's device_launch_parameters.h, not a macro: host code reads
// `cudaDeviceProp::warpSize`.
static constexpr int warpSize = 32;
typedef struct CUstream_st* cudaStream_t;
typedef unsigned long size_t;
// The runtime API's types, enumerators and flags that host code names around launches (the
// common part of CUDA 13's driver_types.h; cudaDeviceProp also keeps the fields CUDA 13 removed).
// nvcc includes cuda_runtime.h implicitly. Clang never instantiates a function template whose
// body had an error, so one unknown `cudaLaunchConfig_t` in a host template that launches
// kernels hid every kernel it instantiates (tests/oracle/intr/cases/host_launch_ex_template.cu).
enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2, cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4, cudaErrorInvalidConfiguration = 9, cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13, cudaErrorInvalidDevicePointer = 17, cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35, cudaErrorNoDevice = 100, cudaErrorInvalidDevice = 101,
  cudaErrorNoKernelImageForDevice = 209, cudaErrorInvalidResourceHandle = 400, cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700, cudaErrorLaunchOutOfResources = 701, cudaErrorLaunchTimeout = 702,
  cudaErrorPeerAccessAlreadyEnabled = 704, cudaErrorPeerAccessNotEnabled = 705, cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719, cudaErrorCooperativeLaunchTooLarge = 720, cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
                      cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
                     cudaFuncCachePreferEqual = 3 };
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10, cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12, cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14, cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrIntegrated = 18, cudaDevAttrComputeMode = 20, cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrPciBusId = 33, cudaDevAttrPciDeviceId = 34, cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38, cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrUnifiedAddressing = 41, cudaDevAttrPciDomainId = 50, cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83, cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108, cudaDevAttrReservedSharedMemoryPerBlock = 111,
  cudaDevAttrMemoryPoolsSupported = 115, cudaDevAttrClusterLaunch = 120
};
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeAccessPolicyWindow = 1, cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3, cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5, cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7, cudaLaunchAttributePriority = 8, cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10, cudaLaunchAttributePreferredClusterDimension = 11,
  cudaLaunchAttributeLaunchCompletionEvent = 12, cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
  cudaLaunchAttributePreferredSharedMemoryCarveout = 14
};
typedef struct CUevent_st* cudaEvent_t;
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  struct { unsigned x, y, z; } clusterDim;
  int programmaticStreamSerializationAllowed;
  struct { cudaEvent_t event; int flags; int triggerAtBlockStart; } programmaticEvent;
  int priority;
  struct { unsigned x, y, z; } preferredClusterDim;
  struct { cudaEvent_t event; int flags; } launchCompletionEvent;
  unsigned sharedMemCarveout;
};
typedef struct cudaLaunchAttribute_st { enum cudaLaunchAttributeID id; union cudaLaunchAttributeValue val; } cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned numAttrs;
} cudaLaunchConfig_t;
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock, memPitch, totalConstMem, textureAlignment, surfaceAlignment;
  int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], major, minor;
  int multiProcessorCount, integrated, canMapHostMemory, concurrentKernels, ECCEnabled, pciBusID, pciDeviceID;
  int pciDomainID, tccDriver, asyncEngineCount, unifiedAddressing, memoryBusWidth, l2CacheSize;
  int persistingL2CacheMaxSize, maxThreadsPerMultiProcessor, streamPrioritiesSupported;
  size_t sharedMemPerMultiprocessor, sharedMemPerBlockOptin, reservedSharedMemPerBlock;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, cooperativeLaunch;
  int pageableMemoryAccess, concurrentManagedAccess, maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
  int memoryPoolsSupported, clusterLaunch;
  int clockRate, memoryClockRate, computeMode, kernelExecTimeoutEnabled, deviceOverlap;  // CUDA 12 and older
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes;
  int preferredShmemCarveout, clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight;
  int requiredClusterDepth, clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
};
typedef struct cudaIpcMemHandle_st { char reserved[64]; } cudaIpcMemHandle_t;
typedef struct cudaIpcEventHandle_st { char reserved[64]; } cudaIpcEventHandle_t;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostRegisterDefault 0x00
#define cudaIpcMemLazyEnablePeerAccess 0x01
#define cudaMemAttachGlobal 0x01
#define cudaOccupancyDefault 0x00
// The launch templates that take the kernel's type, for calls that name it
// (`cudaLaunchCooperativeKernel<F>(f, grid, block, args, smem, stream)`); other calls match the
// permissive declarations.
template <class T>
cudaError_t cudaLaunchKernel(const T* func, dim3 grid, dim3 block, void** args, size_t smem = 0, cudaStream_t stream = 0);
template <class T>
cudaError_t cudaLaunchCooperativeKernel(const T* func, dim3 grid, dim3 block, void** args, size_t smem = 0,
                                        cudaStream_t stream = 0);
// memset and memcpy in device code: CUDA's common_functions.h declares them (nvcc includes it
// implicitly). Device overloads with internal linkage, as Clang's own CUDA headers declare the math
// functions, so that <string.h>'s host declarations, read later or not at all, do not conflict.
static __device__ inline void* memset(void* d, int c, size_t n) { return __builtin_memset(d, c, n); }
static __device__ inline void* memcpy(void* d, const void* s, size_t n) { return __builtin_memcpy(d, s, n); }
int cudaConfigureCall(dim3, dim3, unsigned long = 0, cudaStream_t = 0);
int __cudaPushCallConfiguration(dim3, dim3, unsigned long = 0, cudaStream_t = 0);
// Device-side malloc and free (the CUDA device runtime's; clang's CUDA wrapper declares them the
// same way): <new>, which <vector> and <iostream> include, calls ::malloc and ::free in device code.
extern "C" {
__device__ void free(void*) __attribute__((nothrow));
__device__ void* malloc(size_t) __attribute__((nothrow)) __attribute__((malloc));
}
typedef unsigned long long CUtensorMap_st;
typedef struct { alignas(64) unsigned long long opaque[16]; } CUtensorMap;

// <nv/target>: NV_IF_TARGET(NV_PROVIDES_SM_80, (then), (else)) and friends, resolved by the
// preprocessor for the arch being parsed, as nvcc's device pass does: the branch for another
// target is not device code. The generated part defines `__CL_NV_<query>` as 1 or 0.
#define __CL_NV_STRIP(...) __VA_ARGS__
#define __CL_NV_CAT(a, b) __CL_NV_CAT2(a, b)
#define __CL_NV_CAT2(a, b) a##b
#define __CL_NV_IF_1(t, ...) __CL_NV_STRIP t
#define __CL_NV_IF_0(t, ...) __VA_OPT__(__CL_NV_STRIP __VA_ARGS__)
#define __CL_NV_IF(v, ...) __CL_NV_CAT(__CL_NV_IF_, v)(__VA_ARGS__)
#define NV_IF_TARGET(q, ...) __CL_NV_IF(__CL_NV_##q, __VA_ARGS__)
#define NV_IF_ELSE_TARGET(q, t, e) __CL_NV_IF(__CL_NV_##q, t, e)
#define __CL_NV_NARGS(...) __CL_NV_NARGS2(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define __CL_NV_NARGS2(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, n, ...) n
#define NV_DISPATCH_TARGET(...) __CL_NV_CAT(__CL_NV_DISPATCH_, __CL_NV_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define __CL_NV_DISPATCH_2(q1, t1) NV_IF_TARGET(q1, t1)
#define __CL_NV_DISPATCH_4(q1, t1, q2, t2) NV_IF_ELSE_TARGET(q1, t1, (__CL_NV_DISPATCH_2(q2, t2)))
#define __CL_NV_DISPATCH_6(q1, t1, ...) NV_IF_ELSE_TARGET(q1, t1, (__CL_NV_DISPATCH_4(__VA_ARGS__)))
#define __CL_NV_DISPATCH_8(q1, t1, ...) NV_IF_ELSE_TARGET(q1, t1, (__CL_NV_DISPATCH_6(__VA_ARGS__)))
#define __CL_NV_DISPATCH_10(q1, t1, ...) NV_IF_ELSE_TARGET(q1, t1, (__CL_NV_DISPATCH_8(__VA_ARGS__)))
#define __CL_NV_DISPATCH_12(q1, t1, ...) NV_IF_ELSE_TARGET(q1, t1, (__CL_NV_DISPATCH_10(__VA_ARGS__)))
#define __CL_NV_NV_IS_DEVICE 1
#define __CL_NV_NV_IS_HOST 0
#define __CL_NV_NV_ANY_TARGET 1
#define __CL_NV_NV_NO_TARGET 0
#define _NV_TARGET_CPP11 1

namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
enum layout_t { mem_row_major, mem_col_major };
namespace precision { struct tf32; }
namespace experimental {
namespace precision { struct u4; struct s4; struct b1; }
// Enumerators (the table's rows for them are "type" rows, declared below as structs that these
// hide, as `mem_row_major` hides its own): `bmma_sync(..., experimental::bmmaBitOpAND)`.
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}  // namespace experimental
template <class Use, int m, int n, int k, class T, class Layout = void>
struct fragment {
  enum { num_elements = 8 };
  __cl_any x[8];
};
// Without declarations, a call such as `bmma_sync(fc, fa, fb, fc, experimental::bmmaBitOpAND)`
// is an error whose arguments never reach the AST.
template <class... A> __host__ __device__ void fill_fragment(A&&...);
template <class... A> __host__ __device__ void load_matrix_sync(A&&...);
template <class... A> __host__ __device__ void store_matrix_sync(A&&...);
template <class... A> __host__ __device__ void mma_sync(A&&...);
template <class... A> __host__ __device__ void bmma_sync(A&&...);
}  // namespace wmma
}  // namespace nvcuda

// Cooperative groups and libcu++'s synchronisation types, permissive like the rest: enough for
// kernels to parse and for uses to resolve to their qualified names.
namespace cooperative_groups {
struct thread_group {
  __host__ __device__ void sync() const;
  __host__ __device__ unsigned long long size() const;
  __host__ __device__ unsigned long long num_threads() const;
  __host__ __device__ unsigned long long thread_rank() const;
  __host__ __device__ unsigned meta_group_rank() const;
  __host__ __device__ unsigned meta_group_size() const;
  __host__ __device__ bool is_valid() const;
  template <class... A> __host__ __device__ __cl_any shfl(A&&...) const;
  template <class... A> __host__ __device__ __cl_any shfl_up(A&&...) const;
  template <class... A> __host__ __device__ __cl_any shfl_down(A&&...) const;
  template <class... A> __host__ __device__ __cl_any shfl_xor(A&&...) const;
  template <class... A> __host__ __device__ __cl_any any(A&&...) const;
  template <class... A> __host__ __device__ __cl_any all(A&&...) const;
  template <class... A> __host__ __device__ __cl_any ballot(A&&...) const;
  template <class... A> __host__ __device__ __cl_any match_any(A&&...) const;
  template <class... A> __host__ __device__ __cl_any match_all(A&&...) const;
};
struct thread_block : thread_group {
  __host__ __device__ dim3 group_index() const;
  __host__ __device__ dim3 thread_index() const;
  __host__ __device__ dim3 group_dim() const;
  __host__ __device__ dim3 dim_threads() const;
};
struct grid_group : thread_group {
  __host__ __device__ dim3 group_dim() const;
  __host__ __device__ dim3 dim_blocks() const;
  __host__ __device__ dim3 block_index() const;
  __host__ __device__ unsigned long long block_rank() const;
  __host__ __device__ unsigned long long num_blocks() const;
};
struct cluster_group : thread_group {
  __host__ __device__ dim3 block_index() const;
  __host__ __device__ unsigned block_rank() const;
  __host__ __device__ unsigned num_blocks() const;
  __host__ __device__ dim3 dim_blocks() const;
  __host__ __device__ __cl_any barrier_arrive() const;
  template <class... A> __host__ __device__ void barrier_wait(A&&...) const;
  template <class T> __host__ __device__ T* map_shared_rank(T* addr, int rank) const;
  template <class T> __host__ __device__ T& map_shared_rank(T& addr, int rank) const;
  template <class T> __host__ __device__ unsigned query_shared_rank(T* addr) const;
};
struct coalesced_group : thread_group {};
// As CUDA's: a tile from tiled_partition<N>(parent) converts to thread_block_tile<N> (its base),
// so `cg::thread_block_tile<32> t = cg::tiled_partition<32>(block);` is well-formed.
template <unsigned N, class P = void> struct thread_block_tile;
template <unsigned N> struct thread_block_tile<N, void> : thread_group {};
template <unsigned N, class P> struct thread_block_tile : thread_block_tile<N, void> {};
__host__ __device__ thread_block this_thread_block();
__host__ __device__ grid_group this_grid();
__host__ __device__ cluster_group this_cluster();
__host__ __device__ coalesced_group coalesced_threads();
template <unsigned N, class G> __host__ __device__ thread_block_tile<N, G> tiled_partition(const G&);
__host__ __device__ thread_group tiled_partition(const thread_group&, unsigned);
template <class G> __host__ __device__ void sync(const G&);
template <class... A> __host__ __device__ __cl_any labeled_partition(A&&...);
template <class... A> __host__ __device__ __cl_any binary_partition(A&&...);
template <class... A> __host__ __device__ __cl_any reduce(A&&...);
template <class... A> __host__ __device__ __cl_any reduce_store_async(A&&...);
template <class... A> __host__ __device__ __cl_any reduce_update_async(A&&...);
template <class... A> __host__ __device__ __cl_any inclusive_scan(A&&...);
template <class... A> __host__ __device__ __cl_any exclusive_scan(A&&...);
template <class... A> __host__ __device__ __cl_any invoke_one(A&&...);
template <class... A> __host__ __device__ __cl_any invoke_one_broadcast(A&&...);
template <class... A> __host__ __device__ void memcpy_async(A&&...);
template <class... A> __host__ __device__ void wait(A&&...);
template <unsigned N, class... A> __host__ __device__ void wait_prior(A&&...);
template <class T = void> struct plus { template <class... A> __host__ __device__ __cl_any operator()(A&&...) const; };
template <class T = void> struct less { template <class... A> __host__ __device__ __cl_any operator()(A&&...) const; };
template <class T = void> struct greater { template <class... A> __host__ __device__ __cl_any operator()(A&&...) const; };
template <class T = void> struct bit_and { template <class... A> __host__ __device__ __cl_any operator()(A&&...) const; };
template <class T = void> struct bit_or { template <class... A> __host__ __device__ __cl_any operator()(A&&...) const; };
template <class T = void> struct bit_xor { template <class... A> __host__ __device__ __cl_any operator()(A&&...) const; };
}  // namespace cooperative_groups

namespace cuda {
enum thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread };
template <thread_scope S = thread_scope_system, class F = void>
struct barrier {
  using arrival_token = __cl_any;
  __host__ __device__ barrier();
  template <class... A> __host__ __device__ barrier(A&&...);
  template <class... A> __host__ __device__ arrival_token arrive(A&&...);
  template <class... A> __host__ __device__ void wait(A&&...) const;
  __host__ __device__ void arrive_and_wait();
  __host__ __device__ void arrive_and_drop();
  __host__ __device__ static constexpr long max() { return 1L << 30; }
};
template <class... A> __host__ __device__ void init(A&&...);
template <thread_scope S = thread_scope_system>
struct pipeline {
  __host__ __device__ void producer_acquire();
  __host__ __device__ void producer_commit();
  __host__ __device__ void consumer_wait();
  __host__ __device__ void consumer_release();
  template <class... A> __host__ __device__ bool quit(A&&...);
};
template <thread_scope S, unsigned char N = 1> struct pipeline_shared_state {};
template <class... A> __host__ __device__ pipeline<thread_scope_thread> make_pipeline(A&&...);
template <unsigned long N> struct aligned_size_t {
  unsigned long value;
  __host__ __device__ explicit aligned_size_t(unsigned long v) : value(v) {}
  __host__ __device__ operator unsigned long() const { return value; }
};
template <class... A> __host__ __device__ __cl_any memcpy_async(A&&...);
template <class... A> __host__ __device__ void pipeline_consumer_wait_prior(A&&...);
template <class... A> __host__ __device__ void pipeline_producer_commit(A&&...);
namespace device {
template <class... A> __host__ __device__ __cl_any barrier_arrive_tx(A&&...);
template <class... A> __host__ __device__ __cl_any barrier_expect_tx(A&&...);
template <class... A> __host__ __device__ __cl_any barrier_native_handle(A&&...);
template <class... A> __host__ __device__ __cl_any memcpy_async_tx(A&&...);
}  // namespace device
// libcu++'s fixed-width integers, which the cuda::ptx wrappers take (`cuda::std::uint64_t bar`).
namespace std {
using int8_t = signed char; using int16_t = short; using int32_t = int; using int64_t = long;
using uint8_t = unsigned char; using uint16_t = unsigned short; using uint32_t = unsigned int;
using uint64_t = unsigned long; using size_t = decltype(sizeof(0));  // LP64, as glibc's <stdint.h>
using ptrdiff_t = decltype((int*)0 - (int*)0); using intptr_t = long; using uintptr_t = unsigned long;
}  // namespace std
namespace ptx {
struct space_global_t {}; struct space_shared_t {}; struct space_cluster_t {}; struct space_shared_cluster_t {};
inline constexpr space_global_t space_global{};
inline constexpr space_shared_t space_shared{};
inline constexpr space_cluster_t space_cluster{};
struct sem_release_t {}; struct sem_acquire_t {}; struct sem_relaxed_t {};
inline constexpr sem_release_t sem_release{}; inline constexpr sem_acquire_t sem_acquire{};
inline constexpr sem_relaxed_t sem_relaxed{};
struct scope_cta_t {}; struct scope_cluster_t {}; struct scope_gpu_t {}; struct scope_sys_t {};
inline constexpr scope_cta_t scope_cta{}; inline constexpr scope_cluster_t scope_cluster{};
inline constexpr scope_gpu_t scope_gpu{}; inline constexpr scope_sys_t scope_sys{};
inline constexpr space_shared_cluster_t space_shared_cluster{};
struct sem_weak_t {}; struct sem_acq_rel_t {}; struct sem_sc_t {};
inline constexpr sem_weak_t sem_weak{}; inline constexpr sem_acq_rel_t sem_acq_rel{}; inline constexpr sem_sc_t sem_sc{};
// The other tags the wrappers take (CCCL's cuda/__ptx/ptx_dot_variants.h): without them a call
// naming one does not resolve and its feature goes unseen.
template <int N> struct n32_t { static constexpr int value = N; };
struct cta_group_1_t {}; struct cta_group_2_t {};
inline constexpr cta_group_1_t cta_group_1{}; inline constexpr cta_group_2_t cta_group_2{};
struct op_and_op_t {}; struct op_or_op_t {}; struct op_xor_op_t {}; struct op_add_t {}; struct op_dec_t {};
struct op_inc_t {}; struct op_max_t {}; struct op_min_t {}; struct op_exch_t {}; struct op_cas_t {};
inline constexpr op_and_op_t op_and_op{}; inline constexpr op_or_op_t op_or_op{}; inline constexpr op_xor_op_t op_xor_op{};
inline constexpr op_add_t op_add{}; inline constexpr op_dec_t op_dec{}; inline constexpr op_inc_t op_inc{};
inline constexpr op_max_t op_max{}; inline constexpr op_min_t op_min{}; inline constexpr op_exch_t op_exch{};
inline constexpr op_cas_t op_cas{};
struct kind_f16_t {}; struct kind_tf32_t {}; struct kind_f8f6f4_t {}; struct kind_i8_t {};
struct kind_mxf8f6f4_t {}; struct kind_mxf4_t {}; struct kind_mxf4nvf4_t {};
inline constexpr kind_f16_t kind_f16{}; inline constexpr kind_tf32_t kind_tf32{};
inline constexpr kind_f8f6f4_t kind_f8f6f4{}; inline constexpr kind_i8_t kind_i8{};
inline constexpr kind_mxf8f6f4_t kind_mxf8f6f4{}; inline constexpr kind_mxf4_t kind_mxf4{};
inline constexpr kind_mxf4nvf4_t kind_mxf4nvf4{};
}  // namespace ptx
}  // namespace cuda
