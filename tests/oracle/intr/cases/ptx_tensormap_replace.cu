// checks: inline PTX tensormap.replace.tile.global_address (arch-specific sm_90a)
// feature: tensormap.replace
__global__ void k(unsigned long long v) {
  __shared__ alignas(128) unsigned char tmap[128];
  unsigned a = (unsigned)__cvta_generic_to_shared(tmap);
  asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" :: "r"(a), "l"(v) : "memory");
}
