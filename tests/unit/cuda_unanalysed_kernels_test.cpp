// A kernel template nothing in the file instantiates is named (Result::unanalysed_kernels):
// its dependent calls are checked for no arch, and the run says so instead of staying silent.
#include <gtest/gtest.h>

#include "analyzer/frontends/cuda/cuda_frontend.h"

namespace cudalint::cuda {
namespace {

std::vector<std::string> unanalysed(const std::string& text) {
  PreludeCache cache;
  Options o;
  o.archs = {domain::Arch{7, 5}, domain::Arch{9, 0}};
  o.cuda = domain::CudaVersion{13, 0, -1};
  o.prelude_cache = &cache;
  return analyze("/tmp/unanalysed.cu", text, o, FeatureTable::builtin()).unanalysed_kernels;
}

TEST(CudaUnanalysedKernels, NamesKernelTemplatesNothingInstantiates) {
  std::string text = R"(
template <typename T>
__global__ void never(T* x) { x[threadIdx.x] = __reduce_add_sync(0xffffffffu, x[1]); }
template <typename T>
__global__ void launched(T* x) { x[threadIdx.x] = __reduce_add_sync(0xffffffffu, x[1]); }
template <typename T>
__device__ T helper(T v) { return v; }  // not a kernel: instantiated wherever it is called
#define DISPATCH(T, ...) [&] { using scalar_t = T; __VA_ARGS__(); }()
void run(unsigned* p) {
  DISPATCH(unsigned, [&] { launched<scalar_t><<<1, 32>>>(p); });
}
)";
  EXPECT_EQ(unanalysed(text), std::vector<std::string>{"never"});
}

TEST(CudaUnanalysedKernels, NoneWhenEveryKernelIsInstantiated) {
  EXPECT_TRUE(unanalysed(R"(
template <int N>
__global__ void k(unsigned* x) { x[threadIdx.x] = __reduce_add_sync(0xffffffffu, x[N]); }
template __global__ void k<1>(unsigned*);
__global__ void plain(unsigned* x) { x[0] = __reduce_add_sync(0xffffffffu, x[1]); }
)").empty());
}

}  // namespace
}  // namespace cudalint::cuda
