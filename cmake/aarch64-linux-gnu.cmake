# CMake toolchain file: cross-compiles for linux/arm64 (aarch64) on a Debian amd64 host with Debian's own
# cross compiler (crossbuild-essential-arm64) and the :arm64 libraries installed through dpkg multiarch
# (scripts/lib/setup-arm64 installs both). Used by scripts/release with -DTAZUNA_PORTABLE=ON:
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DTAZUNA_CROSS_PREFIX=<prefix> ...
# TAZUNA_CROSS_PREFIX is the directory scripts/lib/setup-arm64 prints: Debian packages for arm64 that
# cannot be installed beside their amd64 build (libyaml-cpp-dev), unpacked there; searched first.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Multiarch: libraries in /usr/lib/aarch64-linux-gnu, arch-specific headers in /usr/include/aarch64-linux-gnu
# (the cross compiler searches the latter on its own). The host's x86_64 directories are never searched.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# pkgconf's cross wrapper reads only the arm64 .pc files.
set(PKG_CONFIG_EXECUTABLE aarch64-linux-gnu-pkg-config CACHE FILEPATH "pkg-config for arm64")
# try_run and anything else that must execute a target binary runs it under qemu.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)

# Toolchain files are read again by try_compile projects, which see only the variables passed on.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TAZUNA_CROSS_PREFIX)
if(TAZUNA_CROSS_PREFIX)
  list(PREPEND CMAKE_PREFIX_PATH ${TAZUNA_CROSS_PREFIX}/usr)
endif()
