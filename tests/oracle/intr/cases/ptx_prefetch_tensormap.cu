// checks: inline PTX prefetch.tensormap (sm_90)
// feature: prefetch.tensormap
__global__ void k(const __grid_constant__ unsigned long long tmap) {
  asm volatile("prefetch.tensormap [%0];" :: "l"(&tmap) : "memory");
}
