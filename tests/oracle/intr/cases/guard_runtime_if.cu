// checks: a runtime if on a kernel argument does not guard: elect.sync is still compiled
// feature: elect.sync
__global__ void k(unsigned* p, int use_elect) {
  unsigned r = 0;
  if (use_elect) asm volatile("{\n .reg .pred P;\n elect.sync %0|P, 0xffffffff;\n}" : "=r"(r));
  p[threadIdx.x] = r;
}
