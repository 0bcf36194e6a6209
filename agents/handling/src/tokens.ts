/// <reference path="./wink.d.ts" />
import prepText from 'wink-naive-bayes-text-classifier/src/prep-text.js';

/**
 * Tokens of recent texts, so a new version (usually the last one plus one lesson) tokenizes only
 * its new examples. Bounded: past it the oldest are dropped, and read again when needed.
 */
const tokensOfText = new Map<string, readonly string[]>();
const MOST_TEXTS_REMEMBERED = 50_000;

/**
 * The words the classifier reads in a text: the text preparation of wink-naive-bayes-text-classifier
 * (wink-nlp's English model: word tokens, no stop words, negations marked, stemmed). Here, not in
 * the model, so that parsing (in the runtime's parse threads for a large manifest) can tokenize a
 * message's descriptions off the event loop.
 */
export function tokensOf(text: string): readonly string[] {
  const known = tokensOfText.get(text);
  if (known !== undefined) return known;
  const tokens = Object.freeze(prepText(text));
  if (tokensOfText.size >= MOST_TEXTS_REMEMBERED) tokensOfText.delete(tokensOfText.keys().next().value as string);
  tokensOfText.set(text, tokens);
  return tokens;
}
