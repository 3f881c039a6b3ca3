// checks: inline PTX fence.proxy.async.shared::cta (sm_90)
// feature: fence.proxy.async
__global__ void k(int* p) {
  __shared__ int s[32];
  s[threadIdx.x % 32] = p[threadIdx.x];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  p[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}
