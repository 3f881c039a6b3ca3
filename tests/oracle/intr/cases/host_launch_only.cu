// checks: host code that only launches a plain kernel and names intrinsics in strings and comments
// expect: ok
#include <cstdio>
__global__ void k(int* p) { p[threadIdx.x] = threadIdx.x; }
// __reduce_add_sync, __shfl, cp.async: named in a comment only
void run(int* p) {
  std::printf("uses cp.async.ca.shared.global and __shfl_down in a string\n");
  k<<<1, 32>>>(p);
}
