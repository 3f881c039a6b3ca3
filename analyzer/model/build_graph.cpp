// Builds the build graph: targets (build_targets.h), invocations (the developer's machine, each
// Dockerfile RUN that builds the project from the build context or configures its CMake
// project), and for each CUDA source the (target, invocation) pairs that compile it, with the
// archs that gives it.
#include "analyzer/model/build_graph_builder.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "analyzer/model/build_facts.h"
#include "analyzer/model/build_targets.h"

namespace cudalint::model {

namespace {

using facts::parent_of;
using facts::resolve;
using facts::under;

// Where a Dockerfile's build context lies in the tree, and what its COPYs put where.
struct ContextMap {
  std::string root;  // absolute
  struct Mount {
    std::string tree;   // absolute path in the tree
    std::string image;  // absolute path in the image
    size_t stage = 0, instruction = 0;
  };
  std::vector<Mount> mounts;

  // The tree path an image path comes from, through the last COPY before `instruction` of the
  // stage chain that covers it.
  std::optional<std::string> tree_of(const std::string& image, const std::vector<size_t>& chain, size_t stage,
                                     size_t instruction) const {
    std::optional<std::string> best;
    for (const auto& m : mounts) {
      if (std::find(chain.begin(), chain.end(), m.stage) == chain.end()) continue;
      if (m.stage == stage && m.instruction >= instruction) continue;
      if (image == m.image) {
        best = m.tree;
      } else if (under(image, m.image)) {
        best = m.tree + image.substr(m.image.size());
      } else if (under(m.image, image)) {
        // Files copied into the directory one by one (`COPY setup.py .`, `COPY csrc csrc`): the
        // directory is the tree's directory they all come from.
        const std::string rel = m.image.substr(image.size());
        if (m.tree.size() > rel.size() && m.tree.ends_with(rel)) best = m.tree.substr(0, m.tree.size() - rel.size());
      }
    }
    return best;
  }
};

class Builder {
 public:
  Builder(const ProjectModel& m, const GraphInputs& in) : m_(m), in_(in) {}

  BuildGraph run() {
    for (const auto& [f, abs] : *in_.sources) {
      abs_of_[f->path] = abs;
      display_of_[abs] = f->path;
      for (std::string d = parent_of(abs); dirs_.insert(d).second && d != "/";) d = parent_of(d);
    }
    Invocation local;
    local.command = "the developer's machine";
    local.cuda = in_.default_cuda;
    g_.invocations.push_back(std::move(local));
    local_torch(g_.invocations[0]);
    const PathOf abs = [this](const std::string& p) { return abs_path(p); };
    add_setup_targets(m_, abs, g_.targets);
    for (const auto& p : m_.cmake_projects)
      add_cmake_targets(p.facts, p.top_level, abs_path(p.top_level), std::nullopt, flags_pool_, g_.targets);
    add_compile_db_targets(*in_.sources, g_.targets);
    add_jit_targets(m_, abs, [this](const std::string& p) { return exists(p); }, in_.root, g_.targets);
    if (in_.target_archs_override) {
      // `--target-archs` / `target-archs` name the archs of sources no build file accounts for too.
      BuildTarget bt;
      bt.kind = BuildTarget::Kind::Project;
      bt.name = "the tree (target-archs)";
      bt.where = in_.target_archs_override->origin;
      bt.dir = bt.project_dir = in_.root.empty() ? "/" : in_.root;
      bt.may_compile_under = {"/"};
      bt.project_file = in_.target_archs_override->origin.path;
      g_.targets.push_back(std::move(bt));
    }
    docker_invocations();
    for (size_t t = 0; t < g_.targets.size(); ++t)
      if (!g_.targets[t].only_invocation && built_under(g_.targets[t], {}) != std::optional<bool>(false))
        g_.invocations[0].targets.push_back(t);
    assign_sources();
    number_lines();
    return std::move(g_);
  }

 private:
  const ProjectModel& m_;
  const GraphInputs& in_;
  mutable std::map<std::pair<size_t, size_t>, std::optional<BuildTarget>> per_build_;
  CmakeFlagsPool flags_pool_;
  BuildGraph g_;
  std::map<std::string, std::string> abs_of_, display_of_;
  std::set<std::string> dirs_;  // every directory holding a loaded file

