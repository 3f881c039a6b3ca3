// The GB rules whose breaks are not call patterns of the rule's own file: the summarizer finds
// them where it meets them (branches on tensors, class statements, attribute stores, ...) and the
// model where they need other files (RNN modules, scripted modules, extension and disabled
// functions). docs/architecture.md lists where each rule is detected; registry_test checks that
// each id here names a GB rule.
#pragma once

#include <array>
#include <string_view>

namespace cudalint::python::gb::rule_id {

inline constexpr std::string_view kDataDependentBranch = "GB007";
inline constexpr std::string_view kDataDependentOperator = "GB008";
inline constexpr std::string_view kDynamicOutputShapeOp = "GB014";
inline constexpr std::string_view kUnsupportedBuiltinCall = "GB015";
inline constexpr std::string_view kTensorToString = "GB016";
inline constexpr std::string_view kClassDefinedInCompiledCode = "GB018";
inline constexpr std::string_view kUnsupportedTensorApi = "GB019";
inline constexpr std::string_view kRnnModuleInCompiledCode = "GB021";
inline constexpr std::string_view kScriptedModuleInCompiledCode = "GB022";
inline constexpr std::string_view kExtensionCallNotCustomOp = "GB023";
inline constexpr std::string_view kDisabledFunctionCalled = "GB024";
inline constexpr std::string_view kAutogradStateInCompiledCode = "GB026";
inline constexpr std::string_view kTensorStorageMutation = "GB027";
inline constexpr std::string_view kUnsupportedNumpyCall = "GB028";
inline constexpr std::string_view kUnsupportedTorchFunction = "GB029";
inline constexpr std::string_view kUnsupportedPythonConstruct = "GB030";

inline constexpr std::array kAll = {
    kDataDependentBranch, kDataDependentOperator, kDynamicOutputShapeOp, kUnsupportedBuiltinCall,
    kTensorToString, kClassDefinedInCompiledCode, kUnsupportedTensorApi, kRnnModuleInCompiledCode,
    kScriptedModuleInCompiledCode, kExtensionCallNotCustomOp, kDisabledFunctionCalled,
    kAutogradStateInCompiledCode, kTensorStorageMutation, kUnsupportedNumpyCall,
    kUnsupportedTorchFunction, kUnsupportedPythonConstruct};

}  // namespace cudalint::python::gb::rule_id
