// 3DGS colour from spherical harmonics: each thread reads the first 4 of its Gaussian's 16 RGB coefficients (48-float rows)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_gs_sh_coeffs_row48(int num_gauss, int coeffs_per_gauss, const float* shs, float* rgb_planar,
                                       float dx, float dy, float dz) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= num_gauss) return;
  const float* sh = shs + (long long)g * coeffs_per_gauss * 3;
  const float c0 = 0.28209479f, c1 = 0.48860251f;
  for (int ch = 0; ch < 3; ++ch) {
    float v = c0 * sh[ch] - c1 * dy * sh[3 + ch] + c1 * dz * sh[6 + ch] - c1 * dx * sh[9 + ch];
    rgb_planar[ch * num_gauss + g] = fmaxf(v + 0.5f, 0.0f);
  }
}

void launch_pat_gs_sh_coeffs_row48(const Buffers& B) {
  pat_gs_sh_coeffs_row48<<<grid_for(kN), kBlock>>>(kN, 16, B.f_in, B.f_out, 0.3f, -0.5f, 0.81f);
}
