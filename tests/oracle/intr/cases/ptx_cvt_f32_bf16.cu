// checks: inline PTX cvt.f32.bf16 (bf16 source operand)
// feature: cvt.f32.bf16
__global__ void k(const unsigned short* in, float* o) {
  float r;
  asm("cvt.f32.bf16 %0, %1;" : "=f"(r) : "h"(in[threadIdx.x]));
  o[threadIdx.x] = r;
}
