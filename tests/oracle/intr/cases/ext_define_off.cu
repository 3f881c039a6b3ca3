// checks: an extension's -D turns a guarded sm_90 path off: no target rejects it
// nvcc-flags: -DUSE_CLUSTER=0 --expt-extended-lambda
// expect: ok
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(unsigned* out) {
#if USE_CLUSTER
  out[threadIdx.x] = cg::this_cluster().block_rank();
#else
  auto f = [] __device__(unsigned v) { return v + 1; };
  out[threadIdx.x] = f(out[0]);
#endif
}
