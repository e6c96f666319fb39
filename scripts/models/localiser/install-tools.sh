#!/bin/sh
# Installs what train.py needs on Debian: PyTorch (CPU build; a GPU machine with its own CUDA
# build of torch runs the same script with --device cuda), NumPy, Pillow, and onnx for the
# export's check. Debian's packages are used so that training needs no other registry; they
# install for Debian's interpreter, so run the script with /usr/bin/python3. Idempotent.
set -eu
if /usr/bin/python3 -c "import torch, numpy, PIL, onnx" 2>/dev/null; then
  echo "localiser tools present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update
$SUDO apt-get install -y python3-torch python3-numpy python3-pil python3-onnx
/usr/bin/python3 -c "import torch; print('torch', torch.__version__)"
