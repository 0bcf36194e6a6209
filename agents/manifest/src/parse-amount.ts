/**
 * A number written the way people write them in manifests: `2,844.0`, `134,8`, `1.234,5`,
 * `1 234,5`, `1'234.5`. When a text has both `,` and `.`, the last one is the decimal mark. A lone
 * `,` is a thousands separator only in the shape `1,234` or `1,234,567`; otherwise it is the
 * decimal mark (so `134,8` is 134.8). Several `.` are thousands separators; a single `.` is the
 * decimal mark. Anything else, including an empty text, is not a number: null.
 */
export function parseAmount(text: string): number | null {
  const compact = text.trim().replace(/(?<=\d)[\s\u00a0\u202f']+(?=\d)/g, '');
  if (!/^[+-]?(?=[\d.,]*\d)[\d.,]+$/.test(compact)) return null;
  const lastComma = compact.lastIndexOf(',');
  const lastDot = compact.lastIndexOf('.');
  let plain: string;
  if (lastComma >= 0 && lastDot >= 0) {
    plain = lastComma > lastDot ? compact.replaceAll('.', '').replace(',', '.') : compact.replaceAll(',', '');
  } else if (lastComma >= 0) {
    plain = /^[+-]?\d{1,3}(,\d{3})+$/.test(compact) ? compact.replaceAll(',', '') : compact.replace(',', '.');
  } else {
    plain = (compact.match(/\./g) ?? []).length > 1 ? compact.replaceAll('.', '') : compact;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(plain)) return null;
  return Number(plain);
}
