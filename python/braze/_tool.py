"""Finding and running the braze driver (subprocess)."""
import functools
import os
import shutil
import subprocess

from ._errors import BrazeError


def braze_bin():
    """$BRAZE_BIN, then the build tree beside this package (python/braze -> build/braze),
    then `braze` on PATH."""
    env = os.environ.get("BRAZE_BIN")
    if env:
        if not os.access(env, os.X_OK):
            raise BrazeError("$BRAZE_BIN=%s is not an executable" % env)
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.join(os.path.dirname(os.path.dirname(here)), "build", "braze")
    if os.access(tree, os.X_OK):
        return tree
    found = shutil.which("braze")
    if found:
        return found
    raise BrazeError("no braze tool: set $BRAZE_BIN, build the tree (make build) or put braze on PATH")


def run(args, quiet=True):
    """Run `braze ARGS...`; raise BrazeError with its stderr when it fails."""
    cmd = [braze_bin()] + list(args)
    p = subprocess.run(cmd, stdout=subprocess.PIPE if quiet else None,
                       stderr=subprocess.PIPE, text=True)
    if p.stderr and not quiet:
        print(p.stderr, end="")
    if p.returncode != 0:
        raise BrazeError("%s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p.stdout or ""


@functools.lru_cache(maxsize=None)
def _version(path, mtime):
    p = subprocess.run([path, "--version"], stdout=subprocess.PIPE, text=True, check=True)
    return p.stdout.strip()


def version():
    """`braze --version` (the whole text: braze, plugin ABI and MLIR/LLVM), once per binary."""
    path = braze_bin()
    return _version(path, os.path.getmtime(path))


def pipelines():
    """The named pipelines the driver knows (braze compile --list-targets)."""
    out = run(["compile", "--list-targets"])
    for line in out.splitlines():
        if line.startswith("pipelines:"):
            return line.split()[1:]
    return []
