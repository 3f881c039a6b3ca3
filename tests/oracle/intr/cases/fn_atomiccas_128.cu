// checks: atomicCAS on a 16-byte type (128-bit atomics, sm_90)
// feature: atomicCAS(T*)
struct alignas(16) Pair { unsigned long long a, b; };
__global__ void k(Pair* p) {
  Pair expect{0, 0}, desired{1, 2};
  atomicCAS(p, expect, desired);
}
