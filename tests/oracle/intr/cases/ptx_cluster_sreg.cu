// checks: inline PTX mov from %cluster_ctarank/%clusterid (cluster special registers, sm_90)
// feature: %cluster_ctarank
// feature: %clusterid
__global__ void k(unsigned* p) {
  unsigned r, c;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(c));
  p[threadIdx.x] = r + c;
}
