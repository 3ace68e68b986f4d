import { hashPassword, normaliseEmail, passwordProblem, verifyPassword } from '#domain/credentials';

describe('an email', () => {
  test('is trimmed and lower-cased', () => {
    expect(normaliseEmail('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
  });

  test.each(['ada', 'ada@', '@example.com', 'a@b@example.com', 'ada@example', 'a da@example.com', `${'a'.repeat(250)}@example.com`])(
    '%s is not one address',
    (input) => expect(normaliseEmail(input)).toBeUndefined(),
  );
});

describe('a password', () => {
  test('of 10 to 200 characters not on the common list is accepted', () => {
    expect(passwordProblem('correct horse battery')).toBeUndefined();
    expect(passwordProblem('é'.repeat(10))).toBeUndefined();
  });

  test('shorter than 10, longer than 200 or common is refused with the reason', () => {
    expect(passwordProblem('short1234')).toBe('must be at least 10 characters');
    expect(passwordProblem('x'.repeat(201))).toBe('must be at most 200 characters');
    expect(passwordProblem('Password123')).toMatch(/most common passwords/);
  });

  test('is stored as a salted scrypt hash that verifies only the same password', async () => {
    const [first, second] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'bcrypt$whatever')).toBe(false);
  });
});
