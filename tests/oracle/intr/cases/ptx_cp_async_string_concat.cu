// checks: cp.async whose mnemonic is split over adjacent string literals
// feature: cp.async
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("cp" ".async" ".ca.shared.global [%0], [%1], 4;\n"
               "cp.async.wait_all;\n" :: "r"(sa), "l"(g + threadIdx.x));
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
