#include "analyzer/model/project_model.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "analyzer/model/build_graph_builder.h"

namespace cudalint::model {

namespace {

std::string parent_of(const std::string& abs) {
  auto s = abs.find_last_of('/');
  return s == std::string::npos || s == 0 ? "/" : abs.substr(0, s);
}

// The deepest directory every file lies under.
std::string common_dir(const std::vector<std::pair<const SourceFile*, std::string>>& sources) {
  std::string dir;
  for (const auto& [f, abs] : sources) {
    std::string d = parent_of(abs);
    if (dir.empty()) {
      dir = d;
      continue;
    }
    while (dir != "/" && !(d == dir || (d.starts_with(dir) && d[dir.size()] == '/'))) dir = parent_of(dir);
  }
  return dir;
}

// Whether a listfile calls project(), in any case (a cheap scan: a comment naming it counts too).
bool starts_project(std::string_view text) {
  for (size_t i = text.find_first_of("pP"); i != std::string_view::npos; i = text.find_first_of("pP", i + 1)) {
    if (i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_')) continue;
    size_t e = i + 7;
    if (e > text.size()) return false;
    std::string w(text.substr(i, 7));
    for (auto& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (w != "project") continue;
    while (e < text.size() && (text[e] == ' ' || text[e] == '\t')) ++e;
    if (e < text.size() && text[e] == '(') return true;
  }
  return false;
}

template <typename Unit>
void sort_by_path(std::vector<Unit>& v) {
  std::sort(v.begin(), v.end(), [](const Unit& a, const Unit& b) { return a.file->path < b.file->path; });
}

// setup.py chooses archs itself, or might (values not statically known).
std::optional<Origin> setup_py_arch_choice(const SetupPyUnit& u) {
  for (const auto& e : u.setup.env)
    if (e.var == "TORCH_CUDA_ARCH_LIST") return Origin{u.file->path, e.span};
  for (const auto& ext : u.setup.extensions) {
    if (!ext.nvcc_args.complete) return Origin{u.file->path, ext.nvcc_args.span};
    for (const auto& a : ext.nvcc_args.items)
      if (a.value.find("arch") != std::string::npos) return Origin{u.file->path, a.span};
  }
  // Extensions made by code outside this file (setup.py never names the extension classes)
  // may choose archs themselves: unknown. A file that names them builds its extensions here.
  std::string_view t = u.file->text;
  if (u.setup.extensions.empty() && u.setup.ext_modules && t.find("CUDAExtension") == std::string_view::npos &&
      t.find("CppExtension") == std::string_view::npos)
    return Origin{u.file->path, *u.setup.ext_modules};
  return std::nullopt;
}

std::optional<Origin> cmake_arch_choice(const cmake::Facts& f) {
  if (!f.cmake_cuda_architectures.empty()) return f.cmake_cuda_architectures.front().origin;
  if (!f.target_cuda_architectures.empty()) return f.target_cuda_architectures.front().value.origin;
  if (!f.cuda_arch_flags.empty()) return f.cuda_arch_flags.front().origin;
  if (!f.torch_cuda_arch_list.empty()) return f.torch_cuda_arch_list.front().origin;
  return std::nullopt;
}

}  // namespace

ProjectModel build_model(const std::vector<std::pair<const SourceFile*, std::string>>& sources, ParsedUnits units,
                         const ModelInputs& inputs) {
  ProjectModel m;
  m.target_archs_override = inputs.target_archs_override;
  m.dockerfiles = std::move(units.dockerfiles);
  m.ci_workflows = std::move(units.ci_workflows);
  sort_by_path(m.ci_workflows);
  m.setup_pys = std::move(units.setup_pys);
  m.requirements = std::move(units.requirements);
  m.pyprojects = std::move(units.pyprojects);
  sort_by_path(m.pyprojects);
  sort_by_path(m.dockerfiles);
  sort_by_path(m.setup_pys);
  sort_by_path(m.requirements);

  auto sorted = sources;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first->path < b.first->path; });
  // A CMakeLists.txt is a project's top level unless an evaluated project reads it
  // (add_subdirectory): a `tests/` or `benchmarks/` project built on its own is a project of its
  // own, whose settings never reach its parent's targets. Shallowest first.
  std::vector<std::pair<const SourceFile*, std::string>> lists;
  for (const auto& [f, abs] : sorted)
    if (f->kind == FileKind::CudaSource && !m.first_cuda_source) m.first_cuda_source = Origin{f->path, {0, 0}};
  for (const auto& [f, abs] : sorted)
    if (f->kind == FileKind::CMake && abs.ends_with("/CMakeLists.txt") && inputs.cmake_loader) lists.emplace_back(f, abs);
  std::stable_sort(lists.begin(), lists.end(), [](const auto& a, const auto& b) {
    return std::count(a.second.begin(), a.second.end(), '/') < std::count(b.second.begin(), b.second.end(), '/');
  });
  std::set<std::string> read, dirs;
  for (const auto& [f, abs] : lists) {
    if (read.count(abs)) continue;
    // Under another project's directory, only a file that starts a project of its own (CMake
    // refuses to configure one without `project()`).
    bool nested = false;
    for (std::string d = parent_of(parent_of(abs)); !nested; d = parent_of(d)) {
      nested = dirs.count(d) > 0;
      if (d == "/") break;
    }
    dirs.insert(parent_of(abs));
    if (nested && !starts_project(f->text)) continue;
    cmake::EvalOptions opts;
    if (inputs.default_cuda) opts.cuda_default_architectures = std::to_string(domain::nvcc_default_arch(inputs.default_cuda->value).sm());
    cmake::EvalResult r = cmake::evaluate(abs, inputs.cmake_loader, inputs.display_path, opts);
    read.insert(r.files_read.begin(), r.files_read.end());
    read.insert(abs);
    m.cmake_projects.push_back({f->path, std::move(r.facts)});
  }

