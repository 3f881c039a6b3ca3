// JIT builds in ordinary Python files: torch.utils.cpp_extension.load(...) and load_inline(...),
// found with the static evaluator (py_eval.h) on tree-sitter-python. Nothing is run.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/frontends/python/setup_py.h"

struct TSNode;  // tree-sitter's (tree_sitter/api.h), for the internal part below

namespace cudalint::python {

struct JitBuild {
  std::string kind;  // "load" | "load_inline"
  Span call_span;
  std::optional<Str> name;
  // load's sources, each resolved as far as the file says: os.path.join(os.path.dirname(__file__),
  // "csrc", "k.cu") and f"{this_dir}/k.cu" are "csrc/k.cu" (relative to the Python file's
  // directory). load_inline has none (complete, empty).
  StrList sources;
  StrList nvcc_args;  // extra_cuda_cflags
  StrList cxx_args;   // extra_cflags
  // Some source was written relative to the file (dirname(__file__), Path(__file__).parent):
  // those are relative to the Python file's directory; the others to the working directory.
  bool sources_relative_to_file = false;
  bool has_inline_cuda = false;  // load_inline with cuda_sources given (not None, not empty)
};

// Every load/load_inline call of torch.utils.cpp_extension in the text (`import
// torch.utils.cpp_extension as cpp_ext`, `from torch.utils.cpp_extension import load`, `from
// torch.utils import cpp_extension`, a star import). json/pickle/yaml/torch.load are not.
// Returns at once unless may_have_jit_builds. Never throws; bounded work.
std::vector<JitBuild> find_jit_builds(std::string_view python_text);

// Whether the text names the module `cpp_extension` (a whole word: JAX projects have
// `cpp_extensions` packages) and says `load`: what any of those calls needs.
bool may_have_jit_builds(std::string_view python_text);

class Interpreter;
class Scope;

// Internal, shared by setup_py.cpp and jit_build.cpp; not part of the front-end's API.
namespace detail {

// The expressions names were bound to, recorded while the static walk passes each statement:
// an unknown Value keeps the span of the expression it came from, which leads back to it.
class Bindings {
 public:
  Bindings();
  ~Bindings();
  Bindings(const Bindings&) = delete;
  Bindings& operator=(const Bindings&) = delete;
  // Records the assignments, `+=` and `.append/.extend(...)` of one statement.
  void record(const TSNode& stmt, const Interpreter& in);
  // The right-hand side whose value has this span, if one was recorded.
  bool expression_of(Span value_span, TSNode* out) const;
  // Every expression assigned, added or appended to `name` anywhere (at most a few dozen).
  std::vector<TSNode> assigned_to(std::string_view name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct ResolvedPath {
  std::string text;               // "csrc/k.cu"; "" for the file's own directory
  bool relative_to_file = false;  // built from __file__
};

// A path expression: string values, __file__, os.path.dirname/abspath/realpath/join, pathlib's
// Path(...), .parent, .resolve(), `/`, `+` and f-strings. `lenient`: a part that does not
// resolve becomes `*` (for glob patterns) instead of failing.
std::optional<ResolvedPath> resolve_path(const TSNode& expr, Scope& scope, Interpreter& in, const Bindings& b,
                                         bool lenient);

}  // namespace detail
}  // namespace cudalint::python
