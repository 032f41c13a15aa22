// Go's fmt/print.go for the values of the text/template twin: which verb does what to which type,
// Sprintf's flag, width, precision and argument-index parsing, and its error texts.
#include "util/go_fmt.hpp"

#include "util/go_fmt_printer.hpp"
#include "util/go_unicode.hpp"

namespace tazuna::util {
namespace {

constexpr int kTooLarge = 1000000;  // fmt's tooLarge: widths and precisions beyond are refused

// fmt's parsenum: a decimal number at s[start, end); {value, found, next}.
struct Num {
  int value = 0;
  bool found = false;
  size_t next = 0;
};
Num ParseNum(std::string_view s, size_t start, size_t end) {
  Num n{0, false, start};
  if (start >= end) return {0, false, end};
  for (; n.next < end && s[n.next] >= '0' && s[n.next] <= '9'; ++n.next) {
    if (n.value > kTooLarge || n.value < -kTooLarge) return {0, false, end};
    n.value = n.value * 10 + (s[n.next] - '0');
    n.found = true;
  }
  return n;
}

// fmt's intFromArg: a width or precision taken from an integer operand.
std::pair<int, bool> IntFromArg(const GoValue& v) {
  int64_t n = 0;
  if (v.kind == GoKind::kInt) {
    n = v.i;
  } else if (v.kind == GoKind::kUint8) {
    n = static_cast<int64_t>(v.u);
  } else {
    return {0, false};
  }
  if (n > kTooLarge || n < -kTooLarge) return {0, false};
  return {static_cast<int>(n), true};
}

}  // namespace

void GoPrinter::BadVerb(char32_t verb) {
  buf += "%!";
  AppendRune(buf, verb);
  buf.push_back('(');
  if (arg_ != nullptr && arg_->kind != GoKind::kNil && arg_->kind != GoKind::kInvalid) {
    const GoValue* arg = arg_;
    buf += arg->TypeName() + "=";
    PrintArg(*arg, 'v');
  } else if (value_ != nullptr) {
    const GoValue* value = value_;
    buf += value->TypeName() + "=";
    PrintValue(*value, 'v', 0);
  } else {
    buf += "<nil>";
  }
  buf.push_back(')');
}

void GoPrinter::FmtBool(bool v, char32_t verb) {
  if (verb == 't' || verb == 'v') return FmtBoolean(v);
  BadVerb(verb);
}

void GoPrinter::FmtInteger(uint64_t v, bool is_signed, char32_t verb) {
  switch (verb) {
    case 'v':
      if (f_.sharp_v && !is_signed) {
        const bool sharp = f_.sharp;
        f_.sharp = true;
        FmtIntegerBase(v, 16, false, 'v', false);
        f_.sharp = sharp;
        return;
      }
      return FmtIntegerBase(v, 10, is_signed, verb, false);
    case 'd': return FmtIntegerBase(v, 10, is_signed, verb, false);
    case 'b': return FmtIntegerBase(v, 2, is_signed, verb, false);
    case 'o':
    case 'O': return FmtIntegerBase(v, 8, is_signed, verb, false);
    case 'x': return FmtIntegerBase(v, 16, is_signed, verb, false);
    case 'X': return FmtIntegerBase(v, 16, is_signed, verb, true);
    case 'c': return FmtC(v);
    case 'q': return FmtQc(v);
    case 'U': return FmtUnicode(v);
    default: return BadVerb(verb);
  }
}

void GoPrinter::FmtFloat(double v, char32_t verb) {
  switch (verb) {
    case 'v': return FmtFloatRaw(v, 'g', -1);
    case 'b':
    case 'g':
    case 'G':
    case 'x':
    case 'X': return FmtFloatRaw(v, f_.sharp_v ? 'g' : static_cast<char>(verb), -1);
    case 'f':
    case 'e':
    case 'E': return f_.sharp_v ? FmtFloatRaw(v, 'g', -1) : FmtFloatRaw(v, static_cast<char>(verb), 6);
    case 'F': return f_.sharp_v ? FmtFloatRaw(v, 'g', -1) : FmtFloatRaw(v, 'f', 6);
    default: return BadVerb(verb);
  }
}

void GoPrinter::FmtComplex(double re, double im, char32_t verb) {
  static constexpr std::u32string_view kVerbs = U"vbgGxXfFeE";
  if (kVerbs.find(verb) == std::u32string_view::npos) return BadVerb(verb);
  const bool plus = f_.plus;
  buf.push_back('(');
  FmtFloat(re, verb);
  f_.plus = true;  // the imaginary part always has a sign
  FmtFloat(im, verb);
  buf += "i)";
  f_.plus = plus;
}

void GoPrinter::FmtString(const std::string& v, char32_t verb) {
  switch (verb) {
    case 'v':
      if (f_.sharp_v) return FmtQ(v);
      return FmtS(v);
    case 's': return FmtS(v);
    case 'x': return FmtSbx(v, false);
    case 'X': return FmtSbx(v, true);
    case 'q': return FmtQ(v);
    default: return BadVerb(verb);
  }
}

void GoPrinter::PrintStruct(const GoValue& value, char32_t verb, int depth) {
  if (f_.sharp_v) buf += value.TypeName();
  buf.push_back('{');
  const auto& fields = value.st->fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) buf += f_.sharp_v ? ", " : " ";
    if (f_.plus_v || f_.sharp_v) buf += fields[i].first + ":";
    PrintValue(fields[i].second, verb, depth + 1);
  }
  buf.push_back('}');
}

