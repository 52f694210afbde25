# make-images.py DIR N_TRAIN N_VAL: random 256x256 JPEGs in DIR/train/n0 and DIR/val/n0 (seed 1),
# an image folder for pytorch/examples' imagenet/main.py that needs no download (record-corpus.sh).
import os, sys
import numpy as np
from PIL import Image
root, n_train, n_val = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(1)
for split, n in (("train", n_train), ("val", n_val)):
    d = os.path.join(root, split, "n0")
    os.makedirs(d, exist_ok=True)
    for i in range(n):
        Image.fromarray(rng.integers(0, 256, (256, 256, 3), dtype=np.uint8)).save(os.path.join(d, f"{i}.jpg"))
