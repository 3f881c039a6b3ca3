// checks: #if 0 around __shfl and cp.async
// expect: ok
__global__ void k(int* p) {
#if 0
  p[0] = __shfl(p[0], 0);
  asm volatile("cp.async.wait_all;");
#endif
  p[threadIdx.x] = 1;
}
