// One CSV field, as every export of the console writes it: RFC 4180 quoting, and no cell a
// spreadsheet would run as a formula, however it is dressed.
import { describe, expect, it } from 'vitest';
import { csvField, csvText } from '../../../renderer/components/csv';

describe('csvField', () => {
  it('leaves plain text and numbers alone', () => {
    expect(csvField('helpdesk')).toBe('helpdesk');
    expect(csvField(12)).toBe('12');
    expect(csvField(0)).toBe('0');
  });

  it('quotes commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tTAB')).toBe("'\tTAB");
  });

  it('neutralises a formula behind leading spaces, and in full-width signs', () => {
    expect(csvField(' =1+2')).toBe("' =1+2");
    expect(csvField('\u00a0\u00a0@SUM(A1)')).toBe("'\u00a0\u00a0@SUM(A1)");
    expect(csvField('\n=cmd')).toBe(`"'\n=cmd"`);
    expect(csvField('\uff1dSUM(A1)')).toBe("'\uff1dSUM(A1)");
    expect(csvField('a = b')).toBe('a = b');
  });

  it('writes nothing for a missing value', () => {
    expect(csvField(undefined)).toBe('');
    expect(csvField(null)).toBe('');
  });
});

describe('csvText', () => {
  it('writes a header row and CRLF line ends', () => {
    expect(
      csvText(
        ['a', 'b'],
        [
          [1, ' =x'],
          ['y', null],
        ],
      ),
    ).toBe("a,b\r\n1,' =x\r\ny,\r\n");
  });
});
