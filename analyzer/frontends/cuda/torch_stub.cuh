// cudalint's stand-in for the PyTorch C++ headers (torch/extension.h, ATen, c10), which are never
// parsed (they cost seconds per file and are usually not installed where cudalint runs). What an
// extension's host code names around its launches is declared here, permissively, so that the
// host functions type-check and the kernels they launch are instantiated as nvcc instantiates
// them: an AT_DISPATCH_* macro instantiates a templated kernel once per type it dispatches.
// Written for cudalint from the documented behaviour of torch's API; not a copy of its headers.
#pragma once
#pragma clang system_header

typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;

namespace c10 {
enum class ScalarType : signed char {
  Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat, ComplexDouble, Bool,
  QInt8, QUInt8, QInt32, BFloat16, QUInt4x2, QUInt2x4, Bits1x8, Bits2x4, Bits4x2, Bits8, Bits16,
  Float8_e5m2, Float8_e4m3fn, Float8_e5m2fnuz, Float8_e4m3fnuz, UInt16, UInt32, UInt64, Undefined = 64
};
constexpr ScalarType kByte = ScalarType::Byte, kChar = ScalarType::Char, kShort = ScalarType::Short,
                     kInt = ScalarType::Int, kLong = ScalarType::Long, kHalf = ScalarType::Half,
                     kFloat = ScalarType::Float, kDouble = ScalarType::Double, kBool = ScalarType::Bool,
                     kBFloat16 = ScalarType::BFloat16, kComplexFloat = ScalarType::ComplexFloat,
                     kComplexDouble = ScalarType::ComplexDouble, kFloat8_e5m2 = ScalarType::Float8_e5m2,
                     kFloat8_e4m3fn = ScalarType::Float8_e4m3fn, kInt8 = ScalarType::Char, kUInt8 = ScalarType::Byte,
                     kInt16 = ScalarType::Short, kInt32 = ScalarType::Int, kInt64 = ScalarType::Long,
                     kFloat16 = ScalarType::Half, kFloat32 = ScalarType::Float, kFloat64 = ScalarType::Double;
enum class DeviceType : signed char { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU, kCUDA = DeviceType::CUDA;
enum class Layout : signed char { Strided };
constexpr Layout kStrided = Layout::Strided;

// Reduced-precision floats: stored as bits, converted through float (as torch's own are).
#define __CL_TORCH_FLOAT(T)                                              \
  struct alignas(2) T {                                                  \
    unsigned short x;                                                    \
    T() = default;                                                       \
    __host__ __device__ T(float);                                        \
    __host__ __device__ operator float() const;                          \
    __host__ __device__ T(const __half&);                                \
    __host__ __device__ T(const __nv_bfloat16&);                         \
    __host__ __device__ T& operator+=(float);                            \
    __host__ __device__ T& operator-=(float);                            \
    __host__ __device__ T& operator*=(float);                            \
    __host__ __device__ T& operator/=(float);                            \
  };
__CL_TORCH_FLOAT(Half) __CL_TORCH_FLOAT(BFloat16) __CL_TORCH_FLOAT(Float8_e5m2) __CL_TORCH_FLOAT(Float8_e4m3fn)
#undef __CL_TORCH_FLOAT
// Exact operators, as torch declares them: without them `a * b` would weigh float's builtin
// operator against the prelude's __half family (each converts from anything) and be ambiguous.
#define __CL_TORCH_OPS_WITH(T, op)                                          \
  __host__ __device__ T operator op(const T&, const T&);                   \
  __host__ __device__ float operator op(const T&, float);                  \
  __host__ __device__ float operator op(float, const T&);                  \
  __host__ __device__ double operator op(const T&, double);                \
  __host__ __device__ double operator op(double, const T&);                \
  __host__ __device__ T operator op(const T&, int);                        \
  __host__ __device__ T operator op(int, const T&);                        \
  __host__ __device__ T operator op(const T&, int64_t);                    \
  __host__ __device__ T operator op(int64_t, const T&);
#define __CL_TORCH_CMP_WITH(T, op)                         \
  __host__ __device__ bool operator op(const T&, const T&); \
  __host__ __device__ bool operator op(const T&, float);    \
  __host__ __device__ bool operator op(float, const T&);
#define __CL_TORCH_OPS(T)                                                                               \
  __CL_TORCH_OPS_WITH(T, +) __CL_TORCH_OPS_WITH(T, -) __CL_TORCH_OPS_WITH(T, *) __CL_TORCH_OPS_WITH(T, /) \
  __CL_TORCH_CMP_WITH(T, <) __CL_TORCH_CMP_WITH(T, >) __CL_TORCH_CMP_WITH(T, <=)                        \
  __CL_TORCH_CMP_WITH(T, >=) __CL_TORCH_CMP_WITH(T, ==) __CL_TORCH_CMP_WITH(T, !=)                      \
  __host__ __device__ T operator-(const T&);
__CL_TORCH_OPS(Half) __CL_TORCH_OPS(BFloat16)
#undef __CL_TORCH_OPS
#undef __CL_TORCH_CMP_WITH
#undef __CL_TORCH_OPS_WITH
template <class T> struct alignas(sizeof(T) * 2) complex {
  T real_, imag_;
  complex() = default;
  __host__ __device__ constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}
  __host__ __device__ constexpr T real() const { return real_; }
  __host__ __device__ constexpr T imag() const { return imag_; }
};

// The C++ type of each dispatched ScalarType (what AT_DISPATCH_* names `scalar_t`).
template <ScalarType S> struct __cl_cpp_type { using type = float; };
#define __CL_MAP(S, T) template <> struct __cl_cpp_type<ScalarType::S> { using type = T; };
__CL_MAP(Byte, uint8_t) __CL_MAP(Char, int8_t) __CL_MAP(Short, int16_t) __CL_MAP(Int, int) __CL_MAP(Long, int64_t)
__CL_MAP(Half, Half) __CL_MAP(Float, float) __CL_MAP(Double, double) __CL_MAP(ComplexFloat, complex<float>)
__CL_MAP(ComplexDouble, complex<double>) __CL_MAP(Bool, bool) __CL_MAP(BFloat16, BFloat16)
__CL_MAP(Float8_e5m2, Float8_e5m2) __CL_MAP(Float8_e4m3fn, Float8_e4m3fn) __CL_MAP(UInt16, uint16_t)
__CL_MAP(UInt32, uint32_t) __CL_MAP(UInt64, uint64_t)
#undef __CL_MAP

struct Device {
  template <class... A> __host__ Device(A&&...);
  __host__ int index() const;
  __host__ bool is_cuda() const;
  __host__ DeviceType type() const;
};
template <class T> struct ArrayRef {
  template <class... A> __host__ ArrayRef(A&&...);
  __host__ const T* data() const;
  __host__ size_t size() const;
  __host__ const T* begin() const;
  __host__ const T* end() const;
  __host__ const T& operator[](size_t) const;
  __host__ T front() const;
  __host__ T back() const;
  __host__ bool empty() const;
};
using IntArrayRef = ArrayRef<int64_t>;
template <class T> struct optional {
  template <class... A> __host__ optional(A&&...);
  __host__ bool has_value() const;
  __host__ explicit operator bool() const;
  __host__ T& value() const;
  __host__ T& operator*() const;
  __host__ T* operator->() const;
  template <class U> __host__ T value_or(U&&) const;
};
struct nullopt_t {};
constexpr nullopt_t nullopt{};

struct TensorOptions {
  template <class... A> __host__ TensorOptions(A&&...);
  template <class... A> __host__ TensorOptions dtype(A&&...) const;
  template <class... A> __host__ TensorOptions device(A&&...) const;
  template <class... A> __host__ TensorOptions layout(A&&...) const;
  template <class... A> __host__ TensorOptions requires_grad(A&&...) const;
  template <class... A> __host__ TensorOptions memory_format(A&&...) const;
  template <class... A> __host__ TensorOptions pinned_memory(A&&...) const;
};

namespace cuda {
struct CUDAStream {
  template <class... A> __host__ CUDAStream(A&&...);
  __host__ operator cudaStream_t() const;
  __host__ cudaStream_t stream() const;
};
template <class... A> __host__ CUDAStream getCurrentCUDAStream(A&&...);
template <class... A> __host__ CUDAStream getDefaultCUDAStream(A&&...);
template <class... A> __host__ CUDAStream getStreamFromPool(A&&...);
struct CUDAGuard { template <class... A> __host__ explicit CUDAGuard(A&&...); };
struct OptionalCUDAGuard { template <class... A> __host__ explicit OptionalCUDAGuard(A&&...); };
struct CUDAStreamGuard { template <class... A> __host__ explicit CUDAStreamGuard(A&&...); };
template <class... A> __host__ int current_device(A&&...);
template <class... A> __host__ int device_count(A&&...);
}  // namespace cuda
}  // namespace c10

