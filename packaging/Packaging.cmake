# Desktop integration files and a Debian package (cpack -G DEB).
install(FILES ${PROJECT_SOURCE_DIR}/packaging/org.clusterscope.ClusterScope.desktop
        DESTINATION share/applications)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/org.clusterscope.ClusterScope.metainfo.xml
        DESTINATION share/metainfo)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/org.clusterscope.ClusterScope.svg
        DESTINATION share/icons/hicolor/scalable/apps)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/org.clusterscope.ClusterScope.mime.xml
        DESTINATION share/mime/packages RENAME org.clusterscope.ClusterScope.xml)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME clusterscope)
set(CPACK_PACKAGE_VENDOR "The ClusterScope developers")
set(CPACK_PACKAGE_CONTACT "The ClusterScope developers <dev@clusterscope.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Depends computed from the linked shared libraries (dpkg-shlibdeps), plus the Qt plugins
# that are loaded at run time and so do not show up as link dependencies.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6sql6-sqlite, libqt6svg6, libgl1-mesa-dri")
# `clusterscope movie` runs the ffmpeg program; everything else works without it.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ffmpeg")
include(CPack)
# The documentation as it lies in the source tree, so that its relative links resolve: README.md,
# docs/ (Help → User Guide opens share/doc/clusterscope/docs/user/README.md), the screenshots and
# the references (docs/reference/) its pages link to.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/clusterscope)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs DESTINATION share/doc/clusterscope)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/packaging/screenshots DESTINATION share/doc/clusterscope/packaging
        FILES_MATCHING PATTERN "*.png")