  std::string display(const std::string& abs) const {
    auto it = display_of_.find(abs);
    if (it != display_of_.end()) return it->second;
    return in_.display_path ? in_.display_path(abs) : abs;
  }
  std::string abs_path(const std::string& display_path) const {
    auto it = abs_of_.find(display_path);
    return it == abs_of_.end() ? display_path : it->second;
  }
  // A loaded file or a directory holding one: what the model knows exists (it never reads the disk).
  bool exists(const std::string& p) const { return abs_of_.count(display(p)) || display_of_.count(p) || dirs_.count(p); }

  // Whether setup.py builds the extension under `env` (the invocation's variables; setup.py's
  // own settings first): false when an env test fails, nullopt when undecidable.
  static std::optional<bool> built_under(const BuildTarget& t, const std::vector<std::pair<std::string, Fact<std::string>>>& env) {
    if (t.env_conditions.empty() && !t.unknown_condition) return true;
    python::Extension e;
    e.env_conditions = t.env_conditions;
    e.unknown_condition = t.unknown_condition;
    return python::env_conditions_hold(e, [&](std::string_view var) -> std::optional<std::string> {
      for (const auto& [k, v] : t.setup_env)
        if (k == var) return v;
      for (const auto& [k, v] : env)
        if (k == var) return v.value;
      return std::nullopt;
    });
  }

  // The build context's root for a Dockerfile: the nearest directory at or above its own in
  // which every plain COPY source exists (`docker build -f docker/Dockerfile .` from the
  // repository root is the common case); with only `COPY . dest`, the nearest that holds a
  // build file; else the analysed root.
  std::string context_root(const SourceFile& file, const DockerBuild& build, Invocation::Kind kind) const {
    if (kind == Invocation::Kind::CiStep) {
      // The repository a pipeline checks out: the directory holding `.github/workflows/`, or
      // `.gitlab-ci.yml`.
      std::string d = is_gitlab_ci_path(file.path) ? parent_of(abs_path(file.path))
                                                   : parent_of(parent_of(parent_of(abs_path(file.path))));
      return d.empty() ? (in_.root.empty() ? "/" : in_.root) : d;
    }
    std::vector<std::string> plain;
    for (const auto& st : build.stages)
      for (const auto& c : st.copies)
        if (!c.from_stage)
          for (const auto& s : c.sources)
            if (s != "." && s != "./" && s.find_first_of("*?[$") == std::string::npos) plain.push_back(s);
    const std::string top = in_.root.empty() ? "/" : in_.root;
    for (std::string d = parent_of(abs_path(file.path));; d = parent_of(d)) {
      bool all = true;
      for (const auto& s : plain) all = all && exists(resolve(d, s));
      if (plain.empty())
        all = exists(d + "/setup.py") || exists(d + "/pyproject.toml") || exists(d + "/CMakeLists.txt");
      if (all) return d;
      if (d == top || d == "/") break;
    }
    return top;
  }

  ContextMap context_map(const SourceFile& file, const DockerBuild& build, Invocation::Kind kind) const {
    ContextMap cm;
    cm.root = context_root(file, build, kind);
    for (const auto& st : build.stages)
      for (const auto& c : st.copies) {
        if (c.from_stage || c.dest.empty()) continue;
        for (const auto& s : c.sources) {
          if (s.find_first_of("*?[$") != std::string::npos) continue;  // a pattern: files, not trees
          std::string tree = resolve(cm.root, s);
          bool dir = s == "." || s == "./" || s.ends_with("/") || dirs_.count(tree);
          std::string image = dir || !c.dest_is_directory ? c.dest : resolve(c.dest, tree.substr(tree.find_last_of('/') + 1));
          cm.mounts.push_back({tree, image, st.index, c.instruction});
        }
      }
    return cm;
  }

  static std::vector<size_t> chain_of(const DockerBuild& b, size_t stage) {
    std::vector<size_t> out;
    for (std::optional<size_t> s = stage; s && *s < b.stages.size() && out.size() <= b.stages.size(); s = b.stages[*s].parent)
      out.push_back(*s);
    return out;
  }

  void docker_invocations() {
    for (const auto& u : m_.dockerfiles) scripted_invocations(*u.file, u.build, Invocation::Kind::Dockerfile);
    for (const auto& u : m_.ci_workflows) scripted_invocations(*u.file, u.build, Invocation::Kind::CiStep);
  }