namespace at {
using namespace c10;
// Accessors into a tensor's data, as kernels take them.
template <class T> struct DefaultPtrTraits { typedef T* PtrType; };
template <class T> struct RestrictPtrTraits { typedef T* __restrict__ PtrType; };
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class index_t = int64_t>
class TensorAccessor {
 public:
  __host__ __device__ TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t) const;
  __host__ __device__ index_t size(index_t) const;
  __host__ __device__ index_t stride(index_t) const;
  __host__ __device__ T* data() const;
};
template <class T, template <class> class PtrTraits, class index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> {
 public:
  __host__ __device__ T& operator[](index_t) const;
  __host__ __device__ index_t size(index_t) const;
  __host__ __device__ index_t stride(index_t) const;
  __host__ __device__ T* data() const;
};
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class index_t = int64_t>
class GenericPackedTensorAccessor : public TensorAccessor<T, N, PtrTraits, index_t> {};
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;

class Tensor {
 public:
  Tensor() = default;
  template <class T = void> __host__ T* data_ptr() const;
  template <class T = void> __host__ const T* const_data_ptr() const;
  template <class T = void> __host__ T* mutable_data_ptr() const;
  template <class T> __host__ T* data() const;
  template <class T> __host__ T item() const;
  template <class T, size_t N> __host__ TensorAccessor<T, N> accessor() const;
  template <class T, size_t N, template <class> class P = DefaultPtrTraits, class I = int64_t>
  __host__ GenericPackedTensorAccessor<T, N, P, I> generic_packed_accessor() const;
  template <class T, size_t N, template <class> class P = DefaultPtrTraits, class I = int64_t>
  __host__ GenericPackedTensorAccessor<T, N, P, I> packed_accessor() const;
  template <class T, size_t N, template <class> class P = DefaultPtrTraits>
  __host__ PackedTensorAccessor32<T, N, P> packed_accessor32() const;
  template <class T, size_t N, template <class> class P = DefaultPtrTraits>
  __host__ PackedTensorAccessor64<T, N, P> packed_accessor64() const;
  __host__ int64_t size(int64_t) const;
  __host__ int64_t stride(int64_t) const;
  __host__ IntArrayRef sizes() const;
  __host__ IntArrayRef strides() const;
  __host__ int64_t numel() const;
  __host__ int64_t dim() const;
  __host__ int64_t ndimension() const;
  __host__ int64_t element_size() const;
  __host__ int64_t nbytes() const;
  __host__ int64_t storage_offset() const;
  __host__ ScalarType scalar_type() const;
  __host__ ScalarType dtype() const;
  __host__ Device device() const;
  __host__ int get_device() const;
  __host__ TensorOptions options() const;
  __host__ bool is_cuda() const;
  __host__ bool is_contiguous(...) const;
  __host__ bool defined() const;
  __host__ bool requires_grad() const;
  // Methods that give a tensor (chains such as `x.contiguous().data_ptr<float>()`).
#define __CL_TENSOR_METHOD(m) template <class... A> __host__ Tensor m(A&&...) const;
  __CL_TENSOR_METHOD(contiguous) __CL_TENSOR_METHOD(to) __CL_TENSOR_METHOD(view) __CL_TENSOR_METHOD(reshape)
  __CL_TENSOR_METHOD(clone) __CL_TENSOR_METHOD(detach) __CL_TENSOR_METHOD(transpose) __CL_TENSOR_METHOD(permute)
  __CL_TENSOR_METHOD(select) __CL_TENSOR_METHOD(narrow) __CL_TENSOR_METHOD(slice) __CL_TENSOR_METHOD(flatten)
  __CL_TENSOR_METHOD(squeeze) __CL_TENSOR_METHOD(unsqueeze) __CL_TENSOR_METHOD(expand) __CL_TENSOR_METHOD(expand_as)
  __CL_TENSOR_METHOD(view_as) __CL_TENSOR_METHOD(type) __CL_TENSOR_METHOD(cuda) __CL_TENSOR_METHOD(cpu)
  __CL_TENSOR_METHOD(float_) __CL_TENSOR_METHOD(half) __CL_TENSOR_METHOD(bfloat16) __CL_TENSOR_METHOD(zero_)
  __CL_TENSOR_METHOD(fill_) __CL_TENSOR_METHOD(copy_) __CL_TENSOR_METHOD(resize_) __CL_TENSOR_METHOD(index_select)
  __CL_TENSOR_METHOD(sum) __CL_TENSOR_METHOD(mean) __CL_TENSOR_METHOD(add) __CL_TENSOR_METHOD(mul)
  __CL_TENSOR_METHOD(add_) __CL_TENSOR_METHOD(mul_) __CL_TENSOR_METHOD(t) __CL_TENSOR_METHOD(matmul)
  __CL_TENSOR_METHOD(index) __CL_TENSOR_METHOD(masked_fill) __CL_TENSOR_METHOD(masked_fill_)
#undef __CL_TENSOR_METHOD
  template <class T> __host__ Tensor& operator=(const T&);
  template <class T> __host__ Tensor operator[](const T&) const;
};
// A braced size list (`at::empty({n, d}, x.options())`) deduces no template argument: the second
// form takes it as an IntArrayRef.
#define __CL_TENSOR_FN(f) \
  template <class... A> __host__ Tensor f(A&&...); \
  template <class... A> __host__ Tensor f(IntArrayRef, A&&...);
