// checks: cp.async issued through a function-like macro that builds the asm statement
// feature: cp.async
#define CP_ASYNC_CG(dst, src) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(src))
#define CP_ASYNC_WAIT_ALL() asm volatile("cp.async.wait_all;" ::)
__global__ void k(const int4* g, int4* out) {
  __shared__ int4 s[64];
  CP_ASYNC_CG((unsigned)__cvta_generic_to_shared(&s[threadIdx.x % 64]), g + threadIdx.x);
  CP_ASYNC_WAIT_ALL();
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 64];
}
