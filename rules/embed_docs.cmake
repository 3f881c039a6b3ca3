# Writes a C++ table {kebab-name, markdown, path} from the rule .md files (stem snake_case); the
# path is relative to ROOT (the source tree: `rules/arch/arch_unsupported_by_cuda.md`), which
# SARIF helpUri and the LSP's doc links name in the repository.
set(out "// Generated from rules/**/*.md by embed_docs.cmake. Do not edit.\n")
string(APPEND out "#include \"rules/registry.h\"\nnamespace cudalint::rules {\n")
string(APPEND out "const std::vector<RuleDoc>& all_rule_docs() {\n  static const std::vector<RuleDoc> docs = {\n")
string(REPLACE "|" ";" DOCS "${DOCS}")
foreach(doc IN LISTS DOCS)
  get_filename_component(stem ${doc} NAME_WE)
  string(REPLACE "_" "-" name ${stem})
  file(READ ${doc} text)
  file(RELATIVE_PATH rel ${ROOT} ${doc})
  string(APPEND out "    {\"${name}\", R\"cudalintdoc(${text})cudalintdoc\", \"${rel}\"},\n")
endforeach()
string(APPEND out "  };\n  return docs;\n}\n}  // namespace cudalint::rules\n")
file(WRITE ${OUT}.tmp "${out}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
