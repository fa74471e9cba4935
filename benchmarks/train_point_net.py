"""Train the point net (``vision/point_net.py``) and write it as ONNX. Development time only.

    /work/torchvenv/bin/python benchmarks/train_point_net.py [--data test-artifacts/point_net/data.npz]
        [--epochs 6] [--per-epoch 50000] [--batch 512] [--seed 11] [--widths 8,16,16,32]
        [--leave-out SET]
        [--out vision/models/point_net.onnx]

Step two of two: ``benchmarks/point_net_data.py`` (the project's venv) writes the patches; this
(a venv with ``pip install torch onnx``, the ``train`` extra; no OpenCV needed) trains on CPU
(``torch.set_num_threads(2)``, a few minutes) and writes the model, beside it ``.json`` (the data
list, augmentations, epochs, seeds: what it takes to make the same weights again) and
``_check.npz`` (a fixed batch of patches and torch's outputs for them: ``tests/test_vision_point_net.py``
checks that OpenCV's dnn module gives the same).

Why a script in ``benchmarks/`` and not in ``vision/``: ``vision/`` is what runs on the Pi and
must never need torch; like the benchmarks this is run by a developer, by hand.

``--leave-out SET``: train without that real set's photos (leave-one-set-out figures,
``benchmarks/vision_point_net.py``); such models are never shipped.

Balance: each draw of a training batch picks renders half the time and the real sets the other
half (the sets equally), and within a source empty points and pieces equally. Augmentation per
patch: a crop shifted up to 2 pixels (0.17 pitch) either way, a quarter turn and a flip, a
contrast scale per channel (0.5-1.2: a lamp that leaves a channel little contrast), an offset per
channel (the light at the point misjudged) and a little noise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATCH = 16  # vision.point_net.PATCH (not imported: this venv needs no OpenCV)
CLIP = 3.0  # vision.point_net.CLIP
AUGMENT = {
    "shift_px": 2,
    "quarter_turns_and_flips": True,
    "channel_contrast": [0.5, 1.2],
    "channel_offset_sd": 0.08,
    "offset_sd": 0.1,
    "noise_sd": 0.02,
}


def build_model(widths: tuple[int, int, int, int] = (8, 16, 16, 32)):  # type: ignore[no-untyped-def]
    """Three 3x3 convolutions (``widths[:3]`` channels; two 2x2 poolings) over the 16x16x3 patch
    and two dense layers (``widths[3]`` hidden): at (8, 16, 16, 32) about 12 k weights, 0.17 M
    multiply-adds a point."""
    from torch import nn

    a, b, c, hidden = widths
    return nn.Sequential(
        nn.Conv2d(3, a, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(a, b, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(b, c, 3, padding=1),
        nn.ReLU(),
        nn.Flatten(),
        nn.Linear(c * 4 * 4, hidden),
        nn.ReLU(),
        nn.Linear(hidden, 3),
    )


def with_hidden(model):  # type: ignore[no-untyped-def]
    """``model`` giving its logits and, as a second output, the last hidden layer (32 numbers a
    point): the calibration refits the last layer on them (``vision.point_net.fit_head``)."""
    from torch import nn

    class _WithHidden(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body, self.head = model[:-1], model[-1]

        def forward(self, x):  # type: ignore[no-untyped-def]
            hidden = self.body(x)
            return self.head(hidden), hidden

    return _WithHidden().eval()


def augment(batch, rng):  # type: ignore[no-untyped-def]
    """``batch``: (n, 3, 20, 20) numpy float32 with the 2-pixel border -> (n, 3, 16, 16)."""
    import numpy as np

    n = len(batch)
    border = (batch.shape[2] - PATCH) // 2
    dy = rng.integers(0, 2 * border + 1, n)
    dx = rng.integers(0, 2 * border + 1, n)
    idx = np.arange(PATCH)
    rows = (dy[:, None] + idx[None, :])[:, None, :, None]
    cols = (dx[:, None] + idx[None, :])[:, None, None, :]
    out = batch[np.arange(n)[:, None, None, None], np.arange(3)[None, :, None, None], rows, cols]
    k = int(rng.integers(0, 4))
    out = np.rot90(out, k, axes=(2, 3))
    if rng.random() < 0.5:
        out = out[:, :, :, ::-1]
    lo, hi = AUGMENT["channel_contrast"]  # type: ignore[misc]
    out = out * rng.uniform(lo, hi, (n, 3, 1, 1))
    out = out + rng.normal(0, AUGMENT["offset_sd"], (n, 1, 1, 1))  # type: ignore[arg-type]
    out = out + rng.normal(0, AUGMENT["channel_offset_sd"], (n, 3, 1, 1))  # type: ignore[arg-type]
    out = out + rng.normal(0, AUGMENT["noise_sd"], out.shape)  # type: ignore[arg-type]
    return np.ascontiguousarray(np.clip(out, -CLIP, CLIP), dtype=np.float32)


def draw_weights(labels, sources):  # type: ignore[no-untyped-def]
    """Per patch the chance to be drawn: renders half, the real sets the other half (equally),
    within a source empty and pieces equally."""
    import numpy as np

    w = np.zeros(len(labels))
    real = sorted(set(sources.tolist()) - {0})
    for source in set(sources.tolist()):
        share = 0.5 if source == 0 or not real else 0.5 / len(real)
        if not real:
            share = 1.0
        here = sources == source
        for piece in (False, True):
            group = here & ((labels > 0) == piece)
            if group.any():
                w[group] = share * 0.5 / group.sum()
    return w / w.sum()


def main() -> int:
    import numpy as np
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "test-artifacts" / "point_net" / "data.npz")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--per-epoch", type=int, default=50000, help="patches drawn per epoch")
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--widths", default="8,16,16,32", help="channels of the three convolutions, hidden units"
    )
    parser.add_argument("--leave-out", default="", help="a real set's name to train without")
    parser.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "point_net.onnx")
    args = parser.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    data = np.load(args.data)
    patches, labels, sources = data["patches"], data["labels"].astype(np.int64), data["sources"]
    set_names = [str(s) for s in data["set_names"]]
    keep = np.ones(len(labels), dtype=bool)
    if args.leave_out:
        if args.leave_out not in set_names:
            raise SystemExit(
                f"--leave-out {args.leave_out}: not a set in {args.data} ({', '.join(set_names)})"
            )
        keep = sources != set_names.index(args.leave_out) + 1
    patches, labels, sources = patches[keep], labels[keep], sources[keep]
    weights = draw_weights(labels, sources)
    widths = tuple(int(v) for v in args.widths.split(","))
    if len(widths) != 4:
        raise SystemExit(
            f"--widths {args.widths}: expected four numbers (three convolutions, the hidden layer)"
        )
    model = build_model(widths)  # type: ignore[arg-type]
    count = sum(p.numel() for p in model.parameters())
    optimiser = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-5)
    steps = args.epochs * (args.per_epoch // args.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss()
    started = time.perf_counter()
    print(f"{len(labels)} patches, {count} weights, {steps} steps", flush=True)
    for epoch in range(args.epochs):
        drawn = rng.choice(len(labels), size=args.per_epoch, p=weights)
        total, right, loss_sum = 0, 0, 0.0
        model.train()
        for start in range(0, args.per_epoch - args.batch + 1, args.batch):
            idx = np.sort(drawn[start : start + args.batch])
            x = torch.from_numpy(augment(patches[idx].astype(np.float32), rng))
            y = torch.from_numpy(labels[idx])
            optimiser.zero_grad()
            out = model(x)
            loss = loss_fn(out, y)
            loss.backward()
            optimiser.step()
            schedule.step()
            loss_sum += loss.item() * len(idx)
            right += int((out.argmax(1) == y).sum())
            total += len(idx)
        print(
            f"epoch {epoch + 1}: loss {loss_sum / total:.4f}, right {100 * right / total:.2f} % "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    model.eval()
    # per source, unaugmented centre crops (every fifth): how well it fits what it was trained on
    fit: dict[str, float] = {}
    centre = slice(2, 2 + PATCH)
    with torch.no_grad():
        for source in sorted(set(sources.tolist())):
            here = np.flatnonzero(sources == source)[::5]  # every fifth: quick
            pred = []
            for start in range(0, len(here), 4096):
                x = torch.from_numpy(
                    patches[here[start : start + 4096]][:, :, centre, centre].astype(np.float32)
                )
                pred.append(model(x).argmax(1).numpy())
            name = "renders" if source == 0 else set_names[source - 1]
            fit[name] = round(100 * float((np.concatenate(pred) == labels[here]).mean()), 3)
    print("right per source (training data, in-sample):", fit)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        with_hidden(model),
        (torch.zeros(1, 3, PATCH, PATCH),),
        str(args.out),
        input_names=["patches"],
        output_names=["logits", "hidden"],
        dynamic_axes={"patches": {0: "points"}, "logits": {0: "points"}, "hidden": {0: "points"}},
        opset_version=13,
        dynamo=False,
    )
    # a fixed batch and torch's outputs: the test checks OpenCV reads the same numbers
    pick = np.concatenate([np.flatnonzero(labels == c)[:3] for c in (0, 1, 2)])
    check = patches[pick][:, :, centre, centre].astype(np.float32)
    with torch.no_grad():
        expected = model(torch.from_numpy(check)).numpy()
    np.savez_compressed(args.out.with_name(args.out.stem + "_check.npz"), patches=check, logits=expected)
    data_list_path = args.data.with_suffix(".json")
    data_list = json.loads(data_list_path.read_text(encoding="utf-8")) if data_list_path.exists() else {}
    meta = {
        "model": args.out.name,
        "weights": count,
        "architecture": f"conv3x3(3->{widths[0]}) relu maxpool2, "
        f"conv3x3({widths[0]}->{widths[1]}) relu maxpool2, "
        f"conv3x3({widths[1]}->{widths[2]}) relu, dense {widths[2] * 16}->{widths[3]} relu, "
        f"dense {widths[3]}->3 (empty, dark, light)",
        "input": "16x16 patch at 12 px a pitch, log(BGR + 4) minus the light at the point, clipped +-3 "
        "(vision/point_net.point_patches)",
        "training": {
            "command": f"benchmarks/train_point_net.py --epochs {args.epochs} --per-epoch {args.per_epoch} "
            f"--batch {args.batch} --seed {args.seed} --widths {args.widths}"
            + (f" --leave-out {args.leave_out}" if args.leave_out else ""),
            "left_out": args.leave_out or None,
            "optimiser": "Adam, one-cycle learning rate up to 3e-3, weight decay 1e-5, cross-entropy",
            "draws": "renders half, real sets half (equally), empty and pieces equally within each",
            "augmentation": AUGMENT,
            "torch": torch.__version__,
            "threads": 2,
            "seconds": round(time.perf_counter() - started),
            "right_per_source_in_sample": fit,
        },
        "data": data_list,
    }
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes) in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
