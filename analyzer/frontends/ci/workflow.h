// CI pipelines (GitHub Actions workflows, GitLab CI files) as jobs of steps, each value with its
// bytes in the file. What the front-ends produce; the model writes each job as a build.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/frontends/dockerfile/dockerfile.h"

namespace cudalint::ci {

// A scalar as YAML gives it (quotes removed, block scalars folded as YAML folds them), with
// each byte mapped to the file: `text.offsets` point at the byte written, or at the scalar's
// start where the value is not the text byte for byte (escapes, folding).
struct Scalar {
  docker::MappedText text;
  Span span;  // the scalar as written (quotes and block header included)
  const std::string& value() const { return text.text; }
};

struct Entry {
  Scalar key;
  Scalar value;
};

struct Step {
  Span span;                          // the step's mapping
  // GitLab: the repository is in the job's directory before any step (no checkout step).
  bool checkout = false;
  std::optional<Scalar> name;
  std::optional<Scalar> uses;         // "actions/checkout@v4"
  std::vector<Entry> with;            // the action's inputs (scalars only)
  std::optional<Scalar> run;          // the script
  std::optional<Scalar> shell;        // "bash", "python", ...
  std::vector<Entry> env;
  std::optional<Scalar> working_directory;
};

// One combination of the job's matrix: each key with its value.
struct MatrixCombo {
  std::vector<Entry> values;
};

struct Job {
  Scalar id;
  std::optional<Scalar> container_image;  // `container: image` or `container: {image: ...}`
  std::vector<Entry> env;
  std::optional<Scalar> working_directory;  // defaults.run.working-directory
  std::optional<Scalar> shell;              // defaults.run.shell
  std::vector<MatrixCombo> combos;          // empty: no matrix
  // GitLab's `parallel: matrix:` values are variables of the job; GitHub's are `${{ matrix.* }}`.
  bool matrix_as_env = false;
  // The matrix cannot be listed: a value from an expression (`fromJSON(...)`), a non-scalar
  // value, or more than kMaxCombos combinations. Its `${{ matrix.* }}` values are unknown.
  bool matrix_unknown = false;
  std::vector<Step> steps;
};

inline constexpr size_t kMaxCombos = 64;

struct Workflow {
  std::vector<Entry> env;
  std::optional<Scalar> working_directory;  // top-level defaults.run.working-directory
  std::vector<Job> jobs;
};

struct ParseError {
  Span span;
  std::string message;
};

struct ParseResult {
  Workflow workflow;
  std::vector<ParseError> errors;  // empty for a valid file
};

}  // namespace cudalint::ci
