// Graph-break summaries: the calls that break the graph, one row per call pattern (see
// gb_call_patterns.h). Registry ids are Dynamo's (torch/_dynamo/graph_break_registry.json), as
// measured by the oracle where noted (tests/oracle/gb/). To detect a new kind of call, add rows
// here with the BreakKind of the rule that reports it.
#include "analyzer/frontends/python/gb_call_patterns.h"

#include <array>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cudalint::python::gb::detail {

namespace {

using A = ArgTest;
using BK = BreakKind;
using G = Gate;
constexpr Callee F = Callee::Function;
constexpr Callee TM = Callee::TensorMethod;
constexpr Callee LM = Callee::LoggerMethod;

// In order: for one call, the first row whose name matches and whose ArgTest holds is the break.
constexpr CallPattern kRows[] = {
    // callee, name, args, rule, gate, Dynamo id, detail
    // GB004 print-in-compiled-code
    {F, "builtins.print", A::Any, BK::Print, G::Always, "GB0059", "print"},
    {F, "sys.stdout.write", A::Any, BK::Print, G::Always, "GB0156", "{}"},
    {F, "sys.stderr.write", A::Any, BK::Print, G::Always, "GB0156", "{}"},
    // GB005 logging-in-compiled-code: module-level functions, then Logger methods
    {F, "logging.debug", A::Any, BK::Logging, G::Always, "GB0156", "{}"},
    {F, "logging.info", A::Any, BK::Logging, G::Always, "GB0156", "{}"},
    {F, "logging.warning", A::Any, BK::Logging, G::Always, "GB0156", "{}"},
    {F, "logging.warn", A::Any, BK::Logging, G::Always, "GB0156", "{}"},
    {F, "logging.error", A::Any, BK::Logging, G::Always, "GB0156", "{}"},
    {F, "logging.exception", A::Any, BK::Logging, G::Always, "GB0156", "{}"},
    {F, "logging.critical", A::Any, BK::Logging, G::Always, "GB0156", "{}"},
    {F, "logging.fatal", A::Any, BK::Logging, G::Always, "GB0156", "{}"},
    {F, "logging.log", A::Any, BK::Logging, G::Always, "GB0156", "{}"},
    {LM, "debug", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "info", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "warning", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "warn", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "error", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "exception", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "critical", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "fatal", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "log", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    {LM, "isEnabledFor", A::Any, BK::Logging, G::Always, "GB0291", "logging.Logger.{}"},
    // GB006 warnings-in-compiled-code
    {F, "warnings.warn", A::Any, BK::Warnings, G::Always, "GB0007", "{}"},
    {F, "warnings.warn_explicit", A::Any, BK::Warnings, G::Always, "GB0007", "{}"},
    // GB009 explicit-graph-break
    {F, "torch._dynamo.graph_break", A::Any, BK::ExplicitBreak, G::Always, "GB0025", ""},
    {F, "torch._dynamo.skip_frame", A::Any, BK::ExplicitBreak, G::Always, "GB4297", "`{}()`"},
    {F, "torch._dynamo.step_unsupported", A::Any, BK::ExplicitBreak, G::Always, "GB0284", "`{}()`"},
    {F, "torch._dynamo.comptime.comptime", A::GraphBreakCallback, BK::ExplicitBreak, G::Always, "GB0030", "a `comptime` callback calling `graph_break()`"},
    // GB010 debugger-in-compiled-code
    {F, "builtins.breakpoint", A::Any, BK::Debugger, G::Always, "GB0059", "breakpoint"},
    {F, "pdb.set_trace", A::Any, BK::Debugger, G::Always, "GB0007", "{}"},
    {F, "ipdb.set_trace", A::Any, BK::Debugger, G::Always, "GB0007", "{}"},
    {F, "pdb.post_mortem", A::Any, BK::Debugger, G::Always, "GB0007", "{}"},
    {F, "pudb.set_trace", A::Any, BK::Debugger, G::Always, "GB0007", "{}"},
    {F, "ipdb.post_mortem", A::Any, BK::Debugger, G::Always, "GB0007", "{}"},
    // GB011 deepcopy-in-compiled-code
    {F, "copy.deepcopy", A::Any, BK::DeepCopy, G::Always, "GB0179", ""},
    // GB025 async-collective-in-compiled-code: a collective that returns a Work handle; Dynamo traces
    // only synchronous ones (rewritten to functional collectives). The ids are the ones measured
    // on torch 2.11 (tests/oracle/gb/corpus/gb_collectives.py), none for the others.
    {F, "torch.distributed.all_reduce", A::AsyncOp, BK::AsyncCollective, G::Always, "GB0172", "{}"},
    {F, "torch.distributed.all_to_all_single", A::AsyncOp, BK::AsyncCollective, G::Always, "GB0172", "{}"},
    {F, "torch.distributed.broadcast", A::AsyncOp, BK::AsyncCollective, G::Always, "GB0007", "{}"},
    {F, "torch.distributed.*", A::AsyncOp, BK::AsyncCollective, G::Always, "", "{}"},
    // GB012 wall-clock-in-compiled-code
    {F, "time.time", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "time.time_ns", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "time.perf_counter", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "time.perf_counter_ns", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "time.monotonic", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "time.monotonic_ns", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "time.process_time", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "time.process_time_ns", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "time.thread_time", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "datetime.datetime.now", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "datetime.datetime.utcnow", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "datetime.datetime.today", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    {F, "datetime.date.today", A::Any, BK::WallClock, G::Always, "GB0007", "{}"},
    // GB013 skipped-stdlib-call
    {F, "copy.copy", A::Any, BK::SkippedStdlib, G::Always, "GB0007", "{}"},
    {F, "json.dumps", A::Any, BK::SkippedStdlib, G::Always, "GB0007", "{}"},
    {F, "json.loads", A::Any, BK::SkippedStdlib, G::Always, "GB0007", "{}"},
    {F, "json.dump", A::Any, BK::SkippedStdlib, G::Always, "GB0007", "{}"},
    {F, "json.load", A::Any, BK::SkippedStdlib, G::Always, "GB0007", "{}"},
    {F, "os.getpid", A::Any, BK::SkippedStdlib, G::Always, "GB0007", "{}"},
    {F, "os.getppid", A::Any, BK::SkippedStdlib, G::Always, "GB0007", "{}"},
    {F, "random.random", A::Any, BK::SkippedStdlib, G::Always, "GB0007", "{}"},
    {F, "time.sleep", A::Any, BK::SkippedStdlib, G::Always, "GB0007", "{}"},
    // GB015 unsupported-builtin-call
    {F, "builtins.open", A::Any, BK::UnsupportedBuiltin, G::Always, "GB0059", "open"},
    {F, "builtins.eval", A::Any, BK::UnsupportedBuiltin, G::Always, "GB0059", "eval"},
    {F, "builtins.exec", A::Any, BK::UnsupportedBuiltin, G::Always, "GB0059", "exec"},
    {F, "builtins.globals", A::Any, BK::UnsupportedBuiltin, G::Always, "GB0059", "globals"},
    {F, "builtins.input", A::Any, BK::UnsupportedBuiltin, G::Always, "GB0059", "input"},
    {F, "builtins.vars", A::NoPositional, BK::UnsupportedBuiltin, G::Always, "GB0270", "`vars()` without arguments"},
    {F, "builtins.super", A::OnlyOnePositional, BK::UnsupportedBuiltin, G::Always, "GB0193", "`super()` with one argument"},
    {F, "builtins.id", A::OneFreshTensor, BK::UnsupportedBuiltin, G::Always, "GB0141", "`id()` of a tensor made in the function"},
    {F, "builtins.sorted", A::ListWithTensor, BK::UnsupportedBuiltin, G::Always, "GB0207", "`sorted()` over tensors"},
    {F, "operator.index", A::OneTensor, BK::UnsupportedBuiltin, G::Always, "GB0218", "`operator.index()` of a tensor"},
    // Measured ids (registry corpus reg1_1.py): a tensor key GB0152, a positional key GB0134,
    // another keyword GB0155.
    {F, "itertools.groupby", A::TensorKey, BK::UnsupportedBuiltin, G::Always, "GB0152", "`itertools.groupby()` with a key that returns tensors"},
    {F, "itertools.groupby", A::SecondPositional, BK::UnsupportedBuiltin, G::Always, "GB0134", "`itertools.groupby()` with the key passed positionally"},
    {F, "itertools.groupby", A::KeywordNotKey, BK::UnsupportedBuiltin, G::Always, "GB0155", "`itertools.groupby()` with a keyword other than `key=`"},
    {F, "random.Random", A::AnyKeyword, BK::UnsupportedBuiltin, G::Always, "GB0297", "`random.Random()` with keyword arguments"},
    {F, "contextlib.closing", A::Any, BK::UnsupportedBuiltin, G::Always, "GB0262", "`{}`"},
    {F, "contextlib.redirect_stdout", A::Any, BK::UnsupportedBuiltin, G::Always, "GB0262", "`{}`"},
    {F, "contextlib.redirect_stderr", A::Any, BK::UnsupportedBuiltin, G::Always, "GB0262", "`{}`"},
    {F, "contextlib.AsyncExitStack", A::Any, BK::UnsupportedBuiltin, G::Always, "GB0262", "`{}`"},
    // Builtin exceptions that take keywords (name=, path=, obj=); Dynamo builds them from positionals only.
    {F, "builtins.ImportError", A::AnyKeyword, BK::UnsupportedBuiltin, G::Always, "GB0273", "`ImportError()` with keyword arguments"},
    {F, "builtins.ModuleNotFoundError", A::AnyKeyword, BK::UnsupportedBuiltin, G::Always, "GB0273", "`ModuleNotFoundError()` with keyword arguments"},
    {F, "builtins.AttributeError", A::AnyKeyword, BK::UnsupportedBuiltin, G::Always, "GB0273", "`AttributeError()` with keyword arguments"},
    {F, "builtins.NameError", A::AnyKeyword, BK::UnsupportedBuiltin, G::Always, "GB0273", "`NameError()` with keyword arguments"},
    // GB016 tensor-to-string (f-strings of tensors: Summarizer::scan)
    {F, "builtins.str", A::OneTensor, BK::TensorToString, G::Always, "GB0059", "str"},
    {F, "builtins.repr", A::OneTensor, BK::TensorToString, G::Always, "GB0059", "repr"},
    // GB001 tensor-item-in-compiled-code
    {F, "builtins.int", A::OneTensor, BK::Item, G::UnlessScalarsCaptured, "GB0124", "int()"},
    {F, "builtins.float", A::OneTensor, BK::Item, G::UnlessScalarsCaptured, "GB0124", "float()"},
    {F, "builtins.bool", A::OneTensor, BK::Item, G::UnlessScalarsCaptured, "GB0124", "bool()"},
    {TM, "item", A::NoPositional, BK::Item, G::UnlessScalarsCaptured, "GB0124", "item"},
    // GB002 tensor-tolist-in-compiled-code
    {TM, "tolist", A::NoPositional, BK::ToList, G::UnlessScalarsCaptured, "GB0033", "tolist"},
    // GB003 tensor-numpy-without-trace-numpy
    {TM, "numpy", A::NoPositional, BK::NumpyUntraced, G::OnlyNumpyUntraced, "GB0105", "numpy"},
    {F, "torch.from_numpy", A::Any, BK::NumpyUntraced, G::OnlyNumpyUntraced, "GB0231", "{}"},
    {F, "numpy.*", A::Any, BK::NumpyUntraced, G::OnlyNumpyUntraced, "GB0293", "{}"},
    // GB008 data-dependent-operator
    {F, "torch.equal", A::Any, BK::DataDependentOp, G::Always, "GB0033", "{}"},
    {F, "torch.allclose", A::Any, BK::DataDependentOp, G::Always, "GB0033", "{}"},
    {TM, "equal", A::TensorReceiver, BK::DataDependentOp, G::Always, "GB0033", "Tensor.{}"},
    {TM, "allclose", A::Any, BK::DataDependentOp, G::Always, "GB0033", "Tensor.{}"},
    // GB020 rng-state-in-compiled-code
    {F, "torch.manual_seed", A::Any, BK::RngState, G::Always, "GB0007", "{}"},
    {F, "torch.random.manual_seed", A::Any, BK::RngState, G::Always, "GB0007", "{}"},
    {F, "torch.seed", A::Any, BK::RngState, G::Always, "GB0007", "{}"},
    {F, "torch.Generator", A::Any, BK::RngState, G::Always, "GB0007", "{}"},
    // GB014 dynamic-output-shape-op (boolean-mask indexing: Summarizer::scan)
    {F, "torch.nonzero", A::Any, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.unique", A::Any, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.unique_consecutive", A::Any, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.masked_select", A::Any, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.argwhere", A::Any, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.bincount", A::Any, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.where", A::OnlyOnePositional, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "{}"},
    {F, "torch.repeat_interleave", A::SecondTensorNoOutputSize, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "{}"},
    // Dynamo rejects one_hot without num_classes outright, whatever the capture settings.
    {F, "torch.nn.functional.one_hot", A::NoNumClasses, BK::DynamicShape, G::Always, "GB0246", "`{}` without num_classes"},
    {TM, "nonzero", A::NoAsTuple, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "unique", A::NoAsTuple, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "unique_consecutive", A::NoAsTuple, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "masked_select", A::NoAsTuple, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "argwhere", A::NoAsTuple, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "bincount", A::NoAsTuple, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    {TM, "repeat_interleave", A::FirstTensorNoOutputSize, BK::DynamicShape, G::UnlessDynamicCaptured, "GB0036", "Tensor.{}"},
    // GB017 backward-in-compiled-code
    {TM, "backward", A::Any, BK::Backward, G::UnlessAutogradTraced, "GB0123", ""},
    {F, "torch.autograd.grad", A::Any, BK::Backward, G::UnlessAutogradTraced, "GB9186", "{}"},
    // GB019 unsupported-tensor-api (`grad_fn`: Summarizer::scan)
    {TM, "is_inference", A::NoPositional, BK::TensorApi, G::Always, "GB0045", "is_inference()"},
    {TM, "random_", A::Any, BK::TensorApi, G::Always, "GB0107", "random_()"},
    {TM, "share_memory_", A::Any, BK::TensorApi, G::Always, "GB0117", "share_memory_()"},
    {TM, "uniform_", A::FromInSplat, BK::TensorApi, G::Always, "GB0110", "uniform_() with a `from` keyword"},
    // GB026 autograd-state-in-compiled-code
    {TM, "requires_grad_", A::NotFalse, BK::AutogradState, G::Always, "GB0125", "`Tensor.requires_grad_()`"},
    {TM, "retain_grad", A::NoPositional, BK::AutogradState, G::Always, "GB0108", "`Tensor.retain_grad()`"},
    {F, "torch.nn.Parameter", A::NoDataOrFresh, BK::AutogradState, G::Always, "GB0264", "`torch.nn.Parameter()` of a tensor made in the function"},
    {F, "torch.nn.parameter.Parameter", A::NoDataOrFresh, BK::AutogradState, G::Always, "GB0264", "`torch.nn.Parameter()` of a tensor made in the function"},
    {F, "torch.*", A::KeywordTrue, BK::AutogradState, G::Always, "GB0225", "`{}(requires_grad=True)`", "requires_grad"},
    // GB027 tensor-storage-mutation (`.data =`, `.real =`, `.imag =`: Summarizer::assignment)
    {F, "torch.*", A::OutResized, BK::StorageMutation, G::Always, "GB0247", "`out=` a buffer of another shape, which Dynamo would resize"},
    {F, "torch.*", A::OutNonContiguous, BK::StorageMutation, G::Always, "GB0242", "`out=` a non-contiguous view"},
    {TM, "resize_", A::FreshReceiver, BK::StorageMutation, G::Always, "GB0126", "`Tensor.resize_()`"},
    {TM, "resize_as_", A::FreshReceiver, BK::StorageMutation, G::Always, "GB0127", "`Tensor.resize_as_()`"},
    {TM, "set_", A::SeveralPositional, BK::StorageMutation, G::Always, "GB0128", "`Tensor.set_(storage, ...)`"},
    {TM, "sparse_resize_", A::Any, BK::StorageMutation, G::Always, "GB0015", "`Tensor.sparse_resize_()`"},
    {TM, "sparse_resize_and_clear_", A::Any, BK::StorageMutation, G::Always, "GB0015", "`Tensor.sparse_resize_and_clear_()`"},
    {TM, "unsqueeze_", A::InputReceiver, BK::StorageMutation, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "squeeze_", A::InputReceiver, BK::StorageMutation, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "t_", A::InputReceiver, BK::StorageMutation, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "transpose_", A::InputReceiver, BK::StorageMutation, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "swapdims_", A::InputReceiver, BK::StorageMutation, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "swapaxes_", A::InputReceiver, BK::StorageMutation, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {TM, "as_strided_", A::InputReceiver, BK::StorageMutation, G::Always, "GB0148", "in-place view op `Tensor.{}()` on an input"},
    {F, "torch.Tensor.unsqueeze_", A::FirstInput, BK::StorageMutation, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.squeeze_", A::FirstInput, BK::StorageMutation, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.t_", A::FirstInput, BK::StorageMutation, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.transpose_", A::FirstInput, BK::StorageMutation, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.swapdims_", A::FirstInput, BK::StorageMutation, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.swapaxes_", A::FirstInput, BK::StorageMutation, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    {F, "torch.Tensor.as_strided_", A::FirstInput, BK::StorageMutation, G::Always, "GB0072", "in-place view op `{}()` on an input"},
    // GB028 unsupported-numpy-call: ndarrays from Tensor.numpy() (attributes: Summarizer::scan),
    // ufunc methods ("numpy.ufunc.<method>" stands for np.<any ufunc>.<method>), functions
    // torch._numpy lacks.
    {TM, "tobytes", A::NdarrayReceiver, BK::NumpyUnsupported, G::Always, "GB0158", "`ndarray.{}()`"},
    {TM, "tostring", A::NdarrayReceiver, BK::NumpyUnsupported, G::Always, "GB0158", "`ndarray.{}()`"},
    {TM, "astype", A::NdarrayObjectDtype, BK::NumpyUnsupported, G::Always, "GB0250", "`ndarray.astype(object)`"},
    {F, "numpy.ufunc.reduce", A::Any, BK::NumpyUnsupported, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.ufunc.accumulate", A::Any, BK::NumpyUnsupported, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.ufunc.outer", A::Any, BK::NumpyUnsupported, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.ufunc.reduceat", A::Any, BK::NumpyUnsupported, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.ufunc.at", A::Any, BK::NumpyUnsupported, G::Always, "GB0290", "the ufunc method `{}`"},
    {F, "numpy.polyval", A::Any, BK::NumpyUnsupported, G::Always, "GB0294", "`{}`"},
    {F, "numpy.polyfit", A::Any, BK::NumpyUnsupported, G::Always, "GB0294", "`{}`"},
    {F, "numpy.poly1d", A::Any, BK::NumpyUnsupported, G::Always, "GB0294", "`{}`"},
    {F, "numpy.polyder", A::Any, BK::NumpyUnsupported, G::Always, "GB0294", "`{}`"},
    {F, "numpy.polyint", A::Any, BK::NumpyUnsupported, G::Always, "GB0294", "`{}`"},
    {F, "numpy.roots", A::Any, BK::NumpyUnsupported, G::Always, "GB0294", "`{}`"},
    // GB029 unsupported-torch-function (torch.compile(backend=...) inside a region: on_call)
    {F, "torch.is_inference_mode_enabled", A::Any, BK::TorchFunction, G::Always, "GB0046", "`{}()`"},
    {F, "torch.autograd.Variable._execution_engine.is_checkpoint_valid", A::Any, BK::TorchFunction, G::Always, "GB0165", "`{}()`"},
    {F, "torch.use_deterministic_algorithms", A::KeywordTrue, BK::TorchFunction, G::Always, "GB0230", "`{}(warn_only=True)`", "warn_only"},
    {F, "torch.nested.nested_tensor", A::KeywordNot, BK::TorchFunction, G::Always, "GB0233", "`{}` without `layout=torch.jagged`", "layout=torch.jagged"},
    {F, "torch._check", A::MessageNotClosureFree, BK::TorchFunction, G::Always, "GB0288", "`{}` with a message that is not a closure-free lambda"},
    {F, "torch.sparse_coo_tensor", A::Any, BK::TorchFunction, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_csr_tensor", A::Any, BK::TorchFunction, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_csc_tensor", A::Any, BK::TorchFunction, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_bsr_tensor", A::Any, BK::TorchFunction, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_bsc_tensor", A::Any, BK::TorchFunction, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {F, "torch.sparse_compressed_tensor", A::Any, BK::TorchFunction, G::Always, "GB0007", "`{}` (sparse tensors)"},
    {TM, "to_sparse", A::Any, BK::TorchFunction, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_coo", A::Any, BK::TorchFunction, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_csr", A::Any, BK::TorchFunction, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_csc", A::Any, BK::TorchFunction, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_bsr", A::Any, BK::TorchFunction, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
    {TM, "to_sparse_bsc", A::Any, BK::TorchFunction, G::Always, "GB0277", "`Tensor.{}()` (sparse tensors)"},
};

struct Index {
  using Rows = std::unordered_map<std::string_view, std::vector<const CallPattern*>>;
  std::array<Rows, 3> exact;  // by Callee
  Rows module;                // Function rows "<module>.*", by the module's path
  Index() {
    for (const CallPattern& row : kRows) {
      if (row.callee == Callee::Function && row.name.ends_with(".*"))
        module[row.name.substr(0, row.name.size() - 2)].push_back(&row);
      else
        exact[static_cast<size_t>(row.callee)][row.name].push_back(&row);
    }
  }
};

const Index& index() {
  static const Index idx;
  return idx;
}

}  // namespace

std::span<const CallPattern* const> call_pattern_rows(Callee callee, std::string_view key, bool module) {
  const Index::Rows& rows = module ? index().module : index().exact[static_cast<size_t>(callee)];
  auto it = rows.find(key);
  if (it == rows.end()) return {};
  return it->second;
}

std::span<const CallPattern> all_call_patterns() { return kRows; }

}  // namespace cudalint::python::gb::detail
