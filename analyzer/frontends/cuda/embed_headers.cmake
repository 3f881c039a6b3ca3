# Writes a C++ file defining cudalint::cuda::clang_resource_headers() (resource_headers.h): the
# text of each file of HEADERS (paths relative to DIR), read now. Included from CMakeLists.txt
# with DIR, HEADERS and OUT set; the files change only with Clang, which needs a new configure.
set(out "// Generated from ${DIR} by embed_headers.cmake. Do not edit.\n")
string(APPEND out "#include \"analyzer/frontends/cuda/resource_headers.h\"\n\nnamespace cudalint::cuda {\nnamespace {\n")
string(APPEND out "constexpr EmbeddedHeader kHeaders[] = {\n")
foreach(rel IN LISTS HEADERS)
  file(READ ${DIR}/${rel} text)
  string(FIND "${text}" ")cudalintembed\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${DIR}/${rel} holds the embedding's delimiter")
  endif()
  string(APPEND out "    {\"${rel}\", R\"cudalintembed(${text})cudalintembed\"},\n")
endforeach()
string(APPEND out "};\n}  // namespace\n\nstd::span<const EmbeddedHeader> clang_resource_headers() { return kHeaders; }\n\n}  // namespace cudalint::cuda\n")
file(WRITE ${OUT}.tmp "${out}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
