// Go's text/template parser (text/template/parse/parse.go): the same grammar, checks and errors.
#include "manifest/gotemplate/parse.hpp"

#include <optional>

#include "manifest/gotemplate/lex.hpp"
#include "manifest/gotemplate/parse_internal.hpp"
#include "util/go_strconv.hpp"
#include "util/go_unicode.hpp"

namespace tazuna::manifest::gotemplate {
namespace {

using NodePtr = std::unique_ptr<Node>;

NodePtr MakeNode(NodeType type, size_t pos) {
  auto n = std::make_unique<Node>();
  n->type = type;
  n->pos = pos;
  return n;
}

// Go's IsEmptyTree: only whitespace text and comments.
bool IsEmptyTree(const Node* n) {
  if (n == nullptr) return true;
  if (n->type == NodeType::kList) {
    for (const auto& child : n->nodes) {
      if (!IsEmptyTree(child.get())) return false;
    }
    return true;
  }
  if (n->type != NodeType::kText) return false;
  std::string_view text = n->text;
  while (!text.empty()) {
    const util::DecodedRune d = util::DecodeRune(text);
    if (!util::IsGoSpace(d.rune) || (d.width == 1 && d.rune == util::kRuneError)) return false;
    text.remove_prefix(d.width);
  }
  return true;
}

std::string Describe(const Token& t) {
  switch (t.type) {
    case TokenType::kEof: return "EOF";
    case TokenType::kError: return t.val;
    case TokenType::kLeftDelim: return "\"{{\"";
    case TokenType::kRightDelim: return "\"}}\"";
    default: break;
  }
  if (t.type >= TokenType::kBlock && t.type != TokenType::kDot && t.type != TokenType::kNil) return "<" + t.val + ">";
  if (t.val.size() > 10) return util::GoQuote(t.val.substr(0, 10), util::QuoteMode::kUnicode) + "...";
  return util::GoQuote(t.val, util::QuoteMode::kUnicode);
}

// Per-tree parser state: a {{define}} or {{block}} body starts afresh (Go's startParse).
struct TreeState {
  std::vector<std::string> vars{"$"};
  int range_depth = 0;
  int depth = 0;  // nesting of parentheses and controls
};

class Parser {
 public:
  Parser(const Source& source, std::vector<Token> tokens, const std::set<std::string>& functions, TreeSet& trees)
      : source_(source), tokens_(std::move(tokens)), functions_(functions), trees_(trees) {}

  /// Parses the main template named `name`.
  util::Status ParseMain(const std::string& name);

 private:
  const Token& Next() { return idx_ < tokens_.size() ? tokens_[idx_++] : tokens_.back(); }
  const Token& Peek() { return idx_ < tokens_.size() ? tokens_[idx_] : tokens_.back(); }
  const Token& NextNonSpace() {
    while (Peek().type == TokenType::kSpace) ++idx_;
    return Next();
  }
  const Token& PeekNonSpace() {
    while (Peek().type == TokenType::kSpace) ++idx_;
    return Peek();
  }
  void Backup() { --idx_; }
  bool Fail(size_t pos, std::string message) {
    if (!error_) error_ = TemplateError(source_, pos, message);
    return false;
  }
  bool Unexpected(const Token& t, const std::string& context) {
    if (t.type == TokenType::kError) return Fail(t.pos, t.val);
    return Fail(t.pos, "unexpected " + Describe(t) + " in " + context);
  }
  std::optional<Token> Expect(TokenType type, const std::string& context) {
    const Token& t = NextNonSpace();
    if (t.type != type) return Unexpected(t, context), std::nullopt;
    return t;
  }
  bool Enter(size_t pos) { return ++state_.depth <= kMaxNesting || Fail(pos, "max expression depth exceeded"); }