  for (const auto& u : m.setup_pys)
    if (!m.arch_flags_elsewhere)
      if (auto o = setup_py_arch_choice(u)) m.arch_flags_elsewhere = o;
  for (const auto& p : m.cmake_projects)
    if (!m.arch_flags_elsewhere)
      if (auto o = cmake_arch_choice(p.facts)) m.arch_flags_elsewhere = o;

  // Exact torch pins, for rules that need the torch being built against.
  for (const auto& u : m.dockerfiles)
    for (const auto& st : u.build.stages)
      for (const auto& ti : st.torch_installs)
        if (ti.pinned)
          m.torch_pins.push_back(
              {*ti.pinned, ti.variant && ti.variant->cuda ? ti.variant->cuda : std::nullopt, ti.where, true});
  // `2.3.0+cu121` names its CUDA variant itself, before any index.
  auto variant_of = [](const domain::TorchVersion& v, std::optional<domain::CudaVersion> index) {
    return v.local.empty() ? index : domain::parse_cuda_version(v.local);
  };
  for (const auto& u : m.requirements) {
    std::optional<domain::CudaVersion> idx;
    for (const auto& i : u.reqs.indexes)
      if (auto v = domain::variant_from_index_url(i.url); v && v->cuda) idx = v->cuda;
    for (const auto& r : u.reqs.requirements)
      if (r.name == "torch" && r.exact)
        if (auto v = domain::parse_torch_version(*r.exact))
          m.torch_pins.push_back({*v, variant_of(*v, idx), {u.file->path, r.span}});
  }
  for (const auto& u : m.pyprojects)
    for (const auto& r : u.project.dependencies)
      if (r.name == "torch" && r.exact)
        if (auto v = domain::parse_torch_version(*r.exact))
          m.torch_pins.push_back({*v, variant_of(*v, std::nullopt), {u.file->path, r.span}});

  m.python_units = std::move(units.python_units);  // JIT load() calls are targets too
  sort_by_path(m.python_units);
  GraphInputs gi;
  gi.sources = &sources;
  gi.display_path = inputs.display_path;
  gi.cmake_loader = inputs.cmake_loader;
  gi.root = common_dir(sources);
  gi.target_archs_override = inputs.target_archs_override;
  gi.default_cuda = inputs.default_cuda;
  m.graph = build_graph(m, gi);

  if (inputs.build_facts_ready) inputs.build_facts_ready(m);
  if (inputs.skip_graph_breaks) return m;

  // torch.compile regions and their graph breaks, across every Python file.
  GraphBreakInputs gbi;
  gbi.entry_points = inputs.graph_break_entry_points;
  gbi.calls = inputs.graph_break_calls;
  for (const auto& u : m.setup_pys)
    for (const auto& e : u.setup.extensions)
      if (e.name) gbi.extension_modules.push_back(e.name->value);
  for (const auto& u : m.dockerfiles)
    for (const auto& ins : u.ast.instructions)
      if (ins.keyword == "ENV")
        for (const auto& kv : ins.pairs)
          if (kv.key.starts_with("TORCHDYNAMO_")) gbi.env.emplace_back(kv.key, kv.value);
  m.graph_breaks = find_graph_breaks(m.python_units, gbi, inputs.summarize_python, &m.unmatched_entry_points);
  return m;
}

}  // namespace cudalint::model
