// sprig v3 for helmfile templates, as the Go tazuna calls it (see sprig_functions.hpp): the function map
// put together from its groups in sprig/ (sprig/function_map.hpp). Each function follows its Go
// definition; tests/compat/helmfile_template_run.sh compares the results with Go's.
#include "manifest/sprig_functions.hpp"

#include "manifest/sprig/function_map.hpp"

namespace tazuna::manifest {
namespace {

gotemplate::FunctionMap MakeSprigFunctions() {
  gotemplate::FunctionMap m;
  sprig::AddStrings(m);
  sprig::AddEncodings(m);
  sprig::AddNumbers(m);
  sprig::AddDefaults(m);
  sprig::AddDicts(m);
  sprig::AddLists(m);
  return m;
}

}  // namespace

const gotemplate::FunctionMap& SprigFunctions() {
  static const gotemplate::FunctionMap kFunctions = MakeSprigFunctions();
  return kFunctions;
}

const std::set<std::string>& SprigFunctionsLeftOut() {
  static const std::set<std::string> kLeftOut = {
      "ago", "date", "date_in_zone", "date_modify", "dateInZone", "dateModify", "htmlDate", "htmlDateInZone",
      "must_date_modify", "mustDateModify", "mustToDate", "now", "toDate", "unixEpoch", "randAlphaNum", "randAlpha",
      "randAscii", "randNumeric", "randInt", "randBytes", "shuffle", "uuidv4", "bcrypt", "htpasswd", "genPrivateKey",
      "buildCustomCert", "genCA", "genCAWithKey", "genSelfSignedCert", "genSelfSignedCertWithKey", "genSignedCert",
      "genSignedCertWithKey", "encryptAES", "getHostByName"};
  return kLeftOut;
}

}  // namespace tazuna::manifest
