import type { Weight } from './read-weight.ts';

/** One shipment of the manifest, each field read from its column; null where the sheet has none. */
export interface ManifestRow {
  readonly waybill: string | null;
  readonly consignee: string | null;
  readonly origin: string | null;
  readonly destination: string | null;
  readonly pieces: number | null;
  readonly weight: Weight | null;
  readonly description: string | null;
}

/** What a settled reading hands back. */
export interface ManifestResult {
  /** The rows kept from the sheet (at most the reader's `maxRows`), in sheet order. */
  readonly rows: readonly ManifestRow[];
  /** For each field, the heading of the column it was read from, exactly as the sheet shows it. */
  readonly columns: Readonly<Record<string, string | null>>;
  /** Every data row in the sheet, counting those not in `rows`. */
  readonly rowCount: number;
  readonly truncated: boolean;
  /** Things the person should know about how the sheet was read: duplicate headings, rows left out. */
  readonly notes: readonly string[];
}
