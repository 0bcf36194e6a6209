/** Every name a plain object answers to without having it as its own, and the empty string. */
export const HOSTILE_TOKENS: readonly string[] = [...Object.getOwnPropertyNames(Object.prototype), ''];
