import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadUrlSigningSecret, signToken, verifyToken } from './signing.ts';

describe('signed URL tokens', () => {
  it('keeps one secret per data folder, apart from any other', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'storage-signing-'));
    const other = await mkdtemp(path.join(tmpdir(), 'storage-signing-'));
    try {
      const secret = await loadUrlSigningSecret(dir);
      expect(await loadUrlSigningSecret(dir)).toEqual(secret);
      expect(await loadUrlSigningSecret(other)).not.toEqual(secret);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(other, { recursive: true, force: true });
    }
  });

  it('opens only the object it was signed for, with the secret it was signed with', async () => {
    const secret = new TextEncoder().encode('a'.repeat(32));
    const token = await signToken({ url: 'b/k.txt' }, secret, 60);
    expect(await verifyToken(token, secret, 'b/k.txt')).toMatchObject({ url: 'b/k.txt' });
    await expect(verifyToken(token, secret, 'b/other.txt')).rejects.toMatchObject({
      code: 'InvalidJWT',
    });
    const otherSecret = new TextEncoder().encode('b'.repeat(32));
    await expect(verifyToken(token, otherSecret, 'b/k.txt')).rejects.toMatchObject({
      code: 'InvalidJWT',
    });
    await expect(verifyToken(null, secret, 'b/k.txt')).rejects.toMatchObject({
      code: 'InvalidRequest',
    });
  });

  it('expires', async () => {
    const secret = new TextEncoder().encode('a'.repeat(32));
    const token = await signToken({ url: 'b/k.txt' }, secret, -1);
    await expect(verifyToken(token, secret, 'b/k.txt')).rejects.toMatchObject({
      code: 'ExpiredToken',
    });
  });
});
