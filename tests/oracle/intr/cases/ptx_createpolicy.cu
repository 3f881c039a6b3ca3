// checks: inline PTX createpolicy.fractional + ld.global.L2::cache_hint (sm_80)
// feature: createpolicy
// feature: ld.global.L2::cache_hint
__global__ void k(const int* g, int* o) {
  unsigned long long pol; int r;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
  asm volatile("ld.global.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(r) : "l"(g + threadIdx.x), "l"(pol));
  o[threadIdx.x] = r;
}