  // The invocations of a Dockerfile's stages, or of a CI workflow's jobs written as stages.
  void scripted_invocations(const SourceFile& file, const DockerBuild& build, Invocation::Kind kind) {
    {
      const ContextMap cm = context_map(file, build, kind);
      for (const auto& st : build.stages) {
        const std::vector<size_t> chain = chain_of(build, st.index);
        MaybeFact<domain::CudaVersion> cuda = effective_cuda(st);
        if (!cuda) cuda = in_.default_cuda;
        for (const auto& step : st.compile_steps) {
          if (!step.local_project) continue;
          Invocation inv;
          inv.kind = kind;
          inv.where = step.where;
          inv.command = step.command;
          inv.stage = st.name.empty() ? std::to_string(st.index) : st.name;
          if (step.arch_list) {
            inv.torch_arch_list = Fact<std::string>{step.arch_list->value, step.arch_list->origin, false};
            inv.torch_arch_list_known = step.arch_list->value_known;
          }
          inv.cuda = cuda;
          inv.env = step.env;
          inv.env_unknown = step.unknown_env;
          step_torch(build, st, step, inv);
          std::optional<std::string> dir;
          if (step.build_path) dir = cm.tree_of(*step.build_path, chain, st.index, step.instruction);
          if (dir) {
            inv.copies_known = true;
            for (const auto& mt : cm.mounts)
              if (std::find(chain.begin(), chain.end(), mt.stage) != chain.end() &&
                  (mt.stage != st.index || mt.instruction < step.instruction))
                inv.copied.push_back(mt.tree);
            bool has_build_file = false;
            for (size_t i = 0; i < g_.targets.size(); ++i) {
              const BuildTarget& t = g_.targets[i];
              if (t.project_dir != *dir || t.only_invocation || t.kind == BuildTarget::Kind::CompileDbEntry ||
                  t.kind == BuildTarget::Kind::JitLoad)
                continue;
              has_build_file = true;
              if (built_under(t, step.env) != std::optional<bool>(false)) inv.targets.push_back(i);
            }
            has_build_file = has_build_file || exists(*dir + "/setup.py") || exists(*dir + "/pyproject.toml") ||
                             exists(*dir + "/CMakeLists.txt");
            if (!has_build_file) inv.targets.push_back(context_project(*dir, step.where, file.path));
          }
          // Without a path from the build context (a clone, a package), none of the tree's
          // targets: what it builds is not here.
          g_.invocations.push_back(std::move(inv));
        }
        for (const auto& step : st.cmake_steps) cmake_invocation(cm, chain, st, step, cuda, kind);
      }
    }
  }

  // The one exact torch pin of the project's requirements files and pyproject.toml: what the
  // developer installs. Several different pins: unknown.
  void local_torch(Invocation& inv) const {
    for (const auto& pin : m_.torch_pins) {
      if (pin.in_dockerfile) continue;
      if (inv.torch && inv.torch->value.str() != pin.version.str()) {
        inv.torch.reset();
        inv.torch_cuda_variant.reset();
        return;
      }
      if (!inv.torch) inv.torch = Fact<domain::TorchVersion>{pin.version, pin.origin, false};
      if (pin.cuda_variant) inv.torch_cuda_variant = pin.cuda_variant;
    }
  }

  // The torch a Dockerfile step builds against (CompileStep::torch_install), else the base image's.
  static void step_torch(const DockerBuild& b, const DockerStage& st, const CompileStep& step, Invocation& inv) {
    if (step.torch_install && step.torch_install_stage && *step.torch_install_stage < b.stages.size()) {
      const DockerStage& owner = b.stages[*step.torch_install_stage];
      if (*step.torch_install >= owner.torch_installs.size()) return;
      const TorchInstall& ti = owner.torch_installs[*step.torch_install];
      if (!ti.pinned) return;
      inv.torch = Fact<domain::TorchVersion>{*ti.pinned, ti.where, false};
      if (ti.variant && ti.variant->cuda) inv.torch_cuda_variant = ti.variant->cuda;
      return;
    }
    inv.torch = st.image_torch;
    if (st.cuda && st.image_torch) inv.torch_cuda_variant = st.cuda->value;  // the image's own CUDA
  }

