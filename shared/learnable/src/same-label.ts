/**
 * The words of a company's legal form that people write either way, each with the one form it is
 * compared as. Only these, and only at the end of a label: "Northgate Motors Ltd" and "Northgate
 * Motors Limited" are one company to anyone who reads them, but "Northgate Motors" may not be (a
 * sole trader and a limited company can share a name), so a form is never dropped, only spelled one way.
 */
const LEGAL_FORMS: ReadonlyMap<string, string> = new Map([
  ['ltd', 'ltd'],
  ['limited', 'ltd'],
  ['inc', 'inc'],
  ['incorporated', 'inc'],
  ['co', 'co'],
  ['company', 'co'],
  ['corp', 'corp'],
  ['corporation', 'corp'],
  ['llc', 'llc'],
  ['gmbh', 'gmbh'],
  ['plc', 'plc'],
  ['pty', 'pty'],
  ['proprietary', 'pty'],
  ['llp', 'llp'],
]);

/** The longest label compared (the name rule's bound, with room): past it, the label as written. */
const MOST_COMPARED = 1_000;

/**
 * A label as a person reads it when telling whether two name one customer: Unicode compatibility
 * forms folded (NFKC: a full-width "Ｌｔｄ" is "Ltd"), letter case folded, "&" read as "and", full
 * stops and apostrophes dropped ("Ltd." is "Ltd", "O’Neil" is "ONeil"), any other punctuation and
 * every run of spaces one space, and the legal form at its end spelled one way ("Limited" is
 * "Ltd"). Two labels that read alike here are one entry; letters and digits are never changed.
 */
export function labelAsRead(label: string): string {
  const words = label
    .slice(0, MOST_COMPARED)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[.'’‘`´]/g, '')
    .replace(/[\p{P}\p{S}\p{Z}\s]+/gu, ' ')
    .trim()
    .split(' ');
  // From the end, while each word is a legal form ("Pty Ltd", "Co Ltd"), and never the only word.
  for (let at = words.length - 1; at > 0; at--) {
    const form = LEGAL_FORMS.get(words[at]!);
    if (form === undefined) break;
    words[at] = form;
  }
  return words.join(' ');
}

/** Whether two labels name the same thing to a person (see labelAsRead). */
export function sameLabel(a: string, b: string): boolean {
  return labelAsRead(a) === labelAsRead(b);
}
