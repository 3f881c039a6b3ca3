// checks: inline PTX mbarrier.arrive.expect_tx (transaction-count barrier, sm_90)
// feature: mbarrier.arrive.expect_tx
__global__ void k(int* out) {
  __shared__ unsigned long long bar;
  unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a), "r"(blockDim.x));
  __syncthreads();
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(a) : "memory");
  unsigned done = 0;
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 128;" :: "r"(a) : "memory"); done = (unsigned)state;
  out[threadIdx.x] = done;
}
