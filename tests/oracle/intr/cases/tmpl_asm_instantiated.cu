// checks: inline PTX elect.sync inside a class template member instantiated from a kernel
// feature: elect.sync
template <int N>
struct Elector {
  __device__ static unsigned elect() {
    unsigned r;
    asm volatile("{\n .reg .pred P;\n elect.sync %0|P, 0xffffffff;\n}" : "=r"(r));
    return r + N;
  }
};
__global__ void k(unsigned* p) { p[threadIdx.x] = Elector<1>::elect(); }
