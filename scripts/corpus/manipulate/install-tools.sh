#!/bin/sh
# Installs, from Debian's packages, what the manipulated families need
# (scripts/corpus/manipulate/generate.ts): Python 3 with OpenCV and numpy, run as
# /usr/bin/python3 so that a pyenv or virtualenv python on PATH does not shadow Debian's
# modules. Idempotent: apt-get runs only when a package is missing. Needs root (or sudo).
set -eu

PACKAGES="python3 python3-opencv python3-numpy"

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
# --no-install-recommends keeps OpenCV from pulling in GUI toolkits and codecs it does not need here.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
