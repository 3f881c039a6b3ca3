// 3DGS preprocess: the 6 upper-triangle floats of each Gaussian's 3D covariance read by one thread (cov[6*i+k])
// access bytes per thread: ld 4, st 16
#include "../harness.cuh"

struct GsViewJ { float j00, j02, j11, j12; };

__global__ void pat_gs_cov3d_read6(int num_gauss, const float* cov3d, float4* conic_opacity, GsViewJ J) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= num_gauss) return;
  const float* c = cov3d + 6 * g;
  float xx = c[0], xy = c[1], xz = c[2], yy = c[3], yz = c[4], zz = c[5];
  // 2D covariance T * V * T^T for a diagonal-ish Jacobian
  float a = J.j00 * J.j00 * xx + 2.0f * J.j00 * J.j02 * xz + J.j02 * J.j02 * zz + 0.3f;
  float b = J.j00 * J.j11 * xy + J.j00 * J.j12 * xz + J.j02 * J.j11 * yz + J.j02 * J.j12 * zz;
  float d = J.j11 * J.j11 * yy + 2.0f * J.j11 * J.j12 * yz + J.j12 * J.j12 * zz + 0.3f;
  float det = a * d - b * b;
  float inv = det != 0.0f ? 1.0f / det : 0.0f;
  conic_opacity[g] = make_float4(d * inv, -b * inv, a * inv, det);
}

void launch_pat_gs_cov3d_read6(const Buffers& B) {
  pat_gs_cov3d_read6<<<grid_for(kN), kBlock>>>(kN, B.f_in, B.f4_out, GsViewJ{1.2f, -0.3f, 1.1f, 0.2f});
}
