// Shared by the generated kernels (gen/kernels/*.cu): the corpus harness, cooperative groups,
// the two index macros the grammar uses and a checksum that keeps every loaded value alive.
#pragma once
#include <cooperative_groups.h>

#include "../harness.cuh"

namespace cg = cooperative_groups;

// A launch argument no constant evaluation sees through: the kernel's stride is a runtime value.
__attribute__((noinline)) inline int runtime(int v) { return v; }

#define AT(p, i) (p)[(i)]
#define IDX2C(i, j, ld) (((j) * (ld)) + (i))

template <typename T>
__device__ __forceinline__ unsigned bits(const T& v) {
  unsigned u = 0;
  memcpy(&u, &v, sizeof(T) < 4 ? sizeof(T) : 4);
  return u;
}

// A helper whose parameter carries the stride: the access pattern is the caller's.
template <typename T>
__device__ T load_at(const T* p, int i, int s) {
  return p[i * s];
}
template <typename T>
__device__ void store_at(T* p, int i, int s, T v) {
  p[i * s] = v;
}
