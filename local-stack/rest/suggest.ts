// "Perhaps you meant …" hints: the closest known name, when it is close enough to be a typo.

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The candidate most similar to `name`, if at least 75 % similar (PostgREST's threshold). */
export function closest(name: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestScore = 0.75;
  for (const c of candidates) {
    if (c === name) continue;
    const score = 1 - distance(name, c) / Math.max(name.length, c.length, 1);
    if (score >= bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}
