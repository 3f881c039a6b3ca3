// checks: cooperative_groups::memcpy_async + wait (emulated below sm_80)
// feature: cooperative_groups::memcpy_async
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, s, g, sizeof(s));
  cg::wait(block);
  out[threadIdx.x] = s[threadIdx.x % 128];
}
