// checks: cooperative_groups::labeled_partition (sm_70): fine on sm_75+
// feature: cooperative_groups::labeled_partition
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* p) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  auto part = cg::labeled_partition(tile, p[threadIdx.x] & 3);
  p[threadIdx.x] = part.thread_rank();
}
