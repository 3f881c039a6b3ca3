// checks: inline PTX mbarrier.init/arrive/test_wait (.shared.b64 forms, sm_80)
// feature: mbarrier.init
// feature: mbarrier.arrive
// feature: mbarrier.test_wait
__global__ void k(int* out) {
  __shared__ unsigned long long bar;
  unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a), "r"(blockDim.x));
  __syncthreads();
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(a) : "memory");
  unsigned done = 0;
  while (!done) asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.shared.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}" : "=r"(done) : "r"(a), "l"(state) : "memory");
  out[threadIdx.x] = done;
}
