"""Finding and running the braze driver (subprocess)."""
import functools
import os
import re
import shutil
import subprocess
import time

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


_STAGE = re.compile(r"^braze: stage (\S+) at (\d+) ms$")


def run(args, quiet=True, progress=None):
    """Run `braze ARGS...`; raise BrazeError with its stderr when it fails. quiet=False
    lets its output through (None counts as True). progress: a _progress.Progress that
    gets the stages of `braze compile --progress` (the flag is added) as they start."""
    quiet = quiet is not False
    cmd = [braze_bin()] + list(args)
    if progress is None:
        p = subprocess.run(cmd, stdout=subprocess.PIPE if quiet else None,
                           stderr=subprocess.PIPE, text=True)
        out, err, rc = p.stdout, p.stderr, p.returncode
    else:
        cmd.append("--progress")
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL if quiet else None, stderr=subprocess.PIPE, text=True)
        lines = []
        for line in p.stderr:
            m = _STAGE.match(line.rstrip("\n"))
            if m:
                if m.group(1) != "done":
                    progress.stage(m.group(1), start + int(m.group(2)) / 1000.0)
            else:
                lines.append(line)
        p.stderr.close()
        rc, out, err = p.wait(), "", "".join(lines)
    if err and not quiet:
        print(err, end="")
    if rc != 0:
        raise BrazeError("%s failed (exit %d):\n%s" % (" ".join(cmd), rc, err.strip()))
    return out or ""


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
