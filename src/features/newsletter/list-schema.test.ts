import { describe, expect, it } from 'vitest';
import { cleanList, LIST_TEXT, listSchema } from './list-schema';

const valid = {
  name: ' Product updates ',
  from_name: '',
  reply_to: '',
  allowed_origin: 'https://Example.com/',
  confirm_message: '',
};

const errorsOf = (values: object) => {
  try {
    listSchema.validateSync(values, { abortEarly: false });
    return [];
  } catch (error) {
    return (error as { errors: string[] }).errors;
  }
};

describe('listSchema', () => {
  it('cleans what the database stores: trimmed, origin normalised, empty optional fields null', () => {
    expect(cleanList(valid)).toEqual({
      name: 'Product updates',
      from_name: null,
      reply_to: null,
      allowed_origin: 'https://example.com',
      confirm_message: '',
    });
  });

  it("refuses what the database's constraints refuse, in words", () => {
    expect(errorsOf({ ...valid, name: '  ' })).toEqual([LIST_TEXT.nameRequired]);
    expect(errorsOf({ ...valid, name: 'x'.repeat(101) })).toEqual([LIST_TEXT.nameTooLong]);
    expect(errorsOf({ ...valid, from_name: 'Ada <ada@example.com>' })).toEqual([
      LIST_TEXT.fromNameInvalid,
    ]);
    expect(errorsOf({ ...valid, reply_to: 'not an address' })).toEqual([LIST_TEXT.replyToInvalid]);
    expect(errorsOf({ ...valid, allowed_origin: '' })).toEqual([LIST_TEXT.originRequired]);
    expect(errorsOf({ ...valid, allowed_origin: 'https://example.com/signup' })).toEqual([
      LIST_TEXT.originInvalid,
    ]);
    expect(errorsOf({ ...valid, allowed_origin: 'example.com' })).toEqual([
      LIST_TEXT.originInvalid,
    ]);
    expect(errorsOf({ ...valid, confirm_message: 'x'.repeat(1001) })).toEqual([
      LIST_TEXT.confirmTooLong,
    ]);
  });
});
