// checks: a host-only helper in #ifndef __CUDA_ARCH__ that mentions wgmma in an asm-free string
// expect: ok
#ifndef __CUDA_ARCH__
static const char* kDescription = "wgmma.mma_async.sync.aligned";
const char* describe() { return kDescription; }
#endif
__global__ void k(int* p) { p[threadIdx.x] = 0; }
