#!/bin/sh
# Installs, from Debian's packages, the tools that make the corpus families drawn outside
# this project (scripts/corpus/external/generate.ts): LibreOffice Writer (ODT/HTML to PDF),
# Chromium (HTML print-to-PDF), Ghostscript (re-distilling, and rendering pages for the
# captures), ImageMagick (scan and phone simulations) and the fonts the templates name.
# Idempotent: packages already present are left as they are, and apt-get runs only when one
# is missing. Needs root (or sudo) and Debian 12+.
set -eu

PACKAGES="libreoffice-writer-nogui chromium ghostscript imagemagick fonts-dejavu-core fonts-liberation fonts-liberation2 fonts-noto-core"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "install-tools: all present ($PACKAGES)" >&2
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-tools: installing$missing" >&2
$SUDO apt-get update -qq
# --no-install-recommends keeps LibreOffice and Chromium from pulling in a desktop.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
