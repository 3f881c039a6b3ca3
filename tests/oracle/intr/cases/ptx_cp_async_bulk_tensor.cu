// checks: inline PTX cp.async.bulk.tensor.2d (TMA tensor copy, sm_90)
// feature: cp.async.bulk.tensor
__global__ void k(const __grid_constant__ unsigned long long tmap, int* out) {
  __shared__ alignas(128) int s[256];
  __shared__ unsigned long long bar;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), ba = (unsigned)__cvta_generic_to_shared(&bar);
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(sa), "l"(&tmap), "r"(0), "r"(0), "r"(ba) : "memory");
  out[threadIdx.x] = s[threadIdx.x];
}
