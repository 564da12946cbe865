# Finds PETSc through its pkg-config file and defines the imported target PkgConfig::PETSC.
# Used by the build and, installed next to euler-implicit's package files, by find_package
# (euler-implicit) in another project. Debian installs PETSc.pc outside pkg-config's default
# search path, so that directory is searched too (after PKG_CONFIG_PATH).
find_package(PkgConfig QUIET REQUIRED)
set(ENV{PKG_CONFIG_PATH} "$ENV{PKG_CONFIG_PATH}:/usr/lib/petsc/lib/pkgconfig")
set(_eis_petsc_module PETSc)
if(PETSc_FIND_VERSION)
  set(_eis_petsc_module "PETSc>=${PETSc_FIND_VERSION}")
endif()
pkg_check_modules(PETSC QUIET IMPORTED_TARGET ${_eis_petsc_module})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PETSc REQUIRED_VARS PETSC_LINK_LIBRARIES
                                  VERSION_VAR PETSC_VERSION)
