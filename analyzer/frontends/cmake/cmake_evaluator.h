// CMake front-end, evaluator internals: the evaluator's types and its class, whose members are
// defined across files by concern (cmake_eval.cpp: files, variables, expansion, dispatch;
// cmake_control.cpp: blocks, calls, include/add_subdirectory; cmake_conditions.cpp: if();
// cmake_commands.cpp: set/list/string & co; cmake_facts.cpp: the facts). Private to
// analyzer/frontends/cmake.
//
// The model: every variable the project does not set itself might come from the command line,
// the environment or a module we do not run, so it is *unknown*: it expands to "" and makes what
// it reaches uncertain, and conditions on it are undecidable. Undecidable `if` branches are all
// evaluated, with everything they set marked conditional. Work is bounded everywhere (commands,
// call depth, block nesting, value sizes), so hostile input never hangs or exhausts the stack.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/frontends/cmake/cmake.h"
#include "analyzer/frontends/cmake/cmake_flags.h"
#include "analyzer/frontends/cmake/cmake_text.h"

namespace cudalint::cmake::detail {

constexpr size_t kMaxCommands = 100000;       // evaluated commands (and loop iterations) per project
constexpr int kMaxDepth = 64;                 // include / add_subdirectory / function / macro nesting
constexpr int kMaxNesting = 256;              // recursive block evaluation, to bound the stack
constexpr int kMaxCondParens = 64;            // nested parentheses in one condition
constexpr size_t kMaxValueBytes = 1u << 20;   // one expanded value
constexpr uint64_t kMaxWorkBytes = 64ull << 20;   // bytes produced by all expansions together
// A file(GLOB) result stands in a variable as this mark and an index into Evaluator::globs_, so
// that it can be followed into a target's sources through lists and calls.
constexpr std::string_view kGlobMark = "\x1f" "glob:";

// Which variables a value was built from: the torch ones, and kOpaque for anything unknown
// ($ENV, an unset variable, a command's output we do not compute).
enum Taint : uint8_t { kTorchLibs = 1, kTorchCxxFlags = 2, kOpaque = 4 };

struct Var {
  std::string value;
  bool uncertain = false;  // set conditionally, or derived from something unknown
  uint8_t taint = 0;       // Taint bits
  uint32_t origin = 0;     // where it was last written (Evaluator::origins_; 0: not recorded)
};

struct Entry {
  enum class State : uint8_t { Known, Unknown, Unset } state = State::Known;
  Var var;
};
using Scope = std::unordered_map<std::string, Entry>;

enum class Tri { False, True, Unknown };
enum class Flow { Normal, Break, Return, Stop };

struct MacroArgs {
  std::unordered_map<std::string, Var> map;  // `${name}` replaced textually in the body
};

struct Ctx {
  const MacroArgs* macro = nullptr;
  // return()/break() take effect only at the conditional depth their frame started at; an
  // ignored one makes the rest of the frame conditional through *_extra.
  int return_base = 0;
  int* return_extra = nullptr;
  int loop_base = -1;
  int* loop_extra = nullptr;
};

struct Unit {
  std::string abs, display, dir;
  std::vector<Command> cmds;
  std::vector<uint32_t> next;  // if/elseif/else: the next branch or the endif
  std::vector<uint32_t> end;   // block openers: the matching end (cmds.size() when missing)
};

struct Callable {
  bool macro = false;
  std::vector<std::string> params;
  const Unit* unit = nullptr;
  size_t body_b = 0, body_e = 0;
};

// An expanded argument: one list element of an unquoted argument, or a whole quoted one.
struct Arg {
  std::string text;
  bool quoted = false;
  bool uncertain = false;
  bool plain = false;  // unquoted and without `$`: a name exactly as written
  uint8_t taint = 0;
  size_t src = 0;      // index of the Argument it came from
};

// The stand-in for an unquoted argument that expanded to nothing but used unknown values.
inline bool is_placeholder(const Arg& a) { return !a.quoted && a.uncertain && a.text.empty(); }

struct Expanded {
  std::string text;
  bool uncertain = false;
  uint8_t taint = 0;
};

// Where a variable write happened, for the facts it carries.
struct Site {
  const Unit* u = nullptr;
  const Command* c = nullptr;
  size_t name_arg = 0;
  size_t vb = 0, ve = 0;  // Argument indices of the value written
  const Ctx* ctx = nullptr;
};

inline Tri tri_not(Tri v) { return v == Tri::Unknown ? v : v == Tri::True ? Tri::False : Tri::True; }
inline Tri tri_and(Tri a, Tri b) {
  if (a == Tri::False || b == Tri::False) return Tri::False;
  return a == Tri::True && b == Tri::True ? Tri::True : Tri::Unknown;
}
inline Tri tri_or(Tri a, Tri b) {
  if (a == Tri::True || b == Tri::True) return Tri::True;
  return a == Tri::False && b == Tri::False ? Tri::False : Tri::Unknown;
}
inline Tri tri(bool b) { return b ? Tri::True : Tri::False; }

inline uint8_t name_taint(std::string_view n) {
  if (n == "TORCH_LIBRARIES" || n == "TORCH_LIBRARY") return kTorchLibs;
  if (n == "TORCH_CXX_FLAGS") return kTorchCxxFlags;
  return 0;
}

class Evaluator {
 public:
  Evaluator(const FileLoader& load, const DisplayPath& display, const EvalOptions& options)
      : load_(load), display_(display), options_(options) {}

