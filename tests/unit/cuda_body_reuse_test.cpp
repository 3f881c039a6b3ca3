// A later arch's parse skips the bodies the first arch's parse found it may (Options::reuse_bodies)
// and takes that parse's findings for them. What each arch finds must not change: every case is
// analysed with and without reuse, and each arch's uses must be identical.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/unit/cuda_corpus.h"

namespace cudalint::cuda {
namespace {


struct Outcome {
  std::string with, without;
  unsigned skipped = 0, parses = 0;
};

// Analyses `text` (as DIR/k.cu, next to the headers helpers.cuh and decls.cuh) for sm_75, sm_80
// and sm_90, with a precompiled prelude (body reuse needs its driver job), with and without reuse.
Outcome analyse_both(const std::string& text, const std::string& decls = "") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("cudalint-body-reuse-{}", ::getpid());
  fs::create_directories(dir);
  std::ofstream(dir / "helpers.cuh") << "#pragma once\n"
                                        "__device__ unsigned warp_sum(unsigned v) { return __reduce_add_sync(0xffffffffu, v); }\n";
  std::ofstream(dir / "decls.cuh") << decls;
  const std::string file = (dir / "k.cu").string();
  PreludeCache cache;
  Options on = corpus::three_arch_options(&cache);
  on.derive_archs = false;  // sm_75 would be derived from sm_90's parse in some cases: not what is tested
  Options off = on;
  off.reuse_bodies = false;
  Result a = analyze(file, text, on, FeatureTable::builtin());
  Result b = analyze(file, text, off, FeatureTable::builtin());
  fs::remove_all(dir);
  Outcome r;
  r.with = corpus::render_archs(a);
  r.without = corpus::render_archs(b);
  r.skipped = a.skipped_bodies;
  r.parses = a.clang_parses;
  EXPECT_EQ(b.skipped_bodies, 0u);
  return r;
}

// One guarded kernel; the rest (a header's function, helpers, another kernel, host code) is the
// same for every arch. The launcher instantiates a template kernel: it is parsed again.
constexpr const char* kMixed = R"(#include "helpers.cuh"
__device__ float helper(float v) { return __shfl_down_sync(0xffffffffu, v, 1); }
__global__ void guarded(const float* in, float* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  out[0] = __reduce_add_sync(0xffffffffu, 1u);
#else
  out[0] = helper(in[0]);
#endif
}
__global__ void plain(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = warp_sum(in[threadIdx.x]) + __reduce_max_sync(0xffffffffu, in[0]);
}
template <typename T> __global__ void tmpl(T* p) { p[0] = __reduce_or_sync(0xffffffffu, p[1]); }
void launch(unsigned* p, const float* f, float* o) {
  guarded<<<1, 32>>>(f, o);
  plain<<<1, 32>>>(p, p);
  tmpl<<<1, 32>>>(p);
}
__device__ void unused_device() { __nanosleep(100); }
void host_only(int* p) { p[0] = 1; }
)";

TEST(CudaBodyReuse, SkippedBodiesFindWhatParsedBodiesFind) {
  Outcome r = analyse_both(kMixed);
  EXPECT_EQ(r.with, r.without);
  EXPECT_EQ(r.parses, 2u);  // sm_90, then sm_75 (sm_80 shares sm_90's)
  // plain, helper, unused_device, host_only and the header's warp_sum; not guarded, not launch.
  EXPECT_EQ(r.skipped, 5u);
  // The skipped kernel's and the header's uses are there for sm_80, as the template's are.
  const std::string sm80 = r.without.substr(r.without.find("arch sm_80"));
  for (const char* use : {"__reduce_max_sync", "__reduce_or_sync", "__nanosleep"})
    EXPECT_NE(sm80.find(use), std::string::npos) << use << " in\n" << r.without;
  EXPECT_NE(sm80.find("helpers.cuh"), std::string::npos) << r.without;
}

// Arch-dependent preprocessing outside any body changes what the bodies see: nothing is skipped.
TEST(CudaBodyReuse, NothingSkippedWhenDeclarationsDependOnTheArch) {
  const std::string decl = std::string(R"(#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
__device__ unsigned mode(unsigned v) { return __reduce_min_sync(0xffffffffu, v); }
#else
__device__ unsigned mode(unsigned v) { return v; }
#endif
)") + kMixed;
  Outcome r = analyse_both(decl);
  EXPECT_EQ(r.with, r.without);
  EXPECT_EQ(r.skipped, 0u);

  // A macro defined under an arch condition (here in a body) may be expanded anywhere later.
  std::string define = kMixed;
  define.replace(define.find("  out[0] = __reduce_add_sync"), 0, "#define FAST 1\n");
  define += "__device__ int fast() { return FAST; }\n";
  r = analyse_both(define);
  EXPECT_EQ(r.with, r.without);
  EXPECT_EQ(r.skipped, 0u);
}

// An arch macro expanded in code makes its function's tokens differ (for each arch: three parses):
// that body is parsed again, the others are still skipped, in both later parses.
TEST(CudaBodyReuse, ArchMacroInCodeKeepsItsBodyParsed) {
  std::string text = std::string(kMixed) +
                     "__global__ void by_value(unsigned* p) { if (__CUDA_ARCH__ >= 800) p[0] = __reduce_xor_sync(~0u, p[1]); }\n";
  Outcome r = analyse_both(text);
  EXPECT_EQ(r.with, r.without);
  EXPECT_EQ(r.parses, 3u);
  EXPECT_EQ(r.skipped, 10u);
}

// A function declared in a header and defined in the file, called only under an arch condition:
// for sm_80 the re-parsed kernel calls the skipped definition, which is then emitted code.
TEST(CudaBodyReuse, CallsIntoSkippedBodiesMakeThemEmitted) {
  const std::string text = R"(#include "decls.cuh"
__global__ void g(unsigned* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  p[0] = later(p[1]);
#else
  p[0] = 0;
#endif
}
__device__ unsigned later(unsigned v) { return __reduce_add_sync(~0u, v); }
)";
  Outcome r = analyse_both(text, "#pragma once\n__device__ unsigned later(unsigned v);\n");
  EXPECT_EQ(r.with, r.without);
  EXPECT_EQ(r.skipped, 1u);
  // Not emitted for sm_75 (ctx=1: a device function no kernel calls), emitted for sm_80 (ctx=0).
  EXPECT_NE(r.without.find("arch sm_75 parsed=true\n  use __reduce_add_sync :"), std::string::npos) << r.without;
  EXPECT_NE(r.without.find("ctx=1"), std::string::npos) << r.without;
  EXPECT_NE(r.without.substr(r.without.find("arch sm_80")).find("ctx=0"), std::string::npos) << r.without;
}

}  // namespace
}  // namespace cudalint::cuda
