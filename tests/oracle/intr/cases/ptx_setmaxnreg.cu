// checks: inline PTX setmaxnreg.inc/.dec (arch-specific)
// feature: setmaxnreg
__global__ void __launch_bounds__(128) k(int* p) {
  if (threadIdx.x < 64) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
  else asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  p[threadIdx.x] = threadIdx.x;
}
