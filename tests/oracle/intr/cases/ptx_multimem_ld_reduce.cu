// checks: inline PTX multimem.ld_reduce (NVLS multicast memory, sm_90)
// feature: multimem.ld_reduce
__global__ void k(const unsigned* mc, unsigned* out) {
  unsigned r;
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.u32 %0, [%1];" : "=r"(r) : "l"(mc) : "memory");
  out[threadIdx.x] = r;
}
