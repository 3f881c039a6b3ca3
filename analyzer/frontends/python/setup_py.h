// setup.py front-end on tree-sitter-python: the facts torch's extension builder acts on.
// It never runs the file.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/frontends/python/eval_context.h"

namespace cudalint::python {

struct ParseError {
  Span span;
  std::string message;
};

// A string whose value was resolved statically, with the span of the literal that wrote it.
struct Str {
  std::string value;
  Span span;
};

// A list of strings. `complete` is false when some element or part could not be resolved
// (a call to an unknown function, an f-string with a runtime value, a comprehension, ...).
struct StrList {
  std::vector<Str> items;
  bool complete = true;
  Span span;  // the expression that produced the list (empty when absent)
};

struct Extension {
  std::string kind;          // "CUDAExtension" or "CppExtension" (also via `cpp_extension.X`)
  Span call_span;
  std::optional<Str> name;
  StrList sources;
  // extra_compile_args: a dict {"cxx": [...], "nvcc": [...]} or a plain list (applies to both).
  StrList cxx_args;
  StrList nvcc_args;
  bool extra_compile_args_given = false;
  std::vector<std::pair<Str, std::optional<Str>>> define_macros;  // ("NAME", "VALUE" | None)
  // Glob patterns the sources are computed from (glob.glob(os.path.join(this_dir, "csrc", "*.cu")),
  // Path("csrc").rglob("*.cu")), relative to setup.py's directory, joined as far as known: a part
  // that could not be resolved is `*`. When non-empty, sources.complete is false.
  std::vector<Str> source_globs;

  // An environment test the extension's creation depends on (all must hold for it to be built):
  // enclosing `if`/`elif`/`else` branches, `x if cond else y`, `cond and f(...)`, names bound to a
  // test (`BUILD = os.getenv("FORCE_CUDA", "0") == "1"`). Negations are folded in (`else`, `not`).
  struct EnvCondition {
    std::string var;                           // "X_BUILD_CUDA"
    std::optional<std::string> default_value;  // value when unset ("1" in .get("X", "1"));
                                               // nullopt: unset = None/absent
    enum class Test { Equals, NotEquals, Truthy, Falsy, Set, Unset } test = Test::Truthy;
    std::string value;     // compared value for Equals/NotEquals
    bool numeric = false;  // int(os.environ.get("X", 0)): the value is compared (or tested for
                           // truth) as an integer; otherwise as a string (truthy: non-empty)
    Span span;             // the test expression
  };
  std::vector<EnvCondition> env_conditions;
  // The creation also depends on something that is not an env test (torch.cuda.is_available(),
  // a file check, a CLI arg, `A or B` with B not an env test): whether it is built cannot be
  // decided statically. The span of the first such expression.
  std::optional<Span> unknown_condition;
};

// Whether an extension is built under an environment (`env(var)`: the variable's value, nullopt
// when unset): true built, false skipped (some env condition fails, whatever the unknown ones
// are), nullopt undecidable (an unknown condition, or int() of a non-integer).
std::optional<bool> env_conditions_hold(const Extension& e,
                                        const std::function<std::optional<std::string>(std::string_view)>& env);

struct EnvSetting {
  enum class Kind { Assign, SetDefault, GetenvDefault } kind = Kind::Assign;
  std::string var;           // "TORCH_CUDA_ARCH_LIST", "MAX_JOBS", "FORCE_CUDA", ...
  std::optional<Str> value;  // nullopt when not statically known
  Span span;                 // the whole statement or call
  bool conditional = false;  // inside an if/try/for/while/function body
};

struct SetupPy {
  std::vector<Extension> extensions;
  std::vector<EnvSetting> env;       // os.environ[...] = v, os.environ.setdefault(k, v),
                                     // os.getenv(k, default) / os.environ.get(k, default)
  bool uses_build_extension = false; // cmdclass={"build_ext": BuildExtension[.with_options(...)]}
                                     // (or a subclass of BuildExtension defined in the file)
  Span build_extension_span;
  std::optional<std::pair<bool, Span>> use_ninja;  // BuildExtension.with_options(use_ninja=False)
  bool imports_torch = false;
  // `ext_modules=` of a setup() call: when no extension call is visible in the file, the
  // extensions (and their flags) are built elsewhere, e.g. in the project's own modules.
  std::optional<Span> ext_modules;
};

struct ParseResult {
  SetupPy setup;
  std::vector<ParseError> errors;  // tree-sitter ERROR / MISSING nodes, as syntax errors
};

// Resolves module-level names bound to string/list/dict literals, `+` concatenation of lists
// and strings, `list.append/extend/+=` at module level, `[...] * n` is not needed, simple
// helper functions defined in the same file that `return` a literal or a resolvable expression
// (called without arguments or with literal arguments), and `os.path.join` of literals.
// Never throws; a 10 MiB file or 10,000-deep nesting must not crash or hang.
// `context`: evaluate for one build (its environment and toolkit, py_eval.h) instead of for all:
// flags computed from `os.getenv` or `nvcc -V` then resolve, and env tests are decided.
ParseResult parse_setup_py(std::string_view text, const EvalContext* context = nullptr);

}  // namespace cudalint::python