// Maps print in key order as `map[k:v]`, slices as `[a b]`; %#v as Go syntax. Elements are interface
// values: a nil one prints `<nil>` (`interface {}(nil)` with %#v), unpadded.
void GoPrinter::PrintContainer(const GoValue& value, char32_t verb, int depth) {
  const bool is_map = value.kind == GoKind::kMap;
  if (f_.sharp_v) {
    buf += value.TypeName() + "{";
  } else {
    buf += is_map ? "map[" : "[";
  }
  const auto element = [&](const GoValue& v) {
    if (v.kind == GoKind::kNil || v.kind == GoKind::kInvalid) {
      buf += f_.sharp_v ? "interface {}(nil)" : "<nil>";
    } else {
      PrintValue(v, verb, depth + 1);
    }
  };
  size_t i = 0;
  const auto separator = [&] { if (i++ > 0) buf += f_.sharp_v ? ", " : " "; };
  if (is_map) {
    for (const auto& [key, v] : *value.map) {
      separator();
      const GoValue k = GoValue::String(key);
      PrintValue(k, verb, depth + 1);
      buf.push_back(':');
      element(v);
    }
  } else {
    for (const auto& v : *value.slice) {
      separator();
      element(v);
    }
  }
  buf.push_back(f_.sharp_v ? '}' : ']');
}

void GoPrinter::PrintValue(const GoValue& value, char32_t verb, int depth) {
  arg_ = nullptr;
  value_ = &value;
  switch (value.kind) {
    case GoKind::kMap:
    case GoKind::kSlice: return PrintContainer(value, verb, depth);
    case GoKind::kBool: return FmtBool(value.b, verb);
    case GoKind::kInt: return FmtInteger(static_cast<uint64_t>(value.i), true, verb);
    case GoKind::kUint8: return FmtInteger(value.u, false, verb);
    case GoKind::kFloat64: return FmtFloat(value.re, verb);
    case GoKind::kComplex128: return FmtComplex(value.re, value.im, verb);
    case GoKind::kString: return FmtString(value.s, verb);
    case GoKind::kStruct: return PrintStruct(value, verb, depth);
    case GoKind::kNil:
    case GoKind::kInvalid: break;
  }
  if (verb == 'v') return Pad("<nil>");
  BadVerb(verb);
}

void GoPrinter::PrintArg(const GoValue& arg, char32_t verb) {
  arg_ = &arg;
  value_ = nullptr;
  if (arg.kind == GoKind::kNil || arg.kind == GoKind::kInvalid) {
    if (verb == 'T' || verb == 'v') return Pad("<nil>");
    return BadVerb(verb);
  }
  if (verb == 'T') return FmtS(arg.TypeName());
  if (verb == 'p' || verb == 'w') return BadVerb(verb);  // no pointers, no errors among these values
  switch (arg.kind) {
    case GoKind::kBool: return FmtBool(arg.b, verb);
    case GoKind::kInt: return FmtInteger(static_cast<uint64_t>(arg.i), true, verb);
    case GoKind::kUint8: return FmtInteger(arg.u, false, verb);
    case GoKind::kFloat64: return FmtFloat(arg.re, verb);
    case GoKind::kComplex128: return FmtComplex(arg.re, arg.im, verb);
    case GoKind::kString: return FmtString(arg.s, verb);
    default: return PrintValue(arg, verb, 0);
  }
}

void GoPrinter::DoPrint(const std::vector<GoValue>& args) {
  bool prev_string = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool is_string = args[i].kind == GoKind::kString;
    if (i > 0 && !is_string && !prev_string) buf.push_back(' ');
    PrintArg(args[i], 'v');
    prev_string = is_string;
  }
}

void GoPrinter::DoPrintln(const std::vector<GoValue>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) buf.push_back(' ');
    PrintArg(args[i], 'v');
  }
  buf.push_back('\n');
}

// fmt's argNumber: an explicit `[n]` argument index at format[i].
size_t GoPrinter::ArgNumber(std::string_view format, size_t i, size_t num_args) {
  after_index_ = false;
  if (i >= format.size() || format[i] != '[') return i;
  reordered_ = true;
  size_t width = 1;
  bool ok = false;
  int index = 0;
  if (format.size() - i >= 3) {
    for (size_t j = i + 1; j < format.size(); ++j) {
      if (format[j] != ']') continue;
      const Num n = ParseNum(format, i + 1, j);
      width = j - i + 1;
      ok = n.found && n.next == j;
      index = n.value - 1;
      break;
    }
  }
  if (ok && index >= 0 && static_cast<size_t>(index) < num_args) {
    arg_num_ = static_cast<size_t>(index);
    after_index_ = true;
    return i + width;
  }
  good_arg_num_ = false;
  after_index_ = ok;
  return i + width;
}

