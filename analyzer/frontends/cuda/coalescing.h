// Global-memory access patterns of device code: for each load and store through a kernel's
// pointer parameters, the byte distance between adjacent lanes of a warp and the access width,
// from an affine form of the address in threadIdx.x (x is the fastest launch dimension).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace cudalint::cuda {

struct GlobalAccess {
  uint32_t begin = 0, end = 0;     // the access expression, in the analysed file
  bool store = false;
  std::string kernel;              // the kernel it is reached from
  std::string pointer;             // the pointer parameter as written
  uint32_t width = 0;              // bytes one lane reads or writes
  uint32_t element = 0;            // bytes of the indexed element (a struct for field access)
  // Bytes between adjacent lanes; nullopt when the index depends on a value that is not a
  // compile-time constant (a kernel parameter, a loaded value).
  std::optional<int64_t> lane_stride;
  bool data_dependent = false;     // the index reads memory (a gather or scatter)
  bool field_of_struct = false;    // `p[i].field` on an array of structs
  bool row_position = false;       // the lane index multiplies a row length (`p[x * W + y]`)
  // Sectors one warp-wide request touches (32 lanes, 32-byte sectors, aligned base), and the
  // ideal for this width.
  double sectors = 0, ideal = 0;
  bool uncoalesced() const { return lane_stride && sectors > std::max(1.5 * ideal, ideal + 1); }
};

// Accesses reachable from the kernels defined in the main file, following calls into device
// functions with a body (inlined, arguments bound) up to a small depth.
std::vector<GlobalAccess> global_accesses(clang::ASTContext& ctx);

}  // namespace cudalint::cuda
