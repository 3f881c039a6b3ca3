// checks: cuda::ptx::mbarrier_arrive_expect_tx wrapper (sm_90)
// feature: cuda::ptx::mbarrier_arrive_expect_tx
#include <cuda/ptx>
__global__ void k(unsigned long long* out) {
  __shared__ cuda::std::uint64_t bar;
  cuda::std::uint32_t tx = 128;
  out[threadIdx.x] = cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &bar, tx);
}
