// checks: cuda::barrier + cuda::memcpy_async (works on every arch; hardware-accelerated from sm_80)
// feature: cuda::memcpy_async
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  #pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, s, g, sizeof(s), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = s[threadIdx.x % 128];
}