__CL_TENSOR_FN(empty) __CL_TENSOR_FN(zeros) __CL_TENSOR_FN(ones) __CL_TENSOR_FN(full) __CL_TENSOR_FN(empty_like)
__CL_TENSOR_FN(zeros_like) __CL_TENSOR_FN(ones_like) __CL_TENSOR_FN(full_like) __CL_TENSOR_FN(arange)
__CL_TENSOR_FN(empty_strided) __CL_TENSOR_FN(from_blob) __CL_TENSOR_FN(cat) __CL_TENSOR_FN(stack)
__CL_TENSOR_FN(matmul) __CL_TENSOR_FN(mm) __CL_TENSOR_FN(bmm) __CL_TENSOR_FN(randn) __CL_TENSOR_FN(rand)
#undef __CL_TENSOR_FN
using TensorList = ArrayRef<Tensor>;
template <class... A> __host__ optional<Device> device_of(A&&...);
// The accumulation type of a kernel's arithmetic (float for the reduced-precision floats).
template <class T, bool is_cuda = true> struct __cl_acc { using type = T; };
template <bool c> struct __cl_acc<Half, c> { using type = float; };
template <bool c> struct __cl_acc<BFloat16, c> { using type = float; };
template <bool c> struct __cl_acc<float, c> { using type = float; };
template <class T, bool is_cuda = true> using acc_type = typename __cl_acc<T, is_cuda>::type;
template <class T> using opmath_type = typename __cl_acc<T, true>::type;
namespace cuda {
using namespace c10::cuda;
template <class... A> __host__ cudaDeviceProp* getCurrentDeviceProperties(A&&...);
template <class... A> __host__ cudaDeviceProp* getDeviceProperties(A&&...);
struct __cl_handle { template <class T> __host__ operator T() const; };
template <class... A> __host__ __cl_handle getCurrentCUDABlasHandle(A&&...);
template <class... A> __host__ __cl_handle getCurrentCUDASparseHandle(A&&...);
}  // namespace cuda
}  // namespace at

