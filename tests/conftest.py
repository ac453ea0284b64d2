"""pytest configuration shared by every test under tests/.

Makes the QEMU harness (tests/qemu/harness.py) importable as `harness`.
Run from the repository root: /usr/bin/python3 -m pytest -q tests
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "qemu"))
