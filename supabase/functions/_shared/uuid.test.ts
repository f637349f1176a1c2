// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isUuid } from './uuid.ts';

describe('isUuid', () => {
  it('takes a UUID of any version, in either case', () => {
    expect(isUuid('6f1c2a9e-1b7d-4c53-9a55-3d2f8e0b7c41')).toBe(true);
    expect(isUuid('6F1C2A9E-1B7D-4C53-9A55-3D2F8E0B7C41')).toBe(true);
    expect(isUuid('00000000-0000-0000-0000-000000000000')).toBe(true);
  });

  it('refuses anything else', () => {
    for (const value of [
      '',
      '6f1c2a9e1b7d4c539a553d2f8e0b7c41',
      '6f1c2a9e-1b7d-4c53-9a55-3d2f8e0b7c4',
      '6f1c2a9e-1b7d-4c53-9a55-3d2f8e0b7c41 ',
      '{6f1c2a9e-1b7d-4c53-9a55-3d2f8e0b7c41}',
      '6f1c2a9e-1b7d-4c53-9a55-3d2f8e0b7cg1',
    ])
      expect(isUuid(value), value).toBe(false);
  });
});