namespace torch {
using namespace at;
using at::cuda::getCurrentCUDAStream;
namespace autograd { struct AutogradContext; }
}  // namespace torch

// Checks: their conditions are evaluated as host code, their messages are not.
#define TORCH_CHECK(cond, ...) ((void)(cond))
#define TORCH_CHECK_ARG(cond, ...) ((void)(cond))
#define TORCH_CHECK_VALUE(cond, ...) ((void)(cond))
#define TORCH_CHECK_TYPE(cond, ...) ((void)(cond))
#define TORCH_CHECK_INDEX(cond, ...) ((void)(cond))
#define TORCH_INTERNAL_ASSERT(cond, ...) ((void)(cond))
#define TORCH_WARN(...) ((void)0)
#define TORCH_WARN_ONCE(...) ((void)0)
#define AT_ASSERT(cond, ...) ((void)(cond))
#define AT_ASSERTM(cond, ...) ((void)(cond))
#define AT_ERROR(...) ((void)0)
#define C10_CUDA_CHECK(expr) ((void)(expr))
#define AT_CUDA_CHECK(expr) ((void)(expr))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
#define C10_CUDA_CHECK_WARN(expr) ((void)(expr))
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#define C10_LAUNCH_BOUNDS_0 __launch_bounds__(256, 4)
#define C10_LAUNCH_BOUNDS_1(max_threads) __launch_bounds__(max_threads)
#define C10_LAUNCH_BOUNDS_2(max_threads, min_blocks) __launch_bounds__(max_threads, min_blocks)
#define C10_WARP_SIZE 32
#define C10_UNUSED __attribute__((__unused__))
#define C10_LIKELY(x) (x)
#define C10_UNLIKELY(x) (x)
#define C10_RESTRICT __restrict__
#define C10_ALWAYS_INLINE inline __attribute__((always_inline))

