#!/usr/bin/python3
"""Derive the polynomial coefficients used by passes/math-approx.c.

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

# tanh(x) = x + x^3 * P(x^2), |x| < 0.625
pt = fit(lambda z: (math.tanh(math.sqrt(z)) - math.sqrt(z)) / z ** 1.5 if z > 1e-6 else -1 / 3 + 2 * z / 15,
         0.0, 0.625 ** 2, 4, weight=lambda z: z)
show("tanh P", pt)

# erf(x) = x * P(x^2), |x| < 1
pr = fit(lambda z: math.erf(math.sqrt(z)) / math.sqrt(z) if z > 1e-8 else 2 / math.sqrt(math.pi),
         0.0, 1.0, 6)
show("erf P", pr)

# erfc(x) = exp(-x^2) / x * Q(1/x^2), 1 <= x <= 4 (absolute error weighted)
pq = fit(lambda u: math.erfc(1 / math.sqrt(u)) * math.exp(1 / u) / math.sqrt(u), 1 / 16, 1.0, 9,
         weight=lambda u: math.exp(-1 / u) * math.sqrt(u))
show("erfc Q", pq)

# float32 checks of the whole formulas on the fitted ranges
def check(name, xs, approx, exact):
    worst = max(abs(float(approx(f32(x))) - exact(float(f32(x)))) / max(abs(exact(float(f32(x)))), 1e-30) for x in xs)
    print("  %s: max rel err %.3g" % (name, worst))

xs = np.linspace(-0.3466, 0.3466, 20001)
check("exp(r)", xs, lambda r: f32(f32(1) + r + f32(r * r) * horner(pe, r)), math.exp)
xs = np.linspace(0.70710678 - 1, 1.41421356 - 1, 20001)
xs = xs[np.abs(xs) > 1e-7]
check("log1p", xs, lambda x: f32(x + f32(f32(-0.5) * x * x + f32(x * x * x) * horner(pl, x))), math.log1p)
xs = np.linspace(-0.625, 0.625, 20001)
xs = xs[np.abs(xs) > 1e-7]
check("tanh small", xs, lambda x: f32(x + f32(x * x * x) * horner(pt, f32(x * x))), math.tanh)
xs = np.linspace(-1, 1, 20001)
xs = xs[np.abs(xs) > 1e-7]
check("erf small", xs, lambda x: f32(x * horner(pr, f32(x * x))), math.erf)
xs = np.linspace(1, 4, 20001)
check("erf large", xs, lambda x: f32(1 - f32(np.exp(-f32(x * x), dtype=np.float32) / x) * horner(pq, f32(1 / (x * x)))), math.erf)
