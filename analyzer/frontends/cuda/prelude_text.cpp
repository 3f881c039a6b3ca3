// CUDA front-end: the prelude's text: prelude.cuh, the declarations of the feature table's
// functions and types, and the part that depends on the arch (<nv/target>'s queries, as macros).
#include "analyzer/frontends/cuda/cuda_frontend.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analyzer/frontends/cuda/arch_macros.h"
#include "analyzer/frontends/cuda/cuda_frontend_internal.h"

namespace cudalint::cuda {

std::string_view prelude_base();  // generated from prelude.cuh

namespace {

// Functions kernels commonly call that have no arch constraint: declared so that calls resolve
// (an undeclared call is harmless, but resolved calls keep templates and overloads intact).
constexpr std::string_view kCommon[] = {
    "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__syncwarp", "__threadfence",
    "__threadfence_block", "__threadfence_system", "atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax",
    "atomicCAS", "atomicAnd", "atomicOr", "atomicXor", "atomicInc", "atomicDec", "__shfl_sync", "__shfl_up_sync",
    "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__all_sync", "__activemask", "__popc",
    "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev", "__brevll", "__ldg", "__ldcg", "__ldca", "__ldcs",
    "__ldlu", "__ldcv", "__stcg", "__stcs", "__stwb", "__stwt", "__float2half", "__half2float", "__float2half_rn",
    "__floats2half2_rn", "__float22half2_rn", "__half22float2", "__float2bfloat16", "__bfloat162float",
    "__float2bfloat16_rn", "__floats2bfloat162_rn", "__bfloat1622float2", "__fdividef", "__expf", "__exp10f", "__logf",
    "__log2f", "__sinf", "__cosf", "__tanf", "__powf", "expf", "exp2f", "logf", "log2f", "log1pf", "expm1f", "sqrtf",
    "rsqrtf", "fmaxf", "fminf", "fabsf", "tanhf", "erff", "erfcf", "powf", "floorf", "ceilf", "roundf", "max", "min",
    "abs", "__fmaf_rn", "__fadd_rn", "__fsub_rn", "__fmul_rn", "__fdiv_rn", "__frcp_rn", "__fsqrt_rn",
    "__int_as_float", "__float_as_int", "__uint_as_float", "__float_as_uint", "__double_as_longlong",
    "__longlong_as_double", "__cvta_generic_to_shared", "__cvta_shared_to_generic", "__cvta_generic_to_global",
    "__isShared", "__isGlobal", "__isConstant", "__isLocal", "clock", "clock64", "printf", "__trap", "__brkpt",
    "__umulhi", "__mulhi", "__umul64hi", "__mul64hi", "__sad", "__usad", "__byte_perm", "__funnelshift_l",
    "__funnelshift_r", "__funnelshift_lc", "__funnelshift_rc", "__hadd", "__hsub", "__hmul", "__hdiv", "__hfma",
    "__hadd2", "__hsub2", "__hmul2", "__h2div", "__hfma2", "__half2half2", "__low2float", "__high2float",
    "__low2half", "__high2half", "__lows2half2", "__highs2half2", "__halves2half2", "__hneg", "__hneg2", "__habs",
    "__habs2", "__heq", "__hne", "__hlt", "__hle", "__hgt", "__hge", "__hisnan", "__hisinf", "hexp", "hlog", "hsqrt",
    "hrsqrt", "h2exp", "h2log", "h2sqrt", "isnan", "isinf", "isfinite", "__isnanf", "__isinff", "__saturatef",
    "__float2int_rn", "__float2int_rz", "__float2uint_rn", "__int2float_rn", "__uint2float_rn", "__double2float_rn",
    "__float2ll_rn", "__ll2float_rn", "rintf", "truncf", "fmaf", "sinf", "cosf", "tanf", "sincosf", "__sincosf",
    "exp", "log", "sqrt", "rsqrt", "fabs", "fmax", "fmin", "tanh", "floor", "ceil", "pow", "fma", "round", "trunc",
    "copysignf", "fmodf", "remainderf", "atan2f", "hypotf", "cbrtf", "lgammaf", "tgammaf", "normcdff", "__nv_cvt_float_to_fp8",
    "__shfl_sync", "__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__prof_trigger", "__nanosleep",
    "make_cudaExtent", "cudaGetLastError", "cudaGetErrorString", "cudaDeviceSynchronize", "cudaMalloc", "cudaFree",
    "cudaMemcpy", "cudaMemcpyAsync", "cudaMemset", "cudaMemsetAsync", "cudaFuncSetAttribute", "cudaLaunchKernel",
    "cudaStreamSynchronize", "cudaGetDevice", "cudaSetDevice", "cudaGetDeviceProperties", "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    // The rest of the runtime API host code commonly calls (its types are in prelude.cuh).
    "cudaPeekAtLastError", "cudaGetErrorName", "cudaLaunchKernelEx", "cudaLaunchCooperativeKernel",
    "cudaOccupancyMaxPotentialClusterSize", "cudaOccupancyMaxActiveClusters", "cudaOccupancyMaxPotentialBlockSize",
    "cudaDeviceGetAttribute", "cudaFuncGetAttributes", "cudaFuncSetCacheConfig", "cudaGetDeviceCount",
    "cudaDeviceReset", "cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaStreamCreateWithPriority",
    "cudaStreamDestroy", "cudaStreamWaitEvent", "cudaStreamQuery", "cudaStreamIsCapturing", "cudaEventCreate",
    "cudaEventCreateWithFlags", "cudaEventRecord", "cudaEventSynchronize", "cudaEventQuery", "cudaEventElapsedTime",
    "cudaEventDestroy", "cudaMallocAsync", "cudaFreeAsync", "cudaMallocHost", "cudaFreeHost", "cudaHostAlloc",
    "cudaMallocManaged", "cudaHostRegister", "cudaHostUnregister", "cudaHostGetDevicePointer", "cudaMemcpyToSymbol",
    "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbol", "cudaGetSymbolAddress", "cudaMemcpy2D", "cudaMemcpy2DAsync",
    "cudaMemGetInfo", "cudaIpcGetMemHandle", "cudaIpcOpenMemHandle", "cudaIpcCloseMemHandle",
    "cudaDeviceCanAccessPeer", "cudaDeviceEnablePeerAccess", "cudaPointerGetAttributes", "cudaDriverGetVersion",
    "cudaRuntimeGetVersion"};

// The result types of common functions, as CUDA's headers declare them: a type, or one computed
// from the arguments (see prelude.cuh): kArg0/kArg1 the (decayed) type of argument 0/1, kPointee
// what argument 0 points to. The arguments stay permissive.
// Typed results are for speed: arithmetic on a __cl_any result is an overloaded operator, and
// Clang weighs every builtin candidate for it (over a thousand for `+=`).
struct TypedResult {
  std::string_view name, result;
};
constexpr std::string_view kArg0 = "__cl_arg_t<0, A...>", kArg1 = "__cl_arg_t<1, A...>",
                           kPointee = "__cl_pointee_t<A...>";
constexpr TypedResult kTypedResults[] = {
    {"__activemask", "unsigned"}, {"__all_sync", "int"}, {"__any_sync", "int"}, {"__ballot_sync", "unsigned"},
    {"__bfloat1622float2", "float2"}, {"__bfloat162float", "float"}, {"__brev", "unsigned"},
    {"__brevll", "unsigned long long"}, {"__byte_perm", "unsigned"}, {"__clz", "int"}, {"__clzll", "int"},
    {"__cosf", "float"}, {"__double2float_rn", "float"}, {"__double_as_longlong", "long long"},
    {"__exp10f", "float"}, {"__expf", "float"}, {"__fadd_rn", "float"}, {"__fdiv_rn", "float"},
    {"__fdividef", "float"}, {"__ffs", "int"}, {"__ffsll", "int"}, {"__float22half2_rn", "__half2"},
    {"__float2bfloat16", "__nv_bfloat16"}, {"__float2bfloat16_rn", "__nv_bfloat16"}, {"__float2half", "__half"},
    {"__float2half_rn", "__half"}, {"__float2int_rn", "int"}, {"__float2int_rz", "int"},
    {"__float2ll_rn", "long long"}, {"__float2uint_rn", "unsigned"}, {"__float_as_int", "int"},
    {"__float_as_uint", "unsigned"}, {"__floats2bfloat162_rn", "__nv_bfloat162"}, {"__floats2half2_rn", "__half2"},
    {"__fmaf_rn", "float"}, {"__fmul_rn", "float"}, {"__frcp_rn", "float"}, {"__fsqrt_rn", "float"},
    {"__fsub_rn", "float"}, {"__funnelshift_l", "unsigned"}, {"__funnelshift_lc", "unsigned"},
    {"__funnelshift_r", "unsigned"}, {"__funnelshift_rc", "unsigned"}, {"__half22float2", "float2"},
    {"__half2float", "float"}, {"__high2float", "float"}, {"__int2float_rn", "float"}, {"__int_as_float", "float"},
    {"__ldca", kPointee}, {"__ldcg", kPointee}, {"__ldcs", kPointee}, {"__ldcv", kPointee}, {"__ldg", kPointee}, {"__ldlu", kPointee},
    {"__ll2float_rn", "float"}, {"__log2f", "float"}, {"__logf", "float"}, {"__longlong_as_double", "double"},
    {"__low2float", "float"}, {"__match_all_sync", "unsigned"}, {"__match_any_sync", "unsigned"},
    {"__mul64hi", "long long"}, {"__mulhi", "int"}, {"__popc", "int"}, {"__popcll", "int"}, {"__powf", "float"},
    {"__reduce_add_sync", kArg1}, {"__reduce_and_sync", "unsigned"}, {"__reduce_max_sync", kArg1},
    {"__reduce_min_sync", kArg1}, {"__reduce_or_sync", "unsigned"}, {"__reduce_xor_sync", "unsigned"},
    {"__sad", "unsigned"}, {"__saturatef", "float"}, {"__shfl", kArg0}, {"__shfl_down", kArg0},
    {"__shfl_down_sync", kArg1}, {"__shfl_sync", kArg1}, {"__shfl_up", kArg0}, {"__shfl_up_sync", kArg1},
    {"__shfl_xor", kArg0}, {"__shfl_xor_sync", kArg1}, {"__sinf", "float"}, {"__tanf", "float"},
    {"__uint2float_rn", "float"}, {"__uint_as_float", "float"}, {"__umul64hi", "unsigned long long"},
    {"__umulhi", "unsigned"}, {"__usad", "unsigned"}, {"atomicAdd", kPointee}, {"atomicAdd_block", kPointee},
    {"atomicAdd_system", kPointee}, {"atomicAnd", kPointee}, {"atomicAnd_block", kPointee}, {"atomicAnd_system", kPointee},
    {"atomicCAS", kPointee}, {"atomicCAS_block", kPointee}, {"atomicCAS_system", kPointee}, {"atomicDec", kPointee},
    {"atomicDec_block", kPointee}, {"atomicDec_system", kPointee}, {"atomicExch", kPointee}, {"atomicExch_block", kPointee},
    {"atomicExch_system", kPointee}, {"atomicInc", kPointee}, {"atomicInc_block", kPointee}, {"atomicInc_system", kPointee},
    {"atomicMax", kPointee}, {"atomicMax_block", kPointee}, {"atomicMax_system", kPointee}, {"atomicMin", kPointee},
    {"atomicMin_block", kPointee}, {"atomicMin_system", kPointee}, {"atomicOr", kPointee}, {"atomicOr_block", kPointee},
    {"atomicOr_system", kPointee}, {"atomicSub", kPointee}, {"atomicSub_block", kPointee}, {"atomicSub_system", kPointee},
    {"atomicXor", kPointee}, {"atomicXor_block", kPointee}, {"atomicXor_system", kPointee}, {"cbrtf", "float"},
    {"ceilf", "float"}, {"clock64", "long long"}, {"copysignf", "float"}, {"cosf", "float"}, {"erfcf", "float"},
    {"erff", "float"}, {"exp2f", "float"}, {"expf", "float"}, {"expm1f", "float"}, {"fabsf", "float"},
    {"floorf", "float"}, {"fmaf", "float"}, {"fmaxf", "float"}, {"fminf", "float"}, {"fmodf", "float"},
    {"hypotf", "float"}, {"log1pf", "float"}, {"log2f", "float"}, {"logf", "float"}, {"normcdff", "float"},
    {"powf", "float"}, {"remainderf", "float"}, {"rintf", "float"}, {"roundf", "float"}, {"rsqrtf", "float"},
    {"sinf", "float"}, {"sqrtf", "float"}, {"tanf", "float"}, {"tanhf", "float"}, {"truncf", "float"}};

static_assert(std::is_sorted(std::begin(kTypedResults), std::end(kTypedResults),
                             [](const TypedResult& a, const TypedResult& b) { return a.name < b.name; }),
              "kTypedResults is searched by binary search");

std::string_view result_type_of(std::string_view fn) {
  auto it = std::lower_bound(std::begin(kTypedResults), std::end(kTypedResults), fn,
                             [](const TypedResult& t, std::string_view n) { return t.name < n; });
  return it == std::end(kTypedResults) || it->name != fn ? "__cl_any" : it->result;
}

// Names the prelude declares by hand (with real signatures); the generated declarations skip them.
constexpr std::string_view kHandwritten[] = {
    "nvcuda::wmma::fill_fragment", "nvcuda::wmma::load_matrix_sync", "nvcuda::wmma::store_matrix_sync",
    "nvcuda::wmma::mma_sync", "nvcuda::wmma::bmma_sync", "nvcuda::wmma::fragment",
    "nvcuda::wmma::precision::tf32", "nvcuda::wmma::experimental::precision::u4",
    "nvcuda::wmma::experimental::precision::s4", "nvcuda::wmma::experimental::precision::b1",
    "cooperative_groups::cluster_group"};

bool plain_identifier(std::string_view s) {
  return !s.empty() && !(s[0] >= '0' && s[0] <= '9') && std::all_of(s.begin(), s.end(), detail::ident_char);
}

// `a::b::c` → {"a", "b", "c"}; empty when some part is not an identifier (operators, templates).
std::vector<std::string_view> qualified_parts(std::string_view name) {
  std::vector<std::string_view> parts;
  size_t b = 0;
  while (true) {
    size_t e = name.find("::", b);
    std::string_view p = name.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b);
    if (!plain_identifier(p)) return {};
    parts.push_back(p);
    if (e == std::string_view::npos) break;
    b = e + 2;
  }
  return parts;
}

// The arch text, its <nv/target> queries as 1/0: decided here for `arch`, or (null, or where
// the evaluator cannot decide one) left to `#if`s the parse evaluates for its arch.
std::string arch_text_of(const domain::Arch* arch) {
  std::string p = "#pragma clang system_header\n";
  p += "#ifndef __CUDACC_VER_MAJOR__\n#define __CUDACC_VER_MAJOR__ 13\n#define __CUDACC_VER_MINOR__ 0\n#endif\n";
  p += arch ? "// ---- generated: <nv/target> queries, evaluated for this arch ----\n"
            : "// ---- generated: <nv/target> queries ----\n";
  for (const auto& [name, cond] : nv_target_queries()) {
    if (auto m = arch ? arch_macro(name, *arch) : std::nullopt; m && m->defined)
      p += fmt::format("#define {} {}\n", name, m->value);
    else
      p += fmt::format("#if {1}\n#define {0} 1\n#else\n#define {0} 0\n#endif\n", name, cond);
  }
  return p;
}

}  // namespace

