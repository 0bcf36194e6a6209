// Which agent reads a file is decided blind, from the media types the agents' cards list. The
// console only knows how to name a file's media type from its extension; the cards say the rest.

const BY_EXTENSION: Readonly<Record<string, string>> = {
  eml: 'message/rfc822',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  txt: 'text/plain',
};

/** The media type of a file name, from its extension; undefined when the console cannot tell. */
export function mediaTypeOf(filename: string): string | undefined {
  const extension = /\.([^./\\]+)$/.exec(filename.trim())?.[1]?.toLowerCase();
  return extension === undefined ? undefined : BY_EXTENSION[extension];
}

/** The extensions the console can name, for the file picker's `accept`. */
export const KNOWN_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION).map((extension) => `.${extension}`);

const normalise = (mediaType: string): string => mediaType.split(';')[0]!.trim().toLowerCase();

/** Whether a listed input mode covers a media type (`text/*` and `*\/*` included). */
export function modeCovers(mode: string, mediaType: string): boolean {
  const [wantedType, wantedSub] = normalise(mediaType).split('/');
  const [type, sub] = normalise(mode).split('/');
  if (type === '*' && (sub === '*' || sub === undefined)) return true;
  return type === wantedType && (sub === '*' || sub === wantedSub);
}

/**
 * The media types an agent reads, from its card: every skill's `inputModes`, or the card's
 * `defaultInputModes` when no skill lists any (A2A: a skill without input modes takes the defaults).
 */
export function acceptedMediaTypes(card: { skills?: readonly { inputModes?: readonly string[] }[]; defaultInputModes?: readonly string[] }): string[] {
  const fromSkills = (card.skills ?? []).flatMap((skill) => skill.inputModes ?? []);
  const modes = fromSkills.length > 0 ? fromSkills : [...(card.defaultInputModes ?? [])];
  return [...new Set(modes.map(normalise).filter((mode) => mode !== ''))];
}

/** The agents that read a media type, in the order they were configured. */
export function agentsAccepting<A extends { readonly accepts: readonly string[] }>(agents: readonly A[], mediaType: string): A[] {
  return agents.filter((agent) => agent.accepts.some((mode) => modeCovers(mode, mediaType)));
}
