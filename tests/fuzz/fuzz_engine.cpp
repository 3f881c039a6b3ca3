// The whole engine (discovery, configuration, every front-end, the model, every rule,
// suppressions, fixes) on a project in a temporary directory. The files exist on disk (empty,
// created once) and their text comes from the input through the engine's editor overlays, so
// an execution writes nothing. The input is split at "\n#---\n" into the files below. Clang
// does not run (cuda_sources is empty): it is far too slow for fuzzing and is not our parser.
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>

#include "analyzer/core/source_file.h"
#include "analyzer/engine/fix.h"
#include "analyzer/engine/run.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

constexpr const char* kFiles[] = {"Dockerfile",      "CMakeLists.txt",   "cmake/archs.cmake",
                                  "setup.py",        "pyproject.toml",   "requirements.txt",
                                  "cudalint.toml",   "compile_commands.json", "k.cu"};

// The project directory, created on first use, reused by every execution and removed at exit.
struct Project {
  std::string root;
  Project() {
    char tmpl[] = "/tmp/cudalint-fuzz-engine-XXXXXX";
    const char* d = ::mkdtemp(tmpl);
    CUDALINT_FUZZ_CHECK(d != nullptr);
    root = d;
    CUDALINT_FUZZ_CHECK(::mkdir((root + "/cmake").c_str(), 0755) == 0);
    for (const char* f : kFiles) std::ofstream(root + "/" + f).flush();
  }
  ~Project() {
    for (const char* f : kFiles) ::unlink((root + "/" + f).c_str());
    ::rmdir((root + "/cmake").c_str());
    ::rmdir(root.c_str());
  }
};

const std::string& project_dir() {
  static const Project p;
  return p.root;
}

}  // namespace

CUDALINT_FUZZ_TARGET(engine) {
  using namespace cudalint;
  const std::string& root = project_dir();
  RunOptions opts;
  opts.root = root;
  opts.paths = {root};
  opts.jobs = 1;
  opts.respect_gitignore = false;
  opts.cuda_sources = std::set<std::string>{};
  opts.confine_to_root = true;
  auto parts = fuzz::split_parts(fuzz::as_text(data, size), "\n#---\n", std::size(kFiles));
  for (size_t i = 0; i < std::size(kFiles); ++i)
    opts.overlays[root + "/" + kFiles[i]] = i < parts.size() ? std::string(parts[i]) : std::string();
  RunOutput out = run_analysis(opts);
  for (const auto& f : out.findings) {
    CUDALINT_FUZZ_CHECK(f.rule != nullptr);
    // Paths stay inside the analysed root.
    CUDALINT_FUZZ_CHECK(!f.location.path.starts_with('/') && !f.location.path.starts_with("../"));
    auto it = out.sources.find(f.location.path);
    if (it != out.sources.end()) {
      const Region& r = f.location.region;
      CUDALINT_FUZZ_CHECK(r.start_line >= 1 && r.start_line <= it->second->lines.line_count());
      CUDALINT_FUZZ_CHECK(r.end_line >= r.start_line && r.end_line <= it->second->lines.line_count());
    }
  }
  // Every fix edits bytes of the file it belongs to, and applying them keeps the text UTF-8.
  std::map<std::string, std::vector<const Fix*>> by_file;
  for (const auto& p : out.fixes) by_file[p.display_path].push_back(&p.fix);
  for (auto& [path, fixes] : by_file) {
    auto it = out.sources.find(path);
    CUDALINT_FUZZ_CHECK(it != out.sources.end());
    std::string text = it->second->text;
    for (const Fix* f : fixes)
      for (const auto& e : f->edits) CUDALINT_FUZZ_CHECK(e.span.begin <= e.span.end && e.span.end <= text.size());
    bool was_utf8 = !first_invalid_utf8(text);
    apply_fixes(text, fixes);
    if (was_utf8) CUDALINT_FUZZ_CHECK(!first_invalid_utf8(text));
  }
  return 0;
}
