// compile_commands.json and nvcc command lines: the flags that decide how a CUDA source is
// compiled (include dirs, defines, standard, archs). Below the model, which reads a source's
// build from them, and the CUDA front-end, which parses with them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/domain/arch.h"

namespace cudalint::cuda {

// Include directories, defines and the language standard per file, from a compile_commands.json.
// Toolkit and torch include directories are dropped: the prelude replaces the CUDA headers, and
// kernels do not need torch's (which take seconds to parse).
struct CompileFlags {
  std::vector<std::string> include_dirs, defines, undefines;
  std::optional<std::string> std;
  // `--expt-extended-lambda` (`--extended-lambda`): nvcc defines __CUDACC_EXTENDED_LAMBDA__ and its
  // cuda_runtime.h then includes <functional> and <utility> before the file (Options).
  bool extended_lambda = false;
  // The virtual archs device code is compiled for (`-gencode arch=compute_XX,...`, `-arch=sm_XX`,
  // `--gpu-architecture`), in order; `arch_options` is set when such an option is there at all
  // (`-arch=native` and `all` name no arch).
  std::vector<domain::Arch> archs;
  std::vector<std::string> arch_flags;  // for each of `archs`, the option that named it, as written
  bool arch_options = false;
};

// The flags of an nvcc command line (a compile_commands.json entry's, the `nvcc` list of a
// setup.py extension): -I/-D/-U/-std, and the macros nvcc's own options define
// (`--expt-relaxed-constexpr`: __CUDACC_RELAXED_CONSTEXPR__, `-rdc=true`: __CUDACC_RDC__, `-G`:
// __CUDACC_DEBUG__, extended lambdas). A later -D/-U of a name overrides an earlier one, as in
// nvcc; what -Xcompiler and the like pass to other tools is skipped. Relative paths start at `dir`.
CompileFlags nvcc_flags(const std::vector<std::string>& argv, const std::string& dir);

class CompileDb {
 public:
  // `json`: the file's text; `db_dir`: its directory (relative `directory` values start there).
  static std::optional<CompileDb> parse(std::string_view json, std::string_view db_dir, std::string* error = nullptr);
  // For `file` (absolute): its own entry, else one from the same directory, else the first CUDA
  // entry (headers have no entry of their own).
  std::optional<CompileFlags> flags_for(std::string_view file) const;
  // `file`'s own entry: its flags and where its command is written in the database (the
  // `command`/`arguments` key; the entry's `{` when it has neither).
  struct OwnEntry {
    CompileFlags flags;
    size_t begin = 0, end = 0;
  };
  std::optional<OwnEntry> own_entry(std::string_view file) const;
  bool empty() const { return entries_.empty(); }

 private:
  struct Entry {
    std::string file, dir;
    std::vector<std::string> argv;
    size_t begin = 0, end = 0;
  };
  std::vector<Entry> entries_;
};

}  // namespace cudalint::cuda
