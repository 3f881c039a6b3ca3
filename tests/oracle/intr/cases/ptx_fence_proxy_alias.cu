// checks: inline PTX fence.proxy.alias and fence.acq_rel.gpu (sm_70)
// feature: fence.proxy.alias
// feature: fence
__global__ void k(int* p) {
  p[0] = 1;
  asm volatile("fence.proxy.alias;" ::: "memory");
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  p[1] = 2;
}