  // A project the build context holds without build files in the tree: it may compile any
  // CUDA source under its directory, through torch's builder.
  size_t context_project(const std::string& dir, const Origin& where, const std::string& dockerfile) {
    for (size_t i = 0; i < g_.targets.size(); ++i)
      if (g_.targets[i].kind == BuildTarget::Kind::Project && g_.targets[i].project_dir == dir &&
          g_.targets[i].reads_torch_arch_list)
        return i;
    BuildTarget bt;
    bt.kind = BuildTarget::Kind::Project;
    bt.name = "the build context";
    bt.where = where;
    bt.dir = bt.project_dir = dir;
    bt.may_compile_under = {dir};
    bt.reads_torch_arch_list = true;
    bt.project_file = dockerfile;
    bt.only_invocation = g_.invocations.size();
    g_.targets.push_back(std::move(bt));
    return g_.targets.size() - 1;
  }

  // `cmake -S dir -D...` in a RUN: the tree's CMake project at that directory, evaluated again
  // with the command line's cache entries, built by this invocation only.
  void cmake_invocation(const ContextMap& cm, const std::vector<size_t>& chain,
                        const DockerStage& st, const CMakeStep& step, const MaybeFact<domain::CudaVersion>& cuda,
                        Invocation::Kind kind) {
    if (step.source_dir.empty() || !in_.cmake_loader) return;
    auto dir = cm.tree_of(step.source_dir, chain, st.index, step.instruction);
    if (!dir || !exists(*dir + "/CMakeLists.txt")) return;
    Invocation inv;
    inv.kind = kind;
    inv.where = step.where;
    inv.command = step.command;
    inv.stage = st.name.empty() ? std::to_string(st.index) : st.name;
    inv.cuda = cuda;
    inv.copies_known = true;
    for (const auto& mt : cm.mounts)
      if (std::find(chain.begin(), chain.end(), mt.stage) != chain.end() &&
          (mt.stage != st.index || mt.instruction < step.instruction))
        inv.copied.push_back(mt.tree);
    cmake::EvalOptions opts;
    for (const auto& [name, value] : step.defines) opts.cache_definitions[name] = {value.value, value.origin, value.conditional};
    if (cuda && !cuda->conditional) opts.cuda_default_architectures = std::to_string(domain::nvcc_default_arch(cuda->value).sm());
    const std::string top = *dir + "/CMakeLists.txt";
    cmake::EvalResult r = cmake::evaluate(top, in_.cmake_loader, in_.display_path, opts);
    const size_t first = g_.targets.size();
    add_cmake_targets(r.facts, display(top), top, g_.invocations.size(), flags_pool_, g_.targets);
    for (size_t i = first; i < g_.targets.size(); ++i) inv.targets.push_back(i);
    g_.invocations.push_back(std::move(inv));
  }

  // The archs `t` gets from `inv` for `src`, or why they are decided at build time.
  // The target as `inv` builds it: setup.py evaluated again with the invocation's environment
  // and toolkit when its flags are computed, once per (target, invocation).
  const BuildTarget& target_for(size_t ti, size_t ii) const {
    const BuildTarget& t = g_.targets[ti];
    if (!t.flags_per_build) return t;
    auto [it, fresh] = per_build_.try_emplace({ti, ii});
    if (fresh) {
      for (const auto& u : m_.setup_pys)
        if (u.file->path == t.project_file)
          it->second = setup_target_for_build(t, u.file->text, g_.invocations[ii].env, g_.invocations[ii].env_unknown,
                                              g_.invocations[ii].cuda);
    }
    return it->second ? *it->second : t;
  }

