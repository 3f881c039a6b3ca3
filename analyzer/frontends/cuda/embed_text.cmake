# Writes a C++ function returning the text of a file: -DIN=file -DOUT=file.cpp -DFUNC=qualified::name
file(READ ${IN} text)
set(out "// Generated from ${IN} by embed_text.cmake. Do not edit.\n#include <string_view>\n")
string(REGEX REPLACE "::[^:]+$" "" ns "${FUNC}")
string(REGEX REPLACE "^.*::" "" fn "${FUNC}")
string(APPEND out "namespace ${ns} {\nstd::string_view ${fn}() {\n  static constexpr std::string_view t = R\"cudalintembed(${text})cudalintembed\";\n  return t;\n}\n}\n")
file(WRITE ${OUT}.tmp "${out}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