std::string prelude_arch_text() { return arch_text_of(nullptr); }

std::string prelude_arch_text_for(const domain::Arch& arch) { return arch_text_of(&arch); }

std::string prelude_text(const FeatureTable& table) {
  std::string p(prelude_base());
  // Declarations: every table function and type, and the common unconstrained functions. The
  // signatures are permissive (any arguments, a result that converts to anything).
  std::set<std::string, std::less<>> hand(std::begin(kHandwritten), std::end(kHandwritten));
  std::map<std::string, std::set<std::string>> fns_by_ns, types_by_ns;  // "a::b" → names
  for (std::string_view n : kCommon) fns_by_ns[""].emplace(n);
  for (const Feature& f : table.rows()) {
    if (f.kind == FeatureKind::Ptx) continue;
    std::string_view name = f.name;
    name = name.substr(0, name.find('('));  // overload rows: the function's name
    if (name.find('<') != std::string_view::npos || hand.count(name)) continue;
    auto parts = qualified_parts(name);
    if (parts.empty()) continue;
    std::string ns;
    for (size_t i = 0; i + 1 < parts.size(); ++i) ns += (ns.empty() ? "" : "::") + std::string(parts[i]);
    (f.kind == FeatureKind::Type ? types_by_ns : fns_by_ns)[ns].emplace(parts.back());
  }
  std::set<std::string> namespaces;
  for (const auto& [ns, _] : fns_by_ns) namespaces.insert(ns);
  for (const auto& [ns, _] : types_by_ns) namespaces.insert(ns);
  p += "// ---- generated: declarations of the feature table ----\n";
  for (const std::string& ns : namespaces) {
    if (!ns.empty()) p += fmt::format("namespace {} {{\n", ns);
    if (auto it = types_by_ns.find(ns); it != types_by_ns.end())
      for (const auto& t : it->second)
        p += fmt::format(
            "struct {0} {{ __host__ __device__ {0}(); template <class... A> __host__ __device__ {0}(A&&...); "
            "template <class U> __host__ __device__ operator U() const; }};\n",
            t);
    if (auto it = fns_by_ns.find(ns); it != fns_by_ns.end())
      for (const auto& f : it->second) {
        if (types_by_ns.count(ns) && types_by_ns[ns].count(f)) continue;
        if (ns.empty()) {
          p += fmt::format("template <class... A> __host__ __device__ {} {}(A&&...);\n", result_type_of(f), f);
          continue;
        }
        // Library wrappers may be called with explicit template arguments
        // (`cuda::ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<cuda::std::uint32_t>(v)`):
        // types, or values (then at least one, so that a plain call is not ambiguous).
        p += fmt::format(
            "template <class... T, class... A> __host__ __device__ __cl_any {0}(A&&...);\n"
            "template <auto V0, auto... V, class... A> __host__ __device__ __cl_any {0}(A&&...);\n",
            f);
      }
    if (!ns.empty()) p += "}\n";
  }
  return p;
}

}  // namespace cudalint::cuda
