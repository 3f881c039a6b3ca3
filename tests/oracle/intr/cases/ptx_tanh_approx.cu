// checks: inline PTX tanh.approx.f32 and ex2.approx.f16 (sm_75)
// feature: tanh.approx
// feature: ex2.approx.f16
__global__ void k(float* f, unsigned short* h) {
  float r; unsigned short e;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(f[threadIdx.x]));
  asm("ex2.approx.f16 %0, %1;" : "=h"(e) : "h"(h[threadIdx.x]));
  f[threadIdx.x] = r; h[threadIdx.x] = e;
}
