import { FUNCTION_LENGTH_LIMIT, lengthViolations, measureSource } from '../../bin/lint/function-length';

/** A function declaration spanning exactly `lines` lines, header and closing brace included. */
const functionOf = (name: string, lines: number) => [`function ${name}() {`, ...Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`), '}'].join('\n');

const over = (file: string, text: string) => lengthViolations(measureSource(file, text), FUNCTION_LENGTH_LIMIT, []).tooLong.map((m) => `${m.name} ${m.lines}`);

describe('the function-length rule', () => {
  test('the limit is 150 lines', () => {
    expect(FUNCTION_LENGTH_LIMIT).toBe(150);
  });

  test('a 151-line function breaks it; a 150-line one does not', () => {
    expect(over('a.ts', `${functionOf('short', 150)}\n${functionOf('long', 151)}\n`)).toEqual(['long 151']);
  });

  test('a class counts as a whole, from its first line to its closing brace', () => {
    const text = `// what it holds\nexport class Store {\n${Array.from({ length: 149 }, (_, i) => `  f${i}(): number { return ${i}; }`).join('\n')}\n}\n`;
    const measured = measureSource('store.ts', text);
    expect(measured.find((m) => m.name === 'class Store')).toEqual({ file: 'store.ts', line: 2, name: 'class Store', lines: 151 });
    expect(over('store.ts', text)).toEqual(['class Store 151']);
  });

  test('arrows and function expressions go by what they are assigned to, methods by their name', () => {
    const text = ['const arrow = () => {', '  return 1;', '};', 'const object = {', '  method() {', '    return [1].map((x) => x);', '  },', '};'].join('\n');
    expect(measureSource('n.ts', text).map((m) => `${m.name}:${m.line}:${m.lines}`)).toEqual(['arrow:1:3', 'method:5:3', 'method/<anonymous>:6:1']);
  });

  test('an allowed offender passes while it is over the limit, and fails once it no longer is', () => {
    const allowed = [{ file: 'a.ts', name: 'long' }];
    expect(lengthViolations(measureSource('a.ts', functionOf('long', 151)), FUNCTION_LENGTH_LIMIT, allowed)).toEqual({ tooLong: [], stale: [] });
    expect(lengthViolations(measureSource('a.ts', functionOf('long', 150)), FUNCTION_LENGTH_LIMIT, allowed)).toEqual({ tooLong: [], stale: allowed });
  });
});
