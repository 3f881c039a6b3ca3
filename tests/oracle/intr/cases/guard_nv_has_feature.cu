// checks: NV_IF_TARGET(NV_HAS_FEATURE_SM_90a, wgmma)
// expect: ok
#include <nv/target>
__global__ void k() {
  NV_IF_TARGET(NV_HAS_FEATURE_SM_90a, (asm volatile("wgmma.fence.sync.aligned;" ::: "memory");))
}
