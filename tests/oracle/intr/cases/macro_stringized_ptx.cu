// checks: the PTX mnemonic is assembled by stringizing macro arguments
// feature: cp.async
#define STR_(x) #x
#define STR(x) STR_(x)
#define CP_OP cp.async.ca.shared.global
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile(STR(CP_OP) " [%0], [%1], 4;\ncp.async.wait_all;" :: "r"(sa), "l"(g + threadIdx.x));
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
