// checks: a kernel template reached only through a host function template that launches it with
// the runtime's extensible launch API (cudaLaunchConfig_t, cudaLaunchAttribute,
// cudaLaunchKernelEx) and is explicitly instantiated: the kernel is instantiated, so its
// thread-block cluster use (sm_90) is compiled
// feature: cooperative_groups::this_cluster
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

template <int N>
__global__ void k(float* out) {
  cg::this_cluster().sync();
  out[threadIdx.x] = N;
}

template <typename T, int N>
void launch(T* out, cudaStream_t stream) {
  cudaLaunchConfig_t config = {0};
  config.gridDim = dim3(2, 1, 1);
  config.blockDim = 32;
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = 2;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  auto kernel = &k<N>;
  if (cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) return;
  cudaError_t err = cudaLaunchKernelEx(&config, kernel, out);
  if (err != cudaSuccess) fprintf(stderr, "%s\n", cudaGetErrorString(err));
}

template void launch<float, 4>(float*, cudaStream_t);
