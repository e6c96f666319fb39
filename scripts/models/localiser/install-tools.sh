#!/bin/sh
# Installs what train.py and pack.py need on Debian: PyTorch (CPU build; a GPU machine with
# its own CUDA build of torch runs the same script with --device cuda), NumPy, Pillow, OpenCV
# (synth.py's inpainting), onnx for the export's check, and jpegtran (pack.py crops JPEG pages
# losslessly on their block grid, so a packed window keeps the page's own compression).
# Debian's packages are used so that training needs no other registry; they install for
# Debian's interpreter, so run the scripts with /usr/bin/python3. Idempotent.
set -eu

. "$(dirname "$0")/../../corpus/apt-install.sh"
install_missing python3 python3-torch python3-numpy python3-pil python3-onnx python3-opencv \
  libjpeg-turbo-progs
/usr/bin/python3 -c "import torch; print('torch', torch.__version__)"
