// read-only __ldg of one field out of 8-float packed per-primitive parameter records: __ldg(&params[i*8])
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_ldg_packed_params_stride8(const float* __restrict__ params, float* __restrict__ opacity, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float logit = __ldg(&params[i * 8]);
  opacity[i] = 1.0f / (1.0f + __expf(-logit));
}

void launch_pat_ldg_packed_params_stride8(const Buffers& B) {
  pat_ldg_packed_params_stride8<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out, kN);
}
