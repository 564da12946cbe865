# What `cmake --install build [--prefix <dir>]` puts under the prefix (GNUInstallDirs layout):
#   bin/euler-implicit, bin/partition-surface
#   <libdir>/libeis.so (eis::eis) and <libdir>/libeis.a (eis::eis_static; eis::eis_static_whole
#     links it whole, every component registered)
#   include/eis/<layer>/*.hpp
#   share/euler-implicit/python/: the Python front end (the .py scene driver, the stand-in Sofa;
#     on PYTHONPATH, `python3 scene.py` runs bin/euler-implicit beside it: eis_main_loop.py),
#     and the euler_implicit package with its compiled engine when pybind11 was found (src/python)
#   <libdir>/cmake/euler-implicit/: the package for find_package(euler-implicit), with the find
#     modules of the dependencies it needs (PETSc, METIS; tinyxml2 through pkg-config)
#   <libdir>/pkgconfig/euler-implicit.pc
include(CMakePackageConfigHelpers)
# Installed binaries keep the run paths of the libraries they link outside the system's
# directories (Debian's PETSc lies in its own).
set_target_properties(euler-implicit partition-surface eis PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
set(EIS_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/euler-implicit)

install(TARGETS euler-implicit partition-surface)
install(TARGETS eis eis_static eis_static_whole EXPORT euler-implicit-targets)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/eis TYPE INCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/io/python/ DESTINATION ${CMAKE_INSTALL_DATADIR}/euler-implicit/python
        FILES_MATCHING PATTERN "*.py")
install(EXPORT euler-implicit-targets NAMESPACE eis:: DESTINATION ${EIS_PACKAGE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/euler-implicit-config.cmake.in
  ${PROJECT_BINARY_DIR}/euler-implicit-config.cmake INSTALL_DESTINATION ${EIS_PACKAGE_DIR}
  NO_SET_AND_CHECK_MACRO NO_CHECK_REQUIRED_COMPONENTS_MACRO)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/euler-implicit-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/euler-implicit-config.cmake
              ${PROJECT_BINARY_DIR}/euler-implicit-config-version.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindPETSc.cmake ${PROJECT_SOURCE_DIR}/cmake/FindMETIS.cmake
        DESTINATION ${EIS_PACKAGE_DIR})

# The .pc file finds its prefix from where it lies, so that --prefix at install time holds. Its
# Libs carry an rpath to that libdir: a prefix such as $HOME/.local is on no loader path, and a
# program built from the flags alone would not find libeis.so. It asks for the PETSc version the
# build asks for (not the one found), and names METIS's folder only where the compiler would not
# search it anyway (-I/usr/include would reorder the system's own headers).
set(EIS_METIS_PC_CFLAGS "")
if(NOT METIS_INCLUDE_DIR IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
  set(EIS_METIS_PC_CFLAGS " -I${METIS_INCLUDE_DIR}")
endif()
file(RELATIVE_PATH EIS_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
configure_file(${PROJECT_SOURCE_DIR}/cmake/euler-implicit.pc.in
               ${PROJECT_BINARY_DIR}/euler-implicit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/euler-implicit.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
