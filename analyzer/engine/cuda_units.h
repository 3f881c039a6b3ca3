// Runs the CUDA front-end over the project's .cu/.cuh files (in parallel, once per target arch
// of the model) and turns its results into model units and PARSE001 diagnostics. Of the model it
// reads the device targets (and whether `--target-archs` overrides them), the toolkit and the
// setup.py extensions (their sources' nvcc flags and own archs).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/source_file.h"
#include "analyzer/model/project_model.h"

namespace cudalint {

namespace cuda {
class PreludeCache;
}
class DiskCache;

struct CudaSourcesInput {
  // Every loaded file with its absolute path: the CUDA sources are analysed, compile_commands.json
  // files give flags, and the others map header paths back to display paths.
  const std::vector<std::pair<const SourceFile*, std::string>>* loaded = nullptr;
  std::optional<std::set<std::string>> only;     // analyse only these CUDA sources (absolute)
  std::map<std::string, std::string> overlays;   // absolute path → unsaved text
  unsigned jobs = 1;
  // Precompiled preludes kept across runs (an editor session); null: one for this run.
  cuda::PreludeCache* prelude_cache = nullptr;
  // With an on-disk cache, this run's PCHs are read from and kept there.
  const DiskCache* disk_cache = nullptr;
  // The run was given files, not directories (a pre-commit hook's changed files): with a disk
  // cache, the preambles of a few such sources are kept there for the next run.
  bool files_only = false;
  // Whether some MEM rule is enabled for this CUDA source (display path, absolute path): only
  // those get the global-access analysis. Null: every file.
  std::function<bool(const std::string& path, const std::string& abs)> wants_accesses;
  bool newest_arch_only = false;  // RunOptions::cuda_newest_arch_only
  // The headers (absolute paths) whose uses an includer's parse reports in the header itself
  // (RunOptions::headers_in_place); unset: every loaded file.
  std::optional<std::set<std::string>> headers_in_place;
};

struct CudaSourcesOutput {
  std::vector<model::CudaUnit> units;
  std::vector<Diagnostic> diags;  // PARSE001 for syntax errors missing headers cannot explain
  // (display path, note): what could not be checked and no rule says (RunOutput::notes).
  std::vector<std::pair<std::string, std::string>> notes;
  bool archs_left = false;  // newest_arch_only left out some source's other archs
  // Absolute path of each parsed source → the loaded headers (absolute) its parses found uses in,
  // wherever they were reported (RunOutput::cuda_header_uses).
  std::map<std::string, std::set<std::string>> header_uses;
};

// What the analysis reads of the model, per CUDA source to analyse. Taken on the model's thread,
// it lets the parses run on another while the model goes on, without a copy of the build graph
// (which a large CMake tree's is most of).
struct CudaSourcesPlan {
  struct File {
    const SourceFile* file = nullptr;
    std::string abs;
    std::vector<model::TargetArch> targets;  // the archs its builds compile it for
    bool unknown = true;                      // some build decides its archs at build time
    model::MaybeFact<domain::CudaVersion> cuda;
    std::optional<cuda::CompileFlags> flags;  // its build's, else a compile database's
  };
  std::vector<File> files;
  std::map<std::string, const SourceFile*> by_abs;  // every loaded file, by absolute path
};
CudaSourcesPlan plan_cuda_sources(const model::ProjectModel& model, const CudaSourcesInput& in);
CudaSourcesOutput analyze_cuda_sources(CudaSourcesPlan plan, const CudaSourcesInput& in);
// Both in one.
CudaSourcesOutput analyze_cuda_sources(const model::ProjectModel& model, const CudaSourcesInput& in);

// The front-end's per-arch failures of one file ("... for sm_80: why") as the text of its one
// PARSE006: each reason once, with the archs it held for ("... for sm_80, sm_90: why").
std::string grouped_failures(const std::vector<std::string>& errors);

}  // namespace cudalint
