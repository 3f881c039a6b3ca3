// checks: #if __CUDACC_VER_MAJOR__ >= 12 && __CUDA_ARCH__ >= 900 around griddepcontrol
// expect: ok
__global__ void k(int* p) {
#if __CUDACC_VER_MAJOR__ >= 12 && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  p[threadIdx.x] = 1;
}
