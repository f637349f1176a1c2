// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { coalescedRuns } from './coalesced.ts';

/** A round that waits until the test lets it end. */
function controlledRounds() {
  const ends: (() => void)[] = [];
  let rounds = 0;
  const round = () => {
    rounds++;
    return new Promise<void>((resolve) => ends.push(resolve));
  };
  const endRound = async () => {
    ends.shift()!();
    // Let the loop see the end and decide on the next round.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { round, endRound, rounds: () => rounds };
}

describe('coalesced runs', () => {
  it('start runs once at a time and leaves a running run be', async () => {
    const c = controlledRounds();
    const runs = coalescedRuns(c.round);
    const first = runs.start();
    expect(first).not.toBeNull();
    expect(runs.running()).toBe(true);
    expect(runs.start()).toBeNull();
    await c.endRound();
    await first;
    expect(c.rounds()).toBe(1);
    expect(runs.running()).toBe(false);
  });

  it('a kick while a run goes adds one round after it, however many kicks', async () => {
    const c = controlledRounds();
    const runs = coalescedRuns(c.round);
    const run = runs.start()!;
    const kicks = [runs.kick(), runs.kick(), runs.kick()];
    await c.endRound();
    expect(c.rounds()).toBe(2);
    expect(runs.running()).toBe(true);
    await c.endRound();
    await Promise.all([run, ...kicks]);
    expect(c.rounds()).toBe(2);
    expect(runs.running()).toBe(false);
  });

  it('a kick with nothing running starts a run; one after it ended starts another', async () => {
    const c = controlledRounds();
    const runs = coalescedRuns(c.round);
    const first = runs.kick();
    await c.endRound();
    await first;
    const second = runs.kick();
    expect(runs.running()).toBe(true);
    await c.endRound();
    await second;
    expect(c.rounds()).toBe(2);
  });

  it('a kick during the extra round asks for yet another', async () => {
    const c = controlledRounds();
    const runs = coalescedRuns(c.round);
    const run = runs.start()!;
    void runs.kick();
    await c.endRound();
    void runs.kick();
    await c.endRound();
    await c.endRound();
    await run;
    expect(c.rounds()).toBe(3);
  });
});
