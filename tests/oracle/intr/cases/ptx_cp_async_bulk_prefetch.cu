// checks: inline PTX cp.async.bulk.prefetch.L2 (sm_90)
// feature: cp.async.bulk.prefetch
__global__ void k(const int* g) {
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], 256;" :: "l"(g));
}
