// load to shared memory, reversed within the block, unit-stride store
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void shared_then_unit_store(const float* in, float* out) {
  __shared__ float s[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[kBlock - 1 - threadIdx.x];
}

void launch_shared_then_unit_store(const Buffers& B) { shared_then_unit_store<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
