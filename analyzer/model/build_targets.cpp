// The build graph's targets: what compiles sources, read from setup.py extensions, CMake
// targets (or projects whose targets are not known), compile_commands.json entries and JIT
// `load()` calls in Python files.
#include "analyzer/model/build_targets.h"

#include <algorithm>

#include <fmt/format.h>

#include "analyzer/domain/torch_support.h"
#include "analyzer/frontends/python/jit_build.h"
#include "analyzer/frontends/python/setup_py.h"
#include "analyzer/model/build_facts.h"

namespace cudalint::model {

using facts::parent_of;
using facts::resolve;

namespace {

// torch's extension builder (setup.py's CUDAExtension and JIT load() alike): an nvcc flag that
// names an arch (any flag containing `arch`, as _get_cuda_arch_flags tests) replaces
// TORCH_CUDA_ARCH_LIST; a list partly computed may do so; else the list decides.
void torch_builder_archs(BuildTarget& bt, const python::StrList& nvcc_args, const cuda::CompileFlags& flags,
                         const std::string& file) {
  const auto& items = nvcc_args.items;
  // Partly computed (from `nvcc -V`, os.getenv, ...): a build whose environment and toolkit are
  // known may resolve them.
  bt.flags_per_build = !nvcc_args.complete;
  auto own = std::find_if(items.begin(), items.end(), [](const python::Str& a) {
    return a.value.find("arch") != std::string::npos && a.value.find("TORCH_EXTENSION_NAME") == std::string::npos;
  });
  if (own != items.end()) {
    for (size_t k = 0; k < flags.archs.size() && k < flags.arch_flags.size(); ++k) {
      const std::string& flag = flags.arch_flags[k];
      Span at = own->span;
      for (size_t j = 0; j < items.size(); ++j)
        if (items[j].value == flag || (j + 1 < items.size() && items[j].value + " " + items[j + 1].value == flag)) {
          at = items[j].span;
          break;
        }
      bt.own_archs.push_back(facts::flag_arch(flags.archs[k], flag, {file, at}));
    }
    if (bt.own_archs.empty()) bt.archs_unknown = "its nvcc flags choose archs that cannot be read";
  } else if (!nvcc_args.complete) {
    // `["-O3"] + arch_flags`: the part not read may name archs, and then torch adds none.
    bt.archs_unknown = "its nvcc flags are computed (from the toolkit or GPUs found at build time, say)";
  } else {
    bt.reads_torch_arch_list = true;
  }
}

cuda::CompileFlags torch_builder_flags(const std::string& name, const std::vector<std::string>& macros,
                                       const python::StrList& nvcc_args, const std::string& dir) {
  std::vector<std::string> nvcc;
  for (const auto& a : nvcc_args.items) nvcc.push_back(a.value);
  return cuda::nvcc_flags(domain::torch_extension_nvcc_command(name, macros, nvcc), dir);
}

// torch's builder for one setup.py extension: its compile flags (name, define_macros, nvcc
// arguments) and the archs they fix, or that it reads TORCH_CUDA_ARCH_LIST.
void extension_flags(BuildTarget& bt, const python::Extension& ext, const std::string& file) {
  std::vector<std::string> macros;
  for (const auto& [name, value] : ext.define_macros) macros.push_back(name.value + (value ? "=" + value->value : ""));
  cuda::CompileFlags flags = torch_builder_flags(bt.name, macros, ext.nvcc_args, bt.dir);
  torch_builder_archs(bt, ext.nvcc_args, flags, file);
  bt.flags = std::make_shared<const cuda::CompileFlags>(std::move(flags));
}

}  // namespace

void add_setup_targets(const ProjectModel& m, const PathOf& abs, std::vector<BuildTarget>& out) {
  for (const auto& u : m.setup_pys) {
    const std::string file_abs = abs(u.file->path), dir = parent_of(file_abs);
    std::optional<Fact<std::string>> list;
    bool list_is_default = false;
    std::vector<std::pair<std::string, std::string>> own_env;
    for (const auto& e : u.setup.env) {
      if (e.var == "TORCH_CUDA_ARCH_LIST" && e.value) {
        list = Fact<std::string>{e.value->value, {u.file->path, e.value->span}, e.conditional};
        list_is_default = e.kind != python::EnvSetting::Kind::Assign;
      }
      if (e.value && !e.conditional && e.kind != python::EnvSetting::Kind::GetenvDefault)
        own_env.emplace_back(e.var, e.value->value);
    }
    const std::string_view t = u.file->text;
    if (u.setup.extensions.empty() && u.setup.ext_modules && t.find("CUDAExtension") == std::string_view::npos &&
        t.find("CppExtension") == std::string_view::npos) {
      BuildTarget bt;
      bt.kind = BuildTarget::Kind::SetupExtension;
      bt.name = "ext_modules";
      bt.where = {u.file->path, *u.setup.ext_modules};
      bt.dir = bt.project_dir = dir;
      bt.may_compile_under = {dir};
      bt.archs_unknown = "its extensions are made outside setup.py, with flags that are not read";
      bt.project_file = u.file->path;
      out.push_back(std::move(bt));
      continue;
    }
    for (const auto& ext : u.setup.extensions) {
      if (!ext.kind.ends_with("CUDAExtension")) continue;
      BuildTarget bt;
      bt.kind = BuildTarget::Kind::SetupExtension;
      bt.name = ext.name ? ext.name->value : "<unnamed>";
      bt.where = {u.file->path, ext.call_span};
      bt.dir = bt.project_dir = dir;
      bt.project_file = u.file->path;
      for (const auto& s : ext.sources.items) bt.sources.push_back(resolve(dir, s.value));
      for (const auto& g : ext.source_globs) bt.source_globs.push_back({resolve(dir, g.value), g.value.find("**") != std::string::npos});
      if (!ext.sources.complete && ext.source_globs.empty()) bt.may_compile_under = {dir};
      extension_flags(bt, ext, u.file->path);
      // Read only where the target reads TORCH_CUDA_ARCH_LIST (here, or in a build that
      // resolves its computed flags: setup_target_for_build).
      bt.setup_arch_list = list;
      bt.setup_arch_list_is_default = list_is_default;
      bt.env_conditions = ext.env_conditions;
      bt.unknown_condition = ext.unknown_condition;
      bt.setup_env = own_env;
      out.push_back(std::move(bt));
    }
  }
}

std::optional<BuildTarget> setup_target_for_build(const BuildTarget& bt, std::string_view setup_text,
                                                  const std::vector<std::pair<std::string, Fact<std::string>>>& env,
                                                  const std::vector<std::string>& env_unknown,
                                                  const MaybeFact<domain::CudaVersion>& cuda) {
  python::EvalContext ctx;
  ctx.linux = true;  // the toolkits and images cudalint judges are Linux ones
  if (cuda && !cuda->conditional) ctx.nvcc_release = fmt::format("{}.{}", cuda->value.major, cuda->value.minor);
  ctx.env = [&](std::string_view var) -> std::optional<std::optional<std::string>> {
    for (const auto& [k, v] : bt.setup_env)
      if (k == var) return std::optional<std::string>(v);
    for (const auto& [k, v] : env)
      if (k == var) return std::optional<std::optional<std::string>>(v.value);  // a build-arg's default too
    for (const auto& k : env_unknown)
      if (k == var) return std::nullopt;
    return std::optional<std::string>{};
  };
  python::ParseResult r = python::parse_setup_py(setup_text, &ctx);
  for (const auto& ext : r.setup.extensions) {
    if (ext.call_span.begin != bt.where.span.begin || !ext.nvcc_args.complete) continue;
    BuildTarget out = bt;
    out.own_archs.clear();
    out.archs_unknown.reset();
    out.reads_torch_arch_list = false;
    extension_flags(out, ext, bt.where.path);
    return out;
  }
  return std::nullopt;
}

std::shared_ptr<const cuda::CompileFlags> CmakeFlagsPool::with_defines(std::vector<std::string> defines) {
  auto it = by_defines_.find(defines);
  if (it == by_defines_.end()) {
    cuda::CompileFlags flags;
    flags.defines = defines;
    it = by_defines_.emplace(std::move(defines), std::make_shared<const cuda::CompileFlags>(std::move(flags))).first;
  }
  return it->second;
}

void add_cmake_targets(const cmake::Facts& f, const std::string& top_level, const std::string& top_abs,
                       std::optional<size_t> only_invocation, CmakeFlagsPool& pool, std::vector<BuildTarget>& out) {
  const std::string project_dir = parent_of(top_abs);
  // Directory-wide arch settings, for a project whose targets are not known.
  auto project_target = [&] {
    BuildTarget bt;
    bt.kind = BuildTarget::Kind::Project;
    bt.name = top_level;
    bt.where = f.cuda_language ? f.cuda_language->origin : Origin{top_level, {0, 0}};
    bt.dir = bt.project_dir = project_dir;
    bt.may_compile_under = {project_dir};
    bt.project_file = top_level;
    bt.only_invocation = only_invocation;
    const cmake::Value* list = nullptr;
    for (const auto& v : f.cmake_cuda_architectures)
      if (!v.conditional) list = &v;
    if (!list && !f.cmake_cuda_architectures.empty()) list = &f.cmake_cuda_architectures.back();
    if (list) {
      bool unreadable = false;
      bt.own_archs = facts::cmake_list_archs(list->value, list->origin, unreadable);
      if (list->conditional) bt.archs_unknown = "CMAKE_CUDA_ARCHITECTURES is set only on some paths";
      else if (bt.own_archs.empty()) bt.archs_unknown = fmt::format("CMAKE_CUDA_ARCHITECTURES is `{}`", list->value);
    }
    for (const auto& v : f.cuda_arch_flags)
      facts::merge_archs(bt.own_archs, facts::flag_archs(cuda::nvcc_flags(facts::split_words(v.value), project_dir), v.origin));
    if (bt.own_archs.empty() && !bt.archs_unknown && !f.torch_cuda_arch_list.empty()) {
      const cmake::Value& v = f.torch_cuda_arch_list.back();  // torch's CMake reads it
      bt.own_archs = facts::torch_list_archs(v.value, v.origin, "TORCH_CUDA_ARCH_LIST");
    }
    if (bt.own_archs.empty() && !bt.archs_unknown) bt.compiler_default_archs = true;
    return bt;
  };
  if (f.targets.empty()) {
    out.push_back(project_target());
    return;
  }
  for (const auto& t : f.targets) {
    BuildTarget bt;
    bt.kind = BuildTarget::Kind::CMakeTarget;
    bt.name = t.name;
    bt.where = t.origin;
    bt.dir = t.source_dir;
    bt.project_dir = project_dir;
    bt.project_file = top_level;
    bt.only_invocation = only_invocation;
    for (const auto& s : t.sources) bt.sources.push_back(s.path);
    for (const auto& g : t.globs) bt.source_globs.push_back({g.pattern, g.recurse});
    if (!t.sources_complete && t.globs.empty()) bt.may_compile_under = {t.source_dir};
    if (t.cuda_architectures_unknown) {
      bt.archs_unknown = "its CUDA_ARCHITECTURES comes from a value that is not known statically";
    } else if (t.cuda_architectures) {
      bool unreadable = false;
      bt.own_archs = facts::cmake_list_archs(t.cuda_architectures->value, t.cuda_architectures->origin, unreadable);
      if (t.cuda_architectures->conditional)
        bt.archs_unknown = "CMAKE_CUDA_ARCHITECTURES is set only on some paths when the target is made";
      else if (bt.own_archs.empty() && !(t.cuda_architectures->value == "OFF" || t.cuda_architectures->value == "0"))
        bt.archs_unknown = fmt::format("its CUDA_ARCHITECTURES is `{}`", t.cuda_architectures->value);
    }
    for (const auto& v : t.cuda_flags)
      facts::merge_archs(bt.own_archs, facts::flag_archs(cuda::nvcc_flags(facts::split_words(v.value), t.source_dir), v.origin));
    // Arch options on single sources add to the target's (CMake passes both to nvcc).
    for (const auto& s : t.sources) {
      std::vector<TargetArch> extra;
      for (const auto& o : s.compile_options)
        facts::merge_archs(extra, facts::flag_archs(cuda::nvcc_flags(facts::split_words(o.value), t.source_dir), o.origin));
      if (extra.empty()) continue;
      std::vector<TargetArch> all = bt.own_archs;
      facts::merge_archs(all, extra);
      bt.source_archs[s.path] = std::move(all);
    }
    // Unset, or OFF (CMake then passes no arch option): nvcc's default arch.
    const bool off = t.cuda_architectures && (t.cuda_architectures->value == "OFF" || t.cuda_architectures->value == "0");
    if (bt.own_archs.empty() && !bt.archs_unknown && (!t.cuda_architectures || off)) bt.compiler_default_archs = true;
    std::vector<std::string> defines;
    defines.reserve(t.compile_definitions.size());
    for (const auto& d : t.compile_definitions) defines.push_back(d.value);
    bt.flags = pool.with_defines(std::move(defines));
    out.push_back(std::move(bt));
  }
}

void add_compile_db_targets(const std::vector<std::pair<const SourceFile*, std::string>>& sources,
                            std::vector<BuildTarget>& out) {
  for (const auto& [f, abs_path] : sources) {
    if (f->kind != FileKind::CompileCommands) continue;
    const std::string dir = parent_of(abs_path);
    auto db = cuda::CompileDb::parse(f->text, dir);
    if (!db || db->empty()) continue;
    for (const auto& [g, src_abs] : sources) {
      if (g->kind != FileKind::CudaSource) continue;
      auto entry = db->own_entry(src_abs);
      if (!entry) continue;
      BuildTarget bt;
      bt.kind = BuildTarget::Kind::CompileDbEntry;
      bt.name = g->path;
      bt.where = {f->path, {static_cast<uint32_t>(entry->begin), static_cast<uint32_t>(entry->end)}};
      bt.dir = bt.project_dir = dir;
      bt.sources = {src_abs};
      bt.project_file = f->path;
      bt.own_archs = facts::flag_archs(entry->flags, bt.where);
      // No arch option at all: nvcc's default, which the toolkit decides.
      if (bt.own_archs.empty() && entry->flags.arch_options) bt.archs_unknown = "its arch option names no arch (`native`, `all`)";
      else if (bt.own_archs.empty()) bt.compiler_default_archs = true;
      bt.flags = std::make_shared<const cuda::CompileFlags>(std::move(entry->flags));
      out.push_back(std::move(bt));
    }
  }
}

void add_jit_targets(const ProjectModel& m, const PathOf& abs, const std::function<bool(const std::string&)>& exists,
                     const std::string& root, std::vector<BuildTarget>& out) {
  for (const auto& u : m.python_units) {
    if (!u.file || !python::may_have_jit_builds(u.file->text)) continue;
    const std::string file_abs = abs(u.file->path), dir = parent_of(file_abs);
    for (const auto& jb : python::find_jit_builds(u.file->text)) {
      BuildTarget bt;
      bt.kind = BuildTarget::Kind::JitLoad;
      bt.name = jb.name ? jb.name->value : "<unnamed>";
      bt.where = {u.file->path, jb.call_span};
      bt.dir = bt.project_dir = dir;
      bt.project_file = u.file->path;
      // Sources written relative to the working directory: where the script runs is unknown;
      // take the file's directory, else the root, whichever holds them.
      for (const auto& s : jb.sources.items) {
        std::string p = resolve(dir, s.value);
        if (!jb.sources_relative_to_file && !exists(p) && exists(resolve(root, s.value))) p = resolve(root, s.value);
        bt.sources.push_back(p);
      }
      cuda::CompileFlags flags = torch_builder_flags(bt.name, {}, jb.nvcc_args, dir);
      torch_builder_archs(bt, jb.nvcc_args, flags, u.file->path);
      bt.flags = std::make_shared<const cuda::CompileFlags>(std::move(flags));
      out.push_back(std::move(bt));
    }
  }
}

}  // namespace cudalint::model
