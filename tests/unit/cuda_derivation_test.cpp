// An arch whose preprocessing differs from the first parse's only in `#if`/`#else` branches whose
// other branch adds nothing takes the first parse's uses without those of the branch the parse
// took (Options::derive_archs). What each arch finds must not change: every case is analysed
// with derivation and with one full parse per arch (no derivation, no body reuse), and each
// arch's uses must be identical; the cases say whether an arch was derived or parsed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/unit/cuda_corpus.h"

namespace cudalint::cuda {
namespace {

using corpus::render_rest;

struct Outcome {
  std::string derived, parsed;  // every arch's uses, each way
  std::string derived_rest, parsed_rest;
  unsigned derived_archs = 0, parses = 0;
};

// Analyses `text` (as DIR/k.cu, next to fast.cuh) for sm_75, sm_80 and sm_90, both ways.
Outcome analyse(const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("cudalint-derivation-{}", ::getpid());
  fs::create_directories(dir);
  std::ofstream(dir / "fast.cuh") << "#pragma once\n"
                                     "__device__ unsigned fast_sum(unsigned v) { return __reduce_add_sync(~0u, v); }\n";
  const std::string file = (dir / "k.cu").string();
  PreludeCache cache;
  Options on = corpus::three_arch_options(&cache);
  Options off = on;
  off.derive_archs = false;
  off.reuse_bodies = false;
  Result a = analyze(file, text, on, FeatureTable::builtin());
  Result b = analyze(file, text, off, FeatureTable::builtin());
  fs::remove_all(dir);
  Outcome r;
  r.derived = corpus::render_archs(a);
  r.parsed = corpus::render_archs(b);
  r.derived_rest = render_rest(a);
  r.parsed_rest = render_rest(b);
  r.derived_archs = a.derived_archs;
  r.parses = a.clang_parses;
  EXPECT_EQ(b.derived_archs, 0u);
  return r;
}

// `BODY` is replaced by the sm_75 branch of the kernel below.
std::string kernel(const std::string& fallback) {
  std::string t = R"(#include "fast.cuh"
__device__ float scale = 2.0f;
struct Pair { float a, b; };
__device__ float twice(float v) { return v * 2.0f; }
__global__ void k(const unsigned* in, unsigned* out, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  out[i] = fast_sum(in[i]) + __reduce_max_sync(~0u, in[i]);
  asm volatile("cp.async.wait_all;\n" ::);
#else
BODY
#endif
  f[i] = __shfl_down_sync(~0u, f[i], 1);
  __nanosleep(100);
}
void launch(const unsigned* in, unsigned* out, float* f, int n) { k<<<1, 32>>>(in, out, f, n); }
)";
  t.replace(t.find("BODY"), 4, fallback);
  return t;
}

TEST(CudaDerivation, PlainFallbacksAreDerived) {
  for (const char* fallback : {
           "",                                                               // nothing
           "  out[i] = in[i] + 5u;",                                         // the parameters
           "  unsigned v = in[threadIdx.x] * 2u;\n  out[i] = v + (unsigned)blockDim.y;",  // a local of its own
           "  // a comment\n  for (int j = 0; j < n; ++j) out[j] = static_cast<unsigned>(f[j]);",
           "  if (i % 2 == 0) { out[i] = 0; } else { out[i] = 1; }",
           "  in[i] = 1u;",  // a type error (`in` points to const): a parse reports none either
       }) {
    Outcome r = analyse(kernel(fallback));
    EXPECT_EQ(r.derived, r.parsed) << fallback;
    EXPECT_EQ(r.derived_rest, r.parsed_rest) << fallback;
    EXPECT_EQ(r.derived_archs, 1u) << fallback;
    EXPECT_EQ(r.parses, 1u) << fallback;
  }
}

// The branch sm_75 does not take held the only call of the header's function: for sm_75 it is
// not emitted (ctx=1: a device function no kernel reaches), for sm_80 it is (ctx=0).
TEST(CudaDerivation, RemovedCallsAreNotReached) {
  Outcome r = analyse(kernel("  out[i] = in[i];"));
  ASSERT_EQ(r.derived, r.parsed);
  EXPECT_EQ(r.derived_archs, 1u);
  const std::string sm75 = r.derived.substr(0, r.derived.find("arch sm_80"));
  const std::string sm80 = r.derived.substr(r.derived.find("arch sm_80"));
  EXPECT_NE(sm75.find("use __reduce_add_sync "), std::string::npos) << sm75;
  EXPECT_EQ(sm75.find("__reduce_max_sync"), std::string::npos) << sm75;
  EXPECT_EQ(sm75.find("cp.async.wait_all"), std::string::npos) << sm75;
  EXPECT_NE(sm75.find("__nanosleep"), std::string::npos) << sm75;
  auto ctx_of = [](const std::string& s, const std::string& feature) {
    size_t p = s.find("use " + feature);
    return p == std::string::npos ? std::string() : s.substr(s.find("ctx=", p), 5);
  };
  EXPECT_EQ(ctx_of(sm75, "__reduce_add_sync"), "ctx=1") << sm75;
  EXPECT_EQ(ctx_of(sm80, "__reduce_add_sync"), "ctx=0") << sm80;
}

// Whatever could add a use, a call, an instantiation or a declaration the rest sees: parsed.
TEST(CudaDerivation, OtherFallbacksAreParsed) {
  for (const char* fallback : {
           "  out[i] = (unsigned)twice(f[i]);",   // a call
           "  f[i] = scale;",                     // a global variable
           "  Pair p{1.0f, 2.0f}; f[i] = p.a;",   // a class type, a member
           "  out[i] = __brev(in[i]);",           // an intrinsic
           "  out[i] = UINT_MAX_GUESS;",          // an unknown name
           "#define LOCAL 3\n  out[i] = LOCAL;",  // a directive
           "  out[i] = __LINE__;",                // a macro
           "  float* g = f; g->x;",               // `->`
       }) {
    Outcome r = analyse(kernel(fallback));
    EXPECT_EQ(r.derived, r.parsed) << fallback;
    EXPECT_EQ(r.derived_archs, 0u) << fallback;
    EXPECT_EQ(r.parses, 2u) << fallback;
  }
}

// A syntax error in the branch only an older arch compiles is what nvcc reports hours into a
// build: that arch is parsed, and the error reported as without derivation.
TEST(CudaDerivation, SyntaxErrorsInTheBranchAreParsed) {
  Outcome r = analyse(kernel("  out[i] = ;"));
  EXPECT_EQ(r.derived, r.parsed);
  EXPECT_EQ(r.derived_rest, r.parsed_rest);
  EXPECT_EQ(r.derived_archs, 0u);
  EXPECT_NE(r.derived_rest.find("syntax"), std::string::npos) << r.derived_rest;
}

// Declarations that outlive a branch: one the parsed branch declares and later code uses, and
// one the other branch declares under a name later code uses.
TEST(CudaDerivation, DeclarationsSeenAfterTheGroupAreParsed) {
  const std::string both = R"(__global__ void k(unsigned* out, float* f) {
#if __CUDA_ARCH__ >= 800
  unsigned v = __reduce_add_sync(~0u, out[0]);
#else
  unsigned v = 1u;
#endif
  out[1] = v;
}
)";
  Outcome r = analyse(both);
  EXPECT_EQ(r.derived, r.parsed);
  EXPECT_EQ(r.derived_archs, 0u);

  const std::string other = R"(__global__ void k(unsigned* out, float* f) {
  float w = f[0];
