// checks: a host function template that reads cudaDeviceProp (warpSize, multiProcessorCount), a
// device attribute, events and the runtime's error enum before launching a kernel template it
// names; it is explicitly instantiated, so the kernel's warp reduction (sm_80) is compiled.
// cuda_runtime.h is not included: nvcc includes it implicitly.
// feature: __reduce_add_sync
template <int N>
__global__ void k(unsigned* out) {
  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, threadIdx.x) + N;
}

template <int N>
void run(unsigned* out, cudaStream_t stream) {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return;
  int smem = 0;
  cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  cudaFuncSetAttribute(k<N>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaEvent_t done;
  cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  k<N><<<prop.multiProcessorCount, prop.warpSize, 0, stream>>>(out);
  cudaEventRecord(done, stream);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) cudaEventDestroy(done);
}

template void run<2>(unsigned*, cudaStream_t);
