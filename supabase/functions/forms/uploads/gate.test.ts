// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createUploadGate } from './gate.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the upload gate', () => {
  it('lets `atOnce` bodies in, queues the next ones in order and turns away past `waiting`', async () => {
    const gate = createUploadGate({ atOnce: 2, waiting: 2 });
    const first = await gate.enter();
    const second = await gate.enter();
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');

    const entered: string[] = [];
    const third = gate.enter().then((release) => (entered.push('third'), release));
    const fourth = gate.enter().then((release) => (entered.push('fourth'), release));
    expect(await gate.enter()).toBeNull();
    await tick();
    expect(entered).toEqual([]);

    first!();
    await tick();
    expect(entered).toEqual(['third']);
    second!();
    await tick();
    expect(entered).toEqual(['third', 'fourth']);
    // Two running, none waiting: the queue has room again.
    const fifth = gate.enter();
    (await third)!();
    expect(await fifth).toBeTypeOf('function');
    (await fourth)!();
  });

  it('counts a release once, however often it is called', async () => {
    const gate = createUploadGate({ atOnce: 1, waiting: 0 });
    const release = await gate.enter();
    release!();
    release!();
    const next = await gate.enter();
    expect(next).toBeTypeOf('function');
    // One running again: a second release did not free a place that is taken.
    expect(await gate.enter()).toBeNull();
  });
});
