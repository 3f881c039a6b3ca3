// checks: nvcc preprocesses device code with the host compiler, so a macro given with
// -Xcompiler reaches it too: USE_CLUSTER selects the cluster path, which needs sm_90
// nvcc-flags: -Xcompiler -fPIC,-DUSE_CLUSTER=1 -DUSE_REDUX=0
// feature: cooperative_groups::this_cluster
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(unsigned* out) {
#if USE_CLUSTER
  out[threadIdx.x] = cg::this_cluster().block_rank();
#endif
#if USE_REDUX
  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, out[0]);
#endif
}
