#include "analyzer/engine/run.h"

#include "analyzer/core/disk_cache.h"
#include "analyzer/engine/cuda_units.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>
#include <tuple>
#include <thread>
#include <unordered_set>

#include <fmt/format.h>

#include "analyzer/config/config.h"
#include "analyzer/core/fingerprint.h"
#include "analyzer/core/huge_pages.h"
#include "analyzer/engine/discover.h"
#include "analyzer/engine/glob.h"
#include "analyzer/engine/suppress.h"
#include "analyzer/frontends/ci/github_workflow.h"
#include "analyzer/frontends/ci/gitlab_ci.h"
#include "analyzer/frontends/cmake/cmake.h"
#include "analyzer/frontends/dockerfile/dockerfile.h"
#include "analyzer/frontends/python/gb_serialize.h"
#include "analyzer/frontends/python/graph_breaks.h"
#include "analyzer/frontends/python/jit_build.h"
#include "analyzer/frontends/python/setup_py.h"
#include "analyzer/frontends/requirements/requirements.h"
#include "analyzer/model/project_model.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "rules/graph_breaks.h"
#include "rules/registry.h"

namespace cudalint {

namespace {

bool file_exists(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string parent_dir(const std::string& abs) {
  auto s = abs.find_last_of('/');
  if (s == std::string::npos || s == 0) return "/";
  return abs.substr(0, s);
}

std::string relative_to(const std::string& abs, const std::string& dir) {
  if (dir == "/") return abs.substr(1);
  if (abs.size() > dir.size() && abs.compare(0, dir.size(), dir) == 0 && abs[dir.size()] == '/')
    return abs.substr(dir.size() + 1);
  return abs;
}

// Directories nobody wants linted (ruff's defaults, plus CMake build trees).
constexpr std::string_view kDefaultExcludes[] = {".venv", "venv", ".tox", ".nox", ".mypy_cache", "__pycache__",
                                                 "node_modules", "site-packages", "_build", "buck-out",
                                                 ".eggs", "build", "dist"};

struct LoadedConfig {
  std::optional<config::Config> config;
  IgnoreList exclude;
  std::unique_ptr<RuleSelection> selection;
};

// Finds and loads configs by walking up from directories; caches per directory.
class ConfigResolver {
 public:
  ConfigResolver(const RunOptions& opts, const std::string& root, std::vector<Diagnostic>& conf_diags,
                 std::map<std::string, std::shared_ptr<const SourceFile>>& sources)
      : opts_(opts), root_(root), conf_diags_(conf_diags), sources_(sources) {
    if (opts.config_file) forced_ = load(make_absolute(*opts.config_file), true);
    none_.selection = std::make_unique<RuleSelection>(nullptr, opts.cli);
  }

  // The config that applies to files in `dir` (absolute).
  const LoadedConfig& for_dir(const std::string& dir) {
    if (forced_) return *forced_;
    auto it = by_dir_.find(dir);
    if (it != by_dir_.end()) return *it->second;
    const LoadedConfig* found = nullptr;
    for (const std::string& name : {std::string("cudalint.toml"), std::string("pyproject.toml")}) {
      std::string p = dir == "/" ? "/" + name : dir + "/" + name;
      if (!file_exists(p)) continue;
      const LoadedConfig* c = load(p, false);
      if (c && c->config) { found = c; break; }
    }
    bool top = dir == "/" || (opts_.confine_to_root && dir == root_);
    if (!found) found = top ? &none_ : &for_dir(parent_dir(dir));
    by_dir_[dir] = found;
    return *found;
  }

  const LoadedConfig& for_file(const std::string& abs_file) { return for_dir(parent_dir(abs_file)); }

 private:
  const LoadedConfig* load(const std::string& abs, bool forced) {
    auto it = by_file_.find(abs);
    if (it != by_file_.end()) return it->second.get();
    auto lc = std::make_unique<LoadedConfig>();
    std::string disp = display_path_for(abs, root_);
    auto ov = opts_.overlays.find(abs);  // an unsaved editor buffer wins over the disk
    LoadResult lr = ov != opts_.overlays.end() ? make_source(disp, ov->second) : load_source(abs, disp);
    if (!lr.file) {
      conf_diags_.push_back({&rules::config_error_info(), Severity::Error, {disp, {0, 0}},
                             fmt::format("cannot use configuration {}: {}", disp, lr.message), {}, std::nullopt});
    } else {
      SourceFile sf = std::move(*lr.file);
      if (forced && sf.kind != FileKind::PyProject) sf.kind = FileKind::CudalintToml;
      auto shared = std::make_shared<const SourceFile>(std::move(sf));
      sources_[disp] = shared;
      config::LoadResult cr = config::load_config(*shared, parent_dir(abs), &is_rule_selector);
      for (auto& e : cr.errors)
        conf_diags_.push_back({&rules::config_error_info(), Severity::Error, e.where, e.message, {}, std::nullopt});
      lc->config = std::move(cr.config);
      if (forced && !lc->config) {
        // `--config pyproject.toml` without a section: defaults, relative to that directory.
        lc->config.emplace();
        lc->config->path = disp;
        lc->config->dir = parent_dir(abs);
      }
    }
    if (lc->config) {
      std::vector<GlobPattern> pats;
      for (const auto& e : lc->config->exclude) {
        GlobPattern g;
        if (parse_glob(e.value, g)) pats.push_back(g);
      }
      lc->exclude = IgnoreList(lc->config->dir, std::move(pats));
      lc->selection = std::make_unique<RuleSelection>(&*lc->config, opts_.cli);
    } else {
      // Unreadable (e.g. `--config` naming a missing file): CONF001 above, default rules here.
      lc->selection = std::make_unique<RuleSelection>(nullptr, opts_.cli);
    }
    const LoadedConfig* out = lc.get();
    by_file_[abs] = std::move(lc);
    return out;
  }

  const RunOptions& opts_;
  std::string root_;
  std::vector<Diagnostic>& conf_diags_;
  std::map<std::string, std::shared_ptr<const SourceFile>>& sources_;
  const LoadedConfig* forced_ = nullptr;
  LoadedConfig none_;
  std::map<std::string, std::unique_ptr<LoadedConfig>> by_file_;
  std::map<std::string, const LoadedConfig*> by_dir_;
};

// Per-file work done in parallel.
struct FileWork {
  DiscoveredFile file;
  const LoadedConfig* config = nullptr;
  std::shared_ptr<const SourceFile> source;
  std::optional<model::DockerfileUnit> docker;
  std::optional<model::CiWorkflowUnit> ci;
  std::optional<model::SetupPyUnit> setup_py;
  std::optional<model::RequirementsUnit> requirements;
  std::optional<model::PyProjectUnit> pyproject;
  std::optional<model::PythonUnit> python;  // graph-break summary of a .py file
  std::vector<Diagnostic> diags;  // PARSE diagnostics
  // Not asked for: a build file of the enclosing project, loaded so that a run on a few files
  // (pre-commit) sees the whole build graph. Findings in it are reported only when they rest
  // on an asked-for file.
  bool context_only = false;
};

// Build files: what the build graph is made of.
bool is_build_file(FileKind k) {
  return k == FileKind::Dockerfile || k == FileKind::CMake || k == FileKind::SetupPy || k == FileKind::PyProject ||
         k == FileKind::Requirements || k == FileKind::CompileCommands || k == FileKind::CiWorkflow;
}

void parse_compile_commands(const SourceFile& sf, std::vector<Diagnostic>& out) {
  auto parsed = llvm::json::parse(sf.text);
  if (parsed) {
    if (!parsed->getAsArray())
      out.push_back({&rules::parse_syntax_error_info(), Severity::Error, {sf.path, {0, sf.text.empty() ? 0u : 1u}},
                     "compile_commands.json must be a JSON array of compile commands", {}, std::nullopt});
    return;
  }
  std::string msg = llvm::toString(parsed.takeError());
  uint32_t byte = 0;
  if (auto p = msg.find("byte="); p != std::string::npos) byte = static_cast<uint32_t>(std::atoi(msg.c_str() + p + 5));
  if (auto b = msg.find(" ["); b != std::string::npos) msg = msg.substr(0, b);
  byte = std::min<uint32_t>(byte, static_cast<uint32_t>(sf.text.size()));
  uint32_t end = std::min<uint32_t>(byte + 1, static_cast<uint32_t>(sf.text.size()));
  out.push_back({&rules::parse_syntax_error_info(), Severity::Error, {sf.path, {byte, end}},
                 fmt::format("invalid JSON in compile_commands.json: {}", msg), {}, std::nullopt});
}

// A .py file's graph-break summary, as the analysis asks for it (model::summarize_unit). It
// depends on the text and that request alone: an unchanged file is read from the cache.
python::gb::Summary python_summary(const model::PythonUnit& u, const DiskCache* cache) {
  const python::gb::CallPatterns& calls = rules::graph_break_calls();
  std::optional<python::gb::Summary> summary;
  std::string key;
  if (cache) {
    std::string request = u.full ? std::string("full") : std::string("lazy");
    for (const auto& w : u.want) {
      request += '\0';
      request += w;
    }
    key = DiskCache::key("gb-summary", {u.file->text, request});
    if (auto bytes = cache->load("gb", key)) summary = python::gb::deserialize(*bytes);
  }
  if (!summary) {
    summary = model::summarize_unit(u, calls);
    if (cache) cache->store("gb", key, python::gb::serialize(*summary));
  }
  return std::move(*summary);
}

// The last components of the project's Python module names ("pkg/ops/fused.py" -> "fused",
// "pkg/ops/__init__.py" -> "ops"): the identifiers kept for a module that is not summarised.
using ModuleNames = python::gb::WordSet;

// Calls f(i) for every i < n on up to `jobs` threads, the caller's included.
template <typename F>
void parallel_for(size_t n, unsigned jobs, F&& f) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    prefer_huge_pages_in_thread();
    for (size_t i = next++; i < n; i = next++) f(i);
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < std::min<size_t>(jobs, n); ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
}

void process_file(FileWork& w, const RunOptions& opts, uint64_t max_bytes, const ModuleNames& module_names) {
  const auto& f = w.file;
  LoadResult lr;
  auto ov = opts.overlays.find(f.fs_path);
  if (ov != opts.overlays.end()) lr = make_source(f.display_path, ov->second, max_bytes);
  else lr = load_source(f.fs_path, f.display_path, max_bytes);
  if (lr.file) {
    lr.file->kind = f.kind;
    w.source = std::make_shared<const SourceFile>(std::move(*lr.file));
  }
  const RuleInfo* problem = nullptr;
  switch (lr.problem) {
    case LoadProblem::None: break;
    case LoadProblem::Unreadable: problem = &rules::parse_unreadable_info(); break;
    case LoadProblem::Binary: problem = &rules::parse_binary_info(); break;
    case LoadProblem::InvalidUtf8: problem = &rules::parse_invalid_utf8_info(); break;
    case LoadProblem::TooLarge: problem = &rules::parse_too_large_info(); break;
  }
  if (problem) {
    w.diags.push_back({problem, problem->default_severity, {f.display_path, lr.span}, lr.message, {}, std::nullopt});
    if (lr.problem != LoadProblem::InvalidUtf8) w.source.reset();
    return;  // front-ends only see valid text
  }
  const SourceFile& sf = *w.source;
  switch (sf.kind) {
    case FileKind::Dockerfile: {
      docker::ParseResult pr = docker::parse(sf.text);
      for (const auto& e : pr.errors)
        w.diags.push_back({&rules::parse_syntax_error_info(), Severity::Error, {sf.path, e.span}, e.message, {},
                           std::nullopt});
      model::DockerfileUnit unit;
      unit.file = &sf;
      unit.ast = std::move(pr.ast);
      unit.build = model::extract_docker_build(sf, unit.ast);
      w.docker = std::move(unit);
      break;
    }
    case FileKind::CompileCommands:
      parse_compile_commands(sf, w.diags);
      break;
    case FileKind::CiWorkflow: {
      ci::ParseResult pr = is_gitlab_ci_path(sf.path) ? ci::parse_gitlab_ci(sf.text) : ci::parse_github_workflow(sf.text);
      for (const auto& e : pr.errors)
        w.diags.push_back({&rules::parse_syntax_error_info(), Severity::Error, {sf.path, e.span}, e.message, {},
                           std::nullopt});
      w.ci = model::extract_ci_build(sf, pr.workflow);
      break;
    }
    case FileKind::SetupPy: {
      python::ParseResult pr = python::parse_setup_py(sf.text);
      for (const auto& e : pr.errors)
        w.diags.push_back({&rules::parse_syntax_error_info(), Severity::Error, {sf.path, e.span}, e.message, {},
                           std::nullopt});
      w.setup_py = model::SetupPyUnit{&sf, std::move(pr.setup)};
      break;
    }
    case FileKind::Requirements:
      w.requirements = model::RequirementsUnit{&sf, requirements::parse(sf.text)};
      break;
    case FileKind::PyProject:  // syntax errors are the config loader's (CONF001)
      w.pyproject = model::PyProjectUnit{&sf, pyproject::parse(sf.text)};
      break;
    case FileKind::Python: {  // syntax errors are left to Python linters; the summary skips them
      // A module that cannot start a compiled region is summarised later, if the graph-break
      // analysis reaches it (model::PythonUnit).
      w.python.emplace();
      w.python->file = &sf;
      // A context file (one read for its just-in-time builds) is summarised only if the
      // analysis of the asked-for files reaches it.
      if (!w.context_only && python::gb::may_start_regions(sf.text))
        w.python->summary = python_summary(*w.python, opts.disk_cache);
      else
        w.python->words = python::gb::words_of(sf.text, module_names);
      break;
    }
    case FileKind::CMake: {
      // Syntax errors are reported per file; facts come from evaluating whole projects.
      cmake::ParseResult pr = cmake::parse(sf.text);
      for (const auto& e : pr.errors)
        w.diags.push_back({&rules::parse_syntax_error_info(), Severity::Error, {sf.path, e.span}, e.message, {},
                           std::nullopt});
      break;
    }
    default:
      break;  // front-ends for these kinds land with their issues
  }
}

Location resolve_location(const Origin& o, const std::map<std::string, std::shared_ptr<const SourceFile>>& sources) {
  Location loc;
  loc.path = o.path;
  auto it = sources.find(o.path);
  if (it != sources.end()) loc.region = it->second->region(o.span);
  return loc;
}

}  // namespace

bool is_rule_selector(std::string_view s) {
  if (s == "ALL") return true;
  if (s.empty()) return false;
  for (const auto& e : rules::registry()) {
    if (!e.id.starts_with(s)) continue;
    // The selector must contain the whole family name ("AR" is not a selector).
    size_t letters = 0;
    while (letters < e.id.size() && e.id[letters] >= 'A' && e.id[letters] <= 'Z') ++letters;
    if (s.size() >= letters) return true;
  }
  return false;
}

uint64_t max_file_bytes_for(const RunOptions& opts, const std::string& abs_path) {
  std::string root = opts.root.empty() ? make_absolute(".") : make_absolute(opts.root);
  std::vector<Diagnostic> diags;  // configuration errors are the run's to report
  std::map<std::string, std::shared_ptr<const SourceFile>> sources;
  ConfigResolver configs(opts, root, diags, sources);
  const LoadedConfig& lc = configs.for_file(abs_path);
  return lc.config && lc.config->max_file_size ? lc.config->max_file_size->value : kDefaultMaxFileBytes;
}

RunOutput run_analysis(const RunOptions& opts) {
  RunOutput out;
  std::string root = opts.root.empty() ? make_absolute(".") : make_absolute(opts.root);
  std::vector<Diagnostic> conf_diags;
  ConfigResolver configs(opts, root, conf_diags, out.sources);

  // 1. Discover.
  DiscoveryOptions dopts;
  dopts.root = root;
  dopts.respect_gitignore = opts.respect_gitignore;
  for (const auto& [abs, text] : opts.overlays) dopts.in_memory.insert(abs);
  std::vector<GlobPattern> defaults;
  for (auto name : kDefaultExcludes) {
    GlobPattern g;
    parse_glob(std::string(name) + "/", g);
    defaults.push_back(g);
  }
  dopts.excluded = [&](const std::string& abs, bool is_dir) {
    auto slash = abs.find_last_of('/');
    std::string_view name = std::string_view(abs).substr(slash + 1);
    for (const auto& g : defaults)
      if (glob_matches(g, name, is_dir)) return true;
    const LoadedConfig& lc = configs.for_file(abs);
    return lc.config && lc.exclude.match(abs, is_dir) == 1;
  };
  std::vector<std::string> paths = opts.paths.empty() ? std::vector<std::string>{"."} : opts.paths;
  DiscoveryResult found = discover(paths, dopts);
  if (opts.after_discovery) {
    std::vector<std::string> found_paths;
    for (const auto& f : found.files) found_paths.push_back(f.fs_path);
    opts.after_discovery(found_paths);
  }

  // A run on files only (pre-commit, an editor) still judges them by the whole project's build:
  // the build files under the root come along as context, and the Python files that may build
  // an extension just in time (torch's `load()` names its sources there).
  auto jit_builder = [&](const DiscoveredFile& f) {
    if (f.kind != FileKind::Python) return false;
    if (auto ov = opts.overlays.find(f.fs_path); ov != opts.overlays.end())
      return python::may_have_jit_builds(ov->second);
    auto buf = llvm::MemoryBuffer::getFile(f.fs_path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    return buf && python::may_have_jit_builds((*buf)->getBuffer());
  };
  std::set<std::string> context_files;
  const bool files_only = !opts.paths.empty() && std::all_of(opts.paths.begin(), opts.paths.end(), [&](const std::string& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) || opts.overlays.count(make_absolute(p)) > 0;
  });
  if (files_only && !opts.graph_only && !opts.confine_to_root) {
    std::set<std::string> asked;
    for (const auto& f : found.files) asked.insert(f.fs_path);
    DiscoveryResult ctx = discover({root}, dopts);
    for (auto& f : ctx.files)
      if (!asked.count(f.fs_path) && (is_build_file(f.kind) || jit_builder(f))) {
        context_files.insert(f.display_path);
        found.files.push_back(std::move(f));
      }
  }

  std::vector<FileWork> work;
  work.reserve(found.files.size());
  for (auto& f : found.files) {
    if (f.kind == FileKind::CudalintToml) {  // read as configuration, not analysed
      configs.for_file(f.fs_path);
      continue;
    }
    FileWork w;
    w.config = &configs.for_file(f.fs_path);
    w.context_only = context_files.count(f.display_path) > 0;
    w.file = std::move(f);
    work.push_back(std::move(w));
  }
  std::vector<Diagnostic> discovery_diags;
  for (const auto& p : found.problems)
    discovery_diags.push_back({&rules::parse_unreadable_info(), Severity::Error, {p.display_path, {0, 0}},
                               fmt::format("cannot read {}: {}", p.display_path, p.message), {}, std::nullopt});

  // 2. Load and parse in parallel (front-ends are independent per file).
  uint64_t max_bytes = kDefaultMaxFileBytes;
  for (const auto& w : work)
    if (w.config->config && w.config->config->max_file_size) max_bytes = w.config->config->max_file_size->value;
  const unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> module_name_store;
  for (const auto& w : work)
    if (w.file.kind == FileKind::Python)
      module_name_store.emplace_back(model::last_name_component(model::module_name_of(w.file.display_path)));
  ModuleNames module_names(module_name_store.begin(), module_name_store.end());
  // Each file is held to the limit of the configuration that governs it.
  parallel_for(work.size(), jobs, [&](size_t i) {
    const LoadedConfig* lc = work[i].config;
    uint64_t limit = lc && lc->config && lc->config->max_file_size ? lc->config->max_file_size->value
                                                                    : kDefaultMaxFileBytes;
    process_file(work[i], opts, limit, module_names);
  });

  // 3. Model (one thread, deterministic order) and rules.
  std::vector<std::pair<const SourceFile*, std::string>> loaded;
  model::ParsedUnits units;
  std::map<std::string, FileWork*> work_by_path;
  std::map<std::string, const SourceFile*> by_abs;
  for (auto& w : work) {
    work_by_path[w.file.display_path] = &w;
    if (!w.source) continue;
    out.sources[w.source->path] = w.source;
    if (w.source->kind == FileKind::Unknown) continue;  // invalid UTF-8: kept for locations only
    loaded.emplace_back(w.source.get(), w.file.fs_path);
    by_abs[w.file.fs_path] = w.source.get();
    if (w.docker) units.dockerfiles.push_back(std::move(*w.docker));
    if (w.ci) units.ci_workflows.push_back(std::move(*w.ci));
    if (w.setup_py) units.setup_pys.push_back(std::move(*w.setup_py));
    if (w.requirements) units.requirements.push_back(std::move(*w.requirements));
    if (w.pyproject) units.pyprojects.push_back(std::move(*w.pyproject));
    if (w.python) units.python_units.push_back(std::move(*w.python));
  }
  out.files_checked = loaded.size();
  model::ModelInputs inputs;
  if (opts.target_archs) {
    inputs.target_archs_override = model::Fact<std::string>{*opts.target_archs, {"<command line>", {0, 0}}, false};
  } else {
    const LoadedConfig& rc = configs.for_dir(root);
    if (rc.config && rc.config->target_archs)
      inputs.target_archs_override =
          model::Fact<std::string>{rc.config->target_archs->value, rc.config->target_archs->origin, false};
  }
  // The toolkit to assume when no build file names one (INTR004).
  if (const LoadedConfig& rc = configs.for_dir(root); rc.config && rc.config->cuda_version)
    if (auto v = domain::parse_cuda_version(rc.config->cuda_version->value))
      inputs.default_cuda = model::Fact<domain::CudaVersion>{*v, rc.config->cuda_version->origin, false};
  // Graph-break entry points from every config that governs an analysed file (the root's first).
  {
    std::set<const config::Config*> seen;
    auto add = [&](const LoadedConfig& lc) {
      if (!lc.config || !seen.insert(&*lc.config).second) return;
      for (const auto& e : lc.config->graph_break_entry_points)
        inputs.graph_break_entry_points.emplace_back(e.value, e.origin);
    };
    add(configs.for_dir(root));
    for (const auto& w : work)
      if (w.config && w.file.kind == FileKind::Python) add(*w.config);
  }
  // CMake includes may name files that were not discovered (outside the paths given): read
  // them on demand and keep their text alive for the evaluation.
  std::map<std::string, std::string> extra_cmake;
  inputs.cmake_loader = [&](const std::string& abs) -> std::optional<std::string_view> {
    if (auto it = by_abs.find(abs); it != by_abs.end()) return std::string_view(it->second->text);
    if (auto it = extra_cmake.find(abs); it != extra_cmake.end()) return std::string_view(it->second);
    if (opts.confine_to_root && !(abs.size() > root.size() && abs.starts_with(root) && abs[root.size()] == '/'))
      return std::nullopt;
    LoadResult lr = load_source(abs, abs, max_bytes);
    if (!lr.file || lr.problem != LoadProblem::None) return std::nullopt;
    return std::string_view(extra_cmake.emplace(abs, std::move(lr.file->text)).first->second);
  };
  inputs.display_path = [&](const std::string& abs) { return display_path_for(abs, root); };
  inputs.graph_break_calls = &rules::graph_break_calls();
  // Modules the graph-break analysis turns out to need, summarised in parallel.
  inputs.summarize_python = [&](std::vector<model::PythonUnit>& units, const std::vector<size_t>& which) {
    parallel_for(which.size(), jobs, [&](size_t i) {
      model::PythonUnit& u = units[which[i]];
      u.summary = python_summary(u, opts.disk_cache);
      u.words = {};
    });
  };
  // 3b. CUDA sources, per target arch of the model, in parallel (analyzer/engine/cuda_units.h).
  // They need only the build facts (device targets, toolkit), so they run beside the graph-break
  // analysis, whose rounds between parallel summaries run on one thread: each keeps the cores
  // the other leaves idle.
  std::vector<Diagnostic> cuda_diags;
  CudaSourcesOutput cuda_out;
  std::thread cuda_thread;
  inputs.skip_graph_breaks = opts.graph_only;
  const bool want_cuda = !opts.graph_only && (!opts.only_rule || opts.only_rule->starts_with("INTR") ||
                         opts.only_rule->starts_with("MEM") || *opts.only_rule == "PARSE001" ||
                         *opts.only_rule == "PARSE006");
  CudaSourcesInput ci;
  CudaSourcesPlan cuda_plan;  // what analyze_cuda_sources reads of the model
  std::set<std::string> cuda_accesses;  // the sources a MEM rule is enabled for (configs are not
                                        // thread-safe: decided here)
  if (want_cuda) {
    ci.loaded = &loaded;
    ci.only = opts.cuda_sources;
    ci.newest_arch_only = opts.cuda_newest_arch_only;
    ci.headers_in_place = opts.headers_in_place;
    ci.overlays = opts.overlays;
    ci.jobs = jobs;
    ci.prelude_cache = opts.prelude_cache;
    ci.disk_cache = opts.disk_cache;
    ci.files_only = files_only;
    // RuleInfos are static objects: the pointers outlive the rule instances.
    // The rules a parse of a CUDA source can feed: a source none of them is enabled for (a
    // `--select GB` run, say) is not parsed.
    std::vector<const RuleInfo*> mem_rules, parse_rules;
    for (const auto& e : rules::registry()) {
      const RuleInfo& r = e.make()->info();
      if (r.family == "MEM") mem_rules.push_back(&r);
      if (r.family == "MEM" || r.family == "INTR" || r.id == "PARSE001" || r.id == "PARSE006") parse_rules.push_back(&r);
    }
    std::set<std::string> parsed;
    size_t sources = 0;
    for (const auto& [sf, abs] : loaded) {
      // Only the sources analyze_cuda_sources parses (an editor asks for one buffer's).
      if (sf->kind != FileKind::CudaSource || (opts.cuda_sources && !opts.cuda_sources->count(abs))) continue;
      ++sources;
      bool wants = false, parse = true;
      if (opts.only_rule) {
        wants = opts.only_rule->starts_with("MEM");
      } else {
        const LoadedConfig& lc = configs.for_file(abs);
        const std::string rel = lc.config ? relative_to(abs, lc.config->dir) : sf->path;
        auto enabled = [&](const RuleInfo* r) { return lc.selection->enabled(*r, rel); };
        wants = std::any_of(mem_rules.begin(), mem_rules.end(), enabled);
        parse = std::any_of(parse_rules.begin(), parse_rules.end(), enabled);
      }
      if (wants) cuda_accesses.insert(abs);
      if (parse) parsed.insert(abs);
    }
    if (parsed.size() < sources) ci.only = std::move(parsed);
    ci.wants_accesses = [&cuda_accesses](const std::string&, const std::string& abs) {
      return cuda_accesses.count(abs) > 0;
    };
    inputs.build_facts_ready = [&](const model::ProjectModel& m) {
      cuda_plan = plan_cuda_sources(m, ci);  // each source's archs, flags and toolkit
      cuda_thread = std::thread([&] { cuda_out = analyze_cuda_sources(std::move(cuda_plan), ci); });
    };
  }
  model::ProjectModel model = model::build_model(loaded, std::move(units), inputs);
  if (opts.graph_only) {
    out.graph = std::move(model.graph);
    return out;
  }
  if (cuda_thread.joinable()) cuda_thread.join();
  else if (want_cuda) cuda_out = analyze_cuda_sources(model, ci);  // the hook did not run
  if (want_cuda) {
    model.cuda_units = std::move(cuda_out.units);
    out.archs_left = cuda_out.archs_left;
    out.cuda_header_uses = std::move(cuda_out.header_uses);
    cuda_diags = std::move(cuda_out.diags);
    for (auto& n : cuda_out.notes) {
      auto wit = work_by_path.find(n.first);
      if (wit != work_by_path.end() && wit->second->context_only) continue;
      out.notes.push_back(std::move(n));
    }
    std::sort(out.notes.begin(), out.notes.end());
  }

  DiagnosticSink sink;
  for (const auto& entry : rules::registry()) {
    if (opts.only_rule && entry.id != *opts.only_rule) continue;
    auto rule = entry.make();
    rule->check(model, sink);
  }
  std::vector<Diagnostic> all = sink.take();
  for (auto& d : cuda_diags) all.push_back(std::move(d));
  for (auto& w : work)
    for (auto& d : w.diags) all.push_back(std::move(d));
  for (auto& d : discovery_diags) all.push_back(std::move(d));
  out.config_error = !conf_diags.empty();
  for (auto& d : conf_diags) all.push_back(std::move(d));

  // 4. Per file: selection, severity, suppressions.
  std::map<std::string, std::vector<Diagnostic>> by_file;
  for (auto& d : all) by_file[d.where.path].push_back(std::move(d));
  // RuleInfos are static objects, so pointers outlive the rule instances.
  std::map<std::string_view, const RuleInfo*> infos;
  for (const auto& e : rules::registry()) infos[e.id] = &e.make()->info();
  auto known = [&](std::string_view id) { return infos.count(id) > 0; };
  auto info_of = [&](std::string_view id) -> const RuleInfo* {
    auto it = infos.find(id);
    return it == infos.end() ? nullptr : it->second;
  };
  std::vector<Diagnostic> kept;
  // Files with suppressions but no diagnostics still need SUP checks.
  for (const auto& w : work)
    if (w.source && !by_file.count(w.source->path)) by_file[w.source->path];
  for (auto& [path, diags] : by_file) {
    auto wit = work_by_path.find(path);
    const LoadedConfig* lc = wit != work_by_path.end() ? wit->second->config : nullptr;
    std::string abs = wit != work_by_path.end() ? wit->second->file.fs_path : make_absolute(path);
    if (!lc) lc = &configs.for_file(abs);
    const RuleSelection& sel = *lc->selection;
    std::string rel = lc->config ? relative_to(abs, lc->config->dir) : path;
    auto enabled = [&](const RuleInfo& r) {
      // The fixture harness runs the folder's rule even when it is off by default.
      if (opts.only_rule) return r.id == *opts.only_rule;
      return sel.enabled(r, rel);
    };
    std::vector<Diagnostic> on;
    for (auto& d : diags)
      if (enabled(*d.rule)) on.push_back(std::move(d));
    auto sit = out.sources.find(path);
    if (sit != out.sources.end() && sit->second->kind != FileKind::Unknown) {
      std::vector<Suppression> sups = parse_suppressions(*sit->second);
      apply_suppressions(
          *sit->second, sups, on, known,
          [&](std::string_view id) {
            const RuleInfo* r = info_of(id);
            return r && enabled(*r);
          },
          rules::unused_suppression_info(), rules::invalid_suppression_info());
      // SUP diagnostics are subject to selection too.
      std::erase_if(on, [&](const Diagnostic& d) { return d.rule->family == "SUP" && !enabled(*d.rule); });
    }
    for (auto& d : on) {
      d.severity = sel.severity(*d.rule, d.severity);
      // An invalid configuration is always an error (the run exits 2); CONF002 is only a warning.
      if (d.rule == &rules::config_error_info()) d.severity = Severity::Error;
      kept.push_back(std::move(d));
    }
  }

  // A rule that meets one value through several builds (a flag list shared by three
  // extensions) reports it once: identical findings say nothing new and their fixes would clash.
  if (!context_files.empty())
    std::erase_if(kept, [&](const Diagnostic& d) {
      if (!context_files.count(d.where.path)) return false;
      return std::none_of(d.related.begin(), d.related.end(), [&](const auto& r) {
        return out.sources.count(r.where.path) && !context_files.count(r.where.path);
      });
    });
  {
    std::set<std::tuple<std::string_view, std::string, uint32_t, uint32_t, std::string>> seen;
    std::erase_if(kept, [&](const Diagnostic& d) {
      return !seen.emplace(d.rule->id, d.where.path, d.where.span.begin, d.where.span.end, d.message).second;
    });
  }

  // 5. Resolve to findings. The line hashes (SARIF fingerprints) of each file with a finding
  // hash the file up to its last finding's line: on the worker threads (a tree where every file
  // has one spends seconds).
  struct FileLines {
    const SourceFile* file = nullptr;
    size_t last = 0;  // the last line with a finding
    std::vector<std::string> hashes;
  };
  std::map<std::string, FileLines> hashes;
  for (const auto& d : kept)
    if (auto sit = out.sources.find(d.where.path); sit != out.sources.end()) {
      FileLines& fl = hashes[d.where.path];
      fl.file = sit->second.get();
      fl.last = std::max<size_t>(fl.last, fl.file->region(d.where.span).start_line);
    }
  {
    std::vector<FileLines*> todo;
    for (auto& [path, fl] : hashes) todo.push_back(&fl);
    parallel_for(todo.size(), jobs, [&](size_t i) { todo[i]->hashes = line_hashes(todo[i]->file->text, todo[i]->last); });
  }
  for (auto& d : kept) {
    Finding f;
    f.rule = d.rule;
    f.severity = d.severity;
    f.location = resolve_location(d.where, out.sources);
    f.message = d.message;
    for (const auto& r : d.related) f.related.push_back({resolve_location(r.where, out.sources), r.message});
    auto sit = out.sources.find(d.where.path);
    if (sit != out.sources.end()) {
      const SourceFile& sf = *sit->second;
      const auto& hv = hashes[d.where.path].hashes;
      uint32_t line = f.location.region.start_line;
      if (line >= 1 && line <= hv.size()) f.line_hash = hv[line - 1];
      f.source_line = std::string(sf.lines.line_text(sf.text, line));
      if (d.fix) {
        FindingFix ff{d.fix->title, d.fix->applicability, {}};
        for (const auto& e : d.fix->edits) ff.edits.push_back({sf.region(e.span), e.replacement});
        f.fix = std::move(ff);
        auto wit = work_by_path.find(sf.path);
        out.fixes.push_back(
            {wit != work_by_path.end() ? wit->second->file.fs_path : make_absolute(sf.path), sf.path, *d.fix});
      }
    }
    out.findings.push_back(std::move(f));
  }
  std::sort(out.findings.begin(), out.findings.end(), finding_less);
  return out;
}

}  // namespace cudalint
