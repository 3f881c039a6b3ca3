// checks: inline PTX wgmma.fence.sync.aligned alone (sm_90a)
// feature: wgmma.fence
__global__ void k() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
