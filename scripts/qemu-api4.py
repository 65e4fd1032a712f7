#!/usr/bin/python3
"""Build a qemu-x86_64 that loads TCG plugins of API version 4, for the
benchmark of that API's floor (bench/qemu-probe4.c, `make bench-qemu-api4`).

Debian 12's qemu-user (QEMU 7.2) implements plugin API version 1 only, and
the QEMU 10.0 of bookworm-backports is built static, without plugins (it
rejects -plugin).  So this builds the same QEMU from the source package
bookworm-backports ships, for the x86_64 user-mode target alone, with
plugins on: `qemu-x86_64` in OUT.  Its meson (>= 1.5) and pycotap come from
bookworm-backports too (Debian 12 has meson 1.0), unpacked, not installed.
Every download is checked against the SHA-256 the archive's index gives.

Usage: qemu-api4.py OUT      (nothing is done if OUT/qemu-x86_64 exists)
"""
import hashlib
import lzma
import os
import shutil
import subprocess
import sys
import urllib.request

MIRROR = "http://deb.debian.org/debian"
SUITE = "bookworm-backports"
APT = ["libglib2.0-dev", "ninja-build", "pkg-config", "python3-venv"]


def fail(msg):
    sys.exit(f"qemu-api4: {msg}")


def fetch(url, dest=None):
    try:
        with urllib.request.urlopen(url, timeout=300) as r:
            data = r.read()
    except OSError as e:
        fail(f"{url}: {e}")
    if dest:
        with open(dest + ".tmp", "wb") as f:
            f.write(data)
        os.replace(dest + ".tmp", dest)
    return data


def stanzas(index_url):
    """The stanzas of a Packages or Sources index, as dicts."""
    text = lzma.decompress(fetch(index_url)).decode("utf-8", "replace")
    for block in text.split("\n\n"):
        fields, key = {}, None
        for line in block.splitlines():
            if line[:1] in (" ", "\t") and key:
                fields[key] += "\n" + line.strip()
            elif ":" in line:
                key, _, val = line.partition(":")
                fields[key] = val.strip()
        if fields:
            yield fields


def checked(url, sha256, dest):
    if not os.path.exists(dest):
        fetch(url, dest)
    with open(dest, "rb") as f:
        got = hashlib.sha256(f.read()).hexdigest()
    if got != sha256:
        os.unlink(dest)
        fail(f"{url}: SHA-256 {got}, the index says {sha256}")
    return dest


def main():
    if len(sys.argv) != 2:
        fail("usage: qemu-api4.py OUT")
    out = os.path.abspath(sys.argv[1])
    binary = os.path.join(out, "qemu-x86_64")
    if os.path.exists(binary):
        return
    os.makedirs(out, exist_ok=True)
    subprocess.run(["apt-get", "install", "-y", "-q", *APT], check=True,
                   env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
                   stdout=subprocess.DEVNULL)

    base = f"{MIRROR}/dists/{SUITE}/main"
    src = next((s for s in stanzas(f"{base}/source/Sources.xz")
                if s.get("Package") == "qemu"), None)
    if not src:
        fail(f"no qemu source package in {SUITE}")
    orig = [ln.split() for ln in src["Checksums-Sha256"].splitlines()
            if ln.split() and ln.split()[-1].endswith(".orig.tar.xz")]
    if not orig:
        fail(f"qemu {src['Version']}: no .orig.tar.xz in {SUITE}'s index")
    sha, _, name = orig[0]
    tarball = checked(f"{MIRROR}/{src['Directory']}/{name}", sha,
                      os.path.join(out, name))

    py = os.path.join(out, "python")
    want = {"meson", "python3-pycotap"}
    for pkg in stanzas(f"{base}/binary-amd64/Packages.xz"):
        if pkg.get("Package") in want:
            want.discard(pkg["Package"])
            deb = checked(f"{MIRROR}/{pkg['Filename']}", pkg["SHA256"],
                          os.path.join(out, os.path.basename(pkg["Filename"])))
            subprocess.run(["dpkg-deb", "-x", deb, py], check=True)
    if want:
        fail(f"not in {SUITE}: {', '.join(sorted(want))}")

    tree = os.path.join(out, "src")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    subprocess.run(["tar", "xf", tarball, "-C", tree,
                    "--strip-components=1"], check=True)
    env = dict(os.environ,
               PYTHONPATH=os.path.join(py, "usr/lib/python3/dist-packages"))
    b = os.path.join(tree, "b")
    os.makedirs(b)
    cc = "ccache gcc" if shutil.which("ccache") else "gcc"
    subprocess.run(["../configure", "--python=/usr/bin/python3",
                    "--target-list=x86_64-linux-user", "--enable-plugins",
                    "--disable-system", "--disable-tools", "--disable-docs",
                    "--disable-install-blobs", "--disable-werror",
                    f"--cc={cc}"], cwd=b, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", f"-j{os.cpu_count() or 1}", "qemu-x86_64"],
                   cwd=b, env=env, check=True, stdout=subprocess.DEVNULL)
    shutil.copy2(os.path.join(b, "qemu-x86_64"), binary + ".tmp")
    os.replace(binary + ".tmp", binary)
    shutil.rmtree(tree)
    print(f"qemu-api4: {binary} (QEMU {src['Version']}, plugins on)")


if __name__ == "__main__":
    main()
