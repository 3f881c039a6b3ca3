// checks: atomicAdd on float/double/int and atomicAdd_block/system on int: no constraint on sm_75+
// feature: atomicAdd
// feature: atomicAdd_block
// feature: atomicAdd_system
__global__ void k(float* f, double* d, int* i) {
  atomicAdd(f, 1.f); atomicAdd(d, 1.0); atomicAdd(i, 1);
  atomicAdd_block(i + 1, 2); atomicAdd_system(i + 2, 3);
}
