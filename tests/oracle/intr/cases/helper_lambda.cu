// checks: a __device__ lambda inside a kernel calling __reduce_add_sync
// feature: __reduce_add_sync
__global__ void k(int* p) {
  auto sum = [](int v) { return __reduce_add_sync(0xffffffffu, v); };
  p[threadIdx.x] = sum(p[threadIdx.x]);
}
