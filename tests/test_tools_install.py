"""The host tools install with pip from the source tree (pyproject.toml):
into a fresh virtual environment (Debian's python3-venv, with the system's
packages for Jinja2, matplotlib and pyserial), offline, the commands
sdbreport, sdbcapture, sdbcard and sdbdb exist and work, and sdbcard makes
a card image from another directory with only a build's kernels (its
image maker and sample sdbench.txt ship in the package)."""
import os
import shutil
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LOG = os.path.join(ROOT, "tests", "data", "sim-sdhost-hosts.log")


def sh(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=600, **kw)


def test_pip_install_gives_the_commands(tmp_path):
    # a copy of what the package is made of: pip's in-tree build would leave
    # build/lib and an egg-info in the source tree
    src = tmp_path / "src"
    shutil.copytree(os.path.join(ROOT, "tools"), src / "tools",
                    ignore=shutil.ignore_patterns("__pycache__", "*.c"))
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), src)
    venv = tmp_path / "venv"
    p = sh(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)])
    assert p.returncode == 0, p.stderr
    p = sh([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index",
            str(src)])
    assert p.returncode == 0, p.stdout + p.stderr
    bin_ = venv / "bin"
    for cmd in ("sdbreport", "sdbcapture", "sdbcard", "sdbdb"):
        assert (bin_ / cmd).exists(), cmd
        h = sh([str(bin_ / cmd), "--help"], cwd=str(tmp_path))
        assert h.returncode == 0 and "usage" in h.stdout.lower(), (cmd, h.stderr)
    # sdbcard config-txt without a build tree: the lines for every kernel
    r = sh([str(bin_ / "sdbcard"), "config-txt"], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "[pi4]" in r.stdout and "kernel=kernel8.img" in r.stdout, r.stdout
    assert "kernel_2712.img" in r.stdout and "every kernel" not in r.stdout
    # outside the source tree: the installed package is what runs
    r = sh([str(bin_ / "sdbreport"), "-q", LOG], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("HEADLINE") and "host comparison" in r.stdout
    r = sh([str(bin_ / "sdbreport"), "-q", "--html", str(tmp_path / "r.html"), LOG],
           cwd=str(tmp_path))
    assert r.returncode == 0 and (tmp_path / "r.html").stat().st_size > 10000, r.stderr
    r = sh([str(bin_ / "sdbreport"), "-q", "compare", LOG, LOG], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    # sdbcapture's closing hint names a command that exists here
    r = sh([str(bin_ / "sdbcapture"), "--port", str(tmp_path / "no-such-port"), "-o",
            str(tmp_path / "c.log")], cwd=str(tmp_path))
    assert r.returncode == 3 and "Traceback" not in r.stderr, r.stderr


def test_pip_install_in_the_tree_leaves_nothing_untracked():
    """pip install . in the source tree writes tools/sdbench_tools.egg-info/
    (setuptools): git ignores it, as it does build/."""
    for path in ("tools/sdbench_tools.egg-info/PKG-INFO", "build/lib/sdbcard.py"):
        p = sh(["git", "check-ignore", "-q", path], cwd=ROOT)
        assert p.returncode == 0, path


def git_status():
    p = sh(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT)
    assert p.returncode == 0, p.stderr
    return set(p.stdout.splitlines())


def test_sdbcard_image_from_an_installed_package(tmp_path):
    """pip install . in the source tree, then sdbcard image from another
    directory: the image holds the kernels of --build, the package's sample
    sdbench.txt and a config.txt; the tree has nothing new to commit."""
    build = os.path.join(ROOT, "build")
    if not os.path.isfile(os.path.join(build, "kernel.img")):
        pytest.skip("no build/kernel.img: `make` builds the firmware this test puts on a card")
    venv = tmp_path / "venv"
    p = sh(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)])
    assert p.returncode == 0, p.stderr
    # what an earlier pip install . left (setuptools' build/lib and the
    # egg-info's file list): a file named there would be packaged again even
    # when pyproject.toml no longer ships it
    for old in ["build/lib", "tools/sdbench_tools.egg-info"] + \
            ["build/" + d for d in os.listdir(build) if d.startswith("bdist.")]:
        shutil.rmtree(os.path.join(ROOT, old), ignore_errors=True)
    before = git_status()
    p = sh([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", "."],
           cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    assert git_status() == before, "pip install . left files to commit"
    # the installed command runs the installed package, never the tree's
    where = sh([str(venv / "bin" / "python"), "-c",
                "import sdbcard, sdbhost.mkimage; print(sdbcard.__file__); print(sdbcard.SAMPLE)"],
               cwd=str(tmp_path))
    assert where.returncode == 0, where.stderr
    assert all(l.startswith(str(venv)) for l in where.stdout.split()), where.stdout
    work = tmp_path / "elsewhere"
    work.mkdir()
    img = work / "card.img"
    r = sh([str(venv / "bin" / "sdbcard"), "image", "-o", str(img), "--build", build],
           cwd=str(work))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "card image" in r.stdout and img.stat().st_size == 512 << 20
    out = work / "sdbench.txt"
    r = sh([str(venv / "bin" / "sdbcard"), "extract", str(img), "sdbench.txt", str(out)],
           cwd=str(work))
    assert r.returncode == 0, r.stderr
    with open(os.path.join(ROOT, "tools", "sdbhost", "sdbench-sample.txt"), "rb") as f:
        assert out.read_bytes() == f.read()
    for name in ("kernel.img", "config.txt"):
        r = sh([str(venv / "bin" / "sdbcard"), "extract", str(img), name, str(work / name)],
               cwd=str(work))
        assert r.returncode == 0, (name, r.stderr)
    with open(os.path.join(build, "kernel.img"), "rb") as f:
        assert (work / "kernel.img").read_bytes() == f.read()
    assert "kernel=kernel.img" in (work / "config.txt").read_text()
