// checks: inline PTX tanh.approx.bf16 (sm_90)
// feature: tanh.approx.bf16
__global__ void k(unsigned short* h) {
  unsigned short r;
  asm("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(h[threadIdx.x]));
  h[threadIdx.x] = r;
}
