// 3DGS backward: per-Gaussian 3x3 gradient (dL/dM) written as a run of 9 floats by its own thread (row run store)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_gs_grad_row9_store(int num_gauss, const float* dL_dscale, float* dL_dM) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= num_gauss) return;
  float s = dL_dscale[g];
  float* m = dL_dM + 9 * g;
  m[0] = s;        m[1] = 0.5f * s;  m[2] = 0.25f * s;
  m[3] = -0.5f * s; m[4] = 2.0f * s;  m[5] = 0.125f * s;
  m[6] = -0.25f * s; m[7] = 1.5f * s; m[8] = -s;
}

void launch_pat_gs_grad_row9_store(const Buffers& B) {
  pat_gs_grad_row9_store<<<grid_for(kN), kBlock>>>(kN, B.f_in, B.f_out);
}