  EvalResult run(const std::string& top);

 private:
  class Cond;  // if() conditions (cmake_conditions.cpp); reads variables through the members below

  // ---- files (cmake_eval.cpp) ------------------------------------------------------------
  const Unit* unit_for(const std::string& abs);
  void enter(const Unit& u);
  static int opener_kind(std::string_view n);
  static int ender_kind(std::string_view n);
  void structure(Unit& u);
  const Entry* find_entry(const std::string& name, size_t top) const;
  const Var* resolve(const std::string& name, size_t top) const;
  const Var* resolve(const std::string& name) const { return resolve(name, scopes_.size() - 1); }
  void put(const std::string& name, Var v) { scopes_.back()[name] = Entry{Entry::State::Known, std::move(v)}; }
  void set_unknown(const std::string& name);
  void set_var(const std::string& name, Var v, const Site* site, bool parent = false);
  void unset_var(const std::string& name, bool parent);
  void charge(size_t bytes) const { work_ += bytes; }
  bool over_budget() const { return work_ > kMaxWorkBytes; }
  std::vector<std::string> split_charged(const std::string& value, bool keep_empty) const;
  void append_ref(int kind, const std::string& name, const Ctx& ctx, bool certain_only, Expanded& out,
                  std::string& dst);
  Expanded expand(std::string_view raw, bool quoted, const Ctx& ctx, bool certain_only = false);
  Expanded expand_one(const Argument& a, const Ctx& ctx, bool certain_only = false);
  std::vector<Arg> expand_args(const Command& c, const Ctx& ctx, size_t from = 0, bool keep_unknown = false);

  // ---- conditions (cmake_conditions.cpp) -------------------------------------------------
  Tri truth(const Arg& a) const;
  std::optional<std::string> operand(const Arg& a, bool left) const;
  Tri unary_op(const std::string& op, const Arg& a) const;
  Tri binary_op(const Arg& a, const std::string& op, const Arg& b) const;
  Tri condition(const Command& c, const Ctx& ctx);

  // ---- control flow (cmake_control.cpp) -------------------------------------------------
  void limit_error(const Unit& u, Span s, std::string msg);
  Flow exec_range(const Unit& u, size_t b, size_t e, Ctx& ctx);
  Flow exec_if(const Unit& u, size_t i, Ctx& ctx);
  Flow exec_loop_body(const Unit& u, size_t b, size_t e, Ctx& ctx, bool& broke);
  Flow exec_foreach(const Unit& u, size_t i, Ctx& ctx);
  Flow exec_while(const Unit& u, size_t i, Ctx& ctx);
  Flow exec_block(const Unit& u, size_t i, Ctx& ctx);
  void define(const Unit& u, size_t i, const Ctx& ctx);
  Flow call(const Unit& u, const Command& c, const Callable& def, Ctx& ctx);
  Flow run_file(const Unit& u, const Command& c, Span at, const Unit& file, bool subdir);
  Flow do_include(const Unit& u, const Command& c, const Ctx& ctx);
  Flow do_add_subdirectory(const Unit& u, const Command& c, const Ctx& ctx);

