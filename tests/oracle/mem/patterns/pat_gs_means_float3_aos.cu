// 3DGS preprocess: Gaussian centres read as an array of float3 (12-byte structs) and projected to the image plane
// access bytes per thread: ld 4, st 8
#include "../harness.cuh"

struct GsCamera { float r[12]; float fx, fy, cx, cy; };  // passed by value: not a global load

__global__ void pat_gs_means_float3_aos(int num_gauss, const float3* means, float2* means2d, GsCamera cam) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= num_gauss) return;
  float3 p = means[g];
  float tx = cam.r[0] * p.x + cam.r[1] * p.y + cam.r[2] * p.z + cam.r[3];
  float ty = cam.r[4] * p.x + cam.r[5] * p.y + cam.r[6] * p.z + cam.r[7];
  float tz = cam.r[8] * p.x + cam.r[9] * p.y + cam.r[10] * p.z + cam.r[11];
  float iz = 1.0f / (tz + 1e-6f);
  means2d[g] = make_float2(cam.fx * tx * iz + cam.cx, cam.fy * ty * iz + cam.cy);
}

void launch_pat_gs_means_float3_aos(const Buffers& B) {
  GsCamera cam{{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 4}, 500.0f, 500.0f, 320.0f, 240.0f};
  pat_gs_means_float3_aos<<<grid_for(kN), kBlock>>>(kN, reinterpret_cast<const float3*>(B.f_in), B.f2_out, cam);
}
