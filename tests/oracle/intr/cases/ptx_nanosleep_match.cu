// checks: inline PTX nanosleep.u32, match.any.sync.b32, activemask.b32 (sm_70)
// feature: nanosleep
// feature: match.any.sync
// feature: activemask
__global__ void k(unsigned* p) {
  unsigned m, am;
  asm volatile("nanosleep.u32 100;");
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(m) : "r"(p[threadIdx.x]));
  asm volatile("activemask.b32 %0;" : "=r"(am));
  p[threadIdx.x] = m & am;
}
