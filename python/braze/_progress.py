"""A compile's stages on one updating stderr line (docs/python.md "Progress").

The Python side's stage (trace: make_fx or torch.onnx.export) and the braze tool's
(`braze compile --progress`: import, passes, lower, llvm, link) are shown once the
compile has run `after` seconds ($BRAZE_PROGRESS_AFTER, default 1): on a terminal one
line redrawn in place, elsewhere (a log) only the final line."""
import os
import sys
import threading
import time


class Progress:
    def __init__(self, label, enabled=True, after=None, stream=None):
        self.label, self.enabled = label, enabled
        self.after = float(os.environ.get("BRAZE_PROGRESS_AFTER", "1")) if after is None else after
        self.stream = stream or sys.stderr
        self.tty = os.environ.get("BRAZE_PROGRESS") == "tty" or getattr(self.stream, "isatty", lambda: False)()
        self.t0 = time.monotonic()
        self.stages, self.drawn, self.ended = [], False, None
        self._lock, self._stop = threading.Lock(), threading.Event()
        self._thread = None
        if enabled and self.tty:
            self._thread = threading.Thread(target=self._tick, daemon=True)
            self._thread.start()

    def stage(self, name, at=None):
        """Stage name begins (at: time.monotonic() of its start, default now)."""
        with self._lock:
            self.stages.append((name, time.monotonic() if at is None else at))

    def line(self, now=None):
        now = time.monotonic() if now is None else now
        with self._lock:
            stages = list(self.stages)
        parts = []
        for i, (name, start) in enumerate(stages):
            end = stages[i + 1][1] if i + 1 < len(stages) else (self.ended or now)
            parts.append("%s %.1fs" % (name, max(0.0, end - start)))
        what = "compiled" if self.ended else "compiling"
        return "braze: %s %s in %.1fs: %s" % (what, self.label, (self.ended or now) - self.t0, ", ".join(parts))

    def _tick(self):
        while not self._stop.wait(0.2):
            if time.monotonic() - self.t0 >= self.after:
                self._draw(self.line())

    def _draw(self, text, end=""):
        self.stream.write("\r" + text + "\x1b[K" + end if self.tty else text + end)
        self.stream.flush()
        self.drawn = True

    def finish(self, ok=True):
        """The final line (when the compile took `after` or more, or a line was drawn)."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
        if not self.enabled:
            return
        self.ended = time.monotonic()
        if not ok:
            self.stages.append(("failed", self.ended))
        if self.drawn or self.ended - self.t0 >= self.after:
            self._draw(self.line(), end="\n")


class Silent:
    """No line: quiet=True."""
    def stage(self, name, at=None):
        pass

    def finish(self, ok=True):
        pass
