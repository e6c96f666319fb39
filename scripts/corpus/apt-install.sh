# Sourced by the install-tools.sh scripts: install_missing PACKAGE... installs from Debian
# whichever of the packages dpkg does not list as installed, and nothing when all are, so
# running a script again costs nothing. --no-install-recommends keeps LibreOffice, Chromium
# and OpenCV from pulling in a desktop, GUI toolkits and codecs the corpus does not use.
# Needs root (or sudo).

install_missing() {
  missing=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  if [ -z "$missing" ]; then
    echo "install-tools: all present ($*)" >&2
    return 0
  fi

  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "install-tools: installing$missing" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
}
