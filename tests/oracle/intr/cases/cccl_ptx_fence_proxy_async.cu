// checks: cuda::ptx::fence_proxy_async() wrapper (sm_90; reported by ptxas as an unresolved extern below)
// feature: cuda::ptx::fence_proxy_async
#include <cuda/ptx>
__global__ void k(int* p) { p[0] = 1; cuda::ptx::fence_proxy_async(); }
