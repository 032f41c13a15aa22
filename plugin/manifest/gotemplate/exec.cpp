// Go's text/template executor (text/template/exec.go) over the twin's values: the same evaluation
// order, variable scopes, argument checks and errors.
#include "manifest/gotemplate/exec.hpp"

#include <span>

#include "util/go_fmt.hpp"
#include "util/go_strconv.hpp"

namespace tazuna::manifest::gotemplate {
namespace {

using util::GoKind;
using util::Result;
using util::Status;
using Operands = std::vector<std::unique_ptr<Node>>;

enum class Flow { kNormal, kBreak, kContinue };

bool IsHexInt(const std::string& s) {
  return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s.find_first_of("pP") == std::string::npos;
}

class Executor {
 public:
  Executor(const Source& source, const TreeSet& trees, const ExecOptions& options)
      : source_(source), trees_(trees), options_(options) {}

  Result<std::string> Run(const std::string& name, const GoValue& data) {
    const auto it = trees_.find(name);
    if (it == trees_.end()) return Fail(0, util::GoQuote(name, util::QuoteMode::kUnicode) + " is an incomplete or empty template");
    vars_ = {{"$", data}};
    auto flow = Walk(data, *it->second);
    if (!flow) return flow.error();
    return std::move(out_);
  }

 private:
  util::Error Fail(size_t pos, const std::string& message) const { return TemplateError(source_, pos, message); }
  Status Write(std::string_view text, size_t pos) {
    if (out_.size() + text.size() > options_.max_output) {
      return Fail(pos, "output exceeds " + std::to_string(options_.max_output) + " bytes");
    }
    out_.append(text);
    return util::Ok();
  }

  Result<Flow> Walk(const GoValue& dot, const Node& n);
  Result<Flow> WalkList(const GoValue& dot, const Node* list);
  Result<Flow> WalkIfOrWith(const GoValue& dot, const Node& n);
  Result<Flow> WalkRange(const GoValue& dot, const Node& n);
  Result<Flow> RangeIteration(const Node& r, const GoValue& index, const GoValue& elem, size_t mark);
  Status WalkTemplate(const GoValue& dot, const Node& n);
  Result<GoValue> EvalPipeline(const GoValue& dot, const Node* pipe);
  Result<GoValue> EvalCommand(const GoValue& dot, const Node& cmd, const GoValue* final);
  Result<GoValue> EvalArg(const GoValue& dot, std::optional<ArgType> type, const Node& n);
  Result<GoValue> Validate(Result<GoValue> value, std::optional<ArgType> type, size_t pos);
  Result<GoValue> EvalFieldChain(const GoValue& dot, GoValue receiver, const Node& node,
                                 std::span<const std::string> idents, size_t operands, const GoValue* final);
  Result<GoValue> EvalField(const std::string& name, const Node& node, bool has_args, const GoValue& receiver);
  Result<GoValue> EvalVariable(const GoValue& dot, const Node& n, size_t operands, const GoValue* final);
  Result<GoValue> EvalChain(const GoValue& dot, const Node& n, size_t operands, const GoValue* final);
  Result<GoValue> EvalFunction(const GoValue& dot, const Node& ident, const Operands* args, const GoValue* final);
  Result<GoValue> EvalAndOr(const GoValue& dot, const Node& ident, std::span<const std::unique_ptr<Node>> args,
                            const GoValue* final);
  Result<GoValue> IdealConstant(const Node& n);
  Status NotAFunction(size_t operands, const GoValue* final, size_t pos) {
    if (operands > 1 || final != nullptr) return Fail(pos, "can't give argument to non-function");
    return util::Ok();
  }
  Result<GoValue> VarValue(const std::string& name, size_t pos) {
    for (auto it = vars_.rbegin(); it != vars_.rend(); ++it) {
      if (it->first == name) return it->second;
    }
    return Fail(pos, "undefined variable: " + name);
  }
  Status SetVar(const std::string& name, const GoValue& value, size_t pos) {
    for (auto it = vars_.rbegin(); it != vars_.rend(); ++it) {
      if (it->first == name) {
        it->second = value;
        return util::Ok();
      }
    }
    return Fail(pos, "undefined variable: " + name);
  }

