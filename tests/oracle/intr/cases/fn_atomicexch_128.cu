// checks: atomicExch on a 16-byte type (sm_90)
// feature: atomicExch(T*)
struct alignas(16) Pair { unsigned long long a, b; };
__global__ void k(Pair* p) { atomicExch(p, Pair{3, 4}); }
