// checks: cooperative_groups::reduce over a tiled_partition<32> (uses redux.sync from sm_80, emulated below)
// feature: cooperative_groups::reduce
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int* p) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  p[threadIdx.x] = cg::reduce(tile, p[threadIdx.x], cg::plus<int>());
}