  const Source& source_;
  const TreeSet& trees_;
  const ExecOptions& options_;
  std::string out_;
  std::vector<std::pair<std::string, GoValue>> vars_;
  int depth_ = 0;
  uint64_t iterations_ = 0;
};

Result<Flow> Executor::WalkList(const GoValue& dot, const Node* list) {
  if (list == nullptr) return Flow::kNormal;
  for (const auto& child : list->nodes) {
    auto flow = Walk(dot, *child);
    if (!flow || *flow != Flow::kNormal) return flow;
  }
  return Flow::kNormal;
}

Result<Flow> Executor::Walk(const GoValue& dot, const Node& n) {
  switch (n.type) {
    case NodeType::kAction: {
      auto val = EvalPipeline(dot, n.pipe.get());
      if (!val) return val.error();
      if (!n.pipe->decl.empty()) return Flow::kNormal;  // a declaration prints nothing
      const std::string text = val->kind == GoKind::kInvalid ? "<no value>" : util::GoSprint({*val});
      if (auto st = Write(text, n.pos); !st) return st.error();
      return Flow::kNormal;
    }
    case NodeType::kBreak: return Flow::kBreak;
    case NodeType::kContinue: return Flow::kContinue;
    case NodeType::kIf:
    case NodeType::kWith: return WalkIfOrWith(dot, n);
    case NodeType::kList: return WalkList(dot, &n);
    case NodeType::kRange: return WalkRange(dot, n);
    case NodeType::kTemplate: {
      if (auto st = WalkTemplate(dot, n); !st) return st.error();
      return Flow::kNormal;
    }
    case NodeType::kText: {
      if (auto st = Write(n.text, n.pos); !st) return st.error();
      return Flow::kNormal;
    }
    default: return Fail(n.pos, "unknown node");
  }
}

Result<Flow> Executor::WalkIfOrWith(const GoValue& dot, const Node& n) {
  const size_t mark = vars_.size();
  auto val = EvalPipeline(dot, n.pipe.get());
  if (!val) return val.error();
  bool ok = true;
  const bool truth = IsTrue(*val, &ok);
  if (!ok) return Fail(n.pos, "if/with can't use " + util::GoSprint({*val}));
  auto flow = truth ? WalkList(n.type == NodeType::kWith ? *val : dot, n.list.get()) : WalkList(dot, n.else_list.get());
  vars_.resize(mark);
  return flow;
}

Result<Flow> Executor::RangeIteration(const Node& r, const GoValue& index, const GoValue& elem, size_t mark) {
  if (++iterations_ > options_.max_iterations) return Fail(r.pos, "range: too many iterations");
  const Node& pipe = *r.pipe;
  if (!pipe.decl.empty()) {
    const bool first_is_index = pipe.is_assign && pipe.decl.size() > 1;
    if (pipe.is_assign) {
      if (auto st = SetVar(pipe.decl[0]->ident[0], first_is_index ? index : elem, r.pos); !st) return st.error();
    } else {
      vars_[vars_.size() - 1].second = elem;
    }
  }
  if (pipe.decl.size() > 1) {
    if (pipe.is_assign) {
      if (auto st = SetVar(pipe.decl[1]->ident[0], elem, r.pos); !st) return st.error();
    } else {
      vars_[vars_.size() - 2].second = index;
    }
  }
  auto flow = WalkList(elem, r.list.get());
  vars_.resize(mark);
  if (flow && *flow == Flow::kContinue) return Flow::kNormal;
  return flow;
}

Result<Flow> Executor::WalkRange(const GoValue& dot, const Node& r) {
  const size_t outer = vars_.size();
  auto piped = EvalPipeline(dot, r.pipe.get());
  if (!piped) return piped.error();
  const GoValue val = *piped;
  const size_t mark = vars_.size();
  bool ran = false;
  const auto run = [&](const GoValue& index, const GoValue& elem) -> Result<Flow> {
    ran = true;
    return RangeIteration(r, index, elem, mark);
  };
  Result<Flow> flow = Flow::kNormal;
  if (val.kind == GoKind::kInt || val.kind == GoKind::kUint8) {
    if (r.pipe->decl.size() > 1) return Fail(r.pos, "can't use " + util::GoSprint({val}) + " to iterate over more than one variable");
    const int64_t n = val.kind == GoKind::kInt ? val.i : static_cast<int64_t>(val.u);
    for (int64_t i = 0; i < n && flow && *flow == Flow::kNormal; ++i) {
      flow = run(GoValue{}, val.kind == GoKind::kInt ? GoValue::Int(i) : GoValue::Uint8(static_cast<uint8_t>(i)));
    }
  } else if (val.kind == GoKind::kSlice) {
    for (size_t i = 0; i < val.slice->size() && flow && *flow == Flow::kNormal; ++i) {
      flow = run(GoValue::Int(static_cast<int64_t>(i)), (*val.slice)[i]);
    }
  } else if (val.kind == GoKind::kMap) {
    // As Go (fmtsort.Sort): the entries as they were when the range began; sprig's set and unset may change
    // the map meanwhile.
    const util::GoMap entries = *val.map;
    for (auto it = entries.begin(); it != entries.end() && flow && *flow == Flow::kNormal; ++it) {
      flow = run(GoValue::String(it->first), it->second);
    }
  } else if (val.kind != GoKind::kInvalid) {
    return Fail(r.pos, "range can't iterate over " + util::GoSprint({val}));
  }
  if (!flow) return flow.error();
  if (!ran) {
    flow = WalkList(dot, r.else_list.get());
    if (!flow) return flow.error();
  }
  vars_.resize(outer);
  return *flow == Flow::kContinue ? Flow::kContinue : Flow::kNormal;
}

Status Executor::WalkTemplate(const GoValue& dot, const Node& n) {
  const auto it = trees_.find(n.text);
  if (it == trees_.end()) return Fail(n.pos, "template " + util::GoQuote(n.text, util::QuoteMode::kUnicode) + " not defined");
  if (depth_ >= options_.max_depth) return Fail(n.pos, "exceeded maximum template depth (" + std::to_string(options_.max_depth) + ")");
  auto new_dot = EvalPipeline(dot, n.pipe.get());  // variables it declares persist here
  if (!new_dot) return new_dot.error();
  auto saved = std::exchange(vars_, {{"$", *new_dot}});  // no dynamic scoping
  ++depth_;
  auto flow = WalkList(*new_dot, it->second.get());
  --depth_;
  vars_ = std::move(saved);
  if (!flow) return flow.error();
  return util::Ok();
}

Result<GoValue> Executor::EvalPipeline(const GoValue& dot, const Node* pipe) {
  if (pipe == nullptr) return GoValue{};
  GoValue value;
  bool first = true;
  for (const auto& cmd : pipe->nodes) {
    auto next = EvalCommand(dot, *cmd, first ? nullptr : &value);
    if (!next) return next.error();
    value = std::move(*next);
    if (value.kind == GoKind::kNil) value = GoValue{};  // an empty interface{} holds no value
    first = false;
  }
  for (const auto& var : pipe->decl) {
    if (pipe->is_assign) {
      if (auto st = SetVar(var->ident[0], value, var->pos); !st) return st.error();
    } else {
      vars_.emplace_back(var->ident[0], value);
    }
  }
  return value;
}

Result<GoValue> Executor::EvalCommand(const GoValue& dot, const Node& cmd, const GoValue* final) {
  const Node& first = *cmd.nodes[0];
  const size_t operands = cmd.nodes.size();
  switch (first.type) {
    case NodeType::kField: return EvalFieldChain(dot, dot, first, first.ident, operands, final);
    case NodeType::kChain: return EvalChain(dot, first, operands, final);
    case NodeType::kIdentifier: return EvalFunction(dot, first, &cmd.nodes, final);
    case NodeType::kVariable: return EvalVariable(dot, first, operands, final);
    default: break;
  }
  if (auto st = NotAFunction(operands, final, first.pos); !st) return st.error();
  switch (first.type) {
    case NodeType::kPipe: return EvalPipeline(dot, &first);
    case NodeType::kBool: return GoValue::Bool(first.b);
    case NodeType::kDot: return dot;
    case NodeType::kNil: return Fail(first.pos, "nil is not a command");
    case NodeType::kNumber: return IdealConstant(first);
    case NodeType::kString: return GoValue::String(first.text);
    default: return Fail(first.pos, "can't evaluate command");
  }
}

Result<GoValue> Executor::IdealConstant(const Node& n) {
  const Number& c = n.number;
  if (c.is_complex) return GoValue::Complex(c.re, c.im);
  if (c.is_float && !IsHexInt(c.text) && c.text[0] != '\'' && c.text.find_first_of(".eEpP") != std::string::npos) {
    return GoValue::Float(c.f);
  }
  if (c.is_int) return GoValue::Int(c.i);
  if (c.is_uint) return Fail(n.pos, c.text + " overflows int");
  return GoValue{};
}

Result<GoValue> Executor::Validate(Result<GoValue> value, std::optional<ArgType> type, size_t pos) {
  if (!value || !type) return value;
  if (*type == ArgType::kAny) return value->kind == GoKind::kInvalid ? GoValue::Nil() : std::move(*value);
  if (*type == ArgType::kValue) return value;  // a reflect.Value parameter takes no value as well
  if (value->kind == GoKind::kInvalid) return Fail(pos, "invalid value; expected string");
  if (*type == ArgType::kString && value->kind != GoKind::kString) {
    return Fail(pos, "wrong type for value; expected string; got " +
                         (value->kind == GoKind::kNil ? std::string("interface {}") : value->TypeName()));
  }
  return value;
}

Result<GoValue> Executor::EvalArg(const GoValue& dot, std::optional<ArgType> type, const Node& n) {
  switch (n.type) {
    case NodeType::kDot: return Validate(dot, type, n.pos);
    case NodeType::kNil:
      if (type == ArgType::kAny) return GoValue::Nil();
      if (type == ArgType::kValue) return GoValue{};  // reflect.Value's zero value
      return Fail(n.pos, "cannot assign nil to string");
    case NodeType::kField: return Validate(EvalFieldChain(dot, dot, n, n.ident, 1, nullptr), type, n.pos);
    case NodeType::kVariable: return Validate(EvalVariable(dot, n, 0, nullptr), type, n.pos);
    case NodeType::kPipe: return Validate(EvalPipeline(dot, &n), type, n.pos);
    case NodeType::kIdentifier: return Validate(EvalFunction(dot, n, nullptr, nullptr), type, n.pos);
    case NodeType::kChain: return Validate(EvalChain(dot, n, 0, nullptr), type, n.pos);
    default: break;
  }
  if (type == ArgType::kString) {
    if (n.type == NodeType::kString) return GoValue::String(n.text);
    return Fail(n.pos, "expected string; found " + (n.type == NodeType::kNumber ? n.number.text : n.b ? "true" : "false"));
  }
  switch (n.type) {
    case NodeType::kBool: return GoValue::Bool(n.b);
    case NodeType::kNumber: return IdealConstant(n);
    case NodeType::kString: return GoValue::String(n.text);
    default: return Fail(n.pos, "can't handle argument");
  }
}

Result<GoValue> Executor::EvalVariable(const GoValue& dot, const Node& n, size_t operands, const GoValue* final) {
  auto value = VarValue(n.ident[0], n.pos);
  if (!value) return value;
  if (n.ident.size() == 1) {
    if (auto st = NotAFunction(operands, final, n.pos); !st) return st.error();
    return value;
  }
  return EvalFieldChain(dot, std::move(*value), n, std::span(n.ident).subspan(1), operands, final);
}

Result<GoValue> Executor::EvalChain(const GoValue& dot, const Node& n, size_t operands, const GoValue* final) {
  auto receiver = EvalArg(dot, std::nullopt, *n.pipe);
  if (!receiver) return receiver;
  return EvalFieldChain(dot, std::move(*receiver), n, n.ident, operands, final);
}

Result<GoValue> Executor::EvalFieldChain(const GoValue& /*dot*/, GoValue receiver, const Node& node,
                                         std::span<const std::string> idents, size_t operands, const GoValue* final) {
  for (size_t i = 0; i < idents.size(); ++i) {
    const bool last = i + 1 == idents.size();
    auto next = EvalField(idents[i], node, last && (operands > 1 || final != nullptr), receiver);
    if (!next) return next;
    receiver = std::move(*next);
  }
  return receiver;
}

Result<GoValue> Executor::EvalField(const std::string& name, const Node& node, bool has_args, const GoValue& receiver) {
  const std::string quoted = util::GoQuote(name, util::QuoteMode::kUnicode);
  if (receiver.kind == GoKind::kInvalid) {
    if (options_.missing_key == MissingKey::kError) return Fail(node.pos, "nil data; no entry for key " + quoted);
    return GoValue{};
  }
  if (receiver.kind == GoKind::kNil) return Fail(node.pos, "nil pointer evaluating interface {}." + name);
  if (receiver.kind == GoKind::kStruct) {
    for (const auto& [field, value] : receiver.st->fields) {
      if (field != name) continue;
      if (has_args) return Fail(node.pos, name + " has arguments but cannot be invoked as function");
      return value;
    }
  } else if (receiver.kind == GoKind::kMap) {
    if (has_args) return Fail(node.pos, name + " is not a method but has arguments");
    const auto it = receiver.map->find(name);
    if (it != receiver.map->end()) return it->second;
    switch (options_.missing_key) {
      case MissingKey::kDefault: return GoValue{};
      case MissingKey::kZero: return GoValue::Nil();
      case MissingKey::kError: return Fail(node.pos, "map has no entry for key " + quoted);
    }
  }
  return Fail(node.pos, "can't evaluate field " + name + " in type " + receiver.TypeName());
}

// and/or evaluate their operands only until one decides; a piped final value is returned unevaluated.
Result<GoValue> Executor::EvalAndOr(const GoValue& dot, const Node& ident,
                                    std::span<const std::unique_ptr<Node>> args, const GoValue* final) {
  GoValue v;
  for (const auto& arg : args) {
    auto next = EvalArg(dot, ArgType::kValue, *arg);
    if (!next) return next;
    v = std::move(*next);
    bool ok = true;
    if (IsTrue(v, &ok) == (ident.text == "or")) return v;
  }
  if (final != nullptr) return Validate(*final, ArgType::kValue, ident.pos);
  return v;
}

Result<GoValue> Executor::EvalFunction(const GoValue& dot, const Node& ident, const Operands* args, const GoValue* final) {
  const std::string& name = ident.text;
  const Function* f = nullptr;
  if (const auto it = Builtins().find(name); it != Builtins().end()) f = &it->second;
  if (options_.functions != nullptr) {
    if (const auto it = options_.functions->find(name); it != options_.functions->end()) f = &it->second;
  }
  if (f == nullptr) return Fail(ident.pos, util::GoQuote(name, util::QuoteMode::kUnicode) + " is not a defined function");
  const std::span<const std::unique_ptr<Node>> operands =
      args == nullptr ? std::span<const std::unique_ptr<Node>>() : std::span(*args).subspan(1);
  const Signature& sig = f->signature;
  const size_t num_in = operands.size() + (final != nullptr ? 1 : 0);
  const size_t num_fixed = sig.variadic ? sig.fixed.size() : operands.size();
  if (sig.variadic && num_in < num_fixed) {
    return Fail(ident.pos, "wrong number of args for " + name + ": want at least " + std::to_string(sig.fixed.size()) +
                               " got " + std::to_string(operands.size()));
  }
  if (!sig.variadic && num_in != sig.fixed.size()) {
    return Fail(ident.pos, "wrong number of args for " + name + ": want " + std::to_string(sig.fixed.size()) + " got " +
                               std::to_string(num_in));
  }
  if (!f->body) return EvalAndOr(dot, ident, operands, final);
  std::vector<GoValue> argv;
  for (size_t i = 0; i < operands.size(); ++i) {
    auto arg = EvalArg(dot, i < num_fixed ? sig.fixed[i] : *sig.variadic, *operands[i]);
    if (!arg) return arg;
    argv.push_back(std::move(*arg));
  }
  if (final != nullptr) {
    const ArgType t = !sig.variadic ? sig.fixed.back() : num_in - 1 < num_fixed ? sig.fixed[num_in - 1] : *sig.variadic;
    auto arg = Validate(*final, t, ident.pos);
    if (!arg) return arg;
    argv.push_back(std::move(*arg));
  }
  auto result = f->body(argv);
  if (!result) return Fail(ident.pos, "error calling " + name + ": " + result.error().message);
  return result;
}

}  // namespace

util::Error TemplateError(const Source& source, size_t pos, const std::string& message) {
  int line = 1, col = 1;
  for (size_t i = 0; i < pos && i < source.text.size(); ++i) {
    if (source.text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return util::MakeError(util::ErrorKind::kInput, source.file + ":" + std::to_string(line) + ":" + std::to_string(col) +
                                                      ": template: " + message);
}

Result<std::string> Execute(const Source& source, const TreeSet& trees, const std::string& name, const GoValue& data,
                            const ExecOptions& options) {
  return Executor(source, trees, options).Run(name, data);
}

}  // namespace tazuna::manifest::gotemplate
