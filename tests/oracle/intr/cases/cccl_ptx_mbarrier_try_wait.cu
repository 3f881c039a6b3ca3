// checks: cuda::ptx::mbarrier_try_wait wrapper (sm_90)
// feature: cuda::ptx::mbarrier_try_wait
#include <cuda/ptx>
__global__ void k(int* out) {
  __shared__ cuda::std::uint64_t bar;
  cuda::std::uint64_t state = 0;
  out[threadIdx.x] = cuda::ptx::mbarrier_try_wait(&bar, state);
}
