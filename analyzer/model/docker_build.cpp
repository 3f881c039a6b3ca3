#include "analyzer/model/docker_build.h"

#include <algorithm>

#include "analyzer/model/docker_invocation.h"

namespace cudalint::model {

namespace {

using docker::Dockerfile;
using docker::Environment;
using docker::KeyValue;
using docker::ShellCommand;

constexpr std::string_view kArchVar = "TORCH_CUDA_ARCH_LIST";

bool starts_with_any(std::string_view s, std::initializer_list<std::string_view> ps) {
  for (auto p : ps)
    if (s.starts_with(p)) return true;
  return false;
}

// Whether `v` appears byte for byte in `raw` (plain, or inside one pair of quotes), and where.
bool locate_value(const std::string& raw, const std::string& v, uint32_t raw_begin, uint32_t& begin) {
  if (raw == v) { begin = raw_begin; return true; }
  if (raw.size() == v.size() + 2 && (raw[0] == '"' || raw[0] == '\'') && raw.back() == raw[0] &&
      raw.compare(1, v.size(), v) == 0) {
    begin = raw_begin + 1;
    return true;
  }
  return false;
}

ArchSetting setting_from_pair(const std::string& path, const KeyValue& kv, const std::string& expanded,
                              bool known, ArchSetting::Kind kind) {
  ArchSetting s;
  s.value = expanded;
  s.value_known = known;
  s.kind = kind;
  s.origin = {path, kv.has_value ? kv.value_span : kv.key_span};
  uint32_t begin = 0;
  if (kv.has_value && known && locate_value(kv.raw_value, expanded, kv.value_span.begin, begin)) {
    s.contiguous = true;
    s.quoted = begin != kv.value_span.begin;
    s.origin.span = {begin, begin + static_cast<uint32_t>(expanded.size())};
  }
  return s;
}

// The ENV/ARG pair that defined a variable, to recover its raw text and span.
const KeyValue* defining_pair(const Dockerfile& df, const docker::Var& var, std::string_view name) {
  if (var.instruction >= df.instructions.size()) return nullptr;
  for (const auto& kv : df.instructions[var.instruction].pairs)
    if (kv.key == name) return &kv;
  return nullptr;
}

// The value of an ENV/ARG/assignment pair after expansion; quotes were removed by the parser.
std::string expanded_value(const KeyValue& kv, const Environment& env, char escape, bool& known) {
  known = true;
  if (kv.value.find('$') == std::string::npos) return kv.value;
  return docker::expand(kv.raw_value, env, escape, known);  // handles the quotes itself
}

std::optional<ArchSetting> setting_from_env(const std::string& path, const Dockerfile& df,
                                            const Environment& env) {
  auto it = env.find(std::string(kArchVar));
  if (it == env.end()) return std::nullopt;
  const docker::Var& var = it->second;
  if (const KeyValue* kv = defining_pair(df, var, kArchVar)) {
    // A redeclared `ARG X` without value takes the global default: use that pair.
    return setting_from_pair(path, *kv, var.value, var.known,
                             var.from_arg ? ArchSetting::Kind::Arg : ArchSetting::Kind::Env);
  }
  ArchSetting s;
  s.value = var.value;
  s.value_known = var.known;
  s.kind = var.from_arg ? ArchSetting::Kind::Arg : ArchSetting::Kind::Env;
  s.origin = {path, var.value_span.end > var.value_span.begin ? var.value_span : var.key_span};
  return s;
}

bool is_local_or_vcs_target(std::string_view w) {
  if (w.starts_with("git+") || w.starts_with("hg+")) return true;
  if (w.ends_with(']'))  // `.[dev]`: extras
    if (auto b = w.rfind('['); b != std::string_view::npos) w = w.substr(0, b);
  if (w.find("://") != std::string_view::npos) return false;  // URLs of wheels/sdists
  if (w.ends_with(".whl")) return false;                       // prebuilt: nothing compiles
  if (w == "." || w == ".." || starts_with_any(w, {"./", "../", "/"})) return true;
  // `$SRC/ext`, `${ROOT}/pkg`: a directory held in a variable.
  if (w.starts_with('$') && w.find('/') != std::string_view::npos) return true;
  return w.ends_with(".tar.gz") || w.ends_with(".zip");  // local sdists build from source
}

// Packages whose installation always compiles CUDA code from source (their PyPI releases are
// sdists, or they are installed from git): flash-attention's own README asks for MAX_JOBS.
constexpr std::string_view kCudaSourcePackages[] = {"flash-attn", "flash_attn", "causal-conv1d", "causal_conv1d",
                                                    "mamba-ssm", "mamba_ssm", "apex", "pytorch3d", "detectron2",
                                                    "torch-scatter", "torch_scatter", "torch-sparse", "torch_sparse",
                                                    "gsplat", "tinycudann"};

std::string_view requirement_name(std::string_view req) {
  size_t e = req.find_first_of("=<>!~[;@ ");
  return req.substr(0, e);
}

bool is_cuda_source_package(std::string_view req) {
  std::string_view name = requirement_name(req);
  for (auto p : kCudaSourcePackages)
    if (name == p) return true;
  // git URLs of the same projects
  if (req.starts_with("git+"))
    for (std::string_view repo : {"flash-attention", "apex", "pytorch3d", "detectron2", "causal-conv1d", "mamba",
                                  "tiny-cuda-nn", "xformers", "gsplat"})
      if (req.find(repo) != std::string_view::npos) return true;
  return false;
}

struct CompileCommand {
  std::string description;
  bool known_cuda_package = false;
  bool local_project = false;
  bool isolated = false;  // a PEP 517 front-end that builds in an isolated environment
  // The local directory (or sdist) built, as the command gives it: "." for `setup.py` in cwd.
  std::optional<std::string> target;
};

// `.[dev]` -> `.`: pip's extras are not part of the path.
std::string strip_extras(std::string_view w) {
  if (w.ends_with(']'))
    if (auto b = w.rfind('['); b != std::string_view::npos) w = w.substr(0, b);
  return std::string(w);
}

// The directory of a setup.py path ("setup.py" -> ".", "/src/setup.py" -> "/src").
std::string script_dir(std::string_view w) {
  auto slash = w.rfind('/');
  if (slash == std::string_view::npos) return ".";
  return slash == 0 ? "/" : std::string(w.substr(0, slash));
}

// A RUN word that installs a CUDA toolkit with nvcc (conda, apt or pip packages).
bool installs_toolkit_word(std::string_view w) {
  return w.starts_with("cuda-toolkit") || w.starts_with("cuda-nvcc") || w.starts_with("nvidia-cuda-nvcc") ||
         w.find("::cuda-toolkit") != std::string_view::npos || w.find("::cuda-nvcc") != std::string_view::npos ||
         w == "cuda" || w.starts_with("cuda=") || w.starts_with("cuda-12") || w.starts_with("cuda-11") ||
         w.starts_with("cuda-13");
}

// Returns a description when the command builds a Python extension from source.
std::optional<CompileCommand> compile_command(const std::vector<docker::ShellWord>& words) {
  std::vector<std::string_view> w;
  for (const auto& sw : words) w.push_back(sw.text);
  size_t i = 0;
  // Skip wrappers that run the rest of the line.
  while (i < w.size() && (w[i] == "env" || w[i] == "sudo" || w[i] == "time" || w[i] == "exec")) ++i;
  if (i >= w.size()) return std::nullopt;
  auto is_python = [](std::string_view s) {
    return s == "python" || s == "python3" || s.starts_with("python3.") || s.ends_with("/python") ||
           s.ends_with("/python3");
  };
  auto is_pip = [](std::string_view s) {
    return s == "pip" || s == "pip3" || s.ends_with("/pip") || s.ends_with("/pip3");
  };
  size_t cmd = i;
  bool pip = false;
  if (is_pip(w[i])) {
    pip = true;
    ++i;
  } else if (w[i] == "uv" && i + 1 < w.size() && w[i + 1] == "pip") {
    pip = true;
    i += 2;
  } else if (is_python(w[i])) {
    ++i;
    while (i < w.size() && w[i].starts_with("-") && w[i] != "-m") ++i;
    if (i + 1 < w.size() && w[i] == "-m" && (w[i + 1] == "pip")) {
      pip = true;
      i += 2;
    } else if (i + 1 < w.size() && w[i] == "-m" && w[i + 1] == "build") {
      bool iso = std::none_of(w.begin() + i, w.end(), [](std::string_view a) { return a == "--no-isolation" || a == "-n"; });
      // `python -m build [srcdir]`: options with a separate value skip it.
      std::string srcdir = ".";
      for (size_t k = i + 2; k < w.size(); ++k) {
        if (w[k] == "-o" || w[k] == "--outdir" || w[k] == "-C" || w[k] == "--config-setting" || w[k] == "--installer") {
          ++k;
          continue;
        }
        if (w[k].starts_with("-")) continue;
        srcdir = std::string(w[k]);
        break;
      }
      return CompileCommand{std::string(w[cmd]) + " -m build", false, true, iso, srcdir};
    } else if (i < w.size() && (w[i] == "setup.py" || w[i].ends_with("/setup.py"))) {
      for (size_t k = i + 1; k < w.size(); ++k)
        if (w[k] == "build" || w[k] == "build_ext" || w[k] == "install" || w[k] == "develop" ||
            w[k] == "bdist_wheel")
          return CompileCommand{std::string(w[cmd]) + " " + std::string(w[i]) + " " + std::string(w[k]), false, true,
                                false, script_dir(w[i])};
      return std::nullopt;
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (!pip) return std::nullopt;
  while (i < w.size() && w[i].starts_with("-")) ++i;  // global pip options
  if (i >= w.size() || (w[i] != "install" && w[i] != "wheel")) return std::nullopt;
  bool iso = std::none_of(w.begin() + cmd, w.end(), [](std::string_view a) { return a == "--no-build-isolation"; });
  // "pip install", "python -m pip install", "uv pip wheel": the words up to the subcommand.
  std::string sub;
  for (size_t k = cmd + 1; k <= i; ++k) sub += (k > cmd + 1 ? " " : "") + std::string(w[k]);
  for (size_t k = i + 1; k < w.size(); ++k) {
    std::string_view a = w[k];
    if (a == "-r" || a == "--requirement" || a == "-c" || a == "--constraint" || a == "-i" ||
        a == "--index-url" || a == "--extra-index-url" || a == "-f" || a == "--find-links" ||
        a == "-t" || a == "--target" || a == "--prefix" || a == "--root") {
      ++k;  // option with a separate value
      continue;
    }
    if (a == "-e" || a == "--editable") {
      if (k + 1 < w.size()) {
        bool pkg = is_cuda_source_package(w[k + 1]);
        bool vcs = w[k + 1].find("://") != std::string_view::npos;
        std::optional<std::string> target;
        if (!pkg && !vcs && !w[k + 1].starts_with("git+") && !w[k + 1].starts_with("hg+"))
          target = strip_extras(w[k + 1]);
        return CompileCommand{std::string(w[cmd]) + " " + sub + " -e " + std::string(w[k + 1]), pkg, !pkg && !vcs, iso,
                              target};
      }
      continue;
    }
    if (a.starts_with("-")) continue;
    if (is_cuda_source_package(a))
      return CompileCommand{std::string(w[cmd]) + " " + sub + " " + std::string(a), true, false, iso, std::nullopt};
    // A git URL of an unknown project may be pure Python: only local paths count as the project.
    if (is_local_or_vcs_target(a) && !a.starts_with("git+") && !a.starts_with("hg+"))
      return CompileCommand{std::string(w[cmd]) + " " + sub + " " + std::string(a), false, true, iso, strip_extras(a)};
  }
  return std::nullopt;
}

docker::MappedText heredoc_text(const docker::Heredoc& h) {
  docker::MappedText m;
  m.text = h.body;
  m.offsets.reserve(h.body.size() + 1);
  // Exact for unindented bodies; `<<-` bodies are shifted by the stripped tabs.
  for (size_t i = 0; i <= h.body.size(); ++i)
    m.offsets.push_back(std::min<uint32_t>(h.body_span.begin + static_cast<uint32_t>(i), h.body_span.end));
  return m;
}

// Records `pip install torch...` requirements with their pin and CUDA variant.
void scan_pip_torch(const std::string& path, const std::vector<docker::ShellWord>& words, DockerStage& stage) {
  size_t i = 0;
  bool pip = false;
  for (; i < words.size(); ++i) {
    std::string_view t = words[i].text;
    if (t == "pip" || t == "pip3" || t.ends_with("/pip") || t.ends_with("/pip3")) { pip = true; break; }
    if (t == "-m" && i + 1 < words.size() && words[i + 1].text == "pip") { pip = true; ++i; break; }
  }
  if (!pip || ++i >= words.size() || words[i].text != "install") return;
  std::optional<domain::IndexVariant> variant;
  std::optional<Origin> variant_origin;
  std::vector<TorchInstall> found;
  for (size_t k = i + 1; k < words.size(); ++k) {
    std::string_view a = words[k].text;
    std::string_view url;
    Span url_span = words[k].span;
    if ((a == "--index-url" || a == "-i" || a == "--extra-index-url") && k + 1 < words.size()) {
      url = words[k + 1].text;
      url_span = words[k + 1].span;
      ++k;
    } else if (a.starts_with("--index-url=") || a.starts_with("--extra-index-url=")) {
      url = a.substr(a.find('=') + 1);
    }
    if (!url.empty()) {
      if (auto v = domain::variant_from_index_url(url)) {
        variant = v;
        variant_origin = Origin{path, url_span};
      }
      continue;
    }
    if (a.starts_with("-")) continue;
    if (requirement_name(a) != "torch") continue;
    TorchInstall ti;
    ti.where = {path, words[k].span};
    ti.spec = std::string(a);
    if (auto eq = a.find("=="); eq != std::string_view::npos && a.find_first_of("<>!~,*", eq) == std::string_view::npos)
      ti.pinned = domain::parse_torch_version(a.substr(eq + 2));
    if (ti.pinned && !ti.pinned->local.empty()) {
      if (ti.pinned->local == "cpu") ti.variant = domain::IndexVariant{std::nullopt, true};
      else if (auto cv = domain::parse_cuda_version(ti.pinned->local)) ti.variant = domain::IndexVariant{cv, false};
      if (ti.variant) ti.variant_origin = ti.where;
    }
    found.push_back(std::move(ti));
  }
  for (auto& ti : found) {
    if (!ti.variant && variant) {
      ti.variant = variant;
      ti.variant_origin = variant_origin;
    }
    stage.torch_installs.push_back(std::move(ti));
  }
}

// What a RUN needs besides the front-end's environment: the stage's environment with Docker's
// exact scoping, its working directory, and the torch installed by the stages it is built on.
struct RunContext {
  std::string_view file_text;
  const invocation::StageEnv& exact_env;
  const std::string& workdir;
  std::optional<std::pair<size_t, size_t>> inherited_torch;  // (stage, index into its torch_installs)
  size_t& env_budget;                                         // env entries left to write for the file
};

void scan_run(const std::string& path, const Dockerfile& df, size_t idx, const Environment& env,
              DockerStage& stage, RunContext& ctx) {
  const docker::Instruction& ins = df.instructions[idx];
  std::vector<std::vector<ShellCommand>> scripts;
  if (ins.json_form) {
    ShellCommand c;
    for (size_t k = 0; k < ins.json_args.size(); ++k)
      c.words.push_back({ins.json_args[k], k < ins.json_arg_spans.size() ? ins.json_arg_spans[k] : ins.args.span_of(0, ins.args.text.size())});
    scripts.push_back({c});
  } else {
    scripts.push_back(docker::split_shell(ins.args));
  }
  for (const auto& h : ins.heredocs) scripts.push_back(docker::split_shell(heredoc_text(h)));

  for (const auto& script : scripts) {
    invocation::ShellSession sh(path, ctx.exact_env, ctx.workdir);
    // `export X=...` and `X=... cmd` both make X visible; exports persist for the RUN.
    std::optional<ArchSetting> exported;
    std::optional<Fact<std::string>> exported_jobs;
    bool exported_force = false;
    for (const auto& c : script) {
      std::optional<Fact<std::string>> inline_jobs;
      std::optional<ArchSetting> inline_arch;
      bool inline_force = false;
      for (const auto& kv : c.assignments) {
        if (kv.key == kArchVar) {
          bool known = true;
          std::string v = expanded_value(kv, env, df.escape, known);
          ArchSetting s = setting_from_pair(path, kv, v, known, ArchSetting::Kind::Inline);
          stage.arch_settings.push_back(s);
          if (c.words.empty() || c.words[0].text == "export") exported = s; else inline_arch = s;
        }
        if (kv.key == "FORCE_CUDA" && kv.value == "1") {
          if (c.words.empty() || c.words[0].text == "export") exported_force = true; else inline_force = true;
        }
      }
      for (const auto& wd : c.words) {
        std::string_view t = wd.text;
        if (t == "-arch=native" || t == "--gpu-architecture=native" || t == "-DCMAKE_CUDA_ARCHITECTURES=native" ||
            t == "-DCMAKE_CUDA_ARCHITECTURES:STRING=native")
          stage.native_arch_flags.push_back({path, wd.span});
      }
      for (const auto& kv : c.assignments) {
        if (kv.key == "MAX_JOBS") {
          Fact<std::string> mj{kv.value, {path, kv.has_value ? kv.value_span : kv.key_span}, false};
          // The shell expands `$X` / `$(nproc)` at run time: only literal values are facts.
          if (kv.value.find_first_of("$`") == std::string::npos) stage.max_jobs_settings.push_back(mj);
          if (c.words.empty() || c.words[0].text == "export") exported_jobs = mj; else inline_jobs = mj;
        }
        if (kv.key == "TORCH_DONT_CHECK_COMPILER_ABI" && !kv.value.empty() && kv.value != "0")
          stage.safety_off.push_back({{path, kv.key_span}, "TORCH_DONT_CHECK_COMPILER_ABI=" + kv.value});
      }
      size_t torch_before = stage.torch_installs.size();
      scan_pip_torch(path, c.words, stage);
      if (auto tk = invocation::toolkit_from_command(path, c.words)) stage.installed_cuda = std::move(tk);
      if (auto cm = invocation::cmake_step(path, ctx.file_text, idx, c, sh)) {
        sh.visible_env(c, cm->env, cm->unknown_env, ctx.env_budget);
        stage.cmake_steps.push_back(std::move(*cm));
      }
      for (const auto& wd : c.words)
        if (!stage.installs_toolkit && installs_toolkit_word(wd.text) && !c.words.empty() &&
            (c.words[0].text == "conda" || c.words[0].text == "mamba" || c.words[0].text == "micromamba" ||
             c.words[0].text == "apt-get" || c.words[0].text == "apt" || c.words[0].text == "pip" ||
             c.words[0].text == "pip3"))
          stage.installs_toolkit = Origin{path, wd.span};
      for (const auto& wd : c.words)
        if (wd.text.find("-allow-unsupported-compiler") != std::string::npos)
          stage.safety_off.push_back({{path, wd.span}, "-allow-unsupported-compiler"});
      auto desc = compile_command(c.words);
      if (!desc) {
        sh.after(c);
        continue;
      }
      CompileStep step;
      step.instruction = idx;
      Span first = c.words.front().span, last = c.words.back().span;
      step.where = {path, {first.begin, std::max(first.end, last.end)}};
      step.command = desc->description;
      step.known_cuda_package = desc->known_cuda_package;
      step.local_project = desc->local_project;
      // PIP_NO_BUILD_ISOLATION's truth values are inverted in pip; any setting makes it unknown.
      step.isolated_build = desc->isolated && !env.count("PIP_NO_BUILD_ISOLATION") &&
                            std::none_of(c.assignments.begin(), c.assignments.end(),
                                         [](const auto& kv) { return kv.key == "PIP_NO_BUILD_ISOLATION"; });
      for (const auto& kv : c.assignments)
        if (kv.key == "TCNN_CUDA_ARCHITECTURES") step.own_arch_variable = Origin{path, kv.key_span};
      if (auto it = env.find("TCNN_CUDA_ARCHITECTURES"); it != env.end() && !step.own_arch_variable)
        step.own_arch_variable = Origin{path, it->second.key_span};
      if (inline_jobs) step.max_jobs = inline_jobs;
      else if (exported_jobs) step.max_jobs = exported_jobs;
      else if (auto it = env.find("MAX_JOBS"); it != env.end())
        step.max_jobs = Fact<std::string>{it->second.value, {path, it->second.value_span}, false};
      if (inline_arch) step.arch_list = inline_arch;
      else if (exported) step.arch_list = exported;
      else step.arch_list = setting_from_env(path, df, env);
      auto fc = env.find("FORCE_CUDA");
      step.force_cuda = inline_force || exported_force || (fc != env.end() && fc->second.value == "1");
      step.cwd = sh.cwd();
      if (desc->local_project && desc->target && desc->target->find("://") == std::string::npos) {
        std::string bp = sh.resolve_word(*desc->target, c);
        if (!bp.empty()) step.build_path = std::move(bp);
      }
      sh.visible_env(c, step.env, step.unknown_env, ctx.env_budget);
      if (torch_before > 0) {
        step.torch_install = torch_before - 1;
        step.torch_install_stage = stage.index;
      } else if (ctx.inherited_torch) {
        step.torch_install_stage = ctx.inherited_torch->first;
        step.torch_install = ctx.inherited_torch->second;
      }
      stage.compile_steps.push_back(std::move(step));
      sh.after(c);
    }
  }
}

}  // namespace

domain::ArchList ArchSetting::parsed(const domain::TorchVersion* torch) const {
  return domain::parse_torch_arch_list(value, contiguous, origin.span.begin, origin.span, torch);
}

BaseImageInfo parse_base_image(std::string_view image) {
  BaseImageInfo info;
  auto at = image.find('@');
  if (at != std::string_view::npos) image = image.substr(0, at);
  auto colon = image.rfind(':');
  if (colon == std::string_view::npos || image.find('/', colon) != std::string_view::npos) return info;
  std::string_view repo = image.substr(0, colon), tag = image.substr(colon + 1);
  for (std::string_view prefix : {"docker.io/", "nvcr.io/", "registry.hub.docker.com/"})
    if (repo.starts_with(prefix)) repo.remove_prefix(prefix.size());
  auto flavour_of = [](std::string_view t) {
    if (t.find("-devel") != std::string_view::npos) return ImageFlavour::Devel;
    if (t.find("-runtime") != std::string_view::npos) return ImageFlavour::Runtime;
    if (t.find("-base") != std::string_view::npos) return ImageFlavour::Base;
    return ImageFlavour::Unknown;
  };
  if (repo == "nvidia/cuda") {
    // "12.4.1-cudnn-devel-ubuntu22.04": the version is the first dash-separated field.
    auto dash = tag.find('-');
    if (auto v = domain::parse_cuda_version(tag.substr(0, dash))) info.cuda = v;
    info.flavour = flavour_of(tag);
  } else if (repo == "pytorch/pytorch") {
    // "2.3.0-cuda12.1-cudnn8-devel"
    auto dash = tag.find('-');
    if (dash != std::string_view::npos) info.torch_version = std::string(tag.substr(0, dash));
    auto cu = tag.find("-cuda");
    if (cu != std::string_view::npos) {
      auto rest = tag.substr(cu + 5);
      if (auto v = domain::parse_cuda_version(rest.substr(0, rest.find('-')))) info.cuda = v;
    }
    info.flavour = flavour_of(tag);
    info.workdir = "/workspace";  // pytorch's Dockerfile ends its image with WORKDIR /workspace
  }
  return info;
}

MaybeFact<domain::CudaVersion> effective_cuda(const DockerStage& stage) {
  return stage.installed_cuda ? stage.installed_cuda : stage.cuda;
}

MaybeFact<domain::TorchVersion> stage_torch(const DockerBuild& build, const DockerStage& stage) {
  // The stage and its ancestors, nearest first; parents precede children, so this ends.
  const DockerStage* cur = &stage;
  for (size_t hops = 0; hops <= build.stages.size(); ++hops) {
    if (!cur->torch_installs.empty()) {
      const TorchInstall& last = cur->torch_installs.back();
      if (!last.pinned) return std::nullopt;
      return Fact<domain::TorchVersion>{*last.pinned, last.where, false};
    }
    if (!cur->parent || *cur->parent >= build.stages.size()) break;
    cur = &build.stages[*cur->parent];
  }
  return stage.image_torch;
}

namespace {

// Bounds on what one file may make the extraction copy (a hostile file: thousands of stages
// built on one stage with thousands of variables, or of steps seeing them all). Real files
// stay far below; past them, inherited environments start empty and steps list no env.
constexpr size_t kMaxInheritedVars = 1u << 20;
constexpr size_t kMaxEnvEntries = 1u << 17;

// What a stage leaves to the stages built FROM it.
struct StageEnd {
  invocation::StageEnv env;
  // The front-end's environment (environment_at: ARGs do not cross FROM <stage>), which the
  // arch, MAX_JOBS and FORCE_CUDA facts have always used; kept per stage so that a child starts
  // from its parent's instead of walking the chain again (quadratic in a chain of stages).
  invocation::StageEnv legacy;
  std::string workdir;
  std::optional<std::pair<size_t, size_t>> torch;  // latest torch install: (stage, index)
  size_t children_left = 0;                        // later stages still to start from it
};

}  // namespace

DockerBuild extract_docker_build(const SourceFile& file, const docker::Dockerfile& df) {
  DockerBuild out;
  out.path = file.path;
  std::vector<StageEnd> ends(df.stages.size());
  for (const auto& st : df.stages)
    if (st.parent_stage && *st.parent_stage < st.index && *st.parent_stage < ends.size())
      ++ends[*st.parent_stage].children_left;
  Environment globals;
  if (!df.stages.empty()) globals = docker::environment_at(df, df.stages[0].from_instruction);
  size_t inherited_budget = kMaxInheritedVars;
  size_t env_budget = kMaxEnvEntries;
  for (const auto& st : df.stages) {
    DockerStage ds;
    ds.index = st.index;
    ds.name = st.name;
    const auto& from = df.instructions[st.from_instruction];
    ds.from = {file.path, from.from_image_span};
    StageEnd here;
    here.workdir = "/";
    if (st.base_image_known) {
      BaseImageInfo bi = parse_base_image(st.base_image);
      if (bi.cuda) ds.cuda = Fact<domain::CudaVersion>{*bi.cuda, ds.from, false};
      if (bi.torch_version)
        if (auto tv = domain::parse_torch_version(*bi.torch_version))
          ds.image_torch = Fact<domain::TorchVersion>{*tv, ds.from, false};
      ds.flavour = bi.flavour;
      if (bi.workdir) here.workdir = *bi.workdir;
    } else {
      here.workdir = "";  // an image we cannot name: its WORKDIR is unknown
    }
    if (st.parent_stage && *st.parent_stage < out.stages.size()) {
      ds.parent = st.parent_stage;
      const DockerStage& parent = out.stages[*st.parent_stage];
      ds.cuda = parent.cuda;
      ds.flavour = parent.flavour;
      ds.installed_cuda = parent.installed_cuda;
      ds.image_torch = parent.image_torch;
      StageEnd& pe = ends[*st.parent_stage];
      here.workdir = pe.workdir;
      here.torch = pe.torch;
      // The last stage to start from a parent takes its environment; earlier ones copy it.
      if (pe.children_left > 0) --pe.children_left;
      if (pe.children_left == 0) {
        here.env = std::move(pe.env);
        here.legacy = std::move(pe.legacy);
      } else if (pe.env.vars.size() + pe.legacy.vars.size() <= inherited_budget) {
        inherited_budget -= pe.env.vars.size() + pe.legacy.vars.size();
        here.env = pe.env;
        here.legacy = pe.legacy;
      }
      std::erase_if(here.legacy.vars, [](const auto& kv) { return kv.second.from_arg; });
    }
    size_t end = std::min(st.end_instruction, df.instructions.size());
    if (!ds.parent && st.from_instruction + 1 < end) here.legacy.vars = docker::environment_at(df, st.from_instruction + 1);
    // Walk the stage once, updating the environment incrementally (linear, not quadratic).
    Environment& env = here.legacy.vars;
    for (size_t i = st.from_instruction + 1; i < end; ++i) {
      const auto& ins = df.instructions[i];
      if (ins.keyword == "ENV" || ins.keyword == "ARG") {
        for (const auto& kv : ins.pairs) {
          if (kv.key == "MAX_JOBS" && kv.has_value) {
            bool known = true;
            std::string v = expanded_value(kv, env, df.escape, known);
            if (known) ds.max_jobs_settings.push_back({v, {file.path, kv.value_span}, false});
          }
          if (kv.key == "TORCH_DONT_CHECK_COMPILER_ABI" && kv.has_value && !kv.value.empty() && kv.value != "0")
            ds.safety_off.push_back({{file.path, kv.key_span}, "TORCH_DONT_CHECK_COMPILER_ABI=" + kv.value});
          if (kv.key == "CUDA_HOME" && kv.has_value && !ds.installs_toolkit)
            ds.installs_toolkit = Origin{file.path, kv.key_span};
          if (ins.keyword == "ENV" && kv.has_value) {
            bool known = true;
            std::string v = expanded_value(kv, here.env.vars, df.escape, known);
            if (auto tk = invocation::toolkit_from_env_pair(file.path, kv, v, known)) {
              tk->conditional = invocation::refers_to_conditional(kv.raw_value, here.env);
              ds.installed_cuda = std::move(tk);
            }
          }
          if (kv.key != kArchVar) continue;
          if (!kv.has_value) continue;  // `ARG X` alone: the value comes from elsewhere
          bool known = true;
          std::string v = expanded_value(kv, env, df.escape, known);
          ds.arch_settings.push_back(setting_from_pair(
              file.path, kv, v, known, ins.keyword == "ENV" ? ArchSetting::Kind::Env : ArchSetting::Kind::Arg));
        }
        invocation::apply_definitions(df, i, here.env, globals);
      } else if (ins.keyword == "RUN") {
        size_t torch_before = ds.torch_installs.size();
        RunContext ctx{file.text, here.env, here.workdir, here.torch, env_budget};
        scan_run(file.path, df, i, env, ds, ctx);
        if (ds.torch_installs.size() > torch_before) here.torch = std::make_pair(ds.index, ds.torch_installs.size() - 1);
      } else if (ins.keyword == "WORKDIR") {
        here.workdir = invocation::apply_workdir(df, i, here.env, here.workdir);
      } else if (ins.keyword == "COPY" || ins.keyword == "ADD") {
        if (auto cf = invocation::copy_fact(file.path, df, i, here.env, here.workdir)) ds.copies.push_back(std::move(*cf));
      }
      invocation::apply_definitions(df, i, here.legacy, globals);  // as apply_to_environment within a stage
    }
    if (st.index < ends.size()) {
      size_t keep = ends[st.index].children_left;
      ends[st.index] = std::move(here);
      ends[st.index].children_left = keep;
      if (keep == 0) {  // no stage starts from this one
        ends[st.index].env = {};
        ends[st.index].legacy = {};
      }
    }
    out.stages.push_back(std::move(ds));
  }
  return out;
}

}  // namespace cudalint::model
