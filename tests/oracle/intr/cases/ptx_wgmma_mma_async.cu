// checks: inline PTX wgmma fence/mma_async/commit/wait (arch-specific sm_90a only)
// feature: wgmma.mma_async
// feature: wgmma.fence
// feature: wgmma.commit_group
// feature: wgmma.wait_group
__global__ void k(float* out, unsigned long long da, unsigned long long db) {
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
               " wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  out[threadIdx.x] = d0 + d1 + d2 + d3;
}
