// checks: a struct whose __device__ member uses __reduce_add_sync but is only defined, never called
// expect: ok
struct Reducer {
  int bias;
  __host__ int host_value() const { return bias * 2; }
};
__global__ void k(int* p) { Reducer r{p[0]}; p[threadIdx.x] = r.bias; }
