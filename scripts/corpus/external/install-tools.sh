#!/bin/sh
# Installs, from Debian's packages, the tools that make the corpus families drawn outside
# this project (scripts/corpus/external/generate.ts): LibreOffice Writer (ODT/HTML to PDF),
# Chromium (HTML print-to-PDF), Ghostscript (re-distilling, and rendering pages for the
# captures), ImageMagick (scan and phone simulations) and the fonts the templates name.
# Idempotent: packages already present are left as they are, and apt-get runs only when one
# is missing. Needs root (or sudo) and Debian 12+.
set -eu

. "$(dirname "$0")/../apt-install.sh"
install_missing libreoffice-writer-nogui chromium ghostscript imagemagick fonts-dejavu-core fonts-liberation fonts-liberation2 fonts-noto-core
