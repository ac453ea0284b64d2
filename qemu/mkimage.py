#!/usr/bin/python3
"""Build an SD card image laid out like a real Raspberry Pi card: the
command line of tools/sdbhost/mkimage.py (the host tools' package, where
sdbcard image finds it when installed with pip). --help for the options."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "tools"))
from sdbhost import mkimage  # noqa: E402

if __name__ == "__main__":
    sys.exit(mkimage.main())
