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
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __NVCC__ 1
#define warpSize 32

struct __cl_any {
  template <class T> __host__ __device__ operator T() const;
  template <class T> __host__ __device__ __cl_any& operator=(const T&);
  __host__ __device__ __cl_any operator[](long) const;
  __host__ __device__ __cl_any operator*() const;
  __host__ __device__ __cl_any operator-() const;
  __host__ __device__ __cl_any operator~() const;
  __host__ __device__ bool operator!() const;
  __host__ __device__ __cl_any* operator->() const;
};
#define __CL_BINOP(op)                                                                  \
  template <class T> __host__ __device__ __cl_any operator op(const __cl_any&, const T&); \
  template <class T> __host__ __device__ __cl_any operator op(const T&, const __cl_any&); \
  __host__ __device__ __cl_any operator op(const __cl_any&, const __cl_any&);
__CL_BINOP(+) __CL_BINOP(-) __CL_BINOP(*) __CL_BINOP(/) __CL_BINOP(%) __CL_BINOP(&) __CL_BINOP(|) __CL_BINOP(^)
__CL_BINOP(<<) __CL_BINOP(>>) __CL_BINOP(<) __CL_BINOP(>) __CL_BINOP(<=) __CL_BINOP(>=) __CL_BINOP(==)
__CL_BINOP(!=) __CL_BINOP(&&) __CL_BINOP(||)
#undef __CL_BINOP

// A value type that converts to and from anything (half, bfloat16, fp8 and friends).
#define __CL_VALUE_TYPE(T)                                           \
  struct T {                                                         \
    unsigned short __x;                                              \
    __host__ __device__ T();                                         \
    template <class U> __host__ __device__ T(const U&);              \
    template <class U> __host__ __device__ operator U() const;       \
    template <class U> __host__ __device__ T& operator=(const U&);   \
    template <class U> __host__ __device__ T& operator+=(const U&);  \
    template <class U> __host__ __device__ T& operator-=(const U&);  \
    template <class U> __host__ __device__ T& operator*=(const U&);  \
    template <class U> __host__ __device__ T& operator/=(const U&);  \
    __cl_any x, y;                                                   \
  };                                                                 \
  __host__ __device__ T operator+(const T&, const T&);               \
  __host__ __device__ T operator-(const T&, const T&);               \
  __host__ __device__ T operator*(const T&, const T&);               \
  __host__ __device__ T operator/(const T&, const T&);               \
  __host__ __device__ T operator-(const T&);                         \
  __host__ __device__ bool operator<(const T&, const T&);            \
  __host__ __device__ bool operator>(const T&, const T&);            \
  __host__ __device__ bool operator==(const T&, const T&);
__CL_VALUE_TYPE(__half) __CL_VALUE_TYPE(__half2) __CL_VALUE_TYPE(__nv_bfloat16) __CL_VALUE_TYPE(__nv_bfloat162)
__CL_VALUE_TYPE(__nv_fp8_e4m3) __CL_VALUE_TYPE(__nv_fp8_e5m2) __CL_VALUE_TYPE(__nv_fp8x2_e4m3)
__CL_VALUE_TYPE(__nv_fp8x2_e5m2) __CL_VALUE_TYPE(__nv_fp8x4_e4m3) __CL_VALUE_TYPE(__nv_fp8x4_e5m2)
__CL_VALUE_TYPE(__nv_fp8_e8m0) __CL_VALUE_TYPE(__nv_fp6_e2m3) __CL_VALUE_TYPE(__nv_fp6_e3m2)
__CL_VALUE_TYPE(__nv_fp4_e2m1) __CL_VALUE_TYPE(__nv_fp4x2_e2m1) __CL_VALUE_TYPE(__half_raw)
__CL_VALUE_TYPE(__nv_bfloat16_raw) __CL_VALUE_TYPE(__half2_raw) __CL_VALUE_TYPE(__nv_bfloat162_raw)
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
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
typedef struct CUstream_st* cudaStream_t;
typedef int cudaError_t;
int cudaConfigureCall(dim3, dim3, unsigned long = 0, cudaStream_t = 0);
int __cudaPushCallConfiguration(dim3, dim3, unsigned long = 0, cudaStream_t = 0);
typedef unsigned long size_t;
typedef unsigned long long CUtensorMap_st;
typedef struct { alignas(64) unsigned long long opaque[16]; } CUtensorMap;

// <nv/target>: NV_IF_TARGET(NV_PROVIDES_SM_80, (then), (else)) and friends; the per-arch part
// defines `__CL_NV_<query>` as 1 or 0 for the arch being parsed.
#define __CL_NV_EXPAND(...) __VA_ARGS__
#define __CL_NV_STRIP(...) __VA_ARGS__
#define __CL_NV_PICK_1(t, ...) __CL_NV_STRIP t
#define __CL_NV_PICK_0(t, ...) __VA_OPT__(__CL_NV_STRIP __VA_ARGS__)
#define __CL_NV_PICK(v, t, ...) __CL_NV_CAT(__CL_NV_PICK_, v)(t, __VA_ARGS__)
#define __CL_NV_CAT(a, b) __CL_NV_CAT2(a, b)
#define __CL_NV_CAT2(a, b) a##b
#define NV_IF_TARGET(q, t, ...) __CL_NV_PICK(__CL_NV_##q, t, __VA_ARGS__)
#define NV_IF_ELSE_TARGET(q, t, e) __CL_NV_PICK(__CL_NV_##q, t, e)
#define NV_DISPATCH_TARGET(...)

namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
enum layout_t { mem_row_major, mem_col_major };
namespace precision { struct tf32; }
namespace experimental { namespace precision { struct u4; struct s4; struct b1; } }
template <class Use, int m, int n, int k, class T, class Layout = void>
struct fragment {
  enum { num_elements = 8 };
  __cl_any x[8];
};
}  // namespace wmma
}  // namespace nvcuda
