// checks: NV_IF_ELSE_TARGET(NV_PROVIDES_SM_90, elect.sync, __shfl_sync fallback)
// expect: ok
#include <nv/target>
__global__ void k(unsigned* p) {
  unsigned r = 0;
  NV_IF_ELSE_TARGET(NV_PROVIDES_SM_90,
    (asm volatile("{\n .reg .pred P;\n elect.sync %0|P, 0xffffffff;\n}" : "=r"(r));),
    (r = __shfl_sync(0xffffffffu, p[threadIdx.x], 0);))
  p[threadIdx.x] = r;
}