  // ---- commands (cmake_eval.cpp: dispatch; cmake_commands.cpp: variables, lists, strings) --
  Flow exec_command(const Unit& u, const Command& c, Ctx& ctx);
  static bool kw(const std::vector<Arg>& a, size_t k, std::string_view w);
  static Var value_of(const std::vector<Arg>& a, size_t b, size_t e);
  Site site(const Unit& u, const Command& c, const std::vector<Arg>& a, size_t name_k, size_t vb, size_t ve,
            const Ctx& ctx) const;
  Flow do_set(const Unit& u, const Command& c, const Ctx& ctx);
  Flow do_unset(const Command& c, const Ctx& ctx);
  Flow do_option(const Command& c, const Ctx& ctx);
  Var current(const std::string& name) const;
  Flow do_list(const Unit& u, const Command& c, const Ctx& ctx);
  Flow do_string(const Unit& u, const Command& c, const Ctx& ctx);
  Flow do_parse_arguments(const Command& c, const Ctx& ctx);
  void unknown_outputs(const Command& c, const Ctx& ctx, std::initializer_list<size_t> which);
  void unknown_writes(const Unit& u, const Command& c, const Ctx& ctx);
  void do_separate_arguments(const Command& c, const Ctx& ctx);

  // ---- facts (cmake_facts.cpp) ----------------------------------------------------------
  Span span_of(const Command& c, size_t b, size_t e, size_t fallback) const;
  bool fresh(std::string_view kind, const std::string& target, const Value& v);
  void add(std::vector<Value>& to, std::string_view kind, Value v);
  void add(std::vector<TargetFact>& to, std::string_view kind, std::string target, Value v);
  static void first(std::optional<Value>& slot, Value v);
  Value value_at(const Unit& u, Span s, std::string v, bool conditional) const;
  Span locate(const Command& c, size_t vb, size_t ve, size_t fallback, std::string_view needle) const;
  // `reach`, when given, receives the arch flags that reach the target (not INTERFACE items).
  void flags_from_args(const Unit& u, const Command& c, size_t b, size_t e, const Ctx& ctx, const std::string& target,
                       bool arch, bool abi, std::vector<Value>* reach = nullptr);
  void defines_from_args(const Unit& u, const Command& c, size_t b, size_t e, const Ctx& ctx, const std::string& target,
                         bool need_dash);
  void note_write(const std::string& name, const Var* before, const Var& after, const Site& s);
  void do_project(const Unit& u, const Command& c, const Ctx& ctx);
  void do_find_package(const Unit& u, const Command& c, const Ctx& ctx);
  void property(const Unit& u, const Command& c, const std::vector<std::string>& targets, const std::string& prop,
                const std::vector<Arg>& a, size_t vb, size_t ve, const Ctx& ctx, bool is_target, bool append = false);
  void do_set_property(const Unit& u, const Command& c, const Ctx& ctx);
  void do_set_target_properties(const Unit& u, const Command& c, const Ctx& ctx);
  void do_link(const Unit& u, const Command& c, const Ctx& ctx);

