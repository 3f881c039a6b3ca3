// checks: inline PTX mapa.shared::cluster and getctarank (sm_90)
// feature: mapa
// feature: getctarank
__global__ void k(unsigned* out) {
  __shared__ int s;
  unsigned a = (unsigned)__cvta_generic_to_shared(&s), r, rank;
  asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(r) : "r"(a));
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rank) : "r"(r));
  out[threadIdx.x] = r + rank;
}
