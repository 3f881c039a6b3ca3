// 3DGS backward preprocess: dL/dmean2D (float2) turned into dL/dmean3D stored field by field into a vec3 array
// access bytes per thread: ld 8, st 4
#include "../harness.cuh"

struct GsVec3 { float x, y, z; };
struct GsProj { float p[8]; };  // passed by value

__global__ void pat_gs_dmeans_vec3_store(int num_gauss, const float2* dL_dmean2d, GsVec3* dL_dmeans, GsProj pr) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= num_gauss) return;
  float2 d = dL_dmean2d[g];
  dL_dmeans[g].x = pr.p[0] * d.x + pr.p[1] * d.y;
  dL_dmeans[g].y = pr.p[2] * d.x + pr.p[3] * d.y;
  dL_dmeans[g].z = pr.p[4] * d.x + pr.p[5] * d.y;
}

void launch_pat_gs_dmeans_vec3_store(const Buffers& B) {
  pat_gs_dmeans_vec3_store<<<grid_for(kN), kBlock>>>(kN, B.f2_in, reinterpret_cast<GsVec3*>(B.f_out),
                                                     GsProj{{0.5f, 0.1f, -0.2f, 0.7f, 0.05f, -0.03f, 0.0f, 0.0f}});
}