  // ---- targets (cmake_targets.cpp) --------------------------------------------------------
  // One add_subdirectory level: what its targets receive from the directory.
  struct DirState {
    std::vector<Value> compile_options;  // arch flags of add_compile_options (copied at creation)
    std::vector<Value> definitions;      // add_definitions / add_compile_definitions (all its targets)
    std::vector<Value> define_flags;     // arch flags given to add_definitions (all its targets)
    std::vector<size_t> targets;         // created in this directory (indices in facts.targets)
  };
  struct CallSite {  // a user function/macro call in progress
    const Unit* u;
    const Command* c;
    const std::vector<Arg>* args;
    mutable std::unordered_map<std::string_view, size_t> by_text = {};  // args' first index per text, built on demand
  };
  struct Written {  // where a name passed down through calls is written
    const Unit* u;
    const Command* c;
    size_t src;  // Argument index in *c
  };
  struct SourceProps {
    std::vector<Value> options, flags, definitions;  // COMPILE_OPTIONS, COMPILE_FLAGS, COMPILE_DEFINITIONS
  };
  void seed_cache();
  uint32_t new_origin(Origin o);
  static bool tracks_origin(std::string_view name);
  void push_dir();
  void finish_dir();
  void attach_source_props();
  Written written_at(const Unit& u, const Command& c, const Arg& a);
  std::vector<size_t> target_ids(const std::string& name) const;  // of facts.targets, creation order
  std::vector<Target*> targets_named(const std::string& name);
  void do_add_target(const Unit& u, const Command& c, const Ctx& ctx);
  void add_sources(size_t t, const std::vector<const Arg*>& srcs, const Unit& u, const Command& c);
  void do_target_sources(const Unit& u, const Command& c, const Ctx& ctx);
  void do_file_glob(const Unit& u, const Command& c, const Ctx& ctx);
  void do_source_files_properties(const Unit& u, const Command& c, const Ctx& ctx);
  void source_property(const Unit& u, const Command& c, const std::vector<std::string>& files,
                       const std::vector<std::string>& dirs, const std::string& prop, const std::vector<Arg>& a,
                       size_t vb, size_t ve, bool append);
  std::vector<std::string> property_dirs(const std::vector<Arg>& a, size_t& k);
  std::vector<Value> definition_values(const Unit& u, const Command& c, size_t b, size_t e, const Ctx& ctx,
                                       bool need_dash);
  void target_arch_property(const Unit& u, const Command& c, const std::vector<std::string>& targets,
                            const std::vector<Arg>& a, size_t vb, size_t ve, bool append);

  const FileLoader& load_;
  const DisplayPath& display_;
  const EvalOptions& options_;
  EvalResult res_;
  std::map<std::string, std::unique_ptr<Unit>> units_;
  std::set<std::string> read_;
  std::vector<Scope> scopes_;
  std::unordered_map<std::string, Var> cache_;
  std::unordered_map<std::string, std::optional<Var>> env_;  // nullopt: unset by the project
  std::unordered_map<std::string, Callable> callables_;
  std::unordered_set<std::string> seen_;
  std::set<std::string> linked_;
  std::set<std::string> limit_sites_;
  std::string src_dir_, list_dir_;
  std::vector<Origin> origins_{Origin{}};            // Var::origin indexes it; [0] is "none"
  std::vector<DirState> dirs_;                       // the add_subdirectory chain
  std::vector<CallSite> calls_;                      // user function/macro calls in progress
  std::unordered_map<std::string, std::vector<size_t>> target_index_;  // name → facts.targets
  std::unordered_set<std::string> target_sources_seen_;  // "index\x1fpath", "index\x1fglob\x1f..."
  std::unordered_map<std::string, SourceProps> source_props_;  // "dir\x1fpath"
  std::vector<std::vector<Glob>> globs_;             // file(GLOB) results stand in as kGlobMark + index
  std::unordered_map<std::string, Value> cuda_flag_origin_;  // a CMAKE_CUDA_FLAGS arch flag → where written
  Origin where_;
  size_t commands_ = 0;
  mutable uint64_t work_ = 0;
  int cond_depth_ = 0;
  // Where project()/enable_language() gave CMAKE_CUDA_ARCHITECTURES the compiler's default (an
  // origins_ index; 0: it did not). A target made while the variable still holds it gets no
  // CUDA_ARCHITECTURES of its own: nvcc's default, decided by each invocation's toolkit.
  uint32_t cuda_default_origin_ = 0;
  bool holds_cuda_default(const Var* v) const { return v && cuda_default_origin_ && v->origin == cuda_default_origin_; }
  void cuda_enabled(const Unit& u, Span at);
  void note_cuda_default_decided(const Unit& u, const Command& c);
  // The undecided `if` branches being run, innermost last, each with its own number; and for
  // each target (by index) the branches it was made in. A property set on a target in those
  // branches (or fewer) holds whenever the target exists.
  std::vector<uint32_t> if_regions_;
  uint32_t next_region_ = 0;
  std::vector<std::vector<uint32_t>> target_regions_;
  bool within_target_regions(size_t target_index) const;
  int depth_ = 0;
  int nesting_ = 0;
  bool stopped_ = false;
};

}  // namespace cudalint::cmake::detail
