// What the console may promise about a lesson depends on the agent's `decidedBy` (SPEC.md §1.5):
// under rules a lesson decides the next message it applies to; under a model it is one example
// among many, and the console must not say the next message will follow it.

export function lessonPromise(decidedBy: string): string {
  switch (decidedBy) {
    case 'rules':
      return 'This agent decides by rules: the lesson takes effect on the next message it applies to.';
    case 'model':
      return 'This agent decides with a model: the lesson is one example among many, so the next message may still be read differently.';
    case 'hybrid':
      return 'This agent decides with rules and a model together: the lesson is one example among many, and it cannot be promised to decide the next message.';
    default:
      return 'This agent does not say how it uses a lesson, so nothing is promised about the next message.';
  }
}

/** The same promise for a rollback: what goes back into force, and when. */
export function rollbackPromise(decidedBy: string): string {
  return decidedBy === 'rules'
    ? 'Rules decide here: the version you roll back to decides the next message; tasks already waiting keep the version they started on.'
    : 'The version you roll back to is what the agent learns from next; tasks already waiting keep the version they started on.';
}
