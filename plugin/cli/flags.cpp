#include "cli/flags.hpp"

#include <charconv>

#include "util/strings.hpp"

namespace tazuna::cli {

using util::ErrorKind;
using util::MakeError;
using util::StrCat;

void FlagSet::Add(Flag flag) { flags_.push_back(std::move(flag)); }

void FlagSet::String(std::string* target, const std::string& name, char shorthand, const std::string& usage) {
  Add({name, shorthand, Type::kString, usage, "'" + *target + "'", target});
}

void FlagSet::Bool(bool* target, const std::string& name, char shorthand, const std::string& usage) {
  Add({name, shorthand, Type::kBool, usage, *target ? "true" : "false", target});
}

void FlagSet::Int(int* target, const std::string& name, char shorthand, const std::string& usage) {
  Add({name, shorthand, Type::kInt, usage, std::to_string(*target), target});
}

void FlagSet::StringArray(std::vector<std::string>* target, const std::string& name, char shorthand,
                          const std::string& usage) {
  Add({name, shorthand, Type::kStringArray, usage, "[]", target});
}

void FlagSet::StringSlice(std::vector<std::string>* target, const std::string& name, char shorthand,
                          const std::string& usage) {
  Flag f{name, shorthand, Type::kStringArray, usage, "[]", target};
  f.slice = true;
  Add(std::move(f));
}

void FlagSet::OptionalBool(std::optional<bool>* target, const std::string& name, const std::string& usage) {
  Flag f{name, 0, Type::kBool, usage, "false", target};
  f.optional_bool = true;
  Add(std::move(f));
}

FlagSet::Flag* FlagSet::Find(const std::string& name) {
  for (auto& f : flags_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

FlagSet::Flag* FlagSet::FindShort(char c) {
  for (auto& f : flags_) {
    if (f.shorthand == c) return &f;
  }
  return nullptr;
}

bool FlagSet::Changed(const std::string& name) const { return changed_.count(name) > 0; }

util::Status FlagSet::Set(Flag& flag, const std::string& value, const std::string& spelled) {
  changed_[flag.name] = true;
  const auto invalid = [&] {
    return MakeError(ErrorKind::kUsage, StrCat("invalid argument \"", value, "\" for \"", spelled, "\" flag"));
  };
  switch (flag.type) {
    case Type::kString:
      *static_cast<std::string*>(flag.target) = value;
      return util::Ok();
    case Type::kBool: {
      const std::string v = util::ToLower(value);
      bool b = false;
      if (v == "true" || v == "1" || v == "t") {
        b = true;
      } else if (!(v == "false" || v == "0" || v == "f")) {
        return invalid();
      }
      if (flag.optional_bool) {
        *static_cast<std::optional<bool>*>(flag.target) = b;
      } else {
        *static_cast<bool*>(flag.target) = b;
      }
      return util::Ok();
    }
    case Type::kInt: {
      int n = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || ptr != value.data() + value.size()) return invalid();
      *static_cast<int*>(flag.target) = n;
      return util::Ok();
    }
    case Type::kStringArray: {
      auto* vec = static_cast<std::vector<std::string>*>(flag.target);
      if (!flag.slice) {
        vec->push_back(value);
      } else {
        for (auto& part : util::Split(value, ',')) {
          if (!part.empty()) vec->push_back(part);
        }
      }
      return util::Ok();
    }
  }
  return util::Ok();
}

util::Status FlagSet::ParseLong(const std::vector<std::string>& args, size_t& i) {
  const std::string body = args[i].substr(2);
  const size_t eq = body.find('=');
  const std::string name = body.substr(0, eq);
  Flag* flag = Find(name);
  if (flag == nullptr) return MakeError(ErrorKind::kUsage, StrCat("unknown flag: --", name));
  if (eq != std::string::npos) return Set(*flag, body.substr(eq + 1), "--" + name);
  if (flag->type == Type::kBool) return Set(*flag, "true", "--" + name);
  if (i + 1 >= args.size()) return MakeError(ErrorKind::kUsage, StrCat("flag needs an argument: --", name));
  return Set(*flag, args[++i], "--" + name);
}

util::Status FlagSet::ParseShort(const std::vector<std::string>& args, size_t& i) {
  const std::string& arg = args[i];
  for (size_t pos = 1; pos < arg.size(); ++pos) {
    Flag* flag = FindShort(arg[pos]);
    const std::string spelled = StrCat("-", arg[pos]);
    if (flag == nullptr) {
      return MakeError(ErrorKind::kUsage, StrCat("unknown shorthand flag: '", arg[pos], "' in ", arg));
    }
    if (flag->type == Type::kBool) {
      if (pos + 1 < arg.size() && arg[pos + 1] == '=') return Set(*flag, arg.substr(pos + 2), spelled);
      if (auto st = Set(*flag, "true", spelled); !st) return st;
      continue;
    }
    if (pos + 1 < arg.size()) {
      const size_t start = arg[pos + 1] == '=' ? pos + 2 : pos + 1;
      return Set(*flag, arg.substr(start), spelled);
    }
    if (i + 1 >= args.size()) {
      return MakeError(ErrorKind::kUsage, StrCat("flag needs an argument: '", arg[pos], "' in ", arg));
    }
    return Set(*flag, args[++i], spelled);
  }
  return util::Ok();
}

util::Result<std::vector<std::string>> FlagSet::Parse(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      positional.insert(positional.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    util::Status st;
    if (util::StartsWith(arg, "--")) {
      st = ParseLong(args, i);
    } else if (arg.size() > 1 && arg[0] == '-') {
      st = ParseShort(args, i);
    } else {
      positional.push_back(arg);
    }
    if (!st) return st.error();
  }
  return positional;
}

std::string FlagSet::Usage() const {
  std::string out;
  for (const auto& f : flags_) {
    out += "    ";
    if (f.shorthand != 0) out += StrCat("-", f.shorthand, ", ");
    out += StrCat("--", f.name, "=", f.default_text, ":\n\t", f.usage, "\n\n");
  }
  return out;
}

std::vector<std::string> FlagSet::Names() const {
  std::vector<std::string> out;
  for (const auto& f : flags_) out.push_back("--" + f.name);
  return out;
}

}  // namespace tazuna::cli
