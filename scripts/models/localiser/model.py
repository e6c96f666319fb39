"""The tampered-region localiser: a compact encoder-decoder over RGB and a fixed noise residual.

The ONNX input is the page as plain RGB bytes, [height, width, 3] uint8, already reduced to
the working size (working_size.py); everything else happens inside the graph so that the
sidecar and this trainer cannot disagree about it. The noise path starts with three fixed
SRM high-pass filters (the rich-model kernels used throughout image forensics): a pasted
or repainted area carries another sensor, resampling or compression noise than the page
around it, and the filters show that where the colours alone do not. Both paths are
patchified 4x4 at once, so the network runs at a quarter of the working resolution and
costs about the same per pixel as a small segmentation head; the output is a probability
per 8x8 working pixels.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# Output cells per working pixel: one probability per 8x8 block.
STRIDE = 8
# Working sides are padded to a multiple of this (two stride-2 stages after the 4x4 stem).
PAD_MULTIPLE = 32
# Residuals beyond this many grey levels are text edges, not noise: truncated as in SRM work.
RESIDUAL_CLIP = 4.0


def srm_kernels() -> torch.Tensor:
    """Three 5x5 high-pass kernels: SRM's KB (3x3 second order), KV (5x5) and a first-order edge pair."""
    kb = torch.tensor([[-1, 2, -1], [2, -4, 2], [-1, 2, -1]], dtype=torch.float32) / 4
    kv = torch.tensor(
        [[-1, 2, -2, 2, -1], [2, -6, 8, -6, 2], [-2, 8, -12, 8, -2], [2, -6, 8, -6, 2], [-1, 2, -2, 2, -1]],
        dtype=torch.float32,
    ) / 12
    first = torch.tensor([[0, 0, 0], [0, -1, 1], [0, 0, 0]], dtype=torch.float32)
    out = torch.zeros(3, 1, 5, 5)
    out[0, 0, 1:4, 1:4] = kb
    out[1, 0] = kv
    out[2, 0, 1:4, 1:4] = first
    return out


class Separable(nn.Module):
    """Depthwise 3x3 then pointwise 1x1, each with batch norm and ReLU; residual when shapes allow."""

    def __init__(self, cin: int, cout: int, stride: int = 1, dilation: int = 1):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, stride=stride, padding=dilation, dilation=dilation, groups=cin, bias=False)
        self.bn1 = nn.BatchNorm2d(cin)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = F.relu(self.bn1(self.dw(x)))
        y = self.bn2(self.pw(y))
        return F.relu(y + x if self.residual else y)


class Localiser(nn.Module):
    def __init__(self, width: float = 1.0):
        """`width` scales every stage's channels (1: the first models' 27k parameters)."""
        super().__init__()
        half, c1, c2, c3 = (int(round(c * width)) for c in (16, 32, 48, 64))
        c1 = 2 * half
        self.register_buffer("srm", srm_kernels())
        self.rgb_stem = nn.Conv2d(3, half, 4, stride=4)
        self.noise_stem = nn.Conv2d(6, half, 4, stride=4)
        self.stem_bn = nn.BatchNorm2d(c1)
        self.stage1 = Separable(c1, c1)
        self.stage2 = nn.Sequential(Separable(c1, c2, stride=2), Separable(c2, c2))
        self.stage3 = nn.Sequential(Separable(c2, c3, stride=2), Separable(c3, c3, dilation=2), Separable(c3, c3, dilation=4))
        self.fuse = nn.Sequential(nn.Conv2d(c3 + c2, c1, 1, bias=False), nn.BatchNorm2d(c1), nn.ReLU())
        self.decode = Separable(c1, c1)
        self.head = nn.Conv2d(c1, 1, 1)

    def logits(self, rgb: torch.Tensor) -> torch.Tensor:
        """`rgb`: [n, 3, H, W] float in 0..255, H and W multiples of PAD_MULTIPLE. Returns [n, 1, H/8, W/8]."""
        grey = (0.299 * rgb[:, 0:1] + 0.587 * rgb[:, 1:2] + 0.114 * rgb[:, 2:3])
        residual = torch.clamp(F.conv2d(grey, self.srm, padding=2), -RESIDUAL_CLIP, RESIDUAL_CLIP) / RESIDUAL_CLIP
        noise = torch.cat([residual, residual.abs()], dim=1)
        x = torch.cat([self.rgb_stem(rgb / 127.5 - 1), self.noise_stem(noise)], dim=1)
        x = self.stage1(F.relu(self.stem_bn(x)))
        skip = self.stage2(x)
        deep = self.stage3(skip)
        up = F.interpolate(deep, size=skip.shape[-2:], mode="bilinear", align_corners=False)
        return self.head(self.decode(self.fuse(torch.cat([up, skip], dim=1))))


def smooth(probs: torch.Tensor) -> torch.Tensor:
    """3 x 3 mean of the cell probabilities ([n, 1, rows, cols]): a page scores on a small group of cells, not one."""
    return F.avg_pool2d(probs, 3, stride=1, padding=1, count_include_pad=False)


class ExportWrapper(nn.Module):
    """The graph the sidecar runs: [H, W, 3] uint8 in, [H/8, W/8] smoothed probabilities out."""

    def __init__(self, model: Localiser):
        super().__init__()
        self.model = model

    def forward(self, rgb_hwc: torch.Tensor) -> torch.Tensor:
        rgb = rgb_hwc.permute(2, 0, 1).unsqueeze(0).float()
        return smooth(torch.sigmoid(self.model.logits(rgb)))[0, 0]
