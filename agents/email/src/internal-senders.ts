/**
 * The warehouse's own people and mailboxes: the domains and addresses whose mail is the warehouse's,
 * never a customer's. Only they forward mail on a customer's behalf (anyone else's quoted header is
 * quoted text), and none of their addresses is ever a customer's mark.
 *
 * Configured with `createEmailAgent({ internal })`; the stack reads `EMAIL_INTERNAL_DOMAINS` and
 * `EMAIL_INTERNAL_ADDRESSES` (comma-separated). Compared case-insensitively, whole: a domain covers
 * itself and its subdomains (`warehouse.example` covers `ops.warehouse.example`, never
 * `warehouse.example-mail.invalid`).
 */
export interface InternalSendersOptions {
  readonly domains?: readonly string[];
  readonly addresses?: readonly string[];
}

export class InternalSenders {
  readonly #domains: readonly string[];
  readonly #addresses: ReadonlySet<string>;

  constructor(options: InternalSendersOptions = {}) {
    this.#domains = (options.domains ?? []).map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter((d) => d !== '');
    this.#addresses = new Set((options.addresses ?? []).map((a) => a.trim().toLowerCase()).filter((a) => a !== ''));
  }

  /** Whether nobody is configured: every forward is then someone else's quoted text. */
  get empty(): boolean {
    return this.#domains.length === 0 && this.#addresses.size === 0;
  }

  /** Whether `address` (a bare mailbox, `local@domain`) is the warehouse's own. */
  has(address: string): boolean {
    const lower = address.trim().toLowerCase();
    if (this.#addresses.has(lower)) return true;
    const at = lower.lastIndexOf('@');
    if (at < 0) return false;
    const domain = lower.slice(at + 1);
    return this.#domains.some((d) => domain === d || domain.endsWith(`.${d}`));
  }
}

/** Reads the comma-separated lists the stack passes in its environment. */
export function internalSendersFromEnv(env: NodeJS.ProcessEnv): InternalSenders {
  const list = (value: string | undefined): string[] =>
    (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  return new InternalSenders({ domains: list(env['EMAIL_INTERNAL_DOMAINS']), addresses: list(env['EMAIL_INTERNAL_ADDRESSES']) });
}
