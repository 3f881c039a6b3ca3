// checks: cuda::ptx::getctarank wrapper (sm_90)
// feature: cuda::ptx::getctarank
#include <cuda/ptx>
__global__ void k(unsigned* out) {
  __shared__ int s;
  out[threadIdx.x] = cuda::ptx::getctarank(cuda::ptx::space_cluster, &s);
}
