// checks: inline PTX cp.async.bulk global->shared::cluster with mbarrier complete_tx (TMA bulk copy, sm_90)
// feature: cp.async.bulk
__global__ void k(const int4* g, int* out) {
  __shared__ alignas(128) int4 s[64];
  __shared__ unsigned long long bar;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), ba = (unsigned)__cvta_generic_to_shared(&bar);
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
               :: "r"(sa), "l"(g), "r"(ba) : "memory");
  out[threadIdx.x] = s[threadIdx.x % 64].x;
}
