// checks: a __global__ template using cp.async, launched (instantiated) from host code
// feature: cp.async
template <int BYTES>
__global__ void copy(const int4* g, int4* out) {
  __shared__ int4 s[64];
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x % 64]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\ncp.async.wait_all;" :: "r"(sa), "l"(g + threadIdx.x), "n"(BYTES));
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 64];
}
void launch(const int4* g, int4* o) { copy<16><<<1, 64>>>(g, o); }