#if __CUDA_ARCH__ >= 800
  out[0] = __reduce_add_sync(~0u, out[0]);
#else
  unsigned x = 3u;
  out[0] = x + (unsigned)w;
#endif
  f[1] = w;
}
)";
  r = analyse(other);
  EXPECT_EQ(r.derived, r.parsed);
  EXPECT_EQ(r.derived_archs, 1u);  // `x` is not used after the group
  // A name the branch declares (even in a block of its own) and later code uses: parsed.
  std::string used = other;
  used.replace(used.find("  unsigned x = 3u;"), 0, "  { float w = 2.0f; out[1] = (unsigned)w; }\n");
  r = analyse(used);
  EXPECT_EQ(r.derived, r.parsed);
  EXPECT_EQ(r.derived_archs, 0u);
}

// Groups that are not one `#if`/`#else` in a plain function: parsed.
TEST(CudaDerivation, OtherGroupsAreParsed) {
  const std::string elif = R"(__global__ void k(unsigned* out) {
#if __CUDA_ARCH__ >= 900
  out[0] = __reduce_add_sync(~0u, out[0]);
#elif __CUDA_ARCH__ >= 800
  out[0] = __reduce_max_sync(~0u, out[0]);
#else
  out[0] = 1u;
#endif
}
)";
  Outcome r = analyse(elif);
  EXPECT_EQ(r.derived, r.parsed);
  EXPECT_EQ(r.derived_archs, 0u);
  EXPECT_EQ(r.parses, 3u);

  const std::string in_template = R"(template <class T> __global__ void k(T* out) {
#if __CUDA_ARCH__ >= 800
  out[0] = __reduce_add_sync(~0u, out[0]);
#else
  out[0] = 1u;
#endif
}
template __global__ void k<unsigned>(unsigned*);
)";
  r = analyse(in_template);
  EXPECT_EQ(r.derived, r.parsed);
  EXPECT_EQ(r.derived_archs, 0u);

  const std::string top_level = R"(#if __CUDA_ARCH__ >= 800
__device__ unsigned pick(unsigned v) { return __reduce_add_sync(~0u, v); }
#endif
__global__ void k(unsigned* out) { out[0] = 1u; }
)";
  r = analyse(top_level);
  EXPECT_EQ(r.derived, r.parsed);
  EXPECT_EQ(r.derived_archs, 0u);
}

// The memory accesses the MEM rules read are the newest arch's, the parse every other arch is
// derived from or shares: the same as analysing sm_90 alone.
TEST(CudaDerivation, AccessesAreTheNewestArchs) {
  const std::string text = R"(__global__ void k(const float* in, float* out) {
#if __CUDA_ARCH__ >= 900
  out[threadIdx.x * 32] = in[threadIdx.x * 32];
#else
  out[threadIdx.x] = in[threadIdx.x];
#endif
  __nanosleep(100);  // a feature: without one, one parse serves every arch
}
)";
  Outcome r = analyse(text);
  EXPECT_EQ(r.derived_rest, r.parsed_rest);
  EXPECT_EQ(r.derived_archs, 2u);  // sm_80 and sm_75
  PreludeCache cache;
  Options one;
  one.archs = {domain::Arch{9, 0}};
  one.cuda = domain::CudaVersion{13, 0, -1};
  one.prelude_cache = &cache;
  Result sm90 = analyze("/tmp/k.cu", text, one, FeatureTable::builtin());
  EXPECT_EQ(r.derived_rest, render_rest(sm90));
  one.archs = {domain::Arch{7, 5}};
  EXPECT_NE(r.derived_rest, render_rest(analyze("/tmp/k.cu", text, one, FeatureTable::builtin())));
  EXPECT_NE(r.derived_rest.find("access"), std::string::npos) << r.derived_rest;
}

}  // namespace
}  // namespace cudalint::cuda
