// checks: NV_IF_TARGET(NV_IS_HOST, ...) keeps host-only code out of device compilation
// expect: ok
#include <nv/target>
#include <cstdio>
__host__ __device__ void report(int v) {
  NV_IF_TARGET(NV_IS_HOST, (std::printf("%d\n", v);), (if (v < 0) __trap();))
}
__global__ void k(int* p) { report(p[threadIdx.x]); }
