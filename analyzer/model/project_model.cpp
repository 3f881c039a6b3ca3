#include "analyzer/model/project_model.h"

#include <algorithm>
#include <set>

namespace cudalint::model {

namespace {

std::string parent_of(const std::string& abs) {
  auto s = abs.find_last_of('/');
  return s == std::string::npos || s == 0 ? "/" : abs.substr(0, s);
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

void add_targets(std::vector<TargetArch>& out, std::string_view value, const Origin& origin,
                 std::string_view via = "TORCH_CUDA_ARCH_LIST") {
  domain::ArchList l = domain::parse_torch_arch_list(value, false, 0, origin.span);
  if (l.kind != domain::ArchListKind::Explicit) return;
  for (const auto& e : l.entries)
    if (std::none_of(out.begin(), out.end(), [&](const TargetArch& t) { return t.arch == e.arch; }))
      out.push_back({e.arch, origin, std::string(via), 0});
}

// CMake spellings: "80;90-real;90a-virtual" (native/all/all-major say nothing static).
void add_cmake_targets(std::vector<TargetArch>& out, const std::string& value, const Origin& origin) {
  std::string list;
  size_t b = 0;
  while (b <= value.size()) {
    size_t e = value.find_first_of("; ", b);
    if (e == std::string::npos) e = value.size();
    std::string tok = value.substr(b, e - b);
    for (std::string_view suf : {"-real", "-virtual"})
      if (tok.size() > suf.size() && tok.ends_with(suf)) tok.resize(tok.size() - suf.size());
    if (!tok.empty()) {
      if (auto a = domain::parse_arch_token(tok)) list += (list.empty() ? "" : ";") + a->torch_name();
    }
    b = e + 1;
  }
  if (!list.empty()) add_targets(out, list, origin, "CMAKE_CUDA_ARCHITECTURES");
}

std::vector<TargetArch> device_targets_of(const ProjectModel& m) {
  std::vector<TargetArch> out;
  if (m.target_archs_override) {
    const Origin& o = m.target_archs_override->origin;
    add_targets(out, m.target_archs_override->value, o, o.path == "<command line>" ? "--target-archs" : "target-archs");
    return out;
  }
  for (const auto& u : m.dockerfiles)
    for (const auto& st : u.build.stages)
      for (const auto& s : st.arch_settings)
        if (s.value_known) add_targets(out, s.value, s.origin);
  for (const auto& u : m.setup_pys)
    for (const auto& e : u.setup.env)
      if (e.var == "TORCH_CUDA_ARCH_LIST" && e.value) add_targets(out, e.value->value, {u.file->path, e.value->span});
  for (const auto& p : m.cmake_projects) {
    for (const auto& v : p.facts.cmake_cuda_architectures) add_cmake_targets(out, v.value, v.origin);
    for (const auto& v : p.facts.torch_cuda_arch_list) add_targets(out, v.value, v.origin);
  }
  return out;
}

}  // namespace

ProjectModel build_model(const std::vector<std::pair<const SourceFile*, std::string>>& sources, ParsedUnits units,
                         const ModelInputs& inputs) {
  ProjectModel m;
  m.target_archs_override = inputs.target_archs_override;
  m.dockerfiles = std::move(units.dockerfiles);
  m.setup_pys = std::move(units.setup_pys);
  m.requirements = std::move(units.requirements);
  m.pyprojects = std::move(units.pyprojects);
  sort_by_path(m.pyprojects);
  sort_by_path(m.dockerfiles);
  sort_by_path(m.setup_pys);
  sort_by_path(m.requirements);

  auto sorted = sources;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first->path < b.first->path; });
  std::set<std::string> cmake_dirs;
  for (const auto& [f, abs] : sorted)
    if (f->kind == FileKind::CMake && abs.ends_with("/CMakeLists.txt")) cmake_dirs.insert(parent_of(abs));
  for (const auto& [f, abs] : sorted) {
    if (f->kind == FileKind::CudaSource && !m.first_cuda_source) m.first_cuda_source = Origin{f->path, {0, 0}};
    // A CMakeLists.txt is a project's top level when no ancestor directory has one.
    if (f->kind != FileKind::CMake || !abs.ends_with("/CMakeLists.txt") || !inputs.cmake_loader) continue;
    bool nested = false;
    for (std::string d = parent_of(parent_of(abs)); !nested; d = parent_of(d)) {
      nested = cmake_dirs.count(d) > 0;
      if (d == "/") break;
    }
    if (nested) continue;
    cmake::EvalResult r = cmake::evaluate(abs, inputs.cmake_loader, inputs.display_path);
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
          m.torch_pins.push_back({*ti.pinned, ti.variant && ti.variant->cuda ? ti.variant->cuda : std::nullopt, ti.where});
  for (const auto& u : m.requirements) {
    std::optional<domain::CudaVersion> idx;
    for (const auto& i : u.reqs.indexes)
      if (auto v = domain::variant_from_index_url(i.url); v && v->cuda) idx = v->cuda;
    for (const auto& r : u.reqs.requirements)
      if (r.name == "torch" && r.exact)
        if (auto v = domain::parse_torch_version(*r.exact)) m.torch_pins.push_back({*v, idx, {u.file->path, r.span}});
  }
  m.device_targets = device_targets_of(m);
  for (auto& t : m.device_targets)  // lines for messages ("TORCH_CUDA_ARCH_LIST at Dockerfile:12")
    for (const auto& [f, abs] : sources)
      if (f->path == t.origin.path) {
        t.line = f->lines.line_of(t.origin.span.begin);
        break;
      }
  for (const auto& u : m.dockerfiles)
    for (const auto& st : u.build.stages)
      if (st.cuda && !m.build_cuda) m.build_cuda = st.cuda;
  if (!m.build_cuda && inputs.default_cuda) m.build_cuda = inputs.default_cuda;

  for (const auto& u : m.pyprojects)
    for (const auto& r : u.project.dependencies)
      if (r.name == "torch" && r.exact)
        if (auto v = domain::parse_torch_version(*r.exact)) m.torch_pins.push_back({*v, std::nullopt, {u.file->path, r.span}});

  if (inputs.build_facts_ready) inputs.build_facts_ready(m);

  // torch.compile regions and their graph breaks, across every Python file.
  m.python_units = std::move(units.python_units);
  sort_by_path(m.python_units);
  GraphBreakInputs gbi;
  gbi.entry_points = inputs.graph_break_entry_points;
  for (const auto& u : m.setup_pys)
    for (const auto& e : u.setup.extensions)
      if (e.name) gbi.extension_modules.push_back(e.name->value);
  for (const auto& u : m.dockerfiles)
    for (const auto& ins : u.ast.instructions)
      if (ins.keyword == "ENV")
        for (const auto& kv : ins.pairs)
          if (kv.key.starts_with("TORCHDYNAMO_")) gbi.env.emplace_back(kv.key, kv.value);
  m.graph_breaks = find_graph_breaks(m.python_units, gbi, inputs.summarize_python);
  return m;
}

}  // namespace cudalint::model
