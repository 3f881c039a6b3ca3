// checks: cuda::ptx::get_sreg_cluster_ctarank wrapper (reads %cluster_ctarank, sm_90)
// feature: cuda::ptx::get_sreg_cluster_ctarank
#include <cuda/ptx>
__global__ void k(unsigned* p) { p[threadIdx.x] = cuda::ptx::get_sreg_cluster_ctarank(); }
