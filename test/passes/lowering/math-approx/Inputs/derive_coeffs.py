#!/usr/bin/python3
"""Derive the polynomial coefficients used by passes/lowering/math-approx.c.

Each polynomial is a weighted least-squares fit on Chebyshev nodes, refined with
Lawson iterations (reweighting by the error) toward the minimax fit, in double
precision; the reported error is that of the whole formula evaluated in float32
with the coefficients rounded to float32. Run: /usr/bin/python3 derive_coeffs.py
"""
import math
import numpy as np

f32 = np.float32


def fit(f, lo, hi, degree, weight=lambda x: 1.0, iters=30):
    n = 4000
    x = 0.5 * (lo + hi) + 0.5 * (hi - lo) * np.cos(np.pi * (np.arange(n) + 0.5) / n)
    y = np.array([f(v) for v in x])
    w0 = np.array([weight(v) for v in x])
    lw = np.ones(n) / n
    V = np.vander(x, degree + 1, increasing=True)
    for _ in range(iters):
        sw = np.sqrt(lw) * w0
        c, *_ = np.linalg.lstsq(V * sw[:, None], y * sw, rcond=None)
        err = np.abs((V @ c - y) * w0)
        lw = lw * err
        lw /= lw.sum()
    return [float(f32(v)) for v in c]


def horner(c, x):
    r = f32(c[-1])
    for v in reversed(c[:-1]):
        r = f32(r * x + f32(v))
    return r


def show(name, c):
    print(name + ": " + ", ".join("%.9e" % v for v in c))


# exp(r) = 1 + r + r^2 * P(r), r in [-ln2/2, ln2/2]
pe = fit(lambda r: (math.expm1(r) - r) / (r * r) if abs(r) > 1e-4 else 0.5 + r / 6 + r * r / 24,
         -0.3466, 0.3466, 5, weight=lambda r: r * r / math.exp(r))
show("exp P", pe)

# log(1+x) = x - x^2/2 + x^3 * P(x), x in [sqrt(1/2)-1, sqrt(2)-1]
pl = fit(lambda x: (math.log1p(x) - x + x * x / 2) / x ** 3 if abs(x) > 1e-3 else 1 / 3 - x / 4 + x * x / 5,
         0.70710678 - 1, 1.41421356 - 1, 8, weight=lambda x: abs(x) ** 3 / max(abs(math.log1p(x)), 1e-300))
show("log P", pl)

def fit_odd_rational(f, hi, np_, nq, iters=40):
    """f(x) ~ x P(x^2) / Q(x^2) on [0, hi], Q(0) = 1, relative error: linearized
    least squares (x P - f Q = 0) reweighted by 1/(f Q_prev) (Sanathanan-Koerner),
    then Lawson reweighting toward the minimax fit."""
    n = 6000
    x = np.abs(0.5 * hi + 0.5 * hi * np.cos(np.pi * (np.arange(n) + 0.5) / n)) + 1e-6
    z = x * x
    y = np.array([f(v) for v in x])
    qprev = np.ones(n)
    lw = np.ones(n)
    for it in range(iters):
        A = np.hstack([x[:, None] * np.vander(z, np_ + 1, increasing=True),
                       -(y[:, None]) * np.vander(z, nq + 1, increasing=True)[:, 1:]])
        w = np.sqrt(lw) / (np.abs(y) * qprev)
        c, *_ = np.linalg.lstsq(A * w[:, None], y * w, rcond=None)
        p = c[:np_ + 1]
        q = np.concatenate([[1.0], c[np_ + 1:]])
        qprev = np.abs(np.polyval(q[::-1], z))
        err = np.abs((x * np.polyval(p[::-1], z) / np.polyval(q[::-1], z) - y) / y)
        if it > 10:
            lw = lw * err
            lw /= lw.sum()
    return [float(f32(v)) for v in p], [float(f32(v)) for v in q]


# tanh(x) = x P(x^2) / Q(x^2), |x| <= 9; erf(x) likewise on |x| <= 4
tp, tq = fit_odd_rational(math.tanh, 9.0, 6, 6)
show("tanh P", tp)
show("tanh Q", tq)
rp, rq = fit_odd_rational(math.erf, 4.0, 6, 4)
show("erf P", rp)
show("erf Q", rq)

# float32 checks of the whole formulas on the fitted ranges
def check(name, xs, approx, exact):
    worst = max(abs(float(approx(f32(x))) - exact(float(f32(x)))) / max(abs(exact(float(f32(x)))), 1e-30) for x in xs)
    print("  %s: max rel err %.3g" % (name, worst))

xs = np.linspace(-0.3466, 0.3466, 20001)
check("exp(r)", xs, lambda r: f32(f32(1) + r + f32(r * r) * horner(pe, r)), math.exp)
xs = np.linspace(0.70710678 - 1, 1.41421356 - 1, 20001)
xs = xs[np.abs(xs) > 1e-7]
check("log1p", xs, lambda x: f32(x + f32(f32(-0.5) * x * x + f32(x * x * x) * horner(pl, x))), math.log1p)
def odd_rational(p, q, hi):
    def g(x):
        ax = f32(min(abs(x), hi))
        z = f32(ax * ax)
        r = f32(f32(ax * horner(p, z)) / horner(q, z))
        return f32(math.copysign(min(r, 1.0), x))
    return g

xs = np.linspace(-9, 9, 40001)
xs = xs[np.abs(xs) > 1e-7]
check("tanh", xs, odd_rational(tp, tq, 9.0), math.tanh)
xs = np.linspace(-4, 4, 40001)
xs = xs[np.abs(xs) > 1e-7]
check("erf", xs, odd_rational(rp, rq, 4.0), math.erf)
