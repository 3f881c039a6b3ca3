// checks: cooperative_groups::this_cluster() (thread-block clusters, sm_90)
// feature: cooperative_groups::this_cluster
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(unsigned* out) {
  auto cluster = cg::this_cluster();
  cluster.sync();
  out[threadIdx.x] = cluster.block_rank();
}
