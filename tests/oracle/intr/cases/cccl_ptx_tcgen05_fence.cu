// checks: cuda::ptx::tcgen05_fence_before_thread_sync wrapper (documented for SM_100a, SM_101a)
// feature: cuda::ptx::tcgen05_fence_before_thread_sync
#include <cuda/ptx>
__global__ void k() { cuda::ptx::tcgen05_fence_before_thread_sync(); }
