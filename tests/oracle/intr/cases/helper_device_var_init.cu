// checks: a __device__ function pointer table referencing a helper with cp.async
// feature: cp.async
__device__ void load(const int* g, int* s) {
  unsigned sa = (unsigned)__cvta_generic_to_shared(s);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\ncp.async.wait_all;" :: "r"(sa), "l"(g));
}
typedef void (*loader)(const int*, int*);
__device__ loader table[1] = {load};
__global__ void k(const int* g, int* o) {
  __shared__ int s[32];
  table[0](g, s);
  o[threadIdx.x] = s[threadIdx.x % 32];
}
