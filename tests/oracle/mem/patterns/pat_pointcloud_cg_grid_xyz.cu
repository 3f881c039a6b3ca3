// point-cloud kernel with a cooperative-groups grid-stride loop over packed xyz points: pts[3*i + k]
// access bytes per thread: ld 4, st 4
#include <cooperative_groups.h>
#include "../harness.cuh"
namespace cg = cooperative_groups;

__global__ void pat_pointcloud_cg_grid_xyz(const float* pts, float* dist, int n, float cx, float cy, float cz) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
    float dx = pts[3 * i] - cx, dy = pts[3 * i + 1] - cy, dz = pts[3 * i + 2] - cz;
    dist[i] = sqrtf(dx * dx + dy * dy + dz * dz);
  }
}

void launch_pat_pointcloud_cg_grid_xyz(const Buffers& B) {
  pat_pointcloud_cg_grid_xyz<<<1024, kBlock>>>(B.f_in, B.f_out, kN, 0.5f, -1.0f, 2.0f);
}
