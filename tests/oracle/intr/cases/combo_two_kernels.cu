// checks: two kernels in one file: one uses __reduce_add_sync, the other is plain
// feature: __reduce_add_sync
__global__ void plain(int* p) { p[threadIdx.x] += 1; }
__global__ void reducing(int* p) { p[threadIdx.x] = __reduce_add_sync(0xffffffffu, p[threadIdx.x]); }
