// A YAML document reduced to scalars, mappings with scalar keys and sequences, every scalar
// byte-mapped to the file (LLVM's YAML parser underneath). Nesting is bounded before parsing.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/frontends/ci/workflow.h"

namespace cudalint::ci {

struct YEntry;

struct YNode {
  enum class Kind { Scalar, Map, Seq, Other } kind = Kind::Other;
  Scalar scalar;                                // Kind::Scalar
  // Kind::Map (scalar keys only). A struct declared below, not std::pair: a pair of the
  // incomplete YNode cannot be instantiated here (vector allows an incomplete element type).
  std::vector<YEntry> map;
  std::vector<YNode> seq;                       // Kind::Seq
  Span span;
};

struct YEntry {
  Scalar key;
  YNode value;
};

struct YamlResult {
  YNode root;                      // the first document
  std::vector<ParseError> errors;  // the first error only
};

// Never throws.
YamlResult read_yaml(std::string_view text);

const YNode* get(const YNode& map, std::string_view key);
std::optional<Scalar> scalar(const YNode* n);
// The scalar-valued entries of a mapping.
std::vector<Entry> entries(const YNode* n);

}  // namespace cudalint::ci
