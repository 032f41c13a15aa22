#pragma once

#include <string>
#include <vector>

#include "kube/kubeconfig.hpp"
#include "util/file_reader.hpp"

namespace tazuna::kube {

/// client-go's validateAuthInfo: one message per problem, in client-go's order and words.
std::vector<std::string> ValidateUser(const std::string& name, const KubeUser& user, util::FileReader& files);

/// client-go's validateClusterInfo (no server, CA given twice, CA file unreadable).
std::vector<std::string> ValidateCluster(const std::string& name, const KubeCluster& cluster,
                                         util::FileReader& files);

/// `open <path>: no such file or directory` when the file is missing or unreadable, else empty.
std::string CheckReadable(const std::string& path, util::FileReader& files);

}  // namespace tazuna::kube
