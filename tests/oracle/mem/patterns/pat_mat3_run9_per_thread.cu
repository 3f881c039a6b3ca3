// per-element 3x3 matrix (FEM deformation gradient / Gaussian rotation) read by its thread as a run s[9*i+0] .. s[9*i+8]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_mat3_run9_per_thread(const float* F, float* det_out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = F[9 * i + 0], b = F[9 * i + 1], c = F[9 * i + 2];
  float d = F[9 * i + 3], e = F[9 * i + 4], f = F[9 * i + 5];
  float g = F[9 * i + 6], h = F[9 * i + 7], k = F[9 * i + 8];
  det_out[i] = a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g);
}

void launch_pat_mat3_run9_per_thread(const Buffers& B) {
  pat_mat3_run9_per_thread<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out, kN);
}
