/**
 * A shipment reference, taken whole: a token of parts joined by `-` or `/`, each part capitals,
 * digits, or capitals then digits (`BW-88213`, `PA-2026-0901`, `NGM/2026/1142`, `TWP2026118`,
 * `KF-BK-2026-1282`, `BL-SBF26-0587`), starting with a capital, holding a digit and at least two
 * capitals, and no run of more than six capitals. A reference is the whole token as it stands
 * between separators (spaces, punctuation, `_`, `.`): `KF-BK-2026-1282` is one reference and
 * `BK-2026-1282` is another customer's, so a piece of it is never taken (issue 35: a suggestion
 * narrower than the reference is as wrong as one wider). Words of a file name or a sentence joined
 * to it (`packing-list-QS-2026-118.csv`, `Invoice-INV-2026-01`, `QS-2026-118-final`) are not part
 * of it: a lower-case or capitalized word is where a reference starts or ends, as a space is.
 */
/**
 * A capital and the reference parts joined to it (`PA-2026-0901`, or just `T` of `The`): where every
 * reference starts, or a token holding one. Found without stopping at each word, and never
 * backtracking (nothing is required after the run), so its cost is linear in the text.
 */
const CANDIDATE = /[A-Z][A-Z0-9]*(?:[-/][A-Z0-9]+)*/g;
const DIGIT = /\d/;
const ALNUM = /[\p{L}\p{N}]/u;
const REFERENCE_PART = /^[A-Z0-9]+$/;
const WHOLE_RUN = /^[A-Z0-9]+(?:[-/][A-Z0-9]+)*$/;
/** `list`, `final`, `Invoice`: a word, which bounds a reference as a space does. */
const WORD_PART = /^\p{Lu}?\p{Ll}+$/u;
const TOO_MANY_CAPITALS = /[A-Z]{7}/;

/**
 * Every distinct reference in the text, in order of first appearance, each taken whole:
 * `PA-2026-0901` is one reference, never `PA-2026`; `KF-BK-2026-1282` never `BK-2026-1282`. One
 * that touches a part that is neither a reference's nor a word (`xPA-2026-0901`, `PA-2026-0901é`)
 * is part of something else and is left out. At most `most` are looked for.
 */
export function findReferences(text: string, most = Infinity): string[] {
  const found = new Set<string>();
  // The token is the unit (letters and digits, parts joined by single `-` or `/`); only those
  // around a run with a capital and a digit are read, each once (a 1 MiB body: 150,000 words).
  let readUpTo = 0;
  const seen = new Set<string>();
  for (const match of text.matchAll(CANDIDATE)) {
    const run = match[0];
    if (match.index < readUpTo || !DIGIT.test(run)) continue;
    const [from, to] = tokenAround(text, match.index, match.index + run.length);
    readUpTo = to;
    const token = text.slice(from, to);
    if (seen.has(token)) continue;
    seen.add(token);
    for (const reference of referencesInToken(token)) found.add(reference);
    // A question offers one of the first few: reading on would only cost time.
    if (found.size >= most) return [...found].slice(0, most);
  }
  return [...found];
}

/** Whether text[at] is a letter or a digit (ASCII by its code; beyond it, Unicode's). */
function isAlnum(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  // NaN outside the text.
  return !Number.isNaN(code) && ALNUM.test(text.charAt(at));
}

/** Whether text[at] joins two parts (`-` or `/`). */
function isJoint(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code === 45 || code === 47;
}

/** The token holding text[start, end): out to the letters and digits, and the parts joined to them. */
function tokenAround(text: string, start: number, end: number): [number, number] {
  let from = start;
  for (;;) {
    if (isAlnum(text, from - 1)) from -= 1;
    else if (isJoint(text, from - 1) && isAlnum(text, from - 2)) from -= 2;
    else break;
  }
  let to = end;
  for (;;) {
    if (isAlnum(text, to)) to += 1;
    else if (isJoint(text, to) && isAlnum(text, to + 1)) to += 2;
    else break;
  }
  return [from, to];
}

/** The references in one token: its runs of reference parts bounded by the token's ends or by words. */
function referencesInToken(token: string): string[] {
  // Most tokens read are one run of reference parts: no need to split them.
  if (WHOLE_RUN.test(token)) return isReference(token) ? [token] : [];
  // Parts at even places, their separators at odd places.
  const pieces = token.split(/([-/])/);
  const references: string[] = [];
  let start = 0;
  while (start < pieces.length) {
    if (!REFERENCE_PART.test(pieces[start]!)) {
      start += 2;
      continue;
    }
    let end = start;
    while (end + 2 < pieces.length && REFERENCE_PART.test(pieces[end + 2]!)) end += 2;
    const boundedBefore = start === 0 || WORD_PART.test(pieces[start - 2]!);
    const boundedAfter = end === pieces.length - 1 || WORD_PART.test(pieces[end + 2]!);
    const run = pieces.slice(start, end + 1).join('');
    if (boundedBefore && boundedAfter && isReference(run)) references.push(run);
    start = end + 2;
  }
  return references;
}

function isReference(run: string): boolean {
  const first = run.charCodeAt(0);
  if (first < 65 || first > 90) return false;
  let capitals = 0;
  let digit = false;
  for (let at = 0; at < run.length; at += 1) {
    const code = run.charCodeAt(at);
    if (code >= 65 && code <= 90) capitals += 1;
    else if (code >= 48 && code <= 57) digit = true;
  }
  return digit && capitals >= 2 && !TOO_MANY_CAPITALS.test(run);
}
