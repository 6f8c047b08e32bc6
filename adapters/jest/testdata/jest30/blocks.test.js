// Selecting the block "parse" under jest 30 runs its test alone, not the
// block "parse errors", whose beforeAll throws.
describe('parse', () => {
  test('reads a number', () => {
    expect(Number('4')).toBe(4);
  });
});

describe('parse errors', () => {
  beforeAll(() => {
    throw new Error('the block parse errors ran');
  });

  test('rejects junk', () => {
    expect(Number('junk')).toBeNaN();
  });
});
