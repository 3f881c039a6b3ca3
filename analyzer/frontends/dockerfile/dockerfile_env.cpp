// Dockerfile front-end: the variables visible at each instruction (ENV and ARG, across stages).
#include <algorithm>

#include "analyzer/frontends/dockerfile/dockerfile_internal.h"

namespace cudalint::docker {

using namespace detail;

namespace {

const Var* find_var(const Environment* env, const std::string& key) {
  if (!env) return nullptr;
  auto it = env->find(key);
  return it == env->end() ? nullptr : &it->second;
}

// Applies ENV/ARG instruction `k` to `env`. ENV pairs all see the environment from before the
// instruction (documented Docker behaviour); ARG pairs are applied one after the other.
void apply_definitions(const Dockerfile& df, size_t k, Environment& env, const Environment* globals) {
  if (k >= df.instructions.size()) return;
  const Instruction& ins = df.instructions[k];
  if (ins.keyword == "ENV") {
    std::vector<std::pair<std::string, Var>> updates;
    for (const KeyValue& kv : ins.pairs) {
      if (!kv.has_value || kv.key.empty()) continue;
      Var v;
      v.value = expand(kv.raw_value, env, df.escape, v.known);
      v.instruction = k;
      v.value_span = kv.value_span;
      v.key_span = kv.key_span;
      updates.emplace_back(kv.key, std::move(v));
    }
    for (auto& [key, v] : updates) env[key] = std::move(v);
  } else if (ins.keyword == "ARG") {
    for (const KeyValue& kv : ins.pairs) {
      if (kv.key.empty()) continue;
      auto it = env.find(kv.key);
      if (it != env.end() && !it->second.from_arg) continue;  // ENV always wins over ARG
      Var v;
      v.from_arg = true;
      v.instruction = k;
      v.key_span = kv.key_span;
      if (kv.has_value) {
        v.value = expand(kv.raw_value, env, df.escape, v.known);
        v.value_span = kv.value_span;
      } else if (it != env.end()) {
        continue;  // declared again without value: keeps what it had
      } else if (const Var* g = find_var(globals, kv.key)) {
        // A redeclared global ARG takes the global default; the Var keeps pointing at the
        // global declaration, where that value is written.
        v = *g;
      } else {
        v.known = false;  // only the build command line can give it a value
        v.value_span = {kv.key_span.end, kv.key_span.end};
      }
      env[kv.key] = std::move(v);
    }
  }
}

}  // namespace

namespace detail {

Environment global_env(const Dockerfile& df, size_t upto) {
  Environment env;
  for (size_t idx : df.global_args) {
    if (idx >= upto) break;
    apply_definitions(df, idx, env, nullptr);
  }
  return env;
}

}  // namespace detail

std::optional<size_t> stage_of(const Dockerfile& df, size_t instruction_index) {
  auto it = std::upper_bound(df.stages.begin(), df.stages.end(), instruction_index,
                             [](size_t i, const Stage& s) { return i < s.from_instruction; });
  if (it == df.stages.begin()) return std::nullopt;
  --it;
  if (instruction_index >= it->end_instruction) return std::nullopt;
  return static_cast<size_t>(it - df.stages.begin());
}

Environment environment_at(const Dockerfile& df, size_t instruction_index) {
  size_t upto = std::min(instruction_index, df.instructions.size());
  std::optional<size_t> stage = stage_of(df, upto);
  if (!stage && upto == df.instructions.size() && !df.stages.empty()) stage = df.stages.size() - 1;
  if (!stage) return global_env(df, upto);
  // FROM itself sees the global ARGs (that is what its image is expanded with).
  if (df.stages[*stage].from_instruction == upto) return global_env(df, df.instructions.size());

  std::vector<size_t> chain{*stage};
  while (true) {
    const auto& parent = df.stages[chain.back()].parent_stage;
    if (!parent || *parent >= chain.back()) break;
    chain.push_back(*parent);
  }
  std::reverse(chain.begin(), chain.end());

  Environment globals = global_env(df, df.instructions.size());
  Environment env;
  for (size_t idx : chain) {
    Environment e;  // ARGs do not cross stages; ENV is inherited through FROM <stage>
    for (auto& [key, v] : env)
      if (!v.from_arg) e.emplace(key, std::move(v));
    const Stage& st = df.stages[idx];
    size_t end = idx == *stage ? upto : std::min(st.end_instruction, df.instructions.size());
    for (size_t k = st.from_instruction + 1; k < end; ++k) apply_definitions(df, k, e, &globals);
    env = std::move(e);
  }
  return env;
}

void apply_to_environment(const Dockerfile& df, size_t instruction_index, Environment& env) {
  if (instruction_index >= df.instructions.size()) return;
  const Instruction& ins = df.instructions[instruction_index];
  size_t next = instruction_index + 1;
  if (next < df.instructions.size() && df.instructions[next].keyword == "FROM") {
    env = global_env(df, df.instructions.size());  // what a FROM sees
    return;
  }
  if (ins.keyword == "FROM") {
    env = environment_at(df, instruction_index + 1);
    return;
  }
  if (ins.keyword != "ARG" && ins.keyword != "ENV") return;
  if (!stage_of(df, instruction_index)) {
    // Before the first FROM only ARGs count (an ENV there is an error).
    if (ins.keyword == "ARG") apply_definitions(df, instruction_index, env, nullptr);
    return;
  }
  // Global defaults only matter for `ARG X` without value; compute them only then.
  bool needs_globals = false;
  for (const KeyValue& kv : ins.pairs) needs_globals = needs_globals || (ins.keyword == "ARG" && !kv.has_value);
  Environment globals = needs_globals ? global_env(df, df.instructions.size()) : Environment();
  apply_definitions(df, instruction_index, env, &globals);
}

}  // namespace cudalint::docker
