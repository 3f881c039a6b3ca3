// Dockerfile front-end: an exact parser that never runs anything.
//
// Covers parser directives (`# escape=`, `# syntax=`), line continuations with the
// active escape character, comment lines inside continuations, JSON (exec) and shell
// forms, heredocs (`<<EOF`, `<<-EOF`, quoted delimiters, several per instruction),
// `ARG` before the first `FROM`, `ARG`/`ENV` expansion (`$X`, `${X}`, `${X:-d}`,
// `${X-d}`, `${X:+a}`, `${X+a}`), multi-stage `FROM … AS name`, and both `ENV k=v ...`
// and the legacy `ENV k v` form.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace cudalint::docker {

struct ParseError {
  Span span;            // never empty for a real location; at least one byte when the file has one
  std::string message;  // "unterminated heredoc `EOF` started here"
};

// Text taken from the file with continuations removed, plus a map back to file bytes.
struct MappedText {
  std::string text;
  // offsets[i] = file byte offset of text[i]; offsets.size() == text.size() + 1
  // (the last entry is the file offset just past the final character).
  std::vector<uint32_t> offsets;
  // File span of text[b, e).
  Span span_of(size_t b, size_t e) const;
};

struct Flag {                  // `--platform=linux/amd64`, `--from=build`, `--mount=...`
  std::string name;            // "platform"
  std::string value;           // "linux/amd64" (may be empty)
  Span span;                   // the whole `--name=value`
};

struct KeyValue {              // one ENV/ARG/LABEL pair
  std::string key;
  std::string value;           // unquoted, escapes processed, NOT variable-expanded
  std::string raw_value;       // as written (quotes kept)
  bool has_value = false;      // `ARG X` has none
  Span key_span;
  Span value_span;             // the raw value as written (empty span when !has_value)
};

struct Heredoc {
  std::string delimiter;       // "EOF"
  bool strip_tabs = false;     // `<<-`
  bool quoted = false;         // `<<"EOF"` / `<<'EOF'`: no expansion inside
  std::string body;            // lines between the marker line and the delimiter, joined with \n
  Span body_span;
};

struct Instruction {
  std::string keyword;         // upper-cased: "FROM", "RUN", "ENV", ... ("" never)
  Span span;                   // from keyword to end of the last continuation / heredoc
  Span keyword_span;
  std::vector<Flag> flags;     // leading --flags (FROM, RUN, COPY, ADD, ...)
  MappedText args;             // arguments after flags, continuations joined, comments dropped
  bool json_form = false;      // valid JSON array (exec form)
  std::vector<std::string> json_args;   // when json_form
  std::vector<Span> json_arg_spans;     // when json_form
  std::vector<KeyValue> pairs;          // ENV / ARG / LABEL
  std::vector<Heredoc> heredocs;
  // FROM only:
  std::string from_image;      // as written, e.g. "nvidia/cuda:${CUDA}-devel-ubuntu22.04"
  Span from_image_span;
  std::string from_alias;      // "build" from `AS build` ("" when none)
};

struct Stage {
  size_t index = 0;            // 0-based position among FROMs
  std::string name;            // alias, "" when none
  size_t from_instruction = 0; // index into Dockerfile::instructions
  size_t end_instruction = 0;  // one past the stage's last instruction
  std::string base_image;      // FROM image after expanding global ARGs (best effort)
  bool base_image_known = true;// false when it depends on an ARG with no default
  std::optional<size_t> parent_stage;  // FROM <earlier stage alias or index>
};

struct Dockerfile {
  char escape = '\\';
  std::map<std::string, std::string> directives;  // lower-cased keys: "escape", "syntax"
  std::vector<Instruction> instructions;
  std::vector<Stage> stages;
  std::vector<size_t> global_args;  // indices of ARG instructions before the first FROM
};

struct ParseResult {
  Dockerfile ast;                   // as much as could be parsed
  std::vector<ParseError> errors;   // empty for a valid Dockerfile
};

// Never throws. `text` may start with a UTF-8 BOM, may use \n, \r\n or \r.
ParseResult parse(std::string_view text);

// A variable visible at some point of the build.
struct Var {
  std::string value;           // expanded value
  bool known = true;           // false when it depends on an unset ARG without default
  bool from_arg = false;       // ARG (build arg, may be overridden at build time) vs ENV
  size_t instruction = 0;      // where it was (last) defined
  Span value_span;             // the raw value in the file (empty for ARG without value)
  Span key_span;
};

using Environment = std::map<std::string, Var>;

// Variables visible to the instruction at `instruction_index` (not including its own
// definitions): ENV inherited through `FROM <stage>` and set earlier in the stage, and
// ARGs declared earlier in the stage (a redeclared global ARG takes the global default).
Environment environment_at(const Dockerfile& df, size_t instruction_index);

// Turns `env`, environment_at(df, i) for i = `instruction_index`, into environment_at(df, i + 1):
// ENV/ARG add their definitions, FROM starts its stage's environment, and before a FROM it
// becomes the global ARGs. Walking a file this way is linear, where calling environment_at for
// every instruction costs O(stage length) each time.
void apply_to_environment(const Dockerfile& df, size_t instruction_index, Environment& env);

// Expands $X / ${X} / ${X:-d} / ${X-d} / ${X:+a} / ${X+a} in `word` with `env`, honouring
// the escape character and single quotes as Docker does. `known` becomes false when the
// result depends on a variable that is unset or unknown.
std::string expand(std::string_view word, const Environment& env, char escape, bool& known);

// The stage index of an instruction, or nullopt for global ARGs before the first FROM.
std::optional<size_t> stage_of(const Dockerfile& df, size_t instruction_index);

// A shell word of a shell-form RUN (quotes removed), with its span in the file.
struct ShellWord {
  std::string text;
  Span span;
};
// One simple command in a shell-form RUN: leading `NAME=value` assignments and words.
struct ShellCommand {
  std::vector<KeyValue> assignments;  // `TORCH_CUDA_ARCH_LIST="8.0" pip install .`
  std::vector<ShellWord> words;       // "pip", "install", "."
};
// Splits the shell text of a RUN (args or a heredoc body) into simple commands at
// `&&`, `||`, `;`, `|`, `&` and newlines. Only a lexer: no expansion, no execution.
// `export X=1` yields a command whose words are ["export"] and assignments [X=1].
std::vector<ShellCommand> split_shell(const MappedText& text);

}  // namespace cudalint::docker
