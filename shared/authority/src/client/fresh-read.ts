/**
 * One read shared by every caller that can use its answer, and by no caller that cannot: each
 * caller gets the answer of a request *sent after it called*. A caller arriving while no request
 * is out sends one at once; callers arriving while one is out wait for it to finish and then share
 * the next, sent once for all of them. So under concurrent load there is at most one request out
 * and one waiting, instead of one per caller, and no caller is ever handed an answer that was
 * formed before it asked (a task pins the version active when it starts, SPEC §4.4: a version
 * activated before a message arrives must be the one its task decides with).
 */
export class FreshRead<T> {
  /** The request out now: sent before anyone waiting now asked, so theirs is the next one. */
  private sent: Promise<T> | undefined;
  /** The request that will be sent when `sent` finishes, shared by everyone who asked meanwhile. */
  private next: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (this.next) return this.next;
    if (!this.sent) return this.send();
    const settled = this.sent.then(
      () => undefined,
      () => undefined,
    );
    this.next = settled.then(() => {
      this.next = undefined;
      return this.send();
    });
    return this.next;
  }

  private send(): Promise<T> {
    const request = this.read();
    this.sent = request;
    const clear = () => {
      if (this.sent === request) this.sent = undefined;
    };
    request.then(clear, clear);
    return request;
  }
}
