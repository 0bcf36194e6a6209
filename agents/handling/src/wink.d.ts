// Types for the parts of wink-naive-bayes-text-classifier this package uses (it ships none).
declare module 'wink-naive-bayes-text-classifier' {
  interface NaiveBayesTextClassifier {
    defineConfig(config: { considerOnlyPresence?: boolean; smoothingFactor?: number }): boolean;
    /** Tokens in, when no preparation tasks are defined. */
    learn(tokens: readonly string[], label: string): boolean;
    consolidate(): boolean;
    /** `[label, log2 odds]`, highest first; `[['unknown', 0]]` when no token is in the vocabulary. */
    computeOdds(tokens: readonly string[]): [string, number][];
    stats(): { labelWiseSamples: Record<string, number>; labelWiseWords: Record<string, number>; vocabulary: number };
  }
  function naiveBayesTextClassifier(): NaiveBayesTextClassifier;
  export = naiveBayesTextClassifier;
}

declare module 'wink-naive-bayes-text-classifier/src/prep-text.js' {
  /** wink-nlp's English model: word tokens, stop words out, negation marked with "!", stemmed. */
  function prepText(text: string): string[];
  export = prepText;
}
