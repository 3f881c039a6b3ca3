// How a Dockerfile's commands are invoked: Docker's exact variable scoping per stage, the
// working directory, the shell state of one RUN script (`cd`, `export`, `unset`, inline
// assignments), COPY/ADD facts and CMake configure commands. Internal to the model
// (docker_build.cpp); the facts it produces are declared in docker_build.h.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/dockerfile/dockerfile.h"
#include "analyzer/model/docker_build.h"

namespace cudalint::model::invocation {

using VarList = std::vector<std::pair<std::string, Fact<std::string>>>;

// The build environment at a point of a stage with Docker's (BuildKit's) scoping: ENV and ARG
// of the stage so far and of the stages it is built FROM; global ARGs only where redeclared.
// (The front-end's environment_at drops ARGs at FROM <stage>; BuildKit keeps them.)
struct StageEnv {
  docker::Environment vars;
  std::set<std::string> conditional;  // values that are, or derive from, a build-arg default
};

// Applies ENV/ARG instruction `k` (no-op for other instructions). `globals`: the ARGs before
// the first FROM, which a redeclared `ARG X` without value takes.
void apply_definitions(const docker::Dockerfile& df, size_t k, StageEnv& env, const docker::Environment& globals);

// Whether the raw text refers to a variable of `env` that is conditional (a build arg).
bool refers_to_conditional(std::string_view raw, const StageEnv& env);

// `path` made absolute against `base` and normalised ("a/./b/../c" -> "/a/c", no trailing '/').
// "" when `path` is relative and `base` is "" (unknown).
std::string resolve_path(std::string_view base, std::string_view path);

// WORKDIR `k` applied to `workdir` (expanded with `env`; "" when unknown).
std::string apply_workdir(const docker::Dockerfile& df, size_t k, const StageEnv& env, const std::string& workdir);

// COPY, or ADD with at least one local source; nullopt otherwise.
std::optional<CopyFact> copy_fact(const std::string& path, const docker::Dockerfile& df, size_t k,
                                  const StageEnv& env, const std::string& workdir);

// The state of one RUN script's shell as its commands run one after the other.
class ShellSession {
 public:
  ShellSession(const std::string& path, const StageEnv& stage, std::string cwd)
      : path_(path), stage_(stage), cwd_(std::move(cwd)) {}

  const std::string& cwd() const { return cwd_; }
  // The command's effect on later commands: cd/pushd/popd, export, unset, `X=v` alone.
  void after(const docker::ShellCommand& c);
  // Every variable visible to `c`, with its inline assignments; at most `budget` entries are
  // written in all (the budget shrinks), so that a hostile file stays bounded.
  void visible_env(const docker::ShellCommand& c, VarList& out, std::vector<std::string>& unknown,
                   size_t& budget) const;
  // A word as the shell passes it to `c` (`$X` expanded); nullopt when it depends on something
  // unknown (an unset variable, `$(...)`, a backquote).
  std::optional<std::string> expand_word(std::string_view text, const docker::ShellCommand& c) const;
  // The word as a path: expanded and resolved against cwd; "" when unknown.
  std::string resolve_word(std::string_view text, const docker::ShellCommand& c) const;
  // Whether the word refers to a conditional variable (a build-arg default).
  bool word_is_conditional(std::string_view text, const docker::ShellCommand& c) const;

 private:
  struct Value {
    std::string value;
    bool known = true;
    bool conditional = false;
    Span span;
    bool exported = false;
    bool unset = false;
  };
  // The value of `name` visible to `c`, from its inline assignments, the RUN's shell variables,
  // then the stage; nullptr when unset.
  std::optional<Value> lookup(std::string_view name, const docker::ShellCommand* c) const;
  Value assigned(const docker::KeyValue& kv, const docker::ShellCommand* c) const;
  std::optional<std::string> expand(std::string_view raw, const docker::ShellCommand* c, bool& conditional) const;
  bool exported_in_stage(const std::string& name) const;
  void change_dir(std::string_view target, const docker::ShellCommand& c);

  const std::string& path_;
  const StageEnv& stage_;
  std::string cwd_;
  std::string oldpwd_;
  std::vector<std::string> dirs_;          // pushd stack
  std::map<std::string, Value> shell_;     // exported or not; `unset` leaves a tombstone
};

// A `cmake` configure command; nullopt for other commands and `cmake --build/--install/-E/-P`.
std::optional<CMakeStep> cmake_step(const std::string& path, std::string_view file_text, size_t instruction,
                                    const docker::ShellCommand& c, const ShellSession& sh);

// The span of a `-DNAME=V` (or `NAME=V`) word's value in the file: inside the quotes when the
// value is quoted exactly, else from after '=' to the word's end.
Span define_value_span(std::string_view file_text, Span word, std::string_view value);

// The CUDA toolkit version a RUN command installs (apt, conda/mamba, pip, runfile).
MaybeFact<domain::CudaVersion> toolkit_from_command(const std::string& path, const std::vector<docker::ShellWord>& words);
// The version an ENV pair points at (CUDA_HOME=/usr/local/cuda-12.1, PATH with .../cuda-12.1/bin).
MaybeFact<domain::CudaVersion> toolkit_from_env_pair(const std::string& path, const docker::KeyValue& kv,
                                                     const std::string& expanded, bool known);

}  // namespace cudalint::model::invocation
