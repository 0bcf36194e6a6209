/**
 * Which customers each sender's recent messages were decided for, as this agent saw them: a
 * sender seen with two customers is a shared sender (a booking portal, a forwarding desk), and a
 * mark on its address alone would take the other customer's mail. Bounded: the least recently
 * seen sender goes first, and each sender keeps its few latest customers, so memory is the same
 * after a million messages as after a thousand. Kept in memory by each replica: it steers only
 * which mark is offered, never a decision.
 */
export class RecentSenders {
  private readonly senders = new Map<string, string[]>();

  constructor(
    private readonly capacity = 10_000,
    private readonly perSender = 8,
  ) {}

  /** Record that a message from `address` was decided for `customer`. */
  saw(address: string, customer: string): void {
    const key = address.trim().toLowerCase();
    if (key === '') return;
    const customers = this.senders.get(key) ?? [];
    this.senders.delete(key);
    const next = [customer, ...customers.filter((known) => known !== customer)].slice(0, this.perSender);
    this.senders.set(key, next);
    if (this.senders.size > this.capacity) {
      const oldest = this.senders.keys().next().value;
      if (oldest !== undefined) this.senders.delete(oldest);
    }
  }

  /** The customers recently decided for messages from `address`, latest first. */
  customersOf(address: string): readonly string[] {
    return this.senders.get(address.trim().toLowerCase()) ?? [];
  }

  get size(): number {
    return this.senders.size;
  }
}
