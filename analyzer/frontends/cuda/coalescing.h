// Global-memory access patterns of device code: for each load and store through a kernel's
// pointer parameters, the bytes each of a warp's 32 lanes addresses (x is the fastest launch
// dimension), the access width, and the 32-byte sectors one warp-wide request touches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
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
  // Bytes between adjacent lanes (between adjacent groups when group_lanes > 1); nullopt when
  // the lanes' addresses are not a constant pattern (a runtime stride, a loaded index).
  std::optional<int64_t> lane_stride;
  uint32_t group_lanes = 1;        // adjacent lanes that read adjacent elements (`t % 4`)
  // A runtime value that multiplies the lane index (`stride`, `blockDim.x`, `4 * row`): the
  // sectors then assume it is not degenerate (adjacent lanes at least a sector apart).
  std::string stride_symbol;
  bool symbol_certain = false;     // the runtime stride is at least a warp wide in any launch
  bool data_dependent = false;     // the index reads memory (a gather or scatter)
  bool field_of_struct = false;    // `p[i].field` on an array of structs
  bool row_position = false;       // the lane index multiplies a row length (`p[x * W + y]`)
  // Other accesses of the kernel to the pointer fill the gap between lanes (`s[9*i+0]` ...
  // `s[9*i+8]`): each thread reads a contiguous run, which L1/L2 merge.
  bool run_merged = false;
  // A thread or block index other than threadIdx.x, or a loop counter, that moves the address by
  // less than a sector without a gap (`p[x * W + threadIdx.y]`, neighbour_step bytes): other warps
  // or blocks, or the thread's next iterations, use the rest of each sector the warp touches,
  // which L1 or L2 merge (measured: DRAM traffic near the ideal).
  std::string neighbour;
  uint32_t neighbour_step = 0;
  int64_t offset = 0;              // the known constant part of the address, in bytes
  int64_t offset_span = 0;         // ... which a loop counter moves over [offset, offset + span]
  int64_t offset_step = 1;         // ... by steps of this many bytes
  // Sectors one warp-wide request touches (the lanes that run it, 32-byte sectors, aligned base; a
  // runtime stride taken as not degenerate: lanes it separates are a sector apart or more), and
  // the ideal for this width.
  double sectors = 0, ideal = 0;
  bool uncoalesced() const { return sectors > 0 && sectors > std::max(1.5 * ideal, ideal + 1); }
};

// Accesses reachable from the kernels defined in the main file, following calls into device
// functions with a body (inlined, arguments bound) up to a small depth. `decls`: the translation
// unit's top-level declarations to look at (walked_decls).
std::vector<GlobalAccess> global_accesses(clang::ASTContext& ctx, const std::vector<clang::Decl*>& decls);

}  // namespace cudalint::cuda
