#!/bin/sh
# Installs, from Debian's packages, what the manipulated families need
# (scripts/corpus/manipulate/generate.ts): Python 3 with OpenCV and numpy, run as
# /usr/bin/python3 so that a pyenv or virtualenv python on PATH does not shadow Debian's
# modules. Idempotent: apt-get runs only when a package is missing. Needs root (or sudo).
set -eu

. "$(dirname "$0")/../apt-install.sh"
install_missing python3 python3-opencv python3-numpy
