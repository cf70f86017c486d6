/**
 * The few statistics a comparison of two runs needs: Student's t quantile (for a paired t-interval)
 * from the regularised incomplete beta function, with no dependency. Accurate to well below the
 * three decimals a report prints (checked against published tables in the tests).
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(x: number, a: number, b: number): number {
  const TINY = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The regularised incomplete beta function I_x(a, b). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** P(T <= t) for Student's t with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T <= t) = p, for 0.5 < p < 1 (bisection on the CDF: a few dozen steps, once per scorer). */
export function studentTQuantile(p: number, df: number): number {
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface PairedInterval {
  /** Pairs counted. */
  n: number;
  /** Mean of the per-pair differences (after − before). */
  mean: number;
  /** The 95% interval of that mean; null with fewer than two pairs. */
  interval: [number, number] | null;
}

/**
 * A paired t-interval on per-pair differences: mean ± t(0.975, n − 1) · s / √n. With fewer than two
 * pairs there is no spread to estimate, so no interval. When every difference is the same (s = 0, as
 * with deterministic scorers) the interval is that one value.
 */
export function pairedInterval(differences: readonly number[], level = 0.95): PairedInterval {
  const n = differences.length;
  if (n === 0) return { n, mean: 0, interval: null };
  let sum = 0;
  for (const d of differences) sum += d;
  const mean = sum / n;
  if (n < 2) return { n, mean, interval: null };
  let squares = 0;
  for (const d of differences) squares += (d - mean) * (d - mean);
  const sd = Math.sqrt(squares / (n - 1));
  // Differences equal up to rounding (0.1 - 0.3 and 0.2 - 0.4) have no spread either.
  if (sd <= 1e-12 * Math.max(1, Math.abs(mean))) return { n, mean, interval: [mean, mean] };
  const half = studentTQuantile(1 - (1 - level) / 2, n - 1) * (sd / Math.sqrt(n));
  return { n, mean, interval: [mean - half, mean + half] };
}
