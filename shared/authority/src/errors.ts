/** A rollback to a version the collection never had. */
export class UnknownVersion extends Error {
  override readonly name = 'UnknownVersion';
  constructor(
    readonly collection: string,
    readonly version: number,
    readonly latest: number,
  ) {
    super(latest === 0 ? `${collection} has no versions yet.` : `${collection} has no version ${version}; its versions are 1 to ${latest}.`);
  }
}

/** A request whose parameters cannot be read (e.g. a version that is not a number). */
export class BadRequest extends Error {
  override readonly name = 'BadRequest';
}

/** Nothing was active at the time asked about. */
export class NothingActive extends Error {
  override readonly name = 'NothingActive';
  constructor(collection: string, at: number) {
    super(`Nothing was active in ${collection} at ${new Date(at).toISOString()}; it had not been seeded yet.`);
  }
}