  bool AddTree(const std::string& name, NodePtr root, size_t pos);
  bool ParseDefinition();
  bool ItemList(NodePtr& list, NodePtr& next);
  NodePtr TextOrAction();
  NodePtr Action();
  NodePtr BranchControl(NodeType type, const Token& keyword);
  NodePtr Control(NodeType type, const std::string& context, size_t pos);
  bool ControlBody(Node& control, const std::string& context);
  NodePtr ElseControl();
  NodePtr EndControl();
  NodePtr BlockControl();
  NodePtr TemplateControl();
  std::optional<std::string> TemplateName(const Token& t, const std::string& context);
  NodePtr Pipeline(const std::string& context, TokenType end);
  bool Declarations(Node& pipe, const std::string& context);
  bool CheckPipeline(const Node& pipe, const std::string& context);
  NodePtr Command();
  NodePtr Operand();
  NodePtr Term();

  const Source& source_;
  std::vector<Token> tokens_;
  const std::set<std::string>& functions_;
  TreeSet& trees_;
  size_t idx_ = 0;
  TreeState state_;
  std::optional<util::Error> error_;

 public:
  const std::optional<util::Error>& error() const { return error_; }
};

// Go's Tree.add: a second non-empty definition is an error; an empty one never replaces another.
bool Parser::AddTree(const std::string& name, NodePtr root, size_t pos) {
  auto it = trees_.find(name);
  if (it == trees_.end() || IsEmptyTree(it->second.get())) {
    trees_[name] = std::move(root);
    return true;
  }
  if (!IsEmptyTree(root.get())) return Fail(pos, "template: multiple definition of template " + util::GoQuote(name, util::QuoteMode::kUnicode));
  return true;
}

util::Status Parser::ParseMain(const std::string& name) {
  auto root = MakeNode(NodeType::kList, Peek().pos);
  while (Peek().type != TokenType::kEof) {
    if (Peek().type == TokenType::kLeftDelim) {
      const size_t delim = idx_;
      Next();
      if (NextNonSpace().type == TokenType::kDefine) {
        if (!ParseDefinition()) return *error_;
        continue;
      }
      idx_ = delim;
    }
    NodePtr n = TextOrAction();
    if (!n) return *error_;
    if (n->type == NodeType::kEnd || n->type == NodeType::kElse) {
      Fail(n->pos, n->type == NodeType::kEnd ? "unexpected {{end}}" : "unexpected {{else}}");
      return *error_;
    }
    root->nodes.push_back(std::move(n));
  }
  if (!AddTree(name, std::move(root), 0)) return *error_;
  return util::Ok();
}

bool Parser::ParseDefinition() {
  const std::string context = "define clause";
  const Token& t = NextNonSpace();
  if (t.type != TokenType::kString && t.type != TokenType::kRawString) return Unexpected(t, context);
  const std::optional<std::string> name = util::GoUnquote(t.val);
  if (!name) return Fail(t.pos, "invalid syntax");
  if (!Expect(TokenType::kRightDelim, context)) return false;
  const TreeState saved = std::exchange(state_, TreeState{});
  NodePtr list, end;
  if (!ItemList(list, end)) return false;
  state_ = saved;
  if (end->type != NodeType::kEnd) return Fail(end->pos, "unexpected {{else}} in " + context);
  return AddTree(*name, std::move(list), t.pos);
}

// textOrAction* up to {{end}} or {{else}}, which is returned in `next`.
bool Parser::ItemList(NodePtr& list, NodePtr& next) {
  list = MakeNode(NodeType::kList, PeekNonSpace().pos);
  while (PeekNonSpace().type != TokenType::kEof) {
    NodePtr n = TextOrAction();
    if (!n) return false;
    if (n->type == NodeType::kEnd || n->type == NodeType::kElse) {
      next = std::move(n);
      return true;
    }
    list->nodes.push_back(std::move(n));
  }
  return Fail(Peek().pos, "unexpected EOF");
}

NodePtr Parser::TextOrAction() {
  const Token& t = NextNonSpace();
  if (t.type == TokenType::kText) {
    auto n = MakeNode(NodeType::kText, t.pos);
    n->text = t.val;
    return n;
  }
  if (t.type == TokenType::kLeftDelim) return Action();
  Unexpected(t, "input");
  return nullptr;
}

NodePtr Parser::Action() {
  const Token& t = NextNonSpace();
  switch (t.type) {
    case TokenType::kBlock: return BlockControl();
    case TokenType::kBreak: return BranchControl(NodeType::kBreak, t);
    case TokenType::kContinue: return BranchControl(NodeType::kContinue, t);
    case TokenType::kElse: return ElseControl();
    case TokenType::kEnd: return EndControl();
    case TokenType::kIf: return Control(NodeType::kIf, "if", t.pos);
    case TokenType::kRange: return Control(NodeType::kRange, "range", t.pos);
    case TokenType::kTemplate: return TemplateControl();
    case TokenType::kWith: return Control(NodeType::kWith, "with", t.pos);
    default: break;
  }
  Backup();
  auto action = MakeNode(NodeType::kAction, Peek().pos);
  action->pipe = Pipeline("command", TokenType::kRightDelim);  // its variables persist until {{end}}
  if (!action->pipe) return nullptr;
  return action;
}

NodePtr Parser::BranchControl(NodeType type, const Token& keyword) {
  const std::string name = type == NodeType::kBreak ? "{{break}}" : "{{continue}}";
  const Token& t = NextNonSpace();
  if (t.type != TokenType::kRightDelim) return Unexpected(t, name), nullptr;
  if (state_.range_depth == 0) return Fail(keyword.pos, name + " outside {{range}}"), nullptr;
  return MakeNode(type, keyword.pos);
}

NodePtr Parser::Control(NodeType type, const std::string& context, size_t pos) {
  if (!Enter(pos)) return nullptr;
  auto control = MakeNode(type, pos);
  const size_t vars = state_.vars.size();  // variables declared here last until {{end}}
  const bool ok = ControlBody(*control, context);
  state_.vars.resize(vars);
  --state_.depth;
  return ok ? std::move(control) : nullptr;
}

bool Parser::ControlBody(Node& control, const std::string& context) {
  control.pipe = Pipeline(context, TokenType::kRightDelim);
  if (!control.pipe) return false;
  if (context == "range") ++state_.range_depth;
  NodePtr next;
  if (!ItemList(control.list, next)) return false;
  if (context == "range") --state_.range_depth;
  if (next->type != NodeType::kElse) return true;
  // {{else if ...}} and {{else with ...}} read as {{else}}{{if ...}}...{{end}}{{end}}.
  const TokenType chained = context == "if" ? TokenType::kIf : context == "with" ? TokenType::kWith : TokenType::kEof;
  if (chained != TokenType::kEof && Peek().type == chained) {
    const Token& keyword = Next();
    control.else_list = MakeNode(NodeType::kList, next->pos);
    NodePtr inner = Control(control.type, context, keyword.pos);
    if (!inner) return false;
    control.else_list->nodes.push_back(std::move(inner));
    return true;
  }
  NodePtr end;
  if (!ItemList(control.else_list, end)) return false;
  if (end->type != NodeType::kEnd) return Fail(end->pos, "expected end; found {{else}}");
  return true;
}

NodePtr Parser::ElseControl() {
  const Token& peek = PeekNonSpace();
  if (peek.type == TokenType::kIf || peek.type == TokenType::kWith) return MakeNode(NodeType::kElse, peek.pos);
  const std::optional<Token> t = Expect(TokenType::kRightDelim, "else");
  return t ? MakeNode(NodeType::kElse, t->pos) : nullptr;
}

NodePtr Parser::EndControl() {
  const std::optional<Token> t = Expect(TokenType::kRightDelim, "end");
  return t ? MakeNode(NodeType::kEnd, t->pos) : nullptr;
}

std::optional<std::string> Parser::TemplateName(const Token& t, const std::string& context) {
  if (t.type != TokenType::kString && t.type != TokenType::kRawString) return Unexpected(t, context), std::nullopt;
  std::optional<std::string> name = util::GoUnquote(t.val);
  if (!name) Fail(t.pos, "invalid syntax");
  return name;
}

NodePtr Parser::BlockControl() {
  const std::string context = "block clause";
  const Token t = NextNonSpace();
  const std::optional<std::string> name = TemplateName(t, context);
  if (!name) return nullptr;
  auto node = MakeNode(NodeType::kTemplate, t.pos);
  node->text = *name;
  node->pipe = Pipeline(context, TokenType::kRightDelim);
  if (!node->pipe) return nullptr;
  const TreeState saved = std::exchange(state_, TreeState{});
  NodePtr list, end;
  if (!ItemList(list, end)) return nullptr;
  state_ = saved;
  if (end->type != NodeType::kEnd) return Fail(end->pos, "unexpected {{else}} in " + context), nullptr;
  if (!AddTree(*name, std::move(list), t.pos)) return nullptr;
  return node;
}

NodePtr Parser::TemplateControl() {
  const std::string context = "template clause";
  const Token t = NextNonSpace();
  const std::optional<std::string> name = TemplateName(t, context);
  if (!name) return nullptr;
  auto node = MakeNode(NodeType::kTemplate, t.pos);
  node->text = *name;
  if (NextNonSpace().type != TokenType::kRightDelim) {
    Backup();
    node->pipe = Pipeline(context, TokenType::kRightDelim);
    if (!node->pipe) return nullptr;
  }
  return node;
}

// `$x :=`, `$x =` and, in a range, `$i, $e :=`: Go's three-token look-ahead past a variable.
bool Parser::Declarations(Node& pipe, const std::string& context) {
  for (;;) {
    const size_t before = idx_;
    const Token& v = PeekNonSpace();
    if (v.type != TokenType::kVariable) {
      idx_ = before;
      return true;
    }
    const size_t at_var = idx_;
    Next();
    const Token& next = PeekNonSpace();
    if (next.type == TokenType::kAssign || next.type == TokenType::kDeclare) {
      pipe.is_assign = next.type == TokenType::kAssign;
      NextNonSpace();
    } else if (!(next.type == TokenType::kChar && next.val == ",")) {
      idx_ = at_var;  // an operand, not a declaration
      return true;
    } else {
      NextNonSpace();
    }
    auto var = MakeNode(NodeType::kVariable, v.pos);
    var->ident = {v.val};
    pipe.decl.push_back(std::move(var));
    state_.vars.push_back(v.val);
    if (next.type != TokenType::kChar) return true;
    if (context == "range" && pipe.decl.size() < 2) {
      const TokenType after = PeekNonSpace().type;
      if (after == TokenType::kVariable || after == TokenType::kRightDelim || after == TokenType::kRightParen) continue;
      return Fail(next.pos, "range can only initialize variables");
    }
    return Fail(next.pos, "too many declarations in " + context);
  }
}

NodePtr Parser::Pipeline(const std::string& context, TokenType end) {
  auto pipe = MakeNode(NodeType::kPipe, PeekNonSpace().pos);
  if (!Declarations(*pipe, context)) return nullptr;
  for (;;) {
    const Token& t = NextNonSpace();
    if (t.type == end) {
      if (!CheckPipeline(*pipe, context)) return nullptr;
      return pipe;
    }
    switch (t.type) {
      case TokenType::kBool: case TokenType::kCharConstant: case TokenType::kComplex: case TokenType::kDot:
      case TokenType::kField: case TokenType::kIdentifier: case TokenType::kNumber: case TokenType::kNil:
      case TokenType::kRawString: case TokenType::kString: case TokenType::kVariable: case TokenType::kLeftParen: {
        Backup();
        NodePtr cmd = Command();
        if (!cmd) return nullptr;
        pipe->nodes.push_back(std::move(cmd));
        break;
      }
      default: return Unexpected(t, context), nullptr;
    }
  }
}

bool Parser::CheckPipeline(const Node& pipe, const std::string& context) {
  if (pipe.nodes.empty()) return Fail(pipe.pos, "missing value for " + context);
  for (size_t i = 1; i < pipe.nodes.size(); ++i) {
    switch (pipe.nodes[i]->nodes[0]->type) {
      case NodeType::kBool: case NodeType::kDot: case NodeType::kNil: case NodeType::kNumber: case NodeType::kString:
        return Fail(pipe.nodes[i]->pos, "non executable command in pipeline stage " + std::to_string(i + 1));
      default: break;
    }
  }
  return true;
}

NodePtr Parser::Command() {
  auto cmd = MakeNode(NodeType::kCommand, PeekNonSpace().pos);
  for (;;) {
    PeekNonSpace();
    NodePtr operand = Operand();
    if (error_) return nullptr;
    if (operand) cmd->nodes.push_back(std::move(operand));
    const Token& t = Next();
    if (t.type == TokenType::kSpace) continue;
    if (t.type == TokenType::kRightDelim || t.type == TokenType::kRightParen) {
      Backup();
    } else if (t.type != TokenType::kPipe) {
      return Unexpected(t, "operand"), nullptr;
    }
    break;
  }
  if (cmd->nodes.empty()) return Fail(cmd->pos, "empty command"), nullptr;
  return cmd;
}

NodePtr Parser::Operand() {
  NodePtr node = Term();
  if (!node || Peek().type != TokenType::kField) return node;
  std::vector<std::string> fields;
  while (Peek().type == TokenType::kField) fields.push_back(Next().val.substr(1));
  switch (node->type) {
    case NodeType::kField:
    case NodeType::kVariable:
      node->ident.insert(node->ident.end(), fields.begin(), fields.end());
      return node;
    case NodeType::kBool: case NodeType::kString: case NodeType::kNumber: case NodeType::kNil: case NodeType::kDot:
      return Fail(node->pos, "unexpected . after term"), nullptr;
    default: {
      auto chain = MakeNode(NodeType::kChain, node->pos);
      chain->ident = std::move(fields);
      chain->pipe = std::move(node);
      return chain;
    }
  }
}

NodePtr Parser::Term() {
  const Token& t = NextNonSpace();
  switch (t.type) {
    case TokenType::kIdentifier: {
      if (functions_.count(t.val) == 0) return Fail(t.pos, "function " + util::GoQuote(t.val, util::QuoteMode::kUnicode) + " not defined"), nullptr;
      auto n = MakeNode(NodeType::kIdentifier, t.pos);
      n->text = t.val;
      return n;
    }
    case TokenType::kDot: return MakeNode(NodeType::kDot, t.pos);
    case TokenType::kNil: return MakeNode(NodeType::kNil, t.pos);
    case TokenType::kVariable: {
      bool known = false;
      for (const auto& v : state_.vars) known = known || v == t.val;
      if (!known) return Fail(t.pos, "undefined variable " + util::GoQuote(t.val, util::QuoteMode::kUnicode)), nullptr;
      auto n = MakeNode(NodeType::kVariable, t.pos);
      n->ident = {t.val};
      return n;
    }
    case TokenType::kField: {
      auto n = MakeNode(NodeType::kField, t.pos);
      n->ident = {t.val.substr(1)};
      return n;
    }
    case TokenType::kBool: {
      auto n = MakeNode(NodeType::kBool, t.pos);
      n->b = t.val == "true";
      return n;
    }
    case TokenType::kCharConstant: case TokenType::kComplex: case TokenType::kNumber: {
      auto number = NewNumber(t.val, t.type);
      if (!number) return Fail(t.pos, number.error().message), nullptr;
      auto n = MakeNode(NodeType::kNumber, t.pos);
      n->number = std::move(*number);
      return n;
    }
    case TokenType::kLeftParen: {
      if (!Enter(t.pos)) return nullptr;
      NodePtr pipe = Pipeline("parenthesized pipeline", TokenType::kRightParen);
      --state_.depth;
      return pipe;
    }
    case TokenType::kString: case TokenType::kRawString: {
      std::optional<std::string> s = util::GoUnquote(t.val);
      if (!s) return Fail(t.pos, "invalid syntax"), nullptr;
      auto n = MakeNode(NodeType::kString, t.pos);
      n->text = std::move(*s);
      return n;
    }
    default: Backup(); return nullptr;
  }
}

}  // namespace

util::Result<TreeSet> Parse(const Source& source, const std::string& name, const std::set<std::string>& functions) {
  TreeSet trees;
  Parser parser(source, Lex(source.text), functions, trees);
  if (auto st = parser.ParseMain(name); !st) return st.error();
  return trees;
}

}  // namespace tazuna::manifest::gotemplate
