// checks: inline PTX movmatrix.sync.aligned.m8n8.trans.b16 (sm_75)
// feature: movmatrix
__global__ void k(unsigned* p) {
  unsigned r;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(r) : "r"(p[threadIdx.x]));
  p[threadIdx.x] = r;
}
