// checks: NV_IF_TARGET(NV_PROVIDES_SM_80, __reduce_add_sync)
// expect: ok
#include <nv/target>
__global__ void k(int* p) {
  int v = p[threadIdx.x];
  NV_IF_TARGET(NV_PROVIDES_SM_80, (v = __reduce_add_sync(0xffffffffu, v);))
  p[threadIdx.x] = v;
}
