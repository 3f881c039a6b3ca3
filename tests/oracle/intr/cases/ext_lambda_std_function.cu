// checks: nvcc --expt-extended-lambda includes <functional> before the file (cuda_runtime.h): a
// host template naming std::function without including it compiles and launches a kernel
// that uses __reduce_add_sync (sm_80+)
// nvcc-flags: --expt-extended-lambda
// feature: __reduce_add_sync
template <class T>
__global__ void reduce_kernel(T* out, T v) {
  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, v);
}

template <class T>
void launch(T* out, std::function<void()> done) {
  reduce_kernel<<<1, 32>>>(out, T(1));
  done();
}

void run(unsigned* out) { launch<unsigned>(out, [] {}); }
