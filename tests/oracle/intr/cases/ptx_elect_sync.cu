// checks: inline PTX elect.sync (sm_90)
// feature: elect.sync
__global__ void k(unsigned* out) {
  unsigned lane = 0, pred = 0;
  asm volatile("{\n .reg .pred P;\n elect.sync %0|P, %2;\n selp.u32 %1, 1, 0, P;\n}" : "=r"(lane), "=r"(pred) : "r"(0xffffffffu));
  out[threadIdx.x] = lane + pred;
}
