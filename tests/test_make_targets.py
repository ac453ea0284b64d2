"""What the make targets that write pictures and samples write (make -n:
nothing runs). make screen-png leaves the tracked docs/screen.png alone
unless DOC= names it."""
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def dry(*args):
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    p = subprocess.run(["make", "-n", "-s"] + list(args), cwd=ROOT, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    assert p.returncode == 0, p.stdout
    return [l for l in p.stdout.splitlines() if "screendump.py" in l or "readme_sample" in l]


def test_screen_png_writes_into_build_unless_told():
    lines = dry("screen-png")
    assert lines and all("-o build/screen.png" in l for l in lines), lines
    assert not any("docs/screen.png" in l for l in lines)
    lines = dry("screen-png", "DOC=docs/screen.png")
    assert lines and all("-o docs/screen.png" in l for l in lines), lines


def test_readme_sample_rewrites_the_readme():
    assert any("tests/readme_sample.py --write README.md" in l for l in dry("readme-sample"))