// The flags after '%': returns the index of the first byte that is not one.
size_t GoPrinter::ParseVerbFlags(std::string_view format, size_t i) {
  f_ = Flags{};
  for (; i < format.size(); ++i) {
    switch (format[i]) {
      case '#': f_.sharp = true; break;
      case '0': f_.zero = true; break;
      case '+': f_.plus = true; break;
      case '-': f_.minus = true; break;
      case ' ': f_.space = true; break;
      default: return i;
    }
  }
  return i;
}

size_t GoPrinter::ParseWidthAndPrecision(std::string_view format, size_t i, const std::vector<GoValue>& args) {
  const size_t end = format.size();
  i = ArgNumber(format, i, args.size());
  if (i < end && format[i] == '*') {
    ++i;
    std::tie(f_.wid, f_.wid_present) = arg_num_ < args.size() ? IntFromArg(args[arg_num_]) : std::pair{0, false};
    if (arg_num_ < args.size()) ++arg_num_;
    if (!f_.wid_present) buf += "%!(BADWIDTH)";
    if (f_.wid < 0) {
      f_.wid = -f_.wid;
      f_.minus = true;
      f_.zero = false;
    }
    after_index_ = false;
  } else {
    const Num n = ParseNum(format, i, end);
    std::tie(f_.wid, f_.wid_present, i) = std::tuple{n.value, n.found, n.next};
    if (after_index_ && f_.wid_present) good_arg_num_ = false;  // "%[3]2d"
  }
  if (i + 1 < end && format[i] == '.') {
    ++i;
    if (after_index_) good_arg_num_ = false;  // "%[3].2d"
    i = ArgNumber(format, i, args.size());
    if (i < end && format[i] == '*') {
      ++i;
      std::tie(f_.prec, f_.prec_present) = arg_num_ < args.size() ? IntFromArg(args[arg_num_]) : std::pair{0, false};
      if (arg_num_ < args.size()) ++arg_num_;
      if (f_.prec < 0) f_.prec = 0, f_.prec_present = false;
      if (!f_.prec_present) buf += "%!(BADPREC)";
      after_index_ = false;
    } else {
      const Num n = ParseNum(format, i, end);
      std::tie(f_.prec, i) = std::tuple{n.value, n.next};
      f_.prec_present = true;
    }
  }
  if (!after_index_) i = ArgNumber(format, i, args.size());
  return i;
}

void GoPrinter::WriteExtra(const std::vector<GoValue>& args) {
  f_ = Flags{};
  buf += "%!(EXTRA ";
  for (size_t i = arg_num_; i < args.size(); ++i) {
    if (i > arg_num_) buf += ", ";
    if (args[i].kind == GoKind::kNil || args[i].kind == GoKind::kInvalid) {
      buf += "<nil>";
      continue;
    }
    buf += args[i].TypeName() + "=";
    PrintArg(args[i], 'v');
  }
  buf.push_back(')');
}

void GoPrinter::DoPrintf(std::string_view format, const std::vector<GoValue>& args) {
  const size_t end = format.size();
  arg_num_ = 0;
  after_index_ = false;
  reordered_ = false;
  for (size_t i = 0; i < end;) {
    good_arg_num_ = true;
    const size_t pct = format.find('%', i);
    buf.append(format.substr(i, (pct == std::string_view::npos ? end : pct) - i));
    if (pct == std::string_view::npos) break;
    i = ParseVerbFlags(format, pct + 1);
    i = ParseWidthAndPrecision(format, i, args);
    if (i >= end) {
      buf += "%!(NOVERB)";
      break;
    }
    const DecodedRune d = DecodeRune(format.substr(i));
    const char32_t verb = d.rune;
    i += d.width;
    if (verb == '%') {
      buf.push_back('%');
    } else if (!good_arg_num_) {
      buf += "%!";
      AppendRune(buf, verb);
      buf += "(BADINDEX)";
    } else if (arg_num_ >= args.size()) {
      buf += "%!";
      AppendRune(buf, verb);
      buf += "(MISSING)";
    } else {
      if (verb == 'v' || verb == 'w') {  // %w reads its flags as %v does (then is a bad verb here)
        f_.sharp_v = f_.sharp;
        f_.sharp = false;
        f_.plus_v = f_.plus;
        f_.plus = false;
      }
      PrintArg(args[arg_num_++], verb);
    }
  }
  if (!reordered_ && arg_num_ < args.size()) WriteExtra(args);
}

std::string GoSprint(const std::vector<GoValue>& args) {
  GoPrinter p;
  p.DoPrint(args);
  return std::move(p.buf);
}

std::string GoSprintln(const std::vector<GoValue>& args) {
  GoPrinter p;
  p.DoPrintln(args);
  return std::move(p.buf);
}

std::string GoSprintf(std::string_view format, const std::vector<GoValue>& args) {
  GoPrinter p;
  p.DoPrintf(format, args);
  return std::move(p.buf);
}

}  // namespace tazuna::util