// Type dispatch: a switch whose every case names `scalar_t` and calls the given lambda, as torch's
// AT_DISPATCH_SWITCH does, so each dispatched type instantiates what the lambda launches.
#define AT_DISPATCH_SWITCH(TYPE, NAME, ...)                       \
  [&] {                                                           \
    (void)(TYPE);                                                 \
    (void)(NAME);                                                 \
    switch (static_cast<int>(::c10::ScalarType::Undefined)) {     \
      __VA_ARGS__                                                 \
      default:                                                    \
        break;                                                    \
    }                                                             \
  }()
#define AT_DISPATCH_CASE(enum_type, ...)                                                    \
  case static_cast<int>(enum_type): {                                                      \
    using scalar_t = typename ::c10::__cl_cpp_type<enum_type>::type;                     \
    return __VA_ARGS__();                                                                  \
  }
#define AT_DISPATCH_CASE_FLOATING_TYPES(...) \
  AT_DISPATCH_CASE(::c10::ScalarType::Double, __VA_ARGS__) AT_DISPATCH_CASE(::c10::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_CASE_INTEGRAL_TYPES(...)                                                                  \
  AT_DISPATCH_CASE(::c10::ScalarType::Byte, __VA_ARGS__) AT_DISPATCH_CASE(::c10::ScalarType::Char, __VA_ARGS__) \
  AT_DISPATCH_CASE(::c10::ScalarType::Int, __VA_ARGS__) AT_DISPATCH_CASE(::c10::ScalarType::Long, __VA_ARGS__)  \
  AT_DISPATCH_CASE(::c10::ScalarType::Short, __VA_ARGS__)
#define AT_DISPATCH_CASE_COMPLEX_TYPES(...)                         \
  AT_DISPATCH_CASE(::c10::ScalarType::ComplexDouble, __VA_ARGS__) \
  AT_DISPATCH_CASE(::c10::ScalarType::ComplexFloat, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES(...) AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)
#define AT_DISPATCH_CASE_REDUCED_FLOATING_TYPES(...) \
  AT_DISPATCH_CASE(::c10::ScalarType::Half, __VA_ARGS__) AT_DISPATCH_CASE(::c10::ScalarType::BFloat16, __VA_ARGS__)

#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(::c10::ScalarType::Half, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND2(T1, T2, TYPE, NAME, ...)                                           \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__) \
                                     AT_DISPATCH_CASE(T2, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...)                                       \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__) \
                                     AT_DISPATCH_CASE(T2, __VA_ARGS__) AT_DISPATCH_CASE(T3, __VA_ARGS__))
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_REDUCED_FLOATING_TYPES(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND2(T1, T2, TYPE, NAME, ...)                                           \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__) \
                                     AT_DISPATCH_CASE(T2, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_HALF(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(::c10::ScalarType::Half, __VA_ARGS__))
#define AT_DISPATCH_COMPLEX_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__))

// Python bindings and operator registration: host code whose body only registers functions.
struct __cl_py_module {
  template <class... A> __host__ __cl_py_module& def(A&&...);
  template <class... A> __host__ __cl_py_module& impl(A&&...);
  template <class... A> __host__ __cl_py_module& attr(A&&...);
};
#define PYBIND11_MODULE(name, variable) static void __cl_pybind11_##name(__cl_py_module& variable)
#define TORCH_LIBRARY(ns, m) static void __cl_torch_library_##ns(__cl_py_module& m)
#define TORCH_LIBRARY_FRAGMENT(ns, m) static void __cl_torch_library_fragment_##ns(__cl_py_module& m)
#define TORCH_LIBRARY_IMPL(ns, k, m) static void __cl_torch_library_impl_##ns##_##k(__cl_py_module& m)