  SourceBuild resolve_archs(size_t ti, size_t ii, const std::string& src) const {
    const BuildTarget& t = target_for(ti, ii);
    const Invocation& inv = g_.invocations[ii];
    SourceBuild b;
    b.target = ti;
    b.invocation = ii;
    b.cuda = inv.cuda;
    if (in_.target_archs_override) {
      const Origin& o = in_.target_archs_override->origin;
      b.archs = facts::torch_list_archs(in_.target_archs_override->value, o,
                                        o.path == "<command line>" ? "--target-archs" : "target-archs");
      return b;
    }
    if (auto it = t.source_archs.find(src); it != t.source_archs.end()) {
      b.archs = it->second;
      return b;
    }
    if (!t.own_archs.empty()) {
      b.archs = t.own_archs;
      return b;
    }
    if (t.archs_unknown) {
      b.archs_unknown = t.archs_unknown;
      return b;
    }
    if (t.compiler_default_archs) {
      const bool cmake = t.kind != BuildTarget::Kind::CompileDbEntry;
      if (!inv.cuda) {
        b.archs_unknown = cmake ? "CMAKE_CUDA_ARCHITECTURES is not set: CMake takes the compiler's default, and the "
                                  "toolkit is not known"
                                : "its command names no arch: nvcc's default, and the toolkit is not known";
        return b;
      }
      // nvcc's default arch (CMake, under CMP0104, caches the same); SASS and PTX embedded.
      b.archs.push_back({domain::nvcc_default_arch(inv.cuda->value), inv.cuda->origin,
                         fmt::format("{} default for CUDA {}", cmake ? "CMake's (no CMAKE_CUDA_ARCHITECTURES)" : "nvcc's",
                                     inv.cuda->value.str()),
                         0, true});
      return b;
    }
    if (!t.reads_torch_arch_list) {
      b.archs_unknown = "its build names no arch";
      return b;
    }
    // setup.py's own `os.environ["TORCH_CUDA_ARCH_LIST"] = ...` beats the environment.
    const auto& own = t.setup_arch_list;
    if (own && !own->conditional && !t.setup_arch_list_is_default) {
      b.archs = facts::torch_list_archs(own->value, own->origin, "TORCH_CUDA_ARCH_LIST");
      if (b.archs.empty()) b.archs_unknown = fmt::format("setup.py sets TORCH_CUDA_ARCH_LIST to `{}`", own->value);
      return b;
    }
    if (inv.torch_arch_list) {
      if (!inv.torch_arch_list_known) {
        b.archs_unknown = "TORCH_CUDA_ARCH_LIST comes from a build argument without a default";
        return b;
      }
      b.archs = facts::torch_list_archs(inv.torch_arch_list->value, inv.torch_arch_list->origin, "TORCH_CUDA_ARCH_LIST");
      if (b.archs.empty()) b.archs_unknown = "TORCH_CUDA_ARCH_LIST names the visible GPUs";
      return b;
    }
    // An unconditional setdefault fills the unset list; a conditional one (only when no GPU is
    // visible, say) holds in `docker build`, which sees none, and is unknown elsewhere.
    if (own && (!own->conditional || inv.kind == Invocation::Kind::Dockerfile)) {
      b.archs = facts::torch_list_archs(own->value, own->origin, "TORCH_CUDA_ARCH_LIST");
      if (!b.archs.empty()) return b;
    }
    b.archs_unknown = inv.kind == Invocation::Kind::Local
                          ? "TORCH_CUDA_ARCH_LIST is not set: torch builds for the GPUs visible at build time"
                      : inv.kind == Invocation::Kind::CiStep
                          ? "TORCH_CUDA_ARCH_LIST is not set: torch builds for the GPUs the CI runner has"
                          : "TORCH_CUDA_ARCH_LIST is not set and `docker build` sees no GPU";
    return b;
  }

  // Lines for messages ("TORCH_CUDA_ARCH_LIST at Dockerfile:12").
  void number_lines() {
    std::map<std::string, const SourceFile*> files;
    for (const auto& [f, a] : *in_.sources) files[f->path] = f;
    auto number = [&](TargetArch& t) {
      if (auto it = files.find(t.origin.path); it != files.end()) t.line = it->second->lines.line_of(t.origin.span.begin);
    };
    for (auto& [path, builds] : g_.sources)
      for (auto& b : builds)
        for (auto& t : b.archs) number(t);
  }

  // Which targets list each source, and the distinct glob patterns with the targets that have
  // them: made once for every source. A project configured by many invocations has thousands
  // of targets, mostly the same lists and patterns again (whisper.cpp: 14,019 targets).
  struct ClaimIndex {
    std::map<std::string, std::vector<size_t>> listed;
    std::vector<std::pair<facts::SourceGlob, std::vector<size_t>>> globs;
  };
  ClaimIndex claim_index() const {
    ClaimIndex ix;
    std::map<std::pair<std::string, bool>, size_t> glob_at;
    for (size_t i = 0; i < g_.targets.size(); ++i) {
      for (const auto& s : g_.targets[i].sources) {
        std::vector<size_t>& l = ix.listed[s];
        if (l.empty() || l.back() != i) l.push_back(i);
      }
      for (const auto& gl : g_.targets[i].source_globs) {
        auto [it, fresh] = glob_at.try_emplace({gl.pattern, gl.recurse}, ix.globs.size());
        if (fresh) ix.globs.push_back({{gl.pattern, gl.recurse}, {}});
        std::vector<size_t>& l = ix.globs[it->second].second;
        if (l.empty() || l.back() != i) l.push_back(i);
      }
    }
    return ix;
  }

