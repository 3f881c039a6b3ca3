// checks: cooperative_groups::this_cluster() inside #if __CUDA_ARCH__ >= 900
// expect: ok
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(unsigned* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  auto cluster = cg::this_cluster();
  out[threadIdx.x] = cluster.block_rank();
#else
  out[threadIdx.x] = 0;
#endif
}
