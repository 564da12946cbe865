# Finds PETSc through its pkg-config file and defines the imported target PkgConfig::PETSC.
# Used by the build and, installed next to euler-implicit's package files, by find_package
# (euler-implicit) in another project. Debian installs PETSc.pc outside pkg-config's default
# search path, so that directory is searched too (after PKG_CONFIG_PATH).
# With EIS_PETSC64 on, the PETSc built with 64-bit indices instead: Debian's
# libpetsc64-real-dev, whose module is PETSc64 (a name the 32-bit PETSc does not have) in
# /usr/lib/petsc64/lib/pkgconfig, the alternatives link of the installed version.
# PETSc_64BIT_INDICES tells which one was found (PETSC_USE_64BIT_INDICES in its petscconf.h).
find_package(PkgConfig QUIET REQUIRED)
if(EIS_PETSC64)
  set(ENV{PKG_CONFIG_PATH} "$ENV{PKG_CONFIG_PATH}:/usr/lib/petsc64/lib/pkgconfig")
  set(_eis_petsc_module PETSc64)
else()
  set(ENV{PKG_CONFIG_PATH} "$ENV{PKG_CONFIG_PATH}:/usr/lib/petsc/lib/pkgconfig")
  set(_eis_petsc_module PETSc)
endif()
set(PETSc_PKG_CONFIG_MODULE ${_eis_petsc_module})
if(PETSc_FIND_VERSION)
  string(APPEND _eis_petsc_module ">=${PETSc_FIND_VERSION}")
endif()
pkg_check_modules(PETSC QUIET IMPORTED_TARGET ${_eis_petsc_module})
set(PETSc_64BIT_INDICES OFF)
if(EXISTS "${PETSC_INCLUDEDIR}/petscconf.h")
  file(STRINGS "${PETSC_INCLUDEDIR}/petscconf.h" _eis_64bit REGEX "^#define PETSC_USE_64BIT_INDICES 1")
  if(_eis_64bit)
    set(PETSc_64BIT_INDICES ON)
  endif()
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PETSc REQUIRED_VARS PETSC_LINK_LIBRARIES
                                  VERSION_VAR PETSC_VERSION)