  // The targets that compile `src` (ascending): those that list it, else those whose globs match
  // it, else those with the deepest directory that may compile it; a compile_commands.json entry
  // (what the build generated for the file) decides alone.
  std::vector<size_t> claims_of(const std::string& src, const ClaimIndex& ix) const {
    if (auto it = ix.listed.find(src); it != ix.listed.end()) return it->second;
    std::vector<size_t> claims;
    for (const auto& [glob, targets] : ix.globs)
      if (facts::glob_matches(glob, src)) claims.insert(claims.end(), targets.begin(), targets.end());
    std::sort(claims.begin(), claims.end());
    claims.erase(std::unique(claims.begin(), claims.end()), claims.end());
    if (claims.empty()) {
      size_t depth = 0;
      for (size_t i = 0; i < g_.targets.size(); ++i)
        for (const auto& d : g_.targets[i].may_compile_under)
          if (under(src, d)) {
            if (d.size() > depth) claims.clear(), depth = d.size();
            if (d.size() == depth) claims.push_back(i);
          }
    }
    return claims;
  }

  // A compile_commands.json entry is what the build generated for the file: it decides alone,
  // unless a build file's target gives the same archs (then that target speaks for them: its
  // origin is a line the user edits, not a generated one).
  void decide_by_compile_db(const std::string& src, std::vector<size_t>& claims) const {
    auto is_db = [&](size_t i) { return g_.targets[i].kind == BuildTarget::Kind::CompileDbEntry; };
    auto db = std::find_if(claims.begin(), claims.end(), is_db);
    if (db == claims.end()) return;
    auto names = [&](size_t ti) {
      std::set<std::string> out;
      for (const auto& a : resolve_archs(ti, 0, src).archs) out.insert(a.arch.sm_name());
      return out;
    };
    const auto want = names(*db);
    std::vector<size_t> same;
    for (size_t i : claims)
      if (!is_db(i) && !want.empty() && names(i) == want) same.push_back(i);
    claims = same.empty() ? std::vector<size_t>{*db} : same;
  }

  void assign_sources() {
    // Every CUDA source in the tree, and every source a target declares (present or not).
    std::set<std::string> all;
    for (const auto& [f, a] : *in_.sources)
      if (f->kind == FileKind::CudaSource) all.insert(a);
    for (const auto& t : g_.targets)
      for (const auto& s : t.sources)
        if (s.ends_with(".cu") || s.ends_with(".cuh")) all.insert(s);
    const ClaimIndex ix = claim_index();
    for (const auto& src : all) {
      std::vector<size_t> claims = claims_of(src, ix);
      decide_by_compile_db(src, claims);
      std::vector<SourceBuild> builds;
      for (size_t ii = 0; ii < g_.invocations.size(); ++ii) {
        const Invocation& inv = g_.invocations[ii];
        // A Dockerfile build compiles only what its COPYs brought into the image.
        if (inv.copies_known &&
            std::none_of(inv.copied.begin(), inv.copied.end(), [&](const std::string& c) { return c == src || under(src, c); }))
          continue;
        for (size_t ti : inv.targets)
          if (std::binary_search(claims.begin(), claims.end(), ti)) builds.push_back(resolve_archs(ti, ii, src));
      }
      if (!builds.empty()) g_.sources[display(src)] = std::move(builds);
    }
  }
};

}  // namespace

std::vector<TargetArch> archs_of(const BuildGraph& g, const std::string& path, bool& unknown) {
  std::vector<TargetArch> out;
  if (const auto* builds = g.builds_of(path))
    for (const auto& b : *builds)
      for (const auto& t : b.archs)
        if (std::none_of(out.begin(), out.end(), [&](const TargetArch& o) { return o.arch == t.arch; })) out.push_back(t);
  unknown = out.empty();
  return out;
}

MaybeFact<domain::CudaVersion> oldest_cuda(const BuildGraph& g, const std::string& path) {
  MaybeFact<domain::CudaVersion> out;
  if (const auto* builds = g.builds_of(path))
    for (const auto& b : *builds)
      if (b.cuda && (!out || b.cuda->value < out->value)) out = b.cuda;
  return out;
}

std::string arch_name(const TargetArch& t) {
  return t.sass ? t.arch.sm_name() : "compute_" + t.arch.sm_name().substr(3);
}

BuildGraph build_graph(const ProjectModel& m, const GraphInputs& in) { return Builder(m, in).run(); }

}  // namespace cudalint::model
